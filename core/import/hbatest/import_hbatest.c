/* Importing hbatest's own JSON export (`hbatest export RUN --format json`):
 * {"format": "hbatest-export", "version": 1, "schema_version": N, "runs": [...],
 * "targets": [...], ...}, every row keyed by its column names; rows are
 * inserted as they are (uuid, status, times), ids remapped through run_uuid
 * and step_seq. A run whose uuid the database holds is refused. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/import.h"
#include "store/write.h"
#include "import/hbatest/hbatest.h"
#include "import/hbatest/import_hbatest.h"
#include "base/jsonpos.h"
#include "base/strbuf.h"
#include "base/util.h"

#define HB_MAX_COLS 64

/* The export's tables in insertion order (parents first). */
static const char *const hb_tables[] = { "runs", "targets", "steps", "step_targets",
					 "steady_state", "samples", "histograms", "probes",
					 "events", "telemetry", "resumes" };

struct hb_run {
	char uuid[64];
	int64_t id;
};

struct hbi {
	struct imp *im;
	const char *json;
	size_t jlen;
	struct hb_run *runs;
	unsigned nruns;
};

static int hb_fault(struct hbi *h, const char *path, const char *fmt, const char *a,
		    const char *b)
{
	unsigned line, col;

	jsonpos_linecol(h->im->text, jsonpos_find(h->json, h->jlen, path), &line, &col);
	return imp_error(h->im, line, col, fmt, a, b);
}

/* The columns an export row carries: the table's, without the ids the
 * import assigns (id, run_id, step_id, first_step_id, last_step_id). */
static int hb_columns(struct hbi *h, const char *table, struct db_json_col *c, unsigned *n)
{
	char sql[128];
	sqlite3_stmt *st;

	snprintf(sql, sizeof(sql), "SELECT name, type, \"notnull\", dflt_value FROM "
		 "pragma_table_info('%s')", table);
	st = db_prep(h->im->db, sql);
	if (!st)
		return imp_db_error(h->im);
	*n = 0;
	while (sqlite3_step(st) == SQLITE_ROW && *n < HB_MAX_COLS) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		const char *type = (const char *)sqlite3_column_text(st, 1);

		if (!strcmp(name, "id") || !strcmp(name, "run_id") || !strcmp(name, "step_id") ||
		    !strcmp(name, "first_step_id") || !strcmp(name, "last_step_id"))
			continue;
		snprintf(c[*n].name, sizeof(c[*n].name), "%s", name);
		c[*n].type = !strcmp(type, "INTEGER") ? 'i' : !strcmp(type, "REAL") ? 'r' : 't';
		/* declared INTEGER before version 5, a part of a second since */
		if (!strcmp(table, "steps") && !strcmp(name, "window_s"))
			c[*n].type = 'r';
		c[*n].required = sqlite3_column_int(st, 2) &&
				 sqlite3_column_type(st, 3) == SQLITE_NULL;
		snprintf(c[*n].dflt, sizeof(c[*n].dflt), "%s",
			 sqlite3_column_type(st, 3) == SQLITE_NULL ? "" :
			 (const char *)sqlite3_column_text(st, 3));
		(*n)++;
	}
	sqlite3_finalize(st);
	return 0;
}

/* The keys a row may hold besides its columns. */
static bool hb_link_key(const char *table, const char *key)
{
	if (!strcmp(table, "runs"))
		return false;
	if (!strcmp(key, "run_uuid"))
		return true;
	if (!strcmp(table, "steady_state"))
		return !strcmp(key, "first_step_seq") || !strcmp(key, "last_step_seq");
	return !strcmp(key, "step_seq") && (!strcmp(table, "samples") ||
					    !strcmp(table, "step_targets") ||
					    !strcmp(table, "histograms") ||
					    !strcmp(table, "telemetry"));
}

static bool hb_type_ok(char want, const char *type, bool required)
{
	if (!strcmp(type, "null"))
		return !required;
	if (want == 'i')
		return !strcmp(type, "integer");
	if (want == 'r')
		return !strcmp(type, "integer") || !strcmp(type, "real");
	return !strcmp(type, "text");
}

