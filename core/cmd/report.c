/* `hbatest report RUN...`: one self-contained HTML page and publishable charts
 * from runs in the database, written by a report program (reports/review.lua)
 * into a temporary folder that is renamed into place only when complete;
 * SIGINT/SIGTERM stop it, remove that folder and exit 130. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/report_dir.h"
#include "store/db.h"
#include "store/report.h"
#include "report/gnuplot.h"
#include "base/log.h"
#include "base/paths.h"
#include "report/report.h"
#include "report/report_page.h"
#include "base/stop.h"
#include "base/util.h"


/* Address space of one gnuplot: a 10000x10000 PNG with its fonts fits. */
#define GNUPLOT_MEMORY (4ull << 30)
#define REPORT_MAX_ONLY 32	/* --only given more often than this is refused */

struct report_args {
	const char *specs[REPORT_MAX_RUNS];
	unsigned nspecs;
	const char *out, *title, *baseline, *template;
	bool charts, svg, png, pdf;
	unsigned width, height;
	uint64_t lua_memory;	/* --lua-memory; 0: the plan's default */
	unsigned lua_seconds;	/* --lua-time; 0: REPORT_LUA_SECONDS */
	const char *only[REPORT_MAX_ONLY];	/* --only GLOB, each given */
	unsigned nonly;
	const char *at[REPORT_MAX_AT];	/* --at AXIS=VALUE, each axis once */
	unsigned nat;
	bool mib;		/* --units MiB */
};

static int parse_formats(struct report_args *a, const char *list)
{
	char copy[64], *save = NULL;

	a->svg = a->png = a->pdf = false;
	snprintf(copy, sizeof(copy), "%s", list);
	for (char *f = strtok_r(copy, ",", &save); f; f = strtok_r(NULL, ",", &save)) {
		if (!strcmp(f, "svg")) {
			a->svg = true;
		} else if (!strcmp(f, "png")) {
			a->png = true;
		} else if (!strcmp(f, "pdf")) {
			a->pdf = true;
		} else {
			cli_usage_error("report", "--format '%s': give svg, png, pdf or a list "
					"(svg,png)", f);
			return -1;
		}
	}
	if (!a->svg && !a->png) {
		cli_usage_error("report", "--format '%s': the page needs svg or png too "
				"(e.g. svg,pdf)", list);
		return -1;
	}
	return 0;
}

static int parse_size(struct report_args *a, const char *s)
{
	char x;

	if (sscanf(s, "%u%c%u", &a->width, &x, &a->height) != 3 || (x != 'x' && x != 'X') ||
	    a->width < 200 || a->height < 150 || a->width > 10000 || a->height > 10000) {
		cli_usage_error("report", "--size '%s': give WIDTHxHEIGHT in pixels, "
				"e.g. 1280x720 (200x150 .. 10000x10000)", s);
		return -1;
	}
	return 0;
}

enum report_opt {	/* after --no-charts, those with a value */
	OPT_NO_CHARTS = CLI_OWN, OPT_OUT, OPT_TITLE, OPT_BASELINE, OPT_TEMPLATE, OPT_FORMAT,
	OPT_SIZE, OPT_LUA_MEMORY, OPT_LUA_TIME, OPT_ONLY, OPT_AT, OPT_UNITS,
};

static const struct option report_opts[] = {
	{ "out", required_argument, NULL, OPT_OUT },
	{ "title", required_argument, NULL, OPT_TITLE },
	{ "baseline", required_argument, NULL, OPT_BASELINE },
	{ "template", required_argument, NULL, OPT_TEMPLATE },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "size", required_argument, NULL, OPT_SIZE },
	{ "lua-memory", required_argument, NULL, OPT_LUA_MEMORY },
	{ "lua-time", required_argument, NULL, OPT_LUA_TIME },
	{ "only", required_argument, NULL, OPT_ONLY },
	{ "at", required_argument, NULL, OPT_AT },
	{ "units", required_argument, NULL, OPT_UNITS },
	{ "no-charts", no_argument, NULL, OPT_NO_CHARTS },
	CLI_COMMON_OPTIONS
};

