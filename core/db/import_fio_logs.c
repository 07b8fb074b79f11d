/* fio's interval logs given beside its JSON: matched to their jobs by the
 * job number in their name and the job's write_*_log option, stored as the
 * job's per-second samples. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/import_fio.h"
#include "log.h"
#include "util.h"

/* The job option that names a log: its value's last path component. */
static bool fio_log_matches(struct fio *f, const struct fiolog_name *n)
{
	char buf[256];
	const char *v, *base;

	if ((int)n->job > f->njobs)
		return false;
	v = fio_opt(f, (int)n->job - 1, fiolog_option(n->kind), buf, sizeof(buf), NULL);
	if (!v)
		return false;
	base = strrchr(v, '/');
	return !strcmp(base ? base + 1 : v, n->prefix);
}

/* Read the logs given beside the JSON into their jobs. */
int fio_logs(struct fio *f, struct fio_job *jobs)
{
	struct imp *im = f->im;

	for (unsigned x = 0; x < im->nextra; x++) {
		struct fiolog_name n;
		unsigned line, col;
		const char *what;
		size_t len;
		char *text;
		int rc;

		if (!fiolog_name_parse(im->extra[x], &n) || !fio_log_matches(f, &n))
			continue;
		if ((rc = imp_read(im, im->extra[x], "a fio log", &text, &len)) < 0)
			return rc;
		rc = fiolog_add(&jobs[n.job - 1].log, n.kind, text, &line, &col, &what);
		free(text);
		if (rc)
			return imp_error_in(im, im->extra[x], line, col, "%s", what);
		jobs[n.job - 1].has_log = true;
		im->extra_used[x] = true;
	}
	return 0;
}

/* A job's log seconds as samples: operations from the IOPS log, bytes from
 * the bandwidth log (KiB/s), latency from the lat (or clat) log (ns). A
 * second with latency but neither IOPS nor bandwidth (fio writes no rate
 * entry for a last, partial interval) is not stored: its I/O count is not
 * known, and 0 would be false. */
int fio_samples(struct fio *f, struct fio_job *j, int64_t step_id)
{
	size_t skipped = 0;

	for (size_t t = 0; t < j->log.nsec; t++) {
		struct imp_sample s = { .t = (int64_t)t, .lat_max = NAN, .occupancy = NAN };
		bool rate = false, any = false;
		double v, occ = 0;

		for (int d = 0; d < 2; d++) {
			s.lat_mean[d] = s.lat_p99[d] = NAN;
			if (fiolog_mean(&j->log, t, FIOLOG_IOPS, d, &v))
				s.ops[d] = llround(v), rate = true;
			if (fiolog_mean(&j->log, t, FIOLOG_BW, d, &v))
				s.bytes[d] = llround(v * 1024), rate = true;
			if (fiolog_mean(&j->log, t, FIOLOG_LAT, d, &v) ||
			    fiolog_mean(&j->log, t, FIOLOG_CLAT, d, &v)) {
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
