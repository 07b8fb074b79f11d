/* A fio job's options as the step's workload: rw, bs, iodepth x numjobs
 * (grouped or not), runtime and ramp_time, and its targets (filename). */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/fio/import_fio.h"
#include "base/util.h"

/* A whole-number option from lo to hi, or def when not given; -EINVAL
 * names the job and the value (fio would have refused it too). */
static int opt_int(struct fio *f, int i, const struct fio_job *j, const char *name, long lo,
		   long hi, long def, long *out)
{
	char buf[64], path[320], what[400];
	char *end;
	long v;

	*out = def;
	if (!fio_opt(f, i, name, buf, sizeof(buf), NULL))
		return 0;
	errno = 0;
	v = strtol(buf, &end, 10);
	if (!errno && end != buf && !*end && v >= lo && v <= hi) {
		*out = v;
		return 0;
	}
	fio_opt_path(f, i, name, path, sizeof(path));
	snprintf(what, sizeof(what), "'%.64s' in jobs[%d] '%.200s' is not a whole number "
		 "from %ld to %ld", buf, i, j->name, lo, hi);
	return fio_fault(f, path, "%s: %s", name, what);
}

/* fio's time options ("30", "30s", "2m", "1h", "500ms"; seconds when
 * bare) as whole seconds, rounded, into *out; -EINVAL naming the job and the
 * value when the option is not such a time of at most INT_MAX s. */
static int opt_time(struct fio *f, int i, const struct fio_job *j, const char *name, int *out)
{
	static const struct { const char *unit; double s; } units[] = {
		{ "", 1 }, { "s", 1 }, { "sec", 1 }, { "m", 60 }, { "min", 60 }, { "h", 3600 },
		{ "hour", 3600 }, { "d", 86400 }, { "day", 86400 }, { "ms", 1e-3 },
		{ "msec", 1e-3 }, { "us", 1e-6 }, { "usec", 1e-6 },
	};
	char buf[64], path[320], what[400];
	char *end;
	double v;

	*out = 0;
	if (!fio_opt(f, i, name, buf, sizeof(buf), NULL))
		return 0;
	v = isdigit((unsigned char)buf[0]) ? strtod(buf, &end) : NAN;
	for (size_t u = 0; !isnan(v) && u < ARRAY_SIZE(units); u++) {
		if (strcmp(end, units[u].unit))
			continue;
		v = round(v * units[u].s);
		if (v <= INT_MAX) {
			*out = (int)v;
			return 0;
		}
		break;
	}
	fio_opt_path(f, i, name, path, sizeof(path));
	snprintf(what, sizeof(what), "'%.64s' in jobs[%d] '%.200s' is not a time of at most "
		 "%d s (30, 30s, 2m, 1h, 500ms)", buf, i, j->name, INT_MAX);
	return fio_fault(f, path, "%s: %s", name, what);
}

/* fio 3.33 writes no group_reporting into its JSON: a grouped job is one
 * jobs[] entry for its numjobs threads, where ungrouped ones are numjobs
 * entries of one name in one group. */
int fio_threads(struct fio *f)
{
	sqlite3_stmt *st = db_prep(f->im->db, "SELECT count(*) FROM json_each(?1, '$.jobs') "
		"WHERE json_extract(value, '$.jobname') IS json_extract(?1, ?2 || '.jobname') "
		"AND json_extract(value, '$.groupid') IS json_extract(?1, ?2 || '.groupid')");
	int next = 1;

	if (!st)
		return imp_db_error(f->im);
	f->threads = calloc((size_t)f->njobs, sizeof(int));
	f->first = calloc((size_t)f->njobs, sizeof(int));
	if (!f->threads || !f->first) {
		sqlite3_finalize(st);
		return -ENOMEM;
	}
	sqlite3_bind_text(st, 1, f->json, (int)f->jlen, SQLITE_STATIC);
	for (int i = 0; i < f->njobs; i++) {
		char buf[64], path[32];
		long nj = 1;
		int same = 0;

		if (fio_opt(f, i, "numjobs", buf, sizeof(buf), NULL))
			nj = strtol(buf, NULL, 10);
		snprintf(path, sizeof(path), "$.jobs[%d]", i);
		sqlite3_reset(st);
		sqlite3_bind_text(st, 2, path, -1, SQLITE_TRANSIENT);
		if (sqlite3_step(st) == SQLITE_ROW)
			same = sqlite3_column_int(st, 0);
		f->threads[i] = nj > 1 && nj <= FIO_MAX_THREADS && same < nj ? (int)nj : 1;
		if (next > INT_MAX - f->threads[i]) {	/* jobs past fio's own limit */
			sqlite3_finalize(st);
			return fio_fault(f, path, "%s: %s", "jobs", "more threads than fio runs");
		}
		f->first[i] = next;
		next += f->threads[i];
	}
	sqlite3_finalize(st);
	return 0;
}

/* A fixed block size: bs (or blocksize) one size, no range or split. */
static uint64_t opt_fixed_bs(struct fio *f, int i, const char *bs)
{
	static const char *const varied[] = { "bsrange", "blocksize_range", "bssplit",
					      "read_bs", "write_bs" };
	char buf[64];
	uint64_t v;

	for (size_t k = 0; k < ARRAY_SIZE(varied); k++)
		if (fio_opt(f, i, varied[k], buf, sizeof(buf), NULL))
			return 0;
	return util_parse_size(bs, &v) || !v ? 0 : v;
}

