/* Merging databases: the runs of an input (attached read-only, never
 * changed) that the output lacks, by uuid, with every row that hangs off
 * them and their ids remapped, and the unfinished runs the input holds
 * further along (resumed since), in one transaction per input. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store/db.h"
#include "base/log.h"
#include "base/strbuf.h"
#include "base/util.h"

/* A run's running state reads 'interrupted' once its heartbeat is this old
 * (the run_state view) when its host is not this one. */
#define MERGE_STALE_S 60

enum link { BY_RUN, BY_STEP };

struct merge_table {
	const char *name;
	enum link link;
	const char *order;	/* of the copy, so ids and rowids keep their order */
	const char *cols;	/* remapped columns, and their values */
	const char *vals;
};

#define NTABLES 10	/* merge_tables[] */

/* The runs columns a resume moves on (take_run, resume_adopt_plan, its end). */
#define MERGE_MOVING "[\"status\", \"finished_at\", \"pid\", \"host\", \"heartbeat_at\", " \
	"\"plan_text\", \"plan_sha256\", \"steps_planned\"]"

struct merge {
	struct db *out;
	const char *in;
	char *err;
	size_t len;
	char *run_cols, *step_cols;	/* "a", "b", ... (both databases have them) */
	sqlite3_stmt *copy_run, *same_run, *same_steps, *renew_run;
	sqlite3_stmt *later[2];		/* src run ?1 later than main's ?2; main's later */
	sqlite3_stmt *copy[NTABLES], *count_src[NTABLES], *count_out[NTABLES];
	sqlite3_stmt *drop[NTABLES];	/* main run ?1's rows */
};

/* The tables a run owns, in the order they are copied (steps before the
 * tables that point at steps). Columns are those both databases have, so an
 * input at an older schema is read as it is: a column it lacks takes its
 * default. */
static const struct merge_table merge_tables[NTABLES] = {
	{ "targets", BY_RUN, "x.id", NULL, NULL },
	{ "steps", BY_RUN, "x.seq", NULL, NULL },
	{ "step_targets", BY_STEP, "x.rowid", NULL, NULL },
	{ "samples", BY_STEP, "x.step_id, x.t", NULL, NULL },
	{ "histograms", BY_STEP, "x.step_id, x.dir", NULL, NULL },
	{ "steady_state", BY_RUN, "x.id", "first_step_id, last_step_id",
	  "(SELECT n.id FROM src.steps o JOIN main.steps n ON n.run_id = ?2 AND "
	  "n.seq = o.seq WHERE o.id = x.first_step_id), "
	  "(SELECT n.id FROM src.steps o JOIN main.steps n ON n.run_id = ?2 AND "
	  "n.seq = o.seq WHERE o.id = x.last_step_id)" },
	{ "probes", BY_RUN, "x.rowid", NULL, NULL },
	{ "events", BY_RUN, "x.id", NULL, NULL },
	{ "telemetry", BY_RUN, "x.rowid", "step_id",	/* NULL between steps */
	  "(SELECT n.id FROM src.steps o JOIN main.steps n ON n.run_id = ?2 AND "
	  "n.seq = o.seq WHERE o.id = x.step_id)" },
	{ "resumes", BY_RUN, "x.rowid", NULL, NULL },	/* steps by seq: nothing to remap */
};

static int merge_fail(struct merge *m, const char *what)
{
	snprintf(m->err, m->len, "cannot merge '%s' into '%s' (%s): %s", m->in, m->out->path,
		 what, sqlite3_errmsg(m->out->h));
	return -EIO;
}

/* Quoted column names of main.table that src.table has too, but id, the
 * remapped keys and those of the JSON list skip (NULL: none); prefix each
 * with pre ("x."). NULL: no such table. */
static char *merge_common_cols(struct merge *m, const char *table, const char *pre,
			       const char *skip)
{
	sqlite3_stmt *st = db_prep(m->out,
		"SELECT group_concat(?2 || '\"' || replace(name, '\"', '\"\"') || '\"', ', ') "
		"FROM pragma_table_info(?1, 'main') WHERE name IN "
		"(SELECT name FROM pragma_table_info(?1, 'src')) AND name NOT IN "
		"('id', 'run_id', 'step_id', 'first_step_id', 'last_step_id') AND name NOT IN "
		"(SELECT value FROM json_each(?3))");
	char *out = NULL;

	if (!st)
		return NULL;
	sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, pre, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, skip ? skip : "[]", -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		out = strdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return out;
}

