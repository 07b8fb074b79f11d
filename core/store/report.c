/* Read-only SQL for reports: one statement at a time, parameters bound,
 * an authorizer that lets a report read and do nothing else. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/report.h"
#include "base/util.h"

#define REPORT_VALUE_MAX (64 << 20)	/* bytes of one value or row */

/* Reading is all a report may do (db_action_reads). */
static int report_authorize(void *ctx, int action, const char *a, const char *b,
			    const char *dbname, const char *trigger)
{
	(void)ctx, (void)dbname, (void)trigger;
	return db_action_reads(action, a, b) ? SQLITE_OK : SQLITE_DENY;
}

/* A database of an older schema is migrated first (db_open_ro does it): the
 * report programs read the views of the current one. */
int db_report_open(struct db *db, const char *path, char *err, size_t len)
{
	int rc = db_open_ro(db, path, false, err, len);

	if (rc < 0)
		return rc;
	sqlite3_set_authorizer(db->h, report_authorize, NULL);
	/* no value a report reads is near this; a query that builds one (a
	 * recursive group_concat) stops here, not at SQLite's 1 GB */
	sqlite3_limit(db->h, SQLITE_LIMIT_LENGTH, REPORT_VALUE_MAX);
	return 0;
}

void db_report_set_progress(struct db *db, int (*fn)(void *ctx), void *ctx)
{
	sqlite3_progress_handler(db->h, fn ? 10000 : 0, fn, ctx);
}

static void bind_params(sqlite3_stmt *st, const struct db_value *p, int n)
{
	for (int i = 0; i < n; i++) {
		switch (p[i].type) {
		case DB_INT:
			sqlite3_bind_int64(st, i + 1, p[i].i);
			break;
		case DB_REAL:
			sqlite3_bind_double(st, i + 1, p[i].d);
			break;
		case DB_TEXT:
			sqlite3_bind_text(st, i + 1, p[i].s, (int)p[i].len, SQLITE_TRANSIENT);
			break;
		default:
			sqlite3_bind_null(st, i + 1);
		}
	}
}

/* SQLite's affinity rules for a declared type ("INTEGER", "VARCHAR(8)"). */
static enum db_type decl_affinity(const char *decl)
{
	if (!decl || !*decl || strcasestr(decl, "BLOB"))
		return DB_NULL;
	if (strcasestr(decl, "INT"))
		return DB_INT;
	if (strcasestr(decl, "CHAR") || strcasestr(decl, "CLOB") || strcasestr(decl, "TEXT"))
		return DB_TEXT;
	return DB_REAL;	/* REAL, FLOAT, DOUBLE, NUMERIC... */
}

static void column_value(sqlite3_stmt *st, int c, enum db_type decl, struct db_value *v)
{
	memset(v, 0, sizeof(*v));
	v->decl = decl;
	switch (sqlite3_column_type(st, c)) {
	case SQLITE_INTEGER:
		v->type = DB_INT;
		v->i = sqlite3_column_int64(st, c);
		break;
	case SQLITE_FLOAT:
		v->type = DB_REAL;
		v->d = sqlite3_column_double(st, c);
		break;
	case SQLITE_NULL:
		v->type = DB_NULL;
		break;
	default:	/* text, and blobs as their bytes */
		v->type = DB_TEXT;
		v->s = (const char *)sqlite3_column_text(st, c);
		v->len = (size_t)sqlite3_column_bytes(st, c);
		if (!v->s)
			v->s = "";
	}
}

static int each_row(sqlite3_stmt *st, db_row_fn fn, void *ctx)
{
	int ncols = sqlite3_column_count(st), rc, stop = 0;
	const char **names = calloc((size_t)ncols + 1, sizeof(*names));
	struct db_value *vals = calloc((size_t)ncols + 1, sizeof(*vals));
	enum db_type *decl = calloc((size_t)ncols + 1, sizeof(*decl));

	if (!names || !vals || !decl) {
		free(names);
		free(vals);
		free(decl);
		return -ENOMEM;
	}
	for (int c = 0; c < ncols; c++) {
		names[c] = sqlite3_column_name(st, c);
		decl[c] = decl_affinity(sqlite3_column_decltype(st, c));
	}
	while (!stop && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		for (int c = 0; c < ncols; c++)
			column_value(st, c, decl[c], &vals[c]);
		stop = fn(ctx, ncols, names, vals);
	}
	free(names);
	free(vals);
	free(decl);
	if (stop)
		return stop;
	return rc == SQLITE_DONE ? 0 : -EIO;
}

