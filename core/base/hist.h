/* Log-linear latency histogram: 128 linear sub-buckets per power of two,
 * so a bucket is at most 1/128 of its value wide (reported midpoints are
 * within 0.4%), from 1 ns to 2^43 ns (about 2.4 hours). */
#ifndef HB_HIST_H
#define HB_HIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HIST_SUB_BITS 7
#define HIST_SUB (1u << HIST_SUB_BITS)
#define HIST_MAX_EXP 42		/* values >= 2^43 ns land in the last bucket */
#define HIST_BUCKETS ((HIST_MAX_EXP - HIST_SUB_BITS) * HIST_SUB + 2 * HIST_SUB)
#define HIST_LAYOUT "loglin-v1 unit=ns sub_bits=7 max_exp=42"

struct hist {
	uint64_t total;		/* values added */
	uint64_t sum;		/* ns */
	uint64_t min, max;	/* ns, exact */
	uint64_t counts[HIST_BUCKETS];
};

static inline unsigned hist_index(uint64_t v)
{
	unsigned e;

	if (v < HIST_SUB)
		return (unsigned)v;
	e = 63u - (unsigned)__builtin_clzll(v);
	if (e > HIST_MAX_EXP)
		return HIST_BUCKETS - 1;
	return (e - HIST_SUB_BITS) * HIST_SUB + (unsigned)(v >> (e - HIST_SUB_BITS));
}

static inline void hist_add(struct hist *h, uint64_t v)
{
	h->counts[hist_index(v)]++;
	h->total++;
	h->sum += v;
	if (v > h->max)
		h->max = v;
	if (v < h->min)
		h->min = v;
}

/* n values of v at once */
static inline void hist_add_n(struct hist *h, uint64_t v, uint64_t n)
{
	h->counts[hist_index(v)] += n;
	h->total += n;
	h->sum += v * n;
	if (v > h->max)
		h->max = v;
	if (v < h->min)
		h->min = v;
}

void hist_reset(struct hist *h);
void hist_merge(struct hist *dst, const struct hist *src);
/* Lowest value of bucket i and its width, in ns. */
uint64_t hist_bucket_low(unsigned i);
uint64_t hist_bucket_width(unsigned i);
/* Nearest-rank percentile (0 < p <= 100) in ns; 0 for an empty histogram. */
double hist_percentile(const struct hist *h, double p);
double hist_mean(const struct hist *h);
/* Sparse text form "[[index,count],...]" (JSON); the caller frees it. */
char *hist_to_json(const struct hist *h);
int hist_from_json(struct hist *h, const char *json);

#endif
