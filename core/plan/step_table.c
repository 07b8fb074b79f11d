/* Reading a step from a plan's Lua table (hb.run{...}) into a step_spec;
 * the rules on the values are plain C, in core/measure/step_spec.c. */
#include <errno.h>
#include <lauxlib.h>
#include <lua.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/state.h"
#include "measure/fio_job.h"
#include "measure/loader.h"
#include "measure/placement.h"
#include "measure/step_spec.h"
#include "base/strbuf.h"
#include "base/util.h"

#define DEFAULT_DURATION 60
#define DEFAULT_SEED 1

int plan_check_keys(lua_State *L, int idx, char *err, size_t len)
{
	idx = lua_absindex(L, idx);
	lua_pushnil(L);
	while (lua_next(L, idx)) {
		lua_pop(L, 1);
		if (lua_type(L, -1) != LUA_TSTRING) {	/* the key's type, not the table's */
			const char *type = luaL_typename(L, -1), *text = NULL;

			if (lua_type(L, -1) == LUA_TNUMBER || lua_type(L, -1) == LUA_TBOOLEAN)
				text = luaL_tolstring(L, -1, NULL);	/* never an address */
			snprintf(err, len, "a step key must be a name, not a %s%s%s%s: a value "
				 "without its name = ?", type, text ? " (" : "", text ? text : "",
				 text ? ")" : "");
			lua_settop(L, idx);
			return -EINVAL;
		}
		if (!step_key_known(lua_tostring(L, -1))) {
			int rc = step_unknown_key(lua_tostring(L, -1), err, len);

			lua_pop(L, 1);
			return rc;
		}
	}
	return 0;
}

#include "plan/step_keys.h"

static int get_uint(struct keyctx *k, const char *key, unsigned lo, unsigned hi,
		    unsigned def, unsigned *out)
{
	int t = get_key(k->L, k->idx, k->def, key);
	lua_Integer v;
	int ok;

	*out = def;
	if (t == LUA_TNIL) {
		lua_pop(k->L, 1);
		return 0;
	}
	v = lua_tointegerx(k->L, -1, &ok);
	if (t != LUA_TNUMBER || !ok || v < lo || v > hi) {
		char want[160];

		/* "duration=30: expected a whole number" when 30 is hb.set's string */
		snprintf(want, sizeof(want), "a whole number from %u to %u%s", lo, hi,
			 t == LUA_TSTRING ? ", not a string (from hb.set without a default? it "
			 "converts --set values to the type of its default: give a number)" : "");
		return bad(k, key, want);
	}
	*out = (unsigned)v;
	lua_pop(k->L, 1);
	return 0;
}

static int get_size(struct keyctx *k, const char *key, uint64_t *out)
{
	int t = get_key(k->L, k->idx, k->def, key);

	if (t == LUA_TNIL) {
		lua_pop(k->L, 1);
		return 0;
	}
	if ((t != LUA_TNUMBER && t != LUA_TSTRING) ||
	    util_parse_size(lua_tostring(k->L, -1), out) || *out == 0)
		return bad(k, key, "a size such as 4096, \"4k\", \"1m\" or \"2g\"");
	lua_pop(k->L, 1);
	return 0;
}

static int add_bs(struct keyctx *k, struct workload *wl, lua_State *L, int kidx, uint32_t w)
{
	uint64_t sz;

	if (wl->nbs == WL_MAX_BS) {
		snprintf(k->err, k->len, "bs: at most %d block sizes", WL_MAX_BS);
		return -EINVAL;
	}
	if (util_parse_size(lua_tostring(L, kidx), &sz) || sz == 0 || sz > (64u << 20)) {
		snprintf(k->err, k->len, "bs: '%s' is not a block size (\"512\" .. \"64m\", "
			 "e.g. \"4k\")", lua_tostring(L, kidx));
		return -EINVAL;
	}
	wl->bs[wl->nbs].size = (uint32_t)sz;
	wl->bs[wl->nbs++].weight = w;
	return 0;
}