/* The tables whose every number is a count, a rate, a time, a latency, a
 * share or a size, never below 0 (a step's, a second's, a target's). */
static bool hb_counted_table(const char *table)
{
	static const char *const counted[] = { "steps", "samples", "step_targets", "targets" };

	for (size_t k = 0; k < ARRAY_SIZE(counted); k++)
		if (!strcmp(table, counted[k]))
			return true;
	return false;
}

/* A number the database can hold as its column does: a real that is
 * finite (1e999 is how an export writes infinity: a report cannot draw it),
 * an integer within 64 bits (one past them reads as a real), not below 0
 * in a counted table. NULL, or what the value is instead. */
static const char *hb_number_fault(const char *table, char want, const char *type,
				   sqlite3_value *v)
{
	bool number = !strcmp(type, "real") || !strcmp(type, "integer");

	if (!strcmp(type, "real") && !isfinite(sqlite3_value_double(v)))
		return "not a finite number (an export's infinity), which no report can draw";
	if (want == 'i' && !strcmp(type, "integer") && sqlite3_value_type(v) != SQLITE_INTEGER)
		return "past a 64-bit integer";
	if (number && want != 't' && hb_counted_table(table) && sqlite3_value_double(v) < 0)
		return "below 0 (a count, rate, time, size or share is never negative)";
	return NULL;
}

/* The number at path as the file writes it ("1e999"), for a message. */
static void hb_literal(struct hbi *h, const char *path, char *buf, size_t len)
{
	const char *s = h->json + jsonpos_find(h->json, h->jlen, path);

	snprintf(buf, len, "%.*s", (int)strspn(s, "-+.0123456789eE"), s);
}

/* Every key of row i known and of its column's type; required ones there. */
static int hb_check_row(struct hbi *h, const char *table, int64_t i, const char *row,
			const struct db_json_col *c, unsigned n)
{
	sqlite3_stmt *st = db_prep(h->im->db, "SELECT key, type, atom FROM json_each(?1)");
	bool seen[HB_MAX_COLS] = { false };
	char path[256], what[256];
	int rc = 0;

	if (!st)
		return imp_db_error(h->im);
	sqlite3_bind_text(st, 1, row, -1, SQLITE_STATIC);
	while (!rc && sqlite3_step(st) == SQLITE_ROW) {
		const char *key = (const char *)sqlite3_column_text(st, 0);
		const char *type = (const char *)sqlite3_column_text(st, 1);
		const char *bad = NULL;
		unsigned k;

		for (k = 0; k < n && strcmp(c[k].name, key); k++)
			;
		snprintf(path, sizeof(path), "$.%s[%lld].\"%s\"", table, (long long)i, key);
		if (k < n)
			bad = hb_number_fault(table, c[k].type, type, sqlite3_column_value(st, 2));
		if (k == n && !hb_link_key(table, key)) {
			rc = hb_fault(h, path, "%s: unknown column '%s'", table, key);
		} else if (k < n && !hb_type_ok(c[k].type, type, c[k].required)) {
			snprintf(what, sizeof(what), "'%.64s' has the wrong type (%s; the column "
				 "holds %s)", key, type, c[k].type == 'i' ? "integers" :
				 c[k].type == 'r' ? "numbers" : "text");
			rc = hb_fault(h, path, "%s: %s", table, what);
		} else if (bad) {
			char lit[48];

			hb_literal(h, path, lit, sizeof(lit));
			snprintf(what, sizeof(what), "'%.64s' is %s, %s", key, lit, bad);
			rc = hb_fault(h, path, "%s: %s", table, what);
		} else if (k < n) {
			seen[k] = true;
		}
	}
	sqlite3_finalize(st);
	for (unsigned k = 0; !rc && k < n; k++) {
		if (c[k].required && !seen[k]) {
			snprintf(path, sizeof(path), "$.%s[%lld]", table, (long long)i);
			rc = hb_fault(h, path, "%s: missing '%s'", table, c[k].name);
		}
	}
	return rc;
}

/* INSERT of one row bound as ?1; ?2 the run id, ?3 and ?4 the step ids. */
static sqlite3_stmt *hb_insert(struct hbi *h, const char *table, const struct db_json_col *c,
			       unsigned n)
{
	sqlite3_stmt *st = db_json_row_insert(h->im->db, table, c, n);

	if (!st)
		imp_db_error(h->im);
	return st;
}

