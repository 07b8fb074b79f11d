/* Opening and closing the results database: the integrity check, the schema (created or
 * migrated by migrate.c), read-only opens, locks and errors. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/db.h"
#include "store/migrate.h"
#include "base/log.h"
#include "base/util.h"

const char *db_default_path(void)
{
	const char *p = getenv("HBATEST_DB");

	return p && *p ? p : "hbatest.db";
}

bool db_moved(struct db *db)
{
	int moved = 0;

	if (!db->h || sqlite3_file_control(db->h, "main", SQLITE_FCNTL_HAS_MOVED,
					   &moved) != SQLITE_OK)
		return false;
	return moved != 0;
}

static const char *const side_suffix[2] = { "-wal", "-shm" };

/* path's side file i ("-wal", "-shm") in name: false when it does not fit */
static bool side_name(const char *path, unsigned i, char *name, size_t len)
{
	return (size_t)snprintf(name, len, "%s%s", path, side_suffix[i]) < len;
}

static int side_stat(const char *path, unsigned i, struct stat *sb)
{
	char name[4096];

	return side_name(path, i, name, sizeof(name)) ? stat(name, sb) : -1;
}

/* true when the side file i of path cannot be written by this process */
static bool access_side(const char *path, unsigned i)
{
	char name[4096];

	return side_name(path, i, name, sizeof(name)) && access(name, W_OK) != 0;
}

/* A database this process may write whose -wal or -shm it may not: a read
 * of the database while it was read-only made them with its mode (0444),
 * and SQLite then refuses the first write with "attempt to write a readonly
 * database", naming neither. Said before anything is written. */
static int side_files_writable(const char *path, char *err, size_t len)
{
	char said[8400] = "", args[8400] = "";
	struct stat sb, first;
	unsigned n = 0;

	if (access(path, W_OK))
		return 0;	/* the database itself: SQLite says so */
	for (unsigned i = 0; i < 2; i++) {
		if (side_stat(path, i, &sb) || !access_side(path, i))
			continue;
		if (!n++)
			first = sb;
		snprintf(said + strlen(said), sizeof(said) - strlen(said), "%s'%s%s'",
			 n > 1 ? " and " : "", path, side_suffix[i]);
		snprintf(args + strlen(args), sizeof(args) - strlen(args), "%s'%s%s'",
			 n > 1 ? " " : "", path, side_suffix[i]);
	}
	if (!n)
		return 0;
	snprintf(err, len, "cannot write database '%s': its %s %s read-only here (mode %04o, "
		 "owner uid %u), as SQLite makes %s when the database is read while read-only; "
		 "make %s writable: chmod u+w %s (as %s owner)", path, said, n > 1 ? "are" : "is",
		 (unsigned)(first.st_mode & 07777), (unsigned)first.st_uid, n > 1 ? "them" : "it",
		 n > 1 ? "them" : "it", args, n > 1 ? "their" : "its");
	return -EACCES;
}

char *db_ro_uri(const char *path, bool immutable)
{
	char *abs = realpath(path, NULL), *uri, *p;

	if (!abs)
		return NULL;
	uri = malloc(strlen(abs) * 3 + 32);
	if (uri) {
		p = uri + sprintf(uri, "file:");
		for (const unsigned char *c = (const unsigned char *)abs; *c; c++)
			p += (strchr("/._-~", *c) || (*c < 128 && isalnum(*c))) ?
				sprintf(p, "%c", *c) : sprintf(p, "%%%02X", *c);
		strcpy(p, immutable ? "?mode=ro&immutable=1" : "?mode=ro");
	}
	free(abs);
	return uri;
}

bool db_immutable_ok(const char *path, char *err, size_t len)
{
	if (db_wal_bytes(path) <= DB_WAL_HEADER_BYTES)
		return true;
	snprintf(err, len, "cannot read database '%s': its write-ahead log '%s-wal' holds "
		 "changes the file may lack, and they cannot be replayed where no '%s-shm' "
		 "can be made (a read-only folder or file system): copy the database with "
		 "its -wal to a writable folder and read the copy", path, path, path);
	return false;
}

