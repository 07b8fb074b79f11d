/* The report program: Lua in the plan sandbox with the report.* API
 * (read-only SQL, files written only inside the report's folder, charts
 * rendered by gnuplot from a template and a data file). */
#ifndef HB_LUA_REPORT_H
#define HB_LUA_REPORT_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct db;
struct gnuplot;

struct report_opts {
	const char *program;	/* the report's Lua file (reports/review.lua) */
	const char *dir;	/* the folder it writes into */
	const char *title;	/* --title, or NULL */
	const int64_t *runs;	/* run ids, in the order given */
	unsigned nruns;
	unsigned baseline;	/* index into runs */
	bool svg, png, pdf;	/* --format */
	unsigned width, height;	/* pixels */
	struct db *db;
	struct gnuplot *gp;	/* NULL: --no-charts (scripts and data only) */
	uint64_t lua_memory;	/* bytes the program's Lua may use; 0: PLAN_LUA_MEMORY */
	unsigned lua_seconds;	/* its time, in Lua and its queries; 0: REPORT_LUA_SECONDS */
	const char *const *only;	/* --only globs (report.only), nonly of them */
	unsigned nonly;
	const char *const *at;	/* --at "AXIS=VALUE", as report.at { AXIS = "VALUE" } */
	unsigned nat;
	bool mib;		/* --units MiB: report.units is "MiB", else "MB" */
};

#define REPORT_MAX_AT 16	/* --at options */
/* A report program's own time, in Lua and in its queries (gnuplot's not
 * counted): room for an archive of many runs; report --lua-time sets it. */
#define REPORT_LUA_SECONDS 120

/* What report_execute returns when the program refused its options through
 * report.usage_error (an --only that selects nothing, an --at no run has):
 * the command exits 2, as for a usage error. */
#define REPORT_EUSAGE (-EDOM)

/* Run the report program. 0, REPORT_EUSAGE, or -errno with err
 * ("review.lua:12: ..."). */
int report_execute(const struct report_opts *o, char *err, size_t len);

#endif
