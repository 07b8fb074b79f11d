/* Resuming a run after Ctrl-C, a crash or SIGKILL. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/log.h"
#include "store/resume.h"
#include "base/sha256.h"
#include "base/util.h"

static char **column_list(struct db *db, const char *sql, int64_t run_id, unsigned *n)
{
	sqlite3_stmt *st;
	char **v = NULL;

	*n = 0;
	if (!(st = db_prep(db, sql)))
		return NULL;
	sqlite3_bind_int64(st, 1, run_id);
	while (sqlite3_step(st) == SQLITE_ROW) {
		char **p = realloc(v, (*n + 1) * sizeof(*v));

		if (!p)
			break;
		v = p;
		v[(*n)++] = strdup((const char *)sqlite3_column_text(st, 0));
	}
	sqlite3_finalize(st);
	return v;
}

/* The run's plan as stored (as typed then); a relative one that is not
 * here, from the folder the run started in (cwd, since schema 6). Its
 * text is checked against the stored sha256 either way. */
static char *stored_plan(const char *plan, const char *cwd)
{
	char *there;

	if (plan[0] == '/' || !cwd || access(plan, F_OK) == 0)
		return strdup(plan);
	there = util_strdup_printf("%s/%s", cwd, plan);
	if (there && access(there, F_OK) == 0)
		return there;
	free(there);
	return strdup(plan);
}

/* plan as given now names the file the run stored as its plan_path (as
 * typed then, in the folder cwd: sig.lua and ./sig.lua are one file, and
 * ../sig.lua from a folder below). Without a stored folder (before schema
 * 6), the text as typed counts too. */
static bool same_plan(const char *stored, const char *cwd, const char *plan)
{
	char a[PATH_MAX], b[PATH_MAX];
	char *there = stored[0] != '/' && cwd ? util_strdup_printf("%s/%s", cwd, stored) : NULL;
	bool same = (!cwd && !strcmp(stored, plan)) ||
		    (realpath(there ? there : stored, a) && realpath(plan, b) && !strcmp(a, b));

	free(there);
	return same;
}

/* The newest run of hbatest's own (not imported) that is not done and whose
 * process is gone, of plan_path when given; a warning names the others that
 * could be resumed too (--resume without RUN took the newest unsaid). */
static int64_t newest_unfinished(struct db *db, const char *plan_path, char *err, size_t len)
{
	sqlite3_stmt *st;
	int64_t id = -ENOENT, live = -1;
	char others[96] = "";
	unsigned nothers = 0;

	st = db_prep(db, "SELECT id, plan_path, status, host, pid, " DB_BEAT_AGE("")
		     ", cwd FROM runs WHERE status != 'done' AND COALESCE(source, 'hbatest') = "
		     "'hbatest' ORDER BY id DESC");
	if (!st) {
		snprintf(err, len, "cannot read database '%s': %s", db->path, db_errmsg(db));
		return -EIO;
	}
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *path = (const char *)sqlite3_column_text(st, 1);
		int64_t row = sqlite3_column_int64(st, 0);

		if (plan_path && (!path || !same_plan(path, (const char *)sqlite3_column_text(st, 6),
						      plan_path)))
			continue;
		if (!strcmp((const char *)sqlite3_column_text(st, 2), "running") &&
		    util_process_state((const char *)sqlite3_column_text(st, 3),
				       sqlite3_column_int64(st, 4), sqlite3_column_double(st, 5)) == 1)
			live = live < 0 ? row : live;	/* not this one */
		else if (id < 0)
			id = row;
		else if (nothers++ < 4)
			snprintf(others + strlen(others), sizeof(others) - strlen(others), "%s%lld",
				 nothers > 1 ? ", " : "", (long long)row);
	}
	sqlite3_finalize(st);
	if (id >= 0 && nothers)
		log_warn("resuming run %lld, the newest unfinished run%s%s; %s %s%s %s unfinished "
			 "too (--resume %s for %s)", (long long)id, plan_path ? " of " : "",
			 plan_path ? plan_path : "", nothers > 1 ? "runs" : "run", others,
			 nothers > 4 ? ", ..." : "", nothers > 1 ? "are" : "is",
			 nothers > 1 ? "RUN" : others, nothers > 1 ? "one of those" : "it");
	if (id < 0) {
		char busy[64] = "";

		if (live >= 0)
			snprintf(busy, sizeof(busy), " (run %lld is still running)", (long long)live);
		snprintf(err, len, "no unfinished run%s%s in '%s' to resume%s", plan_path ? " of " : "",
			 plan_path ? plan_path : "", db->path, busy);
	}
	return id;
}

