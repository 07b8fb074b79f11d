/* `hbatest show RUN`: a run, its targets, steps, steady states and warnings. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "store/read.h"
#include "store/resume.h"
#include "store/rows.h"
#include "base/log.h"
#include "base/util.h"

/* The run's notes, a line each, in the order given */
static void show_notes(const char *notes)
{
	const char *line;
	size_t n;

	while (notes && util_note_line(&notes, &line, &n)) {
		char *one = strndup(line, n);

		printf("  %-12s ", "note");
		rows_put_column(stdout, one ? one : "?", SIZE_MAX);
		putchar('\n');
		free(one);
	}
}

/* A resume of the run in words, in the run's fields. */
static void show_resume(const char *line, void *arg)
{
	(void)arg;
	printf("  ");
	rows_put_column(stdout, line, SIZE_MAX);
	putchar('\n');
}

static int show_run(struct db *db, int64_t id, char *state, size_t state_len)
{
	struct db_run_info r;
	struct db_target_info t;
	struct db_cursor *c;

	c = db_read_run(db, id);
	if (!c)
		return -EIO;
	while (db_next_run_info(c, &r)) {
		const struct { const char *label, *value; } fields[] = {
			{ "uuid", r.uuid }, { "label", r.label }, { "plan", r.plan_path },
			{ "plan name", r.plan_name }, { "plan sha256", r.plan_sha256 },
			{ "host", r.host }, { "version", r.version }, { "commit", r.build_commit },
			{ "command", r.cmdline },
			{ "started", r.started_at }, { "finished", r.finished_at },
		};

		printf("run %lld%s\n", (long long)id, r.simulated ? " [simulated]" : "");
		/* a tab or newline shown as \t, \n */
		for (size_t i = 0; i < ARRAY_SIZE(fields); i++) {
			printf("  %-12s ", fields[i].label);
			rows_put_column(stdout, fields[i].value ? fields[i].value : "-", SIZE_MAX);
			putchar('\n');
		}
		show_notes(r.notes);
		snprintf(state, state_len, "%s", r.state);
		printf("  %-12s %s\n", "status", state);
		printf("  %-12s %d done, %d started", "steps", r.steps.done, r.steps.started);
		if (r.steps.planned_known)	/* since schema 5 */
			printf(", %d planned", r.steps.planned);
		printf("\n");
		if (r.source && strcmp(r.source, "hbatest"))
			printf("  %-12s %s results from '%s'\n", "imported", r.source, r.source_file);
	}
	if (db_read_end(c) || resume_history(db, id, show_resume, NULL) < 0)
		return -EIO;
	c = db_read_targets(db, id);
	if (!c)
		return -EIO;
	while (db_next_target(c, &t)) {
		if (!t.size_known)	/* imported: size unknown */
			printf("  %-12s %s (%s)\n", "target", t.path, t.kind);
		else
			printf("  %-12s %s (%s, %lld bytes)\n", "target", t.path, t.kind,
			       (long long)t.size_bytes);
	}
	return db_read_end(c);
}

/* a measured value, or '-' where the step has none (no I/O completed: a
 * step that failed or was stopped before its first second) */
static void print_measure(double v, int width, const char *fmt)
{
	if (isnan(v))
		printf("  %*s", width, "-");
	else
		printf(fmt, width, v);
}

