/* The results database: writing runs, steps, samples and events. Every
 * failure leaves its reason in db->err for the caller to report once. */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store/db.h"
#include "base/hist.h"
#include "base/log.h"
#include "base/util.h"
#include "measure/worker.h"

#define DB_MAX_PENDING 1000	/* events kept while the database is busy */

struct db_event_entry {
	int64_t run_id;
	char at[40];
	const char *level;	/* static */
	char *msg;
};

static int db_fail(struct db *db, int rc)
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

/* sqlite3_exec that reports through db->err, not the log */
static int db_run(struct db *db, const char *sql)
{
	int rc = sqlite3_exec(db->h, sql, NULL, NULL, NULL);

	return rc == SQLITE_OK ? 0 : db_fail(db, rc);
}

static void db_rollback(struct db *db)
{
	if (!sqlite3_get_autocommit(db->h))
		sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
}

void db_close(struct db *db)
{
	bool moved;

	if (db->npending && db->h)
		db_event_flush(db);
	for (unsigned i = 0; i < db->npending; i++)
		free(db->pending[i].msg);
	free(db->pending);
	sqlite3_finalize(db->ins_sample);
	sqlite3_finalize(db->ins_event);
	moved = db_side_files_release(db);
	if (db->h)
		sqlite3_close(db->h);
	if (moved)
		db_side_files_drop(db);
	free(db->path);
	memset(db, 0, sizeof(*db));
}

static int step_done(struct db *db, sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
		rc = db_fail(db, rc);
		sqlite3_finalize(st);
		return rc;
	}
	sqlite3_finalize(st);
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

