/* skeleton engine: the smallest complete engine, to copy for a new one
 * (docs/plugin-abi.md, "Start from the skeleton"). Synchronous pread/pwrite,
 * one request at a time in the worker's own thread, like psync.
 *
 * Build it alone:  cc -O2 -fPIC -shared -I<hbatest>/core -o myengine.so myengine.c
 * then:            hbatest plugins --plugin-path .   (and a plan's engine = "myengine")
 *
 * The contract in brief (core/hbatest/plugin.h has it whole):
 * - Include only "hbatest/plugin.h"; export one symbol, hbatest_plugin.
 * - Every op returns 0 or a count, or a negative errno (-ENOMEM, -EIO);
 *   a request's own outcome goes in io->result, not in the return value.
 * - Each worker is a thread with its own context (open's *ctx): open, submit,
 *   reap and close of one context run in that worker's thread, one at a time,
 *   so a context needs no lock. State shared between workers (a global) does.
 * - submit and reap are the hot path: no allocation, no lock, no log there.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "hbatest/plugin.h"

/* One worker's state. The core owns the requests and their buffers; the
 * engine keeps only pointers to those it has taken and not yet returned. */
struct skeleton_state {
	const int *fds;		/* the targets, opened by the core: setup.fds */
	struct hb_io *done;	/* completed by submit(), not reaped yet; NULL: none */
	unsigned sleep_us;	/* the option below */
	unsigned worker;	/* setup.worker, for the log */
	uint64_t ios;		/* requests completed, said at close */
	void (*log)(enum hb_log_level level, const char *fmt, ...)
		__attribute__((format(printf, 2, 3)));
};

/* The options a plan gives as skeleton = { sleep_us = 100 }. The core checks
 * each value against its type and fills in defaults before open() sees them
 * in setup.opts, normalised (ints in decimal, bools "1"/"0"). */
static const struct hb_option skeleton_options[] = {
	{ "sleep_us", HB_OPT_INT, "0", "microseconds to wait before each request" },
	{ NULL, 0, NULL, NULL }
};

/* Optional (ABI 1.2): what the option types cannot say, here a range. Called
 * in the dry pass, in the main thread, once per step, before anything runs:
 * a bad value fails the plan at second 0, naming the option. 0 or -EINVAL
 * with err set. */
static int skeleton_check(const struct hb_kv *opts, unsigned nopts, char *err, size_t len)
{
	return hb_opt_int_range(opts, nopts, "sleep_us", 0, 1000000,
				"microseconds before each request", err, len);
}

/* Required: the worker's context. Called in the worker's thread (pinned near
 * the card already) before the step's clock starts, so this is the place to
 * allocate, set up rings, and log (setup->log is safe from any thread; at
 * HB_LOG_ERROR say why open failed). Return 0, or -errno: the step fails. */
static int skeleton_open(const struct hb_engine_setup *setup, void **ctx)
{
	struct skeleton_state *st = calloc(1, sizeof(*st));

	if (!st)
		return -ENOMEM;
	st->fds = setup->fds;
	st->sleep_us = (unsigned)hb_opt_int(setup->opts, setup->nopts, "sleep_us", 0);
	st->worker = setup->worker;
	st->log = setup->log;
	*ctx = st;
	return 0;
}

/* The I/O itself: bytes moved, or -errno. A count short of io->len is
 * counted by the core as a failed request, as an error is. */
static int64_t skeleton_io(const struct skeleton_state *st, const struct hb_io *io)
{
	int fd = st->fds[io->target];
	ssize_t rc;

	if (st->sleep_us)
		usleep(st->sleep_us);
	do {
		if (io->op == HB_OP_WRITE)
			rc = pwrite(fd, io->buf, io->len, (off_t)io->offset);
		else
			rc = pread(fd, io->buf, io->len, (off_t)io->offset);
	} while (rc < 0 && errno == EINTR);
	return rc < 0 ? -errno : rc;
}

/* Required: take up to n requests; return how many were taken (>= 0) or
 * -errno (the step fails). Taking fewer, even 0 (a full queue), is no error:
 * the core reaps and offers the rest again. An HB_ENGINE_SYNC engine is
 * offered one request at a time and completes it here, blocking for the
 * I/O; an asynchronous one queues them and returns at once. */
static int skeleton_submit(void *ctx, struct hb_io **ios, unsigned n)
{
	struct skeleton_state *st = ctx;

	if (!n || st->done)	/* the last one is not reaped yet: full */
		return 0;
	ios[0]->result = skeleton_io(st, ios[0]);
	st->done = ios[0];
	return 1;
}

/* Required: hand back completed requests, at most max of them into done[],
 * waiting up to timeout_ns (0: not at all) until there are min. Return how
 * many (0 when none came in time) or -errno (the step fails). A request
 * handed back is the core's again: keep no pointer to it. A synchronous
 * engine has its one completion ready and never waits. */
static int skeleton_reap(void *ctx, unsigned min, unsigned max, struct hb_io **done,
			 uint64_t timeout_ns)
{
	struct skeleton_state *st = ctx;

	(void)min;
	(void)timeout_ns;
	if (!st->done || !max)
		return 0;
	done[0] = st->done;
	st->done = NULL;
	st->ios++;
	return 1;
}

/* Required: free the context. Called in the worker's thread after every
 * request was reaped (never while one is in flight: when the drain gives up
 * on a request that never completes, close is not called at all). */
static void skeleton_close(void *ctx)
{
	struct skeleton_state *st = ctx;

	st->log(HB_LOG_DEBUG, "skeleton: worker %u completed %llu requests", st->worker,
		(unsigned long long)st->ios);
	free(st);
}

static const struct hb_engine_ops skeleton_ops = {
	.struct_size = sizeof(struct hb_engine_ops),	/* ops past it (a newer ABI's): absent */
	.flags = HB_ENGINE_SYNC,	/* submit() completes the I/O: one in flight per
					 * worker and target (oio = workers x targets) */
	.open = skeleton_open,
	.submit = skeleton_submit,
	.reap = skeleton_reap,
	.close = skeleton_close,
	.check = skeleton_check,
	/* optional and left out: now (an engine's own clock, for a simulator) and
	 * target_size (the size of a virtual target, with HB_ENGINE_VIRTUAL) */
};

/* The one symbol the loader looks up. The name is what a plan's engine = ""
 * gives: no space, not a step key (rw, bs, ...). */
const struct hb_plugin hbatest_plugin = HB_PLUGIN_INIT(HB_PLUGIN_ENGINE, "skeleton",
	"pread/pwrite, one request at a time: the engine to copy for a new one",
	&skeleton_ops, skeleton_options);
