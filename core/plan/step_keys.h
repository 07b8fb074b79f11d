/* The step-table readers' shared pieces (core/plan/ only): where a key's value
 * comes from, and the error that names the key and what it wanted. */
#ifndef HB_LUA_STEP_KEYS_H
#define HB_LUA_STEP_KEYS_H

#include <errno.h>
#include <lauxlib.h>
#include <lua.h>
#include <stdio.h>

#include "measure/workload.h"

/* Push the value of key: the step's own, else the default's, else nil. */
static inline int get_key(lua_State *L, int idx, int def, const char *key)
{
	if (lua_getfield(L, idx, key) != LUA_TNIL || !def)
		return lua_type(L, -1);
	lua_pop(L, 1);
	return lua_getfield(L, def, key);
}

struct keyctx {
	lua_State *L;
	int idx, def;
	char *err;
	size_t len;
};

static inline int bad(struct keyctx *k, const char *key, const char *want)
{
	snprintf(k->err, k->len, "%s=%s: expected %s", key,
		 luaL_tolstring(k->L, -1, NULL), want);
	lua_pop(k->L, 2);
	return -EINVAL;
}

/* key = "text" (or the default's; def when absent) into *out, malloc'd */
int step_get_str(struct keyctx *k, const char *key, const char *def, char **out);

/* engine = "name" and its options table (plan/step_engine.c) */
struct step_spec;
int step_get_engine(struct keyctx *k, struct step_spec *s);

/* targets = "path" | { "path", ... }; absent: hb.targets (at targets_idx) */
int step_get_targets(struct keyctx *k, int targets_idx, struct workload *wl);

#endif