/* bs as fio takes it: a size of at least one byte, or sizes for reads,
 * writes (and trims) split at ',', where an empty one keeps fio's default. */
static int opt_bs(struct fio *f, int i, const struct fio_job *j, const char *name)
{
	char path[320], what[400];
	const char *p = j->bs;
	unsigned parts = 0, sizes = 0;

	for (;;) {
		char one[64];
		size_t len = strcspn(p, ",");
		uint64_t v;

		snprintf(one, sizeof(one), "%.*s", (int)len, p);
		if (len && (util_parse_size(one, &v) || !v))
			break;
		sizes += len > 0;
		parts++;
		if (!p[len]) {
			if (sizes && parts <= 3)
				return 0;
			break;
		}
		p += len + 1;
	}
	fio_opt_path(f, i, name, path, sizeof(path));
	snprintf(what, sizeof(what), "'%.64s' in jobs[%d] '%.200s' is not a block size of at "
		 "least 1 byte (512, 4k, 1m; reads,writes: 4k,64k)", j->bs, i, j->name);
	return fio_fault(f, path, "%s: %s", name, what);
}

int fio_workload(struct fio *f, int i, struct fio_job *j)
{
	const char *bs_key = "bs";
	uint64_t bs;
	long mix, depth, nj;
	int rc;

	if (!fio_opt(f, i, "rw", j->rw, sizeof(j->rw), NULL))
		fio_opt(f, i, "readwrite", j->rw, sizeof(j->rw), "read");
	if (!strcmp(j->rw, "readwrite"))
		snprintf(j->rw, sizeof(j->rw), "rw");
	if (!fio_opt(f, i, "bs", j->bs, sizeof(j->bs), NULL) &&
	    fio_opt(f, i, "blocksize", j->bs, sizeof(j->bs), "4k"))
		bs_key = "blocksize";
	if ((rc = opt_bs(f, i, j, bs_key)) < 0)
		return rc;
	j->bs_bytes = opt_fixed_bs(f, i, j->bs);
	if (!util_parse_size(j->bs, &bs))
		util_format_size(bs, j->bs, sizeof(j->bs));
	fio_opt(f, i, "ioengine", j->engine, sizeof(j->engine), "psync");
	if ((rc = opt_int(f, i, j, "rwmixwrite", 0, 100, -1, &mix)) < 0)
		return rc;
	if (mix < 0 && (rc = opt_int(f, i, j, "rwmixread", 0, 100, 50, &mix)) == 0)
		mix = 100 - mix;
	if (rc < 0)
		return rc;
	j->s.write_pct = strstr(j->rw, "rw") ? (int)mix : strstr(j->rw, "write") ? 100 : 0;
	j->s.workers = f->threads[i];
	/* fio runs at most 4096 threads (REAL_MAX_JOBS) */
	if ((rc = opt_int(f, i, j, "numjobs", 1, FIO_MAX_THREADS, 1, &nj)) < 0)
		return rc;
	if ((rc = opt_int(f, i, j, "iodepth", 1, INT_MAX / j->s.workers, 1, &depth)) < 0)
		return rc;
	j->s.oio = (int)depth * j->s.workers;
	if ((rc = opt_time(f, i, j, "runtime", &j->s.duration_s)) < 0)
		return rc;
	return opt_time(f, i, j, "ramp_time", &j->s.ramp_s);
}

/* The next name of fio's filename list from *p: split at ':', as fio does,
 * but for "\:" (a ':' in a name); *p moves past its separator. false at the
 * list's end. */
static bool next_name(const char **p, char *one, size_t len)
{
	size_t n = 0;

	if (!**p)
		return false;
	for (; **p && **p != ':'; (*p)++) {
		if (**p == '\\' && (*p)[1] == ':')
			(*p)++;
		if (n + 1 < len)
			one[n++] = **p;
	}
	if (**p)
		(*p)++;
	one[n] = '\0';
	return true;
}

/* fio's filename: its targets. The size each is known by: filesize when the
 * job gives one value, else size divided between the files, as fio divides
 * it (a range, a percentage or neither: unknown). */
int fio_targets(struct fio *f, int i, int64_t run_id)
{
	char fname[4096], one[4096], sz[64];
	const char *p;
	uint64_t size;
	int64_t known = -1;
	unsigned count = 0;

	if (!fio_opt(f, i, "filename", fname, sizeof(fname), NULL))
		return 0;
	for (p = fname; next_name(&p, one, sizeof(one));)
		count += one[0] != '\0';
	if (fio_opt(f, i, "filesize", sz, sizeof(sz), NULL)) {
		if (!util_parse_size(sz, &size))
			known = (int64_t)size;
	} else if (count && fio_opt(f, i, "size", sz, sizeof(sz), NULL) &&
		   !util_parse_size(sz, &size)) {
		known = (int64_t)(size / count);
	}
	for (p = fname; next_name(&p, one, sizeof(one));)
		if (one[0] && imp_target_insert(f->im, run_id, one, !strncmp(one, "/dev/", 5) ?
						"block" : "file", known) < 0)
			return -EIO;
	return 0;
}
