/* Reading a step from a plan's Lua table (hb.run{...}) into a step_spec;
 * the rules on the values are plain C, in core/measure/step_spec.c. */
#include <assert.h>
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

#define DEFAULT_ENGINE "io_uring"
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

static int get_str(struct keyctx *k, const char *key, const char *def, char **out)
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

/* An engine option preset="name" pulls its values from the Lua module
 * scripts/<engine>_presets.lua; options the plan gives win over the preset's. */
static int expand_preset(struct keyctx *k, const char *engine, struct hb_kv *in,
			 unsigned *nin, unsigned cap)
{
	lua_State *L = k->L;
	const char *preset = hb_opt_str(in, *nin, "preset");
	int rc = 0;

	if (!preset)
		return 0;
	lua_getglobal(L, "require");
	lua_pushfstring(L, "%s_presets", engine);
	if (lua_pcall(L, 1, 1, 0) != LUA_OK || !lua_istable(L, -1)) {
		snprintf(k->err, k->len, "%s: cannot load scripts/%s_presets.lua: %s", engine,
			 engine, lua_tostring(L, -1) ? lua_tostring(L, -1) : "not a table");
		lua_pop(L, 1);
		return -EINVAL;
	}
	if (lua_getfield(L, -1, preset) != LUA_TTABLE) {
		snprintf(k->err, k->len, "%s: no preset '%s' in scripts/%s_presets.lua",
			 engine, preset, engine);
		lua_pop(L, 2);
		return -EINVAL;
	}
	lua_pushnil(L);
	while (!rc && lua_next(L, -2)) {
		int vt = lua_type(L, -1);

		if (lua_type(L, -2) == LUA_TSTRING && !hb_opt_str(in, *nin, lua_tostring(L, -2)) &&
		    (vt == LUA_TNUMBER || vt == LUA_TSTRING || vt == LUA_TBOOLEAN)) {
			if (*nin == cap) {
				snprintf(k->err, k->len, "%s: too many options", engine);
				rc = -EINVAL;
			} else {
				lua_pushvalue(L, -1);	/* tostring on a copy */
				in[*nin].key = strdup(lua_tostring(L, -3));
				in[(*nin)++].value = strdup(vt == LUA_TBOOLEAN
					? (lua_toboolean(L, -1) ? "true" : "false")
					: lua_tostring(L, -1));
				lua_pop(L, 1);
			}
		}
		lua_pop(L, 1);
	}
	if (rc)
		lua_pop(L, 1);	/* the key lua_next left */
	lua_pop(L, 2);
	return rc;
}

/* A preset's facts = function(opts): the probe facts (a list of { key,
 * value }) of what a step using it simulates, from the options in force;
 * the runner stores them (docs/engines.md). */
static int preset_facts(struct keyctx *k, const char *engine, struct step_spec *s)
{
	lua_State *L = k->L;
	const char *preset = hb_opt_str(s->opts, s->nopts, "preset");
	int top = lua_gettop(L), n, rc = 0;

	lua_getglobal(L, "require");
	lua_pushfstring(L, "%s_presets", engine);
	if (!preset || lua_pcall(L, 1, 1, 0) != LUA_OK || !lua_istable(L, -1) ||
	    lua_getfield(L, -1, preset) != LUA_TTABLE ||
	    lua_getfield(L, -1, "facts") != LUA_TFUNCTION) {
		lua_settop(L, top);	/* expand_preset has said what is wrong */
		return 0;
	}
	lua_createtable(L, 0, (int)s->nopts);
	for (unsigned i = 0; i < s->nopts; i++) {
		lua_pushstring(L, s->opts[i].value);
		lua_setfield(L, -2, s->opts[i].key);
	}
	if (lua_pcall(L, 1, 1, 0) != LUA_OK || !lua_istable(L, -1)) {
		snprintf(k->err, k->len, "%s: preset '%s': facts(): %s", engine, preset,
			 lua_isstring(L, -1) ? lua_tostring(L, -1) : "did not return a table");
		lua_settop(L, top);
		return -EINVAL;
	}
	n = (int)luaL_len(L, -1);
	s->facts = calloc((size_t)n + 1, sizeof(*s->facts));
	for (int i = 1; s->facts && i <= n; i++) {
		lua_rawgeti(L, -1, i);
		lua_rawgeti(L, -1, 1);
		lua_rawgeti(L, -2, 2);
		if (lua_type(L, -2) == LUA_TSTRING && lua_isstring(L, -1)) {
			s->facts[s->nfacts].key = strdup(lua_tostring(L, -2));
			s->facts[s->nfacts++].value = strdup(lua_tostring(L, -1));
		}
		lua_pop(L, 3);
	}
	rc = s->facts ? 0 : -ENOMEM;
	lua_settop(L, top);
	return rc;
}