void db_side_files_note(struct db *db)
{
	struct stat sb;

	for (unsigned i = 0; i < 2; i++) {
		db->side_dev[i] = db->side_ino[i] = 0;
		if (side_stat(db->path, i, &sb) == 0) {
			db->side_dev[i] = sb.st_dev;
			db->side_ino[i] = sb.st_ino;
		}
	}
}

/* Is side file i at the database's path still this connection's (the
 * device and inode noted at open)? Then sb holds it. */
static bool own_side(struct db *db, unsigned i, struct stat *sb)
{
	return db->side_ino[i] && side_stat(db->path, i, sb) == 0 &&
	       (unsigned long long)sb->st_dev == db->side_dev[i] &&
	       (unsigned long long)sb->st_ino == db->side_ino[i];
}

bool db_side_files_release(struct db *db)
{
	int logged = -1, moved = 1;
	struct stat sb;

	if (!db->h || !db->path || !db_moved(db))
		return false;
	/* TRUNCATE: the WAL's frames written into the file the connection has
	 * open, then the WAL cut to nothing (fails if another process reads it,
	 * or on a read-only connection: then only an empty log is removed).
	 * Said on stderr only: the run's event sink writes to this connection,
	 * which is closing. */
	if (sqlite3_wal_checkpoint_v2(db->h, "main", SQLITE_CHECKPOINT_TRUNCATE, &logged,
				      &moved) != SQLITE_OK && own_side(db, 0, &sb) && sb.st_size > 0)
		log_console(HB_LOG_WARN, "database '%s' was moved or deleted; its write-ahead "
			    "log could not be emptied (%s): '%s-wal' is left", db->path,
			    sqlite3_errmsg(db->h), db->path);
	return true;
}

void db_side_files_drop(struct db *db)
{
	struct stat sb;
	char name[4096];

	for (unsigned i = 0; i < 2; i++) {
		if (!own_side(db, i, &sb))
			continue;
		if (i == 0 && sb.st_size != 0)
			return;	/* frames no file holds: kept, and the -shm with it */
		snprintf(name, sizeof(name), "%s%s", db->path, side_suffix[i]);
		unlink(name);
	}
}

/* A read-only open of a file larger than this checks the runs table only:
 * quick_check reads every page (seconds for a year of nights, which list
 * and show answer in a fraction of one); the pages a command then reads
 * SQLite checks as it reads them. Writers and --check check it all. */
#define DB_QUICK_CHECK_MAX (256LL << 20)

/* quick_check (or integrity_check): corruption named as corruption. */
int db_check(struct db *db, bool full, char *err, size_t len)
{
	struct stat sb;
	bool big = !full && db->readonly && stat(db->path, &sb) == 0 &&
		   sb.st_size > DB_QUICK_CHECK_MAX;
	const char *sql = full ? "PRAGMA integrity_check(20)" :
			  big ? "PRAGMA quick_check(runs)" : "PRAGMA quick_check(20)";
	const char *what = full ? "integrity_check" : "quick_check";
	sqlite3_stmt *st = NULL;
	int rc, n = 0;
	char first[256] = "";

	rc = sqlite3_prepare_v2(db->h, sql, -1, &st, NULL);
	while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *row = (const char *)sqlite3_column_text(st, 0);

		if (row && strcmp(row, "ok") && !n++) {
			if (!strncmp(row, "*** in database main ***\n", 25))
				row += 25;
			snprintf(first, sizeof(first), "%s", row);
			first[strcspn(first, "\n")] = '\0';
		}
		rc = SQLITE_OK;
	}
	if (rc != SQLITE_DONE && !n) {
		n = 1;
		snprintf(first, sizeof(first), "%s", sqlite3_errmsg(db->h));
	}
	sqlite3_finalize(st);
	if (!n)
		return 0;
	snprintf(err, len, "database '%s' is corrupt: %s%s (PRAGMA %s; its runs cannot be "
		 "trusted: restore a copy, or try sqlite3's .recover)", db->path, first,
		 n > 1 ? ", and more" : "", what);
	return -EUCLEAN;
}

