/* The hb.* functions a plan calls; hb.run and hb.exec share one step path. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <lauxlib.h>
#include <lua.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "plan/state.h"
#include "base/stop.h"
#include "base/strbuf.h"
#include "base/util.h"

/* The plan, the upvalue of every hb.* function (api_open). */
static struct plan *plan_of(lua_State *L)
{
	return lua_touserdata(L, lua_upvalueindex(1));
}

/* ---- hb.plan{ name=, description=, defaults={} } ---------------------- */
static int l_plan(lua_State *L)
{
	struct plan *p = plan_of(L);
	char err[512];

	luaL_checktype(L, 1, LUA_TTABLE);
	lua_pushnil(L);
	while (lua_next(L, 1)) {
		const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?";

		if (strcmp(k, "name") && strcmp(k, "description") && strcmp(k, "defaults"))
			return luaL_error(L, "hb.plan: unknown key '%s' (it takes name, "
					  "description, defaults)", k);
		if (strcmp(k, "defaults") && lua_type(L, -1) != LUA_TSTRING)	/* dropped before */
			return luaL_error(L, "hb.plan: %s is a %s: expected a string", k,
					  luaL_typename(L, -1));
		if (strcmp(k, "defaults")) {
			size_t n;
			const char *v = lua_tolstring(L, -1, &n);

			if (plan_text_check(v, n, k, err, sizeof(err)))
				return luaL_error(L, "hb.plan: %s", err);
		}
		lua_pop(L, 1);
	}
	if (lua_getfield(L, 1, "name") == LUA_TSTRING) {
		free(p->info->name);
		p->info->name = strdup(lua_tostring(L, -1));
	}
	if (lua_getfield(L, 1, "description") == LUA_TSTRING) {
		free(p->info->description);
		p->info->description = strdup(lua_tostring(L, -1));
	}
	lua_pop(L, 2);
	switch (lua_getfield(L, 1, "defaults")) {
	case LUA_TNIL:
		break;
	case LUA_TTABLE:
		if (plan_check_keys(L, -1, err, sizeof(err)))
			return luaL_error(L, "hb.plan defaults: %s", err);
		lua_pushvalue(L, -1);
		lua_setfield(L, LUA_REGISTRYINDEX, REG_DEFAULTS);
		break;
	default:
		return luaL_error(L, "hb.plan: defaults must be a table of step keys");
	}
	return 0;
}

/* The targets in force: --target, else what the plan set. */
static void push_targets(lua_State *L)
{
	if (lua_getfield(L, LUA_REGISTRYINDEX, REG_CLI_TARGETS) != LUA_TNIL)
		return;
	lua_pop(L, 1);
	lua_getfield(L, LUA_REGISTRYINDEX, REG_TARGETS);
}

/* The line of the plan that led to the C function running now. */
static int caller_line(lua_State *L)
{
	return plan_line(L, plan_of(L)->o->path, 1);
}

/* Raise "plan.lua:LINE: msg", naming the plan's line even from a module,
 * and then the module's line: "... (at scripts/review.lua:58)". */
static int plan_error(lua_State *L, const char *fmt, const char *what, const char *msg)
{
	int line = caller_line(L);
	char where[PATH_MAX + 32] = "";

	if (line > 0) {
		char module[PATH_MAX];
		int mline = plan_module_line(L, plan_of(L)->o->path, 1, module, sizeof(module));

		lua_pushfstring(L, "%s:%d: ", plan_of(L)->o->path, line);
		if (mline > 0)
			snprintf(where, sizeof(where), " (at %s:%d)", module, mline);
	} else {
		luaL_where(L, 1);
	}
	lua_pushfstring(L, fmt, what, msg);
	lua_pushstring(L, where);
	lua_concat(L, 3);
	return lua_error(L);
}

/* Where the plan made the step: its line, and a module's between them. */
static void step_position(lua_State *L, struct step_spec *spec)
{
	char module[PATH_MAX];
	int line = plan_module_line(L, plan_of(L)->o->path, 1, module, sizeof(module));

	spec->line = caller_line(L);
	if (line > 0)
		spec->module_pos = util_strdup_printf("%s:%d", module, line);
}

