/* Exporting a run: each table's columns as the database names them, in
 * table order, read from the schema itself (a column a migration adds is
 * exported too), with the internal ids replaced by what identifies a row
 * in any database: the run's uuid, the step's seq. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "store/export.h"
#include "base/strbuf.h"
#include "base/util.h"

/* t is the table, r its run, s its step (tables keyed by step); ?1 the run. */
static const struct export_table {
	const char *name;
	const char *from;
	const char *order;
} tables[] = {
	{ "runs", "runs t WHERE t.id = ?1", "t.id" },
	{ "targets", "targets t JOIN runs r ON r.id = t.run_id WHERE t.run_id = ?1", "t.id" },
	{ "steps", "steps t JOIN runs r ON r.id = t.run_id WHERE t.run_id = ?1", "t.seq" },
	{ "step_targets", "step_targets t JOIN steps s ON s.id = t.step_id "
	  "JOIN runs r ON r.id = s.run_id WHERE s.run_id = ?1", "s.seq, t.path" },
	{ "steady_state", "steady_state t JOIN runs r ON r.id = t.run_id WHERE t.run_id = ?1",
	  "t.id" },
	{ "samples", "samples t JOIN steps s ON s.id = t.step_id "
	  "JOIN runs r ON r.id = s.run_id WHERE s.run_id = ?1", "s.seq, t.t" },
	{ "histograms", "histograms t JOIN steps s ON s.id = t.step_id "
	  "JOIN runs r ON r.id = s.run_id WHERE s.run_id = ?1", "s.seq, t.dir" },
	{ "probes", "probes t JOIN runs r ON r.id = t.run_id WHERE t.run_id = ?1",
	  "t.phase, t.target, t.probe, t.key, t.rowid" },
	{ "events", "events t JOIN runs r ON r.id = t.run_id WHERE t.run_id = ?1", "t.at, t.id" },
	{ "telemetry", "telemetry t JOIN runs r ON r.id = t.run_id LEFT JOIN steps s "
	  "ON s.id = t.step_id WHERE t.run_id = ?1", "t.rowid" },
};

int db_export_table_index(const char *name)
{
	for (unsigned i = 0; i < ARRAY_SIZE(tables); i++)
		if (!strcmp(name, tables[i].name))
			return (int)i;
	return -EINVAL;
}

const char *db_export_table_names(void)
{
	return "runs, targets, steps, step_targets, steady_state, samples, histograms, "
	       "probes, events, telemetry";
}

/* One column of the SELECT: what the database column becomes. */
static void select_column(struct strbuf *b, const char *col)
{
	const char *sep = b->len ? ", " : "";

	if (!strcmp(col, "id") || !strcmp(col, "run_id"))
		return;
	if (!strcmp(col, "step_id"))
		sb_printf(b, "%ss.seq AS step_seq", sep);
	else if (!strcmp(col, "first_step_id") || !strcmp(col, "last_step_id"))
		sb_printf(b, "%s(SELECT seq FROM steps WHERE id = t.%s) AS %.*s_seq", sep, col,
			  (int)(strlen(col) - 3), col);
	else
		sb_printf(b, "%st.\"%s\" AS \"%s\"", sep, col, col);
}

/* The query of one table: its columns from PRAGMA table_info, in order. */
static char *table_sql(struct db *db, const struct export_table *t)
{
	struct strbuf b = { 0 };
	char *info = util_strdup_printf("PRAGMA table_info(\"%s\")", t->name);
	sqlite3_stmt *st = info ? db_prep(db, info) : NULL;
	char *cols, *sql = NULL;
	int rc = SQLITE_ERROR;

	free(info);
	if (strcmp(t->name, "runs"))
		sb_printf(&b, "r.uuid AS run_uuid");
	while (st && (rc = sqlite3_step(st)) == SQLITE_ROW)
		select_column(&b, (const char *)sqlite3_column_text(st, 1));
	sqlite3_finalize(st);
	cols = sb_take(&b);
	if (rc == SQLITE_DONE)
		sql = util_strdup_printf("SELECT %s FROM %s ORDER BY %s", cols, t->from,
					 t->order);
	else if (st)
		snprintf(db->err, sizeof(db->err), "%s", sqlite3_errmsg(db->h));
	free(cols);
	return sql;
}

static sqlite3_stmt *table_stmt(struct db *db, int64_t run_id, int table)
{
	char *sql = table_sql(db, &tables[table]);
	sqlite3_stmt *st = sql ? db_prep(db, sql) : NULL;

	free(sql);
	if (st)
		sqlite3_bind_int64(st, 1, run_id);
	return st;
}

int db_export_table(struct db *db, int64_t run_id, int table, enum rows_format fmt,
		    FILE *out)
{
	sqlite3_stmt *st = table_stmt(db, run_id, table);
	int64_t n;

	if (!st)
		return -EIO;
	n = db_rows_write(db, st, fmt, out);
	sqlite3_finalize(st);
	return n < 0 ? -EIO : 0;
}

int db_export_run_json(struct db *db, int64_t run_id, FILE *out)
{
	fprintf(out, "{\"format\": \"hbatest-export\", \"version\": %d, "
		"\"schema_version\": %d", EXPORT_FORMAT_VERSION, db_user_version(db));
	for (unsigned i = 0; i < ARRAY_SIZE(tables); i++) {
		sqlite3_stmt *st = table_stmt(db, run_id, (int)i);
		int64_t n;

		if (!st)
			return -EIO;
		fprintf(out, ",\n\"%s\": ", tables[i].name);
		n = db_rows_json_array(db, st, out);
		sqlite3_finalize(st);
		if (n < 0)
			return -EIO;
	}
	fputs("}\n", out);
	return 0;
}
