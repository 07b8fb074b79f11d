/* Importing results: one transaction per file, the duplicate check by the
 * file's sha256, and the rows every importer writes (runs, steps, samples,
 * histograms, probes, targets, events). */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "import/import.h"
#include "store/write.h"
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

/* A store writer's failure (its reason in db->err) into im->err; -EIO. */
static int imp_stored(struct imp *im, int64_t rc)
{
	if (rc >= 0)
		return 0;
	if (!im->err[0])
		snprintf(im->err, sizeof(im->err), "database '%s': %s", im->db->path,
			 db_errmsg(im->db));
	return -EIO;
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
	if (!rc && im->check_only) {
		sqlite3_exec(im->db->h, "ROLLBACK", NULL, NULL, NULL);
		return 0;
	}
	if (!rc && sqlite3_exec(im->db->h, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
		rc = imp_db_error(im);
	if (rc && !sqlite3_get_autocommit(im->db->h))
		sqlite3_exec(im->db->h, "ROLLBACK", NULL, NULL, NULL);
	return rc;
}

int64_t imp_run_insert(struct imp *im, const struct imp_run *r)
{
	char uuid[37], now[40];
	struct db_run_row row = {
		.uuid = r->uuid ? r->uuid : uuid, .label = r->label, .plan_path = im->path,
		.plan_sha256 = im->sha, .plan_text = r->plan_text, .host = r->host,
		.version = r->version, .cmdline = r->cmdline,
		.started_at = r->started_at ? r->started_at : now,
		.finished_at = r->finished_at, .status = r->status ? r->status : "done",
		.pid = -1, .source = r->source, .source_file = im->path,
		.source_sha256 = im->sha, .steps_planned = -1,
	};
	int64_t id;

	util_uuid(uuid);
	util_utc_now(now, sizeof(now));
	if (imp_stored(im, id = db_run_insert(im->db, &row)) < 0)
		return -EIO;
	if (!im->nruns++)
		im->first_run = id;
	return id;
}

int64_t imp_step_insert(struct imp *im, int64_t run_id, int seq, const struct imp_step *s)
{
	struct db_step_row row = {
		.kind = "measure", .name = s->name, .group = s->group,
		.params_json = s->params_json ? s->params_json : "{}", .engine = s->engine,
		.rw = s->rw, .bs = s->bs, .write_pct = s->write_pct, .oio = s->oio,
		.workers = s->workers, .duration_s = s->duration_s, .ramp_s = s->ramp_s,
		.status = s->status ? s->status : "done", .started_at = s->started_at,
		.finished_at = s->finished_at, .error_text = s->error_text, .axis = s->axis,
		.axis_value = s->axis_value, .round = -1, .passes = -1,
		.tot = { s->window_s, s->read_ops, s->write_ops, s->read_bytes, s->write_bytes,
			 s->errors, s->iops, s->read_iops, s->write_iops, s->mbps, s->lat_mean,
			 s->lat_p50, s->lat_p99, s->lat_p999, s->lat_max },
	};
	int64_t id;

	if (imp_stored(im, id = db_step_insert(im->db, run_id, seq, &row)) < 0)
		return -EIO;
	im->nsteps++;
	return id;
}

int imp_sample_insert(struct imp *im, int64_t step_id, const struct imp_sample *s)
{
	struct db_sample_row row = {
		.t = s->t, .secs = 1, .ops = { s->ops[0], s->ops[1] },
		.bytes = { s->bytes[0], s->bytes[1] }, .errors = s->errors,
		.lat_mean = { s->lat_mean[0], s->lat_mean[1] },
		.lat_p99 = { s->lat_p99[0], s->lat_p99[1] }, .lat_max = s->lat_max,
		.occupancy = s->occupancy,
	};

	return imp_stored(im, db_sample_insert(im->db, step_id, &row));
}

int imp_hist_insert(struct imp *im, int64_t step_id, const char *dir, const char *counts)
{
	return imp_stored(im, db_hist_insert(im->db, step_id, dir, counts, false));
}

int imp_probe_insert(struct imp *im, int64_t run_id, const char *target, const char *probe,
		     const char *key, const char *value)
{
	struct db_probe_row row = { "start", target, probe, key, value };

	return imp_stored(im, db_probe_insert(im->db, run_id, &row));
}

int imp_target_insert(struct imp *im, int64_t run_id, const char *path, const char *kind,
		      int64_t size_bytes)
{
	struct db_target_row row = { path, kind, size_bytes };

	return imp_stored(im, db_target_insert(im->db, run_id, &row));
}

int imp_event_insert(struct imp *im, int64_t run_id, const char *at, const char *level,
		     const char *msg)
{
	struct db_event_row row = { at, level, msg };

	return imp_stored(im, db_event_insert(im->db, run_id, &row));
}

int imp_run_end(struct imp *im, int64_t run_id, const char *status, const char *finished_at,
		const char *host)
{
	struct db_run_end e = { .status = status, .finished_at = finished_at, .host = host };

	return imp_stored(im, db_run_end(im->db, run_id, &e));
}

int imp_run_planned(struct imp *im, int64_t run_id)
{
	return imp_stored(im, db_run_planned(im->db, run_id));
}

int imp_mark_oio_sweeps(struct imp *im, int64_t run_id)
{
	return imp_stored(im, db_mark_oio_sweeps(im->db, run_id));
}

int imp_step_target_add(struct imp *im, int64_t step_id, const char *path,
			const int64_t counts[5])
{
	struct db_step_target_row row = { path, counts[0], counts[1], counts[2], counts[3],
					  counts[4] };

	return imp_stored(im, db_step_target_put(im->db, step_id, &row, true));
}
