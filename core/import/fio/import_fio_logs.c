/* fio's interval logs given beside its JSON: matched to their jobs by the
 * thread number in their name and the job's write_*_log option, checked to
 * hold a second an entry, stored as the job's per-second samples. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/fio/import_fio.h"
#include "base/log.h"
#include "base/util.h"

/* The job whose threads include the log's number N and whose option names
 * the log (its value's last path component); -1 when none. */
static int fio_log_job(struct fio *f, const struct fiolog_name *n)
{
	char buf[256];
	const char *v, *base;

	for (int i = 0; i < f->njobs; i++) {
		if ((int)n->job < f->first[i] || (int)n->job >= f->first[i] + f->threads[i])
			continue;
		v = fio_opt(f, i, fiolog_option(n->kind), buf, sizeof(buf), NULL);
		if (!v)
			return -1;
		base = strrchr(v, '/');
		return strcmp(base ? base + 1 : v, n->prefix) ? -1 : i;
	}
	return -1;
}

/* A log is a second's mean only with log_avg_msec=1000: without it fio logs
 * every I/O, with another value another interval. */
static int fio_log_interval(struct fio *f, int i, const struct fio_job *j, const char *path)
{
	char buf[64];
	const char *v = fio_opt(f, i, "log_avg_msec", buf, sizeof(buf), NULL);
	char *end;
	long ms = v ? strtol(v, &end, 10) : 0;

	if (v && (*end || end == v))
		ms = -1;
	if (ms == 1000)
		return 0;
	if (ms == 0)
		return imp_error_in(f->im, path, 1, 1, "job '%s' ran without log_avg_msec, so fio "
				    "logged every I/O, not a mean a second: rerun fio with "
				    "--log_avg_msec=1000", j->name);
	return imp_error_in(f->im, path, 1, 1, "job '%s' logged a mean every %s ms "
			    "(log_avg_msec=%s), not every second: rerun fio with "
			    "--log_avg_msec=1000", j->name, v, v);
}

/* What a log of kind k must fit: the job's directions, its end and, for
 * the latency its samples take, its range in the JSON. The end is a
 * thread's longest time: a direction's runtime (a group's: its slowest
 * thread's), or the job's (job_runtime, over its threads), which holds
 * every phase (a write's verify, whose reads the write's log goes on past
 * its runtime into). */
static double fio_job_end_ms(const struct fio_job *j)
{
	return fmax(fmax(j->runtime_ms[0], j->runtime_ms[1]),
		    j->job_ms / (j->s.workers > 0 ? j->s.workers : 1));
}

static void fio_log_fit(const struct fio_job *j, enum fiolog_kind k, struct fiolog_fit *fit,
			char *who, size_t len)
{
	enum fiolog_kind lat = strcmp(j->lat_src, "lat_ns") ? FIOLOG_CLAT : FIOLOG_LAT;
	int64_t ops[2] = { j->s.read_ops, j->s.write_ops };
	double end = fio_job_end_ms(j);

	snprintf(who, len, "job '%s'", j->name);
	fit->who = who;
	fit->end_ms = !isnan(end) && end < 4e18 ? (long long)end : LLONG_MAX / 2;
	for (int d = 0; d < 2; d++) {
		fit->io[d] = ops[d] > 0;
		fit->lat_min[d] = k == lat ? j->lat_min[d] : NAN;
		fit->lat_max[d] = k == lat ? j->lat_max[d] : NAN;
	}
}

/* One log into its thread's logs th. */
static int fio_log_read(struct fio *f, struct fio_job *j, int i, enum fiolog_kind k,
			const char *path, struct fiolog *th)
{
	struct fiolog_fault e;
	struct fiolog_fit fit;
	char who[300];
	size_t len;
	char *text;
	int rc;

	if ((rc = fio_log_interval(f, i, j, path)) < 0)
		return rc;
	if ((rc = imp_read(f->im, path, "a fio log", &text, &len)) < 0)
		return rc;
	fio_log_fit(j, k, &fit, who, sizeof(who));
	rc = fiolog_add(th, k, text, &fit, &e);
	free(text);
	if (rc)
		return imp_error_in(f->im, path, e.line, e.col, "%s", e.what);
	if (!j->log_of[k])
		j->log_of[k] = path;
	return 0;
}

/* What the job's logs can give: I/Os and bytes from each other with a fixed
 * bs; latency only from the log that times what the step's latency does. */
