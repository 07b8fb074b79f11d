/* The results database's one writer of runs, steps, samples, histograms,
 * targets, probes, events and steady state (the rows: write.h). Every
 * failure leaves its reason in db->err for the caller to report once. */
#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/db.h"
#include "store/write.h"
#include "base/hist.h"
#include "base/log.h"
#include "base/strbuf.h"
#include "base/util.h"

#define DB_MAX_PENDING 1000	/* events kept while the database is busy */

struct db_event_entry {
	int64_t run_id;
	char at[40];
	const char *level;	/* static */
	char *msg;
};

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

int db_write_prepare(struct db *db)
{
	static const char sample_sql[] =
		"INSERT OR REPLACE INTO samples (step_id, t, ramp, read_ops, write_ops, "
		"read_bytes, write_bytes, errors, read_lat_mean_us, read_lat_p99_us, "
		"write_lat_mean_us, write_lat_p99_us, lat_max_us, occupancy, secs, cpu_busy, "
		"host_busy, hosts_json) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
	static const char event_sql[] =
		"INSERT INTO events (run_id, at, level, message) VALUES (?,?,?,?)";

	if (sqlite3_prepare_v2(db->h, sample_sql, -1, &db->ins_sample, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db->h, event_sql, -1, &db->ins_event, NULL) != SQLITE_OK)
		return -EIO;
	return 0;
}

