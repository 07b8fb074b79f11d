/* null engine: every request completes at once without touching a target,
 * so a step measures the harness itself. */
#include <errno.h>
#include <stdlib.h>

#include "hbatest/plugin.h"

struct null_state {
	struct hb_io **ring;	/* completed, waiting to be reaped */
	unsigned head, count, cap;
};

static int null_open(const struct hb_engine_setup *s, void **ctx)
{
	struct null_state *st = calloc(1, sizeof(*st));

	if (!st)
		return -ENOMEM;
	st->cap = s->depth;
	st->ring = calloc(st->cap, sizeof(*st->ring));
	if (!st->ring) {
		free(st);
		return -ENOMEM;
	}
	*ctx = st;
	return 0;
}

static int null_submit(void *ctx, struct hb_io **ios, unsigned n)
{
	struct null_state *st = ctx;
	unsigned i;

	for (i = 0; i < n && st->count < st->cap; i++) {
		ios[i]->result = ios[i]->len;
		st->ring[(st->head + st->count++) % st->cap] = ios[i];
	}
	return (int)i;
}

static int null_reap(void *ctx, unsigned min, unsigned max, struct hb_io **done,
		     uint64_t timeout_ns)
{
	struct null_state *st = ctx;
	unsigned n = 0;

	(void)min;
	(void)timeout_ns;
	while (n < max && st->count) {
		done[n++] = st->ring[st->head];
		st->head = (st->head + 1) % st->cap;
		st->count--;
	}
	return (int)n;
}

static void null_close(void *ctx)
{
	struct null_state *st = ctx;

	free(st->ring);
	free(st);
}

static const struct hb_engine_ops null_ops = {
	.struct_size = sizeof(struct hb_engine_ops),
	.flags = HB_ENGINE_VIRTUAL,
	.open = null_open,
	.submit = null_submit,
	.reap = null_reap,
	.close = null_close,
};

const struct hb_plugin hbatest_plugin = HB_PLUGIN_INIT(HB_PLUGIN_ENGINE, "null",
	"completes every request at once without I/O: measures the harness",
	&null_ops, NULL);