static int fio_log_kinds(struct fio *f, struct fio_job *j)
{
	bool iops = j->log_of[FIOLOG_IOPS], bw = j->log_of[FIOLOG_BW];
	enum fiolog_kind want = strcmp(j->lat_src, "lat_ns") ? FIOLOG_CLAT : FIOLOG_LAT;
	enum fiolog_kind other = want == FIOLOG_LAT ? FIOLOG_CLAT : FIOLOG_LAT;

	if (!iops && !bw)
		return imp_error_in(f->im, j->log_of[want] ? j->log_of[want] : j->log_of[other] ?
				    j->log_of[other] : j->log_of[FIOLOG_SLAT], 1, 1,
				    "job '%s' has latency logs but no IOPS or bandwidth log, so its "
				    "seconds' I/Os are not known: give its NAME_iops.N.log or "
				    "NAME_bw.N.log too", j->name);
	if (iops != bw && !j->bs_bytes)
		return imp_error_in(f->im, j->log_of[iops ? FIOLOG_IOPS : FIOLOG_BW], 1, 1,
				    "job '%s' has %s log but no %s log, and no fixed bs (bs=%s) "
				    "to tell one from the other: give its NAME_%s.N.log too",
				    j->name, iops ? "an IOPS" : "a bandwidth",
				    iops ? "bandwidth" : "IOPS", j->bs, iops ? "bw" : "iops");
	j->lat_kind = j->log_of[want] ? (int)want : -1;
	if (!j->log_of[want] && j->log_of[other])
		log_warn("'%s' times %s latency, but job '%s''s latency is %s (fio's %s): its "
			 "seconds get no latency; give its NAME_%s.N.log", j->log_of[other],
			 fiolog_kind_name(other), j->name, fiolog_kind_name(want), j->lat_src,
			 fiolog_kind_name(want));
	if (j->log_of[FIOLOG_SLAT])
		log_warn("'%s': submission latency, which hbatest does not store: not used",
			 j->log_of[FIOLOG_SLAT]);
	return 0;
}

/* A thread's IOPS and bandwidth logs: fio writes both in one pass, an
 * entry of each for each second and direction with I/O; where one has an
 * entry and the other none (a line taken out: its bytes would be stored
 * with 0 I/Os), they disagree, but for an entry of no more I/Os than the
 * thread keeps in flight, which may complete between the two. path[k]:
 * the thread's log of kind k. */
static int fio_log_pair(struct fio *f, const struct fio_job *j, const struct fiolog *th,
			const char *const path[FIOLOG_KINDS])
{
	double depth = (double)j->s.oio / (j->s.workers > 0 ? j->s.workers : 1);

	if (!path[FIOLOG_IOPS] || !path[FIOLOG_BW])
		return 0;
	for (size_t t = 0; t < th->nsec; t++) {
		for (int d = 0; d < 2; d++) {
			const struct fiolog_sec *s = &th->sec[t];
			enum fiolog_kind k = s->n[FIOLOG_IOPS][d] ? FIOLOG_IOPS : FIOLOG_BW;
			enum fiolog_kind other = k == FIOLOG_IOPS ? FIOLOG_BW : FIOLOG_IOPS;
			double ios = k == FIOLOG_IOPS ? s->sum[k][d] : j->bs_bytes ?
				     s->sum[k][d] * 1024 / (double)j->bs_bytes : INFINITY;

			if (!s->n[k][d] == !s->n[other][d] || ios <= depth)
				continue;
			return imp_error_in(f->im, path[k], s->line[k][d], 1, "a %s entry for second "
					    "%zu, but '%s' has none for it, though fio writes the two "
					    "logs together: a line taken out of it?", d ? "write" :
					    "read", t, path[other]);
		}
	}
	return 0;
}

/* The logs of job i's thread N (x[k]: the extra of kind k, -1 none) into
 * the job's. */
static int fio_thread_logs(struct fio *f, struct fio_job *j, int i, const int x[FIOLOG_KINDS])
{
	const char *path[FIOLOG_KINDS] = { NULL };
	struct fiolog th = { 0 };
	int rc = 0;

	for (int k = 0; !rc && k < FIOLOG_KINDS; k++) {
		if (x[k] < 0)
			continue;
		path[k] = f->im->extra[x[k]];
		rc = fio_log_read(f, j, i, (enum fiolog_kind)k, path[k], &th);
	}
	if (!rc)
		rc = fio_log_pair(f, j, &th, path);
	if (!rc && fiolog_merge(&j->log, &th) < 0)
		rc = -ENOMEM;
	fiolog_free(&th);
	return rc;
}