void db_write_close(struct db *db)
{
	if (db->npending && db->h)
		db_event_flush(db);
	for (unsigned i = 0; i < db->npending; i++)
		free(db->pending[i].msg);
	free(db->pending);
	sqlite3_finalize(db->ins_sample);
	sqlite3_finalize(db->ins_event);
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

static void bind_str(sqlite3_stmt *st, int col, const char *s)
{
	sqlite3_bind_text(st, col, s, -1, SQLITE_TRANSIENT);
}

/* < 0: not known, NULL */
static void bind_int(sqlite3_stmt *st, int col, int64_t v)
{
	if (v < 0)
		sqlite3_bind_null(st, col);
	else
		sqlite3_bind_int64(st, col, v);
}

/* NAN: none, NULL */
static void bind_num(sqlite3_stmt *st, int col, double v)
{
	if (isnan(v))
		sqlite3_bind_null(st, col);
	else
		sqlite3_bind_double(st, col, v);
}

int64_t db_run_insert(struct db *db, const struct db_run_row *r)
{
	sqlite3_stmt *st = db_prep(db,
		"INSERT INTO runs (uuid, label, plan_path, plan_sha256, plan_text, host, "
		"version, cmdline, started_at, finished_at, heartbeat_at, status, simulated, pid, "
		"sets_json, targets_json, source, source_file, source_sha256, steps_planned, cwd, "
		"plan_name, notes, build_commit) "
		"VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,NULLIF(?,''))");

	if (!st)
		return -EIO;
	bind_str(st, 1, r->uuid);
	bind_str(st, 2, r->label);
	bind_str(st, 3, r->plan_path);
	bind_str(st, 4, r->plan_sha256);
	bind_str(st, 5, r->plan_text);
	bind_str(st, 6, r->host);
	bind_str(st, 7, r->version);
	bind_str(st, 8, r->cmdline);
	bind_str(st, 9, r->started_at);
	bind_str(st, 10, r->finished_at);
	bind_str(st, 11, r->heartbeat_at);
	bind_str(st, 12, r->status);
	sqlite3_bind_int(st, 13, r->simulated);
	bind_int(st, 14, r->pid);
	bind_str(st, 15, r->sets_json);
	bind_str(st, 16, r->targets_json);
	bind_str(st, 17, r->source);
	bind_str(st, 18, r->source_file);
	bind_str(st, 19, r->source_sha256);
	bind_int(st, 20, r->steps_planned);
	bind_str(st, 21, r->cwd);
	bind_str(st, 22, r->plan_name);
	bind_str(st, 23, r->notes);
	bind_str(st, 24, r->build_commit);
	if (step_done(db, st) < 0)
		return -EIO;
	return sqlite3_last_insert_rowid(db->h);
}

/* A run ends with no step of it still running: a step whose own end could
 * not be stored (the database locked past the busy wait, a full disk) ends
 * with the run, failed, its error text the one it could not store, else
 * that the run ended first. */
static int end_running_steps(struct db *db, int64_t run_id, const struct db_run_end *e)
{
	sqlite3_stmt *st = db_prep(db, "UPDATE steps SET status = 'failed', finished_at = "
				   "COALESCE(finished_at, ?3), error_text = COALESCE(error_text, "
				   "CASE WHEN id = ?4 THEN ?5 END, 'the run ended (' || ?2 || ') "
				   "before this step''s end was stored') WHERE run_id = ?1 AND "
				   "status = 'running'");

	if (!st)
		return -EIO;
	sqlite3_bind_int64(st, 1, run_id);
	bind_str(st, 2, e->status);
	bind_str(st, 3, e->finished_at);
	sqlite3_bind_int64(st, 4, e->lost_step_id);
	bind_str(st, 5, e->lost_step_error);
	return step_done(db, st);
}

static int run_row_end(struct db *db, int64_t run_id, const struct db_run_end *e)
{
	sqlite3_stmt *st = db_prep(db, "UPDATE runs SET status = ?1, finished_at = ?2, "
				"heartbeat_at = COALESCE(?3, heartbeat_at), host = COALESCE(?6, host), "
				"steps_planned = CASE WHEN ?5 THEN (SELECT count(*) FROM steps WHERE "
				"run_id = ?4) ELSE steps_planned END WHERE id = ?4");

	if (!st)
		return -EIO;
	bind_str(st, 1, e->status);
	bind_str(st, 2, e->finished_at);
	bind_str(st, 3, e->heartbeat_at);
	sqlite3_bind_int64(st, 4, run_id);
	sqlite3_bind_int(st, 5, e->count_planned);
	bind_str(st, 6, e->host);
	return step_done(db, st);
}

/* One transaction; inside an import's, a part of it. */
int db_run_end(struct db *db, int64_t run_id, const struct db_run_end *e)
{
	bool own = sqlite3_get_autocommit(db->h);
	int rc = own ? db_run(db, "BEGIN IMMEDIATE") : 0;

	if (!rc && strcmp(e->status, "running"))
		rc = end_running_steps(db, run_id, e);
	if (!rc)
		rc = run_row_end(db, run_id, e);
	if (own && !rc)
		rc = db_run(db, "COMMIT");
	if (own && rc)
		db_rollback(db);
	return rc;
}

int db_run_planned(struct db *db, int64_t run_id)
{
	sqlite3_stmt *st = db_prep(db, "UPDATE runs SET steps_planned = (SELECT count(*) "
				   "FROM steps WHERE run_id = ?1) WHERE id = ?1");

	if (!st)
		return -EIO;
	sqlite3_bind_int64(st, 1, run_id);
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

int db_run_note(struct db *db, int64_t run_id, const char *line, bool unless_known)
{
	sqlite3_stmt *st = db_prep(db, "UPDATE runs SET notes = CASE WHEN notes IS NULL THEN ?2 "
				   "ELSE notes || char(10) || ?2 END WHERE id = ?1 AND NOT (?3 AND "
				   "instr(char(10) || COALESCE(notes, '') || char(10), "
				   "char(10) || ?2 || char(10)) > 0)");

	if (!st)
		return -EIO;
	sqlite3_bind_int64(st, 1, run_id);
	bind_str(st, 2, line);
	sqlite3_bind_int(st, 3, unless_known);
	return step_done(db, st);
}

int db_target_insert(struct db *db, int64_t run_id, const struct db_target_row *t)
{
	sqlite3_stmt *st = db_prep(db, "INSERT OR IGNORE INTO targets (run_id, path, kind, "
				"size_bytes) VALUES (?,?,?,?)");

	if (!st)
		return -EIO;
	sqlite3_bind_int64(st, 1, run_id);
	bind_str(st, 2, t->path);
	sqlite3_bind_text(st, 3, t->kind, -1, SQLITE_STATIC);
	bind_int(st, 4, t->size_bytes);
	return step_done(db, st);
}

/* from column c on: window_s, the counts, rates and latencies */
static void bind_totals(sqlite3_stmt *st, int c, const struct db_step_totals *t)
{
	bind_num(st, c++, t->window_s);	/* a whole number is stored as one */
	bind_int(st, c++, t->read_ops);
	bind_int(st, c++, t->write_ops);
	bind_int(st, c++, t->read_bytes);
	bind_int(st, c++, t->write_bytes);
	bind_int(st, c++, t->errors);
	bind_num(st, c++, t->iops);
	bind_num(st, c++, t->read_iops);
	bind_num(st, c++, t->write_iops);
	bind_num(st, c++, t->mbps);
	bind_num(st, c++, t->lat_mean);
	bind_num(st, c++, t->lat_p50);
	bind_num(st, c++, t->lat_p99);
	bind_num(st, c++, t->lat_p999);
	bind_num(st, c, t->lat_max);
}

int64_t db_step_insert(struct db *db, int64_t run_id, int seq, const struct db_step_row *s)
{
	sqlite3_stmt *st = db_prep(db,
		"INSERT INTO steps (run_id, seq, kind, name, group_name, tags_json, params_json, "
		"engine, rw, bs, write_pct, oio, workers, duration_s, ramp_s, status, started_at, "
		"finished_at, error_text, axis, axis_value, round, passes, on_error, window_s, "
		"read_ops, write_ops, read_bytes, write_bytes, errors, iops, read_iops, write_iops, "
		"mbps, lat_mean_us, lat_p50_us, lat_p99_us, lat_p999_us, lat_max_us) VALUES "
		"(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");

	if (!st)
		return -EIO;
	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_int(st, 2, seq);
	sqlite3_bind_text(st, 3, s->kind, -1, SQLITE_STATIC);
	bind_str(st, 4, s->name);
	bind_str(st, 5, s->group);
	bind_str(st, 6, s->tags_json);
	bind_str(st, 7, s->params_json);
	bind_str(st, 8, s->engine);
	bind_str(st, 9, s->rw);
	bind_str(st, 10, s->bs);
	bind_int(st, 11, s->write_pct);
	bind_int(st, 12, s->oio);
	bind_int(st, 13, s->workers);
	bind_int(st, 14, s->duration_s);
	bind_int(st, 15, s->ramp_s);
	bind_str(st, 16, s->status);
	bind_str(st, 17, s->started_at);
	bind_str(st, 18, s->finished_at);
	bind_str(st, 19, s->error_text);
	bind_str(st, 20, s->axis);
	bind_str(st, 21, s->axis_value);
	bind_int(st, 22, s->round);
	bind_int(st, 23, s->passes);
	bind_str(st, 24, s->on_error);
	bind_totals(st, 25, &s->tot);
	if (step_done(db, st) < 0)
		return -EIO;
	return sqlite3_last_insert_rowid(db->h);
}

int db_sample_insert(struct db *db, int64_t step_id, const struct db_sample_row *s)
{
	sqlite3_stmt *st = db->ins_sample;
	int rc;

	assert(st);		/* prepared as the database opened for writing */
	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, step_id);
	sqlite3_bind_int64(st, 2, s->t);
	sqlite3_bind_int(st, 3, s->ramp);
	sqlite3_bind_int64(st, 4, s->ops[0]);
	sqlite3_bind_int64(st, 5, s->ops[1]);
	sqlite3_bind_int64(st, 6, s->bytes[0]);
	sqlite3_bind_int64(st, 7, s->bytes[1]);
	sqlite3_bind_int64(st, 8, s->errors);
	bind_num(st, 9, s->lat_mean[0]);
	bind_num(st, 10, s->lat_p99[0]);
	bind_num(st, 11, s->lat_mean[1]);
	bind_num(st, 12, s->lat_p99[1]);
	bind_num(st, 13, s->lat_max);
	bind_num(st, 14, s->occupancy);
	sqlite3_bind_double(st, 15, s->secs);
	bind_num(st, 16, s->cpu_measured ? s->cpu_busy : NAN);
	bind_num(st, 17, s->cpu_measured ? s->host_busy : NAN);
	bind_str(st, 18, s->hosts_json);
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : db_fail(db, rc);
}

/* One transaction per batch: usually one second, more after the database
 * was busy. INSERT OR REPLACE: a batch retried after a commit whose outcome
 * was unclear stores the same rows again. */
int db_samples_insert(struct db *db, int64_t step_id, const struct db_sample_row *s,
		      unsigned n)
{
	int rc = db_run(db, "BEGIN IMMEDIATE");

	for (unsigned i = 0; !rc && i < n; i++)
		rc = db_sample_insert(db, step_id, &s[i]);
	if (!rc)
		rc = db_run(db, "COMMIT");
	if (rc)
		db_rollback(db);
	return rc;
}

int db_hist_insert(struct db *db, int64_t step_id, const char *dir, const char *counts,
		   bool replace)
{
	sqlite3_stmt *st = db_prep(db, replace ?
		"INSERT OR REPLACE INTO histograms (step_id, dir, layout, counts) VALUES (?,?,?,?)" :
		"INSERT INTO histograms (step_id, dir, layout, counts) VALUES (?,?,?,?)");

	if (!st)
		return -EIO;
	sqlite3_bind_int64(st, 1, step_id);
	sqlite3_bind_text(st, 2, dir, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, HIST_LAYOUT, -1, SQLITE_STATIC);
	bind_str(st, 4, counts);
	return step_done(db, st);
}

static int hist_store(struct db *db, int64_t step_id, const char *dir, const struct hist *h)
{
	char *json;
	int rc;

	if (!h || !h->total)
		return 0;
	if (!(json = hist_to_json(h))) {
		snprintf(db->err, sizeof(db->err), "out of memory for step %lld's %s histogram",
			 (long long)step_id, dir);
		return -ENOMEM;
	}
	rc = db_hist_insert(db, step_id, dir, json, true);
	free(json);
	return rc;
}

int db_step_target_put(struct db *db, int64_t step_id, const struct db_step_target_row *t,
		       bool add)
{
	sqlite3_stmt *st = db_prep(db, add ?
		"INSERT INTO step_targets (step_id, path, read_ops, write_ops, read_bytes, "
		"write_bytes, errors) VALUES (?,?,?,?,?,?,?) ON CONFLICT (step_id, path) DO UPDATE "
		"SET read_ops = read_ops + excluded.read_ops, write_ops = write_ops + "
		"excluded.write_ops, read_bytes = read_bytes + excluded.read_bytes, write_bytes = "
		"write_bytes + excluded.write_bytes, errors = errors + excluded.errors" :
		"INSERT OR REPLACE INTO step_targets (step_id, path, read_ops, write_ops, "
		"read_bytes, write_bytes, errors) VALUES (?,?,?,?,?,?,?)");

	if (!st)
		return -EIO;
	sqlite3_bind_int64(st, 1, step_id);
	bind_str(st, 2, t->path);
	sqlite3_bind_int64(st, 3, t->read_ops);
	sqlite3_bind_int64(st, 4, t->write_ops);
	sqlite3_bind_int64(st, 5, t->read_bytes);
	sqlite3_bind_int64(st, 6, t->write_bytes);
	sqlite3_bind_int64(st, 7, t->errors);
	return step_done(db, st);
}

int db_mark_oio_sweeps(struct db *db, int64_t run_id)
{
	sqlite3_stmt *st = db_prep(db, "UPDATE steps SET axis = 'oio', axis_value = "
		"CAST(oio AS TEXT) WHERE run_id = ?1 AND oio IS NOT NULL AND group_name IN "
		"(SELECT group_name FROM steps WHERE run_id = ?1 GROUP BY group_name, rw, bs, "
		"write_pct HAVING count(DISTINCT oio) > 1)");

	if (!st)
		return -EIO;
	sqlite3_bind_int64(st, 1, run_id);
	return step_done(db, st);
}

static int finish_extra(struct db *db, int64_t step_id, const struct db_step_end *e)
{
	sqlite3_stmt *st;

	if (!e->exec && !e->fill)
		return 0;
	/* a fill's duration: the seconds it has samples in, the last one part */
	st = db_prep(db, "UPDATE steps SET elapsed_s = ?, exit_status = ?, duration_s = "
		  "CASE WHEN passes IS NOT NULL THEN CAST(window_s AS INTEGER) + "
		  "(window_s > CAST(window_s AS INTEGER)) "
		  "ELSE duration_s END WHERE id = ?");
	if (!st)
		return -EIO;
	if (e->elapsed_s > 0)
		sqlite3_bind_double(st, 1, e->elapsed_s);
	if (e->exec)
		sqlite3_bind_int(st, 2, e->exit_status);
	sqlite3_bind_int64(st, 3, step_id);
	return step_done(db, st);
}

static int finish_row(struct db *db, int64_t step_id, const struct db_step_end *e)
{
	sqlite3_stmt *st = db_prep(db, "UPDATE steps SET status = ?, finished_at = ?, "
		  "error_text = ?, placement = ?, window_s = ?, read_ops = ?, write_ops = ?, "
		  "read_bytes = ?, write_bytes = ?, errors = ?, iops = ?, read_iops = ?, "
		  "write_iops = ?, mbps = ?, lat_mean_us = ?, lat_p50_us = ?, lat_p99_us = ?, "
		  "lat_p999_us = ?, lat_max_us = ?, cpu_busy = ?, host_busy = ?, "
		  "host_bound = ? WHERE id = ?");

	if (!st)
		return -EIO;
	sqlite3_bind_text(st, 1, e->status, -1, SQLITE_STATIC);
	bind_str(st, 2, e->finished_at);
	bind_str(st, 3, e->error_text);
	bind_str(st, 4, e->placement);
	bind_totals(st, 5, &e->tot);
	bind_num(st, 20, e->cpu_busy);
	bind_num(st, 21, e->host_busy);
	if (e->host_bound >= 0)
		sqlite3_bind_int(st, 22, e->host_bound);
	sqlite3_bind_int64(st, 23, step_id);
	return step_done(db, st);
}

int db_step_finish(struct db *db, int64_t step_id, const struct db_step_end *e)
{
	int rc;

	if ((rc = db_run(db, "BEGIN IMMEDIATE")) < 0)
		return rc;
	rc = finish_row(db, step_id, e);
	if (!rc)
		rc = hist_store(db, step_id, "read", e->lat[0]);
	if (!rc)
		rc = hist_store(db, step_id, "write", e->lat[1]);
	for (unsigned i = 0; !rc && i < e->ntargets; i++)
		rc = db_step_target_put(db, step_id, &e->targets[i], false);
	if (!rc)
		rc = finish_extra(db, step_id, e);
	if (!rc)
		rc = db_run(db, "COMMIT");
	if (rc)
		db_rollback(db);
	return rc;
}

/* The outcome of this hb.steady that a resume's replay records again: gone,
 * for the new one to take its place. */
static int steady_forget(struct db *db, int64_t run_id, const struct db_steady_row *r)
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

static int steady_add(struct db *db, int64_t run_id, const struct db_steady_row *r)
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

int db_steady_insert(struct db *db, int64_t run_id, const struct db_steady_row *r)
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

int db_event_insert(struct db *db, int64_t run_id, const struct db_event_row *e)
{
	sqlite3_stmt *st = db->ins_event;
	int rc;

	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_text(st, 2, e->at, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 3, e->level, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, e->msg, -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : db_fail(db, rc);
}

static int event_store(struct db *db, const struct db_event_entry *e)
{
	struct db_event_row row = { e->at, e->level, e->msg };

	return db_event_insert(db, e->run_id, &row);
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

sqlite3_stmt *db_json_row_insert(struct db *db, const char *table, const struct db_json_col *c,
				  unsigned n)
{
	struct strbuf cols = { 0 }, vals = { 0 };
	sqlite3_stmt *st;
	char *sql;

	sb_printf(&cols, "INSERT INTO %s (", table);
	sb_printf(&vals, ") VALUES (");
	if (!strcmp(table, "samples") || !strcmp(table, "step_targets") ||
	    !strcmp(table, "histograms")) {
		sb_printf(&cols, "step_id");
		sb_printf(&vals, "?3");
	} else if (strcmp(table, "runs")) {
		sb_printf(&cols, "run_id");
		sb_printf(&vals, "?2");
		if (!strcmp(table, "steady_state")) {
			sb_printf(&cols, ", first_step_id, last_step_id");
			sb_printf(&vals, ", ?3, ?4");
		} else if (!strcmp(table, "telemetry")) {	/* ?3 NULL: between steps */
			sb_printf(&cols, ", step_id");
			sb_printf(&vals, ", ?3");
		}
	}
	for (unsigned k = 0; k < n; k++) {
		bool first = k == 0 && !strcmp(table, "runs");

		sb_printf(&cols, "%s\"%s\"", first ? "" : ", ", c[k].name);
		if (c[k].dflt[0])
			sb_printf(&vals, "%sCOALESCE(json_extract(?1, '$.\"%s\"'), %s)", first ? "" : ", ",
				  c[k].name, c[k].dflt);
		else
			sb_printf(&vals, "%sjson_extract(?1, '$.\"%s\"')", first ? "" : ", ",
				  c[k].name);
	}
	sb_printf(&vals, ")");
	sb_printf(&cols, "%s", vals.s);
	sb_free(&vals);
	sql = sb_take(&cols);
	st = db_prep(db, sql);
	free(sql);
	return st;
}

/* One sample of the probes (n facts) in one transaction: all or none; 0,
 * -EBUSY (nothing stored: retry), or another -errno. */
int db_telemetry_insert(struct db *db, int64_t run_id, const struct db_telemetry_row *r,
			unsigned n)
{
	sqlite3_stmt *st = db_prep(db, "INSERT INTO telemetry (run_id, step_id, t, at, "
				   "source, key, value, target) VALUES (?,?,?,?,?,?,?,?)");
	int rc = st ? db_run(db, "BEGIN IMMEDIATE") : -EIO;

	for (unsigned i = 0; !rc && i < n; i++) {
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, run_id);
		bind_int(st, 2, r[i].step_id);
		sqlite3_bind_double(st, 3, r[i].t);
		bind_str(st, 4, r[i].at);
		bind_str(st, 5, r[i].source);
		bind_str(st, 6, r[i].key);
		bind_str(st, 7, r[i].value);
		bind_str(st, 8, r[i].target);
		rc = sqlite3_step(st);
		rc = rc == SQLITE_DONE ? 0 : db_fail(db, rc);
	}
	if (st && !rc)
		rc = db_run(db, "COMMIT");
	if (rc)
		db_rollback(db);
	sqlite3_finalize(st);
	return rc;
}