int db_report_query(struct db *db, const char *sql, const struct db_value *params,
		    int nparams, db_row_fn fn, void *ctx, char *err, size_t len)
{
	sqlite3_stmt *st = NULL;
	const char *tail = NULL;
	int rc;

	if (sqlite3_prepare_v2(db->h, sql, -1, &st, &tail) != SQLITE_OK || !st) {
		snprintf(err, len, "query on '%s' failed: %s", db->path,
			 st ? sqlite3_errmsg(db->h) : sqlite3_errmsg(db->h));
		sqlite3_finalize(st);
		return -EINVAL;
	}
	if (tail && tail[strspn(tail, " \t\r\n;")]) {
		snprintf(err, len, "query on '%s': one statement at a time (more after '%.40s')",
			 db->path, tail);
		sqlite3_finalize(st);
		return -EINVAL;
	}
	if (nparams != sqlite3_bind_parameter_count(st)) {
		snprintf(err, len, "query on '%s': %d parameters given, the statement has %d",
			 db->path, nparams, sqlite3_bind_parameter_count(st));
		sqlite3_finalize(st);
		return -EINVAL;
	}
	bind_params(st, params, nparams);
	rc = each_row(st, fn, ctx);
	if (rc == -EIO)
		snprintf(err, len, "query on '%s' failed: %s", db->path, sqlite3_errmsg(db->h));
	sqlite3_finalize(st);
	return rc;
}

struct state_row {
	char *state;
	size_t len;
};

static int state_of_row(void *ctx, int ncols, const char *const *names,
			const struct db_value *v)
{
	struct state_row *r = ctx;

	(void)ncols, (void)names;
	snprintf(r->state, r->len, "%s", db_state_of(v[0].type == DB_TEXT ? v[0].s : NULL,
						     v[1].type == DB_TEXT ? v[1].s : NULL, v[2].i,
						     v[3].type == DB_REAL ? v[3].d : -1));
	return 0;
}

int db_report_run_state(struct db *db, int64_t run_id, char *state, size_t statelen,
			char *err, size_t len)
{
	struct db_value id = { .type = DB_INT, .i = run_id };
	struct state_row r = { state, statelen };

	snprintf(state, statelen, "?");
	return db_report_query(db, "SELECT state, host, pid, " DB_BEAT_AGE("") " FROM run_state WHERE id = ?1",
			       &id, 1, state_of_row, &r, err, len);
}

static char *text_dup(const struct db_value *v, bool *nomem)
{
	char *s = v->type == DB_TEXT ? strdup(v->s) : NULL;

	*nomem = *nomem || (v->type == DB_TEXT && !s);
	return s;
}

static int names_of_row(void *ctx, int ncols, const char *const *names,
			const struct db_value *v)
{
	struct db_run_names *r = ctx;
	bool nomem = false;

	(void)ncols, (void)names;
	r->label = text_dup(&v[0], &nomem);
	r->uuid = text_dup(&v[1], &nomem);
	r->uuid8 = text_dup(&v[2], &nomem);
	return nomem ? -ENOMEM : 0;
}

int db_report_run_names(struct db *db, int64_t run_id, struct db_run_names *r, char *err,
			size_t len)
{
	struct db_value id = { .type = DB_INT, .i = run_id };
	int rc;

	memset(r, 0, sizeof(*r));
	rc = db_report_query(db, "SELECT label, uuid, substr(uuid, 1, 8) FROM runs WHERE id = ?1",
			     &id, 1, names_of_row, r, err, len);
	if (rc == -ENOMEM)
		snprintf(err, len, "query on '%s' failed: %s", db->path, strerror(ENOMEM));
	if (rc)
		db_run_names_free(r);
	return rc;
}

void db_run_names_free(struct db_run_names *r)
{
	free(r->label);
	free(r->uuid);
	free(r->uuid8);
	memset(r, 0, sizeof(*r));
}