/* Run the step hook. Its time counts as the plan's own: in the dry pass,
 * where the hook only lists the step, a loop of hb.run is stopped by the
 * dry pass's time limit as a loop of Lua is (both in this thread's CPU
 * time); the real pass has no time limit (limits.c), so its hooks' time
 * (a device probed, a step run) is not kept apart either. */
static int call_step(struct plan *p, struct step_spec *spec, struct step_totals *t,
		     int64_t *step_id, char *err, size_t len)
{
	return p->hooks->step(p->hooks->ctx, spec, t, step_id, err, len);
}

/* One step more than --max-steps allows (a plan that makes steps forever:
 * each one's memory is outside Lua's limit) is a limit passed, with the
 * plan's line; like the others, no pcall swallows it. */
static int raise_step_limit(lua_State *L, struct plan *p, const char *fn, unsigned max)
{
	int line = caller_line(L);

	if (line > 0)
		lua_pushfstring(L, "%s:%d: ", p->o->path, line);
	else
		lua_pushfstring(L, "%s: ", p->o->path);
	lua_pushfstring(L, "%s: the plan makes more than %d steps: does it loop forever? "
			"(--max-steps N raises the limit)", fn, (int)max);
	lua_concat(L, 2);
	return plan_limits_raise(L, lua_tostring(L, -1));
}

static void push_results(lua_State *L, const struct step_totals *t, int64_t step_id, bool dry)
{
	lua_createtable(L, 0, 12);
#define FIELD(name, val) (lua_pushnumber(L, (val)), lua_setfield(L, -2, name))
	FIELD("iops", t->res.iops);
	FIELD("mbps", t->res.mbps);
	FIELD("read_iops", t->res.read_iops);
	FIELD("write_iops", t->res.write_iops);
	FIELD("lat_mean_us", t->res.lat_mean);
	FIELD("lat_p50_us", t->res.lat_p50);
	FIELD("lat_p99_us", t->res.lat_p99);
	FIELD("lat_p999_us", t->res.lat_p999);
	FIELD("lat_max_us", t->res.lat_max);
#undef FIELD
	lua_pushinteger(L, (lua_Integer)t->res.errors);
	lua_setfield(L, -2, "errors");
	lua_pushinteger(L, (lua_Integer)step_id);
	lua_setfield(L, -2, "step_id");
	lua_pushboolean(L, dry);
	lua_setfield(L, -2, "dry");
}

/* A measured step's host share (measure/hostcpu.h) into the results table on
 * top: nil where not measured (a step on a simulator's clock). */
static void push_host_share(lua_State *L, const struct step_totals *t)
{
	if (!isnan(t->cpu_busy)) {
		lua_pushnumber(L, t->cpu_busy);
		lua_setfield(L, -2, "cpu_busy");
	}
	if (!isnan(t->host_busy)) {
		lua_pushnumber(L, t->host_busy);
		lua_setfield(L, -2, "host_busy");
	}
	if (t->host_bound >= 0) {
		lua_pushboolean(L, t->host_bound == 1);
		lua_setfield(L, -2, "host_bound");
	}
}

/* hb.run and hb.exec: the step (spec, built from the plan's table) to the
 * runner's hook, and its results back to the plan; fn names the caller. */
static int run_step(lua_State *L, const char *fn, struct step_spec *spec)
{
	struct plan *p = plan_of(L);
	unsigned max = p->o->max_steps ? p->o->max_steps : PLAN_MAX_STEPS;
	struct step_totals *t = p->steps < max ? calloc(1, sizeof(*t)) : NULL;
	bool exec = spec->kind == STEP_EXEC;
	int64_t step_id = 0;
	char err[1024];
	int rc;

	if (!t) {
		step_spec_free(spec);
		free(spec);
		if (p->steps >= max)
			return raise_step_limit(L, p, fn, max);
		return luaL_error(L, "out of memory");
	}
	p->steps++;
	step_position(L, spec);
	plan_layout_check(p, spec);
	rc = call_step(p, spec, t, &step_id, err, sizeof(err));	/* spec is the hook's */
	if (rc == 0) {
		push_results(L, t, step_id, p->o->dry);
		if (!p->o->dry && !exec)
			push_host_share(L, t);
		if (exec) {
			lua_pushnumber(L, t->res.elapsed_s);
			lua_setfield(L, -2, "elapsed_s");
			lua_pushinteger(L, t->res.exit_status);
			lua_setfield(L, -2, "exit_status");
		}
	}
	step_totals_release(t);
	free(t);
	if (rc == -EINTR)
		return plan_raise_interrupt(L);
	if (rc)
		return plan_error(L, "%s: %s", fn, err);
	return 1;
}

