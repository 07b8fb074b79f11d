/* Worker threads: submit, reap, time every I/O, count it into its second. */
#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/futex.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "base/log.h"
#include "measure/hostcpu.h"
#include "measure/placement.h"
#include "base/stop.h"
#include "measure/worker.h"

#define REAP_TIMEOUT_NS (50 * 1000 * 1000ull)	/* so idle seconds still publish */
/* Requests offered in a row before the loop reaps, then offers the rest.
 * The reap waits as any does (at least one completion, or wait_nr, at most
 * REAP_TIMEOUT_NS); with these in flight that is soon. Each call stamps every
 * request it offers, the engine taking a few (submit_batch): a worker that
 * offered its whole depth at once would stamp about depth^2 / 8 times and
 * reap nothing meanwhile: at depths in the tens of thousands its first
 * seconds stay empty and its p99 inflates (tests/submit.t checks the slice).
 * Depths up to this offer as before. An engine's own clock (a simulator):
 * no time passes while the worker submits, no slices. */
#define SUBMIT_SLICE 1024u
#define DRAIN_MIN_NS (60 * NSEC_PER_SEC)	/* the drain waits at least this long */

/* The requests' buffers, a mapping of their own (so its pages can be asked
 * for on the step's node). A slot larger than a page (a request over 4 KiB,
 * or a 4 KiB mixed slot: its read and its write buffer) gets them in
 * transparent huge pages where the kernel grants them: a request is then one
 * physically contiguous segment, not one per 4 KiB page. In 4 KiB pages a
 * 128 KiB read takes 32 descriptors of a virtio ring, eight of them overflow
 * a ring of 256, and the driver requeues (docs/benchmarks.md). */
static void *buf_map(struct worker *w)
{
	size_t len = w->buf_len, huge = (len + WORKLOAD_HUGE_PAGE - 1) / WORKLOAD_HUGE_PAGE * WORKLOAD_HUGE_PAGE;
	char *p, *a;

	if (w->slot_len > (size_t)sysconf(_SC_PAGESIZE)) {
		p = mmap(NULL, huge + WORKLOAD_HUGE_PAGE, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p != MAP_FAILED) {	/* cut down to huge bytes from a 2 MiB boundary */
			a = (char *)(((uintptr_t)p + WORKLOAD_HUGE_PAGE - 1) & ~(uintptr_t)(WORKLOAD_HUGE_PAGE - 1));
			if (a > p)
				munmap(p, (size_t)(a - p));
			munmap(a + huge, (size_t)(p + WORKLOAD_HUGE_PAGE - a));
			madvise(a, huge, MADV_HUGEPAGE);	/* advice: 4 KiB pages if refused */
			w->map_len = huge;
			return a;
		}
	}
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	w->map_len = len;
	return p == MAP_FAILED ? NULL : p;
}

static inline uint64_t worker_now(struct worker *w)
{
	const struct hb_engine_ops *ops = w->engine->desc->ops;

	return w->sh->engine_clock ? ops->now(w->ctx) : util_now_ns();
}

/* The engine's preset "fio" (io_uring, libaio): each request is timed as
 * fio's defaults time it (gtod_reduce=0): a clock read as its submitting call
 * starts (the stamp every request gets: fio's start_time, where its lat
 * begins), one as that call returns (fio's issue_time: the submission
 * latency, slat, ends and the completion latency, clat, begins) and one as
 * its completion is reaped; the step's latency is fio's lat, and each
 * worker's slat and clat are told when the step ends (fio_timing_report). */
static bool worker_fio_timing(const struct worker *w)
{
	const struct hb_engine_ops *ops = w->engine->desc->ops;
	const char *preset = hb_opt_str(w->opts, w->nopts, "preset");

	return preset && !strcmp(preset, "fio") &&
	       !(ops->flags & (HB_ENGINE_SYNC | HB_ENGINE_VIRTUAL));
}

