/* SQL from the command line (hbatest sql): a connection that cannot write,
 * one statement that only reads, its named parameters bound. */
#ifndef HB_DB_QUERY_H
#define HB_DB_QUERY_H

#include <stdbool.h>
#include <stddef.h>

#include "store/db.h"

struct db_query {
	struct db db;
	bool tidy;		/* no -wal beside the file when opened (see close) */
	int version;		/* its schema version */
	char denied[200];	/* what the authorizer refused, for the message */
	bool pragma_reads;	/* the statement is a PRAGMA of those that read */
	bool denied_internal;	/* denied names a write of SQLite's own tables */
	char *pragmas;		/* ",name,...,": SQLite's pragmas (pragma_NAME tables) */
};

/* --param NAME=VALUE: bound to :NAME, $NAME or @NAME; used once bound. */
struct db_param {
	const char *name;
	const char *value;
	bool used;
};

/* Open path with SQLITE_OPEN_READONLY and PRAGMA query_only, and an
 * authorizer that lets a statement read and nothing else. 0, or -errno with
 * err naming the file. */
/* Whether word is an SQL keyword (VACUUM, BEGIN): a statement, not a
 * saved query's name. */
bool db_is_sql_keyword(const char *word);
int db_query_open(struct db_query *q, const char *path, char *err, size_t len);
/* Close; a read-only connection cannot remove the -wal and -shm files it had
 * to create, so when there were none before, they are removed as a `list`
 * does (a read-write connection, query_only, closed last). */
void db_query_close(struct db_query *q);
/* Prepare one statement that only reads. 0 with *st; -EPERM: it would write
 * (ATTACH, PRAGMA that sets, INSERT...), err names what; -E2BIG: more than
 * one statement; -EINVAL: SQLite cannot prepare it (err: its reason). */
int db_query_prepare(struct db_query *q, const char *sql, sqlite3_stmt **st, char *err,
		     size_t len);
/* Bind every named parameter of st from p: a value that is an integer
 * written plainly ("42", "-3") as an integer, any other as text. 0, or
 * -EINVAL with err naming a parameter without a value, a value without a
 * parameter, or a parameter without a name (?, ?1). */
int db_query_bind(sqlite3_stmt *st, struct db_param *p, int n, char *err, size_t len);
/* --param group=NAME: 1 when a step group of that name is in one of the
 * runs (run_ids "1,2"; NULL: any run), 0 when not, with groups listing
 * theirs ('a', 'b', cut with "..."); -EIO (see db_errmsg). */
int db_query_group_known(struct db_query *q, const char *group, const char *run_ids,
			 char *groups, size_t len);

/* While rows are stepped, stop(arg) is asked every few thousand SQLite
 * instructions; when it returns non-zero the statement ends with
 * SQLITE_INTERRUPT (a signal, a closed pipe: the connection is then closed
 * as usual, and its side files removed). */
void db_query_stop_when(struct db_query *q, int (*stop)(void *), void *arg);
/* A saved query's text (NUL-terminated, to free), read only from a regular
 * file: a FIFO or a device is refused unopened ("'q/x.sql' is a FIFO, not
 * a query file"), one put there meanwhile unread. NULL with errno and err
 * naming path. */
char *db_query_read_file(const char *path, char *err, size_t len);

#endif
