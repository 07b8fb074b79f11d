/* `hbatest list`: one line per run in the database, its first note at its end. */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "store/read.h"
#include "store/rows.h"
#include "base/log.h"
#include "base/util.h"

/* "done/planned": 6/96 for a run stopped at step 7 of 96. Planned is what
 * the dry pass counted, or the steps started when more were (a plan that
 * branches on results), or when it is not known (a run made before schema
 * 5): then "done/started", as before. */
static void steps_text(const struct db_step_counts *n, char *buf, size_t len)
{
	int planned = n->planned;

	if (!n->planned_known || planned < n->started)
		planned = n->started;
	snprintf(buf, len, "%d/%d", n->done, planned);
}

/* s in at most cells terminal cells, "..." ending it when cut. */
static void put_cut(const char *s, size_t cells)
{
	if (rows_column_width(s) > cells) {
		rows_put_column(stdout, s, cells - 3);
		fputs("...", stdout);
	} else {
		rows_put_column(stdout, s, SIZE_MAX);
	}
}

/* The label column: as wide as the widest label, 5 to LABEL_CELLS cells; a
 * longer label is cut in its middle, "..." in place of what is left out, so
 * that labels alike but for their ends ("... run 2", "... run 3") stay
 * apart. */
#define LABEL_CELLS 40
static void put_label(const char *s, size_t cells)
{
	size_t head = (cells - 3) / 2;

	if (rows_column_width(s) <= cells) {
		rows_put_column(stdout, s, cells);
		return;
	}
	head = rows_put_head(stdout, s, head);
	fputs("...", stdout);
	rows_put_tail(stdout, s, cells - 3 - head);
}

/* After a run's plan: its first note line, cut to NOTE_CELLS terminal
 * cells ("..." when cut), and "(+N)" for the lines after it. */
#define NOTE_CELLS 40
static void put_note(const char *notes)
{
	const char *line, *rest = notes;
	size_t n, more = 0, ignored;
	char first[512];

	if (!notes || !util_note_line(&rest, &line, &n))
		return;
	for (const char *l; util_note_line(&rest, &l, &ignored);)
		more++;
	snprintf(first, sizeof(first), "%.*s", (int)n, line);
	fputs("  note: ", stdout);
	put_cut(first, NOTE_CELLS);
	if (more)
		printf(" (+%zu)", more);
}

/* The steps column: as wide as its widest value ("1234/1234"), at least 9;
 * *label: the label column's cells (put_label). */
static int steps_width(struct db_cursor *c, size_t *label)
{
	struct db_run_line r;
	char steps[32];
	int wide = 9;

	*label = 5;
	while (db_next_run_line(c, &r)) {
		size_t w = rows_column_width(r.label);

		steps_text(&r.steps, steps, sizeof(steps));
		if ((int)strlen(steps) > wide)
			wide = (int)strlen(steps);
		if (w > *label)
			*label = w < LABEL_CELLS ? w : LABEL_CELLS;
	}
	return wide;
}

int cmd_list(int argc, char **argv)
{
	struct db db;
	struct db_cursor *c;
	struct db_run_line r;
	bool check = false;
	int n = 0, rc, wide;
	size_t label;

	if (cli_parse_common("list", argc, argv, NULL, 0, NULL, &check) < 0)
		return EXIT_USAGE;
	if (cli_open_ro(&db, check) < 0)
		return EXIT_FAILED;
	c = db_read_runs(&db);
	if (!c) {
		db_close(&db);
		return EXIT_FAILED;
	}
	wide = steps_width(c, &label);
	if (db_read_rewind(c) < 0) {
		db_read_end(c);
		db_close(&db);
		return EXIT_FAILED;
	}
	printf("%4s  %-8s  %-*s  %-11s  %-20s  %-*s  %s\n", "id", "uuid", (int)label, "label",
	       "status", "started (UTC)", wide, "steps", "plan");
	while (db_next_run_line(c, &r)) {
		char steps[32];

		steps_text(&r.steps, steps, sizeof(steps));
		printf("%4lld  %-8s  ", (long long)r.id, r.uuid8);
		put_label(r.label, label);
		printf("  %-11s  %-20.19s  %-*s  ", r.state, r.started_at, wide, steps);
		rows_put_column(stdout, r.plan_path, SIZE_MAX);
		fputs(r.simulated ? "  [simulated]" : "", stdout);
		put_note(r.notes);
		putchar('\n');
		n++;
	}
	rc = db_read_end(c);
	if (!n && !rc)
		printf("(no runs in %s)\n", db.path);
	db_close(&db);
	return rc ? EXIT_FAILED : EXIT_DONE;
}