/* Prepare sql (malloc'd) and free it; prepf(m, fmt, ...) formats it. */
static sqlite3_stmt *merge_prep_owned(struct merge *m, char *sql)
{
	sqlite3_stmt *st = sql ? db_prep(m->out, sql) : NULL;

	free(sql);
	return st;
}

#define prepf(m, ...) merge_prep_owned((m), util_strdup_printf(__VA_ARGS__))

/* The rows of table t that belong to run ?1 of schema s ("src", "main"). */
static sqlite3_stmt *count_stmt(struct merge *m, const struct merge_table *t, const char *s)
{
	if (t->link == BY_RUN)
		return prepf(m, "SELECT count(*) FROM %s.%s x WHERE x.run_id = ?1", s, t->name);
	return prepf(m, "SELECT count(*) FROM %s.%s x JOIN %s.steps o ON o.id = x.step_id "
		     "WHERE o.run_id = ?1", s, t->name, s);
}

/* Copy table t's rows of src run ?1 to main run ?2. */
static sqlite3_stmt *copy_stmt(struct merge *m, const struct merge_table *t)
{
	char *cols = merge_common_cols(m, t->name, "", NULL), *xcols = merge_common_cols(m, t->name, "x.", NULL);
	const char *sep = t->cols ? ", " : "";
	sqlite3_stmt *st = NULL;

	if (!cols || !xcols)
		;
	else if (t->link == BY_RUN)
		st = prepf(m, "INSERT INTO main.%s (run_id%s%s, %s) SELECT ?2%s%s, %s "
			   "FROM src.%s x WHERE x.run_id = ?1 ORDER BY %s", t->name, sep,
			   t->cols ? t->cols : "", cols, sep, t->vals ? t->vals : "", xcols,
			   t->name, t->order);
	else
		st = prepf(m, "INSERT INTO main.%s (step_id, %s) SELECT n.id, %s "
			   "FROM src.%s x JOIN src.steps o ON o.id = x.step_id "
			   "JOIN main.steps n ON n.run_id = ?2 AND n.seq = o.seq "
			   "WHERE o.run_id = ?1 ORDER BY %s", t->name, cols, xcols, t->name,
			   t->order);
	free(cols);
	free(xcols);
	return st;
}

/* The rows of table t of main run ?1, dropped to take the input's. */
static sqlite3_stmt *drop_stmt(struct merge *m, const struct merge_table *t)
{
	if (t->link == BY_RUN)
		return prepf(m, "DELETE FROM main.%s WHERE run_id = ?1", t->name);
	return prepf(m, "DELETE FROM main.%s WHERE step_id IN (SELECT id FROM main.steps "
		     "WHERE run_id = ?1)", t->name);
}

/* Table t's part of later_stmt: the earlier copy's rows (of its done steps)
 * are the later's, and for a step's rows no more and no fewer. */
static void later_table(struct strbuf *b, const struct merge_table *t, const char *xcols,
			const char *E, const char *e, const char *L, const char *l)
{
	/* as multisets: each row numbered among its equals (row_number), so two
	 * equal rows of the earlier need two in the later; a set's EXCEPT let
	 * the later's one stand for both, and the archive's second was lost */
	if (t->link == BY_RUN) {
		sb_printf(b, " AND NOT EXISTS (SELECT %s, row_number() OVER (PARTITION BY %s) FROM "
			  "%s.%s x WHERE x.run_id = %s EXCEPT SELECT %s, row_number() OVER (PARTITION "
			  "BY %s) FROM %s.%s x WHERE x.run_id = %s)",
			  xcols, xcols, E, t->name, e, xcols, xcols, L, t->name, l);
		return;
	}
	sb_printf(b, " AND NOT EXISTS (SELECT o.seq, %s, row_number() OVER (PARTITION BY o.seq, "
		  "%s) FROM %s.%s x JOIN %s.steps o ON o.id = x.step_id WHERE o.run_id = %s AND "
		  "o.status = 'done' EXCEPT SELECT o.seq, %s, row_number() OVER (PARTITION BY "
		  "o.seq, %s) FROM %s.%s x JOIN %s.steps o ON o.id = x.step_id WHERE o.run_id = %s)",
		  xcols, xcols, E, t->name, E, e, xcols, xcols, L, t->name, L, l);
	sb_printf(b, " AND (SELECT count(*) FROM %s.%s x JOIN %s.steps o ON o.id = x.step_id "
		  "WHERE o.run_id = %s AND o.status = 'done') = (SELECT count(*) FROM %s.%s x "
		  "JOIN %s.steps o ON o.id = x.step_id WHERE o.run_id = %s AND o.seq IN (SELECT "
		  "seq FROM %s.steps WHERE run_id = %s AND status = 'done'))",
		  E, t->name, E, e, L, t->name, L, l, E, e);
}

