/* report.chart{}: one chart as DIR/charts/NN-name.tsv (the data, a header
 * line, one block per series), NN-name.gp (settings, then the template from
 * reports/gnuplot/) and, rendered by gnuplot in the background, .svg/.png.
 * What the script holds is data: text as quoted strings, numbers as finite
 * numbers, the template checked (gnuplot_check.c), so that rendering it, now
 * or later by hand, runs nothing. */
#include <errno.h>
#include <math.h>
#include <lauxlib.h>
#include <lua.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/gnuplot.h"
#include "report/gnuplot_check.h"
#include "base/strbuf.h"
#include "report/report_int.h"
#include "base/utf8.h"
#include "base/util.h"

#define REPLACEMENT "\xef\xbf\xbd"	/* U+FFFD, for a byte that is not UTF-8 */

/* Text as the chart shows it: UTF-8 with each invalid byte (and U+FFFE,
 * U+FFFF) as U+FFFD (an SVG with one is no XML at all), control characters
 * as spaces; `swap` (if not 0) becomes `with`. */
static void add_text(struct strbuf *b, const char *s, size_t n, char swap, const char *with)
{
	const unsigned char *p = (const unsigned char *)s;

	for (size_t i = 0; i < n;) {
		size_t len = utf8_len(p + i, n - i);

		if (!len || report_nonchar(p + i, len)) {
			sb_printf(b, "%s", REPLACEMENT);
			i += len ? len : 1;
		} else if (len > 1) {
			sb_printf(b, "%.*s", (int)len, s + i);
			i += len;
		} else if (p[i] < 0x20 || p[i] == 0x7f) {
			sb_printf(b, "%c", ' ');
			i++;
		} else if (swap && s[i] == swap) {
			sb_printf(b, "%s", with);
			i++;
		} else {
			sb_printf(b, "%c", s[i++]);
		}
	}
}

/* 'text' for gnuplot: a single-quoted string, inside which gnuplot expands
 * no backquote and no '@' macro; its quotes doubled. */
void report_gp_quote(struct strbuf *b, const char *s, size_t n)
{
	sb_printf(b, "'");
	add_text(b, s, n, '\'', "''");
	sb_printf(b, "'");
}

static int sb_gc(lua_State *L)
{
	sb_free(lua_touserdata(L, 1));
	return 0;
}

/* A strbuf that Lua frees, even when an error unwinds the call. */
struct strbuf *report_strbuf(lua_State *L)
{
	struct strbuf *b = lua_newuserdatauv(L, sizeof(*b), 0);

	memset(b, 0, sizeof(*b));
	if (luaL_newmetatable(L, "hbatest.strbuf")) {
		lua_pushcfunction(L, sb_gc);
		lua_setfield(L, -2, "__gc");
	}
	lua_setmetatable(L, -2);
	return b;
}

/* A chart name as a file name: [a-z0-9-], at most 40 characters. */
static void slug(const char *name, char *out, size_t len)
{
	size_t o = 0;

	for (const char *p = name; *p && o + 1 < len && o < 60; p++) {
		char c = *p;

		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
			out[o++] = c;
		else if (o && out[o - 1] != '-')
			out[o++] = '-';
	}
	while (o && out[o - 1] == '-')
		o--;
	out[o] = '\0';
	if (!o)
		snprintf(out, len, "chart");
}

/* A number as gnuplot reads it back; false for Inf and NaN, which it
 * would read as the names inf and nan. */
static bool format_number(lua_State *L, int idx, char *num, size_t len)
{
	if (lua_isinteger(L, idx)) {
		snprintf(num, len, "%lld", (long long)lua_tointeger(L, idx));
		return true;
	}
	snprintf(num, len, "%.12g", lua_tonumber(L, idx));
	return isfinite(lua_tonumber(L, idx));
}

/* One TSV field: numbers as numbers (NaN for what is not one: Inf, NaN, nil
 * and the like, which gnuplot skips), text without tabs or newlines. */
