/* The schema of a database: created from db/schema.sql, or migrated from an
 * older version through db/migrations/NNNN-*.sql (both compiled in), after a
 * copy of the file to NAME.bak-vN, under a write lock taken before the
 * version is read, so concurrent first opens agree. */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/db.h"
#include "store/migrate.h"
#include "base/log.h"

extern const char hb_schema_sql[];
extern const struct db_migration hb_migrations[];

/* Tries to find a moment when the WAL holds nothing the file lacks. */
#define BACKUP_TRIES 5

const struct db_migration *db_migration(int version)
{
	for (const struct db_migration *m = hb_migrations; m->file; m++)
		if (atoi(m->file) == version)
			return m;
	return NULL;
}

/* The first column of the first row of sql, or -1. */
static int query_int(struct db *db, const char *sql)
{
	sqlite3_stmt *st;
	int n = -1;

	if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return n;
}

int db_table_count(struct db *db)
{
	return query_int(db, "SELECT count(*) FROM sqlite_master");
}

/* The database file's bytes, read through SQLite's own handle: closing
 * another descriptor of the file would drop this process's locks on it
 * (POSIX locks belong to the process, not the descriptor). */
static int copy_db(struct db *db, int out)
{
	static char buf[1 << 16];
	sqlite3_file *f = NULL;
	sqlite3_int64 size, off;

	if (sqlite3_file_control(db->h, "main", SQLITE_FCNTL_FILE_POINTER, &f) != SQLITE_OK ||
	    !f || !f->pMethods || f->pMethods->xFileSize(f, &size) != SQLITE_OK)
		return -EIO;
	for (off = 0; off < size; off += sizeof(buf)) {
		int n = size - off < (sqlite3_int64)sizeof(buf) ? (int)(size - off) : (int)sizeof(buf);

		if (f->pMethods->xRead(f, buf, n, off) != SQLITE_OK)
			return -EIO;
		for (int done = 0; done < n;) {
			ssize_t w = write(out, buf + done, n - done);

			if (w < 0)
				return -errno;
			done += w;
		}
	}
	return fsync(out) ? -errno : 0;
}

static void sync_dir(const char *path)
{
	char *copy = strdup(path);
	int fd = copy ? open(dirname(copy), O_RDONLY | O_DIRECTORY) : -1;

	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	free(copy);
}

/* The file -> tmp, byte for byte, then linked to the first free name among
 * NAME.bak-vN, NAME.bak-vN.1, ...: an older backup is never replaced, and a
 * copy cut short never has the backup's name. */
static int backup_copy(struct db *db, int v, char *name, size_t len)
{
	const char *path = db->path;
	char tmp[4096];
	struct stat st;
	int out, rc;

	snprintf(tmp, sizeof(tmp), "%s.bak-v%d.tmp-XXXXXX", path, v);
	snprintf(name, len, "%s.bak-v%d", path, v);
	out = mkostemp(tmp, O_CLOEXEC);
	if (out < 0)
		return -errno;
	rc = stat(path, &st) ? -errno : fchmod(out, st.st_mode & 0777) ? -errno : 0;
	if (!rc)
		rc = copy_db(db, out);
	if (close(out) && !rc)
		rc = -errno;
	for (int i = 1; !rc && link(tmp, name) != 0; i++) {
		if (errno != EEXIST || i > 99)
			rc = -errno;
		else
			snprintf(name, len, "%s.bak-v%d.%d", path, v, i);
	}
	unlink(tmp);
	if (!rc)
		sync_dir(path);
	return rc;
}

int db_migrate_refused(struct db *db, int v, const char *why, int rc, char *err,
		       size_t len)
{
	snprintf(err, len, "database '%s' has schema version %d and this hbatest uses %d: "
		 "it must be migrated, after a copy to '%s.bak-v%d', but %s; it is "
		 "unchanged: %s", db->path, v, DB_SCHEMA_VERSION, db->path, v, why,
		 rc == -ENOSPC ? "free some space, then open it again" :
		 "make the file and its folder writable, or copy it to a writable folder "
		 "and give --db COPY");
	return rc;
}

/* The migrations from version v to the current one, in order. */
static int migrate_apply(struct db *db, int v, char *err, size_t len)
{
	char *msg = NULL, bump[64];
	int rc = SQLITE_OK;

	for (int to = v + 1; rc == SQLITE_OK && to <= DB_SCHEMA_VERSION; to++) {
		const struct db_migration *m = db_migration(to);

		if (!m) {
			snprintf(err, len, "cannot migrate database '%s' to schema version %d: "
				 "this hbatest has no db/migrations file for it", db->path, to);
			return -EINVAL;
		}
		log_info("migrating database '%s' from schema version %d to %d (%s)",
			 db->path, to - 1, to, m->file);
		rc = sqlite3_exec(db->h, m->sql, NULL, NULL, &msg);
	}
	snprintf(bump, sizeof(bump), "PRAGMA user_version = %d", DB_SCHEMA_VERSION);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db->h, bump, NULL, NULL, &msg);
	if (rc != SQLITE_OK) {
		snprintf(err, len, "cannot migrate database '%s' from schema version %d: %s; "
			 "it is unchanged", db->path, v, msg ? msg : sqlite3_errmsg(db->h));
		sqlite3_free(msg);
		return db_errno(rc);
	}
	return 0;
}