/* engine = "name"; its options in a key of the same name */
/* The table of plugin name's options (on the stack top, popped) into in;
 * the values as strings (booleans as "true"/"false"). */
static int read_opts(struct keyctx *k, const char *name, struct hb_kv *in, unsigned *nin,
		     unsigned cap)
{
	lua_State *L = k->L;
	int rc = 0;

	assert(lua_type(L, -1) == LUA_TTABLE);	/* the callers checked */
	lua_pushnil(L);
	while (!rc && lua_next(L, -2)) {
		int vt = lua_type(L, -1);

		if (vt == LUA_TTABLE && lua_type(L, -2) == LUA_TSTRING &&
		    !strcmp(lua_tostring(L, -2), "cards")) {	/* read_cards's */
			lua_pop(L, 1);
			continue;
		}
		if (lua_type(L, -2) != LUA_TSTRING || *nin == cap ||
		    (vt != LUA_TBOOLEAN && vt != LUA_TNUMBER && vt != LUA_TSTRING)) {
			snprintf(k->err, k->len, "%s: options are name=value pairs of "
				 "booleans, numbers or strings", name);
			rc = -EINVAL;
			lua_pop(L, 2);
			break;
		}
		in[*nin].key = strdup(lua_tostring(L, -2));
		in[(*nin)++].value = strdup(vt == LUA_TBOOLEAN
					    ? (lua_toboolean(L, -1) ? "true" : "false")
					    : lua_tostring(L, -1));
		lua_pop(L, 1);
	}
	lua_pop(L, 1);
	return rc;
}

static void free_opts(struct hb_kv *in, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		free((char *)in[i].key);
		free((char *)in[i].value);
	}
}

/* io_uring = {...} in a psync step (or in the defaults): not used by this
 * step, but a misspelt option or a wrong type there is still an error. */
static int check_other_opts(struct keyctx *k, const struct plugin *engine)
{
	int rc = 0;

	for (unsigned i = 0; !rc && i < plugins_count(); i++) {
		const struct plugin *p = plugins_at(i);
		struct hb_kv in[64], *out = NULL;
		unsigned nin = 0, nout = 0;
		int t;

		if (p == engine || (p->desc->kind == HB_PLUGIN_PROBE &&
				    step_key_builtin(p->desc->name)))
			continue;	/* a probe named numa: the key is the step's */
		t = get_key(k->L, k->idx, k->def, p->desc->name);
		if (t != LUA_TTABLE && t != LUA_TNIL)	/* sim = 5: dropped before */
			return bad(k, p->desc->name, "a table of that plugin's options");
		if (t != LUA_TTABLE) {
			lua_pop(k->L, 1);
			continue;
		}
		rc = read_opts(k, p->desc->name, in, &nin, ARRAY_SIZE(in));
		if (!rc)
			rc = plugin_opts_resolve(p, in, nin, &out, &nout, k->err, k->len);
		plugin_opts_free(out, nout);
		free_opts(in, nin);
	}
	return rc;
}

/* One card of sim = { cards = { ... } } (the entry on the stack top, popped)
 * into in: its own options (a preset's name, or a table of options), then
 * the common ones (com) it does not give. */