static int fio_timing_alloc(struct worker *w)
{
	w->issue_ns = calloc(w->depth, sizeof(*w->issue_ns));
	w->slat = calloc(2, sizeof(*w->slat));
	if (!w->issue_ns || !w->slat)
		return -ENOMEM;
	w->clat = w->slat + 1;
	hist_reset(w->slat);
	hist_reset(w->clat);
	return 0;
}

/* One info line (an event of the run) per worker, as fio prints its slat
 * and clat beside its lat: in microseconds, of the I/Os the step counts
 * (after the ramp, none failed), so slat + clat is their lat. */
static void fio_timing_report(const struct worker *w)
{
	const struct hist *s = w->slat, *c = w->clat;

	if (!c || !c->total)
		return;
	log_info("worker %u, preset fio: slat mean %.2f us, p50 %.2f, p99 %.2f; clat mean "
		 "%.2f us, p50 %.2f, p99 %.2f (%llu I/Os after the ramp)", w->index,
		 hist_mean(s) / 1e3, hist_percentile(s, 50) / 1e3, hist_percentile(s, 99) / 1e3,
		 hist_mean(c) / 1e3, hist_percentile(c, 50) / 1e3, hist_percentile(c, 99) / 1e3,
		 (unsigned long long)c->total);
}

int worker_prepare(struct worker *w)
{
	const struct workload *wl = w->wl;
	size_t maxbs = workload_max_bs(wl);
	bool reads = wl->write_pct < 100;
	size_t per_slot = workload_slot_bytes(wl);
	const struct hb_engine_ops *ops = w->engine->desc->ops;

	if (ops->flags & HB_ENGINE_VIRTUAL)	/* no data moves: one small shared buffer */
		per_slot = 0;
	assert(wl->qd >= 1 && wl->ntargets >= 1 && wl->ntargets <= WL_MAX_TARGETS);
	w->depth = wl->qd * wl->ntargets;
	w->ios = calloc(w->depth, sizeof(*w->ios));
	w->batch = calloc(w->depth, sizeof(*w->batch));
	w->done = calloc(w->depth, sizeof(*w->done));
	w->flying = calloc(w->depth, sizeof(*w->flying));
	w->buf_len = per_slot ? per_slot * w->depth : 4096;
	w->slot_len = per_slot;
	w->wbuf_off = reads && per_slot ? maxbs : 0;
	if (!w->ios || !w->batch || !w->done || !w->flying)
		return -ENOMEM;
	if (worker_fio_timing(w) && fio_timing_alloc(w))
		return -ENOMEM;
	w->buf = buf_map(w);
	if (!w->buf)
		return -ENOMEM;
	placement_bind_memory(w->place, w->buf, w->buf_len);
	/* writes come from buffers no read ever lands in: incompressible data */
	util_fill_random(w->buf, w->buf_len, w->seed ^ 0x5eedb0f5);
	for (unsigned i = 0; i < w->depth; i++)
		w->ios[i].target = (uint16_t)(i / wl->qd);
	for (unsigned i = 0; i < WORKER_RING; i++) {
		w->ring[i].sec = -1;
		w->ring[i].tgt = calloc(wl->ntargets * TGT_COUNTERS, sizeof(uint64_t));
		if (!w->ring[i].tgt)
			return -ENOMEM;
	}
	atomic_store(&w->published, -1);
	atomic_store(&w->consumed, -1);
	w->err_target = -1;
	return gen_init(&w->gen, wl, w->index, w->seed);
}

void worker_release(struct worker *w)
{
	gen_free(&w->gen);
	for (unsigned i = 0; i < WORKER_RING; i++) {
		free(w->ring[i].tgt);
		w->ring[i].tgt = NULL;
	}
	free(w->ios);
	free(w->batch);
	free(w->done);
	free(w->flying);
	w->flying = NULL;
	fio_timing_report(w);
	free(w->issue_ns);
	free(w->slat);
	w->issue_ns = NULL;
	w->slat = w->clat = NULL;
	if (w->buf && !w->stuck)	/* a request that never completed may still land in it */
		munmap(w->buf, w->map_len);
	w->ios = NULL;
	w->batch = w->done = NULL;
	w->buf = NULL;
}

