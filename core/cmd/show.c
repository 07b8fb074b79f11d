/* `hbatest show RUN`: a run, its targets, steps, steady states and warnings. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "store/rows.h"
#include "base/log.h"

static int show_run(struct db *db, int64_t id, char *state, size_t state_len)
{
	static const char *const labels[] = { "uuid", "label", "plan", "plan sha256", "host",
		"version", "command", "started", "finished" };
	sqlite3_stmt *st;
	int rc;

	st = db_read_run(db, id);
	if (!st)
		return -EIO;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		printf("run %lld%s\n", (long long)id,
		       sqlite3_column_int(st, 12) ? " [simulated]" : "");
		for (int i = 0; i < 9; i++) {	/* a tab or newline shown as \t, \n */
			printf("  %-12s ", labels[i]);
			rows_put_column(stdout, sqlite3_column_text(st, i)
					? (const char *)sqlite3_column_text(st, i) : "-", SIZE_MAX);
			putchar('\n');
		}
		snprintf(state, state_len, "%s", db_run_state(st, 9, 10, 11, 18));
		printf("  %-12s %s\n", "status", state);
		printf("  %-12s %d done, %d started", "steps", sqlite3_column_int(st, 15),
		       sqlite3_column_int(st, 16));
		if (sqlite3_column_type(st, 17) != SQLITE_NULL)	/* known since schema 5 */
			printf(", %d planned", sqlite3_column_int(st, 17));
		printf("\n");
		if (sqlite3_column_text(st, 13) && strcmp((const char *)sqlite3_column_text(st, 13),
							  "hbatest"))
			printf("  %-12s %s results from '%s'\n", "imported", sqlite3_column_text(st, 13),
			       sqlite3_column_text(st, 14));
	}
	if (db_read_end(db, st, rc))
		return -EIO;
	st = db_read_targets(db, id);
	if (!st)
		return -EIO;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (sqlite3_column_type(st, 2) == SQLITE_NULL)	/* imported: size unknown */
			printf("  %-12s %s (%s)\n", "target", sqlite3_column_text(st, 0),
			       sqlite3_column_text(st, 1));
		else
			printf("  %-12s %s (%s, %lld bytes)\n", "target", sqlite3_column_text(st, 0),
			       sqlite3_column_text(st, 1), (long long)sqlite3_column_int64(st, 2));
	}
	return db_read_end(db, st, rc);
}

/* a measured column, or '-' where the step has none (no I/O completed: a
 * step that failed or was stopped before its first second) */
static void print_measure(sqlite3_stmt *st, int col, int width, const char *fmt)
{
	if (sqlite3_column_type(st, col) == SQLITE_NULL)
		printf("  %*s", width, "-");
	else
		printf(fmt, width, sqlite3_column_double(st, col));
}

/* Step names are printed whole (a cut name can read as another step: "...
 * QD16" cut to "... QD1"): the column is as wide as the longest. A step left
 * 'running' by a run that is not (its process died, or its disk filled before
 * the step's end could be stored) shows the run's state, as list does. */
static int show_steps(struct db *db, int64_t id, const char *run_state)
{
	sqlite3_stmt *st;
	size_t wide = 30;
	int rc;

	st = db_read_steps(db, id);
	if (!st)
		return -EIO;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {	/* in terminal cells */
		size_t w = rows_column_width((const char *)sqlite3_column_text(st, 2));

		wide = w > wide ? w : wide;
	}
	if (rc != SQLITE_DONE)
		return db_read_end(db, st, rc);
	sqlite3_reset(st);
	printf("\n%4s  %-12s  %-*s  %-11s  %10s  %9s  %9s  %9s  %9s  %10s  %6s  %s\n", "step",
	       "kind", (int)wide, "name", "status", "IOPS", "MB/s", "MiB/s", "mean us", "p99 us",
	       "max us", "errors", "placement");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		bool exec = !strcmp((const char *)sqlite3_column_text(st, 1), "exec");
		const char *status = (const char *)sqlite3_column_text(st, 3);

		printf("%4d  %-12s  ", sqlite3_column_int(st, 0), sqlite3_column_text(st, 1));
		rows_put_column(stdout, (const char *)sqlite3_column_text(st, 2), wide);
		if (status && !strcmp(status, "running") && strcmp(run_state, "running"))
			status = run_state;
		printf("  %-11s", status ? status : "?");
		if (exec)	/* a command: no I/O of ours to count, its time instead */
			printf("  %10s", "-");
		else
			print_measure(st, 4, 10, "  %*.0f");
		for (int col = 5; col <= 8; col++)
			print_measure(st, col, 9, "  %*.1f");
		print_measure(st, 9, 10, "  %*.1f");
		printf("  %6lld  %s", (long long)sqlite3_column_int64(st, 10),
		       sqlite3_column_text(st, 12));
		if (exec && sqlite3_column_type(st, 14) != SQLITE_NULL)
			printf("%sran %.1f s, exit status %d", sqlite3_column_bytes(st, 12) ? "; " : "",
			       sqlite3_column_double(st, 14), sqlite3_column_int(st, 13));
		printf("\n");
	}
	return db_read_end(db, st, rc);
}

static int show_steady(struct db *db, int64_t id)
{
	sqlite3_stmt *st;
	int rc;

	st = db_read_steady(db, id);
	if (!st)
		return -EIO;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		printf("\nsteady state '%s': %s after %d rounds", sqlite3_column_text(st, 0),
		       sqlite3_column_int(st, 1) ? "attained" : "NOT attained",
		       sqlite3_column_int(st, 2));
		if (sqlite3_column_type(st, 3) != SQLITE_NULL)
			printf("; window rounds %d-%d, mean %s %.1f, data excursion %.1f%% (max "
			       "%.0f%%), slope excursion %.1f%% (max %.0f%%)",
			       sqlite3_column_int(st, 3), sqlite3_column_int(st, 4),
			       sqlite3_column_text(st, 10), sqlite3_column_double(st, 5),
			       sqlite3_column_double(st, 6), sqlite3_column_double(st, 8),
			       sqlite3_column_double(st, 7), sqlite3_column_double(st, 9));
		printf("\n");
	}
	return db_read_end(db, st, rc);
}

static int show_events(struct db *db, int64_t id)
{
	sqlite3_stmt *st;
	int rc;

	st = db_read_events(db, id);
	if (!st)
		return -EIO;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		printf("%s %s: %s\n", sqlite3_column_text(st, 0), sqlite3_column_text(st, 1),
		       sqlite3_column_text(st, 2));
	return db_read_end(db, st, rc);
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
