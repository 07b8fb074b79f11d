/* fio's interval logs given beside its JSON: matched to their jobs by the
 * thread number in their name and the job's write_*_log option, checked to
 * hold a second an entry, stored as the job's per-second samples. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/import_fio.h"
#include "log.h"
#include "util.h"

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

/* One log into its job. */
static int fio_log_read(struct fio *f, struct fio_job *j, int i, const struct fiolog_name *n,
			const char *path)
{
	unsigned line, col;
	const char *what;
	size_t len;
	char *text;
	int rc;

	if ((rc = fio_log_interval(f, i, j, path)) < 0)
		return rc;
	if ((rc = imp_read(f->im, path, "a fio log", &text, &len)) < 0)
		return rc;
	rc = fiolog_add(&j->log, n->kind, text, &line, &col, &what);
	free(text);
	if (rc)
		return imp_error_in(f->im, path, line, col, "%s", what);
	if (!j->log_of[n->kind])
		j->log_of[n->kind] = path;
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

int fio_logs(struct fio *f, struct fio_job *jobs)
{
	struct imp *im = f->im;
	int rc;

	for (unsigned x = 0; x < im->nextra; x++) {
		struct fiolog_name n;
		int i = fiolog_name_parse(im->extra[x], &n) ? fio_log_job(f, &n) : -1;

		if (i < 0 && im->claim_only)
			continue;
		if (i < 0)
			return imp_error_in(im, im->extra[x], 1, 1, "belongs to no job of '%s'",
					    im->path);
		if (!im->claim_only && (rc = fio_log_read(f, &jobs[i], i, &n, im->extra[x])) < 0)
			return rc;
		im->extra_used[x] = true;
	}
	for (int i = 0; jobs && i < f->njobs; i++) {
		bool any = false;

		for (int k = 0; k < FIOLOG_KINDS; k++)
			any |= jobs[i].log_of[k] != NULL;
		jobs[i].lat_kind = -1;
		if (any && (rc = fio_log_kinds(f, &jobs[i])) < 0)
			return rc;
	}
	return 0;
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
 * neither IOPS nor bandwidth (fio writes no rate entry for a last, partial
 * interval) is not stored: its I/O count is not known, and 0 would be false. */
int fio_samples(struct fio *f, struct fio_job *j, int64_t step_id)
{
	size_t skipped = 0;

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
		if (any && !rate)
			skipped++;
		if (rate && imp_sample_insert(f->im, step_id, &s) < 0)
			return -EIO;
	}
	if (skipped)
		log_warn("fio job '%s': %zu second%s with a latency entry but no IOPS or bandwidth "
			 "entry (fio writes none for a last, partial interval): not stored as "
			 "samples", j->name, skipped, skipped == 1 ? "" : "s");
	return 0;
}