/* --lua-memory SIZE and --lua-time SECONDS: the report program's limits */
static int parse_limit(struct report_args *a, int opt, const char *v)
{
	char *end;
	unsigned long n;

	if (opt == OPT_LUA_MEMORY) {
		if (util_parse_size(v, &a->lua_memory) || a->lua_memory < (1u << 20)) {
			cli_usage_error("report", "--lua-memory %s: expected a size of at least 1m, "
					"such as \"2g\"", v);
			return -1;
		}
		return 0;
	}
	errno = 0;
	n = strtoul(v, &end, 10);
	if (errno || end == v || *end || *v == '-' || n < 1 || n > 86400) {
		cli_usage_error("report", "--lua-time %s: expected whole seconds, 1 to 86400", v);
		return -1;
	}
	a->lua_seconds = (unsigned)n;
	return 0;
}

/* --only GLOB, repeatable: the report program matches the globs (review.lua) */
static int add_only(struct report_args *a, const char *glob)
{
	if (a->nonly == REPORT_MAX_ONLY) {
		cli_usage_error("report", "--only given more than %d times: join groups in one "
				"glob (e.g. 'RAID5*')", REPORT_MAX_ONLY);
		return -1;
	}
	a->only[a->nonly++] = glob;
	return 0;
}

/* --at AXIS=VALUE (the point of the ranked bars; the runs' steps say
 * whether it is one, report.c's Lua) and --units MB|MiB */
static int parse_point(struct report_args *a, int opt, const char *v)
{
	size_t n = strcspn(v, "=");

	if (opt == OPT_UNITS) {
		if (strcasecmp(v, "MB") && strcasecmp(v, "MiB")) {	/* mib as MiB */
			cli_usage_error("report", "--units '%s': give MB (10^6 bytes, the default) "
					"or MiB (2^20 bytes)", v);
			return -1;
		}
		a->mib = !strcasecmp(v, "MiB");
		return 0;
	}
	if (!n || !v[n] || !v[n + 1] || n > 40 ||
	    v[strspn(v, "abcdefghijklmnopqrstuvwxyz0123456789_")] != '=') {
		cli_usage_error("report", "--at '%s': give AXIS=VALUE, e.g. --at oio=32 or "
				"--at write_pct=50", v);
		return -1;
	}
	for (unsigned i = 0; i < a->nat; i++) {
		if (!strncmp(a->at[i], v, n + 1)) {
			cli_usage_error("report", "--at '%s': the axis %.*s has a point already "
					"('%s'): give each axis once", v, (int)n, v, a->at[i]);
			return -1;
		}
	}
	if (a->nat == REPORT_MAX_AT) {
		cli_usage_error("report", "--at '%s': at most %d axes", v, REPORT_MAX_AT);
		return -1;
	}
	a->at[a->nat++] = v;
	return 0;
}

static int parse_value(struct report_args *a, const struct cli_getopt *g, int opt)
{
	const char *v = g->arg;

	if (!*v && (opt == OPT_OUT || opt == OPT_BASELINE || opt == OPT_TEMPLATE ||
		    opt == OPT_ONLY)) {	/* --out "$DIR" with DIR unset */
		cli_usage_error("report", "option '--%s' is empty (an unset variable?)", g->name);
		return -1;
	}
	if (opt == OPT_OUT)
		a->out = v;
	else if (opt == OPT_TITLE)
		a->title = v;
	else if (opt == OPT_BASELINE)
		a->baseline = v;
	else if (opt == OPT_TEMPLATE)
		a->template = v;
	else if (opt == OPT_FORMAT)
		return parse_formats(a, v);
	else if (opt == OPT_LUA_MEMORY || opt == OPT_LUA_TIME)
		return parse_limit(a, opt, v);
	else if (opt == OPT_ONLY)
		return add_only(a, v);
	else if (opt == OPT_AT || opt == OPT_UNITS)
		return parse_point(a, opt, v);
	else
		return parse_size(a, v);
	return 0;
}

