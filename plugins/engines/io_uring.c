/* io_uring engine: batched submission, registered files and buffers,
 * optional SQ polling (preset = "fio": none of these, as fio's defaults);
 * submits and waits in one system call (separate_wait: in two, as fio),
 * bounded by the ring's own periodic timeout rather than a timer armed for
 * every wait. */
#include <errno.h>
#include <liburing.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/uio.h>

#include "hbatest/plugin.h"

#ifndef IORING_TIMEOUT_MULTISHOT	/* kernel 6.4; liburing 2.3's header lacks it */
#define IORING_TIMEOUT_MULTISHOT (1U << 6)
#endif
#define TICK_DATA UINT64_MAX	/* user_data of the ring's own tick */

struct uring_state {
	struct io_uring ring;
	const int *fds;
	bool fixed_files, fixed_bufs, sqpoll;
	bool separate_wait;	/* submit in a call of its own, wait in another */
	char *buf;		/* registered region, when fixed_bufs */
	unsigned queued;	/* SQEs prepared but not yet submitted */
	unsigned inflight;	/* submitted or queued, not yet reaped */
	unsigned wait_nr;	/* completions to wait for at once (batching) */
	unsigned submit_batch;	/* SQEs handed to the kernel per io_uring_enter */
	unsigned reap_max;	/* completions taken per reap, 0: all that are ready */
	unsigned depth;
	/* the tick: one multishot timeout that posts a CQE every tick_ns, so a
	 * wait ends within the core's timeout without arming a timer per wait
	 * (at QD1: a kernel timer armed and cancelled for every I/O) */
	struct __kernel_timespec tick_ts;
	uint64_t tick_ns;	/* period armed, 0: none */
	bool tick_live;		/* armed, not ended */
	bool tick_broken;	/* the kernel refused it: per-wait timeouts */
};

static const struct hb_option uring_options[] = {
	{ "sqpoll", HB_OPT_BOOL, "false", "a kernel thread polls the submission queue (no submit syscalls)" },
	{ "fixedbufs", HB_OPT_BOOL, "true", "register the I/O buffers once (IORING_REGISTER_BUFFERS)" },
	{ "registerfiles", HB_OPT_BOOL, "true", "register the target files once (fixed files)" },
	{ "sqpoll_idle_ms", HB_OPT_INT, "1000", "with sqpoll: ms the poll thread spins before sleeping" },
	{ "defer_taskrun", HB_OPT_BOOL, "true", "completion work runs when the worker waits (IORING_SETUP_DEFER_TASKRUN)" },
	{ "wait_nr", HB_OPT_INT, "1", "completions to wait for before resubmitting (like fio's iodepth_batch_complete_min): larger batches, fewer doorbells" },
	{ "submit_batch", HB_OPT_INT, "4", "requests per submitting system call (like fio's iodepth_batch_submit)" },
	{ "separate_wait", HB_OPT_BOOL, "false", "submit in an io_uring_enter of its own (taking the completions ready) and wait in another only when none is ready, as fio does; false: the last batch goes with the wait, one call" },
	HB_REAP_MAX_OPTION("completions taken per reap"),
	{ "preset", HB_OPT_STRING, NULL, "\"fio\": as fio's io_uring defaults submit and reap, for a cross-check (scripts/io_uring_presets.lua); options given beside it win" },
	{ NULL, 0, NULL, NULL },
};

static int uring_init(struct uring_state *st, const struct hb_engine_setup *s)
{
	struct io_uring_params p = { 0 };
	bool sqpoll = hb_opt_int(s->opts, s->nopts, "sqpoll", 0);

	st->sqpoll = sqpoll;
	/* CLAMP: the kernel caps a ring at 32768 SQEs and 65536 CQEs, and a plan's
	 * oio may be 65536; requests go in batches and an overflowing CQE waits
	 * in the kernel (IORING_FEAT_NODROP), so a clamped ring works */
	p.flags = IORING_SETUP_CQSIZE | IORING_SETUP_CLAMP;
	p.cq_entries = 2 * st->depth + 4;	/* + the tick's (and its SQE: depth + 1 below) */
	if (sqpoll) {
		p.flags |= IORING_SETUP_SQPOLL;
		p.sq_thread_idle = (unsigned)hb_opt_int(s->opts, s->nopts, "sqpoll_idle_ms", 1000);
		return io_uring_queue_init_params(st->depth + 1, &st->ring, &p);
	}
	/* the worker is the only submitter: let the kernel defer completion work to it */
	p.flags |= IORING_SETUP_SINGLE_ISSUER;
	if (hb_opt_int(s->opts, s->nopts, "defer_taskrun", 1))
		p.flags |= IORING_SETUP_DEFER_TASKRUN;
	else
		p.flags |= IORING_SETUP_COOP_TASKRUN;
	if (io_uring_queue_init_params(st->depth + 1, &st->ring, &p) == 0)
		return 0;
	p.flags &= ~(IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN |
		     IORING_SETUP_COOP_TASKRUN);
	return io_uring_queue_init_params(st->depth + 1, &st->ring, &p);
}

