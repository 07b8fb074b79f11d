/* `hbatest run`: its options, the listing of --dry-run, and the two passes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "measure/guard.h"
#include "base/log.h"
#include "measure/loader.h"
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

static void print_listing(struct run_ctx *c, const struct plan_info *info, FILE *out)
{
	char dur[96];

	fprintf(out, "plan %s%s%s: %u step%s\n", c->po.path, info->name ? " - " : "",
		info->name ? info->name : "", c->nsteps, c->nsteps == 1 ? "" : "s");
	for (unsigned i = 0; i < c->nsteps; i++) {
		const struct step_spec *s = &c->steps[i];
		char bs[256];

		util_format_duration(s->estimate, dur, sizeof(dur));
		fprintf(out, "%4u  %-12s %-32s %s%-9s ", i + 1, step_kind_name(s->kind),
			s->name, s->wl.passes ? "~" : "", dur);
		if (s->kind == STEP_EXEC) {
			fprintf(out, "cmd=%s  line %d%s\n", s->cmd, s->line,
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
		fprintf(out, "engine=%s targets=%u  line %d\n", s->engine->desc->name,
			s->wl.ntargets, s->line);
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

static int parse_args(struct run_ctx *c, int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int used = cli_common_opt(argc, argv, i);

		if (used < 0)
			return -1;
		if (used) {
			i += used - 1;
			continue;
		}
		if (!strcmp(a, "--dry-run") || !strcmp(a, "--force")) {
			*(a[2] == 'd' ? &c->dry_only : &c->force) = true;
			continue;
		}
		if (!strcmp(a, "--allow-exec")) {	/* only here: a plan cannot set it */
			c->po.allow_exec = true;
			continue;
		}
		if (!strcmp(a, "--resume")) {	/* an optional RUN follows */
			c->resume = true;
			if (i + 1 < argc && argv[i + 1][0] != '-' && !strstr(argv[i + 1], ".lua"))
				c->resume_spec = argv[++i];
			continue;
		}
		if (a[0] != '-' && !c->po.path) {
			c->po.path = a;
			continue;
		}
		if (a[0] != '-') {
			cli_usage_error("run", "unexpected argument '%s'", a);
			return -1;
		}
		if (strcmp(a, "--label") && strcmp(a, "--target") && strcmp(a, "--set") &&
		    strcmp(a, "--destroy-data") && strcmp(a, "--lua-memory")) {
			cli_usage_error("run", "unknown option '%s'", a);
			return -1;
		}
		if (!cli_has_value(argc, i)) {
			cli_usage_error("run", "option '%s' needs a value", a);
			return -1;
		}
		if (!strcmp(a, "--label")) {
			c->label = argv[++i];
			size_t n = strlen(c->label), bad = utf8_invalid_at(c->label, n);

			if (bad < n) {
				cli_usage_error("run", "--label: byte %zu (0x%02x) is not UTF-8: a "
						"label is UTF-8 text", bad + 1,
						(unsigned char)c->label[bad]);
				return -1;
			}
		} else if (!strcmp(a, "--target")) {
			if (add_target(c, argv[++i]) < 0)
				return -1;
		} else if (!strcmp(a, "--set")) {
			const char *kv = argv[++i], *eq = strchr(kv, '=');

			if (!eq || eq == kv) {
				cli_usage_error("run", "--set wants KEY=VALUE, not '%s'", kv);
				return -1;
			}
			if (add_set(c, kv) < 0)
				return -1;
		} else if (!strcmp(a, "--lua-memory")) {
			if (parse_lua_memory(c, argv[++i]) < 0)
				return -1;
		} else {
			target_allow_destroy(argv[++i]);
		}
	}
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
	progress_init(isatty(STDERR_FILENO));
	log_set_clear_hook(progress_clear);
	rc = runner_real_pass(&c, argc, argv);
	runner_free(&c);
	return rc;
}