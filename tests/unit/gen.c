/* Workload generator: mix share, block size deck, alignment, range,
 * disjoint sequential streams, determinism, and the oio split rules. */
#include <stdlib.h>

#include "tap.h"
#include "measure/workload.h"

static struct target_spec tgt = { .path = "t", .size = 1ull << 30 };

static void base(struct workload *wl)
{
	memset(wl, 0, sizeof(*wl));
	wl->rw = RW_RANDRW;
	wl->bs[0].size = 4096;
	wl->bs[0].weight = 1;
	wl->nbs = 1;
	wl->oio = 1;
	wl->workers = 1;
	wl->duration = 1;
	wl->direct = true;
	wl->seed = 1;
	wl->targets = &tgt;
	wl->ntargets = 1;
}

static void check_mix(void)
{
	static const unsigned pcts[] = { 0, 1, 30, 67, 99, 100 };
	struct workload wl;
	char err[256];

	for (unsigned k = 0; k < sizeof(pcts) / sizeof(pcts[0]); k++) {
		struct gen g;
		struct hb_io io;
		unsigned writes = 0, n = 100 * 37;
		bool every100 = true;

		base(&wl);
		wl.write_pct = pcts[k];
		workload_check(&wl, 0, err, sizeof(err));
		gen_init(&g, &wl, 0, 99);
		for (unsigned i = 1; i <= n; i++) {
			gen_next(&g, 0, &io);
			writes += io.op == HB_OP_WRITE;
			if (i % 100 == 0 && writes != i / 100 * pcts[k])
				every100 = false;
		}
		ok(every100, "write_pct=%u is exact over every 100 I/Os (%u of %u)", pcts[k],
		   writes, n);
		gen_free(&g);
	}
}

static void check_determinism(void)
{
	struct workload wl;
	struct gen a, b, c;
	struct hb_io x, y, z;
	char err[256];
	bool same = true, differ = false;

	base(&wl);
	wl.write_pct = 50;
	workload_check(&wl, 0, err, sizeof(err));
	gen_init(&a, &wl, 0, 5);
	gen_init(&b, &wl, 0, 5);
	gen_init(&c, &wl, 0, 6);
	for (int i = 0; i < 10000; i++) {
		gen_next(&a, 0, &x);
		gen_next(&b, 0, &y);
		gen_next(&c, 0, &z);
		same &= x.offset == y.offset && x.op == y.op && x.len == y.len;
		differ |= x.offset != z.offset;
	}
	ok(same, "the same seed gives the same requests");
	ok(differ, "another seed gives other offsets");
	gen_free(&a);
	gen_free(&b);
	gen_free(&c);
}

static void check_bs_deck(void)
{
	struct workload wl;
	struct gen g;
	struct hb_io io;
	char err[256];
	unsigned small = 0, n = 5 * 1000;
	bool aligned = true;

	base(&wl);
	wl.bs[0] = (struct bs_choice){ 4096, 60 };
	wl.bs[1] = (struct bs_choice){ 65536, 40 };
	wl.nbs = 2;
	ok(workload_check(&wl, 0, err, sizeof(err)) == 0, "a 60/40 block size mix is valid");
	gen_init(&g, &wl, 0, 1);
	for (unsigned i = 0; i < n; i++) {
		gen_next(&g, 0, &io);
		small += io.len == 4096;
		aligned &= io.offset % 4096 == 0 && io.offset + io.len <= tgt.size;
	}
	is_int(small, n * 60 / 100, "block sizes follow their weights exactly (4k share)");
	ok(aligned, "mixed sizes stay aligned to the smallest and inside the target");
	gen_free(&g);
}

static void check_random_range(void)
{
	struct workload wl;
	struct gen g;
	struct hb_io io;
	char err[256];
	unsigned hist[16] = { 0 }, n = 160000;
	bool inside = true, aligned = true, spread = true;

	base(&wl);
	wl.rw = RW_RANDREAD;
	wl.bs[0].size = 8192;
	wl.align = 16384;
	wl.range_share = 0.25;
	ok(workload_check(&wl, 0, err, sizeof(err)) == 0, "align=16k, range=0.25 is valid");
	gen_init(&g, &wl, 0, 11);
	for (unsigned i = 0; i < n; i++) {
		gen_next(&g, 0, &io);
		inside &= io.offset + io.len <= tgt.size / 4;
		aligned &= io.offset % 16384 == 0;
		hist[io.offset * 16 / (tgt.size / 4)]++;
	}
	for (int i = 0; i < 16; i++)	/* each 1/16 of the range: 10000 +- 5% */
		spread &= hist[i] > 9500 && hist[i] < 10500;
	ok(inside, "random offsets stay inside range (a quarter of the target)");
	ok(aligned, "random offsets are multiples of align");
	ok(spread, "random offsets are uniform over the range (16 bins within 5%%)");
	gen_free(&g);
}