/* Is src run ?1 (fwd; else main run ?2), the later, the other copy carried
 * further by a resume? The earlier is not done; the later holds all it has
 * for good: the runs columns a resume leaves alone, its done steps with
 * their rows, its targets, steady states, probes and events (a resume adds
 * to these); and it went further: done, more steps done, or more events.
 * The earlier's unfinished steps are those the resume measured anew. */
static sqlite3_stmt *merge_later_stmt(struct merge *m, bool fwd)
{
	const char *L = fwd ? "src" : "main", *l = fwd ? "?1" : "?2";
	const char *E = fwd ? "main" : "src", *e = fwd ? "?2" : "?1";
	char *fixed = merge_common_cols(m, "runs", "", MERGE_MOVING), *xcols;
	struct strbuf b = { 0 };
	bool ok = fixed != NULL;

	sb_printf(&b, "SELECT (SELECT status != 'done' FROM %s.runs WHERE id = %s) AND NOT "
		  "EXISTS (SELECT %s FROM %s.runs WHERE id = %s EXCEPT SELECT %s FROM %s.runs "
		  "WHERE id = %s) AND NOT EXISTS (SELECT %s FROM %s.steps WHERE run_id = %s AND "
		  "status = 'done' EXCEPT SELECT %s FROM %s.steps WHERE run_id = %s)", E, e,
		  fixed, E, e, fixed, L, l, m->step_cols, E, e, m->step_cols, L, l);
	for (unsigned i = 0; ok && i < NTABLES; i++) {
		/* telemetry, resumes: records beside the steps, which a resume adds
		 * to (and a resume's row says its steps once the replay reached them) */
		if (!strcmp(merge_tables[i].name, "steps") ||
		    !strcmp(merge_tables[i].name, "telemetry") ||
		    !strcmp(merge_tables[i].name, "resumes"))
			continue;
		ok = (xcols = merge_common_cols(m, merge_tables[i].name, "x.", NULL)) != NULL;
		if (ok)
			later_table(&b, &merge_tables[i], xcols, E, e, L, l);
		free(xcols);
	}
	sb_printf(&b, " AND ((SELECT status = 'done' FROM %s.runs WHERE id = %s) OR (SELECT "
		  "count(*) FROM %s.steps WHERE run_id = %s AND status = 'done') > (SELECT "
		  "count(*) FROM %s.steps WHERE run_id = %s AND status = 'done') OR (SELECT "
		  "count(*) FROM %s.events WHERE run_id = %s) > (SELECT count(*) FROM %s.events "
		  "WHERE run_id = %s))", L, l, L, l, E, e, L, l, E, e);
	free(fixed);
	if (ok)
		return merge_prep_owned(m, sb_take(&b));
	sb_free(&b);
	return NULL;
}

/* Has the input the table (one added by a later schema version)? */
static bool src_has(struct merge *m, const char *table)
{
	sqlite3_stmt *st = db_prep(m->out, "SELECT 1 FROM src.sqlite_master WHERE type = "
				   "'table' AND name = ?1");
	bool has;

	if (!st)
		return true;	/* the copy's prepare says why */
	sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	has = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return has;
}

