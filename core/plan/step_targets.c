/* The targets key of a step table: a path, or a list of paths or target
 * names; absent, the defaults' (unless --target), then hb.targets. */
#include <stdlib.h>
#include <string.h>

#include "plan/state.h"
#include "plan/step_keys.h"

/* A string key: the step's or the default's; def (copied) when absent */
int step_get_str(struct keyctx *k, const char *key, const char *def, char **out)
{
	int t = get_key(k->L, k->idx, k->def, key);

	if (t == LUA_TNIL) {
		*out = def ? strdup(def) : NULL;
	} else if (t == LUA_TSTRING) {
		size_t n;
		const char *v = lua_tolstring(k->L, -1, &n);

		if (plan_text_check(v, n, key, k->err, k->len)) {
			lua_pop(k->L, 1);
			return -EINVAL;
		}
		*out = strdup(v);
	} else {
		return bad(k, key, "a string");
	}
	lua_pop(k->L, 1);
	return 0;
}

#define TARGET_WANT "a path string or a target name, such as \"/dev/sdb\" or \"vol\""

/* targets[i] (at the top, above its table) is not a path: say what it is,
 * never a table's address; both are popped */
static int bad_target(struct keyctx *k, const char *key, lua_Integer i)
{
	lua_State *L = k->L;
	int t = lua_type(L, -1), top = lua_gettop(L) - 2;
	const char *what = t == LUA_TSTRING ? "an empty string" : luaL_typename(L, -1);

	if (t == LUA_TNUMBER || t == LUA_TBOOLEAN)
		snprintf(k->err, k->len, "%s[%lld] is a %s (%s): each element must be "
			 TARGET_WANT, key, (long long)i, what, luaL_tolstring(L, -1, NULL));
	else
		snprintf(k->err, k->len, "%s[%lld] is %s%s: each element must be " TARGET_WANT,
			 key, (long long)i, t == LUA_TSTRING ? "" : "a ", what);
	lua_settop(L, top);
	return -EINVAL;
}

/* a key of the targets table (at -2, its value above) that is not a list
 * position, as in { "a", x = "b" }: named, never silently left out; the
 * key, value and table are popped */
static int bad_target_key(struct keyctx *k, const char *key)
{
	lua_State *L = k->L;
	int top = lua_gettop(L) - 3;

	snprintf(k->err, k->len, "%s has the key %s, which is not a list position: give "
		 "a list such as { \"/dev/sdb\", \"/dev/sdc\" }", key, luaL_tolstring(L, -2, NULL));
	lua_settop(L, top);
	return -EINVAL;
}

/* The targets value at the top (popped) into wl; key names it in errors */
static int read_targets(struct keyctx *k, const char *key, struct workload *wl)
{
	lua_State *L = k->L;
	int t = lua_type(L, -1);
	lua_Integer n;

	if (t == LUA_TSTRING) {
		lua_newtable(L);
		lua_insert(L, -2);
		lua_rawseti(L, -2, 1);
	} else if (t != LUA_TTABLE) {
		return bad(k, key, TARGET_WANT ", or a table of them");
	}
	n = luaL_len(L, -1);
	for (lua_pushnil(L); lua_next(L, -2); lua_pop(L, 1))
		if (!lua_isinteger(L, -2) || lua_tointeger(L, -2) < 1 || lua_tointeger(L, -2) > n)
			return bad_target_key(k, key);
	wl->targets = calloc(n ? (size_t)n : 1, sizeof(*wl->targets));
	for (lua_Integer i = 1; i <= n; i++) {
		if (lua_rawgeti(L, -1, i) != LUA_TSTRING || !*lua_tostring(L, -1)) {
			return bad_target(k, key, i);
		}
		wl->targets[wl->ntargets++].path = strdup(lua_tostring(L, -1));
		lua_pop(L, 1);
	}
	lua_pop(L, 1);
	return 0;
}

/* The step's own targets, else the defaults', else hb.targets. --target
 * replaces the plan's targets, those of hb.plan{defaults=} too; a mistake
 * in the defaults' is still one (as in another engine's options). */
int step_get_targets(struct keyctx *k, int targets_idx, struct workload *wl)
{
	lua_State *L = k->L;
	struct step_spec unused = { 0 };	/* the defaults' targets, checked, not used */
	bool cli;
	int rc;

	if (lua_getfield(L, k->idx, "targets") != LUA_TNIL)
		return read_targets(k, "targets", wl);
	lua_pop(L, 1);
	cli = lua_getfield(L, LUA_REGISTRYINDEX, REG_CLI_TARGETS) != LUA_TNIL;
	lua_pop(L, 1);
	if (k->def && lua_getfield(L, k->def, "targets") != LUA_TNIL) {
		if (!cli)
			return read_targets(k, "targets", wl);
		rc = read_targets(k, "targets", &unused.wl);
		step_spec_free(&unused);
		if (rc)
			return rc;
	} else if (k->def) {
		lua_pop(L, 1);
	}
	lua_pushvalue(L, targets_idx);
	return read_targets(k, "hb.targets", wl);
}
