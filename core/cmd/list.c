/* `hbatest list`: one line per run in the database. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "store/rows.h"
#include "base/log.h"

/* "done/planned": 6/96 for a run stopped at step 7 of 96. Planned is what
 * the dry pass counted, or the steps started when more were (a plan that
 * branches on results), or when it is not known (a run made before schema
 * 5): then "done/started", as before. */
static void steps_text(sqlite3_stmt *st, char *buf, size_t len)
{
	int done = sqlite3_column_int(st, 9), started = sqlite3_column_int(st, 10);
	int planned = sqlite3_column_int(st, 11);

	if (sqlite3_column_type(st, 11) == SQLITE_NULL || planned < started)
		planned = started;
	snprintf(buf, len, "%d/%d", done, planned);
}

/* The steps column: as wide as its widest value ("1234/1234"), at least 9. */
static int steps_width(sqlite3_stmt *st, int *rc)
{
	char steps[32];
	int wide = 9;

	while ((*rc = sqlite3_step(st)) == SQLITE_ROW) {
		steps_text(st, steps, sizeof(steps));
		if ((int)strlen(steps) > wide)
			wide = (int)strlen(steps);
	}
	sqlite3_reset(st);
	return wide;
}

int cmd_list(int argc, char **argv)
{
	struct db db;
	sqlite3_stmt *st;
	bool check = false;
	int n = 0, rc, wide;

	if (cli_parse_common("list", argc, argv, NULL, 0, NULL, &check) < 0)
		return EXIT_USAGE;
	if (cli_open_ro(&db, check) < 0)
		return EXIT_FAILED;
	st = db_read_runs(&db);
	if (!st) {
		db_close(&db);
		return EXIT_FAILED;
	}
	wide = steps_width(st, &rc);
	if (rc != SQLITE_DONE) {
		db_read_end(&db, st, rc);
		db_close(&db);
		return EXIT_FAILED;
	}
	printf("%4s  %-8s  %-24s  %-11s  %-20s  %-*s  %s\n", "id", "uuid", "label", "status",
	       "started (UTC)", wide, "steps", "plan");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		char steps[32];

		steps_text(st, steps, sizeof(steps));
		printf("%4lld  %-8s  ", (long long)sqlite3_column_int64(st, 0),
		       sqlite3_column_text(st, 1));
		rows_put_column(stdout, (const char *)sqlite3_column_text(st, 2), 24);
		printf("  %-11s  %-20.19s  %-*s  ", db_run_state(st, 3, 4, 5, 12),
		       sqlite3_column_text(st, 6), wide, steps);
		rows_put_column(stdout, (const char *)sqlite3_column_text(st, 7), SIZE_MAX);
		printf("%s\n", sqlite3_column_int(st, 8) ? "  [simulated]" : "");
		n++;
	}
	rc = db_read_end(&db, st, rc);
	if (!n && !rc)
		printf("(no runs in %s)\n", db.path);
	db_close(&db);
	return rc ? EXIT_FAILED : EXIT_DONE;
}