static void add_field(lua_State *L, struct strbuf *b, int idx)
{
	char num[64];

	switch (lua_type(L, idx)) {
	case LUA_TNUMBER:
		sb_printf(b, "%s", format_number(L, idx, num, sizeof(num)) ? num : "NaN");
		break;
	case LUA_TBOOLEAN:
		sb_printf(b, "%c", lua_toboolean(L, idx) ? '1' : '0');
		break;
	case LUA_TSTRING: {
		size_t n;
		const char *s = lua_tolstring(L, idx, &n);

		add_text(b, s, n, '"', "'");	/* '"' would start a quoted field */
		break;
	}
	default:
		sb_printf(b, "%s", "NaN");
	}
}

/* A series' points: its rows with a number in column 2, the value every
 * template plots (NaN and missing values are not points). */
static int series_points(lua_State *L, int s)
{
	int n = 0;

	if (lua_getfield(L, s, "rows") != LUA_TTABLE) {
		lua_pop(L, 1);
		return 0;
	}
	for (lua_Integer r = 1; r <= luaL_len(L, -1); r++) {
		lua_geti(L, -1, r);
		if (lua_istable(L, -1)) {
			lua_geti(L, -1, 2);
			if (lua_type(L, -1) == LUA_TNUMBER && lua_tonumber(L, -1) == lua_tonumber(L, -1))
				n++;
			lua_pop(L, 1);
		}
		lua_pop(L, 1);
	}
	lua_pop(L, 1);
	return n;
}

/* One series' rows; returns how many had a field (gnuplot's data lines). */
static int add_rows(lua_State *L, struct strbuf *b, int rows)
{
	int lines = 0;

	for (lua_Integer r = 1; r <= luaL_len(L, rows); r++) {
		lua_geti(L, rows, r);
		lines += luaL_len(L, -1) > 0;
		for (lua_Integer c = 1; c <= luaL_len(L, -1); c++) {
			if (c > 1)
				sb_printf(b, "%c", '\t');
			lua_geti(L, -1, c);
			add_field(L, b, -1);
			lua_pop(L, 1);
		}
		sb_printf(b, "%c", '\n');
		lua_pop(L, 1);
	}
	return lines;
}

/* The data: "# col1\tcol2..." then per series "# series i: title" and its
 * rows, blocks separated by two blank lines (gnuplot's `index i-1`). gnuplot
 * does not count a block without a data line (`index i-1` would then read
 * the next series' data), so a series without one gets a row of NaN,
 * which gnuplot reads and does not draw. */
static void build_tsv(lua_State *L, int spec, struct strbuf *b, int *nseries)
{
	int cols = lua_getfield(L, spec, "columns") == LUA_TTABLE ? lua_gettop(L) : 0;
	int ser = (lua_getfield(L, spec, "series"), lua_gettop(L));
	lua_Integer ncols = cols ? luaL_len(L, cols) : 0;

	luaL_argcheck(L, lua_istable(L, ser), 1, "report.chart needs series = { {rows=...}, ... }");
	sb_printf(b, "%s", "#");
	for (lua_Integer c = 1; c <= ncols; c++) {
		sb_printf(b, "%c", c > 1 ? '\t' : ' ');
		lua_geti(L, cols, c);
		add_field(L, b, -1);
		lua_pop(L, 1);
	}
	sb_printf(b, "%c", '\n');
	*nseries = (int)luaL_len(L, ser);
	for (int i = 1; i <= *nseries; i++) {
		lua_geti(L, ser, i);
		int s = lua_gettop(L);

		sb_printf(b, "%s", i > 1 ? "\n\n# series " : "# series ");
		lua_pushinteger(L, i);
		add_field(L, b, -1);
		sb_printf(b, "%s", ": ");
		lua_getfield(L, s, "title");
		add_field(L, b, -1);
		sb_printf(b, "%c", '\n');
		lua_pop(L, 2);
		if (lua_getfield(L, s, "rows") != LUA_TTABLE)
			luaL_error(L, "report.chart: series %d has no rows table", i);
		if (!add_rows(L, b, lua_gettop(L))) {
			for (lua_Integer c = 1; c <= (ncols > 2 ? ncols : 2); c++)
				sb_printf(b, "%s", c > 1 ? "\tNaN" : "NaN");
			sb_printf(b, "%c", '\n');
		}
		lua_pop(L, 2);
	}
	lua_pop(L, 2);	/* columns, series */
}

