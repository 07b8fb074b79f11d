/* The io_uring and libaio engines take one batch per submit() call
 * (submit_batch requests; by default 4), so
 * the worker stamps each batch as it hands it over (core/measure/worker.c
 * submit_batch) and a later batch's latency does not hold an earlier one's
 * submission. Every request offered is completed, none twice. */
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

/* Offer DEPTH reads of a 1 MiB file to engine name (submit_batch sb, NULL:
 * its default); the first call should take want. */
static void batches(const char *name, const char *sb, int want)
{
	char path[64], err[512] = "", tmpl[] = "/tmp/hbatest-batch.XXXXXX";
	struct hb_kv in[] = { { "submit_batch", (char *)sb } }, *kv = NULL;
	struct hb_io io[DEPTH], *offer[DEPTH], *done[DEPTH];
	unsigned nkv = 0, off = 0, reaped = 0, seen[DEPTH] = { 0 };
	uint64_t size = 1 << 20;
	struct plugin p;
	void *ctx = NULL, *buf = aligned_alloc(BS, DEPTH * BS);
	int fd = mkstemp(tmpl), first = -1, twice = 0;

	snprintf(path, sizeof(path), "plugins/%s.so", name);
	if (fd < 0 || !buf || ftruncate(fd, (off_t)size) ||
	    plugin_open(path, &p, err, sizeof(err)) ||
	    plugin_opts_resolve(&p, in, sb ? 1 : 0, &kv, &nkv, err, sizeof(err))) {
		ok(0, "%s: set up (%s)", name, err);
		return;
	}
	unlink(tmpl);
	const struct hb_engine_ops *ops = p.desc->ops;
	struct hb_engine_setup s = {
		.struct_size = sizeof(s), .ntargets = 1, .fds = &fd, .sizes = &size,
		.depth = DEPTH, .buf = buf, .buf_len = DEPTH * BS, .opts = kv, .nopts = nkv,
		.log = quiet, .nworkers = 1,
	};
	for (unsigned i = 0; i < DEPTH; i++) {
		io[i] = (struct hb_io){ .offset = i * BS, .buf = (char *)buf + i * BS,
					.len = BS, .op = HB_OP_READ };
		offer[i] = &io[i];
	}
	if (ops->open(&s, &ctx)) {
		ok(0, "%s: opens", name);
		return;
	}
	while (reaped < DEPTH) {	/* as the worker does: offer, then reap */
		int n = off < DEPTH ? ops->submit(ctx, offer + off, DEPTH - off) : 0;

		if (first < 0)
			first = n;
		if (n > 0)
			off += (unsigned)n;
		n = ops->reap(ctx, 1, DEPTH, done, 1000000000u);
		if (n <= 0)
			break;
		for (int i = 0; i < n; i++)
			twice += seen[done[i] - io]++ > 0;
		reaped += (unsigned)n;
	}
	ok(first == want, "%s, submit_batch %s: the first submit() of %d requests takes %d (took %d)",
	   name, sb ? sb : "default", DEPTH, want, first);
	ok(reaped == DEPTH && !twice, "%s, submit_batch %s: all %d completed once (%u, %d twice)",
	   name, sb ? sb : "default", DEPTH, reaped, twice);
	ops->close(ctx);
	plugin_opts_free(kv, nkv);
	plugin_close(&p);
	close(fd);
	free(buf);
}

int main(void)
{
	batches("io_uring", NULL, 4);
	batches("io_uring", "3", 3);
	batches("io_uring", "64", DEPTH);
	batches("libaio", NULL, 4);
	batches("libaio", "5", 5);
	return tap_done();
}