/* One direction's I/Os (IOPS log) or bytes (bandwidth log, KiB a second)
 * against the JSON's: above its total they are a log of another run (or one
 * given twice); below, the thread-seconds the log leaves uncovered (fio logs
 * no last, partial interval, and may miss the one before; a verify's reads
 * come after the writes' seconds, unlogged) could not hold the rest even at
 * twice the log's busiest second or the direction's mean rate. 1% and a
 * unit an entry cover fio's rounding. */
static int fio_log_total(struct fio *f, const struct fio_job *j, enum fiolog_kind k, int d)
{
	const struct fiolog *l = &j->log;
	double unit = k == FIOLOG_BW ? 1024 : 1, n = l->entries[k][d];
	double want = (double)(k == FIOLOG_BW ? (d ? j->s.write_bytes : j->s.read_bytes) :
			       (d ? j->s.write_ops : j->s.read_ops));
	double got = l->total[k][d] * unit, job_s = j->s.workers * j->runtime_ms[d] / 1000;
	double gap = fmax(0, j->s.workers * fio_job_end_ms(j) / 1000 - l->seconds[k]);
	double busiest, reach;
	const char *what = k == FIOLOG_BW ? "bytes" : "I/Os", *dir = d ? "write" : "read";
	const char *key = k == FIOLOG_BW ? "io_bytes" : "total_ios";

	if (want <= 0)		/* its entries were refused line by line */
		return 0;
	if (got > want * 1.01 + n * unit)
		return imp_error_in(f->im, j->log_of[k], 1, 1, "its %s entries come to %.0f %s, "
				    "more than job '%s''s %.0f (%s %s in its JSON): a log of another "
				    "run, or given twice?", dir, got, what, j->name, want, dir, key);
	if (isnan(job_s) || isnan(gap) || job_s <= 0)
		return 0;
	busiest = fmax(l->max[k][d] * unit, want / job_s);
	reach = got + 2 * busiest * gap + want * 0.01 + n * unit;
	if (reach >= want)
		return 0;
	return imp_error_in(f->im, j->log_of[k], 1, 1, "its %s entries come to %.0f %s in %u "
			    "s, where job '%s' did %.0f in %.3f s (%s %s in its JSON): more than "
			    "the seconds it leaves out can hold; a log of another run?", dir, got,
			    what, l->seconds[k], j->name, want, job_s, dir, key);
}

/* A job's logs: of each kind, its threads' all or none (some would make its
 * seconds a part of the job's), their totals the JSON's within rounding. */
static int fio_job_logs(struct fio *f, struct fio_job *j, int i, const int *job_of,
			const struct fiolog_name *names)
{
	unsigned nth[FIOLOG_KINDS] = { 0 };
	int rc = 0;

	for (int n = f->first[i]; !rc && n < f->first[i] + f->threads[i]; n++) {
		int x[FIOLOG_KINDS] = { -1, -1, -1, -1, -1 };
		bool any = false;

		for (unsigned e = 0; e < f->im->nextra; e++) {
			if (job_of[e] != i || (int)names[e].job != n)
				continue;
			if (x[names[e].kind] >= 0) {
				const char *prev = f->im->extra[x[names[e].kind]];
				bool same = !strcmp(prev, f->im->extra[e]);

				return imp_error_in(f->im, f->im->extra[e], 1, 1, "job '%s''s %s log "
						    "of thread %d is given twice%s%s%s", j->name,
						    fiolog_kind_name(names[e].kind), n,
						    same ? "" : " (and as '", same ? "" : prev,
						    same ? "" : "')");
			}
			x[names[e].kind] = (int)e;
			nth[names[e].kind]++;
			any = true;
		}
		if (any)
			rc = fio_thread_logs(f, j, i, x);
	}
	for (int k = 0; !rc && k < FIOLOG_KINDS; k++)
		if (nth[k] && nth[k] < (unsigned)f->threads[i])
			return imp_error_in(f->im, j->log_of[k], 1, 1, "job '%s' ran %d threads "
					    "(numjobs with group_reporting), but %u of its %s logs are "
					    "given: give NAME_%s.N.log of each (N %d to %d)", j->name,
					    f->threads[i], nth[k], fiolog_kind_name((enum fiolog_kind)k),
					    fiolog_kind_name((enum fiolog_kind)k), f->first[i],
					    f->first[i] + f->threads[i] - 1);
	for (int k = FIOLOG_IOPS; !rc && k <= FIOLOG_BW; k++)
		for (int d = 0; !rc && d < 2 && j->log_of[k]; d++)
			rc = fio_log_total(f, j, (enum fiolog_kind)k, d);
	return rc;
}