/* PRAGMA journal_mode=WAL, waiting out another writer. Switching a file in
 * rollback mode (a first open, or one just migrated) upgrades a read lock to
 * a write lock, and SQLite answers SQLITE_BUSY at once there instead of
 * calling the busy handler (it cannot tell that from a deadlock): so the
 * wait is ours, as long as the busy timeout. */
static int db_use_wal(struct db *db)
{
	int rc, waited = 0;

	for (int pause = 1;; pause = pause < 64 ? pause * 2 : pause) {
		rc = sqlite3_exec(db->h, "PRAGMA journal_mode=WAL", NULL, NULL, NULL);
		if ((rc & 0xff) != SQLITE_BUSY || waited >= db->busy_ms)
			return rc;
		sqlite3_sleep(pause);
		waited += pause;
	}
}

int db_read_failed(sqlite3 *h, const char *path, char *err, size_t len)
{
	int rc = sqlite3_errcode(h);

	if ((rc & 0xff) == SQLITE_NOTADB) {
		snprintf(err, len, "'%s' is not an SQLite database: %s", path, sqlite3_errmsg(h));
		return -EINVAL;
	}
	snprintf(err, len, "cannot read database '%s': %s", path, sqlite3_errmsg(h));
	return db_errno(rc);
}

/* Open path (by uri, when not NULL), run first (NULL: nothing) and read its
 * user_version: the version, or -errno with err naming path. */
static int handle_open(struct db *db, const char *path, const char *uri, int flags,
		       const char *first, char *err, size_t len)
{
	int v;

	if (sqlite3_open_v2(uri ? uri : path, &db->h, flags, NULL) != SQLITE_OK) {
		snprintf(err, len, "cannot open database '%s': %s", path,
			 db->h ? sqlite3_errmsg(db->h) : "out of memory");
		return -EIO;
	}
	db_set_busy_timeout(db, DB_BUSY_MS);
	if (first && sqlite3_exec(db->h, first, NULL, NULL, NULL) != SQLITE_OK)
		return db_read_failed(db->h, path, err, len);
	v = db_user_version(db);
	return v < 0 ? db_read_failed(db->h, path, err, len) : v;
}

/* The version known to this hbatest: v, or -EINVAL with err set. */
static int version_known(const char *path, int v, char *err, size_t len)
{
	if (v <= DB_SCHEMA_VERSION)
		return v;
	snprintf(err, len, "database '%s' has schema version %d; this hbatest knows "
		 "up to %d: upgrade hbatest", path, v, DB_SCHEMA_VERSION);
	return -EINVAL;
}

static int open_handle(struct db *db, const char *path, int flags, char *err, size_t len)
{
	int v = handle_open(db, path, NULL, flags, NULL, err, len);

	return v < 0 ? v : version_known(path, v, err, len);
}

/* Did the last open fail for want of a -shm (or -wal) file it could not
 * make: a WAL database in a read-only folder or on a read-only file system? */
static bool side_files_refused(struct db *db)
{
	int rc = db->h ? sqlite3_errcode(db->h) & 0xff : SQLITE_OK;

	return rc == SQLITE_CANTOPEN || rc == SQLITE_READONLY;
}

/* The file again as immutable, as merge reads its inputs; when that fails
 * too, the first try's error (first, err) stands. */
static int open_immutable(struct db *db, const char *path, int first, char *err,
			  size_t len)
{
	char *uri = db_ro_uri(path, true), first_err[sizeof(db->err)];
	int v;

	if (!uri)
		return first;
	snprintf(first_err, sizeof(first_err), "%s", err);
	sqlite3_close(db->h);
	db->h = NULL;
	v = handle_open(db, path, uri, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL, err, len);
	free(uri);
	if (v >= 0)
		return v;
	snprintf(err, len, "%s", first_err);
	return first;
}

/* A WAL database on a full file system (its -shm cannot be allocated),
 * read with its WAL index in this process's memory: locking_mode=EXCLUSIVE
 * before the first read, and SQLite makes no -shm. That needs a read-write
 * connection (a read-only one cannot take the exclusive lock; query_only
 * keeps it from writing), and other processes wait while it reads. The
 * -shm the first try made, if there was none before, is removed: nothing
 * else has the database open while this connection holds it. */