/* ---- hb.run{ ... } -> results --------------------------------------- */
static int l_run(lua_State *L)
{
	struct step_spec *spec;
	char err[1024];
	int def;

	if (hb_stop_requested)
		return plan_raise_interrupt(L);
	luaL_checktype(L, 1, LUA_TTABLE);
	lua_settop(L, 1);
	def = lua_getfield(L, LUA_REGISTRYINDEX, REG_DEFAULTS) == LUA_TTABLE ? 2 : 0;
	push_targets(L);
	spec = calloc(1, sizeof(*spec));
	if (!spec)
		return luaL_error(L, "out of memory");
	if (plan_step_from_table(L, 1, def, 3, spec, err, sizeof(err))) {
		free(spec);
		return plan_error(L, "%s: %s", "hb.run", err);
	}
	return run_step(L, "hb.run", spec);
}

/* ---- hb.exec{ cmd=, bytes=, name=, group=, estimate= } ----------------- */
/* The value at the top for an error: its text, or its type (never an address) */
static const char *exec_shown(lua_State *L)
{
	int t = lua_type(L, -1);

	if (t == LUA_TSTRING)
		return *lua_tostring(L, -1) ? lua_tostring(L, -1) : "\"\"";
	if (t == LUA_TNUMBER || t == LUA_TBOOLEAN)
		return luaL_tolstring(L, -1, NULL);
	return t == LUA_TTABLE ? "a table" : t == LUA_TFUNCTION ? "a function" : "a value";
}

/* key of hb.exec's table (at 1): absent, or a string (copied to *out) */
static int exec_opt_str(lua_State *L, const char *key, char **out, char *err, size_t len)
{
	int t = lua_getfield(L, 1, key);

	if (t == LUA_TSTRING && *lua_tostring(L, -1)) {
		size_t n;
		const char *v = lua_tolstring(L, -1, &n);

		if (plan_text_check(v, n, key, err, len))
			return -EINVAL;
		*out = strdup(v);
	} else if (t != LUA_TNIL) {
		snprintf(err, len, "%s=%s: expected a string that is not empty", key,
			 exec_shown(L));
		return -EINVAL;
	}
	lua_pop(L, 1);
	return 0;
}

static int exec_spec(lua_State *L, struct step_spec *s, char *err, size_t len)
{
	static const char *const keys[] = { "cmd", "bytes", "name", "group", "estimate", NULL };

	lua_pushnil(L);
	while (lua_next(L, 1)) {
		const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?";
		bool known = false;

		for (unsigned i = 0; keys[i]; i++)
			known |= !strcmp(k, keys[i]);
		lua_pop(L, 1);
		if (!known) {
			lua_pop(L, 1);
			snprintf(err, len, "unknown key '%s' (it takes cmd, bytes, name, group, "
				 "estimate)", k);
			return -EINVAL;
		}
	}
	if (lua_getfield(L, 1, "cmd") != LUA_TSTRING || !*lua_tostring(L, -1)) {
		snprintf(err, len, "cmd= must be the command to run (a string)");
		return -EINVAL;
	}
	s->kind = STEP_EXEC;
	s->cmd = strdup(lua_tostring(L, -1));
	if (lua_getfield(L, 1, "bytes") != LUA_TNIL &&
	    util_parse_size(lua_tostring(L, -1) ? lua_tostring(L, -1) : "", &s->exec_bytes)) {
		snprintf(err, len, "bytes=%s: expected a size such as \"1t\"",
			 luaL_tolstring(L, -1, NULL));
		return -EINVAL;
	}
	if (exec_opt_str(L, "name", &s->name, err, len) ||
	    exec_opt_str(L, "group", &s->group, err, len))
		return -EINVAL;
	if (!s->name)
		s->name = strdup(s->cmd);
	/* seconds, for the plan's time estimate only; a negative one wrapped it */
	if (lua_getfield(L, 1, "estimate") != LUA_TNIL && (lua_type(L, -1) != LUA_TNUMBER ||
	    !(lua_tonumber(L, -1) >= 0 && lua_tonumber(L, -1) <= 1e9))) {
		snprintf(err, len, "estimate=%s: expected the seconds it may take, a number "
			 "from 0 to 1000000000", exec_shown(L));
		return -EINVAL;
	}
	s->estimate = lua_tonumber(L, -1);
	struct strbuf b = { 0 };

	sb_printf(&b, "{\"cmd\":");
	sb_json_str(&b, s->cmd);
	sb_printf(&b, ",\"bytes\":%llu}", (unsigned long long)s->exec_bytes);
	s->params_json = sb_take(&b);
	lua_settop(L, 1);
	return 0;
}

