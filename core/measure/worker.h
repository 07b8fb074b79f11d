/* Worker threads: each owns an engine context, a generator and a ring of
 * per-second buckets that the sampler (main thread) drains without locks. */
#ifndef HB_WORKER_H
#define HB_WORKER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/hist.h"
#include "measure/loader.h"
#include "measure/workload.h"

/* Seconds a worker may run ahead of the sampler. The sampler merges every
 * second even while the database is busy (step.c queues what it cannot
 * store yet), so this only has to cover a slow wake-up of the main thread. */
#define WORKER_RING 8

/* Times a worker offers requests to an engine that takes none with none in
 * flight (so no completion can make room) before it fails the step. */
#define WORKER_IDLE_RETRIES 1000

/* The I/Os of one worker that completed in one second of the step. */
struct sec_bucket {
	int64_t sec;		/* second of the step it holds; -1: none */
	uint64_t ops[2];	/* by enum hb_op */
	uint64_t bytes[2];
	uint64_t errors;
	uint64_t busy_ns;	/* sum of latencies: occupancy by Little's law */
	uint64_t *tgt;		/* per target: TGT_COUNTERS each (worker_prepare) */
	struct hist lat[2];	/* ns */
};

/* Per-target counters of a second: ops and bytes by direction, errors. */
enum { TGT_OPS = 0, TGT_BYTES = 2, TGT_ERRORS = 4, TGT_COUNTERS = 5 };

struct worker_shared;
struct placement;

struct worker {
	unsigned index;
	struct worker_shared *sh;
	pthread_t thread;
	const struct workload *wl;
	const struct plugin *engine;
	const struct hb_kv *opts;
	unsigned nopts;
	const int *fds;
	const uint64_t *sizes;
	uint64_t seed;
	uint64_t t0;			/* ns: step start on this worker's clock */
	uint64_t total_secs;		/* ramp + duration */
	const struct placement *place;	/* CPUs and node to run on; NULL: anywhere */

	struct gen gen;
	void *ctx;			/* engine's */
	struct hb_io *ios;		/* depth requests */
	struct hb_io **batch, **done;
	void *buf;
	size_t buf_len;
	size_t map_len;			/* of the mapping that holds buf */
	size_t slot_len;		/* bytes of buffer per request */
	size_t wbuf_off;		/* where a request's write buffer starts in its slot */
	unsigned depth;
	uint64_t write_seq;		/* stamped into each write buffer */
	bool *flying;			/* depth: submitted, not yet reaped */
	uint64_t lat_max_ns;		/* the longest I/O so far: bounds the drain */
	/* preset "fio" (worker_fio_timing): each request also timed as fio's
	 * defaults time it, its submission and its completion apart; NULL without */
	uint64_t *issue_ns;		/* depth: when its submitting call returned */
	struct hist *slat, *clat;	/* this worker's, after the ramp (fio's slat, clat) */

	struct sec_bucket ring[WORKER_RING];
	_Atomic int64_t published;	/* seconds <= this are final in the ring */
	_Atomic int64_t consumed;	/* the sampler has merged seconds <= this */
	_Atomic bool finished;		/* drained and closed */
	_Atomic uint64_t inflight;	/* for the live line */
	bool exhausted;			/* a fill wrote all it was to write */
	bool partial;			/* it stopped inside a second, which it kept:
					 * a fill, an I/O error, an interrupt */
	uint64_t end_ns;		/* when it stopped (partial), on its clock */
	int open_rc;
	bool pin_failed;		/* open_rc is pinning's, not the engine's */
	uint64_t nerrors;		/* failed or short I/Os, drain included */
	uint64_t nerrors_kept;		/* of them, those counted into its seconds */
	uint64_t nerrors_ramp;		/* of those, the ramp's: not in the step's errors */
	int64_t err_result;		/* the first one's: -errno, or bytes if short */
	uint64_t err_offset;
	uint32_t err_len;
	uint8_t err_op;			/* enum hb_op */
	int err_target;
	uint64_t err_ns;		/* when, on this worker's clock */
	bool err_elsewhere;		/* some error hit another target than the first */
	int fatal;			/* engine call failed: -errno */
	unsigned stuck;			/* requests that never completed in the drain */
	int stuck_target;		/* the first of them's */
	double drain_s;			/* how long the drain waited for them */
	bool refused;			/* the engine took no request, none in flight */
	char broke[112];		/* what the engine did against plugin.h, or "" */
	pid_t tid;			/* its thread's, set before it counts as ready */
	uint64_t cpu_end_ns;		/* ns it ran or waited to run, as it finished
					 * (measure/hostcpu.h); set before finished */
	uint64_t end_wall_ns;		/* util_now_ns() then */
};

/* Provided by step.c: the start handshake and the stop flag every worker reads. */
struct worker_shared {
	_Atomic uint32_t ready;		/* workers that have opened their engine (or failed to) */
	_Atomic uint32_t go;		/* 1: the main thread has set t0: start */
	uint64_t t0;			/* ns, CLOCK_MONOTONIC: set before go */
	_Atomic bool abort;		/* stop at once (error or interrupt) */
	bool engine_clock;		/* each worker takes time from its engine */
	bool stop_on_error;		/* on_error="fail": the first I/O error aborts */
	_Atomic uint32_t news;		/* bumped when a worker publishes or finishes */
	_Atomic bool sampler_waits;	/* the sampler sleeps on news: wake it */
};

/* The sampler's sleep (step.c) until a worker has news (a second final, or
 * it has finished) or until, a time on util_now_ns()'s clock: a futex on
 * sh->news, not a look every few milliseconds (docs/benchmarks.md). seen:
 * sh->news as read before the sampler last looked. With an engine's clock
 * (sim) it sleeps 1 ms instead: its seconds pass by the thousand. */
void worker_news_wait(struct worker_shared *sh, uint32_t seen, uint64_t until);

/* The start handshake, futexes on sh->ready and sh->go (no polling, no
 * lost wakeup: a futex wait returns at once when the word moved since it
 * was read). worker_ready_wait: until n workers have tried to open their
 * engine; worker_go: let them all run (t0 and abort set before). */
void worker_ready_wait(struct worker_shared *sh, unsigned n);
void worker_go(struct worker_shared *sh);

int worker_prepare(struct worker *w);
int worker_start(struct worker *w);
void worker_release(struct worker *w);

#endif
