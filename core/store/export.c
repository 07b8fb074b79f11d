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

/* The runs exported: ?1, a JSON array of run ids, in the order given (one
 * run's rows together, the runs in that order; one run, the order as it was). */
#define IN_RUNS " IN (SELECT value FROM json_each(?1))"
#define RUN_ORDER(col) "(SELECT key FROM json_each(?1) WHERE value = " col "), "

/* t is the table, r its run, s its step (tables keyed by step). */
static const struct export_table {
	const char *name;
	const char *from;
	const char *order;
} tables[] = {
	{ "runs", "runs t WHERE t.id" IN_RUNS, RUN_ORDER("t.id") "t.id" },
	{ "targets", "targets t JOIN runs r ON r.id = t.run_id WHERE t.run_id" IN_RUNS,
	  RUN_ORDER("t.run_id") "t.id" },
	{ "steps", "steps t JOIN runs r ON r.id = t.run_id WHERE t.run_id" IN_RUNS,
	  RUN_ORDER("t.run_id") "t.seq" },
	{ "step_targets", "step_targets t JOIN steps s ON s.id = t.step_id "
	  "JOIN runs r ON r.id = s.run_id WHERE s.run_id" IN_RUNS,
	  RUN_ORDER("s.run_id") "s.seq, t.path" },
	{ "steady_state", "steady_state t JOIN runs r ON r.id = t.run_id WHERE t.run_id" IN_RUNS,
	  RUN_ORDER("t.run_id") "t.id" },
	{ "samples", "samples t JOIN steps s ON s.id = t.step_id "
	  "JOIN runs r ON r.id = s.run_id WHERE s.run_id" IN_RUNS,
	  RUN_ORDER("s.run_id") "s.seq, t.t" },
	{ "histograms", "histograms t JOIN steps s ON s.id = t.step_id "
	  "JOIN runs r ON r.id = s.run_id WHERE s.run_id" IN_RUNS,
	  RUN_ORDER("s.run_id") "s.seq, t.dir" },
	{ "probes", "probes t JOIN runs r ON r.id = t.run_id WHERE t.run_id" IN_RUNS,
	  RUN_ORDER("t.run_id") "t.phase, t.target, t.probe, t.key, t.rowid" },
	{ "events", "events t JOIN runs r ON r.id = t.run_id WHERE t.run_id" IN_RUNS,
	  RUN_ORDER("t.run_id") "t.at, t.id" },
	{ "telemetry", "telemetry t JOIN runs r ON r.id = t.run_id LEFT JOIN steps s "
	  "ON s.id = t.step_id WHERE t.run_id" IN_RUNS, RUN_ORDER("t.run_id") "t.rowid" },
	{ "resumes", "resumes t JOIN runs r ON r.id = t.run_id WHERE t.run_id" IN_RUNS,
	  RUN_ORDER("t.run_id") "t.at, t.rowid" },
};

/* A table of tables[]; NULL: not one. */
static const struct export_table *export_table_find(const char *name)
{
	for (unsigned i = 0; i < ARRAY_SIZE(tables); i++)
		if (!strcmp(name, tables[i].name))
			return &tables[i];
	return NULL;
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

/* The columns of a view that tie a row to its run (and order its rows). */
struct view_cols {
	bool run_id, step_id, id, uuid, run_uuid, seq, t, ord;
};

/* A view of the schema, by its columns; -ENOENT: no view of that name. */
static int view_cols(struct db *db, const char *name, struct view_cols *v)
{
	sqlite3_stmt *st = db_prep(db, "SELECT p.name FROM sqlite_master m, "
				   "pragma_table_info(m.name) p WHERE m.type = 'view' AND m.name = ?1");
	int n = 0;

	*v = (struct view_cols){ 0 };
	if (!st)
		return -EIO;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *c = (const char *)sqlite3_column_text(st, 0);

		n++;
		v->run_id |= !strcmp(c, "run_id");
		v->step_id |= !strcmp(c, "step_id");
		v->id |= !strcmp(c, "id");
		v->uuid |= !strcmp(c, "uuid");
		v->run_uuid |= !strcmp(c, "run_uuid");
		v->seq |= !strcmp(c, "seq");
		v->t |= !strcmp(c, "t");
		v->ord |= !strcmp(c, "ord");
	}
	sqlite3_finalize(st);
	return n ? 0 : -ENOENT;
}

/* The query of a view: its rows of the runs, each with its run's uuid
 * first (unless the view has it), a run's rows together; a view with
 * no way to its run (neither run_id, step_id nor a run's own id and
 * uuid): NULL, -ENOENT. */
