/* For core/store/ only: the schema's setup (migrate.c) as open.c calls it. */
#ifndef HB_DB_MIGRATE_H
#define HB_DB_MIGRATE_H

#include "store/db.h"

/* One file of db/migrations/, compiled in (core/store/migrations.S). */
struct db_migration {
	const char *file;	/* "0003-report-views.sql": takes version 2 to 3 */
	const char *sql;
};

/* The migration to version v, or NULL. */
const struct db_migration *db_migration(int version);
/* Create the schema in a new file, or migrate an older one (after a copy to
 * NAME.bak-vN when it holds runs), under a write lock; err names the file. */
/* A file at the current version that lacks what a development build left out
 * (samples.secs): db_schema_setup adds it. */
bool db_schema_repair_due(struct db *db);
int db_schema_setup(struct db *db, char *err, size_t len);
/* rc, with err saying that db, at version v, must be migrated but cannot
 * be (why) and is unchanged, and the fix. */
int db_migrate_refused(struct db *db, int v, const char *why, int rc, char *err,
		       size_t len);
/* Entries in sqlite_master, or -1. */
int db_table_count(struct db *db);

#endif
