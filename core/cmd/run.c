/* `hbatest run`: its options, the listing of --dry-run, and the two passes. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "measure/guard.h"
#include "base/log.h"
#include "measure/loader.h"
#include "measure/probe.h"
#include "measure/progress.h"
#include "run/runner.h"
#include "base/stop.h"
#include "measure/target.h"
#include "base/utf8.h"
#include "base/util.h"

static void estimate_text(const struct run_ctx *c, char *buf, size_t len)
{
	util_format_estimate(c->total_secs - c->sim_secs, c->sim_secs, buf, len);
}

static void print_note(FILE *out, const char *text)
{
	const char *line;
	size_t n;

	while (util_note_line(&text, &line, &n))
		fprintf(out, "note  %.*s\n", (int)n, line);
}

static void print_listing(struct run_ctx *c, const struct plan_info *info, FILE *out)
{
	char dur[96];

	fprintf(out, "plan %s%s%s: %u step%s\n", c->po.path, info->name ? " - " : "",
		info->name ? info->name : "", c->nsteps, c->nsteps == 1 ? "" : "s");
	for (unsigned i = 0; i < c->nnotes + c->nplan_notes; i++)	/* as a run stores them */
		print_note(out, i < c->nnotes ? c->notes[i] : c->plan_notes[i - c->nnotes]);
	for (unsigned i = 0; i < c->nsteps; i++) {
		const struct step_spec *s = &c->steps[i];
		char bs[256], where[PATH_MAX + 32];

		step_where(s, where, sizeof(where));
		util_format_duration(s->estimate, dur, sizeof(dur));
		fprintf(out, "%4u  %-12s %-32s %s%-9s ", i + 1, step_kind_name(s->kind),
			s->name, s->wl.passes ? "~" : "", dur);
		if (s->kind == STEP_EXEC) {
			fprintf(out, "cmd=%s  %s%s\n", s->cmd, where,
				c->po.allow_exec ? "" : "  (needs --allow-exec)");
			continue;
		}
		workload_bs_text(&s->wl, bs, sizeof(bs));
		fprintf(out, "rw=%s bs=%s write_pct=%u oio=%u workers=%u ", rw_name(s->wl.rw),
			bs, s->wl.write_pct, s->wl.oio, s->wl.workers);
		if (s->wl.passes)
			fprintf(out, "passes=%u ", s->wl.passes);
		else
			fprintf(out, "duration=%u ramp=%u ", s->wl.duration, s->wl.ramp);
		if (s->axis)
			fprintf(out, "axis=%s ", s->axis);
		if (s->round)
			fprintf(out, "round=%u ", s->round);
		fprintf(out, "engine=%s targets=%u  %s\n", s->engine->desc->name,
			s->wl.ntargets, where);
	}
	for (unsigned i = 0; guard_destroys(i); i++)
		fprintf(out, "destroys %s\n", guard_destroys(i));
	estimate_text(c, dur, sizeof(dur));
	fprintf(out, "estimated time: %s%s%s\n", dur,
		c->layout ? " (plus laying out new file targets)" : "",
		c->fills ? " (~: fills counted at 1 GB/s)" : "");
}

#define HEARTBEAT_NS (10 * NSEC_PER_SEC)

static int add_target(struct run_ctx *c, const char *path)
{
	char **p;

	if (!*path) {
		cli_usage_error("run", "--target wants a path, not an empty string");
		return -1;
	}
	for (unsigned i = 0; i < c->po.ntargets; i++) {
		if (!target_same_path(c->po.targets[i], path))
			continue;
		cli_usage_error("run", "--target '%s' is given twice (first as '%s')", path,
				c->po.targets[i]);
		return -1;
	}
	p = realloc(c->po.targets, (c->po.ntargets + 1) * sizeof(*p));
	if (!p)
		return -1;
	c->po.targets = p;
	c->po.targets[c->po.ntargets++] = (char *)path;
	return 0;
}

/* --set K=V, once per key: a second value would silently lose to the first */
static int add_set(struct run_ctx *c, const char *kv)
{
	size_t klen = (size_t)(strchr(kv, '=') - kv);

	for (unsigned i = 0; i < c->po.nsets; i++) {
		if (!strncmp(c->po.sets[i], kv, klen + 1)) {
			cli_usage_error("run", "--set %.*s is given twice ('%s' and '%s'): give "
					"each key once", (int)klen, kv, c->po.sets[i] + klen + 1,
					kv + klen + 1);
			return -1;
		}
	}
	c->po.sets = realloc(c->po.sets, (c->po.nsets + 1) * sizeof(char *));
	c->po.sets[c->po.nsets++] = (char *)kv;
	return 0;
}

/* --lua-memory SIZE: what the plan's Lua may allocate (default 1 GiB) */
static int parse_lua_memory(struct run_ctx *c, const char *v)
{
	if (util_parse_size(v, &c->po.lua_memory) || c->po.lua_memory < (1u << 20)) {
		cli_usage_error("run", "--lua-memory %s: expected a size of at least 1m, such as "
				"\"2g\"", v);
		return -1;
	}
	return 0;
}

