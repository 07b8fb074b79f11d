/* Importing fio's --output-format=json and json+ (read with SQLite's JSON1):
 * one step per job, its json+ latency bins as a histogram, and the interval
 * logs given beside it as per-second samples. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "import/import.h"
#include "import/fio/fio.h"
#include "import/fio/import_fio.h"
#include "import/fio/fiolog.h"
#include "base/hist.h"
#include "base/strbuf.h"
#include "base/utf8.h"
#include "base/util.h"


/* The latency of one direction, in ns: clat, or lat when fio gave its
 * percentiles (lat_percentiles=1); json+ bins re-bucketed into h. */
struct fio_lat {
	double n, mean, min, max, p50, p99, p999;
	const char *src;
};

/* who: "jobs[0] 'qd1' read", for the message. */
static int fio_bins(struct fio *f, const char *path, struct hist **hp, const char *who)
{
	sqlite3_stmt *st = db_prep(f->im->db, "SELECT key, value, type FROM json_each(?1, ?2)");
	struct hist *h;
	int rc;

	if (!st)
		return imp_db_error(f->im);
	sqlite3_bind_text(st, 1, f->json, (int)f->jlen, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, path, -1, SQLITE_TRANSIENT);
	unsigned long long prev = 0;
	bool first = true;

	h = *hp ? *hp : calloc(1, sizeof(*h));
	if (!h) {
		sqlite3_finalize(st);
		return -ENOMEM;
	}
	if (!*hp)
		hist_reset(h);
	*hp = h;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *k = (const char *)sqlite3_column_text(st, 0);
		const char *type = (const char *)sqlite3_column_text(st, 2);
		char *end, sub[1024];
		unsigned long long ns;
		int64_t c = sqlite3_column_int64(st, 1);
		/* an integer past 64 bits reads as a real */
		bool whole = !strcmp(type, "integer") && sqlite3_column_type(st, 1) == SQLITE_INTEGER;

		errno = 0;
		ns = strtoull(k ? k : "", &end, 10);
		if (!k || *end || end == k || *k == '-' || errno || !whole || c < 0 ||
		    (uint64_t)c > INT64_MAX - h->total || (!first && ns <= prev)) {
			char bin[320];

			snprintf(sub, sizeof(sub), "%s.\"%s\"", path, k ? k : "");
			snprintf(bin, sizeof(bin), "%.240s: bin %.40s", who, k ? k : "");
			rc = fio_fault(f, sub, "%s: %s", bin, !whole ? "expected \"nanoseconds\" : "
				       "count, a whole number below 2^63" : c < 0 ? "a negative count" :
				       (uint64_t)c > INT64_MAX - h->total ? "the counts sum past 2^63" :
				       !first && ns <= prev ? "out of order (fio writes its bins "
				       "once each, in ascending nanoseconds)" :
				       "expected \"nanoseconds\" : count");
			sqlite3_finalize(st);
			return rc;
		}
		prev = ns;
		first = false;
		h->counts[hist_index(ns)] += (uint64_t)c;
		h->total += (uint64_t)c;
		h->sum += (uint64_t)c * ns;
		if (ns > h->max)
			h->max = ns;
		if (ns < h->min)
			h->min = ns;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : imp_db_error(f->im);
}

/* A latency (ns): a number, not below 0. */
static int fio_lat_num(struct fio *f, const char *path, bool required, double *out)
{
	int rc = fio_num(f, path, required, out);

	if (rc < 0 || !(*out < 0))
		return rc;
	return fio_fault(f, path, "%s: %s", fio_last_key(path), "a negative latency");
}

