/* SQL from the command line, read-only three times over: the file is opened
 * SQLITE_OPEN_READONLY (immutable where no -shm can be made; read-write
 * without a -shm where its file system is full: db_open_read), the
 * connection is query_only, and an authorizer refuses at prepare time
 * anything but reading (ATTACH, a PRAGMA that sets, a write of any kind), so
 * a refused statement never starts. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/query.h"
#include "base/util.h"

/* PRAGMAs that only read: those whose argument names a table or index (or
 * a count of errors to list), and those that read when given no value. */
static const char *const pragma_with_arg[] = {
	"table_info", "table_xinfo", "index_list", "index_info", "index_xinfo",
	"foreign_key_list", "foreign_key_check", "integrity_check", "quick_check",
	"table_list",
};
static const char *const pragma_no_arg[] = {
	"user_version", "schema_version", "application_id", "page_count", "page_size",
	"freelist_count", "encoding", "journal_mode", "database_list", "collation_list",
	"function_list", "module_list", "pragma_list", "compile_options", "data_version",
	"query_only", "foreign_keys",
};

static bool in_list(const char *s, const char *const *list, size_t n)
{
	for (size_t i = 0; s && i < n; i++)
		if (!strcmp(s, list[i]))
			return true;
	return false;
}

static bool pragma_reads(const char *name, const char *arg)
{
	return in_list(name, pragma_with_arg, ARRAY_SIZE(pragma_with_arg)) ||
	       (!arg && in_list(name, pragma_no_arg, ARRAY_SIZE(pragma_no_arg)));
}

/* Does table a read a pragma that acts, as its table-valued function
 * (pragma_optimize, pragma_writable_schema)? Such a table runs its PRAGMA
 * when the statement starts, too late for a refusal before any output;
 * refused by its name instead. A table of the database is one only when
 * SQLite has a pragma of that name (q->pragmas). */
static bool pragma_table_acts(const struct db_query *q, const char *a)
{
	char name[72];

	if (!a || strncmp(a, "pragma_", 7) || !q->pragmas ||
	    (size_t)snprintf(name, sizeof(name), ",%s,", a + 7) >= sizeof(name))
		return false;
	return strstr(q->pragmas, name) && !pragma_reads(a + 7, NULL);
}

/* The statement itself, for those whose first refused action is a row they
 * would write in SQLite's own tables (ANALYZE creates sqlite_stat1 first). */
static const char *statement_named(int action)
{
	switch (action) {
	case SQLITE_ANALYZE:
		return "ANALYZE (it writes statistics into the database)";
	case SQLITE_REINDEX:
		return "REINDEX (it rebuilds indexes)";
	default:
		return NULL;
	}
}

/* What a refused action of SQLite's own tables (sqlite_master: CREATE,
 * DROP; sqlite_stat1) would do; NULL for another table. */
static const char *internal_named(int action, const char *a)
{
	if (!a || strncmp(a, "sqlite_", 7))
		return NULL;
	if (!strcmp(a, "sqlite_master") || !strcmp(a, "sqlite_temp_master"))
		return action == SQLITE_INSERT ? "CREATE (it adds to the schema)" :
						 "DROP (it changes the schema)";
	return NULL;
}

/* What the first refused action would have done, for the message; a
 * statement named by an action of its own replaces what its first action,
 * on SQLite's own tables, said (q->denied_internal). */