/* Is the run free to resume: not done, not running in a live process? */
static int check_state(struct db *db, struct resume *r, const char **sha, char *err, size_t len,
		       sqlite3_stmt **keep)
{
	sqlite3_stmt *st;

	st = db_prep(db, "SELECT status, host, pid, plan_path, plan_sha256, uuid, "
		     DB_BEAT_AGE("") ", cwd FROM runs WHERE id = ?");
	if (!st) {
		snprintf(err, len, "cannot read database '%s': %s", db->path, db_errmsg(db));
		return -EIO;
	}
	sqlite3_bind_int64(st, 1, r->run_id);
	if (sqlite3_step(st) != SQLITE_ROW) {
		sqlite3_finalize(st);
		return -ENOENT;
	}
	const char *status = (const char *)sqlite3_column_text(st, 0);
	const char *host = (const char *)sqlite3_column_text(st, 1);
	pid_t pid = (pid_t)sqlite3_column_int64(st, 2);

	if (!strcmp(status, "done")) {
		snprintf(err, len, "run %lld is done: nothing to resume", (long long)r->run_id);
		sqlite3_finalize(st);
		return -EINVAL;
	}
	if (!strcmp(status, "running") &&
	    util_process_state(host, pid, sqlite3_column_double(st, 6)) == 1) {
		snprintf(err, len, "run %lld is still running (pid %d)", (long long)r->run_id, pid);
		sqlite3_finalize(st);
		return -EBUSY;
	}
	snprintf(r->uuid, sizeof(r->uuid), "%s", sqlite3_column_text(st, 5));
	snprintf(r->was_status, sizeof(r->was_status), "%s", status);
	r->was_pid = sqlite3_column_type(st, 2) == SQLITE_NULL ? -1 : pid;
	*sha = (const char *)sqlite3_column_text(st, 4);
	if (!r->plan_path)
		r->plan_path = stored_plan((const char *)sqlite3_column_text(st, 3),
					   (const char *)sqlite3_column_text(st, 7));
	*keep = st;
	return 0;
}

static int load_steps(struct db *db, struct resume *r, char *err, size_t len)
{
	sqlite3_stmt *st;

	st = db_prep(db, "SELECT seq, id, status = 'done', params_json, iops, mbps, "
		     "read_iops, write_iops, lat_mean_us, lat_p50_us, lat_p99_us, lat_p999_us, "
		     "lat_max_us, errors, elapsed_s, exit_status FROM steps WHERE run_id = ? "
		     "ORDER BY seq");
	if (!st) {
		snprintf(err, len, "cannot read the steps of run %lld in '%s': %s",
			 (long long)r->run_id, db->path, db_errmsg(db));
		return -EIO;
	}
	sqlite3_bind_int64(st, 1, r->run_id);
	while (sqlite3_step(st) == SQLITE_ROW) {
		struct resume_step *p = realloc(r->steps, (r->nsteps + 1) * sizeof(*p)), *s;

		if (!p)
			break;
		r->steps = p;
		s = &r->steps[r->nsteps++];
		memset(s, 0, sizeof(*s));
		s->seq = (unsigned)sqlite3_column_int(st, 0);
		s->id = sqlite3_column_int64(st, 1);
		s->done = sqlite3_column_int(st, 2);
		s->params_json = strdup((const char *)sqlite3_column_text(st, 3));
		s->tot.iops = sqlite3_column_double(st, 4);
		s->tot.mbps = sqlite3_column_double(st, 5);
		s->tot.read_iops = sqlite3_column_double(st, 6);
		s->tot.write_iops = sqlite3_column_double(st, 7);
		s->tot.lat_mean = sqlite3_column_double(st, 8);
		s->tot.lat_p50 = sqlite3_column_double(st, 9);
		s->tot.lat_p99 = sqlite3_column_double(st, 10);
		s->tot.lat_p999 = sqlite3_column_double(st, 11);
		s->tot.lat_max = sqlite3_column_double(st, 12);
		s->tot.errors = sqlite3_column_int64(st, 13);
		s->elapsed_s = sqlite3_column_double(st, 14);
		s->exit_status = sqlite3_column_int(st, 15);
	}
	sqlite3_finalize(st);
	return 0;
}