static int parse_args(struct report_args *a, int argc, char **argv)
{
	struct cli_getopt g;
	int opt;

	*a = (struct report_args){ .charts = true, .svg = true, .png = true,
				   .width = 1280, .height = 720 };
	cli_getopt_init(&g, "report", argc, argv, report_opts);
	while ((opt = cli_getopt_next(&g)) != CLI_END) {
		if (opt == CLI_ERROR)
			return -1;
		if (opt == OPT_NO_CHARTS) {
			a->charts = false;
		} else if (opt > OPT_NO_CHARTS) {
			if (parse_value(a, &g, opt) < 0)
				return -1;
		} else if (opt == CLI_ARG && g.arg[0] != '-' && a->nspecs < REPORT_MAX_RUNS) {
			a->specs[a->nspecs++] = g.arg;
		} else {
			cli_usage_error("report", "unexpected argument '%s'", g.opt);
			return -1;
		}
	}
	if (!a->nspecs) {
		cli_usage_error("report", "give one run or more (an id, a label or a uuid prefix)");
		return -1;
	}
	return 0;
}

struct name_ctx {
	char *out;
	size_t len;
};

/* s as a file-name part: [A-Za-z0-9._-], other runs of characters as one '-' */
static size_t add_safe(struct name_ctx *c, size_t o, const char *s)
{
	size_t start = o;

	for (; *s && o + 1 < c->len && o - start < 60; s++) {
		char ch = *s;
		bool keep = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
			    (ch >= '0' && ch <= '9') || ch == '.' || ch == '_' || ch == '-';

		if (keep || (o > start && c->out[o - 1] != '-'))
			c->out[o++] = keep ? ch : '-';
	}
	while (o > start && c->out[o - 1] == '-')
		o--;
	if (o == start + 1 && c->out[start] == '.')	/* never "." or ".." */
		o = start;
	if (o == start + 2 && !strncmp(c->out + start, "..", 2))
		o = start;
	return o;
}

/* label, or the uuid's first 8 characters, as a file-name part */
static void add_name(struct name_ctx *c, const struct db_run_names *r)
{
	size_t o = strlen(c->out), start;

	if (o && o + 5 < c->len) {
		strcat(c->out, "-vs-");
		o += 4;
	}
	start = o;
	o = add_safe(c, o, r->label ? r->label : "");
	if (o == start)		/* no label, or nothing of it fit for a file name */
		o = add_safe(c, o, r->uuid8 ? r->uuid8 : "run");
	c->out[o] = '\0';
}

static int default_dir(struct db *db, const int64_t *ids, unsigned n, char *out, size_t len)
{
	char names[160] = "", err[512];
	struct name_ctx c = { names, sizeof(names) };

	for (unsigned i = 0; i < n; i++) {
		struct db_run_names r;

		if (db_report_run_names(db, ids[i], &r, err, sizeof(err))) {
			log_error("%s", err);
			return -EIO;
		}
		if (r.uuid)	/* the run is there */
			add_name(&c, &r);
		db_run_names_free(&r);
	}
	snprintf(out, len, "hbatest-report-%s", names);
	return 0;
}

