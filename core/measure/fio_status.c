/* fio's JSON status: numbers and json+ bins found by path (base/jsonpos.c),
 * and a second as the difference of two statuses. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure/fio_status.h"
#include "base/jsonpos.h"

/* The number at path; 0 when fio left it out. */
static double num_at(const char *s, size_t len, const char *path)
{
	size_t off = jsonpos_find(s, len, path);
	char *end;
	double v = strtod(s + off, &end);

	return end == s + off ? 0 : v;
}

/* json+ bins {"ns" : count, ...} at path into h (reset first); false when
 * fio wrote none. */
static bool bins_at(const char *s, size_t len, const char *path, struct hist *h)
{
	size_t i = jsonpos_find(s, len, path);

	hist_reset(h);
	if (i >= len || s[i] != '{')
		return false;
	for (i++; i < len;) {
		char *end;
		unsigned long long ns, c;

		while (i < len && (s[i] == ' ' || s[i] == '\n' || s[i] == '\t' || s[i] == ','))
			i++;
		if (i >= len || s[i] != '"')
			return true;
		ns = strtoull(s + i + 1, &end, 10);
		i = (size_t)(end - s);
		while (i < len && (s[i] == '"' || s[i] == ' ' || s[i] == ':'))
			i++;
		c = strtoull(s + i, &end, 10);
		i = (size_t)(end - s);
		if (c)
			hist_add_n(h, ns, c);
	}
	return true;
}

void fio_parse_status(const char *s, size_t len, const char *prefix, struct fio_cum *c)
{
	static const char *const dir[2] = { "read", "write" };
	char p[96];

	snprintf(p, sizeof(p), "%s.job_runtime", prefix);
	c->runtime_ms = num_at(s, len, p);
	for (int d = 0; d < 2; d++) {
		snprintf(p, sizeof(p), "%s.%s.total_ios", prefix, dir[d]);
		c->ops[d] = (uint64_t)num_at(s, len, p);
		snprintf(p, sizeof(p), "%s.%s.io_bytes", prefix, dir[d]);
		c->bytes[d] = (uint64_t)num_at(s, len, p);
		snprintf(p, sizeof(p), "%s.%s.clat_ns.mean", prefix, dir[d]);
		c->lat_ns[d] = num_at(s, len, p);
		snprintf(p, sizeof(p), "%s.%s.clat_ns.N", prefix, dir[d]);
		c->lat_ns[d] *= num_at(s, len, p);
		snprintf(p, sizeof(p), "%s.%s.clat_ns.bins", prefix, dir[d]);
		if (bins_at(s, len, p, &c->h[d]))	/* fio's counters are not one snapshot: */
			c->ops[d] = c->h[d].total;	/* ops are what the histogram holds */
	}
}

/* h = a - b, bucket by bucket (fio's bins only grow); sum is given. */
static void hist_diff(struct hist *h, const struct hist *a, const struct hist *b, double sum)
{
	hist_reset(h);
	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		uint64_t n = a->counts[i] > b->counts[i] ? a->counts[i] - b->counts[i] : 0;

		if (!n)
			continue;
		h->counts[i] = n;
		h->total += n;
		if (h->min > hist_bucket_low(i))
			h->min = hist_bucket_low(i);
		h->max = hist_bucket_low(i) + hist_bucket_width(i) - 1;
	}
	h->sum = sum > 0 ? (uint64_t)sum : 0;
}

bool fio_cum_behind(const struct fio_cum *a, const struct fio_cum *b)
{
	return a->runtime_ms < b->runtime_ms || a->ops[0] < b->ops[0] || a->ops[1] < b->ops[1] ||
	       a->bytes[0] < b->bytes[0] || a->bytes[1] < b->bytes[1];
}

void fio_sample_lat(struct step_sample *smp, const struct hist sec[2])
{
	smp->lat_max = 0;
	for (int d = 0; d < 2; d++) {
		double n = (double)sec[d].total;

		smp->lat_mean[d] = n ? (double)sec[d].sum / n / 1000.0 : 0;
		smp->lat_p99[d] = hist_percentile(&sec[d], 99) / 1000.0;
		if (n && sec[d].max / 1000.0 > smp->lat_max)
			smp->lat_max = (double)sec[d].max / 1000.0;
	}
}

void fio_second(const struct fio_cum *a, const struct fio_cum *b, unsigned jobs,
		unsigned ramp, uint64_t t, struct step_sample *smp, struct hist sec[2])
{
	memset(smp, 0, sizeof(*smp));
	smp->t = t;
	smp->ramp = t < ramp;
	smp->secs = (a->runtime_ms - b->runtime_ms) / (jobs ? jobs : 1) / 1000.0;
	for (int d = 0; d < 2; d++) {
		smp->ops[d] = a->ops[d] - b->ops[d];
		smp->bytes[d] = a->bytes[d] - b->bytes[d];
		hist_diff(&sec[d], &a->h[d], &b->h[d], a->lat_ns[d] - b->lat_ns[d]);
	}
	fio_sample_lat(smp, sec);
}