int fio_logs(struct fio *f, struct fio_job *jobs)
{
	struct imp *im = f->im;
	struct fiolog_name *names = calloc(im->nextra + 1, sizeof(*names));
	int *job_of = calloc(im->nextra + 1, sizeof(int));
	int rc = names && job_of ? 0 : -ENOMEM;

	for (unsigned x = 0; !rc && x < im->nextra; x++) {
		job_of[x] = fiolog_name_parse(im->extra[x], &names[x]) ?
			    fio_log_job(f, &names[x]) : -1;
		if (job_of[x] < 0 && !im->claim_only)
			rc = imp_error_in(im, im->extra[x], 1, 1, "belongs to no job of '%s'",
					  im->path);
		im->extra_used[x] = job_of[x] >= 0;
	}
	for (int i = 0; !rc && jobs && i < f->njobs; i++) {
		bool any = false;

		rc = fio_job_logs(f, &jobs[i], i, job_of, names);
		for (int k = 0; k < FIOLOG_KINDS; k++)
			any |= jobs[i].log_of[k] != NULL;
		jobs[i].lat_kind = -1;
		if (!rc && any)
			rc = fio_log_kinds(f, &jobs[i]);
	}
	free(names);
	free(job_of);
	return rc;
}

/* One direction of second t: I/Os from the IOPS log, bytes from the
 * bandwidth log (KiB/s), each from the other with a fixed bs when its own
 * log was not given; true when it had either. */
static bool fio_rate(const struct fio_job *j, size_t t, int d, struct imp_sample *s)
{
	double v;
	bool ops = fiolog_value(&j->log, t, FIOLOG_IOPS, d, &v);

	if (ops)
		s->ops[d] = llround(v);
	if (fiolog_value(&j->log, t, FIOLOG_BW, d, &v)) {
		s->bytes[d] = llround(v * 1024);
		if (!j->log_of[FIOLOG_IOPS])
			s->ops[d] = llround((double)s->bytes[d] / (double)j->bs_bytes);
		return true;
	}
	if (ops && !j->log_of[FIOLOG_BW])
		s->bytes[d] = s->ops[d] * (int64_t)j->bs_bytes;
	return ops;
}

/* A job's log seconds as samples, latency from the log that times what the
 * step's does (ns), occupancy by Little's law. A second with latency but
 * neither IOPS nor bandwidth is not stored: its I/O count is not known, and
 * 0 would be false. fio writes such seconds at the job's end (no rate entry
 * for its last, partial interval; a latency entry for it, and another at
 * the same millisecond as it ends): said at -v only, as every import of
 * the logs docs/import.md shows fio making has them. One before the end is
 * a gap in the rate logs: a warning. */
int fio_samples(struct fio *f, struct fio_job *j, int64_t step_id)
{
	size_t skipped = 0, tail = 0;
	int64_t last = (int64_t)(fio_job_end_ms(j) / 1000) - 1;	/* the partial second */

	for (size_t t = 0; t < j->log.nsec; t++) {
		struct imp_sample s = { .t = (int64_t)t, .lat_max = NAN, .occupancy = NAN };
		bool rate = false, any = false;
		double v, occ = 0;

		for (int d = 0; d < 2; d++) {
			s.lat_mean[d] = s.lat_p99[d] = NAN;
			rate |= fio_rate(j, t, d, &s);
			if (j->lat_kind >= 0 &&
			    fiolog_value(&j->log, t, (enum fiolog_kind)j->lat_kind, d, &v)) {
				s.lat_mean[d] = v / 1000, any = true;
				occ += (double)s.ops[d] * s.lat_mean[d] / 1e6;
			}
		}
		if (occ > 0)
			s.occupancy = occ;
		if (any && !rate && (int64_t)t >= last)
			tail++;
		else if (any && !rate)
			skipped++;
		if (rate && imp_sample_insert(f->im, step_id, &s) < 0)
			return -EIO;
	}
	if (skipped)
		log_warn("fio job '%s': %zu second%s before its end with a latency entry but no "
			 "IOPS or bandwidth entry (a rate log cut short?): not stored as samples",
			 j->name, skipped, skipped == 1 ? "" : "s");
	if (tail)
		log_debug("fio job '%s': its last, partial second has a latency entry but no rate "
			  "entry (fio writes none for it): not a sample", j->name);
	return 0;
}