static void print_step(const struct db_step_info *s, size_t wide, const char *run_state)
{
	bool exec = !strcmp(s->kind, "exec");
	const char *status = s->status;

	printf("%4d  %-12s  ", s->seq, s->kind);
	rows_put_column(stdout, s->name, wide);
	if (status && !strcmp(status, "running") && strcmp(run_state, "running"))
		status = run_state;
	printf("  %-11s", status ? status : "?");
	if (exec)	/* a command: no I/O of ours to count, its time instead */
		printf("  %10s", "-");
	else
		print_measure(s->iops, 10, "  %*.0f");
	print_measure(s->mbps, 9, "  %*.1f");
	print_measure(s->mibps, 9, "  %*.1f");
	print_measure(s->lat_mean_us, 9, "  %*.1f");
	print_measure(s->lat_p99_us, 9, "  %*.1f");
	print_measure(s->lat_max_us, 10, "  %*.1f");
	printf("  %6lld  %s", (long long)s->errors, s->placement);
	if (exec && !isnan(s->elapsed_s))
		printf("%sran %.1f s, exit status %d", *s->placement ? "; " : "", s->elapsed_s,
		       s->exit_status);
	if (s->host_bound == 1) {	/* docs/measurement.md, "Host CPU" */
		printf("%shost-bound:", *s->placement || exec ? "; " : "");
		if (!isnan(s->cpu_busy))
			printf(" worker CPU %.0f%%", floor(s->cpu_busy * 100));
		if (!isnan(s->host_busy))
			printf("%s host CPUs %.0f%% busy", isnan(s->cpu_busy) ? "" : ",",
			       floor(s->host_busy * 100));
	}
	printf("\n");
}

/* Step names are printed whole (a cut name can read as another step: "...
 * QD16" cut to "... QD1"): the column is as wide as the longest. A step left
 * 'running' by a run that is not (its process died, or its disk filled before
 * the step's end could be stored) shows the run's state, as list does. */
static int show_steps(struct db *db, int64_t id, const char *run_state)
{
	struct db_step_info s;
	struct db_cursor *c;
	size_t wide = 30;

	c = db_read_steps(db, id);
	if (!c)
		return -EIO;
	while (db_next_step(c, &s)) {	/* in terminal cells */
		size_t w = rows_column_width(s.name);

		wide = w > wide ? w : wide;
	}
	if (db_read_rewind(c) < 0)
		return db_read_end(c);
	printf("\n%4s  %-12s  %-*s  %-11s  %10s  %9s  %9s  %9s  %9s  %10s  %6s  %s\n", "step",
	       "kind", (int)wide, "name", "status", "IOPS", "MB/s", "MiB/s", "mean us", "p99 us",
	       "max us", "errors", "placement");
	while (db_next_step(c, &s))
		print_step(&s, wide, run_state);
	return db_read_end(c);
}

static int show_steady(struct db *db, int64_t id)
{
	struct db_steady_info s;
	struct db_cursor *c;

	c = db_read_steady(db, id);
	if (!c)
		return -EIO;
	while (db_next_steady(c, &s)) {
		printf("\nsteady state '%s': %s after %d rounds", s.name,
		       s.attained ? "attained" : "NOT attained", s.rounds);
		if (s.has_window)
			printf("; window rounds %d-%d, mean %s %.1f, data excursion %.1f%% (max "
			       "%.0f%%), slope excursion %.1f%% (max %.0f%%)",
			       s.window_first, s.window_last, s.track, s.mean, s.data_excursion,
			       s.max_data_excursion, s.slope_excursion, s.max_slope_excursion);
		printf("\n");
	}
	return db_read_end(c);
}

static int show_events(struct db *db, int64_t id)
{
	struct db_event_info e;
	struct db_cursor *c;

	c = db_read_events(db, id);
	if (!c)
		return -EIO;
	while (db_next_event(c, &e))
		printf("%s %s: %s\n", e.at, e.level, e.message);
	return db_read_end(c);
}

int cmd_show(int argc, char **argv)
{
	const char *spec;
	struct db db;
	bool check = false;
	char err[512], state[32] = "?";
	int64_t id;
	int rc;

	if (cli_parse_common("show", argc, argv, &spec, 1, NULL, &check) < 0)
		return EXIT_USAGE;
	if (cli_open_ro(&db, check) < 0)
		return EXIT_FAILED;
	id = db_find_run(&db, spec, err, sizeof(err));
	if (id < 0) {
		log_error("%s", err);
		db_close(&db);
		return EXIT_FAILED;
	}
	rc = show_run(&db, id, state, sizeof(state));
	if (!rc)
		rc = show_steps(&db, id, state);
	if (!rc)
		rc = show_steady(&db, id);
	if (!rc) {
		printf("\n");
		rc = show_events(&db, id);
	}
	db_close(&db);
	return rc ? EXIT_FAILED : EXIT_DONE;
}
