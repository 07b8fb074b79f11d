/* The connection's basics every file of the store uses: SQLite's result
 * codes as errno, the busy wait, exec, prepare and the user_version. */
#include <errno.h>
#include <stdio.h>

#include "store/db.h"
#include "base/log.h"
#include "base/util.h"

int db_errno(int rc)
{
	switch (rc & 0xff) {
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		return -EBUSY;
	case SQLITE_FULL:
		return -ENOSPC;
	case SQLITE_READONLY:
		return -EROFS;
	case SQLITE_NOMEM:
		return -ENOMEM;
	default:
		return -EIO;
	}
}

const char *db_errmsg(const struct db *db)
{
	return db->err[0] ? db->err : "unknown error";
}

/* SQLite's own busy timeout, with a word when the wait is long: a lock
 * another process holds (an open sqlite3 shell, a long query) would
 * otherwise hold a run, or its Ctrl-C, for a minute in silence. */
static int busy_wait(void *arg, int count)
{
	static const int pause_ms[] = { 1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50, 100 };
	struct db *db = arg;
	uint64_t now = util_now_ns();
	int waited, pause = count < (int)ARRAY_SIZE(pause_ms) ? pause_ms[count] : 100;

	if (count == 0)
		db->busy_since = now;
	waited = (int)((now - db->busy_since) / 1000000);
	if (waited >= db->busy_ms)
		return 0;
	if (waited >= DB_BUSY_SAY_MS && db->busy_said != db->busy_since) {
		db->busy_said = db->busy_since;
		/* stderr only: an event stored from here would re-enter this
		 * connection inside its own busy wait */
		log_console(HB_LOG_WARN, "database '%s' is locked by another process (an open "
			    "sqlite3 shell, a long query?): waiting up to %d s more", db->path,
			    (db->busy_ms - waited + 999) / 1000);
	}
	sqlite3_sleep(pause < db->busy_ms - waited ? pause : db->busy_ms - waited);
	return 1;
}

void db_set_busy_timeout(struct db *db, int ms)
{
	if (db->h)
		sqlite3_busy_handler(db->h, ms > 0 ? busy_wait : NULL, db);
	db->busy_ms = ms;
}

int db_fail(struct db *db, int rc)
{
	snprintf(db->err, sizeof(db->err), "%s", sqlite3_errmsg(db->h));
	return db_errno(rc);
}

int db_exec(struct db *db, const char *sql)
{
	char *msg = NULL;

	if (sqlite3_exec(db->h, sql, NULL, NULL, &msg) != SQLITE_OK) {
		log_error("database '%s': %s", db->path, msg ? msg : "error");
		sqlite3_free(msg);
		return -EIO;
	}
	return 0;
}

sqlite3_stmt *db_prep(struct db *db, const char *sql)
{
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(db->h, sql, -1, &st, NULL);

	if (rc != SQLITE_OK)
		db_fail(db, rc);
	return st;
}

int db_user_version(struct db *db)
{
	sqlite3_stmt *st;
	int v = -1;

	if (sqlite3_prepare_v2(db->h, "PRAGMA user_version", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return v;
}
