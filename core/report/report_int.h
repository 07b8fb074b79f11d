/* The state of one report program, and the report's internal functions:
 * report.c (the Lua API) calls report_chart.c (report.chart) and
 * report_files.c; report_chart.c calls report_files.c only. */
#ifndef HB_LUA_REPORT_INT_H
#define HB_LUA_REPORT_INT_H

#include <lauxlib.h>
#include <limits.h>
#include <stdbool.h>

#include "report/report.h"
#include "plan/sandbox.h"
#include "plan/state.h"

#define REG_REPORT "hbatest.report"	/* struct report * */
#define REG_UNFIT "hbatest.report.unfit"	/* "column\tkind" of values said unfit */

struct report {
	const struct report_opts *o;
	char progdir[PATH_MAX];		/* folder of the report program */
	unsigned ncharts;
	struct sandbox_finder finder;	/* require(): reports/, then scripts/ */
	char plain_err[PATH_MAX + 1024];	/* the last refusal raised: no traceback */
	struct plan_limits *lim;	/* memory and time (limits.c) */
	bool usage;			/* report.usage_error was called */
};

/* report_files.c */
struct report *report_of(lua_State *L);
bool report_path_ok(const char *rel);
bool report_find_asset(struct report *r, const char *rel, char *out, size_t len);
void report_write_file(lua_State *L, const char *rel, const char *text, size_t n);
/* Push the text of one of the report's own files (an asset, a template): a
 * regular file of at most max bytes, else raise naming it, so a FIFO or
 * /dev/zero put there cannot hang the report or fill its memory. */
void report_push_file(lua_State *L, const char *path, size_t max);
#define REPORT_ASSET_MAX (16u << 20)	/* bytes of a page, a style sheet */
/* Push s as UTF-8: each byte that is not UTF-8 becomes U+FFFD, and so do
 * U+FFFE and U+FFFF (report_nonchar), which XML refuses. */
void report_push_utf8(lua_State *L, const char *s, size_t n);
bool report_nonchar(const unsigned char *p, size_t len);
/* Raise a refusal that is no bug of the report program (a template refused,
 * a file that cannot be written): its message with no traceback. */
int report_refuse(lua_State *L, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* report_chart.c */
/* 'text' for gnuplot: quotes doubled, control characters as spaces. */
struct strbuf;
void report_gp_quote(struct strbuf *b, const char *s, size_t n);
/* A strbuf on the Lua stack that Lua frees (__gc), even on an error. */
struct strbuf *report_strbuf(lua_State *L);
int report_l_chart(lua_State *L);

#endif