/* bs = "4k" | 4096 | { ["4k"]=60, ["64k"]=40 } */
static int get_bs(struct keyctx *k, struct workload *wl)
{
	lua_State *L = k->L;
	int t = get_key(L, k->idx, k->def, "bs"), rc = 0;

	if (t == LUA_TNIL) {
		lua_pushliteral(L, "4k");
		lua_replace(L, -2);
		t = LUA_TSTRING;
	}
	if (t == LUA_TSTRING || t == LUA_TNUMBER) {
		rc = add_bs(k, wl, L, -1, 1);
		lua_pop(L, 1);
		return rc;
	}
	if (t != LUA_TTABLE)
		return bad(k, "bs", "a block size or a table {[\"4k\"]=weight, ...}");
	if (lua_rawgeti(L, -1, 1) == LUA_TSTRING) {	/* {"4k", "8k"}: a list, not a mix */
		snprintf(k->err, k->len, "bs: a list of sizes is not a mix: give each size a "
			 "weight, {[\"%s\"] = 50, ...}, or sweep bs", lua_tostring(L, -1));
		rc = -EINVAL;
	}
	lua_pop(L, 1);
	lua_pushnil(L);
	while (!rc && lua_next(L, -2)) {
		int ok;
		lua_Integer w = lua_tointegerx(L, -1, &ok);

		if (lua_type(L, -2) != LUA_TSTRING && lua_type(L, -2) != LUA_TNUMBER) {
			snprintf(k->err, k->len, "bs: keys of the table are block sizes");
			rc = -EINVAL;
		} else if (!ok || w < 0 || w > 1000000) {
			snprintf(k->err, k->len, "bs: weight of '%s' must be a whole number "
				 "from 0 to 1000000", lua_tostring(L, -2));
			rc = -EINVAL;
		} else {
			lua_pushvalue(L, -2);	/* tostring on a copy keeps lua_next sane */
			rc = add_bs(k, wl, L, -1, (uint32_t)w);
			lua_pop(L, 1);
		}
		lua_pop(L, 1);
	}
	if (rc) {
		lua_pop(L, 2);
		return rc;
	}
	lua_pop(L, 1);
	if (!wl->nbs) {
		snprintf(k->err, k->len, "bs: the table is empty");
		return -EINVAL;
	}
	/* a stable order, whatever the table's */
	for (unsigned i = 1; i < wl->nbs; i++)
		for (unsigned j = i; j > 0 && wl->bs[j].size < wl->bs[j - 1].size; j--) {
			struct bs_choice tmp = wl->bs[j];

			wl->bs[j] = wl->bs[j - 1];
			wl->bs[j - 1] = tmp;
		}
	for (unsigned i = 1; i < wl->nbs; i++)	/* {["4k"]=1, ["4096"]=1}: 4k:1,4k:1 */
		if (wl->bs[i].size == wl->bs[i - 1].size) {
			snprintf(k->err, k->len, "bs: the mix names the size %u twice (two "
				 "spellings of one size, as \"4k\" and \"4096\"): give its weights together",
				 wl->bs[i].size);
			return -EINVAL;
		}
	return 0;
}

/* range = "10g" (bytes) | 0.5 (a share of each target) | "50%" */
static int get_range(struct keyctx *k, struct workload *wl)
{
	int t = get_key(k->L, k->idx, k->def, "range");
	const char *s;
	size_t n;
	int rc = 0;

	if (t == LUA_TNIL) {
		lua_pop(k->L, 1);
		return 0;
	}
	if (t == LUA_TNUMBER && lua_tonumber(k->L, -1) > 0 && lua_tonumber(k->L, -1) <= 1) {
		wl->range_share = lua_tonumber(k->L, -1);
	} else if (t == LUA_TNUMBER && lua_tonumber(k->L, -1) > 1) {
		rc = step_range_bytes(wl, lua_tonumber(k->L, -1), k->err, k->len);
	} else if (t == LUA_TSTRING && (s = lua_tolstring(k->L, -1, &n)) && n > 1 &&
		   s[n - 1] == '%') {
		char *end;
		double pct = strtod(s, &end);

		if (end != s + n - 1 || pct <= 0 || pct > 100)
			return bad(k, "range", "a share such as 0.5 or \"50%\", or a size");
		wl->range_share = pct / 100.0;
	} else if ((t != LUA_TNUMBER && t != LUA_TSTRING) ||
		   util_parse_size(lua_tostring(k->L, -1), &wl->range) || !wl->range) {
		return bad(k, "range", "a share such as 0.5 or \"50%\", or a size such as \"8g\"");
	}
	lua_pop(k->L, 1);
	return rc;
}