/* A value in the script, as data: a string quoted, a finite number, a
 * boolean as 1 or 0; nil as ''. Anything else (Inf, NaN, a function, a
 * table) is refused, naming `what` (a title, an args key). */
static void add_value(lua_State *L, struct strbuf *b, int idx, const char *what)
{
	char num[64];
	size_t n;
	const char *s;

	switch (lua_type(L, idx)) {
	case LUA_TNUMBER:
		if (!format_number(L, idx, num, sizeof(num)))
			luaL_error(L, "report.chart: %s is %s: give a finite number (a missing value "
				   "as nil, or leave the key out)", what, num);
		sb_printf(b, "%s", num);
		break;
	case LUA_TBOOLEAN:
		sb_printf(b, "%c", lua_toboolean(L, idx) ? '1' : '0');
		break;
	case LUA_TSTRING:
		s = lua_tolstring(L, idx, &n);
		report_gp_quote(b, s, n);
		break;
	case LUA_TNIL:
		sb_printf(b, "%s", "''");
		break;
	default:
		luaL_error(L, "report.chart: %s is a %s: give a number, a string or a boolean",
			   what, luaL_typename(L, idx));
	}
}

/* name[n] = [v1, v2...] from the series' field `key`. */
static void add_series_array(lua_State *L, struct strbuf *b, int ser, int n, const char *name,
			     const char *key)
{
	char head[64];

	snprintf(head, sizeof(head), "array %s[%d] = [", name, n > 0 ? n : 1);
	sb_printf(b, "%s", head);
	for (int i = 1; i <= (n > 0 ? n : 1); i++) {
		if (i > 1)
			sb_printf(b, "%s", ", ");
		char what[64];

		lua_geti(L, ser, i);
		if (lua_istable(L, -1))
			lua_getfield(L, -1, key);
		else
			lua_pushnil(L);
		snprintf(what, sizeof(what), "series %d's %s", i, key);
		add_value(L, b, -1, what);
		lua_pop(L, 2);
	}
	sb_printf(b, "%s", "]\n");
}

/* The fonts are sized for 1280x720 and follow the square root of the
 * image's scale (its smaller side's ratio to that), so a 640x360 chart keeps
 * its labels readable (0.71x) and out of each other's way, which the same
 * point size as at 1280x720 did not (a title past the edge, bar labels
 * running together). */
static double font_scale(const struct report *r)
{
	return sqrt(fmin(r->o->width / 1280.0, r->o->height / 720.0));
}

/* key_margin: the bottom margin, in lines, that holds the x label and the
 * key under it (the templates put it there, horizontal). gnuplot gives the
 * key columns as wide as its longest title and drops a key that does not
 * fit; review.lua keeps titles to 60 characters, and the margin is 4.5
 * lines (the tic labels, the x label, a gap) and a line and a quarter for
 * each row of the key (a row is a line, a little more with big points:
 * 1.06 at 800x450; a line and a half left an empty band) (about 11
 * pixels a character at 1280x720, the SVG's font, scaled as the fonts are;
 * a sample and a gap take 7). */
