/* The report's Lua API: report.runs, report.sql (read-only), report.write
 * (inside the report's folder only), report.read (the report's own assets),
 * report.escape_html, and require over reports/ then scripts/. Charts are in
 * report_chart.c, the files and refusals both use in report_files.c. */
#include <assert.h>
#include <errno.h>
#include <lauxlib.h>
#include <limits.h>
#include <lua.h>
#include <lualib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/db.h"
#include "store/report.h"
#include "base/log.h"
#include "base/paths.h"
#include "base/stop.h"
#include "base/strbuf.h"
#include "report/report.h"
#include "report/report_int.h"
#include "plan/sandbox.h"
#include "plan/state.h"
#include "base/util.h"

/* ---- files: report.write and report.read ---------------------------- */
/* report.write(rel, text): text as UTF-8, whatever the program made of it
 * (each invalid byte as U+FFFD), so the page and its data read as text. */
static int l_write(lua_State *L)
{
	size_t n;
	const char *rel = luaL_checkstring(L, 1);
	const char *text;

	luaL_checklstring(L, 2, &n);
	report_push_utf8(L, lua_tostring(L, 2), n);
	text = lua_tolstring(L, -1, &n);
	report_write_file(L, rel, text, n);
	return 0;
}

/* report.read("html/page.html"): a file of the report itself (reports/). */
static int l_read(lua_State *L)
{
	const char *rel = luaL_checkstring(L, 1);
	char path[PATH_MAX];

	if (!report_path_ok(rel) || !report_find_asset(report_of(L), rel, path, sizeof(path)))
		return luaL_error(L, "report.read: no '%s' in the report's folder or reports/", rel);
	report_push_file(L, path, REPORT_ASSET_MAX);
	return 1;
}

/* ---- report.sql(query, ...) -> { {col = value, ...}, ... } ------------- */

/* A value no report can use as its column's (Inf where IOPS belong, text in
 * a column of numbers: an old database, an import of before the importers
 * refused them, a hand edit) reads as missing, as NULL does; the first of
 * each column and kind is said. */
static void note_unfit(lua_State *L, const char *col, const char *what)
{
	lua_getfield(L, LUA_REGISTRYINDEX, REG_UNFIT);
	lua_pushfstring(L, "%s\t%s", col, what);
	if (lua_rawget(L, -2) == LUA_TNIL) {
		lua_pushfstring(L, "%s\t%s", col, what);
		lua_pushboolean(L, 1);
		lua_rawset(L, -4);
		log_warn("the database holds %s in column '%s': the report reads it as missing",
			 what, col);
	}
	lua_pop(L, 2);
}


static int push_row(void *ctx, int ncols, const char *const *names, const struct db_value *v)
{
	lua_State *L = ctx;

	lua_createtable(L, 0, ncols);
	for (int c = 0; c < ncols; c++) {
		switch (v[c].type) {
		case DB_INT:
			lua_pushinteger(L, v[c].i);
			break;
		case DB_REAL:
			if (!isfinite(v[c].d)) {
				note_unfit(L, names[c], v[c].d > 0 ? "Inf" : "-Inf");
				continue;
			}
			lua_pushnumber(L, v[c].d);
			break;
		case DB_TEXT:
			if (v[c].decl == DB_INT || v[c].decl == DB_REAL) {
				note_unfit(L, names[c], "text where a number belongs");
				continue;
			}
			report_push_utf8(L, v[c].s, v[c].len);
			break;
		default:
			continue;	/* NULL: the key stays absent */
		}
		lua_setfield(L, -2, names[c]);
	}
	lua_rawseti(L, -2, (lua_Integer)lua_rawlen(L, -2) + 1);
	return 0;
}

static int l_sql(lua_State *L)
{
	struct report *r = report_of(L);
	const char *sql = luaL_checkstring(L, 1);
	int n = lua_gettop(L) - 1, rc;
	struct db_value *p = lua_newuserdatauv(L, sizeof(*p) * (size_t)(n + 1), 0);
	char err[1024];

	for (int i = 0; i < n; i++) {
		int idx = i + 2;

		memset(&p[i], 0, sizeof(p[i]));
		if (lua_isinteger(L, idx)) {
			p[i].type = DB_INT;
			p[i].i = lua_tointeger(L, idx);
		} else if (lua_type(L, idx) == LUA_TNUMBER) {
			p[i].type = DB_REAL;
			p[i].d = lua_tonumber(L, idx);
		} else if (lua_type(L, idx) == LUA_TBOOLEAN) {
			p[i].type = DB_INT;
			p[i].i = lua_toboolean(L, idx);
		} else if (lua_type(L, idx) == LUA_TSTRING) {
			p[i].type = DB_TEXT;
			p[i].s = lua_tolstring(L, idx, &p[i].len);
		} else if (!lua_isnil(L, idx)) {
			return luaL_argerror(L, idx, "a parameter is a number, string, boolean or nil");
		}
	}
	lua_newtable(L);
	rc = db_report_query(r->o->db, sql, p, n, push_row, L, err, sizeof(err));
	if (rc && hb_stop_requested)
		return plan_raise_interrupt(L);
	if (rc && r->lim->msg[0]) {
		lua_pushstring(L, r->lim->msg);
		return lua_error(L);
	}
	if (rc)
		return luaL_error(L, "report.sql: %s", err);
	return 1;
}

