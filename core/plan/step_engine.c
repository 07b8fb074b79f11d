/* A step's engine from its plan table (hb.run{ engine = ..., ENGINE = { ... } }):
 * the plugin (or the built-in fio), its options with a preset's values under
 * them (scripts/<engine>_presets.lua), the preset's facts, and a sim step's
 * cards after the first (sim = { cards = { ... } }). */
#include <assert.h>
#include <errno.h>
#include <lauxlib.h>
#include <lua.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/state.h"
#include "measure/fio_job.h"
#include "measure/loader.h"
#include "measure/step_spec.h"
#include "base/strbuf.h"
#include "base/util.h"
#include "plan/step_keys.h"

#define DEFAULT_ENGINE "io_uring"

/* The names of the presets table at the top of L's stack, sorted and
 * joined by ", " into buf ("..." past its room). */
static void preset_names(lua_State *L, char *buf, size_t len)
{
	const char *names[128];
	size_t n = 0, at = 0;

	buf[0] = '\0';
	lua_pushnil(L);
	while (lua_next(L, -2)) {
		if (lua_type(L, -2) == LUA_TSTRING && lua_istable(L, -1) && n < 128)
			names[n++] = lua_tostring(L, -2);	/* kept alive by the table */
		lua_pop(L, 1);
	}
	qsort(names, n, sizeof(*names), util_cmp_str);
	for (size_t i = 0; i < n && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s", i ? ", " : "", names[i]);
	if (at >= len && len > 4)
		memcpy(buf + len - 4, "...", 4);
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
		char names[512];

		lua_pop(L, 1);
		preset_names(L, names, sizeof(names));
		snprintf(k->err, k->len, "%s: no preset '%s' in scripts/%s_presets.lua (it has %s)",
			 engine, preset, engine, names[0] ? names : "none");
		lua_pop(L, 1);
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

int step_get_engine(struct keyctx *k, struct step_spec *s)
{
	lua_State *L = k->L;
	char *name = NULL;
	struct hb_kv in[64];
	struct step_spec more = { 0 };	/* the facts of cards after the first */
	unsigned nin = 0;
	bool cards;
	int t, rc = 0;

	if (step_get_str(k, "engine", DEFAULT_ENGINE, &name))
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