static void add_key_margin(lua_State *L, struct strbuf *b, int spec, int ser, int n,
			   const struct report *r)
{
	size_t longest = 0, own;
	unsigned per_row = (unsigned)(r->o->width / (11 * font_scale(r))), cols, rows, each, extra;
	char line[64];

	lua_getfield(L, spec, "key_entries");	/* a series' lines in the key (mean, p99) */
	each = lua_isinteger(L, -1) && lua_tointeger(L, -1) > 0 && lua_tointeger(L, -1) < 16 ?
	       (unsigned)lua_tointeger(L, -1) : 1;
	lua_pop(L, 1);

	for (int i = 1; i <= n; i++) {
		size_t chars = 0;

		if (lua_geti(L, ser, i) == LUA_TTABLE && lua_getfield(L, -1, "title") == LUA_TSTRING)
			for (const char *c = lua_tostring(L, -1); *c; c++)
				chars += ((unsigned char)*c & 0xc0) != 0x80;
		lua_settop(L, ser);
		longest = chars > longest ? chars : longest;
	}
	/* key_inside: a key of at most 8 lines of at most 40 characters goes
	 * inside the plot, beside the points; a bigger one would hide them, and
	 * goes under the plot, in key_margin */
	snprintf(line, sizeof(line), "key_inside = %d\n", (unsigned)n * each <= 8 && longest <= 40);
	sb_printf(b, "%s", line);
	/* key_suffix: what the template appends to each title (" mean": 5);
	 * key_own: its own entries' longest ("±5 % of the window mean"), 0 for
	 * none, 48 characters when not given for a series drawing several lines
	 * (counted so, "9361-8i [simulated] mean" took a column of 55 characters: at
	 * 800x450 the key of two runs' mean and p99 was given four rows for two) */
	lua_getfield(L, spec, "key_suffix");
	longest += lua_isinteger(L, -1) && lua_tointeger(L, -1) > 0 && lua_tointeger(L, -1) < 64 ?
		   (size_t)lua_tointeger(L, -1) : 0;
	lua_getfield(L, spec, "key_own");
	own = lua_isinteger(L, -1) && lua_tointeger(L, -1) >= 0 && lua_tointeger(L, -1) < 64 ?
	      (size_t)lua_tointeger(L, -1) : each > 1 ? 48 : 0;
	lua_getfield(L, spec, "key_extra");	/* its own entries, besides the series' */
	extra = lua_isinteger(L, -1) && lua_tointeger(L, -1) > 0 && lua_tointeger(L, -1) < 16 ?
		(unsigned)lua_tointeger(L, -1) : 0;
	lua_pop(L, 3);
	longest = own > longest ? own : longest;
	cols = per_row / (unsigned)(longest + 7);
	cols = cols ? cols : 1;
	rows = n > 0 ? ((unsigned)n * each + extra + cols - 1) / cols : 1;
	snprintf(line, sizeof(line), "key_margin = %.2f\n", 4.5 + 1.25 * rows);
	sb_printf(b, "%s", line);
}

/* points[i]: series i's points; key(i, s): its legend entry, titles[i].s,
 * or '' (no entry) when it has none, so the key lists only drawn runs. */
static void add_points(lua_State *L, struct strbuf *b, int ser, int n)
{
	char num[32];

	snprintf(num, sizeof(num), "array points[%d] = [", n > 0 ? n : 1);
	sb_printf(b, "%s", num);
	for (int i = 1; i <= (n > 0 ? n : 1); i++) {
		lua_geti(L, ser, i);
		snprintf(num, sizeof(num), "%s%d", i > 1 ? ", " : "",
			 lua_istable(L, -1) ? series_points(L, lua_gettop(L)) : 0);
		sb_printf(b, "%s", num);
		lua_pop(L, 1);
	}
	sb_printf(b, "%s", "]\nkey(i, s) = points[i] > 0 ? titles[i].s : ''\n");
}

/* For log axes, whose tics are 1, 2, 5 in every decade: the tic at or below
 * v and the one at or above it, so that an axis spans its points to the
 * nearest tics and not to whole decades (a curve from 180 to 6,000 us drawn
 * between 100 and 100,000 filled a third of the plot); a millionth outside
 * the tic, which gnuplot leaves unlabelled when the axis ends on it (v * 1.0:
 * an integer v, 110, would divide as an integer). */