/* Every 512 B sector of a write starts with the write's sequence number and
 * the sector's index in it, the rest being the slot's random bytes: no two
 * blocks alike, whatever block size a deduplicating array hashes. A virtual
 * engine's writes share one small buffer: only the sequence number. */
static inline void stamp(struct worker *w, char *buf, uint32_t len)
{
	if (!w->slot_len) {
		memcpy(buf, &w->write_seq, sizeof(w->write_seq));
		return;
	}
	for (uint64_t off = 0; off + 16 <= len; off += 512) {
		uint64_t idx = off / 512;

		memcpy(buf + off, &w->write_seq, sizeof(w->write_seq));
		memcpy(buf + off + 8, &idx, sizeof(idx));
	}
}

/* Fill in the next request of io's queue; false when a fill has issued all
 * it was to write on that target. */
static inline bool prepare_io(struct worker *w, struct hb_io *io)
{
	char *slot = (char *)w->buf + (size_t)(io - w->ios) * w->slot_len;
	struct gen_stream *s = &w->gen.streams[io->target];

	gen_next(&w->gen, io->target, io);
	if (s->budget < io->len)
		return false;
	s->budget -= io->len;
	if (io->op == HB_OP_WRITE) {
		io->buf = slot + w->wbuf_off;
		stamp(w, io->buf, io->len);
		w->write_seq++;
	} else {
		io->buf = slot;
	}
	return true;
}

/* A worker's news for the sampler: bump sh->news and wake the sampler if it
 * sleeps on it (a system call about once a second per worker). Both sides
 * are seq_cst: either the sampler's check of news sees this bump, or this
 * load sees sampler_waits set and wakes it. */