static int resolve_runs(struct db *db, const struct report_args *a, int64_t *ids,
			unsigned *baseline)
{
	char err[1024];

	for (unsigned i = 0; i < a->nspecs; i++) {
		ids[i] = db_find_run(db, a->specs[i], err, sizeof(err));
		if (ids[i] < 0) {
			log_error("%s", err);
			return -1;
		}
		for (unsigned k = 0; k < i; k++) {
			if (ids[k] != ids[i])
				continue;
			cli_usage_error("report", "run %lld is given twice ('%s' and '%s'): "
					"name each run once", (long long)ids[i], a->specs[k],
					a->specs[i]);
			return -EINVAL;
		}
	}
	*baseline = 0;
	if (!a->baseline)
		return 0;
	int64_t b = db_find_run(db, a->baseline, err, sizeof(err));

	if (b < 0) {
		log_error("%s", err);
		return -1;
	}
	for (unsigned i = 0; i < a->nspecs; i++) {
		if (ids[i] == b) {
			*baseline = i;
			return 0;
		}
	}
	cli_usage_error("report", "--baseline '%s' is not one of the runs of the report; "
			"name it among them too", a->baseline);
	return -EINVAL;
}

/* The mark's one line: "runs: UUID UUID ...", the report's runs in order. */
static int run_uuids(struct db *db, const int64_t *ids, unsigned n, char *out, size_t len)
{
	char err[512];

	snprintf(out, len, "runs:");
	for (unsigned i = 0; i < n; i++) {
		struct db_run_names r;
		size_t o = strlen(out);

		if (db_report_run_names(db, ids[i], &r, err, sizeof(err))) {
			log_error("%s", err);
			return -EIO;
		}
		if (r.uuid)
			snprintf(out + o, len - o, " %s", r.uuid);
		db_run_names_free(&r);
	}
	return 0;
}

/* Run the program into tmp, wait for gnuplot, embed the charts. A chart
 * gnuplot failed on is reported (*charts_failed) and noted in the page; the
 * rest of the report is still written. */
static int write_report(struct report_opts *o, const char *tmp, bool *charts_failed)
{
	char err[2048], charts[PATH_MAX + 64];
	int rc;

	snprintf(charts, sizeof(charts), "%s/charts", tmp);
	if (mkdir(charts, 0755) < 0) {
		log_error("cannot create '%s': %s", charts, strerror(errno));
		return -errno;
	}
	rc = report_execute(o, err, sizeof(err));
	if (o->gp) {
		char gerr[600];
		int wrc = gnuplot_wait(o->gp, gerr, sizeof(gerr));

		if (!rc && wrc == -EIO) {
			log_error("%s; the rest of the report is written", gerr);
			*charts_failed = true;
		} else if (!rc && wrc) {
			snprintf(err, sizeof(err), "%s", gerr);
			rc = wrc;
		}
	}
	if (!rc)
		rc = report_page_embed(tmp, o->gp != NULL, err, sizeof(err));
	if (rc && !hb_stop_requested)
		log_error("%s", err);
	return rc;
}

static int make_report(struct db *db, const struct report_args *a, const int64_t *ids,
		       unsigned baseline, const char *dir, const char *program, bool *charts_failed,
		       const char *uuids)
{
	mode_t mask = umask(0);

	struct report_opts o = { .program = program, .title = a->title, .runs = ids,
		.nruns = a->nspecs, .baseline = baseline, .svg = a->svg, .png = a->png, .pdf = a->pdf,
		.width = a->width, .height = a->height, .db = db, .lua_memory = a->lua_memory,
		.lua_seconds = a->lua_seconds, .only = a->only, .nonly = a->nonly, .at = a->at,
		.nat = a->nat, .mib = a->mib };
	char tmp[PATH_MAX + 32], charts[PATH_MAX + 48], *slash;
	int rc;

	/* beside DIR, so the final rename stays on one filesystem */
	snprintf(tmp, sizeof(tmp), "%s", dir);
	slash = strrchr(tmp, '/');
	snprintf(slash ? slash + 1 : tmp, sizeof(tmp) - (size_t)(slash ? slash + 1 - tmp : 0),
		 ".hbatest-report-XXXXXX");
	umask(mask);
	if (!mkdtemp(tmp)) {
		log_error("cannot create a folder beside '%s': %s", dir, strerror(errno));
		return -errno;
	}
	chmod(tmp, 0777 & ~mask);	/* mkdtemp's 0700 would lock a web server out */
	snprintf(charts, sizeof(charts), "%s/charts", tmp);
	o.dir = tmp;
	o.gp = a->charts ? gnuplot_new(charts, 0) : NULL;
	if (o.gp)	/* a chart's gnuplot gets the program's time, and room to draw */
		gnuplot_set_limits(o.gp, a->lua_seconds ? a->lua_seconds : REPORT_LUA_SECONDS,
				   GNUPLOT_MEMORY);
	if (a->charts && !o.gp)
		rc = -ENOMEM;
	else
		rc = write_report(&o, tmp, charts_failed);
	gnuplot_free(o.gp);
	if (!rc && hb_stop_requested)
		rc = -EINTR;
	if (!rc)
		rc = report_dir_mark(tmp, uuids);
	if (!rc)
		rc = report_dir_put(tmp, dir, uuids, !a->out);
	if (rc)
		report_remove_tree(tmp);
	return rc;
}

