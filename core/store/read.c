/* Reading the results database: finding a run, and the views' rows (list,
 * show) through cursors (read.h): each query's SQL and its column numbers
 * are here, side by side; a caller reads named fields. */
#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/read.h"
#include "base/log.h"
#include "base/util.h"

enum read_kind { READ_RUNS, READ_RUN, READ_TARGETS, READ_STEPS, READ_STEADY, READ_EVENTS };

struct db_cursor {
	struct db *db;
	sqlite3_stmt *st;
	enum read_kind kind;	/* which db_next_* reads its rows */
	int rc;			/* the last sqlite3_step's */
};

/* A running run (the run_state view's 'running', or 'interrupted' by a
 * heartbeat over a minute old) reads 'interrupted' when its process is gone
 * and 'running' while it is alive (a long hb.sleep); on another host the
 * view's heartbeat rule stands. */
const char *db_state_of(const char *state, const char *host, int64_t pid, double beat_age)
{
	int alive;

	if (!state || (strcmp(state, "running") && strcmp(state, "interrupted")))
		return state ? state : "?";
	alive = util_process_state(host, pid, beat_age);
	return alive == 0 ? "interrupted" : alive == 1 ? "running" : state;
}

/* The runs a query of db_find_run finds for spec (?1; ?2: not_id): the first
 * (*id, -1 when none), how many, and the ids of the others in others. */
static int find_runs(struct db *db, const char *sql, const char *spec, int64_t not_id,
		     int64_t *id, int64_t *n, char *others, size_t olen, char *err, size_t len)
{
	sqlite3_stmt *st = db_prep(db, sql);
	int rc;

	*id = -1, *n = 0, others[0] = '\0';
	if (!st) {
		snprintf(err, len, "database '%s': %s", db->path, db_errmsg(db));
		return -EIO;
	}
	sqlite3_bind_text(st, 1, spec, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 2, not_id);	/* SQLITE_RANGE when the query has no ?2 */
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if ((*n)++ == 0)
			*id = sqlite3_column_int64(st, 0);
		else if (strlen(others) + 24 < olen)
			snprintf(others + strlen(others), olen - strlen(others), "%s%lld",
				 *n > 2 ? ", " : "", (long long)sqlite3_column_int64(st, 0));
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		snprintf(err, len, "database '%s': %s", db->path, sqlite3_errmsg(db->h));
		return -EIO;
	}
	return 0;
}

/* How far label is from what was typed: the edit distance of both in
 * lower case, at most 1 for a label that starts with it ("raid5" for "raid5-wb");
 * over NEAR_MAX, or when typed is short, not near. */
#define NEAR_MAX 3
static unsigned label_distance(const char *typed, const char *label)
{
	char a[256], b[256];
	size_t la = strlen(typed), lb = strlen(label);
	unsigned d;

	if (la >= sizeof(a) || lb >= sizeof(b) || la < 2)
		return NEAR_MAX + 1;
	for (size_t i = 0; i <= la; i++)
		a[i] = (char)tolower((unsigned char)typed[i]);
	for (size_t i = 0; i <= lb; i++)
		b[i] = (char)tolower((unsigned char)label[i]);
	d = util_edit_distance(a, b);
	if (d > 1 && la >= 3 && !strncmp(a, b, la))
		return 1;
	/* a short name is near by fewer edits: "ab" is not near "xy", "jbdo" is near "jbod" */
	return d <= NEAR_MAX && d <= (la + 2) / 3 ? d : NEAR_MAX + 1;
}

/* The labels nearest spec, quoted ("'a'", "'a' or 'b'", at most 3) into
 * out: how many (0 when none is near; errors too, the caller's message
 * stands without them). */
