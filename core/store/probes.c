/* The probes table: the facts of a snapshot of the test bed. */
#include <errno.h>

#include "store/db.h"
#include "store/write.h"

static void probe_bind(sqlite3_stmt *st, int64_t run_id, const struct db_probe_row *p)
{
	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_text(st, 2, p->phase, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 3, p->target, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 4, p->probe, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 5, p->key, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 6, p->value, -1, SQLITE_TRANSIENT);
}

static sqlite3_stmt *probe_prep(struct db *db)
{
	return db_prep(db, "INSERT INTO probes (run_id, phase, target, probe, key, value) "
		       "VALUES (?,?,?,?,?,?)");
}

int db_probe_insert(struct db *db, int64_t run_id, const struct db_probe_row *p)
{
	sqlite3_stmt *st = probe_prep(db);
	int rc;

	if (!st)
		return -EIO;
	probe_bind(st, run_id, p);
	rc = sqlite3_step(st);
	if (rc != SQLITE_DONE)
		db_fail(db, rc);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -EIO;
}

int db_probes_insert(struct db *db, int64_t run_id, const struct db_probe_row *p, unsigned n)
{
	sqlite3_stmt *st = probe_prep(db);
	int rc = 0;

	if (!st)
		return -EIO;
	db_exec(db, "BEGIN");
	for (unsigned i = 0; i < n && !rc; i++) {
		sqlite3_reset(st);
		probe_bind(st, run_id, &p[i]);
		rc = sqlite3_step(st);
		rc = rc == SQLITE_DONE ? 0 : db_fail(db, rc);
	}
	sqlite3_finalize(st);
	db_exec(db, rc ? "ROLLBACK" : "COMMIT");
	return rc;
}