/* A small range: every aligned slot is drawn, the first and the last one
 * (range - bs) included, and nothing past it. */
static void check_random_edges(void)
{
	static struct target_spec small = { .path = "s", .size = 16 * 4096 };
	struct workload wl;
	struct gen g;
	struct hb_io io;
	char err[256];
	unsigned seen[16] = { 0 }, all = 0;
	bool inside = true;

	base(&wl);
	wl.rw = RW_RANDREAD;
	wl.targets = &small;
	ok(workload_check(&wl, 0, err, sizeof(err)) == 0, "4k random reads over 64 KiB are valid");
	gen_init(&g, &wl, 0, 5);
	for (unsigned i = 0; i < 16000; i++) {
		gen_next(&g, 0, &io);
		inside &= io.offset + io.len <= small.size && io.offset % 4096 == 0;
		if (inside)
			seen[io.offset / 4096]++;
	}
	for (int i = 0; i < 16; i++)
		all += seen[i] > 0;
	ok(inside && all == 16 && seen[15] > 0,
	   "random offsets reach all 16 blocks, the last one too (%u seen, last %u times)", all,
	   seen[15]);
	gen_free(&g);
}

static void check_sequential(void)
{
	struct workload wl;
	struct gen g[4];
	struct hb_io io;
	char err[256];
	uint64_t lo[4], hi[4];
	unsigned wraps[4] = { 0 };
	bool contiguous = true, disjoint = true;

	base(&wl);
	wl.rw = RW_READ;
	wl.bs[0].size = 131072;
	wl.workers = 4;
	wl.oio = 4;
	ok(workload_check(&wl, 0, err, sizeof(err)) == 0, "4 sequential workers are valid");
	for (unsigned w = 0; w < 4; w++) {
		uint64_t prev = 0;

		gen_init(&g[w], &wl, w, 1);
		lo[w] = UINT64_MAX;
		hi[w] = 0;
		for (unsigned i = 0; i < 3000; i++) {	/* wraps once: 2048 per segment */
			gen_next(&g[w], 0, &io);
			/* the next block, or back to the start once the segment is full */
			if (i && io.offset == g[w].streams[0].lo &&
			    prev + 2 * 131072 > g[w].streams[0].hi)
				wraps[w]++;
			else if (i && io.offset != prev + 131072)
				contiguous = false;
			if (!i && io.offset != g[w].streams[0].lo)
				contiguous = false;
			prev = io.offset;
			lo[w] = io.offset < lo[w] ? io.offset : lo[w];
			hi[w] = io.offset + io.len > hi[w] ? io.offset + io.len : hi[w];
		}
		gen_free(&g[w]);
	}
	for (unsigned a = 0; a < 4; a++)
		for (unsigned b = 0; b < 4; b++)
			if (a != b && lo[a] < hi[b] && lo[b] < hi[a])
				disjoint = false;
	ok(contiguous, "a sequential stream is contiguous and wraps to its start");
	ok(wraps[0] == 1 && wraps[1] == 1 && wraps[2] == 1 && wraps[3] == 1,
	   "3000 I/Os of 2048 a segment wrap exactly once in each stream");
	ok(disjoint, "sequential streams of 4 workers do not overlap");
	ok(hi[3] <= tgt.size, "the last stream ends inside the target");
}

static void check_split(void)
{
	struct workload wl;
	char err[256];
	struct target_spec two[2] = { { .path = "a", .size = 1 << 30 }, { .path = "b", .size = 1 << 30 } };

	base(&wl);
	wl.oio = 30;
	wl.workers = 4;
	wl.targets = two;
	wl.ntargets = 2;
	ok(workload_check(&wl, 0, err, sizeof(err)) < 0 && strstr(err, "multiple of 8") &&
	   strstr(err, "oio=32"), "oio=30 over 4 workers x 2 targets is refused with a fix "
	   "(%s)", err);
	wl.oio = 64;
	ok(workload_check(&wl, 0, err, sizeof(err)) == 0 && wl.qd == 8,
	   "oio=64 over 4 workers x 2 targets gives QD 8 per queue");
	base(&wl);
	wl.oio = 8;
	ok(workload_check(&wl, HB_ENGINE_SYNC, err, sizeof(err)) < 0 && strstr(err, "workers=8"),
	   "a synchronous engine needs one worker per outstanding I/O (%s)", err);
	base(&wl);
	wl.bs[0].size = 1000;
	ok(workload_check(&wl, 0, err, sizeof(err)) < 0 && strstr(err, "512"),
	   "direct I/O refuses a block size that is not a multiple of 512");
}

int main(void)
{
	check_mix();
	check_determinism();
	check_bs_deck();
	check_random_range();
	check_random_edges();
	check_sequential();
	check_split();
	return tap_done();
}