static int fio_lat(struct fio *f, const char *dirpath, struct fio_lat *l, struct hist **h,
		   const char *who)
{
	static const char *const pct[] = { "50.000000", "99.000000", "99.900000" };
	double *out[] = { &l->p50, &l->p99, &l->p999 };
	char path[400];
	sqlite3_value *v;
	const char *type;
	int rc;

	snprintf(path, sizeof(path), "%s.lat_ns.percentile", dirpath);
	type = fio_get(f, path, &v);
	l->src = type && !strcmp(type, "object") ? "lat_ns" : "clat_ns";
	snprintf(path, sizeof(path), "%s.%s.N", dirpath, l->src);
	if ((rc = fio_num(f, path, false, &l->n)) < 0)
		return rc;
	if (isnan(l->n) || l->n == 0)
		goto bins;
	snprintf(path, sizeof(path), "%s.%s.mean", dirpath, l->src);
	if ((rc = fio_lat_num(f, path, true, &l->mean)) < 0)
		return rc;
	snprintf(path, sizeof(path), "%s.%s.min", dirpath, l->src);
	if ((rc = fio_lat_num(f, path, false, &l->min)) < 0)
		return rc;
	snprintf(path, sizeof(path), "%s.%s.max", dirpath, l->src);
	if ((rc = fio_lat_num(f, path, true, &l->max)) < 0)
		return rc;
	for (int k = 0; k < 3; k++) {
		snprintf(path, sizeof(path), "%s.%s.percentile.\"%s\"", dirpath, l->src, pct[k]);
		if ((rc = fio_lat_num(f, path, false, out[k])) < 0)
			return rc;
	}
bins:
	snprintf(path, sizeof(path), "%s.%s.bins", dirpath, l->src);
	type = fio_get(f, path, &v);
	if (type && !strcmp(type, "object"))
		return fio_bins(f, path, h, who);
	return 0;
}

/* A count fio writes as an integer (I/Os, bytes, ms) at path: a whole
 * number from lo that fits the database's 64 bits, or a fault naming who
 * ("jobs[0] 'qd1' read") and why (NULL, or "(ms)"). NAN: missing. */
static int fio_count(struct fio *f, const char *path, const char *who, double lo, double v,
		     const char *why)
{
	char what[480], num[64];

	if (isnan(v) || (v >= lo && v == floor(v) && v < 0x1p63))
		return 0;
	snprintf(num, sizeof(num), v == floor(v) && fabs(v) < 1e30 ? "%.0f" : "%.17g", v);
	snprintf(what, sizeof(what), "%s in %s is not a whole number from %.0f to %lld%s%s",
		 num, who, lo, (long long)INT64_MAX, why ? " " : "", why ? why : "");
	return fio_fault(f, path, "%s: %s", fio_last_key(path), what);
}

/* One direction's totals into the step; d: 0 read, 1 write. */
static int fio_dir(struct fio *f, int i, int d, struct fio_job *j, struct fio_lat *l)
{
	static const char *const keys[] = { "total_ios", "io_bytes", "iops", "bw_bytes" };
	double v[4], ms;
	char dirpath[64], path[128], who[240], why[64];
	int rc;

	snprintf(dirpath, sizeof(dirpath), "$.jobs[%d].%s", i, d ? "write" : "read");
	snprintf(who, sizeof(who), "jobs[%d] '%.200s' %s", i, j->name, d ? "write" : "read");
	for (int k = 0; k < 4; k++) {
		snprintf(path, sizeof(path), "%s.%s", dirpath, keys[k]);
		if ((rc = fio_num(f, path, true, &v[k])) < 0)
			return rc;
		if (k < 2 && (rc = fio_count(f, path, who, 0, v[k], NULL)) < 0)
			return rc;
		if (v[k] < 0)
			return fio_fault(f, path, "%s: %s", keys[k], "negative");
	}
	if (d) {
		j->s.write_ops = llround(v[0]);
		j->s.write_bytes = llround(v[1]);
		j->s.write_iops = v[2];
	} else {
		j->s.read_ops = llround(v[0]);
		j->s.read_bytes = llround(v[1]);
		j->s.read_iops = v[2];
	}
	j->s.mbps = (isnan(j->s.mbps) ? 0 : j->s.mbps) + v[3] / 1e6;
	/* the msec fio divides the direction's I/Os by for its IOPS */
	snprintf(path, sizeof(path), "%s.runtime", dirpath);
	snprintf(why, sizeof(why), "(ms: fio timed %.0f I/Os)", v[0]);
	if ((rc = fio_num(f, path, false, &ms)) < 0 ||
	    (rc = fio_count(f, path, who, v[0] > 0, ms, v[0] > 0 ? why : "(ms)")) < 0)
		return rc;
	if (v[0] > 0 && ms > 0 && (isnan(j->s.window_s) || ms / 1000 > j->s.window_s))
		j->s.window_s = ms / 1000;
	j->runtime_ms[d] = ms;
	l->min = NAN;
	if ((rc = fio_lat(f, dirpath, l, &j->h[d], who)) < 0)
		return rc;
	j->lat_min[d] = l->min;
	j->lat_max[d] = isnan(l->min) ? NAN : l->max;
	return fio_check_lat(f, j, dirpath, l->src, isnan(l->n) ? 0 : l->n, v[0], j->h[d]);
}