static int get_rw(struct keyctx *k, struct workload *wl)
{
	unsigned pct, def;
	int t = get_key(k->L, k->idx, k->def, "rw");

	if (t == LUA_TNIL)
		wl->rw = RW_RANDREAD;
	else if (t != LUA_TSTRING || rw_parse(lua_tostring(k->L, -1), &wl->rw))
		return bad(k, "rw", "one of read, write, randread, randwrite, rw, randrw");
	lua_pop(k->L, 1);
	def = (wl->rw == RW_READ || wl->rw == RW_RANDREAD) ? 0
	    : (wl->rw == RW_WRITE || wl->rw == RW_RANDWRITE) ? 100 : 50;
	if (get_uint(k, "write_pct", 0, 100, def, &pct))
		return -EINVAL;
	if (def != 50 && pct != def) {
		snprintf(k->err, k->len, "write_pct=%u contradicts rw=\"%s\" (use rw=\"%s\" "
			 "for a mix)", pct, rw_name(wl->rw),
			 rw_is_random(wl->rw) ? "randrw" : "rw");
		return -EINVAL;
	}
	wl->write_pct = pct;
	return 0;
}

static int get_bool(struct keyctx *k, const char *key, bool def, bool *out)
{
	int t = get_key(k->L, k->idx, k->def, key);

	*out = def;
	if (t == LUA_TBOOLEAN)
		*out = lua_toboolean(k->L, -1);
	else if (t != LUA_TNIL)
		return bad(k, key, "true or false");
	lua_pop(k->L, 1);
	return 0;
}

static int get_tags(struct keyctx *k, struct step_spec *s)
{
	lua_State *L = k->L;
	int t = get_key(L, k->idx, k->def, "tags");
	struct strbuf b = { 0 };

	if (t == LUA_TNIL) {
		lua_pop(L, 1);
		return 0;
	}
	if (t == LUA_TSTRING) {
		sb_printf(&b, "[");
		sb_json_str(&b, lua_tostring(L, -1));
		sb_printf(&b, "]");
	} else if (t == LUA_TTABLE) {
		lua_Integer n = luaL_len(L, -1);

		/* { card = "9361" } was stored as [], the tag lost */
		for (lua_pushnil(L); lua_next(L, -2); lua_pop(L, 1))
			if (!lua_isinteger(L, -2) || lua_tointeger(L, -2) < 1 ||
			    lua_tointeger(L, -2) > n) {
				snprintf(k->err, k->len, "tags has the key %s, which is not a list "
					 "position: give a string or a list of strings such as "
					 "{ \"9361-8i\", \"pcie3x8\" }", luaL_tolstring(L, -2, NULL));
				return -EINVAL;
			}
		sb_printf(&b, "[");
		for (lua_Integer i = 1; i <= n; i++) {
			if (lua_rawgeti(L, -1, i) != LUA_TSTRING) {
				snprintf(k->err, k->len, "tags[%lld] is a %s: each tag must be a "
					 "string", (long long)i, luaL_typename(L, -1));
				sb_free(&b);
				return -EINVAL;
			}
			sb_printf(&b, "%s", i > 1 ? "," : "");
			sb_json_str(&b, lua_tostring(L, -1));
			lua_pop(L, 1);
		}
		sb_printf(&b, "]");
	} else {
		return bad(k, "tags", "a string or a list of strings");
	}
	lua_pop(L, 1);
	s->tags = sb_take(&b);
	return 0;
}

