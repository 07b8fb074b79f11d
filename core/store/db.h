/* The results database: schema, runs, steps, samples, histograms, events. */
#ifndef HB_DB_H
#define HB_DB_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define DB_SCHEMA_VERSION 12

/* How long a statement waits for another process's lock: between steps a
 * long wait costs nothing; inside a step the sampler must keep merging
 * seconds, so it tries briefly and retries later (see step.c). */
#define DB_BUSY_MS (60 * 1000)
#define DB_STEP_BUSY_MS 50
#define DB_BUSY_SAY_MS 2000	/* a wait this long is said (on stderr) */

struct db_event_entry;

struct db {
	sqlite3 *h;
	char *path;
	bool readonly;
	int busy_ms;		/* the busy timeout in force */
	sqlite3_stmt *ins_sample;
	sqlite3_stmt *ins_event;
	char err[512];		/* the last failure, for the caller's message */
	struct db_event_entry *pending;	/* events not yet stored (busy) */
	unsigned npending;
	/* this connection's -wal and -shm (device, inode), noted when opened:
	 * if the file is moved away, only these are ours to remove */
	unsigned long long side_dev[2], side_ino[2];
	uint64_t busy_since, busy_said;	/* the current wait's start; the one told of */
	bool shm_off;		/* read without a -shm (a full file system): db_open_read */
};

/* Open for writing (creating the file and schema when missing, migrating an
 * older schema after a copy to NAME.bak-vN); PRAGMA quick_check first. err
 * names the file. */
int db_open(struct db *db, const char *path, bool create, char *err, size_t errlen);
/* Open for reading only (PRAGMA query_only): never creates or initialises a
 * file; an older schema is migrated first, as db_open does (an error naming
 * both versions when the file or its folder is read-only). full:
 * integrity_check (every page and index) instead of quick_check. */
int db_open_ro(struct db *db, const char *path, bool full, char *err, size_t errlen);
/* For the read-only opens (db_open_ro, db_query_open): path opened with flags
 * (SQLITE_OPEN_READWRITE or SQLITE_OPEN_READONLY), and, when that fails for
 * want of a -shm it cannot make (a read-only folder or file system), again
 * as immutable if db_immutable_ok; then PRAGMA query_only. Its user_version,
 * or -errno with err naming the file. */
int db_open_read(struct db *db, const char *path, int flags, char *err, size_t errlen);
/* "not an SQLite database" when SQLite's last error on h says so, else
 * "cannot read database": -EINVAL or -errno, err naming path. */
int db_read_failed(sqlite3 *h, const char *path, char *err, size_t errlen);
/* A -wal's frames follow its header: a -wal this long or shorter holds none. */
#define DB_WAL_HEADER_BYTES 32
/* Bytes in path's -wal file (0 without one). */
off_t db_wal_bytes(const char *path);
/* file:ABSOLUTE-PATH?mode=ro (&immutable=1), the path percent-encoded, to
 * read a file that cannot be written; NULL (errno set) when it cannot be
 * resolved. */
char *db_ro_uri(const char *path, bool immutable);
/* May path, which cannot be read for want of a -shm, be read as immutable
 * (without its -wal)? Not when its -wal holds frames: err then says so,
 * naming the -wal. */
bool db_immutable_ok(const char *path, char *err, size_t errlen);
/* For the authorizers of the read-only connections (report.c, query.c):
 * does this action only read? SELECT, reading columns, functions, CTEs, and
 * the internal statement by which a table-valued function (json_each)
 * declares its table, which SQLite authorizes as an UPDATE of sqlite_master
 * (a real one is refused by query_only anyway). */
bool db_action_reads(int action, const char *a, const char *b);
/* PRAGMA quick_check (full: integrity_check) of an open database: 0, or
 * -EUCLEAN with "database 'x' is corrupt: ..." in err. */
int db_check(struct db *db, bool full, char *err, size_t len);
void db_close(struct db *db);
int db_exec(struct db *db, const char *sql);
/* The reason of the last failed call: "database is locked". */
const char *db_errmsg(const struct db *db);
/* -errno for an SQLite result code: -EBUSY (locked: try again), -ENOSPC, -EIO... */
int db_errno(int sqlite_rc);
void db_set_busy_timeout(struct db *db, int ms);
/* Has the file been deleted or replaced under the open connection? */
bool db_moved(struct db *db);
/* For db_open*: note the -wal and -shm files the connection uses. */
void db_side_files_note(struct db *db);
/* For db_close, before sqlite3_close: when the file was deleted or moved,
 * SQLite neither checkpoints nor removes the -wal, and the next file at the
 * path would replay its frames. The WAL is checkpointed into the file the
 * connection has open (a moved file keeps what the run stored) and emptied;
 * after the close, db_side_files_drop removes the two files if they are
 * still this connection's. */