static int schema_create(struct db *db, char *err, size_t len)
{
	char *msg = NULL;
	int rc;

	if (db_table_count(db) != 0) {
		snprintf(err, len, "'%s' is an SQLite database, but not hbatest's (it has "
			 "tables and no hbatest schema version): give another --db FILE",
			 db->path);
		return -EINVAL;
	}
	rc = sqlite3_exec(db->h, hb_schema_sql, NULL, NULL, &msg);
	if (rc != SQLITE_OK) {
		snprintf(err, len, "cannot create the schema in '%s': %s", db->path,
			 msg ? msg : sqlite3_errmsg(db->h));
		sqlite3_free(msg);
		return db_errno(rc);
	}
	return 0;
}

/* Inside the write lock, at version v (0 < v < current): the backup, unless
 * the file holds no run, then the migrations. -EAGAIN: the WAL holds pages
 * the file lacks; let go of the lock, checkpoint, try again. */
static int schema_migrate(struct db *db, int v, char *err, size_t len)
{
	char name[4200];
	int rc, runs;

	assert(v > 0 && v < DB_SCHEMA_VERSION);
	if (sqlite3_db_readonly(db->h, "main") == 1)
		return db_migrate_refused(db, v, "it is read-only here", -EROFS, err, len);
	runs = query_int(db, "SELECT EXISTS (SELECT 1 FROM runs)");
	if (runs < 0) {
		snprintf(err, len, "database '%s': %s", db->path, sqlite3_errmsg(db->h));
		return -EIO;
	}
	if (runs && db_wal_bytes(db->path) > 0)
		return -EAGAIN;
	if (runs) {
		rc = backup_copy(db, v, name, sizeof(name));
		if (rc < 0) {
			snprintf(name, sizeof(name), "the copy failed: %s", strerror(-rc));
			return db_migrate_refused(db, v, name, rc, err, len);
		}
		log_warn("database '%s' has schema version %d: copied it to '%s' before "
			 "migrating it to version %d", db->path, v, name, DB_SCHEMA_VERSION);
	}
	return migrate_apply(db, v, err, len);
}

/* samples.secs joined migration 0005 after 0005 had shipped without it: a
 * database made by a build between the two says version 5 (or 6, migrated
 * since) and has no samples.secs, and every command fails on it. Added here
 * as 0005 adds it, whatever version the file says. */
static const char secs_repair_sql[] =
	"ALTER TABLE samples ADD COLUMN secs REAL NOT NULL DEFAULT 1;"
	"DROP VIEW IF EXISTS sample_total;"
	"CREATE VIEW sample_total AS "
	"SELECT step_id, t, ramp, read_ops + write_ops AS ops, read_bytes + write_bytes AS bytes, "
	"CASE WHEN read_ops + write_ops > 0 THEN "
	"(COALESCE(read_lat_mean_us, 0) * read_ops + COALESCE(write_lat_mean_us, 0) * write_ops) "
	"/ (read_ops + write_ops) END AS lat_mean_us, "
	"secs, (read_ops + write_ops) / secs AS iops, (read_bytes + write_bytes) / 1e6 / secs AS mbps "
	"FROM samples;";

bool db_schema_repair_due(struct db *db)
{
	return query_int(db, "SELECT count(*) FROM pragma_table_info('samples') "
			 "WHERE name = 'secs'") == 0;
}

static int schema_repair(struct db *db, char *err, size_t len)
{
	char *msg = NULL;

	if (!db_schema_repair_due(db))
		return 0;
	if (sqlite3_db_readonly(db->h, "main") == 1)
		return 0;	/* read as it is: the report's own connection */
	log_warn("database '%s' has no samples.secs (made by a development build of "
		 "schema version 5): adding it, 1 s for every stored second", db->path);
	if (sqlite3_exec(db->h, secs_repair_sql, NULL, NULL, &msg) != SQLITE_OK) {
		snprintf(err, len, "cannot add samples.secs to database '%s': %s", db->path,
			 msg ? msg : sqlite3_errmsg(db->h));
		sqlite3_free(msg);
		return -EIO;
	}
	return 0;
}

static int schema_locked(struct db *db, char *err, size_t len)
{
	int v = db_user_version(db), rc;

	if (v < 0) {
		snprintf(err, len, "database '%s': %s", db->path, sqlite3_errmsg(db->h));
		return -EIO;
	}
	if (v > DB_SCHEMA_VERSION) {
		snprintf(err, len, "database '%s' has schema version %d; this hbatest knows "
			 "up to %d: upgrade hbatest", db->path, v, DB_SCHEMA_VERSION);
		return -EINVAL;
	}
	if (!v)
		return schema_create(db, err, len);
	rc = v < DB_SCHEMA_VERSION ? schema_migrate(db, v, err, len) : 0;
	return rc ? rc : schema_repair(db, err, len);
}

int db_schema_setup(struct db *db, char *err, size_t len)
{
	int rc = -EAGAIN;

	for (int try = 0; rc == -EAGAIN && try < BACKUP_TRIES; try++) {
		if (rc == -EAGAIN && try > 0)
			sqlite3_exec(db->h, "PRAGMA wal_checkpoint(TRUNCATE)", NULL, NULL, NULL);
		if (sqlite3_exec(db->h, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) {
			snprintf(err, len, "cannot lock database '%s' to set up its schema: %s",
				 db->path, sqlite3_errmsg(db->h));
			return -EBUSY;
		}
		rc = schema_locked(db, err, len);
		if (!rc && sqlite3_exec(db->h, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
			snprintf(err, len, "cannot set up the schema in '%s': %s", db->path,
				 sqlite3_errmsg(db->h));
			rc = -EIO;
		}
		if (rc && db_full(db->h))
			rc = -ENOSPC;	/* said before the rollback clears it */
		if (rc)
			sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
	}
	if (rc == -EAGAIN)
		snprintf(err, len, "cannot copy database '%s' before migrating it: other "
			 "processes keep writing to it (let them finish, then open it again)",
			 db->path);
	return rc;
}
