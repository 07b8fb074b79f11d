/* Importing results: one transaction per file, the duplicate check by the
 * file's sha256, and the rows every importer writes (runs, steps, samples,
 * histograms, probes, targets, events). */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "import/import.h"
#include "base/hist.h"
#include "base/jsonpos.h"
#include "base/utf8.h"
#include "base/util.h"

static int imp_verror(struct imp *im, const char *file, unsigned line, unsigned col,
		      const char *fmt, va_list ap)
{
	int n;

	if (im->err[0])		/* the first fault is the one to report */
		return -EINVAL;
	n = snprintf(im->err, sizeof(im->err), "%s:%u:%u: ", file, line, col);
	vsnprintf(im->err + n, sizeof(im->err) - (size_t)n, fmt, ap);
	return -EINVAL;
}

int imp_error(struct imp *im, unsigned line, unsigned col, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = imp_verror(im, im->path, line, col, fmt, ap);
	va_end(ap);
	return rc;
}

int imp_error_in(struct imp *im, const char *file, unsigned line, unsigned col,
		 const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = imp_verror(im, file, line, col, fmt, ap);
	va_end(ap);
	return rc;
}

/* A text file has no NUL byte: the first one found ends the read, so a
 * binary or sparse file is refused after its first block, not read whole. */
static int imp_read_fd(struct imp *im, int fd, const char *path, const char *what,
		       char **text, size_t *len)
{
	size_t cap = 0, n = 0;
	char *buf = NULL, *nul;
	ssize_t got;

	do {
		if (n + 65536 + 1 > cap) {
			char *p = realloc(buf, cap = cap ? cap * 2 : 65536 * 2);

			if (!p) {
				free(buf);
				snprintf(im->err, sizeof(im->err), "cannot read '%s': %s", path,
					 strerror(ENOMEM));
				return -ENOMEM;
			}
			buf = p;
		}
		got = read(fd, buf + n, cap - n - 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			snprintf(im->err, sizeof(im->err), "cannot read '%s': %s", path,
				 strerror(errno));
			free(buf);
			return -EIO;
		}
		nul = memchr(buf + n, '\0', (size_t)got);
		n += (size_t)got;
		if (nul) {
			unsigned line, col;

			buf[n] = '\0';
			jsonpos_linecol(buf, (size_t)(nul - buf), &line, &col);
			imp_error_in(im, path, line, col, "a NUL byte: binary data, not %s", what);
			free(buf);
			return -EINVAL;
		}
	} while (got > 0);
	buf[n] = '\0';
	*text = buf;
	*len = n;
	return 0;
}