static const char log_tics_125[] =
	"dec125(v) = 10 ** floor(log10(v) + 1e-9)\n"
	"lo125(v) = (m125 = v * 1.0 / dec125(v), (m125 >= 5 - 1e-9 ? 5 : m125 >= 2 - 1e-9 ? 2 : 1) "
	"* dec125(v) * (1 - 1e-6))\n"
	"hi125(v) = (m125 = v * 1.0 / dec125(v), (m125 <= 1 + 1e-9 ? 1 : m125 <= 2 + 1e-9 ? 2 : "
	"m125 <= 5 + 1e-9 ? 5 : 10) * dec125(v) * (1 + 1e-6))\n";

/* Numbers as a review prints them, for the templates' legends and labels:
 * si(608643) "608.6k", si(1.2e6) "1.2M" (four digits at most); num(608643)
 * "608,643", num(3.5) "3.50", num(42.25) "42.2" (reports/format.lua's
 * format.num). And per series a point type and a dash of its own besides its
 * colour (ptype: filled circle, square, triangle, diamond...; ptype_open the
 * same shapes open; dtype: solid, dashed, dash-dot...), so that runs differ
 * in print and to a reader who cannot tell the colours apart. */
static const char number_funcs[] =
	"si(v) = abs(v) >= 999.95e9 ? sprintf('%.4gT', v / 1e12) : abs(v) >= 999.95e6 ? "
	"sprintf('%.4gG', v / 1e9) : abs(v) >= 999.95e3 ? sprintf('%.4gM', v / 1e6) : "
	"abs(v) >= 9999.5 ? sprintf('%.4gk', v / 1e3) : num(v)\n"
	"sep_(n) = n < 1000 ? sprintf('%d', n) : sep_(int(n / 1000)) . sprintf(',%03d', n % 1000)\n"
	"num(v) = abs(v) < 10 ? sprintf('%.2f', v) : abs(v) < 100 ? sprintf('%.1f', v) : "
	"(v < 0 ? '-' : '') . sep_(int(abs(v) + 0.5))\n";

/* ptype, ptype_open and dtype: eight styles, repeated to one per series (a
 * telemetry chart may draw ten keys: ptype[9] must exist). */
static void add_styles(struct strbuf *b, int nseries)
{
	static const struct { const char *name; int v[8]; } st[] = {
		{ "ptype", { 7, 5, 9, 13, 11, 15, 3, 1 } },
		{ "ptype_open", { 6, 4, 8, 12, 10, 14, 3, 1 } },
		{ "dtype", { 1, 2, 4, 5, 3, 1, 2, 4 } },
	};
	int n = nseries > 8 ? nseries : 8;

	for (size_t k = 0; k < sizeof(st) / sizeof(st[0]); k++) {
		sb_printf(b, "array %s[%d] = [", st[k].name, n);
		for (int i = 0; i < n; i++)
			sb_printf(b, "%s%d", i ? ", " : "", st[k].v[i % 8]);
		sb_printf(b, "%s", "]\n");
	}
}

/* note: "higher is better", "lower is better" (better = 'higher', 'lower'),
 * or the chart's own text ("IOPS: higher is better; latency: lower"), drawn
 * in the top right corner over the plot; '' draws none. */
static void add_note(lua_State *L, struct strbuf *b, int spec)
{
	const char *better;

	lua_getfield(L, spec, "better");
	better = lua_tostring(L, -1);
	sb_printf(b, "%s", "note = ");
	if (better && (!strcmp(better, "higher") || !strcmp(better, "lower")))
		sb_printf(b, "'%s is better'", better);
	else
		add_value(L, b, -1, "better");
	lua_pop(L, 1);
	sb_printf(b, "%c", '\n');
}

/* A name gnuplot reads as one identifier (it keeps 50 characters). */
static bool ident_ok(const char *k)
{
	if (!((*k >= 'a' && *k <= 'z') || *k == '_') || strlen(k) > 50)
		return false;
	return k[strspn(k, "abcdefghijklmnopqrstuvwxyz0123456789_")] == '\0';
}