static int merge_prepare(struct merge *m)
{
	m->run_cols = merge_common_cols(m, "runs", "", NULL);
	m->step_cols = merge_common_cols(m, "steps", "", NULL);
	if (!m->run_cols || !m->step_cols)
		return merge_fail(m, "its runs and steps tables");
	m->copy_run = prepf(m, "INSERT INTO main.runs (%s) SELECT %s FROM src.runs "
			    "WHERE id = ?1", m->run_cols, m->run_cols);
	m->same_run = prepf(m, "SELECT NOT EXISTS (SELECT %s FROM src.runs WHERE id = ?1 "
			    "EXCEPT SELECT %s FROM main.runs WHERE id = ?2)", m->run_cols,
			    m->run_cols);
	m->same_steps = prepf(m, "SELECT NOT EXISTS (SELECT %s FROM src.steps WHERE run_id "
			      "= ?1 EXCEPT SELECT %s FROM main.steps WHERE run_id = ?2)",
			      m->step_cols, m->step_cols);
	m->renew_run = prepf(m, "UPDATE main.runs SET (%s) = (SELECT %s FROM src.runs WHERE "
			     "id = ?1) WHERE id = ?2", m->run_cols, m->run_cols);
	m->later[0] = merge_later_stmt(m, true);
	m->later[1] = merge_later_stmt(m, false);
	if (!m->copy_run || !m->same_run || !m->same_steps || !m->renew_run || !m->later[0] ||
	    !m->later[1])
		return merge_fail(m, "runs and steps");
	for (unsigned i = 0; i < NTABLES; i++) {
		bool has = src_has(m, merge_tables[i].name);	/* telemetry: since 7; resumes: 8 */

		m->copy[i] = has ? copy_stmt(m, &merge_tables[i]) : prepf(m, "SELECT 1 WHERE 0");
		m->count_src[i] = has ? count_stmt(m, &merge_tables[i], "src") : prepf(m, "SELECT 0");
		m->count_out[i] = count_stmt(m, &merge_tables[i], "main");
		m->drop[i] = drop_stmt(m, &merge_tables[i]);
		if (!m->copy[i] || !m->count_src[i] || !m->count_out[i] || !m->drop[i])
			return merge_fail(m, merge_tables[i].name);
	}
	return 0;
}

static void merge_finish(struct merge *m)
{
	sqlite3_finalize(m->copy_run);
	sqlite3_finalize(m->same_run);
	sqlite3_finalize(m->same_steps);
	sqlite3_finalize(m->renew_run);
	sqlite3_finalize(m->later[0]);
	sqlite3_finalize(m->later[1]);
	for (unsigned i = 0; i < NTABLES; i++) {
		sqlite3_finalize(m->drop[i]);
		sqlite3_finalize(m->copy[i]);
		sqlite3_finalize(m->count_src[i]);
		sqlite3_finalize(m->count_out[i]);
	}
	free(m->run_cols);
	free(m->step_cols);
}

/* One value of a statement bound to ?1 (and ?2); -1 on an error. */
static int64_t scalar(sqlite3_stmt *st, int64_t a, int64_t b)
{
	int64_t v = -1;

	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, a);
	if (sqlite3_bind_parameter_count(st) > 1)
		sqlite3_bind_int64(st, 2, b);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	return v;
}

/* What differs between src run a and main run b: NULL when nothing. */
static const char *run_differs(struct merge *m, int64_t a, int64_t b)
{
	if (scalar(m->same_run, a, b) != 1)
		return "runs";
	if (scalar(m->same_steps, a, b) != 1)
		return "steps";
	for (unsigned i = 0; i < NTABLES; i++)
		if (scalar(m->count_src[i], a, 0) != scalar(m->count_out[i], b, 0))
			return merge_tables[i].name;
	return NULL;
}

/* The rows that hang off src run id, to main run new_id. */
static int copy_rows(struct merge *m, int64_t id, int64_t new_id)
{
	for (unsigned i = 0; i < NTABLES; i++) {
		sqlite3_stmt *st = m->copy[i];

		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, id);
		sqlite3_bind_int64(st, 2, new_id);
		if (sqlite3_step(st) != SQLITE_DONE)
			return merge_fail(m, merge_tables[i].name);
	}
	return 0;
}

static int run_copy(struct merge *m, int64_t id)
{
	sqlite3_reset(m->copy_run);
	sqlite3_bind_int64(m->copy_run, 1, id);
	if (sqlite3_step(m->copy_run) != SQLITE_DONE)
		return merge_fail(m, "runs");
	return copy_rows(m, id, sqlite3_last_insert_rowid(m->out->h));
}