static void worker_news(struct worker_shared *sh)
{
	if (sh->engine_clock)	/* the sampler looks each ms instead (worker_news_wait) */
		return;
	atomic_fetch_add(&sh->news, 1);
	if (atomic_load(&sh->sampler_waits))
		syscall(SYS_futex, &sh->news, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

void worker_news_wait(struct worker_shared *sh, uint32_t seen, uint64_t until)
{
	uint64_t now, ns;
	struct timespec ts;

	if (sh->engine_clock) {	/* virtual seconds by the thousand: a look each ms */
		nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
		return;
	}
	now = util_now_ns(), ns = until > now ? until - now : 1;
	ts = (struct timespec){ (time_t)(ns / NSEC_PER_SEC), (long)(ns % NSEC_PER_SEC) };
	atomic_store(&sh->sampler_waits, true);
	if (atomic_load(&sh->news) == seen)
		syscall(SYS_futex, &sh->news, FUTEX_WAIT_PRIVATE, seen, &ts, NULL, 0);
	atomic_store(&sh->sampler_waits, false);
}

void worker_ready_wait(struct worker_shared *sh, unsigned n)
{
	uint32_t seen;

	while ((seen = atomic_load(&sh->ready)) < n)
		syscall(SYS_futex, &sh->ready, FUTEX_WAIT_PRIVATE, seen, NULL, NULL, 0);
}

void worker_go(struct worker_shared *sh)
{
	atomic_store_explicit(&sh->go, 1, memory_order_release);
	syscall(SYS_futex, &sh->go, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

static void publish(struct worker *w, int64_t upto)
{
	if (upto > atomic_load_explicit(&w->published, memory_order_relaxed)) {
		atomic_store_explicit(&w->published, upto, memory_order_release);
		worker_news(w->sh);
	}
}

/* The bucket for second sec, opened on first use. Its completions come in
 * time order, so every second before sec is final: published first, so the
 * sampler can drain the slot this waits for without this worker (an I/O that
 * took longer than the ring's seconds). Waits (rarely) for the sampler; a
 * stop ends the wait, losing this completion only if the sampler is stuck. */
static struct sec_bucket *bucket_for(struct worker *w, int64_t sec)
{
	struct sec_bucket *b = &w->ring[sec % WORKER_RING];

	if (b->sec == sec)
		return b;
	publish(w, sec - 1);
	while (atomic_load_explicit(&w->consumed, memory_order_acquire) < sec - WORKER_RING) {
		struct timespec ts = { 0, 200 * 1000 };

		if (atomic_load(&w->sh->abort) || hb_stop_requested)
			return NULL;
		nanosleep(&ts, NULL);
	}
	memset(b->ops, 0, offsetof(struct sec_bucket, tgt) - offsetof(struct sec_bucket, ops));
	memset(b->tgt, 0, w->wl->ntargets * TGT_COUNTERS * sizeof(uint64_t));
	hist_reset(&b->lat[0]);
	hist_reset(&b->lat[1]);
	b->sec = sec;
	return b;
}

/* A failed or short I/O: remembered (the first one in full) even when it
 * completes in the drain, and with on_error="fail" it stops the step. */
static void note_error(struct worker *w, const struct hb_io *io, uint64_t now, uint64_t k)
{
	if (!w->nerrors) {
		w->err_result = io->result;
		w->err_offset = io->offset;
		w->err_len = io->len;
		w->err_op = (uint8_t)io->op;
		w->err_target = io->target;
		w->err_ns = now;
	} else if (io->target != w->err_target) {
		w->err_elsewhere = true;
	}
	w->nerrors += k;
	if (w->sh->stop_on_error)
		atomic_store(&w->sh->abort, true);
}

/* A completion that stands for k requests (hb_io.count) spends the bytes of
 * the other k - 1 from a fill's budget too, as many as it has left: returns
 * how many it counts for. */
static inline uint64_t spend_more(struct worker *w, const struct hb_io *io, uint64_t k)
{
	struct gen_stream *s = &w->gen.streams[io->target];

	if (io->len * (k - 1) > s->budget)
		k = 1 + s->budget / io->len;
	s->budget -= io->len * (k - 1);
	return k;
}

static void account(struct worker *w, struct hb_io *io, uint64_t now)
{
	uint64_t lat = now - io->submit_ns, k = io->count > 1 ? io->count : 1;
	int64_t sec = (int64_t)((now - w->t0) / NSEC_PER_SEC);
	bool failed = io->result != (int64_t)io->len;
	struct sec_bucket *b;

	if (lat > w->lat_max_ns)
		w->lat_max_ns = lat;
	if (k > 1)
		k = spend_more(w, io, k);
	if (failed)
		note_error(w, io, now, k);
	if (sec >= (int64_t)w->total_secs)
		return;		/* completed after the step's end: drained, not counted */
	b = bucket_for(w, sec);
	if (!b)
		return;
	b->busy_ns += lat * k;	/* a failed I/O was in flight too */
	if (failed) {
		w->nerrors_kept += k;
		if ((uint64_t)sec < w->wl->ramp)
			w->nerrors_ramp += k;
		b->errors += k;
		b->tgt[io->target * TGT_COUNTERS + TGT_ERRORS] += k;
		return;
	}
	b->ops[io->op] += k;
	b->bytes[io->op] += io->len * k;
	b->tgt[io->target * TGT_COUNTERS + TGT_OPS + io->op] += k;
	b->tgt[io->target * TGT_COUNTERS + TGT_BYTES + io->op] += io->len * k;
	hist_add_n(&b->lat[io->op], lat, k);
	if (w->clat && (uint64_t)sec >= w->wl->ramp) {	/* preset fio: fio's slat, clat */
		uint64_t issued = w->issue_ns[io - w->ios];

		hist_add_n(w->slat, issued - io->submit_ns, k);
		hist_add_n(w->clat, now - issued, k);
	}
}

/* The engine broke plugin.h's contract: a count past what it was given or
 * asked for, a completion of a request it does not hold, more bytes than
 * asked. Its counts and pointers are not used: the step fails saying what
 * it did (step_errors.c), not with a crash or wrong figures. */
#define engine_broke(w, ...) (snprintf((w)->broke, sizeof((w)->broke), __VA_ARGS__), -EPROTO)

/* A call's return: a count of at most max, or -errno (-1 to -4095) */
static int engine_count(struct worker *w, const char *op, int rc, unsigned max)
{
	if (rc > (int)max)
		return engine_broke(w, "%s() returned %d, for at most %u", op, rc, max);
	if (rc < -4095)
		return engine_broke(w, "%s() returned %d, neither a count nor -errno", op, rc);
	return rc;
}

static bool engine_result_ok(struct worker *w, const struct hb_io *io)
{
	if (__builtin_expect(io->result <= (int64_t)io->len, 1))
		return true;
	(void)engine_broke(w, "a request of %u bytes completed with %lld", io->len,
			   (long long)io->result);
	return false;
}

/* Preset "fio": the submitting call has returned with n requests from the
 * batch's from-th: the clock read as fio reads it after each commit, each
 * request's issue time (its slat and clat are counted with its lat, in
 * account(): the three over the same I/Os). */
static void fio_issued(struct worker *w, unsigned from, unsigned n)
{
	uint64_t now = worker_now(w);

	for (unsigned i = from; i < from + n; i++)
		w->issue_ns[w->batch[i] - w->ios] = now;
}

/* Offer the batch's *n requests to the engine. Those it takes leave the
 * batch, the others move to its front and *n says how many: an engine may
 * take none (plugin.h: its queue is full, a transient EAGAIN), and the loop
 * then reaps before it offers them again. Each call's requests are stamped
 * as it is made: an engine that takes one batch of them per call (io_uring,
 * libaio: submit_batch) hands each batch to the kernel in that call, so the
 * later batches' latency does not include the earlier ones' submission.
 * At most SUBMIT_SLICE requests: the loop reaps before it offers the rest. */
static int submit_batch(struct worker *w, unsigned *n, unsigned *inflight)
{
	const struct hb_engine_ops *ops = w->engine->desc->ops;
	unsigned off = 0, end = w->sh->engine_clock || *n < SUBMIT_SLICE ? *n : SUBMIT_SLICE;

	while (off < end) {
		uint64_t now = worker_now(w);
		int rc;

		for (unsigned i = off; i < end; i++)
			w->batch[i]->submit_ns = now;
		rc = engine_count(w, "submit", ops->submit(w->ctx, w->batch + off, end - off),
				  end - off);
		if (rc < 0)
			return rc;
		if (rc == 0)
			break;
		for (unsigned i = off; i < off + (unsigned)rc; i++)
			w->flying[w->batch[i] - w->ios] = true;
		if (w->issue_ns)
			fio_issued(w, off, (unsigned)rc);
		off += (unsigned)rc;
		*inflight += (unsigned)rc;
	}
	memmove(w->batch, w->batch + off, (*n - off) * sizeof(*w->batch));
	*n -= off;
	return 0;
}

/* The engine took no request and has none in flight, so no completion will
 * make room: wait a little and offer again, a bounded number of times. */
static bool idle_retry(struct worker *w, unsigned *idle)
{
	struct timespec ts = { 0, 1000 * 1000 };

	if (++*idle > WORKER_IDLE_RETRIES) {
		w->refused = true;
		w->fatal = -EAGAIN;
		return false;
	}
	nanosleep(&ts, NULL);
	return true;
}

/* The drain waits for the requests in flight at most the longer of
 * DRAIN_MIN_NS and the longest I/O this worker saw; past that they are
 * given up on (a command the device dropped) and the step fails. */
static bool drain_expired(struct worker *w, uint64_t waited, unsigned inflight)
{
	uint64_t bound = w->lat_max_ns > DRAIN_MIN_NS ? w->lat_max_ns : DRAIN_MIN_NS;

	if (waited <= bound)
		return false;
	w->stuck = inflight;
	w->drain_s = (double)waited / NSEC_PER_SEC;
	for (unsigned i = 0; i < w->depth; i++)
		if (w->flying[i]) {
			w->stuck_target = w->ios[i].target;
			break;
		}
	w->fatal = -ETIMEDOUT;
	return true;
}

/* The worker stopped before the step's end (its fill is complete, an I/O
 * error or an interrupt stopped it): its last second ends at now, and is
 * kept as the part of a second it covers. Not published: the sampler takes
 * it once every worker has finished and the step's end is known (step.c). */
static void finish_partial(struct worker *w, uint64_t now)
{
	w->partial = true;
	w->end_ns = now;
}

static void finish_fill(struct worker *w, uint64_t now)
{
	w->exhausted = true;
	finish_partial(w, now);
}

/* Collect n completions: count each into its second and, unless stopping,
 * refill its slot into the batch; false (w->broke) at one the engine could
 * not have returned (not one of this worker's requests in flight, or more
 * bytes than asked), counting none from there on. The test costs the null
 * engine a few percent of its rate and a device's I/O nothing that shows. */
static bool complete(struct worker *w, int n, uint64_t now, bool stopping, unsigned *nb)
{
	for (int i = 0; i < n; i++) {
		struct hb_io *io = w->done[i];
		size_t k = ((uintptr_t)io - (uintptr_t)w->ios) / sizeof(*io);

		if (__builtin_expect(k >= w->depth || w->ios + k != io || !w->flying[k], 0)) {
			(void)engine_broke(w, "reap() returned a request it was not given, or twice");
			return false;
		}
		if (!engine_result_ok(w, io))
			return false;
		w->flying[k] = false;
		account(w, io, now);
		if (!stopping && prepare_io(w, io))
			w->batch[(*nb)++] = io;
	}
	return true;
}

static void worker_loop(struct worker *w)
{
	const struct hb_engine_ops *ops = w->engine->desc->ops;
	uint64_t end = w->t0 + w->total_secs * NSEC_PER_SEC, now = w->t0, stop_ns = 0;
	unsigned inflight = 0, nb = 0, idle = 0;
	bool stopping = false;

	for (unsigned i = 0; i < w->depth; i++)
		if (prepare_io(w, &w->ios[i]))
			w->batch[nb++] = &w->ios[i];
	for (;;) {
		int n;

		if (nb && (w->fatal = submit_batch(w, &nb, &inflight)))
			return;
		if (!inflight) {
			if (!nb || stopping)
				break;
			if (!idle_retry(w, &idle))
				return;
			continue;
		}
		idle = 0;
		n = engine_count(w, "reap", ops->reap(w->ctx, 1, w->depth, w->done,
						       REAP_TIMEOUT_NS), w->depth);
		if (n < 0) {
			if (n == -EINTR)
				continue;
			w->fatal = n;
			return;
		}
		now = worker_now(w);
		if (!stopping && (now >= end || hb_stop_requested || atomic_load(&w->sh->abort))) {
			stopping = true;
			stop_ns = now;
			nb = 0;		/* prepared, never submitted */
		}
		if (!complete(w, n, now, stopping, &nb)) {
			w->fatal = -EPROTO;
			return;
		}
		inflight -= (unsigned)n;
		publish(w, (int64_t)((now - w->t0) / NSEC_PER_SEC) - 1);
		atomic_store_explicit(&w->inflight, inflight, memory_order_relaxed);
		if (stopping && inflight && drain_expired(w, now - stop_ns, inflight))
			break;
	}
	now = worker_now(w);
	if (now >= end)		/* every second of the step is whole */
		publish(w, (int64_t)w->total_secs - 1);
	else if (!stopping)	/* a fill is complete */
		finish_fill(w, now);
	else			/* stopped: an error, an interrupt, another worker */
		finish_partial(w, now);
}

/* A synchronous engine does the I/O inside submit(): time each request alone,
 * taking the targets in turn. */
static void worker_loop_sync(struct worker *w)
{
	const struct hb_engine_ops *ops = w->engine->desc->ops;
	uint64_t end = w->t0 + w->total_secs * NSEC_PER_SEC, now = w->t0;
	unsigned next = 0, ndry = 0;
	bool *dry = calloc(w->wl->ntargets, sizeof(*dry));	/* a fill wrote its all */

	if (!dry) {
		w->fatal = -ENOMEM;
		return;
	}
	while (now < end && !hb_stop_requested && !atomic_load(&w->sh->abort)) {
		struct hb_io *io = &w->ios[next];
		const char *op;
		int n;

		next = (next + 1) % w->depth;
		if (dry[io->target])
			continue;
		if (!prepare_io(w, io)) {	/* the others may have more to write */
			dry[io->target] = true;
			if (++ndry < w->wl->ntargets)
				continue;
			free(dry);
			finish_fill(w, now);
			return;
		}
		io->submit_ns = worker_now(w);
		atomic_store_explicit(&w->inflight, 1, memory_order_relaxed);	/* for the drain notice */
		op = "submit";
		n = engine_count(w, op, ops->submit(w->ctx, &io, 1), 1);
		if (n == 1)
			n = engine_count(w, op = "reap", ops->reap(w->ctx, 1, 1, w->done, 0), 1);
		if (n == 1 && !engine_result_ok(w, io))
			n = -EPROTO;
		if (n != 1) {
			w->fatal = n < 0 ? n : engine_broke(w, "%s() returned 0: a synchronous "
							    "engine takes and completes 1", op);
			free(dry);
			return;
		}
		atomic_store_explicit(&w->inflight, 0, memory_order_relaxed);
		now = worker_now(w);
		account(w, io, now);
		publish(w, (int64_t)((now - w->t0) / NSEC_PER_SEC) - 1);
	}
	free(dry);
	if (now >= end)
		publish(w, (int64_t)w->total_secs - 1);
	else
		finish_partial(w, now);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	const struct hb_engine_ops *ops = w->engine->desc->ops;
	struct hb_engine_setup setup = {
		.struct_size = sizeof(setup),
		.ntargets = w->wl->ntargets,
		.fds = w->fds,
		.sizes = w->sizes,
		.depth = w->depth,
		.buf = w->buf,
		.buf_len = w->buf_len,
		.direct = w->wl->direct,
		.worker = w->index,
		.seed = w->seed,
		.opts = w->opts,
		.nopts = w->nopts,
		.log = hb_log,
		.nworkers = w->wl->workers,
	};

	w->tid = (pid_t)syscall(SYS_gettid);
	/* pinned before the engine sets up its rings, so they land near the card too */
	w->open_rc = placement_pin_self(w->place);
	w->pin_failed = w->open_rc != 0;
	if (w->open_rc == 0)
		w->open_rc = ops->open(&setup, &w->ctx);
	atomic_fetch_add(&w->sh->ready, 1);
	syscall(SYS_futex, &w->sh->ready, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
	while (!atomic_load_explicit(&w->sh->go, memory_order_acquire))
		syscall(SYS_futex, &w->sh->go, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
	if (w->open_rc == 0 && !atomic_load(&w->sh->abort)) {
		w->t0 = w->sh->engine_clock ? ops->now(w->ctx) : w->sh->t0;
		if (ops->flags & HB_ENGINE_SYNC)
			worker_loop_sync(w);
		else
			worker_loop(w);
		if (w->fatal)
			atomic_store(&w->sh->abort, true);
	}
	if (w->open_rc == 0 && !w->stuck)	/* closing could wait for them forever */
		ops->close(w->ctx);
	w->cpu_end_ns = hostcpu_self_ns();
	w->end_wall_ns = util_now_ns();
	atomic_store_explicit(&w->finished, true, memory_order_release);
	worker_news(w->sh);
	return NULL;
}

int worker_start(struct worker *w)
{
	return -pthread_create(&w->thread, NULL, worker_main, w);
}