/* The args' keys, checked, sorted (a table's own order changes from run to
 * run, and so would the same report's scripts); the array is on the stack. */
static const char **args_keys(lua_State *L, int args, size_t *n)
{
	const char **keys;
	const char *why;

	*n = 0;
	for (lua_pushnil(L); lua_next(L, args); lua_pop(L, 1))
		(*n)++;
	keys = lua_newuserdatauv(L, (*n ? *n : 1) * sizeof(*keys), 0);	/* freed by the GC */
	*n = 0;
	for (lua_pushnil(L); lua_next(L, args); lua_pop(L, 1)) {
		const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "";

		if (!ident_ok(k))
			luaL_error(L, "report.chart: args key '%s' is not a gnuplot name "
				   "([a-z_][a-z0-9_]*, at most 50 characters)", k);
		if ((why = gnuplot_reserved(k))) {
			luaL_where(L, 1);
			report_refuse(L, "%sreport.chart: args key '%s' is %s: a report's args may "
				      "not define it", lua_tostring(L, -1), k, why);
		}
		keys[(*n)++] = k;	/* the table's key: alive while args is */
	}
	qsort(keys, *n, sizeof(*keys), util_cmp_str);
	return keys;
}

/* args = { key = number|string|boolean|{array of them} } as gnuplot
 * variables, written before the template and after every name hbatest sets
 * (which no key may be). */
static void add_args(lua_State *L, struct strbuf *b, int spec)
{
	int args = (lua_getfield(L, spec, "args"), lua_gettop(L));
	const char **keys;
	char what[96];
	size_t n;

	if (!lua_istable(L, args)) {
		lua_pop(L, 1);
		return;
	}
	keys = args_keys(L, args, &n);
	for (size_t j = 0; j < n; j++) {
		const char *k = keys[j];

		lua_pushstring(L, k);
		if (lua_rawget(L, args) == LUA_TTABLE) {
			lua_Integer len = (lua_Integer)lua_rawlen(L, -1);

			sb_printf(b, "array %s[%lld] = [", k, (long long)(len ? len : 1));
			for (lua_Integer i = 1; i <= (len ? len : 1); i++) {
				sb_printf(b, "%s", i > 1 ? ", " : "");
				lua_rawgeti(L, -1, i);
				snprintf(what, sizeof(what), "args key '%s' [%lld]", k, (long long)i);
				add_value(L, b, -1, what);
				lua_pop(L, 1);
			}
			sb_printf(b, "%s", "]\n");
		} else {
			sb_printf(b, "%s = ", k);
			snprintf(what, sizeof(what), "args key '%s'", k);
			add_value(L, b, -1, what);
			sb_printf(b, "%c", '\n');
		}
		lua_pop(L, 1);
	}
	lua_pop(L, 2);	/* keys, args */
}

/* One terminal per --format; PDF in inches at 100 pixels an inch; beside each
 * its small_font, three quarters of its font, for the labels on bars. */
static void add_terminals(struct report *r, struct strbuf *b, const char *base)
{
	unsigned w = r->o->width, h = r->o->height;
	double k = font_scale(r);

	sb_printf(b, "small_font = ',10'\n");	/* a terminal of one's own: its default size */
	sb_printf(b, "do for [fmt in formats] {\n");
	sb_printf(b, "if (fmt eq 'svg') { set terminal svg size %u,%u dynamic background "
		  "'#ffffff' font 'Helvetica,%.1f' linewidth 1.3 noenhanced; set output '%s.svg'; "
		  "small_font = ',%.1f' }\n", w, h, 17 * k, base, 13 * k);
	sb_printf(b, "if (fmt eq 'png') { set terminal pngcairo size %u,%u background '#ffffff' "
		  "font 'Helvetica,%.1f' noenhanced; set output '%s.png'; small_font = ',%.1f' }\n",
		  w, h, 13 * k, base, 10 * k);
	sb_printf(b, "if (fmt eq 'pdf') { set terminal pdfcairo size %.2fin,%.2fin background "
		  "'#ffffff' font 'Helvetica,%.1f' noenhanced; set output '%s.pdf'; "
		  "small_font = ',%.1f' }\n", w / 100.0, h / 100.0, 9 * k, base, 7 * k);
}