/* Main run b (its id kept) becomes src run a: its rows go, a's come. */
static int run_renew(struct merge *m, int64_t a, int64_t b)
{
	for (unsigned i = NTABLES; i-- > 0;) {	/* a step's rows before the step */
		sqlite3_reset(m->drop[i]);
		sqlite3_bind_int64(m->drop[i], 1, b);
		if (sqlite3_step(m->drop[i]) != SQLITE_DONE)
			return merge_fail(m, merge_tables[i].name);
	}
	sqlite3_reset(m->renew_run);
	sqlite3_bind_int64(m->renew_run, 1, a);
	sqlite3_bind_int64(m->renew_run, 2, b);
	if (sqlite3_step(m->renew_run) != SQLITE_DONE)
		return merge_fail(m, "runs");
	return copy_rows(m, a, b);
}

/* One copy of a run, as merge_runs reads it: the input's or the archive's. */
struct run_copy {
	const char *status, *host;
	int64_t pid;
	double beat_age;	/* s since its heartbeat (its start when none) */
};

/* A run of the input, and the archive's run of its uuid (there: 0 when
 * none; out then holds NULLs). */
struct merge_row {
	int64_t id, there;
	const char *uuid, *label;
	struct run_copy src, out;
};

/* A run still being written (its process alive, or on another host a
 * fresh heartbeat) may change: it is left for a later merge. */
static bool run_live(const struct run_copy *c)
{
	int alive;

	if (!c->status || strcmp(c->status, "running"))
		return false;
	alive = util_process_state(c->host, c->pid, c->beat_age);
	return alive > 0 || (alive < 0 && c->beat_age <= MERGE_STALE_S);
}

static const char *merge_state(const struct run_copy *c)	/* of a run not live */
{
	const char *s = c->status;

	return s && !strcmp(s, "running") ? "interrupted" : s ? s : "";
}

/* A run in both with other content, neither copy live: when one is a later
 * state of the other (later_stmt), that one is kept, the input's replacing
 * the archive's. 1: neither is (an error). */
static int merge_other(struct merge *m, const struct merge_row *r, struct db_merge_counts *n)
{
	const char *label = r->label ? r->label : "";

	if (scalar(m->later[0], r->id, r->there) == 1) {
		log_info("'%s': run %s ('%s') brought forward in '%s' (%s -> %s)", m->in, r->uuid,
			 label, m->out->path, merge_state(&r->out), merge_state(&r->src));
		n->forward++;
		return run_renew(m, r->id, r->there);
	}
	if (scalar(m->later[1], r->id, r->there) == 1) {
		log_info("'%s': run %s ('%s') is further along in '%s' (%s, here %s): kept",
			 m->in, r->uuid, label, m->out->path, merge_state(&r->out),
			 merge_state(&r->src));
		n->older++;
		return 0;
	}
	return 1;
}

static int merge_run(struct merge *m, const struct merge_row *r, struct db_merge_counts *n)
{
	const char *label = r->label ? r->label : "";
	const char *diff;
	int rc;

	if (run_live(&r->src)) {
		log_warn("'%s': run %s ('%s') is still running: skipped (merge again once it "
			 "ends)", m->in, r->uuid, label);
		n->skipped++;
		return 0;
	}
	if (!r->there) {
		n->copied++;
		return run_copy(m, r->id);
	}
	diff = run_differs(m, r->id, r->there);
	if (!diff) {
		n->present++;
		return 0;
	}
	if (!run_live(&r->out) && (rc = merge_other(m, r, n)) <= 0)
		return rc;
	snprintf(m->err, m->len, "run %s ('%s') of '%s' is in '%s' too, with other content "
		 "(its %s rows differ): nothing of '%s' was merged", r->uuid, label, m->in,
		 m->out->path, diff, m->in);
	return -EEXIST;
}

/* status, host, pid, heartbeat age from column col of merge_runs' query */
static void copy_read(sqlite3_stmt *st, int col, struct run_copy *c)
{
	c->status = (const char *)sqlite3_column_text(st, col);
	c->host = (const char *)sqlite3_column_text(st, col + 1);
	c->pid = sqlite3_column_int64(st, col + 2);
	c->beat_age = sqlite3_column_double(st, col + 3);
}