static int nearest_labels(struct db *db, const char *spec, char *out, size_t len)
{
	sqlite3_stmt *st = db_prep(db, "SELECT label FROM runs WHERE label <> '' "
				   "GROUP BY label ORDER BY max(id) DESC");
	char *kept[3] = { NULL, NULL, NULL };
	unsigned best = NEAR_MAX + 1;
	int n = 0;

	out[0] = '\0';
	while (st && sqlite3_step(st) == SQLITE_ROW) {
		const char *l = (const char *)sqlite3_column_text(st, 0);
		unsigned d = l ? label_distance(spec, l) : NEAR_MAX + 1;

		if (d > NEAR_MAX || d > best || (d == best && n == 3))
			continue;
		if (d < best)
			for (best = d; n > 0; n--)
				free(kept[n - 1]);
		if ((kept[n] = strdup(l)))
			n++;
	}
	sqlite3_finalize(st);
	for (int i = 0; i < n; i++)
		snprintf(out + strlen(out), len - strlen(out), "%s'%s'",
			 !i ? "" : i == n - 1 ? " or " : ", ", kept[i]);
	for (int i = 0; i < n; i++)
		free(kept[i]);
	return n;
}

/* RUN as the user wrote it: an id, a label (the newest run with it) or a
 * uuid prefix of at least UUID_PREFIX_MIN characters. A label comes before a
 * uuid prefix: labels such as "abba" or "cafe" are also the start of some
 * run's uuid, one run in 65,536. A shorter prefix names no run: "12", an
 * id mistyped, matched the one run in 256 whose uuid starts so. An id that
 * is also another run's label is taken as the id, with a warning. */
#define UUID_PREFIX_MIN 4
int64_t db_find_run(struct db *db, const char *spec, char *err, size_t len)
{
	char others[128], uothers[128], near[256];
	int64_t id, n, uid, un;
	int rc;

	if ((rc = find_runs(db, "SELECT id FROM runs WHERE CAST(id AS TEXT) = ?1", spec, -1,
			    &id, &n, others, sizeof(others), err, len)) < 0)
		return rc;
	if (id > 0) {
		if ((rc = find_runs(db, "SELECT id FROM runs WHERE label = ?1 AND id != ?2 "
				    "ORDER BY id DESC", spec, id, &uid, &un, others, sizeof(others),
				    err, len)) < 0)
			return rc;
		if (un > 0)
			log_warn("'%s' is the id of run %lld and the label of %s %lld%s%s: using "
				 "the id (give a uuid prefix for %s)", spec, (long long)id,
				 un > 1 ? "runs" : "run", (long long)uid, un > 1 ? ", " : "", others,
				 un > 1 ? "one of those" : "that one");
		return id;
	}
	if ((rc = find_runs(db, "SELECT id FROM runs WHERE label = ?1 ORDER BY id DESC", spec, -1,
			    &id, &n, others, sizeof(others), err, len)) < 0)
		return rc;
	if (n > 1)	/* a plan run again under its label: the newest */
		log_warn("label '%s' names %lld runs: using the newest, run %lld (the "
			 "others: %s; give an id for one of them)", spec, (long long)n,
			 (long long)id, others);
	/* the prefix compared as text, not a LIKE pattern: '_' and '%' in a
	 * mistyped label ("raid_5") matched any character of some run's uuid */
	if (strlen(spec) < UUID_PREFIX_MIN) {
		uid = un = 0;
	} else if ((rc = find_runs(db, "SELECT id FROM runs WHERE length(?1) > 0 AND "
			    "lower(substr(uuid, 1, length(?1))) = lower(?1) AND id != ?2 "
			    "ORDER BY id DESC", spec, id, &uid, &un, uothers, sizeof(uothers),
			    err, len)) < 0)
		return rc;
	if (id > 0) {
		if (un > 0)
			log_warn("'%s' is the label of run %lld and the start of the uuid of "
				 "%s %lld%s%s: using the label (give an id for %s)", spec,
				 (long long)id, un > 1 ? "runs" : "run", (long long)uid,
				 un > 1 ? ", " : "", uothers, un > 1 ? "one of those" : "that one");
		return id;
	}
	if (un > 1 && strlen(spec) < 36) {
		snprintf(err, len, "run '%s' is ambiguous: %lld runs have a uuid "
			 "starting so; give more of it", spec, (long long)un);
		return -EINVAL;
	}
	if (uid > 0)
		return uid;
	if (nearest_labels(db, spec, near, sizeof(near)) > 0)
		snprintf(err, len, "no run '%s' in '%s'; did you mean %s?", spec, db->path, near);
	else
		snprintf(err, len, "no run '%s' in '%s' (give an id, a label or a uuid prefix "
			 "of %d characters or more; see hbatest list)", spec, db->path,
			 UUID_PREFIX_MIN);
	return -ENOENT;
}