static int l_exec(lua_State *L)
{
	struct plan *p = plan_of(L);
	struct step_spec *spec;
	char err[1024];
	int rc;

	if (hb_stop_requested)
		return plan_raise_interrupt(L);
	luaL_checktype(L, 1, LUA_TTABLE);
	lua_settop(L, 1);
	spec = calloc(1, sizeof(*spec));
	if (!spec)
		return luaL_error(L, "out of memory");
	rc = exec_spec(L, spec, err, sizeof(err));
	if (!rc && !p->o->allow_exec && !p->o->listing) {
		snprintf(err, sizeof(err), "running shell commands needs --allow-exec on the "
			 "command line (the command: %s)", spec->cmd);
		rc = -EPERM;
	}
	if (rc) {
		step_spec_free(spec);
		free(spec);
		return plan_error(L, "%s: %s", "hb.exec", err);
	}
	return run_step(L, "hb.exec", spec);
}

/* ---- hb._record_steady{...}: scripts/hbatest.lua stores hb.steady's outcome */
static double num_field(lua_State *L, const char *k)
{
	double v;

	lua_getfield(L, 1, k);
	v = lua_tonumber(L, -1);
	lua_pop(L, 1);
	return v;
}

static int l_record_steady(lua_State *L)
{
	struct plan *p = plan_of(L);
	struct steady_result r = { 0 };

	luaL_checktype(L, 1, LUA_TTABLE);
	if (p->o->dry || !p->hooks->steady)
		return 0;
	lua_getfield(L, 1, "name");
	lua_getfield(L, 1, "track");
	lua_getfield(L, 1, "attained");
	r.name = lua_tostring(L, -3) ? lua_tostring(L, -3) : "steady";
	r.track = lua_tostring(L, -2) ? lua_tostring(L, -2) : "iops";
	r.attained = lua_toboolean(L, -1);
	r.rounds = (int)num_field(L, "rounds");
	r.window_first = (int)num_field(L, "window_first");
	r.window_last = (int)num_field(L, "window_last");
	r.mean = num_field(L, "mean");
	r.slope = num_field(L, "slope");
	r.data_excursion = num_field(L, "data_excursion");
	r.slope_excursion = num_field(L, "slope_excursion");
	r.max_data_excursion = num_field(L, "max_data_excursion");
	r.max_slope_excursion = num_field(L, "max_slope_excursion");
	r.first_step_id = (int64_t)num_field(L, "first_step_id");
	r.last_step_id = (int64_t)num_field(L, "last_step_id");
	p->hooks->steady(p->hooks->ctx, &r);
	return 0;
}

/* ---- hb.probe(phase) ------------------------------------------------------ */
static int l_probe(lua_State *L)
{
	struct plan *p = plan_of(L);
	const char *phase = luaL_checkstring(L, 1);

	if (!strcmp(phase, "start") || !strcmp(phase, "end"))
		return luaL_error(L, "hb.probe: 'start' and 'end' are taken by the run itself");
	if (!p->o->dry && p->hooks->probe)
		p->hooks->probe(p->hooks->ctx, phase);
	return 0;
}