static int open_shm_off(struct db *db, const char *path, bool had_shm, char *err,
			size_t len)
{
	char shm[4096];
	int v;

	sqlite3_close(db->h);
	db->h = NULL;
	v = handle_open(db, path, NULL, SQLITE_OPEN_READWRITE,
			"PRAGMA locking_mode = EXCLUSIVE; PRAGMA query_only = 1", err, len);
	if (v < 0)
		return v;
	db->shm_off = true;
	if (!had_shm && (size_t)snprintf(shm, sizeof(shm), "%s-shm", path) < sizeof(shm))
		unlink(shm);
	return v;
}

/* Does the connection's database hold no schema (a file this process made)? */
static bool schema_empty(sqlite3 *h)
{
	sqlite3_stmt *st = NULL;
	bool empty = false;

	if (sqlite3_prepare_v2(h, "SELECT count(*) FROM sqlite_master", -1, &st, NULL) ==
	    SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		empty = sqlite3_column_int(st, 0) == 0;
	sqlite3_finalize(st);
	return empty;
}

void db_side_files_unmake(const char *path, bool had_shm, bool had_file)
{
	char name[4096];
	sqlite3 *h = NULL;

	/* no busy handler: a process that has the file open keeps them */
	if (sqlite3_open_v2(path, &h, SQLITE_OPEN_READWRITE, NULL) == SQLITE_OK &&
	    sqlite3_exec(h, "PRAGMA locking_mode = EXCLUSIVE; PRAGMA query_only = 1; "
			 "PRAGMA user_version", NULL, NULL, NULL) == SQLITE_OK) {
		if (!had_shm && (size_t)snprintf(name, sizeof(name), "%s-shm", path) < sizeof(name))
			unlink(name);
		/* a file made here, empty: it goes, and its -wal (SQLite does not
		 * remove the -wal of a file removed under it) */
		if (!had_file && schema_empty(h) &&
		    (size_t)snprintf(name, sizeof(name), "%s-wal", path) < sizeof(name)) {
			unlink(path);
			unlink(name);
		}
	}
	sqlite3_close(h);
}

int db_open_read(struct db *db, const char *path, int flags, char *err, size_t len)
{
	struct stat sb;
	bool had_shm = side_stat(path, 1, &sb) == 0;
	int v;

	db_shm_guard();
	v = handle_open(db, path, NULL, flags, NULL, err, len);
	if (v < 0 && db_full(db->h)) {
		v = open_shm_off(db, path, had_shm, err, len);
		if (v >= 0)
			log_warn("the file system holding '%s' is full: read without its shared "
				 "memory (-shm); other processes wait until this command ends", path);
	} else if (v < 0 && side_files_refused(db) && db_immutable_ok(path, err, len))
		v = open_immutable(db, path, v, err, len);
	if (v >= 0 &&
	    sqlite3_exec(db->h, "PRAGMA query_only = 1", NULL, NULL, NULL) != SQLITE_OK) {
		snprintf(err, len, "cannot read database '%s': %s", path, sqlite3_errmsg(db->h));
		v = -EIO;
	}
	return v;
}

int db_open(struct db *db, const char *path, bool create, char *err, size_t len)
{
	int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);
	struct stat sb;
	bool had_shm = side_stat(path, 1, &sb) == 0, had_file = stat(path, &sb) == 0, full;
	int v = -1, rc = 0;

	memset(db, 0, sizeof(*db));
	db->path = strdup(path);
	if (!strcmp(path, ":memory:")) {	/* from HBATEST_DB; --db refuses it */
		snprintf(err, len, "database ':memory:' is SQLite's name for one that is gone "
			 "when hbatest ends: give a file (./:memory: for one named so)");
		goto fail;
	}
	if (db_path_ready(path, !create, err, len) < 0 || side_files_writable(path, err, len) < 0)
		goto fail;
	db_shm_guard();
	if ((v = open_handle(db, path, flags, err, len)) < 0 || db_check(db, false, err, len))
		goto fail;
	/* an older file is migrated before anything changes it, even its
	 * journal mode, so its backup is the file as it was */
	if (v > 0 && (v < DB_SCHEMA_VERSION || db_schema_repair_due(db)) &&
	    (rc = db_schema_setup(db, err, len)) < 0)
		goto fail;
	if (db_use_wal(db) != SQLITE_OK ||
	    sqlite3_exec(db->h, "PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON", NULL,
			 NULL, NULL) != SQLITE_OK) {
		snprintf(err, len, "database '%s': %s", path, sqlite3_errmsg(db->h));
		goto fail;
	}
	if (v == 0 && (rc = db_schema_setup(db, err, len)) < 0)
		goto fail;
	if (db_write_prepare(db) < 0) {
		snprintf(err, len, "database '%s': %s", path, sqlite3_errmsg(db->h));
		goto fail;
	}
	db_side_files_note(db);
	return 0;
fail:
	/* a writer is refused; db_open_read reads (a new file left without its
	 * schema goes; a migration's own message, its copy's failure, stays) */
	full = db->h && ((v == 0 && rc == -ENOSPC) || db_full(db->h));
	if (full)
		db_full_message(path, err, len);
	db_close(db);
	if (full)
		db_side_files_unmake(path, had_shm, had_file);
	return -EIO;
}