static void uring_register(struct uring_state *st, const struct hb_engine_setup *s)
{
	struct iovec iov = { s->buf, s->buf_len };
	bool virt = false;
	int rc;

	for (unsigned i = 0; i < s->ntargets; i++)
		virt |= s->fds[i] < 0;
	if (!virt && hb_opt_int(s->opts, s->nopts, "registerfiles", 1)) {
		rc = io_uring_register_files(&st->ring, s->fds, s->ntargets);
		st->fixed_files = rc == 0;
		if (rc < 0)
			s->log(HB_LOG_DEBUG, "io_uring: cannot register files (%d)", rc);
	}
	if (hb_opt_int(s->opts, s->nopts, "fixedbufs", 1) && s->buf_len <= (1u << 30)) {
		rc = io_uring_register_buffers(&st->ring, &iov, 1);
		st->fixed_bufs = rc == 0;
		if (rc < 0)
			s->log(HB_LOG_DEBUG, "io_uring: cannot register %zu bytes of buffers "
			       "(%d); RLIMIT_MEMLOCK?", s->buf_len, rc);
	}
	s->log(HB_LOG_DEBUG, "io_uring: worker %u: files %s, buffers %s", s->worker,
	       st->fixed_files ? "registered" : "not registered",
	       st->fixed_bufs ? "registered" : "not registered");
}

static int uring_open(const struct hb_engine_setup *s, void **ctx)
{
	struct uring_state *st = calloc(1, sizeof(*st));
	int rc;

	if (!st)
		return -ENOMEM;
	st->depth = s->depth;
	st->fds = s->fds;
	st->buf = s->buf;
	st->wait_nr = (unsigned)hb_opt_int(s->opts, s->nopts, "wait_nr", 1);
	if (st->wait_nr < 1)
		st->wait_nr = 1;
	st->submit_batch = (unsigned)hb_opt_int(s->opts, s->nopts, "submit_batch",
						hb_submit_batch_default(s->depth));
	if (st->submit_batch < 1)
		st->submit_batch = 1;
	st->reap_max = hb_reap_max(s);
	st->separate_wait = hb_opt_int(s->opts, s->nopts, "separate_wait", 0);
	rc = uring_init(st, s);
	if (rc < 0) {
		s->log(HB_LOG_ERROR, "io_uring: cannot set up a ring of %u entries (%d)",
		       st->depth, rc);
		free(st);
		return rc;
	}
	uring_register(st, s);
	*ctx = st;
	return 0;
}

/* One batch per call (submit_batch requests; every request with sqpoll):
 * handed to the kernel now when more follow, so the core stamps the next
 * batch as it offers it; the last stays queued for the wait that follows
 * (submit and wait in one io_uring_enter), or with separate_wait goes now
 * too, the completions ready taken in the same call, so that the wait
 * enters the kernel only when none is ready (fio's two calls). */
static int uring_submit(void *ctx, struct hb_io **ios, unsigned n)
{
	struct uring_state *st = ctx;
	unsigned i, take = n;

	if (!st->sqpoll && take > st->submit_batch)
		take = st->submit_batch;
	for (i = 0; i < take; i++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(&st->ring);
		struct hb_io *io = ios[i];
		int fd = st->fixed_files ? io->target : st->fds[io->target];

		if (!sqe && st->sqpoll) {	/* the poll thread is behind: let it catch up */
			io_uring_submit(&st->ring);
			io_uring_sqring_wait(&st->ring);
			sqe = io_uring_get_sqe(&st->ring);
		}
		if (!sqe)
			break;
		if (st->fixed_bufs && io->op == HB_OP_WRITE)
			io_uring_prep_write_fixed(sqe, fd, io->buf, io->len, io->offset, 0);
		else if (st->fixed_bufs)
			io_uring_prep_read_fixed(sqe, fd, io->buf, io->len, io->offset, 0);
		else if (io->op == HB_OP_WRITE)
			io_uring_prep_write(sqe, fd, io->buf, io->len, io->offset);
		else
			io_uring_prep_read(sqe, fd, io->buf, io->len, io->offset);
		if (st->fixed_files)
			sqe->flags |= IOSQE_FIXED_FILE;
		io_uring_sqe_set_data(sqe, io);
	}
	/* hand the device a few at a time as they are ready, not a burst of
	 * every completion reaped (docs/benchmarks.md, "Requests per call") */
	if (!st->sqpoll && i && st->separate_wait)	/* fio: io_uring_enter(n, 0, GETEVENTS) */
		io_uring_submit_and_get_events(&st->ring);
	else if (!st->sqpoll && i == take && take < n)
		io_uring_submit(&st->ring);
	st->inflight += i;
	st->queued = io_uring_sq_ready(&st->ring);
	return (int)i;	/* the rest: submitted to the kernel by the next reap() */
}