/* A relative file target is relative to the folder the run started in
 * (runs.cwd, since schema 6). From another folder the same name is another
 * file (or none), measured under the same run: refused. A run of an older
 * schema has no folder stored, and the stored folder may have been moved
 * or renamed: then only a target that a done step measured and that is
 * missing here is caught. */
static int check_relative_targets(struct db *db, struct resume *r, char *err, size_t len)
{
	sqlite3_stmt *st;
	char here[PATH_MAX] = "?";
	const char *cwd;
	bool done = false, moved;
	int rc = 0;

	for (unsigned i = 0; i < r->nsteps; i++)
		done |= r->steps[i].done;
	if (!getcwd(here, sizeof(here)))
		snprintf(here, sizeof(here), "?");
	if (!(st = db_prep(db, "SELECT t.path, r.cwd FROM targets t JOIN runs r ON r.id = t.run_id "
			   "WHERE t.run_id = ? AND t.kind = 'file' AND substr(t.path, 1, 1) != '/' "
			   "ORDER BY t.id"))) {
		snprintf(err, len, "cannot read database '%s': %s", db->path, db_errmsg(db));
		return -EIO;
	}
	sqlite3_bind_int64(st, 1, r->run_id);
	while (!rc && sqlite3_step(st) == SQLITE_ROW) {
		const char *path = (const char *)sqlite3_column_text(st, 0);

		cwd = (const char *)sqlite3_column_text(st, 1);
		if (cwd && access(cwd, F_OK) != 0)
			cwd = NULL;	/* the folder itself was moved: judged as before schema 6 */
		moved = cwd && !util_same_dir(cwd, here);
		if (moved) {
			snprintf(err, len, "run %lld started in %s and measures the file '%s' there "
				 "(a path relative to that folder); this is %s, where '%s' would "
				 "be another file: resume it from %s", (long long)r->run_id, cwd,
				 path, here, path, cwd);
			rc = -EXDEV;
		} else if (!cwd && done && access(path, F_OK) != 0) {
			snprintf(err, len, "run %lld measured the file '%s', a path relative to the "
				 "folder it started in, and there is no '%s' in %s: resume it from "
				 "that folder (if this is that folder, the file was removed)",
				 (long long)r->run_id, path, path, here);
			rc = -ENOENT;
		}
	}
	sqlite3_finalize(st);
	return rc;
}

int resume_load(struct db *db, const char *spec, const char *plan_path, bool force,
		struct resume *r, char *err, size_t len)
{
	sqlite3_stmt *st = NULL;
	const char *sha;
	char now_sha[65];
	size_t sz;
	char *text;
	int rc;

