/* `hbatest list`: one line per run in the database. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "log.h"

int cmd_list(int argc, char **argv)
{
	struct db db;
	sqlite3_stmt *st;
	bool check = false;
	int n = 0, rc;

	if (cli_parse_common("list", argc, argv, NULL, 0, NULL, &check) < 0)
		return EXIT_USAGE;
	if (cli_open_ro(&db, check) < 0)
		return EXIT_FAILED;
	st = db_read_runs(&db);
	if (!st) {
		db_close(&db);
		return EXIT_FAILED;
	}
	printf("%4s  %-8s  %-24s  %-11s  %-20s  %-9s  %s\n", "id", "uuid", "label", "status",
	       "started (UTC)", "steps", "plan");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		char steps[32];

		snprintf(steps, sizeof(steps), "%d/%d", sqlite3_column_int(st, 9),
			 sqlite3_column_int(st, 10));
		printf("%4lld  %-8s  %-24.24s  %-11s  %-20.19s  %-9s  %s%s\n",
		       (long long)sqlite3_column_int64(st, 0), sqlite3_column_text(st, 1),
		       sqlite3_column_text(st, 2), db_run_state(st, 3, 4, 5),
		       sqlite3_column_text(st, 6), steps, sqlite3_column_text(st, 7),
		       sqlite3_column_int(st, 8) ? "  [simulated]" : "");
		n++;
	}
	rc = db_read_end(&db, st, rc);
	if (!n && !rc)
		printf("(no runs in %s)\n", db.path);
	db_close(&db);
	return rc ? EXIT_FAILED : EXIT_DONE;
}