static void describe(struct db_query *q, int action, const char *a, const char *b)
{
	static const struct { int action; const char *verb; } verbs[] = {
		{ SQLITE_INSERT, "INSERT into" }, { SQLITE_UPDATE, "UPDATE of" },
		{ SQLITE_DELETE, "DELETE from" }, { SQLITE_ATTACH, "ATTACH of" },
		{ SQLITE_DETACH, "DETACH of" },
		{ SQLITE_CREATE_TABLE, "CREATE TABLE" }, { SQLITE_CREATE_VIEW, "CREATE VIEW" },
		{ SQLITE_CREATE_INDEX, "CREATE INDEX" }, { SQLITE_CREATE_TRIGGER, "CREATE TRIGGER" },
		{ SQLITE_DROP_TABLE, "DROP TABLE" }, { SQLITE_DROP_VIEW, "DROP VIEW" },
		{ SQLITE_DROP_INDEX, "DROP INDEX" }, { SQLITE_DROP_TRIGGER, "DROP TRIGGER" },
	};
	const char *verb = "change of", *named = statement_named(action);
	size_t n = sizeof(q->denied);

	if (q->denied[0] && !(named && q->denied_internal))
		return;
	q->denied_internal = false;
	if (named) {
		snprintf(q->denied, n, "%s", named);
	} else if (action == SQLITE_READ) {
		snprintf(q->denied, n, "PRAGMA %s (as the table-valued function %s)", a + 7, a);
	} else if (action == SQLITE_PRAGMA) {
		snprintf(q->denied, n, "PRAGMA %s%s%s", a ? a : "", b ? " = " : "", b ? b : "");
	} else if (action == SQLITE_FUNCTION) {
		snprintf(q->denied, n, "the function %s (%s)", b ? b : "?",
			 b && !strcasecmp(b, "load_extension") ? "it loads a library into hbatest" :
			 "it changes the connection");
	} else if (action == SQLITE_TRANSACTION || action == SQLITE_SAVEPOINT) {
		snprintf(q->denied, n, "%s%s", action == SQLITE_SAVEPOINT ? "SAVEPOINT " : "",
			 action == SQLITE_SAVEPOINT ? (b ? b : "") : a ? a : "a transaction");
	} else if (internal_named(action, a)) {
		snprintf(q->denied, n, "%s", internal_named(action, a));
		q->denied_internal = true;
	} else if (action == SQLITE_ALTER_TABLE) {
		snprintf(q->denied, n, "ALTER TABLE '%s'", b ? b : "?");
	} else {
		for (size_t i = 0; i < ARRAY_SIZE(verbs); i++)
			if (verbs[i].action == action)
				verb = verbs[i].verb;
		snprintf(q->denied, n, "%s '%s'", verb, a ? a : "?");
		q->denied_internal = a && !strncmp(a, "sqlite_", 7);	/* sqlite_stat1 */
	}
}

static int query_authorize(void *ctx, int action, const char *a, const char *b,
			   const char *dbname, const char *trigger)
{
	struct db_query *q = ctx;

	(void)dbname, (void)trigger;
	if (action == SQLITE_READ && pragma_table_acts(q, a)) {
		describe(q, action, a, b);
		return SQLITE_DENY;
	}
	/* a real UPDATE of sqlite_master passes here and is refused after
	 * prepare: not read-only */
	if (db_action_reads(action, a, b))
		return SQLITE_OK;
	if (action == SQLITE_PRAGMA && pragma_reads(a, b)) {
		q->pragma_reads = true;	/* journal_mode: not "readonly" */
		return SQLITE_OK;
	}
	describe(q, action, a, b);
	return SQLITE_DENY;
}

/* ",analysis_limit,application_id,...,": the pragmas SQLite has, each a
 * table-valued function pragma_NAME too; NULL when it cannot say. */