int imp_read(struct imp *im, const char *path, const char *what, char **text, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc;
	struct stat st;

	if (fd < 0 || fstat(fd, &st) < 0) {
		snprintf(im->err, sizeof(im->err), "cannot read '%s': %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -EIO;
	}
	if (S_ISDIR(st.st_mode) || S_ISBLK(st.st_mode)) {
		snprintf(im->err, sizeof(im->err), "'%s' is a %s, not %s", path,
			 S_ISDIR(st.st_mode) ? "directory" : "block device", what);
		close(fd);
		return -EISDIR;
	}
	rc = imp_read_fd(im, fd, path, what, text, len);
	close(fd);
	return rc;
}

/* After a JSON value ending at end: where a second one starts (an object at
 * the start of a later line, as when two files are joined or fio's output
 * was appended to twice) and ends; false when none does. */
static bool imp_json_next(const struct imp *im, size_t end, size_t *at, size_t *at_end)
{
	const char *s = im->text + end;

	for (;;) {
		size_t b = strspn(s, " \t\r\n"), off, e = SIZE_MAX;
		const char *what;

		if (s[b] == '{') {
			*at = (size_t)(s + b - im->text);
			jsonpos_check(s + b, im->len - *at, &off, &what, &e);
			*at_end = *at + e;
			return e != SIZE_MAX;
		}
		s = strchr(s + b, '\n');
		if (!s)
			return false;
		s++;
	}
}

/* A fault at im->text + base + at in the JSON of [base, end): where, and
 * in which field when it lies in one. */
static int imp_json_fault(struct imp *im, size_t base, size_t end, size_t at, const char *what)
{
	char path[256];
	unsigned line, col;

	jsonpos_linecol(im->text, base + at, &line, &col);
	if (jsonpos_path(im->text + base, end - base, at, path, sizeof(path)) < 0 || !path[0])
		return imp_error(im, line, col, "%s", what);
	return imp_error(im, line, col, "%s: %s", path, what);
}

/* JSON text is UTF-8 (RFC 8259): bytes that are not would reach every page
 * that shows them (an SVG with one is not XML). */
static int imp_json_utf8(struct imp *im, size_t base)
{
	size_t n = im->len - base, at = utf8_invalid_at(im->text + base, n);
	char what[160];

	if (at == n)
		return 0;
	snprintf(what, sizeof(what), "not UTF-8 (byte 0x%02x), which JSON text is (RFC 8259): "
		 "convert the file to UTF-8", (unsigned char)im->text[base + at]);
	return imp_json_fault(im, base, im->len, at, what);
}

int imp_json_check(struct imp *im, size_t base, size_t *end, size_t second[2])
{
	const char *what;
	size_t off, e = SIZE_MAX;
	unsigned line, col;

	if (imp_json_utf8(im, base) < 0)
		return -EINVAL;
	if (!jsonpos_check(im->text + base, im->len - base, &off, &what, &e)) {
		*end = base + e;
		/* a string that holds what a C string cannot (a NUL cuts a name) */
		off = jsonpos_bad_escape(im->text + base, e, &what);
		return off == e ? 0 : imp_json_fault(im, base, *end, off, what);
	}
	if (e != SIZE_MAX && imp_json_next(im, base + e, &second[0], &second[1])) {
		*end = base + e;
		return 1;
	}
	jsonpos_linecol(im->text, base + off, &line, &col);
	return imp_error(im, line, col, "%s", what);
}

int imp_json_twice(struct imp *im, size_t base, size_t end, const size_t second[2],
		   const char *noun, const char *dup)
{
	unsigned l1, l2, line, col, c;
	bool same = second[1] - second[0] == end - base &&
		    !memcmp(im->text + base, im->text + second[0], end - base);

	jsonpos_linecol(im->text, base, &l1, &c);
	jsonpos_linecol(im->text, end - 1, &l2, &c);
	jsonpos_linecol(im->text, second[0], &line, &col);
	if (same)
		return imp_error(im, line, col, "the %s of lines %u-%u again: the file holds the "
				 "same run twice (import one copy)", noun, l1, l2);
	if (dup)
		return imp_error(im, line, col, "a second %s, with %s again (the first is lines "
				 "%u-%u): the file holds the same run twice", noun, dup, l1, l2);
	return imp_error(im, line, col, "a second %s begins here (the first is lines %u-%u): "
			 "give each its own file", noun, l1, l2);
}

int imp_db_error(struct imp *im)
{
	if (!im->err[0])
		snprintf(im->err, sizeof(im->err), "database '%s': %s", im->db->path,
			 sqlite3_errmsg(im->db->h));
	return -EIO;
}

static int imp_done(struct imp *im, sqlite3_stmt *st)
{
	int rc = st ? sqlite3_step(st) : SQLITE_ERROR;

	if (rc != SQLITE_DONE) {
		imp_db_error(im);
		sqlite3_finalize(st);
		return -EIO;
	}
	sqlite3_finalize(st);
	return 0;
}

static void bind_num(sqlite3_stmt *st, int col, double v)
{
	if (isnan(v))
		sqlite3_bind_null(st, col);
	else
		sqlite3_bind_double(st, col, v);
}

static void bind_int(sqlite3_stmt *st, int col, int64_t v)
{
	if (v < 0)		/* not known */
		sqlite3_bind_null(st, col);
	else
		sqlite3_bind_int64(st, col, v);
}

/* Has a file with this sha256 been imported? Its run in im->err. */
static int imp_check_dup(struct imp *im)
{
	sqlite3_stmt *st = db_prep(im->db, "SELECT id, label FROM runs WHERE source_sha256 = ? "
				   "ORDER BY id LIMIT 1");
	int rc;

	if (!st)
		return imp_db_error(im);
	sqlite3_bind_text(st, 1, im->sha, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		const unsigned char *l = sqlite3_column_text(st, 1);

		snprintf(im->err, sizeof(im->err), "%s: already imported as run %lld '%s'",
			 im->path, (long long)sqlite3_column_int64(st, 0), l ? (const char *)l : "");
		sqlite3_finalize(st);
		return -EEXIST;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : imp_db_error(im);
}

int db_import_file(struct imp *im, imp_fn fn)
{
	int rc;

	if (sqlite3_exec(im->db->h, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
		return imp_db_error(im);
	rc = imp_check_dup(im);
	if (!rc)
		rc = fn(im);
	if (!rc && sqlite3_exec(im->db->h, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
		rc = imp_db_error(im);
	if (rc && !sqlite3_get_autocommit(im->db->h))
		sqlite3_exec(im->db->h, "ROLLBACK", NULL, NULL, NULL);
	return rc;
}

int64_t imp_run_insert(struct imp *im, const struct imp_run *r)
{
	char uuid[37], now[40];
	sqlite3_stmt *st = db_prep(im->db,
		"INSERT INTO runs (uuid, label, plan_path, plan_sha256, plan_text, host, version, "
		"cmdline, started_at, finished_at, status, simulated, source, source_file, "
		"source_sha256) VALUES (?,?,?,?,?,?,?,?,?,?,?,0,?,?,?)");

	if (!st)
		return imp_db_error(im);
	util_uuid(uuid);
	util_utc_now(now, sizeof(now));
	sqlite3_bind_text(st, 1, r->uuid ? r->uuid : uuid, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, r->label, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 3, im->path, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 4, im->sha, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 5, r->plan_text, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 6, r->host, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 7, r->version, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 8, r->cmdline, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 9, r->started_at ? r->started_at : now, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 10, r->finished_at, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 11, r->status ? r->status : "done", -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 12, r->source, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 13, im->path, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 14, im->sha, -1, SQLITE_TRANSIENT);
	if (imp_done(im, st) < 0)
		return -EIO;
	if (!im->nruns++)
		im->first_run = sqlite3_last_insert_rowid(im->db->h);
	return sqlite3_last_insert_rowid(im->db->h);
}

static void bind_step_totals(sqlite3_stmt *st, int c, const struct imp_step *s)
{
	bind_num(st, c++, s->window_s);
	bind_int(st, c++, s->read_ops);
	bind_int(st, c++, s->write_ops);
	bind_int(st, c++, s->read_bytes);
	bind_int(st, c++, s->write_bytes);
	bind_int(st, c++, s->errors);
	bind_num(st, c++, s->iops);
	bind_num(st, c++, s->read_iops);
	bind_num(st, c++, s->write_iops);
	bind_num(st, c++, s->mbps);
	bind_num(st, c++, s->lat_mean);
	bind_num(st, c++, s->lat_p50);
	bind_num(st, c++, s->lat_p99);
	bind_num(st, c++, s->lat_p999);
	bind_num(st, c, s->lat_max);
}

int64_t imp_step_insert(struct imp *im, int64_t run_id, int seq, const struct imp_step *s)
{
	sqlite3_stmt *st = db_prep(im->db,
		"INSERT INTO steps (run_id, seq, kind, name, group_name, params_json, engine, rw, "
		"bs, write_pct, oio, workers, duration_s, ramp_s, status, started_at, finished_at, "
		"error_text, axis, axis_value, window_s, read_ops, write_ops, read_bytes, "
		"write_bytes, errors, iops, read_iops, write_iops, mbps, lat_mean_us, lat_p50_us, "
		"lat_p99_us, lat_p999_us, lat_max_us) VALUES (?,?,'measure',?,?,?,?,?,?,?,?,?,?,?,"
		"?,?,?,?,?,?, ?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");

	if (!st)
		return imp_db_error(im);
	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_int(st, 2, seq);
	sqlite3_bind_text(st, 3, s->name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 4, s->group, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 5, s->params_json ? s->params_json : "{}", -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 6, s->engine, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 7, s->rw, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 8, s->bs, -1, SQLITE_TRANSIENT);
	bind_int(st, 9, s->write_pct);
	bind_int(st, 10, s->oio);
	bind_int(st, 11, s->workers);
	bind_int(st, 12, s->duration_s);
	bind_int(st, 13, s->ramp_s);
	sqlite3_bind_text(st, 14, s->status ? s->status : "done", -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 15, s->started_at, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 16, s->finished_at, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 17, s->error_text, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 18, s->axis, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 19, s->axis_value, -1, SQLITE_TRANSIENT);
	bind_step_totals(st, 20, s);
	if (imp_done(im, st) < 0)
		return -EIO;
	im->nsteps++;
	return sqlite3_last_insert_rowid(im->db->h);
}

int imp_sample_insert(struct imp *im, int64_t step_id, const struct imp_sample *s)
{
	sqlite3_stmt *st = db_prep(im->db,
		"INSERT OR REPLACE INTO samples (step_id, t, ramp, read_ops, write_ops, read_bytes, "
		"write_bytes, errors, read_lat_mean_us, read_lat_p99_us, write_lat_mean_us, "
		"write_lat_p99_us, lat_max_us, occupancy) VALUES (?,?,0,?,?,?,?,?,?,?,?,?,?,?)");

	if (!st)
		return imp_db_error(im);
	sqlite3_bind_int64(st, 1, step_id);
	sqlite3_bind_int64(st, 2, s->t);
	sqlite3_bind_int64(st, 3, s->ops[0]);
	sqlite3_bind_int64(st, 4, s->ops[1]);
	sqlite3_bind_int64(st, 5, s->bytes[0]);
	sqlite3_bind_int64(st, 6, s->bytes[1]);
	sqlite3_bind_int64(st, 7, s->errors);
	bind_num(st, 8, s->lat_mean[0]);
	bind_num(st, 9, s->lat_p99[0]);
	bind_num(st, 10, s->lat_mean[1]);
	bind_num(st, 11, s->lat_p99[1]);
	bind_num(st, 12, s->lat_max);
	bind_num(st, 13, s->occupancy);
	return imp_done(im, st);
}

int imp_hist_insert(struct imp *im, int64_t step_id, const char *dir, const char *counts)
{
	sqlite3_stmt *st = db_prep(im->db, "INSERT INTO histograms (step_id, dir, layout, counts) "
				   "VALUES (?,?,?,?)");

	if (!st)
		return imp_db_error(im);
	sqlite3_bind_int64(st, 1, step_id);
	sqlite3_bind_text(st, 2, dir, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, HIST_LAYOUT, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, counts, -1, SQLITE_TRANSIENT);
	return imp_done(im, st);
}

int imp_probe_insert(struct imp *im, int64_t run_id, const char *target, const char *probe,
		     const char *key, const char *value)
{
	sqlite3_stmt *st = db_prep(im->db, "INSERT INTO probes (run_id, phase, target, probe, "
				   "key, value) VALUES (?,'start',?,?,?,?)");

	if (!st)
		return imp_db_error(im);
	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_text(st, 2, target, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 3, probe, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 4, key, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 5, value, -1, SQLITE_TRANSIENT);
	return imp_done(im, st);
}

int imp_target_insert(struct imp *im, int64_t run_id, const char *path, const char *kind,
		      int64_t size_bytes)
{
	sqlite3_stmt *st = db_prep(im->db, "INSERT OR IGNORE INTO targets (run_id, path, kind, "
				   "size_bytes) VALUES (?,?,?,?)");

	if (!st)
		return imp_db_error(im);
	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_text(st, 2, path, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 3, kind, -1, SQLITE_STATIC);
	bind_int(st, 4, size_bytes);
	return imp_done(im, st);
}

int imp_event_insert(struct imp *im, int64_t run_id, const char *at, const char *level,
		     const char *msg)
{
	sqlite3_stmt *st = db_prep(im->db, "INSERT INTO events (run_id, at, level, message) "
				   "VALUES (?,?,?,?)");

	if (!st)
		return imp_db_error(im);
	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_text(st, 2, at, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 3, level, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, msg, -1, SQLITE_TRANSIENT);
	return imp_done(im, st);
}

int imp_run_end(struct imp *im, int64_t run_id, const char *status, const char *finished_at,
		const char *host)
{
	sqlite3_stmt *st = db_prep(im->db, "UPDATE runs SET status = ?, finished_at = ?, "
				   "host = COALESCE(?, host) WHERE id = ?");

	if (!st)
		return imp_db_error(im);
	sqlite3_bind_text(st, 1, status, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, finished_at, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 3, host, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 4, run_id);
	return imp_done(im, st);
}

int imp_run_planned(struct imp *im, int64_t run_id)
{
	sqlite3_stmt *st = db_prep(im->db, "UPDATE runs SET steps_planned = (SELECT count(*) "
				   "FROM steps WHERE run_id = ?1) WHERE id = ?1");

	if (!st)
		return imp_db_error(im);
	sqlite3_bind_int64(st, 1, run_id);
	return imp_done(im, st);
}

int imp_mark_oio_sweeps(struct imp *im, int64_t run_id)
{
	sqlite3_stmt *st = db_prep(im->db, "UPDATE steps SET axis = 'oio', axis_value = "
		"CAST(oio AS TEXT) WHERE run_id = ?1 AND oio IS NOT NULL AND group_name IN "
		"(SELECT group_name FROM steps WHERE run_id = ?1 GROUP BY group_name, rw, bs, "
		"write_pct HAVING count(DISTINCT oio) > 1)");

	if (!st)
		return imp_db_error(im);
	sqlite3_bind_int64(st, 1, run_id);
	return imp_done(im, st);
}

int imp_step_target_add(struct imp *im, int64_t step_id, const char *path,
			const int64_t counts[5])
{
	sqlite3_stmt *st = db_prep(im->db, "INSERT INTO step_targets (step_id, path, read_ops, "
		"write_ops, read_bytes, write_bytes, errors) VALUES (?,?,?,?,?,?,?) "
		"ON CONFLICT (step_id, path) DO UPDATE SET read_ops = read_ops + excluded.read_ops, "
		"write_ops = write_ops + excluded.write_ops, read_bytes = read_bytes + "
		"excluded.read_bytes, write_bytes = write_bytes + excluded.write_bytes, "
		"errors = errors + excluded.errors");

	if (!st)
		return imp_db_error(im);
	sqlite3_bind_int64(st, 1, step_id);
	sqlite3_bind_text(st, 2, path, -1, SQLITE_TRANSIENT);
	for (int k = 0; k < 5; k++)
		sqlite3_bind_int64(st, 3 + k, counts[k]);
	return imp_done(im, st);
}