static int get_kind(struct keyctx *k, struct step_spec *s)
{
	char *kind = NULL;

	if (step_get_str(k, "kind", "measure", &kind))
		return -EINVAL;
	if (!strcmp(kind, "measure"))
		s->kind = STEP_MEASURE;
	else if (!strcmp(kind, "precondition"))
		s->kind = STEP_PRECONDITION;
	else if (!strcmp(kind, "steady-round"))
		s->kind = STEP_STEADY_ROUND;
	else {
		snprintf(k->err, k->len, "kind=\"%s\": expected measure, precondition or "
			 "steady-round", kind);
		free(kind);
		return -EINVAL;
	}
	free(kind);
	return 0;
}

static int get_on_error(struct keyctx *k, struct step_spec *s)
{
	char *v = NULL;
	int rc = 0;

	if (step_get_str(k, "on_error", "fail", &v))
		return -EINVAL;
	if (!strcmp(v, "continue")) {
		s->on_error = ON_ERROR_CONTINUE;
	} else if (strcmp(v, "fail")) {
		snprintf(k->err, k->len, "on_error=\"%s\": expected \"fail\" (stop the step at "
			 "the first I/O error) or \"continue\" (count errors and go on)", v);
		rc = -EINVAL;
	}
	free(v);
	return rc;
}

/* cpus= (a CPU list, every CPU online) and numa= ("auto", "node" or "none") */
static int get_placement(struct keyctx *k, struct step_spec *s)
{
	char *numa = NULL;
	cpu_set_t set;
	int rc = 0;

	if (step_get_str(k, "cpus", NULL, &s->cpus) || step_get_str(k, "numa", "auto", &numa))
		return -EINVAL;
	if (s->cpus)
		rc = placement_parse_cpus(s->cpus, &set, k->err, k->len);
	if (!rc && !strcmp(numa, "none")) {
		s->numa = NUMA_NONE;
	} else if (!rc && !strcmp(numa, "node")) {
		s->numa = NUMA_NODE;
	} else if (!rc && strcmp(numa, "auto")) {
		snprintf(k->err, k->len, "numa=\"%s\": expected \"auto\" (the CPUs of the "
			 "target's NUMA node, narrowed to those taking its interrupts), \"node\" "
			 "(the node's CPUs) or \"none\" (leave it to the kernel)", numa);
		rc = -EINVAL;
	}
	free(numa);
	return rc;
}

/* An engine's preset "fio" (io_uring, libaio: fio's defaults, for a
 * cross-check) places nothing, as fio pins nothing: numa="none" unless the
 * step gives numa or cpus (docs/engines.md, "Cross-checking with fio"). */
static int preset_placement(struct keyctx *k, struct step_spec *s)
{
	const char *preset = hb_opt_str(s->opts, s->nopts, "preset");
	int t;

	if (!preset || strcmp(preset, "fio") || s->cpus)
		return 0;
	t = get_key(k->L, k->idx, k->def, "numa");
	lua_pop(k->L, 1);
	if (t == LUA_TNIL)
		s->numa = NUMA_NONE;
	return 0;
}

/* telemetry= (seconds between probe samples, 0: none), on_telemetry= ("warn"
 * or "fail": what a watched change does) and temp_limit_c= (a temperature
 * past it is a watched change; none by default). */
static int get_telemetry(struct keyctx *k, struct step_spec *s)
{
	char *v = NULL;
	int t, rc = 0;

	if (get_uint(k, "telemetry", 0, 86400, STEP_TELEMETRY_DEFAULT, &s->telemetry) ||
	    step_get_str(k, "on_telemetry", "warn", &v))
		return -EINVAL;
	if (!strcmp(v, "fail")) {
		s->telemetry_fail = true;
	} else if (strcmp(v, "warn")) {
		snprintf(k->err, k->len, "on_telemetry=\"%s\": expected \"warn\" (a watched "
			 "change is a warning event) or \"fail\" (it fails the step)", v);
		rc = -EINVAL;
	}
	free(v);
	s->temp_limit_c = NAN;
	t = get_key(k->L, k->idx, k->def, "temp_limit_c");
	if (!rc && t == LUA_TNUMBER && lua_tonumber(k->L, -1) > 0 && lua_tonumber(k->L, -1) <= 200)
		s->temp_limit_c = lua_tonumber(k->L, -1);
	else if (!rc && t != LUA_TNIL)
		return bad(k, "temp_limit_c", "degrees Celsius, a number above 0 and at most 200");
	lua_pop(k->L, 1);
	return rc;
}