static char *pragma_names(struct db *db)
{
	sqlite3_stmt *st = db_prep(db, "SELECT ',' || group_concat(name, ',') || ',' "
				   "FROM pragma_pragma_list");
	char *names = NULL;

	if (st && sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		names = strdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return names;
}

bool db_is_sql_keyword(const char *word)
{
	return sqlite3_keyword_check(word, (int)strlen(word)) != 0;
}

int db_query_open(struct db_query *q, const char *path, char *err, size_t len)
{
	char wal[PATH_MAX + 8];
	int v;

	memset(q, 0, sizeof(*q));
	q->db.path = strdup(path);
	q->db.readonly = true;
	if (db_path_ready(path, true, err, len) < 0)
		goto fail;
	snprintf(wal, sizeof(wal), "%s-wal", path);
	q->tidy = access(wal, F_OK) != 0;
	if ((v = db_open_read(&q->db, path, SQLITE_OPEN_READONLY, err, len)) < 0)
		goto fail;
	q->version = v;
	if (v == 0) {
		snprintf(err, len, "'%s' is not an hbatest database (no schema version): give "
			 "--db FILE", path);
		goto fail;
	}
	if (db_check(&q->db, false, err, len))	/* as every other open does */
		goto fail;
	q->pragmas = pragma_names(&q->db);
	sqlite3_set_authorizer(q->db.h, query_authorize, q);
	db_side_files_note(&q->db);
	return 0;
fail:
	db_query_close(q);
	return -EIO;
}

static void remove_wal(const char *path)
{
	char wal[PATH_MAX + 8];
	sqlite3 *h = NULL;

	snprintf(wal, sizeof(wal), "%s-wal", path);
	if (access(wal, F_OK) != 0)
		return;
	if (sqlite3_open_v2(path, &h, SQLITE_OPEN_READWRITE, NULL) == SQLITE_OK)
		sqlite3_exec(h, "PRAGMA query_only = 1; SELECT count(*) FROM sqlite_master",
			     NULL, NULL, NULL);
	sqlite3_close(h);
}

void db_query_close(struct db_query *q)
{
	char *path = q->db.path ? strdup(q->db.path) : NULL;
	bool tidy = q->tidy && q->db.h && !q->db.shm_off && path;	/* shm_off: none made */

	db_close(&q->db);	/* with its path: a moved file's side files go too */
	free(q->pragmas);
	q->pragmas = NULL;
	if (tidy)
		remove_wal(path);
	free(path);
}

/* Is there a statement in tail (not only spaces, comments, semicolons)? */
static bool more_statements(struct db_query *q, const char *tail)
{
	while (tail && *tail) {
		sqlite3_stmt *st = NULL;
		const char *next = NULL;
		int rc = sqlite3_prepare_v2(q->db.h, tail, -1, &st, &next);

		sqlite3_finalize(st);
		if (rc != SQLITE_OK || st)
			return true;
		if (!next || next == tail)
			break;
		tail = next;
	}
	return false;
}

int db_query_prepare(struct db_query *q, const char *sql, sqlite3_stmt **out, char *err,
		     size_t len)
{
	sqlite3_stmt *st = NULL;
	const char *tail = NULL;
	int rc;

	q->denied[0] = '\0';
	q->pragma_reads = false;
	rc = sqlite3_prepare_v2(q->db.h, sql, -1, &st, &tail);
	if (rc == SQLITE_OK && !st) {
		snprintf(err, len, "no statement in the query");
		return -EINVAL;
	}
	if (rc == SQLITE_OK && !sqlite3_stmt_readonly(st) && !q->denied[0] && !q->pragma_reads)
		snprintf(q->denied, sizeof(q->denied), "'%.40s' (it writes)", sql);
	if (q->denied[0]) {
		snprintf(err, len, "refused: %s: hbatest sql only reads (the database '%s' "
			 "is opened read-only)", q->denied, q->db.path);
		sqlite3_finalize(st);
		return -EPERM;
	}
	if (rc != SQLITE_OK && q->version < DB_SCHEMA_VERSION) {
		snprintf(err, len, "cannot prepare the query on '%s': %s (its schema is version "
			 "%d, older than this hbatest's %d: hbatest run or report upgrades it)",
			 q->db.path, sqlite3_errmsg(q->db.h), q->version, DB_SCHEMA_VERSION);
		return -EINVAL;
	}
	if (rc != SQLITE_OK) {
		snprintf(err, len, "cannot prepare the query on '%s': %s", q->db.path,
			 sqlite3_errmsg(q->db.h));
		return -EINVAL;
	}
	if (more_statements(q, tail)) {
		snprintf(err, len, "refused: one statement at a time (another starts at "
			 "'%.40s')", tail + strspn(tail, " \t\r\n;"));
		sqlite3_finalize(st);
		return -E2BIG;
	}
	*out = st;
	return 0;
}

/* "42" and "-3" bind as integers (LIMIT :n, :id + 1); "007", "4k", "1.5"
 * as text, which SQLite compares with a numeric column as a number. */
static void bind_value(sqlite3_stmt *st, int i, const char *v)
{
	char back[32];
	char *end;
	long long n;

	errno = 0;
	n = strtoll(v, &end, 10);
	snprintf(back, sizeof(back), "%lld", n);
	if (*v && !*end && !errno && !strcmp(back, v))
		sqlite3_bind_int64(st, i, n);
	else
		sqlite3_bind_text(st, i, v, -1, SQLITE_TRANSIENT);
}

static void list_params(sqlite3_stmt *st, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 1; i <= sqlite3_bind_parameter_count(st) && used < len; i++) {
		const char *name = sqlite3_bind_parameter_name(st, i);

		used += (size_t)snprintf(buf + used, len - used, "%s%s", i > 1 ? ", " : "",
					 name ? name : "?");
	}
	if (!buf[0])
		snprintf(buf, len, "none");
}

