/* The io_uring and libaio engines take one batch per submit() call
 * (submit_batch requests; by default 4), so
 * the worker stamps each batch as it hands it over (core/measure/worker.c
 * submit_batch) and a later batch's latency does not hold an earlier one's
 * submission. Every request offered is completed, none twice. With
 * reap_max (the preset "fio": fio's iodepth_batch_complete_max=1) a reap
 * takes at most that many of the completions ready. */
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

#include "measure/loader.h"
#include "tap.h"

#define DEPTH 32
#define BS 4096

static void quiet(enum hb_log_level level, const char *fmt, ...)
{
	(void)level;
	(void)fmt;
}

/* An engine opened on a 1 MiB file with DEPTH reads of 4 KiB ready to offer */
struct rig {
	struct plugin p;
	const struct hb_engine_ops *ops;
	struct hb_kv *kv;
	unsigned nkv;
	void *ctx, *buf;
	int fd;
	uint64_t size;
	struct hb_io io[DEPTH], *offer[DEPTH], *done[DEPTH];
};

/* Open engine name with the options in (nin of them) on a fresh file into
 * r; false (a failed test that says what) when it cannot. */
static bool rig_open(struct rig *r, const char *name, struct hb_kv *in, unsigned nin)
{
	char path[64], err[512] = "", tmpl[] = "/tmp/hbatest-batch.XXXXXX";

	*r = (struct rig){ .size = 1 << 20, .buf = aligned_alloc(BS, DEPTH * BS) };
	r->fd = mkstemp(tmpl);
	snprintf(path, sizeof(path), "plugins/%s.so", name);
	if (r->fd < 0 || !r->buf || ftruncate(r->fd, (off_t)r->size) ||
	    plugin_open(path, &r->p, err, sizeof(err)) ||
	    plugin_opts_resolve(&r->p, in, nin, &r->kv, &r->nkv, err, sizeof(err))) {
		ok(0, "%s: set up (%s)", name, err);
		return false;
	}
	unlink(tmpl);
	r->ops = r->p.desc->ops;
	struct hb_engine_setup s = {
		.struct_size = sizeof(s), .ntargets = 1, .fds = &r->fd, .sizes = &r->size,
		.depth = DEPTH, .buf = r->buf, .buf_len = DEPTH * BS, .opts = r->kv,
		.nopts = r->nkv, .log = quiet, .nworkers = 1,
	};
	for (unsigned i = 0; i < DEPTH; i++) {
		r->io[i] = (struct hb_io){ .offset = i * BS, .buf = (char *)r->buf + i * BS,
					   .len = BS, .op = HB_OP_READ };
		r->offer[i] = &r->io[i];
	}
	if (r->ops->open(&s, &r->ctx)) {
		ok(0, "%s: opens", name);
		return false;
	}
	return true;
}

static void rig_close(struct rig *r)
{
	r->ops->close(r->ctx);
	plugin_opts_free(r->kv, r->nkv);
	plugin_close(&r->p);
	close(r->fd);
	free(r->buf);
}

/* Offer DEPTH reads of a 1 MiB file to engine name (submit_batch sb, NULL:
 * its default); the first call should take want. */
static void batches(const char *name, const char *sb, int want)
{
	struct hb_kv in[] = { { "submit_batch", (char *)sb } };
	unsigned off = 0, reaped = 0, seen[DEPTH] = { 0 };
	int first = -1, twice = 0;
	static struct rig r;

	if (!rig_open(&r, name, in, sb ? 1 : 0))
		return;
	while (reaped < DEPTH) {	/* as the worker does: offer, then reap */
		int n = off < DEPTH ? r.ops->submit(r.ctx, r.offer + off, DEPTH - off) : 0;

		if (first < 0)
			first = n;
		if (n > 0)
			off += (unsigned)n;
		n = r.ops->reap(r.ctx, 1, DEPTH, r.done, 1000000000u);
		if (n <= 0)
			break;
		for (int i = 0; i < n; i++)
			twice += seen[r.done[i] - r.io]++ > 0;
		reaped += (unsigned)n;
	}
	ok(first == want, "%s, submit_batch %s: the first submit() of %d requests takes %d (took %d)",
	   name, sb ? sb : "default", DEPTH, want, first);
	ok(reaped == DEPTH && !twice, "%s, submit_batch %s: all %d completed once (%u, %d twice)",
	   name, sb ? sb : "default", DEPTH, reaped, twice);
	rig_close(&r);
}

/* Submit DEPTH reads at once (buffered: each completes in its submission)
 * to engine name with reap_max rm, then reap them all: the largest reap
 * should be want. */
static void reaps(const char *name, const char *rm, int want)
{
	struct hb_kv in[] = { { "submit_batch", "64" }, { "reap_max", (char *)rm } };
	unsigned reaped = 0;
	int largest = 0, n;
	static struct rig r;

	if (!rig_open(&r, name, in, 2))
		return;
	if (r.ops->submit(r.ctx, r.offer, DEPTH) != DEPTH)
		ok(0, "%s, reap_max %s: takes %d requests at once", name, rm, DEPTH);
	usleep(100000);		/* every one completed: a reap may take them all */
	while (reaped < DEPTH && (n = r.ops->reap(r.ctx, 1, DEPTH, r.done, 1000000000u)) > 0) {
		largest = n > largest ? n : largest;
		reaped += (unsigned)n;
	}
	ok(largest == want && reaped == DEPTH,
	   "%s, reap_max %s: %d completions ready, each reap takes at most %d (largest %d; %u reaped)",
	   name, rm, DEPTH, want, largest, reaped);
	rig_close(&r);
}

int main(void)
{
	batches("io_uring", NULL, 4);
	batches("io_uring", "3", 3);
	batches("io_uring", "64", DEPTH);
	batches("libaio", NULL, 4);
	batches("libaio", "5", 5);
	reaps("io_uring", "0", DEPTH);
	reaps("io_uring", "1", 1);
	reaps("libaio", "0", DEPTH);
	reaps("libaio", "1", 1);
	return tap_done();
}
