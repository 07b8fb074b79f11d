/* Read-only SQL for reports: any SELECT a report program asks for, with bound
 * parameters, on a connection that can read and nothing else. */
#ifndef HB_DB_REPORT_H
#define HB_DB_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "store/db.h"

enum db_type { DB_NULL, DB_INT, DB_REAL, DB_TEXT };

struct db_value {
	enum db_type type;
	int64_t i;
	double d;
	const char *s;		/* DB_TEXT: valid during the callback only */
	size_t len;
	/* A result: what its column's declared type holds (SQLite's affinity):
	 * DB_INT or DB_REAL for numbers, DB_TEXT; DB_NULL when it has none (an
	 * expression, BLOB). A value of another type was put there by hand. */
	enum db_type decl;
};

/* Called once per result row; a non-zero return stops the query with it. */
typedef int (*db_row_fn)(void *ctx, int ncols, const char *const *names,
			 const struct db_value *vals);

/* Open path read-only (query_only) with an authorizer that allows reading
 * only: no ATTACH, no PRAGMA, no write of any kind. 0 or -errno with err. */
int db_report_open(struct db *db, const char *path, char *err, size_t len);
/* One statement with nparams bound parameters (?1, ?2...). 0, the callback's
 * non-zero return, or -EINVAL/-EIO with err naming the database. */
int db_report_query(struct db *db, const char *sql, const struct db_value *params,
		    int nparams, db_row_fn fn, void *ctx, char *err, size_t len);
/* fn(ctx) is called every few thousand steps of a query; a non-zero return
 * stops it (the query fails as interrupted). fn NULL: none. */
void db_report_set_progress(struct db *db, int (*fn)(void *ctx), void *ctx);
/* The state a person reads: the status, or 'interrupted' for a 'running' run
 * whose process is gone. 0 or -errno with err. */
int db_report_run_state(struct db *db, int64_t run_id, char *state, size_t statelen,
			char *err, size_t len);

/* What names a run in the report's folder and mark, each malloc'd (NULL:
 * none; all NULL: no such run), freed by db_run_names_free. */
struct db_run_names {
	char *label;
	char *uuid;
	char *uuid8;		/* its first 8 characters */
};
/* 0, or -EIO/-ENOMEM with err naming the database. */
int db_report_run_names(struct db *db, int64_t run_id, struct db_run_names *r, char *err,
			size_t len);
void db_run_names_free(struct db_run_names *r);

#endif