bool db_side_files_release(struct db *db);
void db_side_files_drop(struct db *db);
/* PRAGMA user_version of an open database, or -1 when it cannot be read. */
int db_user_version(struct db *db);

/* The writers and their rows: store/write.h. */

/* RUN as the user wrote it: an id, a label (the newest run with it) or a
 * uuid prefix, in that order. */
int64_t db_find_run(struct db *db, const char *spec, char *err, size_t errlen);

/* The views' rows (list, show) are read through store/read.h. */
/* SQL: seconds since the heartbeat of runs row r (its start when it has none) */
#define DB_BEAT_AGE(r) \
	"((julianday('now') - julianday(COALESCE(" r "heartbeat_at, " r "started_at))) * 86400)"
/* A run's state as a person reads it, from the values: state as the
 * run_state view gives it ('running' with its process gone reads
 * 'interrupted'), the run's host, pid and heartbeat age in seconds (< 0: not
 * known). */
const char *db_state_of(const char *state, const char *host, int64_t pid, double beat_age);

/* merge.c: the runs of the database in_path (attached read-only) that db
 * lacks, by uuid, with their rows, in one transaction; a run db holds
 * unfinished that in_path holds further along (resumed since) takes
 * in_path's rows. A uuid in both with other content, neither copy a later
 * state of the other, is an error naming the run, and nothing is written. */
struct db_merge_counts {
	unsigned copied, present, skipped;	/* skipped: still running */
	unsigned forward, older;	/* brought forward; db's further along, kept */
};
int db_merge(struct db *db, const char *in_path, struct db_merge_counts *n, char *err,
	     size_t errlen);
/* The runs db holds; -1 when the query fails. */
int64_t db_count_runs(struct db *db);

/* For core/store/ only: prepare, the failure's reason in db->err (NULL). */
sqlite3_stmt *db_prep(struct db *db, const char *sql);
/* For core/store/ only: SQLite's last message into db->err; db_errno(rc). */
int db_fail(struct db *db, int rc);
/* For core/store/ only (write.c): the writer's statements kept for the
 * connection, prepared by the open; and, for db_close, the events still
 * kept (busy) stored and those statements finalized. */
int db_write_prepare(struct db *db);
void db_write_close(struct db *db);
/* Default database path: $HBATEST_DB or ./hbatest.db */
const char *db_default_path(void);

/* fs.c: the database's file and its file system. */
/* "a FIFO", "a folder", "a block device"... for a message. */
const char *db_file_kind(mode_t mode);
/* Is path (symlinks followed) a regular file? 0; -errno when it cannot be
 * looked at (-ENOENT: none); -EINVAL with "'x.db' is a FIFO, not WHAT" in
 * err ("a database file"): a FIFO would block the open, and a device or
 * folder is no database. */
int db_file_check(const char *path, const char *what, char *err, size_t errlen);
/* Before SQLite opens path as a database: 0, or -errno with err saying
 * why not: not a regular file (db_file_check), or, when it must exist,
 * "no database 'x.db' (run a plan first, or give --db FILE)". */
int db_path_ready(const char *path, bool must_exist, char *err, size_t errlen);
/* Before an open: SQLite's -shm is mapped only once its blocks are
 * allocated (a full file system is then an error of the open, not a
 * SIGBUS when SQLite first writes to it). Once per process; each call
 * forgets the last refusal db_full reads. */
void db_shm_guard(void);
/* Did the last call on h fail because the file system is full: SQLITE_FULL,
 * or an I/O error after a write or a -shm mapping of this thread met ENOSPC
 * or EDQUOT since db_shm_guard()? */
bool db_full(sqlite3 *h);
/* "the file system holding 'x.db' is full (12 KiB free): free some space
 * there" */
void db_full_message(const char *path, char *err, size_t errlen);
/* After an open of path failed on a full file system: the -shm it made,
 * when there was none before (had_shm false), removed under an exclusive
 * lock, an empty -wal by that connection's close, and the file itself when
 * the open made it (had_file false) and it holds no schema; when another
 * process has the database open, all are left to it. */
void db_side_files_unmake(const char *path, bool had_shm, bool had_file);

#endif