static void build_gp(lua_State *L, int spec, struct strbuf *b, const char *base, int nseries,
		     const char *body, size_t bodylen)
{
	struct report *r = report_of(L);
	char line[512];
	int ser = (lua_getfield(L, spec, "series"), lua_gettop(L));

	snprintf(line, sizeof(line), "# %s.gp, written by hbatest report %s. The data it plots\n"
		 "# is %s.tsv (one block per series: index 0, 1...). Restyle below,\n"
		 "# then re-render with: gnuplot %s.gp\n", base, HB_VERSION, base, base);
	sb_printf(b, "%s", line);
	snprintf(line, sizeof(line), "datafile = '%s.tsv'\nnseries = %d\nformats = '%s%s%s'\n",
		 base, nseries, r->o->svg ? "svg " : "", r->o->png ? "png " : "",
		 r->o->pdf ? "pdf" : "");
	sb_printf(b, "%s", line);
	sb_printf(b, "%s", "chart_title = ");
	lua_getfield(L, spec, "title");
	add_value(L, b, -1, "the title");
	lua_pop(L, 1);
	sb_printf(b, "%c", '\n');
	add_series_array(L, b, ser, nseries, "titles", "title");
	add_series_array(L, b, ser, nseries, "colors", "color");
	add_points(L, b, ser, nseries);
	sb_printf(b, "%s", log_tics_125);
	sb_printf(b, "%s", number_funcs);
	add_styles(b, nseries);
	add_note(L, b, spec);
	add_key_margin(L, b, spec, ser, nseries, r);
	lua_pop(L, 1);
	add_args(L, b, spec);
	sb_printf(b, "%s", "set datafile separator '\\t'\n\n");
	add_terminals(r, b, base);
	sb_printf(b, "%s", "if (strlen(note) > 0) { set label 990 note at graph 1, graph 1 right "
		  "offset 0, 0.6 font small_font tc rgb '#555555' front }\n");
	sb_printf(b, "%.*s", (int)bodylen, body);
	sb_printf(b, "%s", "\nunset output\n}\n");
}

/* Pushes the template's text (Lua owns it) and returns it, checked. */
static const char *read_template(lua_State *L, const char *name, size_t *n)
{
	struct report *r = report_of(L);
	char rel[300], path[PATH_MAX], why[512];
	const char *body;

	snprintf(rel, sizeof(rel), "gnuplot/%s.gp", name);
	if (strchr(name, '/') || !report_path_ok(rel) ||
	    !report_find_asset(r, rel, path, sizeof(path)))
		luaL_error(L, "report.chart: no template '%s' (reports/gnuplot/%s.gp)", name, name);
	report_push_file(L, path, GNUPLOT_TEMPLATE_MAX + 1);	/* (+1: the check says how big) */
	body = lua_tolstring(L, -1, n);
	if (gnuplot_check_template(body, *n, why, sizeof(why)) < 0) {
		luaL_where(L, 1);
		report_refuse(L, "%sreport.chart: template '%s' is refused: %s:%s", lua_tostring(L, -1),
			      name, path, why);
	}
	return body;
}

/* Text for an HTML attribute (and the SVG's <title>, XML): UTF-8 made
 * valid, & < > " ' as entities, so that no "-->" ends the chart's marker. */