/* The step's latency: both directions weighted by count; percentiles of a
 * one-direction job are fio's own, of a mixed one from the merged bins. */
static void fio_combine(struct fio_job *j, const struct fio_lat l[2])
{
	double n = 0, sum = 0, max = NAN;
	int only = -1;

	for (int d = 0; d < 2; d++) {
		if (isnan(l[d].n) || l[d].n == 0)
			continue;
		n += l[d].n;
		sum += l[d].n * l[d].mean;
		max = isnan(max) || l[d].max > max ? l[d].max : max;
		only = only == -1 ? d : 2;
	}
	j->s.lat_mean = n ? sum / n / 1000 : NAN;
	j->s.lat_max = max / 1000;
	j->s.lat_p50 = j->s.lat_p99 = j->s.lat_p999 = NAN;
	if (only == 0 || only == 1) {
		j->s.lat_p50 = l[only].p50 / 1000;
		j->s.lat_p99 = l[only].p99 / 1000;
		j->s.lat_p999 = l[only].p999 / 1000;
	} else if (only == 2 && j->h[0] && j->h[1]) {
		struct hist *m = j->h[0];
		struct hist both = *m;

		hist_merge(&both, j->h[1]);
		j->s.lat_p50 = hist_percentile(&both, 50) / 1000;
		j->s.lat_p99 = hist_percentile(&both, 99) / 1000;
		j->s.lat_p999 = hist_percentile(&both, 99.9) / 1000;
	}
}