/* key into p->keys_read once, for the message about a --set nobody reads */
static void note_key_read(struct plan *p, const char *key)
{
	char *k = p->keys_read;
	size_t used = strlen(k), klen = strlen(key);

	for (const char *s = k; (s = strstr(s, key)); s += klen)
		if ((s == k || s[-1] == ' ') && (s[klen] == ',' || !s[klen]))
			return;
	if (used + klen + 6 < sizeof(p->keys_read))
		snprintf(k + used, sizeof(p->keys_read) - used, "%s%s", used ? ", " : "", key);
	else if (used && strcmp(k + used - 3, "..."))
		snprintf(k + used, sizeof(p->keys_read) - used, ", ...");
}

/* v as the type of the value at idx (a number, a boolean, else a string) */
static int set_convert(lua_State *L, int idx, const char *key, const char *v)
{
	switch (lua_type(L, idx)) {
	case LUA_TNUMBER:
		if (!lua_stringtonumber(L, v))
			return luaL_error(L, "--set %s: '%s' is not a number", key, v);
		return 1;
	case LUA_TBOOLEAN:
		if (strcmp(v, "true") && strcmp(v, "false") && strcmp(v, "1") && strcmp(v, "0"))
			return luaL_error(L, "--set %s: '%s' is not true or false", key, v);
		lua_pushboolean(L, !strcmp(v, "true") || !strcmp(v, "1"));
		return 1;
	default:
		lua_pushstring(L, v);
		return 1;
	}
}

/* A list default: "1,2,32" is a list, each item of the type of the
 * default's first (a string when it is empty). */
static int set_list(lua_State *L, const char *key, const char *v)
{
	lua_Integer n = 0;

	lua_geti(L, 2, 1);	/* the item type */
	lua_newtable(L);
	for (const char *s = v;; s++) {
		const char *e = strchr(s, ',');
		size_t len = e ? (size_t)(e - s) : strlen(s);

		if (!len)
			return luaL_error(L, "--set %s: '%s' has an empty item (a list is "
					  "comma-separated: 1,2,32)", key, v);
		lua_pushlstring(L, s, len);
		set_convert(L, -3, key, lua_tostring(L, -1));
		lua_seti(L, -3, ++n);
		lua_pop(L, 1);
		if (!e)
			return 1;
		s = e;
	}
}

/* ---- hb.set(key, default) -------------------------------------------- */
static int l_set(lua_State *L)
{
	struct plan *p = plan_of(L);
	const char *key = luaL_checkstring(L, 1);
	size_t klen = strlen(key);
	int t = lua_type(L, 2);

	if (t != LUA_TNONE && t != LUA_TNIL && t != LUA_TNUMBER && t != LUA_TBOOLEAN &&
	    t != LUA_TSTRING && t != LUA_TTABLE)
		return luaL_error(L, "hb.set: the default of '%s' is a %s: give a number, a "
				  "string, a boolean, a list or nil", key, lua_typename(L, t));
	note_key_read(p, key);
	for (unsigned i = 0; i < p->o->nsets; i++) {
		const char *kv = p->o->sets[i], *v = kv + klen + 1;

		if (strncmp(kv, key, klen) || kv[klen] != '=')
			continue;
		p->set_used[i] = true;
		return lua_istable(L, 2) ? set_list(L, key, v) : set_convert(L, 2, key, v);
	}
	lua_settop(L, 2);
	return 1;
}

static int l_log(lua_State *L)
{
	struct plan *p = plan_of(L);
	int n = lua_gettop(L);
	luaL_Buffer b;

	luaL_buffinit(L, &b);
	for (int i = 1; i <= n; i++) {
		luaL_tolstring(L, i, NULL);
		luaL_addvalue(&b);
		if (i < n)
			luaL_addchar(&b, ' ');
	}
	luaL_pushresult(&b);
	if (p->hooks->log)
		p->hooks->log(p->hooks->ctx, lua_tostring(L, -1));
	return 0;
}