static void add_html(struct strbuf *b, const char *s)
{
	struct strbuf t = { 0 };

	add_text(&t, s, strlen(s), 0, NULL);
	for (const char *p = t.s ? t.s : ""; *p; p++) {
		switch (*p) {
		case '&': sb_printf(b, "%s", "&amp;"); break;
		case '<': sb_printf(b, "%s", "&lt;"); break;
		case '>': sb_printf(b, "%s", "&gt;"); break;
		case '"': sb_printf(b, "%s", "&quot;"); break;
		case '\'': sb_printf(b, "%s", "&#39;"); break;
		default: sb_printf(b, "%c", *p);
		}
	}
	sb_free(&t);
}

/* The result: base, the files' names, embedded (the image the page shows,
 * "NN-name.svg"), title, and img, the page's marker for it: "<!--hbatest:chart
 * NN-name.svg ALT-->", ALT the title as HTML (the image's alt text and the
 * SVG's <title>: report_page.c); charts.figure puts its caption there too. */
static void push_result(lua_State *L, struct report *r, const char *base, const char *embed)
{
	static const char *const exts[] = { "gp", "tsv", "svg", "png", "pdf" };
	struct strbuf *alt = report_strbuf(L);
	char rel[256];

	lua_getfield(L, 1, "title");
	add_html(alt, lua_tostring(L, -1) ? lua_tostring(L, -1) : "");
	lua_pop(L, 1);
	lua_createtable(L, 0, 8);
	lua_getfield(L, 1, "title");
	lua_setfield(L, -2, "title");
	lua_pushstring(L, base);
	lua_setfield(L, -2, "base");
	for (unsigned i = 0; i < ARRAY_SIZE(exts); i++) {
		snprintf(rel, sizeof(rel), "charts/%s.%s", base, exts[i]);
		lua_pushstring(L, rel);
		lua_setfield(L, -2, exts[i]);
	}
	if (!strcmp(embed, "png") ? !r->o->png : !r->o->svg)
		embed = r->o->svg ? "svg" : "png";
	lua_pushfstring(L, "%s.%s", base, embed);
	lua_setfield(L, -2, "embedded");
	lua_pushfstring(L, "<!--hbatest:chart %s.%s %s-->", base, embed, alt->s ? alt->s : "");
	lua_setfield(L, -2, "img");
}

int report_l_chart(lua_State *L)
{
	struct report *r = report_of(L);
	char name[64], base[80], rel[128], err[600];
	const char *tmpl, *embed;
	struct strbuf *tsv, *gp;
	int nseries = 0;
	size_t bodylen;
	const char *body;
	uint64_t t0;

	luaL_checktype(L, 1, LUA_TTABLE);
	lua_settop(L, 1);
	lua_getfield(L, 1, "name");
	slug(luaL_optstring(L, -1, "chart"), name, sizeof(name));
	lua_getfield(L, 1, "template");
	tmpl = luaL_checkstring(L, -1);
	lua_getfield(L, 1, "embed");
	embed = luaL_optstring(L, -1, "svg");
	tsv = report_strbuf(L);
	gp = report_strbuf(L);
	snprintf(base, sizeof(base), "%02u-%s", ++r->ncharts, name);

	build_tsv(L, 1, tsv, &nseries);
	snprintf(rel, sizeof(rel), "charts/%s.tsv", base);
	report_write_file(L, rel, tsv->s ? tsv->s : "", tsv->len);

	body = read_template(L, tmpl, &bodylen);
	build_gp(L, 1, gp, base, nseries, body, bodylen);
	snprintf(rel, sizeof(rel), "charts/%s.gp", base);
	report_write_file(L, rel, gp->s ? gp->s : "", gp->len);

	snprintf(rel, sizeof(rel), "%s.gp", base);
	/* in the limit's clock, this thread's CPU time (wall time underflowed it) */
	t0 = plan_clock_ns();
	if (r->o->gp && gnuplot_start(r->o->gp, rel, err, sizeof(err)) < 0)
		return luaL_error(L, "%s", err);
	r->lim->hook_ns += plan_clock_ns() - t0;	/* a wait for gnuplot: not the program's time */
	push_result(L, r, base, embed);
	return 1;
}
