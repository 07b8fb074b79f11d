/* Log-linear latency histogram: merge, percentiles, stored form. */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/hist.h"

void hist_reset(struct hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	if (!src->total)
		return;
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		dst->counts[i] += src->counts[i];
	dst->total += src->total;
	dst->sum += src->sum;
	if (src->max > dst->max)
		dst->max = src->max;
	if (src->min < dst->min)
		dst->min = src->min;
}

uint64_t hist_bucket_low(unsigned i)
{
	unsigned e;

	assert(i < HIST_BUCKETS);
	if (i < HIST_SUB)
		return i;
	e = i / HIST_SUB + HIST_SUB_BITS - 1;
	return (uint64_t)(i % HIST_SUB + HIST_SUB) << (e - HIST_SUB_BITS);
}

uint64_t hist_bucket_width(unsigned i)
{
	assert(i < HIST_BUCKETS);
	if (i < 2 * HIST_SUB)
		return 1;
	return 1ull << (i / HIST_SUB - 1);
}

double hist_percentile(const struct hist *h, double p)
{
	uint64_t rank, seen = 0;
	double v;

	assert(p >= 0);		/* a percentile the code asks for, never a user's */
	if (!h->total)
		return 0;
	if (p >= 100)
		return (double)h->max;
	rank = (uint64_t)((p / 100.0) * (double)h->total);
	if ((double)rank < (p / 100.0) * (double)h->total)
		rank++;		/* ceil */
	if (rank == 0)
		rank = 1;
	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		seen += h->counts[i];
		if (seen < rank)
			continue;
		v = (double)hist_bucket_low(i) + (double)(hist_bucket_width(i) - 1) / 2.0;
		if (v > (double)h->max)	/* the exact extremes beat the bucket's middle */
			v = (double)h->max;
		if (v < (double)h->min)
			v = (double)h->min;
		return v;
	}
	return (double)h->max;
}

double hist_mean(const struct hist *h)
{
	return h->total ? (double)h->sum / (double)h->total : 0;
}

char *hist_to_json(const struct hist *h)
{
	size_t cap = 64, len = 0;
	char *s = malloc(cap);

	if (!s)
		return NULL;
	s[len++] = '[';
	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		if (!h->counts[i])
			continue;
		if (len + 48 > cap) {
			char *p = realloc(s, cap *= 2);

			if (!p) {
				free(s);
				return NULL;
			}
			s = p;
		}
		len += (size_t)snprintf(s + len, cap - len, "%s[%u,%llu]",
					len > 1 ? "," : "", i,
					(unsigned long long)h->counts[i]);
	}
	s[len++] = ']';
	s[len] = '\0';
	return s;
}

int hist_from_json(struct hist *h, const char *json)
{
	const char *p = json;
	unsigned idx;
	unsigned long long cnt;
	int used;

	hist_reset(h);
	if (*p++ != '[')
		return -EINVAL;
	while (sscanf(p, " [%u,%llu]%n", &idx, &cnt, &used) == 2) {
		if (idx >= HIST_BUCKETS)
			return -EINVAL;
		h->counts[idx] += cnt;
		h->total += cnt;
		/* sum, min and max are not stored per bucket: estimate from midpoints */
		h->sum += cnt * (hist_bucket_low(idx) + (hist_bucket_width(idx) - 1) / 2);
		if (hist_bucket_low(idx) < h->min)
			h->min = hist_bucket_low(idx);
		if (hist_bucket_low(idx) + hist_bucket_width(idx) - 1 > h->max)
			h->max = hist_bucket_low(idx) + hist_bucket_width(idx) - 1;
		p += used;
		if (*p == ',')
			p++;
	}
	return *p == ']' ? 0 : -EINVAL;
}
