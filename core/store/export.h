/* A run's rows out of the database, table by table (CSV or JSON) or as one
 * JSON document: the format `hbatest import hbatest` reads (docs/database.md, "Export
 * format"). */
#ifndef HB_DB_EXPORT_H
#define HB_DB_EXPORT_H

#include <stdint.h>
#include <stdio.h>

#include "store/db.h"
#include "store/rows.h"

#define EXPORT_FORMAT_VERSION 1

/* --what: a table's name ("steps", "samples", ...); its index, or -EINVAL. */
int db_export_table_index(const char *name);
/* "runs|targets|steps|..." for a message. */
const char *db_export_table_names(void);
/* The rows of one table of run_id, in fmt (ROWS_CSV or ROWS_JSON). 0, or
 * -EIO with db->err. */
int db_export_table(struct db *db, int64_t run_id, int table, enum rows_format fmt,
		    FILE *out);
/* The whole run as one JSON object: format, version, schema_version and
 * one array per table. 0, or -EIO with db->err. */
int db_export_run_json(struct db *db, int64_t run_id, FILE *out);

#endif