static char *view_sql(const char *name, const struct view_cols *v)
{
	const char *join, *run, *order;

	if (v->run_id) {
		join = "JOIN runs r ON r.id = v.run_id";
		run = "v.run_id";
	} else if (v->step_id) {
		join = "JOIN steps s ON s.id = v.step_id JOIN runs r ON r.id = s.run_id";
		run = "s.run_id";
	} else if (v->id && v->uuid) {
		join = "JOIN runs r ON r.id = v.id";
		run = "v.id";
	} else {
		return NULL;
	}
	order = v->seq ? ", v.seq" : v->step_id ? (v->t ? ", v.step_id, v.t" : ", v.step_id") :
		v->ord ? ", v.ord" : "";
	return util_strdup_printf("SELECT %sv.* FROM \"%s\" v %s WHERE %s" IN_RUNS
				  " ORDER BY (SELECT key FROM json_each(?1) WHERE value = %s)%s",
				  v->run_uuid || v->uuid ? "" : "r.uuid AS run_uuid, ", name,
				  join, run, run, order);
}

/* ?1: the runs as a JSON array of their ids. */
static void bind_runs(sqlite3_stmt *st, const int64_t *runs, size_t n)
{
	struct strbuf b = { 0 };

	sb_printf(&b, "[");
	for (size_t i = 0; i < n; i++)
		sb_printf(&b, "%s%lld", i ? "," : "", (long long)runs[i]);
	sb_printf(&b, "]");
	sqlite3_bind_text(st, 1, b.s ? b.s : "[]", -1, SQLITE_TRANSIENT);
	sb_free(&b);
}

/* The statement of what (a table of tables[] or a view); NULL with
 * *err -ENOENT when what is neither, -EIO (db->err) when it failed. */
static sqlite3_stmt *what_stmt(struct db *db, const char *what, const int64_t *runs,
			       size_t n, int *err)
{
	const struct export_table *t = export_table_find(what);
	struct view_cols v;
	sqlite3_stmt *st;
	char *sql;

	*err = -EIO;
	if (t) {
		sql = table_sql(db, t);
	} else if ((*err = view_cols(db, what, &v)) < 0) {
		return NULL;
	} else if (!(sql = view_sql(what, &v))) {
		*err = -ENOENT;
		return NULL;
	}
	*err = -EIO;
	st = sql ? db_prep(db, sql) : NULL;
	free(sql);
	if (st)
		bind_runs(st, runs, n);
	return st;
}

bool db_export_has(struct db *db, const char *what)
{
	struct view_cols v;
	char *sql;

	if (export_table_find(what))
		return true;
	if (view_cols(db, what, &v) < 0 || !(sql = view_sql(what, &v)))
		return false;
	free(sql);
	return true;
}

char *db_export_names(struct db *db)
{
	sqlite3_stmt *st = db_prep(db, "SELECT name FROM sqlite_master WHERE type = 'view' "
				   "ORDER BY name");
	struct strbuf b = { 0 };

	for (unsigned i = 0; i < ARRAY_SIZE(tables); i++)
		sb_printf(&b, "%s%s", i ? ", " : "", tables[i].name);
	sb_printf(&b, "; or a view: ");
	for (bool first = true; st && sqlite3_step(st) == SQLITE_ROW;) {
		const char *name = (const char *)sqlite3_column_text(st, 0);

		if (db_export_has(db, name)) {
			sb_printf(&b, "%s%s", first ? "" : ", ", name);
			first = false;
		}
	}
	sqlite3_finalize(st);
	return sb_take(&b);
}

int db_export_rows(struct db *db, const int64_t *runs, size_t n, const char *what,
		   enum rows_format fmt, FILE *out)
{
	int err;
	sqlite3_stmt *st = what_stmt(db, what, runs, n, &err);
	int64_t rows;

	if (!st) {
		if (err == -ENOENT)
			snprintf(db->err, sizeof(db->err), "no table or view '%s' to export", what);
		return err;
	}
	rows = db_rows_write(db, st, fmt, out);
	sqlite3_finalize(st);
	return rows < 0 ? -EIO : 0;
}

int db_export_runs_json(struct db *db, const int64_t *runs, size_t n, FILE *out)
{
	fprintf(out, "{\"format\": \"hbatest-export\", \"version\": %d, "
		"\"schema_version\": %d", EXPORT_FORMAT_VERSION, db_user_version(db));
	for (unsigned i = 0; i < ARRAY_SIZE(tables); i++) {
		int err;
		sqlite3_stmt *st = what_stmt(db, tables[i].name, runs, n, &err);
		int64_t rows;

		if (!st)
			return -EIO;
		fprintf(out, ",\n\"%s\": ", tables[i].name);
		rows = db_rows_json_array(db, st, out);
		sqlite3_finalize(st);
		if (rows < 0)
			return -EIO;
	}
	fputs("}\n", out);
	return 0;
}