/* ---- text helpers ----------------------------------------------------- */
static int l_escape_html(lua_State *L)
{
	size_t n;
	const char *s = luaL_tolstring(L, 1, &n);
	luaL_Buffer b;

	luaL_buffinit(L, &b);
	for (size_t i = 0; i < n; i++) {
		switch (s[i]) {
		case '&': luaL_addstring(&b, "&amp;"); break;
		case '<': luaL_addstring(&b, "&lt;"); break;
		case '>': luaL_addstring(&b, "&gt;"); break;
		case '"': luaL_addstring(&b, "&quot;"); break;
		case '\'': luaL_addstring(&b, "&#39;"); break;
		default: luaL_addchar(&b, s[i]);
		}
	}
	luaL_pushresult(&b);
	return 1;
}

static int l_gp_quote(lua_State *L)
{
	size_t n;
	const char *s = luaL_tolstring(L, 1, &n);
	struct strbuf *b = report_strbuf(L);

	report_gp_quote(b, s, n);
	lua_pushlstring(L, b->s ? b->s : "", b->len);
	return 1;
}

static int l_log(lua_State *L)
{
	log_info("%s", luaL_tolstring(L, 1, NULL));
	return 0;
}

/* ---- require: the report's folder, reports/, then scripts/ ------------ */
static bool find_module(void *ctx, const char *rel, char *out, size_t len)
{
	return report_find_asset(ctx, rel, out, len) ||
	       paths_find(PATHS_REPORT_SCRIPTS, NULL, rel, out, len);
}

/* ---- report.runs ------------------------------------------------------- */
static void push_runs(lua_State *L, struct report *r)
{
	char err[1024], state[32];

	lua_createtable(L, (int)r->o->nruns, 0);
	for (unsigned i = 0; i < r->o->nruns; i++) {
		struct db_value id = { .type = DB_INT, .i = r->o->runs[i] };

		lua_newtable(L);	/* push_row appends the row to it */
		if (db_report_query(r->o->db, "SELECT * FROM runs WHERE id = ?1", &id, 1,
				    push_row, L, err, sizeof(err)) ||
		    db_report_run_state(r->o->db, r->o->runs[i], state, sizeof(state),
					err, sizeof(err)))
			luaL_error(L, "%s", err);
		lua_rawgeti(L, -1, 1);
		lua_pushstring(L, state);
		lua_setfield(L, -2, "state");
		lua_pushinteger(L, i + 1);
		lua_setfield(L, -2, "index");
		lua_rawseti(L, -3, i + 1);
		lua_pop(L, 1);
	}
}

/* report.usage_error(msg): an option's value the runs cannot answer (--at a
 * point none has, an --only that selects nothing); the command exits 2 with
 * msg, no traceback */
static int l_usage_error(lua_State *L)
{
	struct report *r = report_of(L);

	r->usage = true;
	return report_refuse(L, "%s", luaL_checkstring(L, 1));
}

/* report.at = { AXIS = "VALUE" } from --at, report.units from --units */
static void push_options(lua_State *L, const struct report_opts *o)
{
	lua_createtable(L, 0, (int)o->nat);
	for (unsigned i = 0; i < o->nat; i++) {
		const char *eq = strchr(o->at[i], '=');

		assert(eq);	/* cmd/report.c checked AXIS=VALUE */
		lua_pushlstring(L, o->at[i], (size_t)(eq - o->at[i]));
		report_push_utf8(L, eq + 1, strlen(eq + 1));
		lua_rawset(L, -3);
	}
	lua_setfield(L, -2, "at");
	lua_pushstring(L, o->mib ? "MiB" : "MB");
	lua_setfield(L, -2, "units");
}

static const luaL_Reg report_funcs[] = {
	{ "sql", l_sql },
	{ "write", l_write },
	{ "read", l_read },
	{ "chart", report_l_chart },
	{ "escape_html", l_escape_html },
	{ "gp_quote", l_gp_quote },
	{ "log", l_log },
	{ "usage_error", l_usage_error },
	{ NULL, NULL },
};