/* An older file read by a view: migrated (and backed up) as `run` would,
 * then opened read-only again; a read-only file is an error naming both
 * versions (db_schema_setup; here for one only read as immutable, which a
 * second connection could not even open). */
static int db_open_migrated(struct db *db, const char *path, int v, bool full, char *err,
			    size_t len)
{
	struct db rw;
	int rc = 0;

	if (sqlite3_db_readonly(db->h, "main") == 1)
		rc = db_migrate_refused(db, v, "it is read-only here", -EROFS, err, len);
	db_close(db);
	if (rc)
		return rc;
	rc = db_open(&rw, path, false, err, len);
	db_close(&rw);
	return rc < 0 ? rc : db_open_ro(db, path, full, err, len);
}

bool db_action_reads(int action, const char *a, const char *b)
{
	switch (action) {
	case SQLITE_SELECT:
	case SQLITE_READ:
	case SQLITE_RECURSIVE:
		return true;
	case SQLITE_FUNCTION:	/* b: its name; fts3_tokenizer registers a pointer,
				 * load_extension loads a library */
		return !b || (strcasecmp(b, "fts3_tokenizer") && strcasecmp(b, "load_extension"));
	case SQLITE_UPDATE:
		return a && !strcmp(a, "sqlite_master");
	default:
		return false;
	}
}

int db_open_ro(struct db *db, const char *path, bool full, char *err, size_t len)
{
	int v;

	memset(db, 0, sizeof(*db));
	db->path = strdup(path);
	db->readonly = true;
	if (db_path_ready(path, true, err, len) < 0)
		goto fail;
	/* not SQLITE_OPEN_READONLY: a read-only connection cannot remove the
	 * -wal and -shm files on close and leaves them behind; query_only
	 * refuses every write instead (a write-protected file opens read-only;
	 * one where no -shm can be made, immutable: db_open_read) */
	if ((v = db_open_read(db, path, SQLITE_OPEN_READWRITE, err, len)) < 0 ||
	    (v = version_known(path, v, err, len)) < 0 || db_check(db, full, err, len))
		goto fail;
	if (v == 0 && db_table_count(db)) {	/* run refuses it too: no "run a plan" */
		snprintf(err, len, "'%s' is an SQLite database, but not hbatest's (it has "
			 "tables and no hbatest schema version): give another --db FILE", path);
		goto fail;
	}
	if (v == 0) {
		snprintf(err, len, "'%s' is not an hbatest database (empty): run a plan first, "
			 "or give --db FILE", path);
		goto fail;
	}
	if (v < DB_SCHEMA_VERSION)
		return db_open_migrated(db, path, v, full, err, len);
	db_side_files_note(db);
	return 0;
fail:
	db_close(db);
	return -EIO;
}

void db_close(struct db *db)
{
	bool moved;

	db_write_close(db);
	moved = db_side_files_release(db);
	if (db->h)
		sqlite3_close(db->h);
	if (moved)
		db_side_files_drop(db);
	free(db->path);
	memset(db, 0, sizeof(*db));
}