static int merge_runs(struct merge *m, struct db_merge_counts *n)
{
	sqlite3_stmt *st = db_prep(m->out, "SELECT r.id, r.uuid, r.label, r.status, r.host, r.pid, "
		DB_BEAT_AGE("r.") ", COALESCE(o.id, 0), o.status, o.host, o.pid, " DB_BEAT_AGE("o.")
		" FROM src.runs r LEFT JOIN main.runs o ON o.uuid = r.uuid ORDER BY r.id");
	struct merge_row r;
	int rc = 0, step;

	if (!st)
		return merge_fail(m, "runs");
	while (!rc && (step = sqlite3_step(st)) == SQLITE_ROW) {
		r.id = sqlite3_column_int64(st, 0);
		r.uuid = (const char *)sqlite3_column_text(st, 1);
		r.label = (const char *)sqlite3_column_text(st, 2);
		copy_read(st, 3, &r.src);
		r.there = sqlite3_column_int64(st, 7);
		copy_read(st, 8, &r.out);
		rc = merge_run(m, &r, n);
	}
	if (!rc && step != SQLITE_DONE)
		rc = merge_fail(m, "runs");
	sqlite3_finalize(st);
	return rc;
}

static int attach_uri(struct merge *m, bool immutable)
{
	char *uri = db_ro_uri(m->in, immutable);
	sqlite3_stmt *st;
	int rc;

	if (!uri) {
		snprintf(m->err, m->len, "cannot open database '%s': %s", m->in, strerror(errno));
		return -ENOENT;
	}
	st = db_prep(m->out, "ATTACH ?1 AS src");
	if (st)
		sqlite3_bind_text(st, 1, uri, -1, SQLITE_TRANSIENT);
	rc = st ? sqlite3_step(st) : SQLITE_ERROR;
	sqlite3_finalize(st);
	free(uri);
	if (rc != SQLITE_DONE) {
		snprintf(m->err, m->len, "cannot open database '%s': %s", m->in,
			 sqlite3_errmsg(m->out->h));
		return db_full(m->out->h) ? -ENOSPC : -EIO;	/* see merge_full_input */
	}
	return 0;
}

static bool side_file(const char *path, const char *suffix)
{
	char name[4096];

	snprintf(name, sizeof(name), "%s%s", path, suffix);
	return access(name, F_OK) == 0;
}

/* Read-only (mode=ro): nothing in the input can change. A WAL input in a
 * folder where its -shm cannot be made, and without frames in a -wal (no
 * writer), is read as immutable (db_immutable_ok). */
static int input_attach(struct merge *m)
{
	int rc = attach_uri(m, false);

	if (rc == -EIO && db_immutable_ok(m->in, m->err, m->len)) {
		char first[sizeof(((struct db *)0)->err)];

		snprintf(first, sizeof(first), "%s", m->err);
		rc = attach_uri(m, true);
		if (rc)
			snprintf(m->err, m->len, "%s", first);
	}
	return rc;
}

/* A read-only connection leaves the -wal and -shm files it made beside a
 * WAL input; one that may write removes them on close, unless another
 * process has the input open (as every hbatest command does on close). */
static void input_tidy(const char *path)
{
	sqlite3 *h = NULL;

	if (sqlite3_open_v2(path, &h, SQLITE_OPEN_READWRITE, NULL) == SQLITE_OK)
		sqlite3_exec(h, "PRAGMA query_only = 1; PRAGMA user_version", NULL, NULL, NULL);
	sqlite3_close(h);
}