	memset(r, 0, sizeof(*r));
	r->run_id = spec ? db_find_run(db, spec, err, len) : newest_unfinished(db, plan_path, err, len);
	if (r->run_id < 0)
		return (int)r->run_id;
	if (plan_path)
		r->plan_path = strdup(plan_path);
	if ((rc = check_state(db, r, &sha, err, len, &st)) < 0)
		return rc;
	text = util_read_file(r->plan_path, &sz);
	if (!text) {
		snprintf(err, len, "cannot read plan '%s' of run %lld: %s", r->plan_path,
			 (long long)r->run_id, strerror(errno));
		sqlite3_finalize(st);
		return -ENOENT;
	}
	sha256_hex(text, sz, now_sha);
	if (strcmp(now_sha, sha) && !force) {
		snprintf(err, len, "plan '%s' changed since run %lld started (sha256 %.12s, now "
			 "%.12s): resume with --force to replay the new text", r->plan_path,
			 (long long)r->run_id, sha, now_sha);
		free(text);
		sqlite3_finalize(st);
		return -EINVAL;
	}
	if (strcmp(now_sha, sha)) {	/* --force: the run will record the new text */
		r->new_text = text;
		snprintf(r->old_sha, sizeof(r->old_sha), "%s", sha);
		snprintf(r->new_sha, sizeof(r->new_sha), "%s", now_sha);
	} else {
		free(text);
	}
	sqlite3_finalize(st);
	r->targets = column_list(db, "SELECT value FROM runs, json_each(runs.targets_json) "
				 "WHERE runs.id = ? ORDER BY json_each.key", r->run_id, &r->ntargets);
	r->sets = column_list(db, "SELECT json_each.key || '=' || json_each.value FROM runs, "
			      "json_each(runs.sets_json) WHERE runs.id = ?", r->run_id, &r->nsets);
	if ((rc = load_steps(db, r, err, len)) < 0)
		return rc;
	return check_relative_targets(db, r, err, len);
}

/* The resume's row, before take_run moves the heartbeat: the run's last
 * sign of life is the latest of its heartbeat (every 10 s), its end, and
 * its steps' starts and ends (a run stopped by a signal ended then; one
 * killed beat, or began its last step, last). */
static int record_resume(struct db *db, struct resume *r, const char *now, const char *host)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db->h, "INSERT INTO resumes (run_id, at, last_seen_at, idle_s, "
			       "was_status, forced, host, pid) SELECT id, ?2, seen, "
			       "(julianday(?2) - julianday(seen)) * 86400, status, ?3, ?4, ?5 FROM "
			       "(SELECT id, status, nullif(max(coalesce(heartbeat_at, ''), "
			       "coalesce(finished_at, ''), started_at, coalesce((SELECT "
			       "max(max(started_at, coalesce(finished_at, ''))) FROM steps WHERE "
			       "run_id = ?1), '')), '') AS seen FROM runs WHERE id = ?1)", -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	sqlite3_bind_int64(st, 1, r->run_id);
	sqlite3_bind_text(st, 2, now, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(st, 3, r->new_text != NULL);
	sqlite3_bind_text(st, 4, host, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 5, getpid());
	rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -EIO;
	sqlite3_finalize(st);
	r->resume_row = rc == 0 ? sqlite3_last_insert_rowid(db->h) : 0;
	return rc;
}

