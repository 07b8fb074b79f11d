/* Reading the results database: finding a run, and the queries behind the
 * views (list, show). Each db_read_* returns the statement, prepared and
 * bound, whose columns its comment lists; the caller steps it and gives it
 * to db_read_end, which reports a query that stopped on an error. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "store/db.h"
#include "base/log.h"
#include "base/util.h"

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

const char *db_run_state(sqlite3_stmt *st, int col_state, int col_host, int col_pid,
			 int col_age)
{
	return db_state_of((const char *)sqlite3_column_text(st, col_state),
			   (const char *)sqlite3_column_text(st, col_host),
			   sqlite3_column_int64(st, col_pid), sqlite3_column_double(st, col_age));
}

/* A query that stopped on an error, not at its end, is an error. */
int db_read_end(struct db *db, sqlite3_stmt *st, int rc)
{
	sqlite3_finalize(st);
	if (rc == SQLITE_DONE)
		return 0;
	log_error("cannot read database '%s': %s", db->path, sqlite3_errmsg(db->h));
	return -EIO;
}

static sqlite3_stmt *query(struct db *db, const char *sql, int64_t id)
{
	sqlite3_stmt *st = NULL;

	if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK) {
		log_error("cannot read database '%s': %s", db->path, sqlite3_errmsg(db->h));
		sqlite3_finalize(st);
		return NULL;
	}
	if (id)
		sqlite3_bind_int64(st, 1, id);
	return st;
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

/* RUN as the user wrote it: an id, a label (the newest run with it) or a
 * uuid prefix. A label comes before a uuid prefix: labels such as "a", "b" or
 * "cafe" are also the start of some run's uuid, one run in 16 for "a". */
int64_t db_find_run(struct db *db, const char *spec, char *err, size_t len)
{
	char others[128], uothers[128];
	int64_t id, n, uid, un;
	int rc;

	if ((rc = find_runs(db, "SELECT id FROM runs WHERE CAST(id AS TEXT) = ?1", spec, -1,
			    &id, &n, others, sizeof(others), err, len)) < 0)
		return rc;
	if (id > 0)
		return id;
	if ((rc = find_runs(db, "SELECT id FROM runs WHERE label = ?1 ORDER BY id DESC", spec, -1,
			    &id, &n, others, sizeof(others), err, len)) < 0)
		return rc;
	if (n > 1)	/* a plan run again under its label: the newest */
		log_warn("label '%s' names %lld runs: using the newest, run %lld (the "
			 "others: %s; give an id for one of them)", spec, (long long)n,
			 (long long)id, others);
	/* the prefix compared as text, not a LIKE pattern: '_' and '%' in a
	 * mistyped label ("raid_5") matched any character of some run's uuid */
	if ((rc = find_runs(db, "SELECT id FROM runs WHERE length(?1) > 0 AND "
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
	snprintf(err, len, "no run '%s' in '%s' (give an id, a label or a uuid prefix; "
		 "see hbatest list)", spec, db->path);
	return -ENOENT;
}

/* The columns of run_state r's step counts: done, started, planned (NULL
 * when not known: a run made before schema 5). */
static void step_counts(struct db *db, char *buf, size_t len)
{
	snprintf(buf, len, "(SELECT count(*) FROM steps s WHERE s.run_id = r.id AND "
		 "s.status = 'done'), (SELECT count(*) FROM steps s WHERE s.run_id = r.id), %s",
		 db_user_version(db) < 5 ? "NULL" : "r.steps_planned");
}

/* id, uuid (8), label, state, host, pid, started_at, plan_path, simulated,
 * steps done, steps started, steps planned, heartbeat age (s); every run,
 * oldest first */
sqlite3_stmt *db_read_runs(struct db *db)
{
	char sql[512], counts[256];

	step_counts(db, counts, sizeof(counts));
	snprintf(sql, sizeof(sql), "SELECT r.id, substr(r.uuid, 1, 8), COALESCE(r.label, ''), "
		 "r.state, r.host, r.pid, r.started_at, r.plan_path, r.simulated, %s, "
		 DB_BEAT_AGE("r.") " FROM run_state r ORDER BY r.id", counts);
	return query(db, sql, 0);
}

/* uuid, label, plan_path, plan_sha256, host, version, cmdline, started_at,
 * finished_at, state, host, pid, simulated, source, source_file, steps done,
 * steps started, steps planned, heartbeat age (s) */
sqlite3_stmt *db_read_run(struct db *db, int64_t id)
{
	char sql[512], counts[256];

	step_counts(db, counts, sizeof(counts));
	snprintf(sql, sizeof(sql), "SELECT uuid, label, plan_path, plan_sha256, host, version, "
		 "cmdline, started_at, finished_at, state, host, pid, simulated, source, "
		 "source_file, %s, " DB_BEAT_AGE("r.") " FROM run_state r WHERE id = ?", counts);
	return query(db, sql, id);
}

/* path, kind, size_bytes */
sqlite3_stmt *db_read_targets(struct db *db, int64_t id)
{
	return query(db, "SELECT path, kind, size_bytes FROM targets WHERE run_id = ? "
		     "ORDER BY id", id);
}

/* seq, kind, name, status, iops, mbps, mibps, lat_mean_us, lat_p99_us,
 * lat_max_us, errors, window_s, placement ('' before schema 4, which show
 * opens read-only without upgrading), exit_status, elapsed_s (exec steps) */
sqlite3_stmt *db_read_steps(struct db *db, int64_t id)
{
	char sql[640];

	snprintf(sql, sizeof(sql), "SELECT v.seq, v.kind, v.name, v.status, v.iops, v.mbps, "
		 "v.mibps, v.lat_mean_us, v.lat_p99_us, v.lat_max_us, v.errors, v.window_s, %s, "
		 "s.exit_status, s.elapsed_s FROM step_summary v JOIN steps s ON s.id = v.step_id "
		 "WHERE v.run_id = ? ORDER BY v.seq",
		 db_user_version(db) < 4 ? "''" : "coalesce(s.placement, '')");
	return query(db, sql, id);
}

/* name, attained, rounds, window_first, window_last, mean, data and slope
 * excursion (% of mean), their maxima (%), track */
sqlite3_stmt *db_read_steady(struct db *db, int64_t id)
{
	return query(db, "SELECT name, attained, rounds, window_first, window_last, mean, "
		     "data_excursion / mean * 100, slope_excursion / mean * 100, "
		     "max_data_excursion * 100, max_slope_excursion * 100, track "
		     "FROM steady_state WHERE run_id = ? ORDER BY id", id);
}

/* at, level, message: the warnings and errors */
sqlite3_stmt *db_read_events(struct db *db, int64_t id)
{
	return query(db, "SELECT at, level, message FROM events WHERE run_id = ? "
		     "AND level != 'info' ORDER BY id", id);
}