/* The fill rules in step_spec.c, told which of duration and ramp the step
 * gives itself (not through the plan's defaults). */
static int check_fill(struct keyctx *k, struct step_spec *s)
{
	bool own_duration, own_ramp;

	if (!s->wl.passes)
		return 0;
	own_duration = lua_getfield(k->L, k->idx, "duration") != LUA_TNIL;
	own_ramp = lua_getfield(k->L, k->idx, "ramp") != LUA_TNIL;
	lua_pop(k->L, 2);
	return step_check_fill(s, own_duration, own_ramp, k->err, k->len);
}

int plan_step_from_table(lua_State *L, int idx, int def, int targets_idx,
			 struct step_spec *s, char *err, size_t len)
{
	struct keyctx k = { L, lua_absindex(L, idx), def ? lua_absindex(L, def) : 0, err, len };
	struct workload *wl = &s->wl;
	unsigned seed, flags;
	int rc = -EINVAL;

	targets_idx = lua_absindex(L, targets_idx);
	memset(s, 0, sizeof(*s));
	err[0] = '\0';
	if (plan_check_keys(L, k.idx, err, len) ||
	    step_get_str(&k, "name", NULL, &s->name) || step_get_str(&k, "group", NULL, &s->group) ||
	    get_tags(&k, s) || get_rw(&k, wl) || get_bs(&k, wl) ||
	    get_uint(&k, "oio", 1, 65536, 1, &wl->oio) ||
	    get_uint(&k, "workers", 1, 1024, 1, &wl->workers) ||
	    get_uint(&k, "duration", 1, 100000000, DEFAULT_DURATION, &wl->duration) ||
	    get_uint(&k, "ramp", 0, 100000000, 0, &wl->ramp) ||
	    get_range(&k, wl) || get_size(&k, "size", &wl->size) ||
	    get_bool(&k, "direct", true, &wl->direct) ||
	    get_uint(&k, "seed", 0, 0x7fffffff, DEFAULT_SEED, &seed) ||
	    get_uint(&k, "passes", 0, 1000, 0, &wl->passes) ||
	    get_uint(&k, "round", 0, 100000, 0, &s->round) || get_kind(&k, s) ||
	    get_on_error(&k, s) || get_placement(&k, s) || get_telemetry(&k, s) ||
	    check_fill(&k, s) ||
	    step_get_targets(&k, targets_idx, wl) || step_get_engine(&k, s) ||
	    preset_placement(&k, s))
		goto fail;
	uint64_t align = 0;

	if (get_size(&k, "align", &align))
		goto fail;
	if (align > UINT32_MAX) {
		snprintf(err, len, "align=%llu is too large", (unsigned long long)align);
		goto fail;
	}
	wl->align = (uint32_t)align;
	wl->seed = seed;
	if ((rc = step_resolve_targets(s, err, len)))
		goto fail;
	flags = ((const struct hb_engine_ops *)s->engine->desc->ops)->flags;
	rc = workload_check(wl, flags, err, len);
	/* virtual engines move no data (one small buffer); fio over hosts=
	 * maps its buffers there, not here */
	if (!rc && !(flags & HB_ENGINE_VIRTUAL) && !(fio_step_is(s) && fio_step_opt(s, "hosts")))
		rc = workload_check_memory(wl, s->name, err, len);
	if (rc)
		goto fail;
	if (step_get_str(&k, "axis", NULL, &s->axis)) {
		rc = -EINVAL;
		goto fail;
	}
	if ((rc = step_spec_finish(s, err, len)))
		goto fail;
	return 0;
fail:
	step_spec_free(s);
	return rc ? rc : -EINVAL;
}