static int card_opts(struct keyctx *k, const char *name, const struct hb_kv *com,
		     unsigned ncom, struct hb_kv *in, unsigned *nin, unsigned cap)
{
	int rc = 0;

	if (lua_type(k->L, -1) == LUA_TSTRING) {
		in[*nin].key = strdup("preset");
		in[(*nin)++].value = strdup(lua_tostring(k->L, -1));
		lua_pop(k->L, 1);
	} else if (lua_type(k->L, -1) == LUA_TTABLE) {
		rc = read_opts(k, name, in, nin, cap);
	} else {
		lua_pop(k->L, 1);
		snprintf(k->err, k->len, "%s: cards: each card is a preset's name or a table of "
			 "options", name);
		return -EINVAL;
	}
	for (unsigned i = 0; !rc && i < ncom && *nin < cap; i++)
		if (!hb_opt_str(in, *nin, com[i].key)) {
			in[*nin].key = strdup(com[i].key);
			in[(*nin)++].value = strdup(com[i].value);
		}
	return rc;
}

/* Card j (from 1) after the first: its options resolved, as key=value,...
 * into b, and its preset's facts into facts as "@j/key". */
static int card_more(struct keyctx *k, const struct plugin *e, unsigned j, struct hb_kv *in,
		     unsigned nin, struct strbuf *b, struct step_spec *facts)
{
	struct step_spec c = { 0 };
	int rc = expand_preset(k, e->desc->name, in, &nin, 64);

	if (!rc)
		rc = plugin_opts_resolve(e, in, nin, &c.opts, &c.nopts, k->err, k->len);
	sb_printf(b, "%s", j > 1 ? ";" : "");
	for (unsigned i = 0; !rc && i < c.nopts; i++) {
		if (strpbrk(c.opts[i].value, ",;=")) {
			snprintf(k->err, k->len, "cards: card %u's %s '%s' has a ',', ';' or '='",
				 j + 1, c.opts[i].key, c.opts[i].value);
			rc = -EINVAL;
		}
		sb_printf(b, "%s%s=%s", i ? "," : "", c.opts[i].key, c.opts[i].value);
	}
	if (!rc)
		rc = preset_facts(k, e->desc->name, &c);
	for (unsigned i = 0; !rc && i < c.nfacts; i++) {
		struct hb_kv *f = realloc(facts->facts, (facts->nfacts + 1) * sizeof(*f));

		if (!f)
			return -ENOMEM;
		facts->facts = f;
		f[facts->nfacts].key = util_strdup_printf("@%u/%s", j, c.facts[i].key);
		f[facts->nfacts++].value = strdup(c.facts[i].value);
	}
	free_opts(in, nin);
	free_opts(c.facts, c.nfacts);
	free(c.facts);
	plugin_opts_free(c.opts, c.nopts);
	return rc;
}

/* sim = { cards = { "preset", { preset = "...", link = "pcie2x4" }, ... }, common
 * options }: the step's targets on several cards (docs/engines.md). The cards
 * table on the stack top (popped); the first card's options replace in (the
 * step's), the others go to the engine's option cards, their facts to more. */
static int read_cards(struct keyctx *k, const struct plugin *e, struct hb_kv *in,
		      unsigned *nin, struct step_spec *more)
{
	unsigned n = (unsigned)lua_rawlen(k->L, -1), n0 = 0;
	struct strbuf b = { 0 };
	struct hb_kv first[64];	/* the first card's, the step's when all are read */
	int rc = 0;

	if (!n) {
		snprintf(k->err, k->len, "%s: cards: a list of one card or more", e->desc->name);
		rc = -EINVAL;
	}
	for (unsigned j = 0; !rc && j < n; j++) {
		struct hb_kv card[64];
		unsigned nc = 0;

		lua_rawgeti(k->L, -1, (lua_Integer)j + 1);
		rc = card_opts(k, e->desc->name, in, *nin, j ? card : first, j ? &nc : &n0,
			       ARRAY_SIZE(card) - 1);
		if (!rc && j)
			rc = card_more(k, e, j, card, nc, &b, more);
		else if (j)
			free_opts(card, nc);
	}
	lua_pop(k->L, 1);
	free_opts(in, *nin);
	memcpy(in, first, n0 * sizeof(*in));
	*nin = n0;
	if (!rc && n > 1) {
		in[*nin].key = strdup("cards");
		in[(*nin)++].value = sb_take(&b);
	}
	sb_free(&b);
	return rc;
}

