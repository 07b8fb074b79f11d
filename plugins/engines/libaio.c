/* libaio engine: Linux native AIO (io_submit/io_getevents); needs O_DIRECT
 * to be truly asynchronous. */
#include <errno.h>
#include <libaio.h>
#include <stdlib.h>
#include <time.h>

#include "hbatest/plugin.h"

struct libaio_state {
	io_context_t aio;
	const int *fds;
	struct iocb *iocbs;	/* depth of them */
	struct iocb **free_list, **batch;
	unsigned nfree;
	struct io_event *events;
	unsigned depth;
	unsigned submit_batch;	/* iocbs per io_submit */
	unsigned reap_max;	/* events per io_getevents at most, 0: depth */
};

static const struct hb_option libaio_options[] = {
	{ "submit_batch", HB_OPT_INT, "4", "requests per io_submit (like fio's iodepth_batch_submit)" },
	HB_REAP_MAX_OPTION("events per io_getevents"),
	{ "preset", HB_OPT_STRING, NULL, "\"fio\": as fio's libaio defaults submit, for a cross-check (scripts/libaio_presets.lua); options given beside it win" },
	{ NULL, 0, NULL, NULL },
};

static int libaio_open(const struct hb_engine_setup *s, void **ctx)
{
	struct libaio_state *st = calloc(1, sizeof(*st));
	int rc;

	if (!st)
		return -ENOMEM;
	st->depth = s->depth;
	st->fds = s->fds;
	st->submit_batch = (unsigned)hb_opt_int(s->opts, s->nopts, "submit_batch",
						hb_submit_batch_default(s->depth));
	if (st->submit_batch < 1)
		st->submit_batch = 1;
	st->reap_max = hb_reap_max(s);
	st->iocbs = calloc(st->depth, sizeof(*st->iocbs));
	st->free_list = calloc(st->depth, sizeof(*st->free_list));
	st->batch = calloc(st->depth, sizeof(*st->batch));
	st->events = calloc(st->depth, sizeof(*st->events));
	if (!st->iocbs || !st->free_list || !st->batch || !st->events) {
		rc = -ENOMEM;
		goto free_state;
	}
	for (unsigned i = 0; i < st->depth; i++)
		st->free_list[st->nfree++] = &st->iocbs[i];
	rc = io_setup((int)st->depth, &st->aio);
	if (rc < 0) {
		if (rc == -EAGAIN)
			s->log(HB_LOG_ERROR, "libaio: io_setup(%u) failed: raise "
			       "/proc/sys/fs/aio-max-nr", st->depth);
		goto free_state;
	}
	*ctx = st;
	return 0;
free_state:
	free(st->iocbs);
	free(st->free_list);
	free(st->batch);
	free(st->events);
	free(st);
	return rc;
}

static int libaio_submit(void *ctx, struct hb_io **ios, unsigned n)
{
	struct libaio_state *st = ctx;
	unsigned k;
	int rc;

	if (n > st->submit_batch)	/* the worker submits the rest with more calls */
		n = st->submit_batch;
	for (k = 0; k < n && st->nfree; k++) {
		struct iocb *cb = st->free_list[--st->nfree];
		struct hb_io *io = ios[k];

		if (io->op == HB_OP_WRITE)
			io_prep_pwrite(cb, st->fds[io->target], io->buf, io->len, (long long)io->offset);
		else
			io_prep_pread(cb, st->fds[io->target], io->buf, io->len, (long long)io->offset);
		cb->data = io;
		st->batch[k] = cb;
	}
	do {
		rc = io_submit(st->aio, (long)k, st->batch);
	} while (rc == -EINTR);
	if (rc < 0) {
		st->nfree += k;		/* give them all back */
		return rc == -EAGAIN ? 0 : rc;
	}
	for (unsigned i = (unsigned)rc; i < k; i++)	/* not taken: back to the list */
		st->free_list[st->nfree++] = st->batch[i];
	return rc;
}

static int libaio_reap(void *ctx, unsigned min, unsigned max, struct hb_io **done,
		       uint64_t timeout_ns)
{
	struct libaio_state *st = ctx;
	struct timespec ts = { (time_t)(timeout_ns / 1000000000u),
			       (long)(timeout_ns % 1000000000u) };
	int n;

	if (max > st->depth)
		max = st->depth;
	max = hb_reap_cap(max, st->reap_max);	/* fio's complete_max: reap, resubmit, reap */
	n = io_getevents(st->aio, (long)min, (long)max, st->events, &ts);
	if (n < 0)
		return n;
	for (int i = 0; i < n; i++) {
		struct hb_io *io = st->events[i].data;

		/* res is unsigned long: a failure is -errno cast to it */
		io->result = (int64_t)(long)st->events[i].res;
		st->free_list[st->nfree++] = st->events[i].obj;
		done[i] = io;
	}
	return n;
}

static void libaio_close(void *ctx)
{
	struct libaio_state *st = ctx;

	io_destroy(st->aio);
	free(st->iocbs);
	free(st->free_list);
	free(st->batch);
	free(st->events);
	free(st);
}

/* The dry pass's check: submit_batch of 1 or more, reap_max of 0 or more. */
static int libaio_check(const struct hb_kv *o, unsigned n, char *err, size_t len)
{
	int rc = hb_opt_int_range(o, n, "submit_batch", 1, 65536,
				  "requests per io_submit", err, len);

	if (!rc)
		rc = hb_reap_max_check(o, n, "events taken per io_getevents", err, len);
	return rc;
}

static const struct hb_engine_ops libaio_ops = {
	.struct_size = sizeof(struct hb_engine_ops),
	.open = libaio_open,
	.submit = libaio_submit,
	.reap = libaio_reap,
	.close = libaio_close,
	.check = libaio_check,
};

const struct hb_plugin hbatest_plugin = HB_PLUGIN_INIT(HB_PLUGIN_ENGINE, "libaio",
	"Linux native AIO (io_submit/io_getevents); asynchronous with direct=true",
	&libaio_ops, libaio_options);
