/* The probes table: the facts of a snapshot of the test bed. */
#include <errno.h>

#include "store/db.h"
#include "measure/probe.h"

int db_facts_store(struct db *db, int64_t run_id, const char *phase, const struct facts *f)
{
	sqlite3_stmt *st;
	int rc = 0;

	if (sqlite3_prepare_v2(db->h, "INSERT INTO probes (run_id, phase, target, probe, key, "
			       "value) VALUES (?,?,?,?,?,?)", -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	db_exec(db, "BEGIN");
	for (unsigned i = 0; i < f->n && !rc; i++) {
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, run_id);
		sqlite3_bind_text(st, 2, phase, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 3, f->v[i].target, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 4, f->v[i].probe, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 5, f->v[i].key, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 6, f->v[i].value, -1, SQLITE_TRANSIENT);
		rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -EIO;
	}
	sqlite3_finalize(st);
	db_exec(db, rc ? "ROLLBACK" : "COMMIT");
	return rc;
}