/* ---- the views' cursors ------------------------------------------------ */

static struct db_cursor *cursor_open(struct db *db, enum read_kind kind, const char *sql,
				     int64_t id)
{
	struct db_cursor *c = calloc(1, sizeof(*c));

	if (!c) {
		log_error("cannot read database '%s': %s", db->path, strerror(ENOMEM));
		return NULL;
	}
	if (sqlite3_prepare_v2(db->h, sql, -1, &c->st, NULL) != SQLITE_OK) {
		log_error("cannot read database '%s': %s", db->path, sqlite3_errmsg(db->h));
		sqlite3_finalize(c->st);
		free(c);
		return NULL;
	}
	if (id)
		sqlite3_bind_int64(c->st, 1, id);
	c->db = db;
	c->kind = kind;
	c->rc = SQLITE_DONE;
	return c;
}

static bool cursor_step(struct db_cursor *c, enum read_kind kind)
{
	assert(c->kind == kind);	/* a row read as the struct of its query */
	c->rc = sqlite3_step(c->st);
	return c->rc == SQLITE_ROW;
}

/* Rows that stopped on an error, not at their end (nor where the caller
 * stopped reading them). */
static bool cursor_failed(const struct db_cursor *c)
{
	return c->rc != SQLITE_DONE && c->rc != SQLITE_ROW;
}

int db_read_rewind(struct db_cursor *c)
{
	if (cursor_failed(c))
		return -EIO;
	sqlite3_reset(c->st);
	return 0;
}

int db_read_end(struct db_cursor *c)
{
	struct db *db = c->db;
	bool failed = cursor_failed(c);

	sqlite3_finalize(c->st);
	free(c);
	if (!failed)
		return 0;
	log_error("cannot read database '%s': %s", db->path, sqlite3_errmsg(db->h));
	return -EIO;
}

static const char *text(sqlite3_stmt *st, int col)
{
	return (const char *)sqlite3_column_text(st, col);
}

static bool is_null(sqlite3_stmt *st, int col)
{
	return sqlite3_column_type(st, col) == SQLITE_NULL;
}

/* A measured value: NAN where there is none. */
static double measure(sqlite3_stmt *st, int col)
{
	return is_null(st, col) ? NAN : sqlite3_column_double(st, col);
}

/* The columns of run_state r's step counts: done, started, planned (NULL
 * when not known: a run made before schema 5). */
static void step_counts(struct db *db, char *buf, size_t len)
{
	snprintf(buf, len, "(SELECT count(*) FROM steps s WHERE s.run_id = r.id AND "
		 "s.status = 'done'), (SELECT count(*) FROM steps s WHERE s.run_id = r.id), %s",
		 db_user_version(db) < 5 ? "NULL" : "r.steps_planned");
}

/* step_counts' three columns from col */
static void read_counts(sqlite3_stmt *st, int col, struct db_step_counts *n)
{
	n->done = sqlite3_column_int(st, col);
	n->started = sqlite3_column_int(st, col + 1);
	n->planned = sqlite3_column_int(st, col + 2);
	n->planned_known = !is_null(st, col + 2);
}

/* state, host, pid and heartbeat age (s) at these columns, as a person
 * reads the state (db_state_of) */