/* --max-steps N: the steps a pass of the plan may make (default 100,000) */
static int parse_max_steps(struct run_ctx *c, const char *v)
{
	char *end;
	unsigned long n;

	errno = 0;
	n = strtoul(v, &end, 10);
	if (errno || end == v || *end || !isdigit((unsigned char)*v) || n < 1 || n > 100000000) {
		cli_usage_error("run", "--max-steps %s: expected a whole number of steps, 1 to "
				"100000000", v);
		return -1;
	}
	c->po.max_steps = (unsigned)n;
	return 0;
}

enum run_opt {
	OPT_LABEL = CLI_OWN, OPT_TARGET, OPT_SET, OPT_DESTROY, OPT_LUA_MEMORY, OPT_MAX_STEPS,
	OPT_DRY_RUN,
	OPT_FORCE, OPT_ALLOW_EXEC, OPT_RESUME, OPT_PROBE_OPT, OPT_NOTE, OPT_STATUS_INTERVAL,
};

static const struct option run_opts[] = {
	{ "label", required_argument, NULL, OPT_LABEL },
	{ "target", required_argument, NULL, OPT_TARGET },
	{ "set", required_argument, NULL, OPT_SET },
	{ "destroy-data", required_argument, NULL, OPT_DESTROY },
	{ "lua-memory", required_argument, NULL, OPT_LUA_MEMORY },
	{ "max-steps", required_argument, NULL, OPT_MAX_STEPS },
	{ "dry-run", no_argument, NULL, OPT_DRY_RUN },
	{ "force", no_argument, NULL, OPT_FORCE },
	{ "allow-exec", no_argument, NULL, OPT_ALLOW_EXEC },	/* only here: a plan cannot set it */
	{ "resume", optional_argument, NULL, OPT_RESUME },	/* --resume [RUN] */
	{ "probe-opt", required_argument, NULL, OPT_PROBE_OPT },	/* only here: a tool's path */
	{ "note", required_argument, NULL, OPT_NOTE },
	{ "status-interval", required_argument, NULL, OPT_STATUS_INTERVAL },
	CLI_COMMON_OPTIONS
};

static int set_label(struct run_ctx *c, const char *label)
{
	size_t n = strlen(label), bad = utf8_invalid_at(label, n);

	c->label = label;
	if (bad < n) {
		cli_usage_error("run", "--label: byte %zu (0x%02x) is not UTF-8: a label is "
				"UTF-8 text", bad + 1, (unsigned char)label[bad]);
		return -1;
	}
	return cli_label_ok("run", label) ? 0 : -1;
}

/* --note TEXT, repeatable: UTF-8 text that is not blank */
static int add_note(struct run_ctx *c, const char *text)
{
	size_t n = strlen(text), bad = utf8_invalid_at(text, n);
	const char **p;

	if (!text[strspn(text, " \t\r\n")]) {
		cli_usage_error("run", "--note wants some text, not an empty one");
		return -1;
	}
	if (n > bad) {
		cli_usage_error("run", "--note: byte %zu (0x%02x) is not UTF-8: a note is UTF-8 "
				"text", bad + 1, (unsigned char)text[bad]);
		return -1;
	}
	p = realloc(c->notes, (c->nnotes + 1) * sizeof(*p));
	if (!p)
		return -1;
	c->notes = p;
	c->notes[c->nnotes++] = text;
	return 0;
}

/* --status-interval SECONDS: whole seconds, 0 for no status line */
static int set_status_interval(struct run_ctx *c, const char *v)
{
	char *end;
	unsigned long n;

	errno = 0;
	n = strtoul(v, &end, 10);
	if (errno || end == v || *end || !isdigit((unsigned char)*v) || n > 86400) {
		cli_usage_error("run", "--status-interval %s: expected whole seconds, 0 (no "
				"status line) to 86400", v);
		return -1;
	}
	c->status_given = true;
	c->status_interval = (unsigned)n;
	return 0;
}

/* --resume, and the RUN after it unless that is an option or the plan */
static void set_resume(struct run_ctx *c, struct cli_getopt *g)
{
	const char *next = cli_getopt_peek(g);

	c->resume = true;
	if (g->arg) {	/* --resume=RUN */
		c->resume_spec = g->arg;
	} else if (next && next[0] != '-' && !strstr(next, ".lua")) {
		c->resume_spec = next;
		cli_getopt_skip(g);
	}
}