/* ---- hb.note(text): stored with the run (the runner splits its lines) -- */
static int l_note(lua_State *L)
{
	struct plan *p = plan_of(L);
	char err[512];
	const char *text;
	size_t n;

	if (lua_type(L, 1) != LUA_TSTRING)
		return plan_error(L, "%s: %s", "hb.note", lua_pushfstring(L, "the note is a %s: "
				  "expected a string", luaL_typename(L, 1)));
	text = lua_tolstring(L, 1, &n);
	if (plan_text_check(text, n, "hb.note", err, sizeof(err)))
		return plan_error(L, "%s%s", "", err);
	if (!text[strspn(text, " \t\r\n")])
		return plan_error(L, "%s: %s", "hb.note", "an empty note: give some text");
	if (p->hooks->note)
		p->hooks->note(p->hooks->ctx, text);
	return 0;
}

static int l_sleep(lua_State *L)
{
	struct plan *p = plan_of(L);
	double s = luaL_checknumber(L, 1);
	uint64_t end;

	if (!(s >= 0 && s <= 1e7))	/* NaN too; 1e7 s: 115 days */
		return luaL_error(L, "hb.sleep: %f seconds: expected 0 to 10000000", s);
	if (p->o->dry)
		return 0;
	end = util_now_ns() + (uint64_t)(s * 1e9);
	while (util_now_ns() < end) {
		struct timespec ts = { 0, 50 * 1000 * 1000 };

		if (hb_stop_requested)
			return plan_raise_interrupt(L);
		if (p->hooks->tick)	/* a sleep of minutes is not a dead run */
			p->hooks->tick(p->hooks->ctx);
		nanosleep(&ts, NULL);
	}
	return 0;
}

/* hb.targets reads the targets in force; assigning sets the plan's own */
static int l_hb_index(lua_State *L)
{
	if (strcmp(luaL_checkstring(L, 2), "targets") == 0) {
		push_targets(L);
		return 1;
	}
	return 0;
}

static int l_hb_newindex(lua_State *L)
{
	if (strcmp(luaL_checkstring(L, 2), "targets") == 0) {
		if (!lua_istable(L, 3) && !lua_isstring(L, 3))
			return luaL_error(L, "hb.targets must be a path or a table of paths");
		lua_pushvalue(L, 3);
		lua_setfield(L, LUA_REGISTRYINDEX, REG_TARGETS);
		return 0;
	}
	lua_rawset(L, 1);
	return 0;
}

static int l_print(lua_State *L)
{
	return l_log(L);
}

static const luaL_Reg hb_funcs[] = {
	{ "plan", l_plan },
	{ "run", l_run },
	{ "exec", l_exec },
	{ "probe", l_probe },
	{ "_record_steady", l_record_steady },
	{ "set", l_set },
	{ "log", l_log },
	{ "sleep", l_sleep },
	{ "note", l_note },
	{ NULL, NULL },
};

void api_open(lua_State *L, struct plan *p)
{
	lua_newtable(L);
	lua_setfield(L, LUA_REGISTRYINDEX, REG_TARGETS);
	if (p->o->ntargets) {
		lua_createtable(L, (int)p->o->ntargets, 0);
		for (unsigned i = 0; i < p->o->ntargets; i++) {
			lua_pushstring(L, p->o->targets[i]);
			lua_rawseti(L, -2, i + 1);
		}
		lua_setfield(L, LUA_REGISTRYINDEX, REG_CLI_TARGETS);
	}
	luaL_newlibtable(L, hb_funcs);
	lua_pushlightuserdata(L, p);
	luaL_setfuncs(L, hb_funcs, 1);
	lua_pushboolean(L, p->o->dry);
	lua_setfield(L, -2, "dry");
	lua_createtable(L, 0, 2);
	lua_pushlightuserdata(L, p);
	lua_pushcclosure(L, l_hb_index, 1);
	lua_setfield(L, -2, "__index");
	lua_pushlightuserdata(L, p);
	lua_pushcclosure(L, l_hb_newindex, 1);
	lua_setfield(L, -2, "__newindex");
	lua_setmetatable(L, -2);
	lua_setglobal(L, "hb");
	lua_pushlightuserdata(L, p);
	lua_pushcclosure(L, l_print, 1);
	lua_setglobal(L, "print");
}
