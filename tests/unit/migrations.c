/* The migrations compiled into the binary (core/store/migrations.S): one file
 * for every version from 2 to DB_SCHEMA_VERSION, named for it, none beyond,
 * and db/schema.sql at that same version. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/db.h"
#include "store/migrate.h"
#include "tap.h"

extern const char hb_schema_sql[];

int main(void)
{
	char want[64];

	for (int v = 2; v <= DB_SCHEMA_VERSION; v++) {
		const struct db_migration *m = db_migration(v);

		snprintf(want, sizeof(want), "%04d-", v);
		ok(m && !strncmp(m->file, want, 5) && strstr(m->file, ".sql") && m->sql[0],
		   "version %d: db/migrations/%s... is compiled in, not empty", v, want);
	}
	ok(!db_migration(DB_SCHEMA_VERSION + 1), "no migration beyond version %d",
	   DB_SCHEMA_VERSION);
	ok(!db_migration(1), "none to version 1 (a new database gets db/schema.sql)");
	snprintf(want, sizeof(want), "PRAGMA user_version = %d;", DB_SCHEMA_VERSION);
	ok(strstr(hb_schema_sql, want) != NULL, "db/schema.sql sets %s", want);
	for (int v = 2; v <= DB_SCHEMA_VERSION; v++) {
		const struct db_migration *m = db_migration(v);

		ok(m && !strstr(m->sql, "user_version"), "%s leaves the version to the "
		   "code (it sets the last one once, in the same transaction)",
		   m ? m->file : "?");
	}
	return tap_done();
}