static const char *read_state(sqlite3_stmt *st, int state, int host, int pid, int age)
{
	return db_state_of(text(st, state), text(st, host), sqlite3_column_int64(st, pid),
			   sqlite3_column_double(st, age));
}

struct db_cursor *db_read_runs(struct db *db)
{
	char sql[640], counts[256];

	step_counts(db, counts, sizeof(counts));
	snprintf(sql, sizeof(sql), "SELECT r.id, substr(r.uuid, 1, 8), COALESCE(r.label, ''), "
		 "r.state, r.host, r.pid, r.started_at, r.plan_path, r.simulated, %s, "
		 DB_BEAT_AGE("r.") ", %s FROM run_state r ORDER BY r.id", counts,
		 db_user_version(db) < 7 ? "NULL" : "r.notes");
	return cursor_open(db, READ_RUNS, sql, 0);
}

bool db_next_run_line(struct db_cursor *c, struct db_run_line *r)
{
	sqlite3_stmt *st = c->st;

	if (!cursor_step(c, READ_RUNS))
		return false;
	r->id = sqlite3_column_int64(st, 0);
	r->uuid8 = text(st, 1);
	r->label = text(st, 2);
	r->state = read_state(st, 3, 4, 5, 12);
	r->started_at = text(st, 6);
	r->plan_path = text(st, 7);
	r->simulated = sqlite3_column_int(st, 8);
	read_counts(st, 9, &r->steps);
	r->notes = text(st, 13);
	return true;
}

struct db_cursor *db_read_run(struct db *db, int64_t id)
{
	char sql[1024], counts[256];

	step_counts(db, counts, sizeof(counts));
	snprintf(sql, sizeof(sql), "SELECT uuid, label, plan_path, plan_sha256, host, version, "
		 "cmdline, started_at, finished_at, state, host, pid, simulated, source, "
		 "source_file, %s, " DB_BEAT_AGE("r.") ", %s FROM run_state r WHERE id = ?", counts,
		 db_user_version(db) < 7 ? "NULL, NULL, NULL" : "plan_name, notes, build_commit");
	return cursor_open(db, READ_RUN, sql, id);
}

bool db_next_run_info(struct db_cursor *c, struct db_run_info *r)
{
	sqlite3_stmt *st = c->st;

	if (!cursor_step(c, READ_RUN))
		return false;
	r->uuid = text(st, 0);
	r->label = text(st, 1);
	r->plan_path = text(st, 2);
	r->plan_sha256 = text(st, 3);
	r->host = text(st, 4);
	r->version = text(st, 5);
	r->cmdline = text(st, 6);
	r->started_at = text(st, 7);
	r->finished_at = text(st, 8);
	r->state = read_state(st, 9, 10, 11, 18);
	r->simulated = sqlite3_column_int(st, 12);
	r->source = text(st, 13);
	r->source_file = text(st, 14);
	read_counts(st, 15, &r->steps);
	r->plan_name = text(st, 19);
	r->notes = text(st, 20);
	r->build_commit = text(st, 21);
	return true;
}

struct db_cursor *db_read_targets(struct db *db, int64_t id)
{
	return cursor_open(db, READ_TARGETS, "SELECT path, kind, size_bytes FROM targets "
			   "WHERE run_id = ? ORDER BY id", id);
}

bool db_next_target(struct db_cursor *c, struct db_target_info *t)
{
	if (!cursor_step(c, READ_TARGETS))
		return false;
	t->path = text(c->st, 0);
	t->kind = text(c->st, 1);
	t->size_known = !is_null(c->st, 2);
	t->size_bytes = sqlite3_column_int64(c->st, 2);
	return true;
}

/* placement is '' before schema 4, the CPU columns NULL before 9: show
 * opens a database read-only without upgrading it. A fio step places no
 * workers: its placement is fio's version and hosts ("fio-3.33 on h1:8765"). */