int db_query_bind(sqlite3_stmt *st, struct db_param *p, int n, char *err, size_t len)
{
	char have[256];

	for (int i = 1; i <= sqlite3_bind_parameter_count(st); i++) {
		const char *name = sqlite3_bind_parameter_name(st, i);
		int k;

		if (!name || name[0] == '?') {
			snprintf(err, len, "parameter %d ('%s') has no name: write :name in the "
				 "query and give --param name=VALUE", i, name ? name : "?");
			return -EINVAL;
		}
		for (k = 0; k < n && strcmp(p[k].name, name + 1); k++)
			;
		if (k == n) {
			snprintf(err, len, "no value for parameter '%s': give --param %s=VALUE",
				 name, name + 1);
			return -EINVAL;
		}
		bind_value(st, i, p[k].value);
		p[k].used = true;
	}
	for (int k = 0; k < n; k++) {
		if (!p[k].used) {
			list_params(st, have, sizeof(have));
			snprintf(err, len, "--param %s: the query has no parameter '%s' (it has: "
				 "%s)", p[k].name, p[k].name, have);
			return -EINVAL;
		}
	}
	return 0;
}

int db_query_group_known(struct db_query *q, const char *group, const char *run_ids,
			 char *groups, size_t len)
{
	sqlite3_stmt *st = db_prep(&q->db, "SELECT DISTINCT group_name FROM steps "
				   "WHERE group_name IS NOT NULL AND (?1 IS NULL OR "
				   "instr(',' || ?1 || ',', ',' || run_id || ',') > 0) "
				   "ORDER BY group_name");
	size_t n = 0;
	int rc, found = 0;

	if (!st)
		return -EIO;
	*groups = '\0';
	sqlite3_bind_text(st, 1, run_ids, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *g = (const char *)sqlite3_column_text(st, 0);

		found |= !strcmp(g, group);
		if (n < len)
			n += (size_t)snprintf(groups + n, len - n, "%s'%s'", n ? ", " : "", g);
	}
	sqlite3_finalize(st);
	if (n >= len && len > 4)
		strcpy(groups + len - 4, "...");
	return rc == SQLITE_DONE ? found : -EIO;
}

void db_query_stop_when(struct db_query *q, int (*stop)(void *), void *arg)
{
	sqlite3_progress_handler(q->db.h, 1000, stop, arg);
}

/* The whole of fd, NUL-terminated: NULL with errno on failure. */
static char *read_all(int fd, size_t size_hint)
{
	size_t cap = size_hint + 1, n = 0;
	char *text = malloc(cap), *more;
	ssize_t got;

	while (text) {
		if (n + 1 == cap) {
			more = realloc(text, cap *= 2);
			if (!more)
				break;
			text = more;
		}
		got = read(fd, text + n, cap - n - 1);
		if (got == 0) {
			text[n] = '\0';
			return text;
		}
		if (got < 0 && errno != EINTR)
			break;
		n += got > 0 ? (size_t)got : 0;
	}
	free(text);
	return NULL;
}

char *db_query_read_file(const char *path, char *err, size_t len)
{
	struct stat sb;
	char *text;
	int fd, e;

	/* looked at before it is opened (opening a device may act on it), and
	 * opened without blocking and looked at again: a FIFO put there since */
	if (stat(path, &sb) != 0)
		goto failed;
	if (!S_ISREG(sb.st_mode))
		goto not_regular;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		goto failed;
	if (fstat(fd, &sb) == 0 && !S_ISREG(sb.st_mode)) {
		close(fd);
		goto not_regular;
	}
	text = read_all(fd, (size_t)sb.st_size);
	e = errno;
	close(fd);
	if (text)
		return text;
	errno = e;
failed:
	snprintf(err, len, "cannot read '%s': %s", path, strerror(errno));
	return NULL;
not_regular:
	snprintf(err, len, "'%s' is %s, not a query file", path, db_file_kind(sb.st_mode));
	errno = EINVAL;
	return NULL;
}