static int64_t hb_run_of(struct hbi *h, const char *table, int64_t i, const char *row)
{
	sqlite3_stmt *st = db_prep(h->im->db, "SELECT json_extract(?1, '$.run_uuid')");
	char path[128], uuid[64] = "";

	if (!st)
		return imp_db_error(h->im);
	sqlite3_bind_text(st, 1, row, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		snprintf(uuid, sizeof(uuid), "%s", sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	for (unsigned k = 0; k < h->nruns; k++)
		if (!strcmp(h->runs[k].uuid, uuid))
			return h->runs[k].id;
	snprintf(path, sizeof(path), "$.%s[%lld].run_uuid", table, (long long)i);
	return hb_fault(h, path, "run_uuid '%s' is not one of the file's runs (%s)", uuid, table);
}

/* The id of the step of run_id whose seq the row's key holds; 0: null. */
static int64_t hb_step_of(struct hbi *h, const char *table, int64_t i, const char *row,
			  int64_t run_id, const char *key)
{
	sqlite3_stmt *st = db_prep(h->im->db, "SELECT json_type(?1, ?2), (SELECT id FROM steps "
				   "WHERE run_id = ?3 AND seq = json_extract(?1, ?2))");
	char path[128], jp[64];
	int64_t id = -1;
	bool null = false;

	if (!st)
		return imp_db_error(h->im);
	snprintf(jp, sizeof(jp), "$.%s", key);
	sqlite3_bind_text(st, 1, row, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, jp, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, run_id);
	if (sqlite3_step(st) == SQLITE_ROW) {
		null = sqlite3_column_type(st, 0) == SQLITE_NULL ||
		       !strcmp((const char *)sqlite3_column_text(st, 0), "null");
		if (sqlite3_column_type(st, 1) != SQLITE_NULL)
			id = sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	/* telemetry's step_seq is null between steps */
	if (id > 0 || (null && (strcmp(key, "step_seq") || !strcmp(table, "telemetry"))))
		return id > 0 ? id : 0;
	snprintf(path, sizeof(path), "$.%s[%lld].%s", table, (long long)i, key);
	return hb_fault(h, path, "%s: %s names no step of its run", table, key);
}

/* A run: refused when its uuid is in the database already. */
static int hb_run_row(struct hbi *h, int64_t i, const char *row, sqlite3_stmt *ins)
{
	sqlite3_stmt *st = db_prep(h->im->db, "SELECT r.id, r.label, json_extract(?1, '$.uuid') "
				   "FROM (SELECT 1) LEFT JOIN runs r ON r.uuid = json_extract(?1, '$.uuid')");
	char path[64], uuid[64] = "", msg[512] = "";
	struct hb_run *p;

	if (!st)
		return imp_db_error(h->im);
	sqlite3_bind_text(st, 1, row, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW) {
		snprintf(uuid, sizeof(uuid), "%s", sqlite3_column_text(st, 2));
		if (sqlite3_column_type(st, 0) != SQLITE_NULL)
			snprintf(msg, sizeof(msg), "%lld '%s'", (long long)sqlite3_column_int64(st, 0),
				 sqlite3_column_text(st, 1) ? (const char *)sqlite3_column_text(st, 1) : "");
	}
	sqlite3_finalize(st);
	snprintf(path, sizeof(path), "$.runs[%lld].uuid", (long long)i);
	for (unsigned k = 0; k < h->nruns; k++) {
		char first[64];
		unsigned line, col;

		if (strcmp(h->runs[k].uuid, uuid))
			continue;
		snprintf(first, sizeof(first), "$.runs[%u].uuid", k);
		jsonpos_linecol(h->im->text, jsonpos_find(h->json, h->jlen, first), &line, &col);
		snprintf(msg, sizeof(msg), "runs[%u], line %u", k, line);
		return hb_fault(h, path, "run %s is in the file twice (as %s): the same run "
				"twice", uuid, msg);
	}
	if (msg[0])
		return hb_fault(h, path, "run %s is in the database already, as run %s", uuid, msg);
	sqlite3_bind_text(ins, 1, row, -1, SQLITE_STATIC);
	if (sqlite3_step(ins) != SQLITE_DONE)
		return hb_fault(h, path, "run %s: %s", uuid, sqlite3_errmsg(h->im->db->h));
	p = realloc(h->runs, (h->nruns + 1) * sizeof(*p));
	if (!p)
		return -ENOMEM;
	h->runs = p;
	snprintf(p[h->nruns].uuid, sizeof(p[h->nruns].uuid), "%s", uuid);
	p[h->nruns++].id = sqlite3_last_insert_rowid(h->im->db->h);
	if (!h->im->nruns++)
		h->im->first_run = p[h->nruns - 1].id;
	return 0;
}

/* A sweep's step: its axis_value is what reports place it by, a whole
 * number for the axes that count (oio, workers, write_pct as the runner
 * writes them), text for bs and rw; a step with an axis has one. */
static int hb_check_axis(struct hbi *h, int64_t i, const char *row)
{
	static const struct { const char *axis; long lo, hi; } counted[] = {
		{ "oio", 1, INT_MAX }, { "workers", 1, INT_MAX }, { "write_pct", 0, 100 },
	};
	sqlite3_stmt *st = db_prep(h->im->db, "SELECT json_extract(?1, '$.axis'), "
				   "json_extract(?1, '$.axis_value')");
	char path[64], axis[64] = "", value[64] = "", what[256] = "";
	bool has_value = false;

	if (!st)
		return imp_db_error(h->im);
	sqlite3_bind_text(st, 1, row, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW) {
		if (sqlite3_column_text(st, 0))
			snprintf(axis, sizeof(axis), "%s", sqlite3_column_text(st, 0));
		has_value = sqlite3_column_text(st, 1) != NULL;
		if (has_value)
			snprintf(value, sizeof(value), "%s", sqlite3_column_text(st, 1));
	}
	sqlite3_finalize(st);
	if (!axis[0])
		return 0;
	if (!has_value)
		snprintf(what, sizeof(what), "axis '%s' without its axis_value", axis);
	for (size_t k = 0; !what[0] && k < ARRAY_SIZE(counted); k++) {
		char *end;
		long v;

		if (strcmp(axis, counted[k].axis))
			continue;
		errno = 0;
		v = strtol(value, &end, 10);
		if (!isdigit((unsigned char)value[0]) || *end || errno || v < counted[k].lo ||
		    v > counted[k].hi)
			snprintf(what, sizeof(what), "axis_value '%s' of axis '%s' is not a whole "
				 "number from %ld to %ld", value, axis, counted[k].lo, counted[k].hi);
	}
	if (!what[0])
		return 0;
	snprintf(path, sizeof(path), "$.steps[%lld].axis%s", (long long)i, has_value ? "_value" : "");
	return hb_fault(h, path, "%s: %s", "steps", what);
}

/* A step's seconds (not its ramp's) add up to its totals: after sample i
 * of step step_id, a count they sum past the step's is refused (the sums in
 * floating point: samples of 2^62 each would overflow SQLite's sum). */
static int hb_check_sums(struct hbi *h, int64_t i, int64_t step_id)
{
	static const char *const cols[] = { "read_ops", "write_ops", "read_bytes",
					    "write_bytes", "errors" };
	char sql[512], path[96], what[256] = "";
	sqlite3_stmt *st;

	for (size_t k = 0; !what[0] && k < ARRAY_SIZE(cols); k++) {
		snprintf(sql, sizeof(sql), "SELECT (SELECT total(%s) FROM samples WHERE "
			 "step_id = ?1 AND ramp = 0) AS got, %s, seq FROM steps WHERE id = ?1 "
			 "AND got > %s", cols[k], cols[k], cols[k]);
		if (!(st = db_prep(h->im->db, sql)))
			return imp_db_error(h->im);
		sqlite3_bind_int64(st, 1, step_id);
		if (sqlite3_step(st) == SQLITE_ROW)
			snprintf(what, sizeof(what), "'%s' of step %lld's seconds adds up to %.0f, "
				 "past the step's total of %lld", cols[k],
				 (long long)sqlite3_column_int64(st, 2), sqlite3_column_double(st, 0),
				 (long long)sqlite3_column_int64(st, 1));
		sqlite3_finalize(st);
		if (what[0])
			snprintf(path, sizeof(path), "$.samples[%lld].%s", (long long)i, cols[k]);
	}
	return what[0] ? hb_fault(h, path, "%s: %s", "samples", what) : 0;
}

static int hb_row(struct hbi *h, const char *table, int64_t i, const char *row,
		  sqlite3_stmt *ins)
{
	int64_t run, s1 = 0, s2 = 0;
	char path[64];
	int rc;

	if (!strcmp(table, "runs"))
		return hb_run_row(h, i, row, ins);
	if (!strcmp(table, "steps") && (rc = hb_check_axis(h, i, row)) < 0)
		return rc;
	run = hb_run_of(h, table, i, row);
	if (run < 0)
		return (int)run;
	if (!strcmp(table, "steady_state")) {
		if ((s1 = hb_step_of(h, table, i, row, run, "first_step_seq")) < 0 ||
		    (s2 = hb_step_of(h, table, i, row, run, "last_step_seq")) < 0)
			return -EINVAL;
	} else if (!strcmp(table, "samples") || !strcmp(table, "step_targets") ||
		   !strcmp(table, "histograms") || !strcmp(table, "telemetry")) {
		if ((s1 = hb_step_of(h, table, i, row, run, "step_seq")) < 0)
			return -EINVAL;
		if (!strcmp(table, "histograms") && (rc = hb_hist_check(h->im, i, row, s1)) < 0)
			return rc;
	}
	sqlite3_bind_text(ins, 1, row, -1, SQLITE_STATIC);
	sqlite3_bind_int64(ins, 2, run);
	if (s1)
		sqlite3_bind_int64(ins, 3, s1);
	else
		sqlite3_bind_null(ins, 3);
	if (s2)
		sqlite3_bind_int64(ins, 4, s2);
	else
		sqlite3_bind_null(ins, 4);
	if (sqlite3_step(ins) == SQLITE_DONE) {
		h->im->nsteps += !strcmp(table, "steps");
		return strcmp(table, "samples") ? 0 : hb_check_sums(h, i, s1);
	}
	snprintf(path, sizeof(path), "$.%s[%lld]", table, (long long)i);
	return hb_fault(h, path, "%s: %s", table, sqlite3_errmsg(h->im->db->h));
}

static int hb_is_array(struct hbi *h, const char *table)
{
	sqlite3_stmt *st = db_prep(h->im->db, "SELECT json_type(?1, ?2)");
	char path[64];
	const char *type;
	int rc = 0;

	if (!st)
		return imp_db_error(h->im);
	snprintf(path, sizeof(path), "$.%s", table);
	sqlite3_bind_text(st, 1, h->json, (int)h->jlen, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, path, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW && (type = (const char *)sqlite3_column_text(st, 0)) &&
	    strcmp(type, "array"))
		rc = hb_fault(h, path, "%s: %s", table, "expected an array of rows");
	sqlite3_finalize(st);
	return rc;
}

static int hb_table(struct hbi *h, const char *table)
{
	struct db_json_col c[HB_MAX_COLS];
	sqlite3_stmt *rows, *ins = NULL;
	char path[64];
	unsigned n = 0;
	int rc;

	if ((rc = hb_is_array(h, table)) < 0 || (rc = hb_columns(h, table, c, &n)) < 0 || !(ins = hb_insert(h, table, c, n)))
		return rc < 0 ? rc : -EIO;
	rows = db_prep(h->im->db, "SELECT key, value, type FROM json_each(?1, ?2)");
	if (!rows) {
		sqlite3_finalize(ins);
		return imp_db_error(h->im);
	}
	snprintf(path, sizeof(path), "$.%s", table);
	sqlite3_bind_text(rows, 1, h->json, (int)h->jlen, SQLITE_STATIC);
	sqlite3_bind_text(rows, 2, path, -1, SQLITE_STATIC);
	while (!rc && sqlite3_step(rows) == SQLITE_ROW) {
		int64_t i = sqlite3_column_int64(rows, 0);
		const char *row = (const char *)sqlite3_column_text(rows, 1);

		snprintf(path, sizeof(path), "$.%s[%lld]", table, (long long)i);
		if (strcmp((const char *)sqlite3_column_text(rows, 2), "object"))
			rc = hb_fault(h, path, "%s: %s", table, "expected a row object");
		if (!rc)
			rc = hb_check_row(h, table, i, row, c, n);
		if (!rc)
			rc = hb_row(h, table, i, row, ins);
		sqlite3_reset(ins);
		sqlite3_clear_bindings(ins);
	}
	sqlite3_finalize(rows);
	sqlite3_finalize(ins);
	return rc;
}

/* format, version, schema_version, and each table an array when there. */
static int hb_head(struct hbi *h)
{
	sqlite3_stmt *st = db_prep(h->im->db, "SELECT json_extract(?1, '$.format'), "
		"json_extract(?1, '$.version'), json_type(?1, '$.schema_version'), "
		"json_extract(?1, '$.schema_version'), json_type(?1, '$')");
	int rc = 0;

	if (!st)
		return imp_db_error(h->im);
	sqlite3_bind_text(st, 1, h->json, (int)h->jlen, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_ROW) {
		sqlite3_finalize(st);
		return imp_db_error(h->im);
	}
	if (strcmp((const char *)sqlite3_column_text(st, 4), "object") ||
	    !sqlite3_column_text(st, 0) || strcmp((const char *)sqlite3_column_text(st, 0),
						  "hbatest-export"))
		rc = hb_fault(h, "$.format", "%s%s", "format: expected \"hbatest-export\" (is this "
			      "`hbatest export --format json` output?)", "");
	else if (sqlite3_column_int(st, 1) != 1 || sqlite3_column_type(st, 1) != SQLITE_INTEGER)
		rc = hb_fault(h, "$.version", "%s%s", "version: this hbatest reads version 1 of "
			      "the export format", "");
	else if (!sqlite3_column_text(st, 2) || strcmp((const char *)sqlite3_column_text(st, 2),
						       "integer") ||
		 sqlite3_column_type(st, 3) != SQLITE_INTEGER ||
		 sqlite3_column_int64(st, 3) < 1 || sqlite3_column_int64(st, 3) > DB_SCHEMA_VERSION)
		rc = hb_fault(h, "$.schema_version", "%s%s", "schema_version: missing, not a "
			      "version, or newer than this hbatest's database schema", "");
	sqlite3_finalize(st);
	return rc;
}

/* Two exports joined in one file: the run uuid both hold, if any. */
static int hb_joined(struct hbi *h, size_t end, const size_t second[2])
{
	sqlite3_stmt *st = db_prep(h->im->db, "SELECT json_extract(a.value, '$.uuid') FROM "
		"json_each(?1, '$.runs') a, json_each(?2, '$.runs') b WHERE "
		"json_extract(a.value, '$.uuid') = json_extract(b.value, '$.uuid') LIMIT 1");
	char dup[128] = "";
	int rc;

	if (!st)
		return imp_db_error(h->im);
	sqlite3_bind_text(st, 1, h->im->text, (int)end, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, h->im->text + second[0], (int)(second[1] - second[0]),
			  SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		snprintf(dup, sizeof(dup), "run %.64s", sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	rc = imp_json_twice(h->im, 0, end, second, "export", dup[0] ? dup : NULL);
	return rc;
}

int db_import_hbatest(struct imp *im)
{
	struct hbi h = { .im = im, .json = im->text, .jlen = im->len };
	size_t end, second[2];
	int rc = imp_json_check(im, 0, &end, second);

	if (rc > 0)
		return hb_joined(&h, end, second);
	if (rc < 0)
		return rc;
	rc = hb_head(&h);
	for (unsigned t = 0; !rc && t < sizeof(hb_tables) / sizeof(hb_tables[0]); t++)
		rc = hb_table(&h, hb_tables[t]);
	if (!rc && !h.nruns)
		rc = hb_fault(&h, "$.runs", "%s%s", "runs: no run in the file", "");
	free(h.runs);
	return rc;
}