#define FIO_PLACE "coalesce(nullif(s.placement, ''), CASE WHEN s.engine = 'fio' AND " \
	"json_valid(s.params_json) THEN coalesce(json_extract(s.params_json, '$.fio_version'), " \
	"'fio') || coalesce(' on ' || nullif(json_extract(s.params_json, '$.fio.hosts'), ''), " \
	"'') END, '')"

struct db_cursor *db_read_steps(struct db *db, int64_t id)
{
	char sql[1200];
	int v = db_user_version(db);

	snprintf(sql, sizeof(sql), "SELECT v.seq, v.kind, v.name, v.status, v.iops, v.mbps, "
		 "v.mibps, v.lat_mean_us, v.lat_p99_us, v.lat_max_us, v.errors, %s, "
		 "s.exit_status, s.elapsed_s, %s FROM step_summary v JOIN steps s ON "
		 "s.id = v.step_id WHERE v.run_id = ? ORDER BY v.seq",
		 v < 4 ? "''" : FIO_PLACE,
		 v < 9 ? "NULL, NULL, NULL" : "s.host_bound, s.cpu_busy, s.host_busy");
	return cursor_open(db, READ_STEPS, sql, id);
}

bool db_next_step(struct db_cursor *c, struct db_step_info *s)
{
	sqlite3_stmt *st = c->st;

	if (!cursor_step(c, READ_STEPS))
		return false;
	s->seq = sqlite3_column_int(st, 0);
	s->kind = text(st, 1);
	s->name = text(st, 2);
	s->status = text(st, 3);
	s->iops = measure(st, 4);
	s->mbps = measure(st, 5);
	s->mibps = measure(st, 6);
	s->lat_mean_us = measure(st, 7);
	s->lat_p99_us = measure(st, 8);
	s->lat_max_us = measure(st, 9);
	s->errors = sqlite3_column_int64(st, 10);
	s->placement = text(st, 11);
	s->exit_status = sqlite3_column_int(st, 12);
	s->elapsed_s = measure(st, 13);
	s->host_bound = is_null(st, 14) ? -1 : sqlite3_column_int(st, 14);
	s->cpu_busy = measure(st, 15);
	s->host_busy = measure(st, 16);
	return true;
}

/* the excursions as % of the mean, their maxima as % */
struct db_cursor *db_read_steady(struct db *db, int64_t id)
{
	return cursor_open(db, READ_STEADY, "SELECT name, attained, rounds, window_first, "
			   "window_last, mean, data_excursion / mean * 100, slope_excursion / "
			   "mean * 100, max_data_excursion * 100, max_slope_excursion * 100, "
			   "track FROM steady_state WHERE run_id = ? ORDER BY id", id);
}

bool db_next_steady(struct db_cursor *c, struct db_steady_info *s)
{
	sqlite3_stmt *st = c->st;

	if (!cursor_step(c, READ_STEADY))
		return false;
	s->name = text(st, 0);
	s->attained = sqlite3_column_int(st, 1);
	s->rounds = sqlite3_column_int(st, 2);
	s->has_window = !is_null(st, 3);
	s->window_first = sqlite3_column_int(st, 3);
	s->window_last = sqlite3_column_int(st, 4);
	s->mean = sqlite3_column_double(st, 5);
	s->data_excursion = sqlite3_column_double(st, 6);
	s->slope_excursion = sqlite3_column_double(st, 7);
	s->max_data_excursion = sqlite3_column_double(st, 8);
	s->max_slope_excursion = sqlite3_column_double(st, 9);
	s->track = text(st, 10);
	return true;
}

/* the warnings and errors: info events left out */
struct db_cursor *db_read_events(struct db *db, int64_t id)
{
	return cursor_open(db, READ_EVENTS, "SELECT at, level, message FROM events WHERE "
			   "run_id = ? AND level != 'info' ORDER BY id", id);
}

bool db_next_event(struct db_cursor *c, struct db_event_info *e)
{
	if (!cursor_step(c, READ_EVENTS))
		return false;
	e->at = text(c->st, 0);
	e->level = text(c->st, 1);
	e->message = text(c->st, 2);
	return true;
}