/* Arm the tick (IORING_OP_TIMEOUT, multishot, no count) with period ns; it
 * goes to the kernel with the next submission, the wait that follows. A
 * kernel that refuses it (before 6.4) posts its CQE in that submission, so
 * that wait returns at once and the next ones carry their own timeout. An
 * older tick of another period goes on, harmless: its CQEs are skipped too. */
static void tick_arm(struct uring_state *st, uint64_t ns)
{
	struct io_uring_sqe *sqe;

	if (st->queued && !st->sqpoll)	/* requests first, in batches of submit_batch */
		io_uring_submit(&st->ring);
	sqe = io_uring_get_sqe(&st->ring);
	if (!sqe)
		return;		/* the ring is full: try again at the next wait */
	st->tick_ts.tv_sec = (long long)(ns / 1000000000u);
	st->tick_ts.tv_nsec = (long long)(ns % 1000000000u);
	io_uring_prep_timeout(sqe, &st->tick_ts, 0, IORING_TIMEOUT_MULTISHOT);
	io_uring_sqe_set_data64(sqe, TICK_DATA);
	st->tick_ns = ns;
	st->tick_live = true;
	st->queued = io_uring_sq_ready(&st->ring);
}

/* A CQE of the tick: -ETIME with IORING_CQE_F_MORE while it runs. Without
 * F_MORE it has ended (refused by a kernel before 6.4: EINVAL; or stopped):
 * re-armed at the next wait, or given up for per-wait timeouts if refused. */
static void tick_seen(struct uring_state *st, const struct io_uring_cqe *cqe)
{
	if (cqe->flags & IORING_CQE_F_MORE)
		return;
	st->tick_live = false;
	st->tick_ns = 0;
	if (cqe->res != -ETIME)
		st->tick_broken = true;
}

static int uring_reap(void *ctx, unsigned min, unsigned max, struct hb_io **done,
		      uint64_t timeout_ns)
{
	struct uring_state *st = ctx;
	struct __kernel_timespec ts = { (long long)(timeout_ns / 1000000000u),
					(long long)(timeout_ns % 1000000000u) };
	struct io_uring_cqe *cqes[256], *cqe;
	unsigned n = 0, got;
	int rc;

	max = hb_reap_cap(max, st->reap_max);	/* fio's complete_max: reap, resubmit, reap */
	if (min && st->wait_nr > min)	/* batch: wait for more, never more than are out */
		min = st->wait_nr < st->inflight ? st->wait_nr : st->inflight;
	if (timeout_ns && timeout_ns != st->tick_ns && !st->tick_broken)
		tick_arm(st, timeout_ns);
	if (st->queued || io_uring_cq_ready(&st->ring) < min) {
		if (st->tick_live && timeout_ns == st->tick_ns)	/* the tick bounds the wait */
			rc = io_uring_submit_and_wait(&st->ring, min);
		else
			rc = io_uring_submit_and_wait_timeout(&st->ring, &cqe, min, &ts, NULL);
		if (rc < 0 && rc != -ETIME && rc != -EINTR && rc != -EAGAIN && rc != -EBUSY)
			return rc;
		st->queued = io_uring_sq_ready(&st->ring);
	}
	while (n < max) {
		unsigned want = max - n < 256 ? max - n : 256;

		got = io_uring_peek_batch_cqe(&st->ring, cqes, want);
		if (!got)
			break;
		for (unsigned i = 0; i < got; i++) {
			struct hb_io *io = io_uring_cqe_get_data(cqes[i]);

			if (io_uring_cqe_get_data64(cqes[i]) == TICK_DATA) {
				tick_seen(st, cqes[i]);
				continue;
			}
			io->result = cqes[i]->res;
			done[n++] = io;
		}
		io_uring_cq_advance(&st->ring, got);
	}
	st->inflight -= n;
	return (int)n;
}

static void uring_close(void *ctx)
{
	struct uring_state *st = ctx;

	io_uring_queue_exit(&st->ring);
	free(st);
}

/* The dry pass's check: the values uring_open would not take as given. */
static int uring_check(const struct hb_kv *o, unsigned n, char *err, size_t len)
{
	int rc = hb_opt_int_range(o, n, "submit_batch", 1, 65536,
				  "requests per submitting call", err, len);

	if (!rc)
		rc = hb_opt_int_range(o, n, "wait_nr", 1, 65536,
				      "completions to wait for", err, len);
	if (!rc)
		rc = hb_reap_max_check(o, n, "completions taken per reap", err, len);
	if (!rc)
		rc = hb_opt_int_range(o, n, "sqpoll_idle_ms", 0, 3600000,
				      "ms the poll thread spins", err, len);
	return rc;
}

static const struct hb_engine_ops uring_ops = {
	.struct_size = sizeof(struct hb_engine_ops),
	.open = uring_open,
	.submit = uring_submit,
	.reap = uring_reap,
	.close = uring_close,
	.check = uring_check,
};

const struct hb_plugin hbatest_plugin = HB_PLUGIN_INIT(HB_PLUGIN_ENGINE, "io_uring",
	"io_uring: batched submission, registered files and buffers, optional SQ polling",
	&uring_ops, uring_options);