/* The steps the replay kept and the first it ran anew, as they are now. */
static int record_steps(struct db *db, const struct resume *r)
{
	sqlite3_stmt *st;
	int rc;

	if (!r->resume_row)
		return 0;
	if (sqlite3_prepare_v2(db->h, "UPDATE resumes SET steps_kept = ?1, rerun_from = ?2 "
			       "WHERE rowid = ?3", -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	sqlite3_bind_int(st, 1, (int)r->kept);
	if (r->rerun_from)
		sqlite3_bind_int(st, 2, (int)r->rerun_from);
	sqlite3_bind_int64(st, 3, r->resume_row);
	rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -EIO;
	sqlite3_finalize(st);
	return rc;
}

/* The lock that keeps a run to one process is the run's row: taking it is
 * a compare-and-set in one IMMEDIATE transaction (status and pid as
 * resume_load read them), so of two resumes that read the same state only
 * one sees its UPDATE change a row. The winner's pid, alive, then refuses
 * every later resume in check_state. */
static int take_run(struct db *db, struct resume *r)
{
	sqlite3_stmt *st;
	char now[40], host[256] = "";
	int rc;

	util_utc_now(now, sizeof(now));
	gethostname(host, sizeof(host) - 1);
	if ((rc = record_resume(db, r, now, host)) < 0)
		return rc;
	if (sqlite3_prepare_v2(db->h, "UPDATE runs SET status = 'running', finished_at = NULL, "
			       "pid = ?1, host = ?2, heartbeat_at = ?3 "
			       "WHERE id = ?6 AND status = ?7 AND pid IS ?8", -1, &st,
			       NULL) != SQLITE_OK)
		return -EIO;
	sqlite3_bind_int64(st, 1, getpid());
	sqlite3_bind_text(st, 2, host, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 3, now, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 6, r->run_id);
	sqlite3_bind_text(st, 7, r->was_status, -1, SQLITE_STATIC);
	if (r->was_pid >= 0)
		sqlite3_bind_int64(st, 8, r->was_pid);
	rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -EIO;
	sqlite3_finalize(st);
	if (rc == 0 && sqlite3_changes(db->h) != 1)
		rc = -EBUSY;
	return rc;
}

/* Who holds the run now (after take_run lost): its pid, or -1. */
static int64_t holder_pid(struct db *db, int64_t run_id)
{
	sqlite3_stmt *st;
	int64_t pid = -1;

	if (sqlite3_prepare_v2(db->h, "SELECT pid FROM runs WHERE id = ?", -1, &st, NULL) !=
	    SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL)
		pid = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return pid;
}

int resume_reopen(struct db *db, struct resume *r, char *err, size_t len)
{
	int rc;

	if (sqlite3_exec(db->h, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) {
		snprintf(err, len, "cannot lock '%s' to take run %lld: %s", db->path,
			 (long long)r->run_id, sqlite3_errmsg(db->h));
		return -EIO;
	}
	/* hb.steady's outcomes stay: each replaces its own as the plan replays
	 * (db_steady_insert), and those of steps that start over go with them
	 * (delete_from); deleted here, a resume that failed lost them */
	rc = take_run(db, r);
	if (rc == -EBUSY)
		snprintf(err, len, "run %lld was taken by another resume (pid %lld) since this "
			 "one read it: a run is resumed once", (long long)r->run_id,
			 (long long)holder_pid(db, r->run_id));
	else if (rc)
		snprintf(err, len, "cannot take run %lld in '%s': %s", (long long)r->run_id,
			 db->path, sqlite3_errmsg(db->h));
	if (rc || sqlite3_exec(db->h, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
		if (!rc)
			snprintf(err, len, "cannot take run %lld in '%s': %s",
				 (long long)r->run_id, db->path, sqlite3_errmsg(db->h));
		sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
		return rc ? rc : -EIO;
	}
	return 0;
}

int resume_adopt_plan(struct db *db, struct resume *r)
{
	sqlite3_stmt *st;
	int rc;

	if (r->plan_adopted)
		return 0;
	if (sqlite3_prepare_v2(db->h, "UPDATE runs SET plan_text = coalesce(?1, plan_text), "
			       "plan_sha256 = coalesce(?2, plan_sha256), steps_planned = ?3 "
			       "WHERE id = ?4", -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	if (r->new_text) {
		sqlite3_bind_text(st, 1, r->new_text, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, r->new_sha, -1, SQLITE_STATIC);
	}
	sqlite3_bind_int(st, 3, r->steps_planned);
	sqlite3_bind_int64(st, 4, r->run_id);
	rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -EIO;
	sqlite3_finalize(st);
	r->plan_adopted = rc == 0;
	return rc;
}

/* The replay has reached step seq, the first not done earlier: every step
 * before it matched, so the plan as it is now is the run's (resume_adopt_plan),
 * and the unfinished steps from seq on start over. */
static int delete_from(struct db *db, struct resume *r, unsigned seq)
{
	sqlite3_stmt *st;
	int rc;

	if ((rc = resume_adopt_plan(db, r)) < 0)
		return rc;
	/* an hb.steady outcome over steps that start over: recorded anew */
	if (sqlite3_prepare_v2(db->h, "DELETE FROM steady_state WHERE run_id = ?1 AND "
			       "last_step_id IN (SELECT id FROM steps WHERE run_id = ?1 AND "
			       "seq >= ?2)", -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	sqlite3_bind_int64(st, 1, r->run_id);
	sqlite3_bind_int(st, 2, (int)seq);
	rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -EIO;
	sqlite3_finalize(st);
	if (rc)
		return rc;
	if (sqlite3_prepare_v2(db->h, "DELETE FROM steps WHERE run_id = ? AND seq >= ?", -1,
			       &st, NULL) != SQLITE_OK)
		return -EIO;
	sqlite3_bind_int64(st, 1, r->run_id);
	sqlite3_bind_int(st, 2, (int)seq);
	rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -EIO;
	if (!rc && sqlite3_changes(db->h))
		log_info("resume: step %u onwards starts over (%d unfinished step%s removed)",
			 seq, sqlite3_changes(db->h), sqlite3_changes(db->h) == 1 ? "" : "s");
	sqlite3_finalize(st);
	r->truncated = true;
	r->rerun_from = seq;
	if (!rc)
		rc = record_steps(db, r);
	return rc;
}

/* Do two params_json say the same: the same keys with the same values, in
 * whatever order (SQLite parses both)? 1, 0, or -EIO. */
static int params_same(struct db *db, const char *a, const char *b)
{
	sqlite3_stmt *st = db_prep(db, "SELECT NOT EXISTS (SELECT fullkey, type, atom FROM "
				   "json_tree(?1) EXCEPT SELECT fullkey, type, atom FROM json_tree(?2)) "
				   "AND NOT EXISTS (SELECT fullkey, type, atom FROM json_tree(?2) "
				   "EXCEPT SELECT fullkey, type, atom FROM json_tree(?1))");
	int rc;

	if (!st)
		return -EIO;
	sqlite3_bind_text(st, 1, a, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, b, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		rc = sqlite3_column_int(st, 0);
	else if (rc == SQLITE_ERROR && strstr(sqlite3_errmsg(db->h), "malformed JSON"))
		rc = 0;		/* not JSON: not the same step */
	else
		rc = -EIO;
	if (rc < 0)
		snprintf(db->err, sizeof(db->err), "%s", sqlite3_errmsg(db->h));
	sqlite3_finalize(st);
	return rc;
}

/* The first key whose value differs between step parameters a (then) and b
 * (now), with both values, in buf: "io_uring.sqpoll: 0 then, not set
 * now". Empty when it cannot tell. */
static void params_diff(struct db *db, const char *a, const char *b, char *buf, size_t len)
{
	sqlite3_stmt *st = db_prep(db,
		"WITH x(k, v) AS (SELECT fullkey, atom FROM json_tree(?1) WHERE type NOT IN "
		"('object', 'array')), y(k, v) AS (SELECT fullkey, atom FROM json_tree(?2) WHERE "
		"type NOT IN ('object', 'array')), k(k) AS (SELECT k FROM x UNION SELECT k FROM y) "
		"SELECT replace(substr(k.k, 3), '\"', ''), (SELECT v FROM x WHERE x.k = k.k), (SELECT v FROM y WHERE "
		"y.k = k.k) FROM k WHERE (SELECT v FROM x WHERE x.k = k.k) IS NOT (SELECT v FROM y "
		"WHERE y.k = k.k) ORDER BY k.k LIMIT 1");

	buf[0] = '\0';
	if (!st)
		return;
	sqlite3_bind_text(st, 1, a, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, b, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW) {
		const char *then = (const char *)sqlite3_column_text(st, 1);
		const char *now = (const char *)sqlite3_column_text(st, 2);

		snprintf(buf, len, ": %s: %s then, %s now", sqlite3_column_text(st, 0),
			 then ? then : "not set", now ? now : "not set");
	}
	sqlite3_finalize(st);
}

int resume_step(struct db *db, struct resume *r, unsigned seq, const char *name,
		const char *params_json, const struct resume_step **done, char *err, size_t len)
{
	struct resume_step *s = NULL;
	int same;

	if (r->truncated)
		return 0;
	for (unsigned i = 0; i < r->nsteps; i++)
		if (r->steps[i].seq == seq)
			s = &r->steps[i];
	if (!s || !s->done)
		return delete_from(db, r, seq);
	if ((same = params_same(db, s->params_json, params_json)) < 0) {
		snprintf(err, len, "cannot compare step %u with run %lld's in '%s': %s", seq,
			 (long long)r->run_id, db->path, db_errmsg(db));
		return same;
	}
	if (!same) {
		char diff[256];

		record_steps(db, r);	/* the steps kept before it, for show */
		params_diff(db, s->params_json, params_json, diff, sizeof(diff));
		snprintf(err, len, "step %u '%s' is not the step run %lld did there (its "
			 "parameters differ%s): the plan no longer replays the same steps (or "
			 "a default changed between hbatest versions)",
			 seq, name, (long long)r->run_id, diff);
		return -EINVAL;
	}
	*done = s;
	r->kept = seq;
	log_info("step %u %s: done earlier, not run again", seq, name);
	return 1;
}

int resume_check_end(struct db *db, struct resume *r, unsigned last, char *err, size_t len)
{
	sqlite3_stmt *st;
	int n, rc = 0;

	if (r->truncated)	/* the steps from there on started over */
		return 0;
	if (record_steps(db, r) < 0) {	/* every step done earlier kept */
		snprintf(err, len, "cannot record the resume of run %lld in '%s': %s",
			 (long long)r->run_id, db->path, sqlite3_errmsg(db->h));
		return -EIO;
	}
	/* done, or begun and stopped (aborted, failed): either way a step of the
	 * run that the plan no longer has, which a 'done' run would keep */
	st = db_prep(db, "WITH d AS (SELECT seq, name, status FROM steps WHERE run_id = ?1 AND "
		     "seq > ?2 ORDER BY seq) SELECT (SELECT count(*) FROM d), "
		     "(SELECT group_concat(seq || ' ''' || name || '''' || CASE status WHEN 'done' "
		     "THEN '' ELSE ' (' || status || ')' END, ', ') FROM (SELECT * FROM d LIMIT 3))");
	if (!st) {
		snprintf(err, len, "cannot read the steps of run %lld in '%s': %s",
			 (long long)r->run_id, db->path, db_errmsg(db));
		return -EIO;
	}
	sqlite3_bind_int64(st, 1, r->run_id);
	sqlite3_bind_int(st, 2, (int)last);
	if (sqlite3_step(st) != SQLITE_ROW) {
		snprintf(err, len, "cannot read the steps of run %lld in '%s': %s",
			 (long long)r->run_id, db->path, sqlite3_errmsg(db->h));
		rc = -EIO;
	} else if ((n = sqlite3_column_int(st, 0)) > 0) {
		char more[32] = "";

		if (n > 3)
			snprintf(more, sizeof(more), " and %d more", n - 3);
		snprintf(err, len, "the plan now ends after step %u, but run %lld has step%s %s%s "
			 "too: the plan no longer replays the same steps (resume the run with the "
			 "plan it was measured with)", last, (long long)r->run_id, n == 1 ? "" : "s",
			 sqlite3_column_text(st, 1), more);
		rc = -EINVAL;
	}
	sqlite3_finalize(st);
	return rc;
}

void resume_free(struct resume *r)
{
	for (unsigned i = 0; i < r->ntargets; i++)
		free(r->targets[i]);
	for (unsigned i = 0; i < r->nsets; i++)
		free(r->sets[i]);
	for (unsigned i = 0; i < r->nsteps; i++)
		free(r->steps[i].params_json);
	free(r->targets);
	free(r->sets);
	free(r->steps);
	free(r->plan_path);
	free(r->new_text);
	memset(r, 0, sizeof(*r));
}

int resume_history(struct db *db, int64_t run_id, void (*fn)(const char *line, void *arg),
		   void *arg)
{
	sqlite3_stmt *st = db_prep(db, "SELECT name FROM sqlite_master WHERE type = 'view' "
				   "AND name = 'run_resume'");
	bool has;
	int rc;

	if (!st)
		return -EIO;
	has = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	if (!has)	/* a database before schema 8, read as it is */
		return 0;
	if (!(st = db_prep(db, "SELECT summary FROM run_resume WHERE run_id = ?1 ORDER BY at, ord")))
		return -EIO;
	sqlite3_bind_int64(st, 1, run_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		fn((const char *)sqlite3_column_text(st, 0), arg);
	if (rc != SQLITE_DONE)
		snprintf(db->err, sizeof(db->err), "%s", sqlite3_errmsg(db->h));
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -EIO;
}