/* The extra cards' facts after the step's own. */
static int add_card_facts(struct step_spec *s, struct step_spec *more)
{
	struct hb_kv *f = more->nfacts ? realloc(s->facts, (s->nfacts + more->nfacts + 1) *
						 sizeof(*f)) : s->facts;

	if (more->nfacts && !f)
		return -ENOMEM;
	s->facts = f;
	for (unsigned i = 0; i < more->nfacts; i++)
		s->facts[s->nfacts++] = more->facts[i];
	free(more->facts);
	more->facts = NULL;
	more->nfacts = 0;
	return 0;
}

static int get_engine(struct keyctx *k, struct step_spec *s)
{
	lua_State *L = k->L;
	char *name = NULL;
	struct hb_kv in[64];
	struct step_spec more = { 0 };	/* the facts of cards after the first */
	unsigned nin = 0;
	bool cards;
	int t, rc = 0;

	if (get_str(k, "engine", DEFAULT_ENGINE, &name))
		return -EINVAL;
	/* fio is built in (measure/fio_job.c): its options read as a plugin's */
	s->engine = !strcmp(name, FIO_ENGINE) ? fio_engine() : plugins_find(name, HB_PLUGIN_ENGINE);
	if (!s->engine) {
		snprintf(k->err, k->len, "engine=\"%s\": no such engine plugin (see hbatest "
			 "plugins; the path is --plugin-path or HBATEST_PLUGIN_PATH)", name);
		free(name);
		return -EINVAL;
	}
	free(name);
	t = get_key(L, k->idx, k->def, s->engine->desc->name);
	if (t != LUA_TTABLE && t != LUA_TNIL)
		return bad(k, s->engine->desc->name, "a table of engine options");
	if (t == LUA_TTABLE) {	/* sim = { cards = { ... } }: the list under the options */
		cards = lua_getfield(L, -1, "cards") == LUA_TTABLE;
		if (cards)
			lua_insert(L, -2);
		else
			lua_pop(L, 1);
		rc = read_opts(k, s->engine->desc->name, in, &nin, ARRAY_SIZE(in));
		if (cards && rc)
			lua_pop(L, 1);
		else if (cards)
			rc = read_cards(k, s->engine, in, &nin, &more);
	} else {
		lua_pop(L, 1);
	}
	if (!rc)
		rc = expand_preset(k, s->engine->desc->name, in, &nin, ARRAY_SIZE(in));
	if (!rc)
		rc = plugin_opts_resolve(s->engine, in, nin, &s->opts, &s->nopts,
					 k->err, k->len);
	if (!rc)	/* the engine's own ranges and choices, before any step runs */
		rc = plugin_opts_check(s->engine, s->opts, s->nopts, k->err, k->len);
	if (!rc)
		rc = preset_facts(k, s->engine->desc->name, s);
	if (!rc)
		rc = add_card_facts(s, &more);
	free_opts(more.facts, more.nfacts);
	free(more.facts);
	free_opts(in, nin);
	return rc ? rc : check_other_opts(k, s->engine);
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

	if (get_str(k, "kind", "measure", &kind))
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

	if (get_str(k, "on_error", "fail", &v))
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

	if (get_str(k, "cpus", NULL, &s->cpus) || get_str(k, "numa", "auto", &numa))
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
	    get_str(k, "on_telemetry", "warn", &v))
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
	unsigned seed;
	int rc = -EINVAL;

	targets_idx = lua_absindex(L, targets_idx);
	memset(s, 0, sizeof(*s));
	err[0] = '\0';
	if (plan_check_keys(L, k.idx, err, len) ||
	    get_str(&k, "name", NULL, &s->name) || get_str(&k, "group", NULL, &s->group) ||
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
	    step_get_targets(&k, targets_idx, wl) || get_engine(&k, s) ||
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
	rc = workload_check(wl, ((const struct hb_engine_ops *)s->engine->desc->ops)->flags,
			    err, len);
	if (rc)
		goto fail;
	if (get_str(&k, "axis", NULL, &s->axis)) {
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