/* params_json: the job's options as fio printed them, and where from. */
static int fio_params(struct fio *f, int i, struct fio_job *j, const char *src)
{
	sqlite3_stmt *st = db_prep(f->im->db, "SELECT json_object('source', 'fio', 'job', ?3, "
		"'latency', ?4, 'job options', json_extract(?1, ?2), 'global options', "
		"json_extract(?1, '$.\"global options\"'))");
	char path[64];
	int rc;

	if (!st)
		return imp_db_error(f->im);
	snprintf(path, sizeof(path), "$.jobs[%d].\"job options\"", i);
	sqlite3_bind_text(st, 1, f->json, (int)f->jlen, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, path, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 3, j->name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, src, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		j->params = strdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return rc == SQLITE_ROW && j->params ? 0 : imp_db_error(f->im);
}

/* A job that trimmed: hbatest has reads and writes only, and a trim job
 * stored as one would be a step of 0 IOPS that says nothing of why. */
static int fio_no_trims(struct fio *f, int i, const struct fio_job *j)
{
	char path[64], who[240];
	double n;
	int rc;

	snprintf(path, sizeof(path), "$.jobs[%d].trim.total_ios", i);
	if ((rc = fio_num(f, path, false, &n)) < 0)
		return rc;
	snprintf(who, sizeof(who), "jobs[%d] '%.200s'", i, j->name);
	if ((!isnan(n) && n > 0) || strstr(j->rw, "trim"))
		return fio_fault(f, path, "%s: %s", who, "a trim job (hbatest stores reads and "
				 "writes only): leave it out of the file to import the others");
	return 0;
}

static int fio_job(struct fio *f, int i, struct fio_job *j)
{
	struct fio_lat l[2] = { 0 };
	char path[64], who[240];
	double ms, err;
	int rc;

	j->s.iops = j->s.mbps = j->s.window_s = NAN;
	snprintf(path, sizeof(path), "$.jobs[%d].jobname", i);
	if (!fio_str(f, path, j->name, sizeof(j->name)))
		return fio_fault(f, path, "%s: %s", "jobname", "missing, expected a string");
	if ((rc = fio_workload(f, i, j)) < 0)
		return rc;
	for (int d = 0; d < 2; d++)
		if ((rc = fio_dir(f, i, d, j, &l[d])) < 0)
			return rc;
	if ((rc = fio_no_trims(f, i, j)) < 0)
		return rc;
	j->s.iops = j->s.read_iops + j->s.write_iops;
	fio_combine(j, l);
	snprintf(path, sizeof(path), "$.jobs[%d].job_runtime", i);
	snprintf(who, sizeof(who), "jobs[%d] '%.200s'", i, j->name);
	if ((rc = fio_num(f, path, false, &ms)) < 0 ||
	    (rc = fio_count(f, path, who, 0, ms, "(ms)")) < 0)
		return rc;
	j->job_ms = ms;
	if (isnan(j->s.window_s) && !isnan(ms))	/* no I/O: the job's time (its threads' sum) */
		j->s.window_s = ms / 1000 / f->threads[i];
	if (!j->s.duration_s && !isnan(j->s.window_s))
		j->s.duration_s = j->s.window_s < 1 ? 1 : (int)lround(j->s.window_s);
	snprintf(path, sizeof(path), "$.jobs[%d].error", i);
	if ((rc = fio_num(f, path, false, &err)) < 0)
		return rc;
	j->s.errors = 0;
	j->s.status = !isnan(err) && err != 0 ? "failed" : "done";
	j->s.error_text = !isnan(err) && err != 0 ? "fio reported an error for this job" : NULL;
	j->s.name = j->name;
	j->s.rw = j->rw;
	j->s.bs = j->bs;
	j->s.engine = j->engine;
	j->lat_src = l[0].src ? l[0].src : l[1].src ? l[1].src : "clat_ns";
	return fio_params(f, i, j, j->lat_src);
}

/* Jobs that differ only in OIO form a sweep: axis 'oio', grouped by rw and
 * bs (and the mix) as hb.sweep groups them; any other job is its own group. */
static void fio_axes(struct fio_job *jobs, int n)
{
	for (int i = 0; i < n; i++) {
		struct fio_job *a = &jobs[i];
		bool sweep = false;

		for (int k = 0; k < n && !sweep; k++)
			sweep = k != i && !strcmp(a->rw, jobs[k].rw) && !strcmp(a->bs, jobs[k].bs) &&
				a->s.write_pct == jobs[k].s.write_pct && a->s.oio != jobs[k].s.oio;
		if (!sweep) {
			a->s.group = a->name;
			continue;
		}
		if (strstr(a->rw, "rw"))
			snprintf(a->group, sizeof(a->group), "%s bs=%s write_pct=%d", a->rw, a->bs,
				 a->s.write_pct);
		else
			snprintf(a->group, sizeof(a->group), "%s bs=%s", a->rw, a->bs);
		snprintf(a->axis_value, sizeof(a->axis_value), "%d", a->s.oio);
		a->s.group = a->group;
		a->s.axis = "oio";
		a->s.axis_value = a->axis_value;
	}
}

static int fio_store_job(struct fio *f, int64_t run_id, int seq, struct fio_job *j)
{
	int64_t step_id;

	j->s.params_json = j->params;
	step_id = imp_step_insert(f->im, run_id, seq, &j->s);
	if (step_id < 0)
		return -EIO;
	for (int d = 0; d < 2; d++) {
		char *counts = j->h[d] && j->h[d]->total ? hist_to_json(j->h[d]) : NULL;
		int rc = counts ? imp_hist_insert(f->im, step_id, d ? "write" : "read", counts) : 0;

		free(counts);
		if (rc < 0)
			return rc;
	}
	if (fio_targets(f, seq - 1, run_id) < 0)
		return -EIO;
	return fio_samples(f, j, step_id);
}

/* fio may print lines before its JSON (warnings, "note:"): the JSON starts
 * at the first line that starts with '{'. */
static int fio_locate(struct fio *f)
{
	const char *s = f->im->text;
	size_t end, second[2];
	int rc;

	if (!strncmp(s, "\xef\xbb\xbf", 3))	/* a UTF-8 byte order mark, as some editors write */
		s += 3;
	for (;;) {
		size_t b = strspn(s, " \t");

		if (s[b] == '{')
			break;
		s = strchr(s, '\n');
		if (!s)
			return imp_error(f->im, 1, 1, "no JSON object: is this fio's "
					 "--output-format=json output?");
		s++;
	}
	f->base = (size_t)(s - f->im->text);
	f->json = s;
	rc = imp_json_check(f->im, f->base, &end, second);
	if (rc > 0)
		return imp_json_twice(f->im, f->base, end, second, "fio result", NULL);
	f->jlen = end - f->base;
	return rc;
}

static void iso_time(double epoch_ms, char *buf, size_t len)
{
	util_iso8601((time_t)(epoch_ms / 1000), (unsigned)fmod(epoch_ms, 1000) % 1000, buf, len);
}

/* The run's end (timestamp_ms, or timestamp in s) and start (the end less
 * the longest job's elapsed s): 1 with both set, 0 when the file has no
 * time, -EINVAL for a time that is not one since 1970 (to the year 9999). */
static int fio_times(struct fio *f, char *start, char *end, size_t len)
{
	const char *path = "$.timestamp_ms";
	double ms, elapsed = 0, e;
	char at[64], who[240];
	int rc;

	if ((rc = fio_num(f, path, false, &ms)) < 0)
		return rc;
	if (isnan(ms)) {
		path = "$.timestamp";
		if ((rc = fio_num(f, path, false, &ms)) < 0)
			return rc;
		ms *= 1000;
	}
	if (isnan(ms))
		return 0;
	if (ms < 0 || ms > 253402300799999.0)	/* 9999-12-31T23:59:59.999 */
		return fio_fault(f, path, "%s: %s", fio_last_key(path), "not a time since 1970 "
				 "(to the year 9999)");
	for (int i = 0; i < f->njobs; i++) {
		snprintf(at, sizeof(at), "$.jobs[%d].elapsed", i);
		snprintf(who, sizeof(who), "jobs[%d]", i);
		if ((rc = fio_num(f, at, false, &e)) < 0 ||
		    (rc = fio_count(f, at, who, 0, e, "(s)")) < 0)
			return rc;
		if (!isnan(e) && e * 1000 > ms)
			return fio_fault(f, at, "%s: %s", "elapsed", "longer than the time since "
					 "1970 the file's timestamp gives");
		if (!isnan(e) && e > elapsed)
			elapsed = e;
	}
	iso_time(ms, end, len);
	iso_time(ms - elapsed * 1000, start, len);
	return 1;
}

static int fio_run(struct fio *f, struct fio_job *jobs, char *version)
{
	struct imp *im = f->im;
	struct imp_run r = { .source = "fio", .status = "done", .version = version };
	char host[256], start[40], end[40], text[512];
	int64_t run_id;
	int rc;

	if ((rc = fio_times(f, start, end, sizeof(start))) < 0)
		return rc;
	if (rc)
		r.started_at = start, r.finished_at = end;
	if (fio_str(f, "$.jobs[0].hostname", host, sizeof(host)))
		r.host = host;
	snprintf(text, sizeof(text), "fio %s results: %d job%s, imported from %s", version,
		 f->njobs, f->njobs == 1 ? "" : "s", im->path);
	r.plan_text = text;
	r.label = im->label;
	if ((run_id = imp_run_insert(im, &r)) < 0)
		return -EIO;
	if (imp_probe_insert(im, run_id, NULL, "fio", "version", version) < 0 ||
	    (r.host && imp_probe_insert(im, run_id, NULL, "host", "hostname", host) < 0))
		return -EIO;
	for (int i = 0; i < f->njobs; i++)
		if ((rc = fio_store_job(f, run_id, i + 1, &jobs[i])) < 0)
			return rc;
	return imp_run_planned(im, run_id);
}

static int fio_import(struct fio *f)
{
	struct fio_job *jobs;
	sqlite3_value *v;
	const char *type;
	char version[64], label[1024];	/* a name of 255 bytes, each replaced by 3 */
	int rc = 0;

	type = fio_get(f, "$.jobs", &v);
	if (!type)
		return imp_db_error(f->im);
	if (strcmp(type, "array"))
		return fio_fault(f, "$.jobs", "%s: %s", "jobs", "missing, expected fio's jobs array");
	if (!fio_str(f, "$.\"fio version\"", version, sizeof(version)))
		return fio_fault(f, "$", "%s: %s", "fio version", "missing: is this fio's JSON output?");
	{
		sqlite3_stmt *n = db_prep(f->im->db, "SELECT json_array_length(?1, '$.jobs')");

		if (!n)
			return imp_db_error(f->im);
		sqlite3_bind_text(n, 1, f->json, (int)f->jlen, SQLITE_STATIC);
		f->njobs = sqlite3_step(n) == SQLITE_ROW ? sqlite3_column_int(n, 0) : 0;
		sqlite3_finalize(n);
	}
	if (!f->njobs)
		return fio_fault(f, "$.jobs", "%s: %s", "jobs", "empty: fio ran no job");
	if ((rc = fio_job_twice(f)) < 0 || (rc = fio_threads(f)) < 0)
		return rc;
	if (f->im->claim_only)
		return fio_logs(f, NULL);
	jobs = calloc((size_t)f->njobs, sizeof(*jobs));
	if (!jobs)
		return -ENOMEM;
	for (int i = 0; !rc && i < f->njobs; i++)
		rc = fio_job(f, i, &jobs[i]);
	if (!rc)
		rc = fio_logs(f, jobs);
	if (!rc) {
		fio_axes(jobs, f->njobs);
		if (!f->im->label) {	/* the file's name, in UTF-8 as every label is */
			const char *b = strrchr(f->im->path, '/');
			char *name = utf8_replace_invalid(b ? b + 1 : f->im->path,
							  strlen(b ? b + 1 : f->im->path));

			snprintf(label, sizeof(label), "%s", name ? name : "fio");
			free(name);
			f->im->label = label;
		}
		rc = fio_run(f, jobs, version);
	}
	for (int i = 0; i < f->njobs; i++) {
		free(jobs[i].params);
		free(jobs[i].h[0]);
		free(jobs[i].h[1]);
		fiolog_free(&jobs[i].log);
	}
	free(jobs);
	return rc;
}

int db_import_fio(struct imp *im)
{
	struct fio f = { .im = im };
	const char *label = im->label;
	int rc;

	if ((rc = fio_locate(&f)) < 0)
		return rc;
	f.get = db_prep(im->db, "SELECT json_type(?1, ?2), json_extract(?1, ?2)");
	if (!f.get)
		return imp_db_error(im);
	sqlite3_bind_text(f.get, 1, f.json, (int)f.jlen, SQLITE_STATIC);
	rc = fio_import(&f);
	sqlite3_finalize(f.get);
	free(f.threads);
	free(f.first);
	im->label = label;
	return rc;
}

int db_import_fio_claim(struct imp *im)
{
	im->claim_only = true;
	return db_import_fio(im);
}