int64_t db_run_insert(struct db *db, const struct db_run *r)
{
	char now[40];
	sqlite3_stmt *st = db_prep(db,
		"INSERT INTO runs (uuid, label, plan_path, plan_sha256, plan_text, host, "
		"version, cmdline, started_at, heartbeat_at, status, simulated, pid, sets_json, "
		"targets_json, steps_planned, cwd) VALUES (?,?,?,?,?,?,?,?,?,?,'running',?,?,?,?,?,?)");
	char cwd[4096];

	if (!st)
		return -EIO;
	util_utc_now(now, sizeof(now));
	sqlite3_bind_text(st, 1, r->uuid, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, r->label, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 3, r->plan_path, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 4, r->plan_sha256, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 5, r->plan_text, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 6, r->host, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 7, r->version, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 8, r->cmdline, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 9, now, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 10, now, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(st, 11, r->simulated);
	sqlite3_bind_int64(st, 12, getpid());
	sqlite3_bind_text(st, 13, r->sets_json, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 14, r->targets_json, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(st, 15, r->steps_planned);
	if (getcwd(cwd, sizeof(cwd)))	/* relative targets are relative to it */
		sqlite3_bind_text(st, 16, cwd, -1, SQLITE_TRANSIENT);
	if (step_done(db, st) < 0)
		return -EIO;
	return sqlite3_last_insert_rowid(db->h);
}

int db_run_finish(struct db *db, int64_t run_id, const char *status, bool plan_ended)
{
	char now[40];
	sqlite3_stmt *st = db_prep(db, "UPDATE runs SET status = ?1, finished_at = ?2, "
				"heartbeat_at = ?3, steps_planned = CASE WHEN ?5 THEN (SELECT "
				"count(*) FROM steps WHERE run_id = ?4) ELSE steps_planned END "
				"WHERE id = ?4");

	if (!st)
		return -EIO;
	util_utc_now(now, sizeof(now));
	sqlite3_bind_text(st, 1, status, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, now, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 3, now, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 4, run_id);
	sqlite3_bind_int(st, 5, plan_ended);
	return step_done(db, st);
}

int db_run_heartbeat(struct db *db, int64_t run_id)
{
	char now[40];
	sqlite3_stmt *st = db_prep(db, "UPDATE runs SET heartbeat_at = ? WHERE id = ?");

	if (!st)
		return -EIO;
	util_utc_now(now, sizeof(now));
	sqlite3_bind_text(st, 1, now, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 2, run_id);
	return step_done(db, st);
}

int db_target_insert(struct db *db, int64_t run_id, const char *path, const char *kind,
		     uint64_t size)
{
	sqlite3_stmt *st = db_prep(db, "INSERT OR IGNORE INTO targets (run_id, path, kind, "
				"size_bytes) VALUES (?,?,?,?)");

	if (!st)
		return -EIO;
	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_text(st, 2, path, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 3, kind, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, (int64_t)size);
	return step_done(db, st);
}

int64_t db_step_insert(struct db *db, int64_t run_id, int seq, const struct step_spec *s)
{
	char now[40], bs[256];
	sqlite3_stmt *st = db_prep(db,
		"INSERT INTO steps (run_id, seq, kind, name, group_name, tags_json, params_json, "
		"engine, rw, bs, write_pct, oio, workers, duration_s, ramp_s, status, started_at, "
		"axis, axis_value, round, passes, on_error) "
		"VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,'running',?,?,?,?,?,?)");

	if (!st)
		return -EIO;
	util_utc_now(now, sizeof(now));
	workload_bs_text(&s->wl, bs, sizeof(bs));
	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_int(st, 2, seq);
	sqlite3_bind_text(st, 3, step_kind_name(s->kind), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, s->name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 5, s->group, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 6, s->tags, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 7, s->params_json, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 8, s->engine ? s->engine->desc->name : NULL, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 9, rw_name(s->wl.rw), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 10, bs, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(st, 11, (int)s->wl.write_pct);
	sqlite3_bind_int(st, 12, (int)s->wl.oio);
	sqlite3_bind_int(st, 13, (int)s->wl.workers);
	sqlite3_bind_int(st, 14, (int)s->wl.duration);
	sqlite3_bind_int(st, 15, (int)s->wl.ramp);
	sqlite3_bind_text(st, 16, now, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 17, s->axis, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 18, s->axis_value, -1, SQLITE_TRANSIENT);
	if (s->round)
		sqlite3_bind_int(st, 19, (int)s->round);
	if (s->wl.passes)
		sqlite3_bind_int(st, 20, (int)s->wl.passes);
	sqlite3_bind_text(st, 21, step_on_error_name(s->on_error), -1, SQLITE_STATIC);
	if (s->kind == STEP_EXEC) {	/* no workload: leave those columns empty */
		for (int c = 8; c <= 15; c++)
			sqlite3_bind_null(st, c);
		sqlite3_bind_null(st, 21);
	}
	if (step_done(db, st) < 0)
		return -EIO;
	return sqlite3_last_insert_rowid(db->h);
}

static void bind_lat(sqlite3_stmt *st, int col, uint64_t ops, double v)
{
	if (ops)
		sqlite3_bind_double(st, col, v);
	else
		sqlite3_bind_null(st, col);
}

static int sample_bind_step(struct db *db, int64_t step_id, const struct step_sample *s)
{
	sqlite3_stmt *st = db->ins_sample;
	int rc;

	assert(st);		/* prepared as the database opened for writing */
	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, step_id);
	sqlite3_bind_int64(st, 2, (int64_t)s->t);
	sqlite3_bind_int(st, 3, s->ramp);
	sqlite3_bind_int64(st, 4, (int64_t)s->ops[0]);
	sqlite3_bind_int64(st, 5, (int64_t)s->ops[1]);
	sqlite3_bind_int64(st, 6, (int64_t)s->bytes[0]);
	sqlite3_bind_int64(st, 7, (int64_t)s->bytes[1]);
	sqlite3_bind_int64(st, 8, (int64_t)s->errors);
	bind_lat(st, 9, s->ops[0], s->lat_mean[0]);
	bind_lat(st, 10, s->ops[0], s->lat_p99[0]);
	bind_lat(st, 11, s->ops[1], s->lat_mean[1]);
	bind_lat(st, 12, s->ops[1], s->lat_p99[1]);
	bind_lat(st, 13, s->ops[0] + s->ops[1], s->lat_max);
	sqlite3_bind_double(st, 14, s->occupancy);
	sqlite3_bind_double(st, 15, s->secs);
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : db_fail(db, rc);
}

/* One transaction per batch: usually one second, more after the database
 * was busy. INSERT OR REPLACE: a batch retried after a commit whose outcome
 * was unclear stores the same rows again. */
int db_samples_insert(struct db *db, int64_t step_id, const struct step_sample *s,
		      unsigned n)
{
	int rc = db_run(db, "BEGIN IMMEDIATE");

	for (unsigned i = 0; !rc && i < n; i++)
		rc = sample_bind_step(db, step_id, &s[i]);
	if (!rc)
		rc = db_run(db, "COMMIT");
	if (rc)
		db_rollback(db);
	return rc;
}

static int insert_hist(struct db *db, int64_t step_id, const char *dir, const struct hist *h)
{
	char *json = hist_to_json(h);
	sqlite3_stmt *st = db_prep(db, "INSERT OR REPLACE INTO histograms (step_id, dir, layout, "
				"counts) VALUES (?,?,?,?)");

	if (!st || !json) {
		free(json);
		sqlite3_finalize(st);
		return -EIO;
	}
	sqlite3_bind_int64(st, 1, step_id);
	sqlite3_bind_text(st, 2, dir, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, HIST_LAYOUT, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, json, -1, free);
	return step_done(db, st);
}

static void bind_totals(sqlite3_stmt *st, const struct step_spec *s,
			const struct step_totals *t)
{
	uint64_t ops = t->ops[0] + t->ops[1];

	sqlite3_bind_double(st, 3, t->window_s);	/* a whole number is stored as one */
	sqlite3_bind_int64(st, 4, (int64_t)t->ops[0]);
	sqlite3_bind_int64(st, 5, (int64_t)t->ops[1]);
	sqlite3_bind_int64(st, 6, (int64_t)t->bytes[0]);
	sqlite3_bind_int64(st, 7, (int64_t)t->bytes[1]);
	sqlite3_bind_int64(st, 8, (int64_t)t->res.errors);
	/* no window (it ended in its ramp): no rates, NULL; an exec step's
	 * MB/s is over its elapsed time */
	if (t->window_s > 0 || s->kind == STEP_EXEC) {
		sqlite3_bind_double(st, 9, t->res.iops);
		sqlite3_bind_double(st, 10, t->res.read_iops);
		sqlite3_bind_double(st, 11, t->res.write_iops);
		sqlite3_bind_double(st, 12, t->res.mbps);
	}
	bind_lat(st, 13, ops, t->res.lat_mean);
	bind_lat(st, 14, ops, t->res.lat_p50);
	bind_lat(st, 15, ops, t->res.lat_p99);
	bind_lat(st, 16, ops, t->res.lat_p999);
	bind_lat(st, 17, ops, t->res.lat_max);
}

static int insert_step_targets(struct db *db, int64_t step_id, const struct step_spec *s,
			       const struct step_totals *t)
{
	assert(t->ntargets <= s->wl.ntargets);
	for (unsigned i = 0; i < t->ntargets && t->tgt; i++) {
		const uint64_t *c = &t->tgt[i * TGT_COUNTERS];
		sqlite3_stmt *st = db_prep(db, "INSERT OR REPLACE INTO step_targets (step_id, path, "
					"read_ops, write_ops, read_bytes, write_bytes, errors) "
					"VALUES (?,?,?,?,?,?,?)");

		if (!st)
			return -EIO;
		sqlite3_bind_int64(st, 1, step_id);
		sqlite3_bind_text(st, 2, s->wl.targets[i].path, -1, SQLITE_TRANSIENT);
		for (int k = 0; k < TGT_COUNTERS; k++)
			sqlite3_bind_int64(st, 3 + k, (int64_t)c[k]);
		if (step_done(db, st) < 0)
			return -EIO;
	}
	return 0;
}

static int finish_extra(struct db *db, int64_t step_id, const struct step_spec *s,
			const struct step_totals *t)
{
	sqlite3_stmt *st;

	if (s->kind != STEP_EXEC && !s->wl.passes)
		return 0;
	/* a fill's duration: the seconds it has samples in, the last one part */
	st = db_prep(db, "UPDATE steps SET elapsed_s = ?, exit_status = ?, duration_s = "
		  "CASE WHEN passes IS NOT NULL THEN CAST(window_s AS INTEGER) + "
		  "(window_s > CAST(window_s AS INTEGER)) "
		  "ELSE duration_s END WHERE id = ?");
	if (!st)
		return -EIO;
	if (t->res.elapsed_s > 0)
		sqlite3_bind_double(st, 1, t->res.elapsed_s);
	if (s->kind == STEP_EXEC)
		sqlite3_bind_int(st, 2, t->res.exit_status);
	sqlite3_bind_int64(st, 3, step_id);
	return step_done(db, st);
}

int db_step_finish(struct db *db, int64_t step_id, const char *status,
		   const struct step_spec *s, const struct step_totals *t,
		   const char *error_text)
{
	char now[40];
	sqlite3_stmt *st;
	int rc;

	if ((rc = db_run(db, "BEGIN IMMEDIATE")) < 0)
		return rc;
	st = db_prep(db, "UPDATE steps SET status = ?, finished_at = ?, window_s = ?, "
		  "read_ops = ?, write_ops = ?, read_bytes = ?, write_bytes = ?, errors = ?, "
		  "iops = ?, read_iops = ?, write_iops = ?, mbps = ?, lat_mean_us = ?, "
		  "lat_p50_us = ?, lat_p99_us = ?, lat_p999_us = ?, lat_max_us = ?, "
		  "error_text = ?, placement = ? WHERE id = ?");
	if (!st) {
		db_rollback(db);
		return -EIO;
	}
	util_utc_now(now, sizeof(now));
	sqlite3_bind_text(st, 1, status, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, now, -1, SQLITE_TRANSIENT);
	bind_totals(st, s, t);
	sqlite3_bind_text(st, 18, error_text, -1, SQLITE_TRANSIENT);
	if (t->placement[0])
		sqlite3_bind_text(st, 19, t->placement, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 20, step_id);
	rc = step_done(db, st);
	if (!rc && t->lat[0].total)
		rc = insert_hist(db, step_id, "read", &t->lat[0]);
	if (!rc && t->lat[1].total)
		rc = insert_hist(db, step_id, "write", &t->lat[1]);
	if (!rc)
		rc = insert_step_targets(db, step_id, s, t);
	if (!rc)
		rc = finish_extra(db, step_id, s, t);
	if (!rc)
		rc = db_run(db, "COMMIT");
	if (rc)
		db_rollback(db);
	return rc;
}

/* The outcome of this hb.steady that a resume's replay records again: gone,
 * for the new one to take its place. */
static int steady_forget(struct db *db, int64_t run_id, const struct steady_result *r)
{
	sqlite3_stmt *st = db_prep(db, "DELETE FROM steady_state WHERE run_id = ?1 AND name = ?2 "
				   "AND first_step_id IS ?3");

	if (!st)
		return -EIO;
	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_text(st, 2, r->name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 3, r->first_step_id);
	return step_done(db, st);
}

static int steady_add(struct db *db, int64_t run_id, const struct steady_result *r)
{
	sqlite3_stmt *st = db_prep(db,
		"INSERT INTO steady_state (run_id, name, attained, rounds, window_first, "
		"window_last, mean, slope, data_excursion, slope_excursion, max_data_excursion, "
		"max_slope_excursion, track, first_step_id, last_step_id) "
		"VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");

	if (!st)
		return -EIO;
	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_text(st, 2, r->name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(st, 3, r->attained);
	sqlite3_bind_int(st, 4, r->rounds);
	if (r->window_last) {
		sqlite3_bind_int(st, 5, r->window_first);
		sqlite3_bind_int(st, 6, r->window_last);
		sqlite3_bind_double(st, 7, r->mean);
		sqlite3_bind_double(st, 8, r->slope);
		sqlite3_bind_double(st, 9, r->data_excursion);
		sqlite3_bind_double(st, 10, r->slope_excursion);
	}
	sqlite3_bind_double(st, 11, r->max_data_excursion);
	sqlite3_bind_double(st, 12, r->max_slope_excursion);
	sqlite3_bind_text(st, 13, r->track, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 14, r->first_step_id);
	sqlite3_bind_int64(st, 15, r->last_step_id);
	return step_done(db, st);
}

int db_steady_insert(struct db *db, int64_t run_id, const struct steady_result *r)
{
	int rc = db_run(db, "SAVEPOINT steady");	/* both or neither */

	if (rc)
		return rc;
	if (!(rc = steady_forget(db, run_id, r)))
		rc = steady_add(db, run_id, r);
	if (rc)
		sqlite3_exec(db->h, "ROLLBACK TO steady", NULL, NULL, NULL);	/* err stays rc's */
	sqlite3_exec(db->h, "RELEASE steady", NULL, NULL, NULL);
	return rc;
}

static int event_store(struct db *db, const struct db_event_entry *e)
{
	sqlite3_stmt *st = db->ins_event;
	int rc;

	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, e->run_id);
	sqlite3_bind_text(st, 2, e->at, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 3, e->level, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, e->msg, -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : db_fail(db, rc);
}

int db_event_flush(struct db *db)
{
	unsigned done = 0;
	int rc = 0;

	while (done < db->npending && !(rc = event_store(db, &db->pending[done])))
		free(db->pending[done++].msg);
	memmove(db->pending, db->pending + done, (db->npending - done) * sizeof(*db->pending));
	db->npending -= done;
	return rc;
}

int db_event(struct db *db, int64_t run_id, const char *level, const char *msg)
{
	struct db_event_entry e = { .run_id = run_id, .level = level, .msg = (char *)msg };
	struct db_event_entry *p;
	int rc = 0;

	int busy_ms = db->busy_ms;

	util_utc_now(e.at, sizeof(e.at));
	if (busy_ms > DB_STEP_BUSY_MS)	/* a log line never waits long */
		db_set_busy_timeout(db, DB_STEP_BUSY_MS);
	if (db->npending)
		rc = db_event_flush(db);
	if (!rc)
		rc = event_store(db, &e);
	db_set_busy_timeout(db, busy_ms);
	if (!rc)
		return 0;
	if (rc != -EBUSY || db->npending >= DB_MAX_PENDING)
		return rc;
	p = realloc(db->pending, (db->npending + 1) * sizeof(*p));
	if (!p || !(e.msg = strdup(msg))) {
		if (p)
			db->pending = p;
		return -ENOMEM;
	}
	db->pending = p;
	db->pending[db->npending++] = e;
	return rc;
}