/* One argument of run's: an option (code) with its value v, or the plan. */
static int parse_one(struct run_ctx *c, struct cli_getopt *g, int code)
{
	const char *v = g->arg, *eq;

	switch (code) {
	case CLI_ERROR:
		return -1;
	case CLI_ARG:
		if (v[0] != '-' && !c->po.path) {
			c->po.path = v;
			return 0;
		}
		break;
	case OPT_LABEL:
		return set_label(c, v);
	case OPT_TARGET:
		return add_target(c, v);
	case OPT_SET:
		eq = strchr(v, '=');
		if (!eq || eq == v) {
			cli_usage_error("run", "--set wants KEY=VALUE, not '%s'", v);
			return -1;
		}
		return add_set(c, v);
	case OPT_DESTROY:
		target_allow_destroy(v);
		return 0;
	case OPT_LUA_MEMORY:
		return parse_lua_memory(c, v);
	case OPT_MAX_STEPS:
		return parse_max_steps(c, v);
	case OPT_DRY_RUN:
	case OPT_FORCE:
		*(code == OPT_DRY_RUN ? &c->dry_only : &c->force) = true;
		return 0;
	case OPT_ALLOW_EXEC:
		c->po.allow_exec = true;
		return 0;
	case OPT_RESUME:
		set_resume(c, g);
		return 0;
	case OPT_PROBE_OPT:
		return cli_probe_opt("run", v) < 0 ? -1 : 0;
	case OPT_NOTE:
		return add_note(c, v);
	case OPT_STATUS_INTERVAL:
		return set_status_interval(c, v);
	}
	if (code == CLI_ARG && v[0] != '-')
		cli_usage_error("run", "unexpected argument '%s'", v);
	else
		cli_usage_error("run", "unknown option '%s'", g->opt);
	return -1;
}

static int parse_args(struct run_ctx *c, int argc, char **argv)
{
	struct cli_getopt g;
	int code;

	cli_getopt_init(&g, "run", argc, argv, run_opts);
	while ((code = cli_getopt_next(&g)) != CLI_END)
		if (parse_one(c, &g, code) < 0)
			return -1;
	if (c->resume && (c->po.ntargets || c->po.nsets || c->label)) {
		cli_usage_error("run", "--resume replays the run with its own targets, --set "
				"values and label; give none of them");
		return -1;
	}
	if (!c->po.path && !c->resume) {
		cli_usage_error("run", "no plan given");
		return -1;
	}
	return 0;
}

static int open_resume(struct run_ctx *c)
{
	char err[1024];

	if (db_open(&c->db, cli_db_path(), false, err, sizeof(err)) < 0 ||
	    resume_load(&c->db, c->resume_spec, c->po.path, c->force, &c->rs, err,
			sizeof(err)) < 0) {
		log_error("%s", err);
		return -1;
	}
	c->po.path = c->rs.plan_path;
	c->po.targets = c->rs.targets;
	c->po.ntargets = c->rs.ntargets;
	c->po.sets = c->rs.sets;
	c->po.nsets = c->rs.nsets;
	return 0;
}

int cmd_run(int argc, char **argv)
{
	struct run_ctx c = { 0 };
	struct plan_info info = { 0 };
	char err[2048], dur[96];
	int rc;

	if (parse_args(&c, argc, argv) < 0) {
		c.resume = false;
		runner_free(&c);
		return EXIT_USAGE;
	}
	c.db_path = cli_db_path();	/* after --db */
	if (c.resume && open_resume(&c) < 0) {
		runner_free(&c);
		return EXIT_FAILED;
	}
	plugins_load();
	if (probe_options_check(err, sizeof(err)) < 0) {
		cli_usage_error("run", "%s", err);
		runner_free(&c);
		return EXIT_USAGE;
	}
	guard_init(cli_db_path(), c.po.path);
	stop_catch_signals();	/* a signal in the dry pass stops it too, exit 130 */
	rc = runner_dry_pass(&c, &info, err, sizeof(err));
	if (rc) {
		if (hb_stop_requested)
			log_error("interrupted in the dry pass (signal): nothing was run or written");
		else
			log_error("%s", err);
		rc = hb_stop_requested ? EXIT_INTERRUPTED : info.usage ? EXIT_USAGE : EXIT_FAILED;
		plan_info_free(&info);
		runner_free(&c);
		return rc;
	}
	if (!c.nsteps) {	/* a run of nothing would read "done"; --dry-run says so too */
		log_error("plan '%s' has no step (hb.run, hb.sweep, hb.exec ...): nothing to run",
			  c.po.path);
		plan_info_free(&info);
		runner_free(&c);
		return EXIT_FAILED;
	}
	if (c.dry_only) {
		print_listing(&c, &info, stdout);
		plan_info_free(&info);
		runner_free(&c);
		return EXIT_DONE;
	}
	estimate_text(&c, dur, sizeof(dur));
	log_info("plan %s%s%s: %u step%s, about %s", c.po.path, info.name ? " - " : "",
		 info.name ? info.name : "", c.nsteps, c.nsteps == 1 ? "" : "s", dur);
	plan_info_free(&info);
	/* status lines for a log: a line a minute unless stderr is a terminal */
	progress_init(isatty(STDERR_FILENO), c.status_given ? c.status_interval :
		      isatty(STDERR_FILENO) ? 0 : PROGRESS_STATUS_DEFAULT);
	log_set_clear_hook(progress_clear);
	rc = runner_real_pass(&c, argc, argv);
	runner_free(&c);
	return rc;
}