/* A step's workload as the plan gave it (validated), and the per-worker
 * generator of requests: operation, size and offset of every I/O. */
#ifndef HB_WORKLOAD_H
#define HB_WORKLOAD_H

#include <stdbool.h>
#include <stdint.h>

#include "hbatest/plugin.h"
#include "base/util.h"

#define WL_MAX_BS 16
#define WL_MAX_TARGETS 256
#define WL_OP_DECK 100		/* write_pct is exact over every 100 I/Os */

enum rw_mode { RW_READ, RW_WRITE, RW_RANDREAD, RW_RANDWRITE, RW_RW, RW_RANDRW };

struct bs_choice {
	uint32_t size;		/* bytes */
	uint32_t weight;
};

struct target_spec {
	char *path;
	uint64_t size;		/* bytes, as found (or to be created) */
	int kind;		/* enum target_kind (target.h) */
	bool create;		/* file does not exist yet: lay it out at `size` */
};

struct workload {
	enum rw_mode rw;
	unsigned write_pct;	/* 0..100 */
	struct bs_choice bs[WL_MAX_BS];
	unsigned nbs;
	unsigned oio;		/* total outstanding I/O of the step */
	unsigned workers;
	unsigned qd;		/* oio / (workers * ntargets) */
	unsigned duration;	/* s, measured window */
	unsigned ramp;		/* s, before the window */
	uint64_t range;		/* bytes of each target used; 0: whole target */
	double range_share;	/* 0 < share <= 1 when range was given as a share */
	uint32_t align;		/* bytes; 0: the smallest block size */
	uint64_t size;		/* bytes for targets to create; 0: none given */
	bool direct;
	uint64_t seed;
	unsigned passes;	/* > 0: write passes x the range, then stop (a fill) */
	struct target_spec *targets;
	unsigned ntargets;
};

bool rw_is_random(enum rw_mode rw);
const char *rw_name(enum rw_mode rw);
int rw_parse(const char *s, enum rw_mode *out);
uint32_t workload_max_bs(const struct workload *wl);
/* A request's buffer bytes: a read and a write buffer of the largest bs,
 * one of them when the step only reads or only writes (worker.c's slot). */
uint64_t workload_slot_bytes(const struct workload *wl);
/* The pages a worker's buffers are mapped in when a slot is over a page */
#define WORKLOAD_HUGE_PAGE (2ul << 20)
/* The bytes of I/O buffers the step's workers map (worker.c: a slot per
 * request in flight, its read and its write buffer of the largest bs), or 0
 * when memory is not known here; refused in the dry pass when more than
 * the machine (or the process's cgroup) has available (a step that would send the OOM killer after
 * this or another process in the night). 0: fits; -ENOMEM with err. */
int workload_check_memory(const struct workload *wl, const char *name, char *err, size_t len);
uint32_t workload_min_bs(const struct workload *wl);
/* "4k" or "4k:60,64k:40" */
void workload_bs_text(const struct workload *wl, char *buf, size_t len);
/* Cross-key checks once every key is set; on error writes a message. */
int workload_check(struct workload *wl, unsigned engine_flags, char *err, size_t errlen);
/* Bytes of target i that the workload uses. */
uint64_t workload_span(const struct workload *wl, unsigned i);

/* ---- generator (one per worker; no allocation after gen_init) ---------- */

struct gen_stream {
	uint64_t lo, hi;	/* bytes: sequential segment, or random span */
	uint64_t cursor;	/* next sequential offset */
	uint64_t budget;	/* bytes this stream may still issue (fills) */
};

struct gen {
	struct rng rng;
	bool random;
	uint32_t align;
	uint8_t op_deck[WL_OP_DECK];
	unsigned op_pos;
	uint32_t *bs_deck;	/* sizes, each as often as its weight */
	unsigned bs_len, bs_pos;
	struct gen_stream *streams;	/* one per target */
	unsigned nstreams;
};

int gen_init(struct gen *g, const struct workload *wl, unsigned worker, uint64_t seed);
void gen_free(struct gen *g);

static inline void gen_shuffle8(struct rng *r, uint8_t *a, unsigned n)
{
	for (unsigned i = n - 1; i > 0; i--) {
		unsigned j = (unsigned)rng_below(r, i + 1);
		uint8_t t = a[i];

		a[i] = a[j];
		a[j] = t;
	}
}

void gen_shuffle32(struct rng *r, uint32_t *a, unsigned n);

/* Fill op, len and offset of the next request to target t. */
static inline void gen_next(struct gen *g, unsigned t, struct hb_io *io)
{
	struct gen_stream *s = &g->streams[t];
	uint32_t len;

	if (g->op_pos == WL_OP_DECK) {
		gen_shuffle8(&g->rng, g->op_deck, WL_OP_DECK);
		g->op_pos = 0;
	}
	io->op = g->op_deck[g->op_pos++];
	if (g->bs_len == 1) {
		len = g->bs_deck[0];
	} else {
		if (g->bs_pos == g->bs_len) {
			gen_shuffle32(&g->rng, g->bs_deck, g->bs_len);
			g->bs_pos = 0;
		}
		len = g->bs_deck[g->bs_pos++];
	}
	io->len = len;
	io->target = (uint16_t)t;
	if (g->random) {
		uint64_t slots = (s->hi - s->lo - len) / g->align + 1;

		io->offset = s->lo + rng_below(&g->rng, slots) * g->align;
	} else {
		if (s->cursor + len > s->hi)
			s->cursor = s->lo;
		io->offset = s->cursor;
		s->cursor += len;
	}
}

#endif