/* An input hbatest can read: its version known, its pages sound. */
static int input_check(struct merge *m)
{
	sqlite3_stmt *st = db_prep(m->out, "PRAGMA src.user_version");
	int v = -1, ntables = -1;

	if (st && sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	if (v < 0 && db_full(m->out->h)) {	/* its -shm: see merge_full_input */
		sqlite3_finalize(st);
		return -ENOSPC;
	}
	sqlite3_finalize(st);
	if (v < 0)
		return db_read_failed(m->out->h, m->in, m->err, m->len);
	if (v > DB_SCHEMA_VERSION) {
		snprintf(m->err, m->len, "database '%s' has schema version %d; this hbatest "
			 "knows up to %d: upgrade hbatest", m->in, v, DB_SCHEMA_VERSION);
		return -EINVAL;
	}
	st = db_prep(m->out, "SELECT count(*) FROM src.sqlite_master");
	if (st && sqlite3_step(st) == SQLITE_ROW)
		ntables = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if (v == 0) {
		snprintf(m->err, m->len, "'%s' is not an hbatest database (%s)", m->in,
			 ntables ? "no hbatest schema" : "empty");
		return -EINVAL;
	}
	st = db_prep(m->out, "PRAGMA src.quick_check(1)");
	if (!st || sqlite3_step(st) != SQLITE_ROW ||
	    strcmp((const char *)sqlite3_column_text(st, 0), "ok")) {
		snprintf(m->err, m->len, "database '%s' is corrupt: %s (PRAGMA quick_check): "
			 "nothing merged from it", m->in, st && sqlite3_column_text(st, 0) ?
			 (const char *)sqlite3_column_text(st, 0) : sqlite3_errmsg(m->out->h));
		sqlite3_finalize(st);
		return -EUCLEAN;
	}
	sqlite3_finalize(st);
	return 0;
}

/* The attached input checked, then its runs in one transaction. */
static int merge_input(struct merge *m, struct db_merge_counts *n)
{
	sqlite3 *h = m->out->h;
	int rc = input_check(m);

	if (!rc && sqlite3_exec(h, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
		rc = merge_fail(m, "lock");
	else if (!rc) {
		rc = merge_prepare(m);
		if (!rc)
			rc = merge_runs(m, n);
		merge_finish(m);
		if (!rc && sqlite3_exec(h, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
			rc = merge_fail(m, "commit");
		if (rc) {
			sqlite3_exec(h, "ROLLBACK", NULL, NULL, NULL);
			n->copied = n->forward = 0;
		}
	}
	sqlite3_exec(h, "DETACH src", NULL, NULL, NULL);
	return rc;
}

/* An input on a full file system, where its -shm cannot be allocated: what
 * the first try made beside it goes (db_side_files_unmake), and it is read
 * as immutable, as in a read-only folder; not when its -wal holds changes
 * (they cannot be read without a -shm). */
static int merge_full_input(struct merge *m, bool had_shm, struct db_merge_counts *n)
{
	char full[512];
	int rc;

	db_side_files_unmake(m->in, had_shm, true);
	if (!db_immutable_ok(m->in, full, sizeof(full))) {
		db_full_message(m->in, full, sizeof(full));
		snprintf(m->err, m->len, "cannot read database '%s': %s (its -wal holds changes, "
			 "which cannot be read without a -shm)", m->in, full);
		return -ENOSPC;
	}
	rc = attach_uri(m, true);
	return rc ? rc : merge_input(m, n);
}

/* A connection of its own to OUT (already opened, so created or migrated)
 * with URI names on, for the ATTACH; OUT's own path is never read as one. */
static int merge_connect(struct db *w, const struct db *out, char *err, size_t len)
{
	char name[4096];

	w->path = out->path;
	snprintf(name, sizeof(name), "%s%s", strncmp(out->path, "file:", 5) ? "" : "./",
		 out->path);
	if (sqlite3_open_v2(name, &w->h, SQLITE_OPEN_READWRITE | SQLITE_OPEN_URI, NULL) !=
	    SQLITE_OK || sqlite3_exec(w->h, "PRAGMA foreign_keys = ON", NULL, NULL, NULL)) {
		snprintf(err, len, "cannot open database '%s': %s", out->path,
			 w->h ? sqlite3_errmsg(w->h) : "out of memory");
		sqlite3_close(w->h);
		return -EIO;
	}
	sqlite3_busy_timeout(w->h, DB_BUSY_MS);
	return 0;
}

int db_merge(struct db *out, const char *in, struct db_merge_counts *n, char *err,
	     size_t len)
{
	struct db w = { 0 };
	struct merge m = { .out = &w, .in = in, .err = err, .len = len };
	bool tidy = !side_file(in, "-wal") || !side_file(in, "-shm");
	bool had_shm = side_file(in, "-shm");
	int rc;

	memset(n, 0, sizeof(*n));
	rc = db_file_check(in, "a database file", err, len);
	if (rc == -EINVAL)	/* a FIFO would block the ATTACH */
		return rc;
	db_shm_guard();
	rc = merge_connect(&w, out, err, len);
	if (rc)
		return rc;
	rc = input_attach(&m);
	if (!rc)
		rc = merge_input(&m, n);
	if (rc == -ENOSPC) {
		rc = merge_full_input(&m, had_shm, n);
		tidy = false;	/* done there: a connection here would make them again */
	}
	sqlite3_close(w.h);
	if (tidy && (side_file(in, "-wal") || side_file(in, "-shm")))
		input_tidy(in);
	return rc;
}

int64_t db_count_runs(struct db *db)
{
	sqlite3_stmt *st = db_prep(db, "SELECT count(*) FROM runs");
	int64_t n = -1;

	if (!st)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}
