/* psync engine: pread/pwrite, one request at a time in the worker's thread. */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "hbatest/plugin.h"

struct psync_state {
	const int *fds;
	struct hb_io **done;	/* completed by submit(), waiting to be reaped */
	unsigned ndone, cap;
};

static int psync_open(const struct hb_engine_setup *s, void **ctx)
{
	struct psync_state *st = calloc(1, sizeof(*st));

	if (!st)
		return -ENOMEM;
	st->fds = s->fds;
	st->cap = s->depth;
	st->done = calloc(st->cap, sizeof(*st->done));
	if (!st->done) {
		free(st);
		return -ENOMEM;
	}
	*ctx = st;
	return 0;
}

static int64_t psync_one(struct psync_state *st, struct hb_io *io)
{
	ssize_t rc;

	do {
		if (io->op == HB_OP_WRITE)
			rc = pwrite(st->fds[io->target], io->buf, io->len, (off_t)io->offset);
		else
			rc = pread(st->fds[io->target], io->buf, io->len, (off_t)io->offset);
	} while (rc < 0 && errno == EINTR);
	return rc < 0 ? -errno : rc;
}

static int psync_submit(void *ctx, struct hb_io **ios, unsigned n)
{
	struct psync_state *st = ctx;
	unsigned i;

	for (i = 0; i < n && st->ndone < st->cap; i++) {
		ios[i]->result = psync_one(st, ios[i]);
		st->done[st->ndone++] = ios[i];
	}
	return (int)i;
}

static int psync_reap(void *ctx, unsigned min, unsigned max, struct hb_io **done,
		      uint64_t timeout_ns)
{
	struct psync_state *st = ctx;
	unsigned n = st->ndone < max ? st->ndone : max;

	(void)min;
	(void)timeout_ns;
	for (unsigned i = 0; i < n; i++)
		done[i] = st->done[i];
	for (unsigned i = n; i < st->ndone; i++)
		st->done[i - n] = st->done[i];
	st->ndone -= n;
	return (int)n;
}

static void psync_close(void *ctx)
{
	struct psync_state *st = ctx;

	free(st->done);
	free(st);
}

static const struct hb_engine_ops psync_ops = {
	.struct_size = sizeof(struct hb_engine_ops),
	.flags = HB_ENGINE_SYNC,
	.open = psync_open,
	.submit = psync_submit,
	.reap = psync_reap,
	.close = psync_close,
};

const struct hb_plugin hbatest_plugin = HB_PLUGIN_INIT(HB_PLUGIN_ENGINE, "psync",
	"pread/pwrite: one I/O in flight per worker and target",
	&psync_ops, NULL);