static int open_report(lua_State *L)
{
	struct report *r = lua_touserdata(L, 1);

	lua_pushlightuserdata(L, r);
	lua_setfield(L, LUA_REGISTRYINDEX, REG_REPORT);
	lua_newtable(L);
	lua_setfield(L, LUA_REGISTRYINDEX, REG_UNFIT);
	sandbox_open(L);
	plan_limits_guard_pcall(L);
	r->finder = (struct sandbox_finder){ find_module, r, "reports/ or scripts/" };
	sandbox_set_finder(L, &r->finder);
	lua_register(L, "print", l_log);
	luaL_newlib(L, report_funcs);
	push_runs(L, r);
	lua_setfield(L, -2, "runs");
	lua_pushinteger(L, r->o->baseline + 1);
	lua_setfield(L, -2, "baseline");
	report_push_utf8(L, r->o->title ? r->o->title : "", r->o->title ? strlen(r->o->title) : 0);
	lua_setfield(L, -2, "title");
	lua_pushboolean(L, r->o->gp != NULL);
	lua_setfield(L, -2, "charts");
	lua_createtable(L, 2, 0);
	if (r->o->svg) {
		lua_pushliteral(L, "svg");
		lua_rawseti(L, -2, (lua_Integer)lua_rawlen(L, -2) + 1);
	}
	if (r->o->png) {
		lua_pushliteral(L, "png");
		lua_rawseti(L, -2, (lua_Integer)lua_rawlen(L, -2) + 1);
	}
	if (r->o->pdf) {
		lua_pushliteral(L, "pdf");
		lua_rawseti(L, -2, (lua_Integer)lua_rawlen(L, -2) + 1);
	}
	lua_setfield(L, -2, "formats");
	lua_createtable(L, (int)r->o->nonly, 0);
	for (unsigned i = 0; i < r->o->nonly; i++) {
		report_push_utf8(L, r->o->only[i], strlen(r->o->only[i]));
		lua_rawseti(L, -2, i + 1);
	}
	lua_setfield(L, -2, "only");
	lua_pushinteger(L, r->o->width);
	lua_setfield(L, -2, "width");
	lua_pushinteger(L, r->o->height);
	lua_setfield(L, -2, "height");
	lua_pushstring(L, HB_VERSION);
	lua_setfield(L, -2, "version");
	report_push_utf8(L, r->o->db->path, strlen(r->o->db->path));
	lua_setfield(L, -2, "db");
	push_options(L, r->o);
	lua_setglobal(L, "report");
	return 0;
}

/* A bug's message gets a traceback; an I/O error of the report's files not. */
static int traceback(lua_State *L)
{
	struct report *r = report_of(L);
	const char *msg = luaL_tolstring(L, 1, NULL);

	if (r && r->plain_err[0] && !strcmp(msg, r->plain_err))
		return 1;
	luaL_traceback(L, L, msg, 1);
	return 1;
}

/* A query runs as long as the report program may, and stops on a signal. */
static int query_progress(void *ctx)
{
	return plan_limits_over(ctx);
}

/* How the program ended: a limit or a signal wins over what it made of it
 * (a pcall that caught one and went on to the end). */
static int program_result(lua_State *L, struct plan_limits *lim, int st, char *err, size_t len)
{
	if (hb_stop_requested && !lim->interrupted)
		return -EINTR;
	if (lim->interrupted || lim->msg[0] || st == LUA_ERRMEM || st == LUA_OK)
		return plan_limits_check(L, lim, st, err, len);
	snprintf(err, len, "%s", lua_tostring(L, -1) ? lua_tostring(L, -1) : "error");
	return -EINVAL;
}

int report_execute(const struct report_opts *o, char *err, size_t len)
{
	struct report r = { .o = o };
	struct plan_limits lim;
	char chunk[PATH_MAX + 1];
	lua_State *L;
	size_t sz;
	char *src;
	int st, rc;

	paths_dirname(o->program, r.progdir, sizeof(r.progdir));
	src = util_read_file(o->program, &sz);
	if (!src) {
		snprintf(err, len, "cannot read report program '%s': %s", o->program,
			 strerror(errno));
		return -errno;
	}
	L = plan_limits_open(&lim, o->program, false, o->lua_memory);
	if (!L) {
		free(src);
		return -ENOMEM;
	}
	plan_limits_for(&lim, "the report program", o->lua_seconds ? o->lua_seconds :
			REPORT_LUA_SECONDS);
	r.lim = &lim;
	db_report_set_progress(o->db, query_progress, &lim);
	lua_pushcfunction(L, traceback);
	lua_pushcfunction(L, open_report);
	lua_pushlightuserdata(L, &r);
	st = lua_pcall(L, 1, 0, 1);
	snprintf(chunk, sizeof(chunk), "@%s", o->program);
	if (st == LUA_OK)
		st = luaL_loadbufferx(L, src, sz, chunk, "t");
	if (st == LUA_OK)
		st = lua_pcall(L, 0, 0, 1);
	rc = program_result(L, &lim, st, err, len);
	if (rc && r.usage && !hb_stop_requested)
		rc = REPORT_EUSAGE;
	db_report_set_progress(o->db, NULL, NULL);
	lua_close(L);
	free(src);
	return rc;
}
