/* A run's rows out of the database, table by table (CSV or JSON) or as one
 * JSON document: the format `hbatest import hbatest` reads (docs/database.md, "Export
 * format"). */
#ifndef HB_DB_EXPORT_H
#define HB_DB_EXPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "store/db.h"
#include "store/rows.h"

#define EXPORT_FORMAT_VERSION 1

/* Whether what is a table of the export format or a view of the schema
 * whose rows belong to runs (all of them do). */
bool db_export_has(struct db *db, const char *what);
/* "runs, targets, ...; or a view: oio_sweep, ..." for a message (malloc'd). */
char *db_export_names(struct db *db);
/* The rows of what (a table of the export format, or a view) of the n runs
 * (ids), in fmt (ROWS_CSV or ROWS_JSON): one header or one array, a run's
 * rows together, the runs in the order given; a view's rows begin with
 * run_uuid unless it has the run's uuid already. 0; -ENOENT (what is no
 * table or view) or -EIO, with db->err. */
int db_export_rows(struct db *db, const int64_t *runs, size_t n, const char *what,
		   enum rows_format fmt, FILE *out);
/* The n runs as one JSON object: format, version, schema_version and one
 * array per table, holding the rows of every run. 0, or -EIO with db->err. */
int db_export_runs_json(struct db *db, const int64_t *runs, size_t n, FILE *out);

#endif