int cmd_report(int argc, char **argv)
{
	struct report_args a;
	int64_t ids[REPORT_MAX_RUNS];
	unsigned baseline;
	char err[1024], dir[PATH_MAX], program[PATH_MAX], uuids[UUIDS_LEN];
	bool charts_failed = false, usage;
	struct db db;
	int rc;

	if (parse_args(&a, argc, argv) < 0)
		return EXIT_USAGE;
	stop_catch_signals();
	stop_set_hard_note("hbatest: a second interrupt: stopping at once; no report is written "
			   "(a .hbatest-report-* folder beside DIR may be left: remove it)\n");
	if (a.charts && !gnuplot_found()) {
		log_error("gnuplot is not on PATH: install it (Debian: apt-get install gnuplot-nox) "
			  "or give --no-charts for the tables and data without charts");
		return EXIT_FAILED;
	}
	if (a.template)
		snprintf(program, sizeof(program), "%s", a.template);
	else if (!paths_find(PATHS_REPORTS, NULL, "review.lua", program, sizeof(program))) {
		log_error("cannot find reports/review.lua beside the binary or in %s: "
			  "is hbatest installed whole? (or give --template FILE)", HB_DATA_DIR);
		return EXIT_FAILED;
	}
	if (access(program, R_OK) < 0) {
		log_error("cannot read report program '%s': %s", program, strerror(errno));
		return EXIT_FAILED;
	}
	if (db_report_open(&db, cli_db_path(), err, sizeof(err)) < 0) {
		log_error("%s", err);
		return EXIT_FAILED;
	}
	rc = resolve_runs(&db, &a, ids, &baseline);
	usage = rc == -EINVAL;
	if (!rc)
		rc = run_uuids(&db, ids, a.nspecs, uuids, sizeof(uuids));
	if (!rc && a.out) {
		size_t n = strlen(a.out);

		while (n > 1 && a.out[n - 1] == '/')	/* "rep/": the folder rep */
			n--;
		snprintf(dir, sizeof(dir), "%.*s", (int)n, a.out);
	}
	else if (!rc)
		rc = default_dir(&db, ids, a.nspecs, dir, sizeof(dir));
	if (!rc)
		rc = report_dir_choose(dir, sizeof(dir), !a.out, uuids);
	if (!rc)
		rc = make_report(&db, &a, ids, baseline, dir, program, &charts_failed, uuids);
	db_close(&db);
	if (usage || rc == REPORT_EUSAGE)
		return EXIT_USAGE;
	if (hb_stop_requested) {
		log_error("interrupted: no report written, its temporary folder removed");
		return EXIT_INTERRUPTED;
	}
	if (rc)
		return EXIT_FAILED;
	printf("%s/index.html\n", dir);
	return charts_failed ? EXIT_FAILED : EXIT_DONE;
}
