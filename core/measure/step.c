/* One measured step: targets, workers, the sampler, the totals. */
#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/log.h"
#include "measure/guard.h"
#include "measure/hostcpu.h"
#include "measure/placement.h"
#include "measure/step.h"
#include "measure/step_errors.h"
#include "measure/step_spec.h"
#include "measure/target.h"
#include "measure/telemetry.h"
#include "base/stop.h"
#include "measure/worker.h"

/* Merged seconds not yet stored. Merging never waits for the database (the
 * workers' rings would fill and stall them); storing catches up when it can. */
struct sample_queue {
	struct step_sample *v;
	size_t n, cap;
	uint64_t busy_since;		/* ns; 0: the last store worked */
	uint64_t last_try;		/* ns */
	int rc;				/* a failure that fails the step */
	char err[512];
};

#define STORE_RETRY_NS (NSEC_PER_SEC / 4)	/* while busy: how often to try */
#define TICK_NS (NSEC_PER_SEC / 2)		/* the live line's updates */
#define STORE_RETRY_SECS 60			/* at the step's end */

struct step_run {
	const struct step_spec *spec;
	struct sample_queue q;
	struct worker *workers;
	unsigned nworkers;
	unsigned nstarted;		/* threads running, to join */
	bool joined;			/* and joined */
	struct worker_shared sh;
	int *fds;
	uint64_t *sizes;
	struct placement place;		/* CPUs and node of every worker */
	struct hist sec_lat[2];		/* scratch: one second, merged */
	uint64_t *sec_tgt;		/* scratch: one second's per-target counters */
	int64_t last_sec;		/* the step stopped inside it; -1: not known (yet) */
	double last_secs;		/* s of it that the step covered */
	struct step_totals *t;		/* the seconds stored */
	struct step_totals pend;	/* the seconds queued: added to t once stored */
	struct cpu_meter cpu;		/* workers' and host's CPU, per batch of seconds */
};

unsigned step_store_retry_secs(void)
{
	const char *env = getenv("HBATEST_STORE_RETRY");
	char *end;
	unsigned long v;

	if (!env || !*env)
		return STORE_RETRY_SECS;
	v = strtoul(env, &end, 10);
	return *end || v > 86400 ? STORE_RETRY_SECS : (unsigned)v;
}

static void close_targets(struct step_run *r)
{
	for (unsigned i = 0; r->fds && i < r->spec->wl.ntargets; i++)
		if (r->fds[i] >= 0)
			close(r->fds[i]);
	free(r->fds);
	free(r->sizes);
}

/* A file read where nothing has written it (a `truncate -s` file, space
 * fallocate() reserved) is read from the file system's zeros, not the
 * disk: the step's reads measure the page cache. Said when 1 % or more of
 * the range is such, at the step's start (an earlier step may have filled it). */
static void warn_unwritten(const struct step_spec *s, const char *path, int fd, uint64_t range)
{
	uint64_t none = target_unwritten(fd, range);

	if (none && none >= range / 100)
		log_warn("step '%s': %.0f %% of target '%s' (%.1f of its %.1f MiB read) holds no "
			 "data yet (holes, or space reserved but never written): its reads return "
			 "zeros from the file system without reaching the disk, so this step's read "
			 "figures are not the device's; write the file first (a step with "
			 "passes = 1), or remove it and give size= to lay it out",
			 s->name, 100.0 * (double)none / (double)range, path,
			 (double)none / (1 << 20), (double)range / (1 << 20));
}

static int open_targets(struct step_run *r, const struct step_hooks *hooks,
			char *err, size_t len)
{
	const struct workload *wl = &r->spec->wl;
	const struct hb_engine_ops *ops = r->spec->engine->desc->ops;
	bool writes = wl->write_pct > 0;

	r->fds = malloc(wl->ntargets * sizeof(*r->fds));
	r->sizes = malloc(wl->ntargets * sizeof(*r->sizes));
	if (!r->fds || !r->sizes)
		return -ENOMEM;
	for (unsigned i = 0; i < wl->ntargets; i++)
		r->fds[i] = -1;
	for (unsigned i = 0; i < wl->ntargets; i++) {
		struct target_spec *t = &wl->targets[i];
		int rc;

		r->sizes[i] = t->size;
		if (ops->flags & HB_ENGINE_VIRTUAL)
			continue;
		if (t->kind == TARGET_BLOCK && writes && !target_write_allowed(t->path, err, len))
			return -EPERM;
		if (t->create) {	/* claimed as it is made (guard.h): neither pass found it */
			if (t->kind == TARGET_FILE &&
			    (rc = guard_claim_file(t->path, true, err, len)) < 0)
				return rc;
			rc = target_layout(t->path, t->size, hooks ? hooks->layout : NULL,
					   hooks ? hooks->ctx : NULL, err, len);
			if (rc < 0)
				return rc;
			t->create = false;
		}
		rc = target_open(t->path, t->kind, writes, wl->direct, err, len);
		if (rc < 0)
			return rc;
		r->fds[i] = rc;
		if (t->kind == TARGET_FILE && wl->write_pct < 100)
			warn_unwritten(r->spec, t->path, rc, workload_span(wl, i));
	}
	return 0;
}

static int start_workers(struct step_run *r, char *err, size_t len)
{
	const struct step_spec *s = r->spec;
	const struct hb_engine_ops *ops = s->engine->desc->ops;
	unsigned started = 0;
	int rc = 0;

	r->nworkers = s->wl.workers;
	r->workers = calloc(r->nworkers, sizeof(*r->workers));
	if (!r->workers)
		return -ENOMEM;
	r->sh.engine_clock = ops->now != NULL;
	r->sh.stop_on_error = s->on_error == ON_ERROR_FAIL;
	for (unsigned i = 0; i < r->nworkers; i++) {
		struct worker *w = &r->workers[i];

		w->index = i;
		w->sh = &r->sh;
		w->wl = &s->wl;
		w->engine = s->engine;
		w->opts = s->opts;
		w->nopts = s->nopts;
		w->fds = r->fds;
		w->sizes = r->sizes;
		w->place = &r->place;
		w->seed = s->wl.seed * 1000003u + i;
		w->total_secs = s->wl.ramp + s->wl.duration;
		if ((rc = worker_prepare(w)) < 0) {
			snprintf(err, len, "cannot set up worker %u: %s", i, strerror(-rc));
			break;
		}
	}
	for (unsigned i = 0; rc == 0 && i < r->nworkers; i++) {
		if ((rc = worker_start(&r->workers[i])) < 0)
			snprintf(err, len, "cannot start worker thread: %s", strerror(-rc));
		else
			started++;
	}
	r->nstarted = started;
	return rc;
}

/* Merge second sec of every worker into one sample. */
static void merge_second(struct step_run *r, uint64_t sec, struct step_sample *smp)
{
	uint64_t busy = 0;

	memset(smp, 0, sizeof(*smp));
	smp->t = sec;
	smp->ramp = sec < r->spec->wl.ramp;
	smp->secs = (int64_t)sec == r->last_sec ? r->last_secs : 1.0;
	memset(r->sec_tgt, 0, r->spec->wl.ntargets * TGT_COUNTERS * sizeof(uint64_t));
	hist_reset(&r->sec_lat[0]);
	hist_reset(&r->sec_lat[1]);
	for (unsigned i = 0; i < r->nworkers; i++) {
		struct worker *w = &r->workers[i];
		struct sec_bucket *b = &w->ring[sec % WORKER_RING];

		assert(b->sec <= (int64_t)sec);	/* a slot is reused only once consumed */
		if (b->sec == (int64_t)sec) {
			for (unsigned k = 0; k < r->spec->wl.ntargets * TGT_COUNTERS; k++)
				r->sec_tgt[k] += b->tgt[k];
			for (int d = 0; d < 2; d++) {
				smp->ops[d] += b->ops[d];
				smp->bytes[d] += b->bytes[d];
				hist_merge(&r->sec_lat[d], &b->lat[d]);
			}
			smp->errors += b->errors;
			busy += b->busy_ns;
		}
		atomic_store_explicit(&w->consumed, (int64_t)sec, memory_order_release);
	}
	for (int d = 0; d < 2; d++) {
		smp->lat_mean[d] = hist_mean(&r->sec_lat[d]) / 1000.0;
		smp->lat_p99[d] = hist_percentile(&r->sec_lat[d], 99) / 1000.0;
		if (r->sec_lat[d].total && r->sec_lat[d].max / 1000.0 > smp->lat_max)
			smp->lat_max = (double)r->sec_lat[d].max / 1000.0;
	}
	smp->occupancy = (double)busy / NSEC_PER_SEC / smp->secs;
}

static void add_to_totals(struct step_run *r, const struct step_sample *smp,
			  struct step_totals *t)
{
	assert(t->ntargets == r->spec->wl.ntargets);	/* r->sec_tgt's */
	if (smp->ramp)
		return;
	for (int d = 0; d < 2; d++) {
		t->ops[d] += smp->ops[d];
		t->bytes[d] += smp->bytes[d];
		hist_merge(&t->lat[d], &r->sec_lat[d]);
	}
	t->res.errors += smp->errors;
	t->window_s += smp->secs;
	for (unsigned k = 0; k < t->ntargets * TGT_COUNTERS; k++)
		t->tgt[k] += r->sec_tgt[k];
}

/* The queued seconds are stored: their sums join the step's totals, so the
 * totals are always those of the stored samples, whatever fails later. */
static void pending_stored(struct step_run *r)
{
	struct step_totals *t = r->t, *p = &r->pend;

	assert(p->ntargets == t->ntargets);
	for (int d = 0; d < 2; d++) {
		t->ops[d] += p->ops[d];
		t->bytes[d] += p->bytes[d];
		hist_merge(&t->lat[d], &p->lat[d]);
		hist_reset(&p->lat[d]);
		p->ops[d] = p->bytes[d] = 0;
	}
	t->res.errors += p->res.errors;
	t->window_s += p->window_s;
	for (unsigned k = 0; k < t->ntargets * TGT_COUNTERS; k++)
		t->tgt[k] += p->tgt[k];
	memset(p->tgt, 0, p->ntargets * TGT_COUNTERS * sizeof(uint64_t));
	p->res.errors = 0;
	p->window_s = 0;
}

/* The highest second every worker is done with. A worker that stopped
 * inside a second (worker.h: partial) is done with all of them once it has
 * finished; when every worker has, the step's last second is the one the
 * latest of them stopped in, kept as the part of it the step covered. */
static int64_t min_published(struct step_run *r, bool *all_finished)
{
	uint64_t total = r->spec->wl.ramp + r->spec->wl.duration, end = 0;
	int64_t m = INT64_MAX;
	bool partial = false;

	*all_finished = true;
	for (unsigned i = 0; i < r->nworkers; i++) {
		struct worker *w = &r->workers[i];
		int64_t p = atomic_load_explicit(&w->published, memory_order_acquire);

		if (!atomic_load_explicit(&w->finished, memory_order_acquire)) {
			*all_finished = false;
		} else if (w->partial) {
			partial = true;
			if (w->end_ns - w->t0 > end)
				end = w->end_ns - w->t0;
			continue;
		}
		if (p < m)
			m = p;
	}
	if (*all_finished && partial && end < total * NSEC_PER_SEC && r->last_sec < 0) {
		r->last_sec = (int64_t)(end / NSEC_PER_SEC);
		/* ended on a second's boundary (a virtual clock): 1 ns, not 0 */
		end -= (uint64_t)r->last_sec * NSEC_PER_SEC;
		r->last_secs = (double)(end ? end : 1) / NSEC_PER_SEC;
	}
	if (*all_finished && partial && r->last_sec >= 0 && r->last_sec < m)
		m = r->last_sec;
	return m;
}

static int queue_push(struct sample_queue *q, const struct step_sample *smp)
{
	if (q->n == q->cap) {
		size_t cap = q->cap ? q->cap * 2 : 64;
		struct step_sample *v = realloc(q->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		q->v = v;
		q->cap = cap;
	}
	q->v[q->n++] = *smp;
	return 0;
}

/* Offer every queued second to the store: 0 (stored, or nothing to store),
 * -EBUSY (kept), or the failure that fails the step. */
static int queue_store(struct step_run *r, const struct step_hooks *hooks)
{
	struct sample_queue *q = &r->q;
	int rc;

	assert(q->n <= q->cap);
	if (q->rc)
		return q->rc;
	if (!hooks || !hooks->store)
		q->n = 0;	/* nowhere to store them: as good as stored */
	if (!q->n) {
		pending_stored(r);
		return 0;
	}
	q->last_try = util_now_ns();
	rc = hooks->store(hooks->ctx, q->v, (unsigned)q->n, q->err, sizeof(q->err));
	if (rc == -EBUSY) {
		if (!q->busy_since) {
			q->busy_since = q->last_try;
			log_warn("%s: second %llu and later are kept in memory until it is free",
				 q->err, (unsigned long long)q->v[0].t);
		}
		return rc;
	}
	if (rc) {
		q->rc = rc;
		return rc;
	}
	if (q->busy_since)
		log_info("stored %zu seconds kept while the database was busy for %.0f s",
			 q->n, (double)(util_now_ns() - q->busy_since) / 1e9);
	q->busy_since = 0;
	q->n = 0;
	pending_stored(r);
	return 0;
}

/* The end of the step: retry a busy store for a bounded time. */
static void queue_flush(struct step_run *r, const struct step_hooks *hooks)
{
	struct sample_queue *q = &r->q;
	unsigned secs = step_store_retry_secs();
	uint64_t deadline = util_now_ns() + secs * NSEC_PER_SEC;

	while (queue_store(r, hooks) == -EBUSY && util_now_ns() < deadline) {
		struct timespec ts = { 0, 100 * 1000 * 1000 };

		nanosleep(&ts, NULL);
	}
	if (q->n && !q->rc) {
		char why[256];

		snprintf(why, sizeof(why), "%.200s", q->err);
		log_warn("giving up on storing seconds %llu to %llu after %u s of retrying",
			 (unsigned long long)q->v[0].t, (unsigned long long)q->v[q->n - 1].t, secs);
		snprintf(q->err, sizeof(q->err), "seconds %llu to %llu of the step cannot be "
			 "stored: %s, still after %u s of retrying", (unsigned long long)q->v[0].t,
			 (unsigned long long)q->v[q->n - 1].t, why, secs);
		q->rc = -EBUSY;
	}
}

/* After an interrupt the workers wait for their requests in flight (a
 * dropped command: a minute or more, worker.c drain_expired). Once that has
 * lasted a second, say so, once. since: when the interrupt was seen, 0 not
 * yet, UINT64_MAX told. */
static void drain_notice(const struct step_run *r, uint64_t *since)
{
	uint64_t now = util_now_ns(), n = 0;

	if (!*since)
		*since = now;
	if (*since == UINT64_MAX || now - *since < NSEC_PER_SEC)
		return;
	*since = UINT64_MAX;
	for (unsigned i = 0; i < r->nstarted; i++)
		n += atomic_load_explicit(&r->workers[i].inflight, memory_order_relaxed);
	if (n)
		log_warn("interrupted: waiting for %llu request%s still in flight (%s); "
			 "interrupt again to stop at once", (unsigned long long)n, n == 1 ? "" : "s",
			 ((const struct hb_engine_ops *)r->spec->engine->desc->ops)->flags & HB_ENGINE_SYNC
			 ? "until its system call returns"
			 : "for up to 60 s, or the step's longest I/O if longer");
}

static struct telemetry *tele(const struct step_hooks *hooks)
{
	return hooks ? hooks->telemetry : NULL;
}

/* The live line's news: sec seconds merged, as each is (merged) or by the wall clock */
static void tell(const struct step_run *r, const struct step_hooks *hooks, struct step_tick *t,
		 uint64_t sec, bool merged)
{
	t->sec = sec;
	t->elapsed = r->sh.engine_clock ? (double)sec : (double)(util_now_ns() - r->sh.t0) / 1e9;
	t->merged = merged;
	hooks->tick(hooks->ctx, t);
}

/* The sampler: runs on the main thread until every worker has finished.
 * Every second is merged as soon as all workers are past it, whatever the
 * database does; a store that fails for good stops the workers. */
static void sample_loop(struct step_run *r, const struct step_hooks *hooks)
{
	uint64_t total = r->spec->wl.ramp + r->spec->wl.duration, next = 0;
	uint64_t last_tick = 0, stop_seen = 0;
	struct step_sample smp = { 0 };
	struct step_tick tick = { .total_secs = total, .engine_clock = r->sh.engine_clock };
	bool per_second = hooks && hooks->tick && r->sh.engine_clock;
	struct sample_queue *q = &r->q;
	bool finished = false;

	while (!finished) {
		uint32_t seen = atomic_load(&r->sh.news);	/* before looking */
		int64_t ready = min_published(r, &finished);
		bool merged = false;

		if ((int64_t)next <= ready && next < total)	/* one reading a batch */
			cpu_meter_batch(&r->cpu, r->workers,
					(unsigned)((uint64_t)ready < total ? (uint64_t)ready + 1 - next
									    : total - next));
		while ((int64_t)next <= ready && next < total) {
			merge_second(r, next, &smp);
			cpu_meter_second(&r->cpu, !smp.ramp, &smp.cpu_busy, &smp.host_busy);
			if (!q->rc && queue_push(q, &smp) < 0) {
				snprintf(q->err, sizeof(q->err), "out of memory");
				q->rc = -ENOMEM;
			}
			if (!q->rc)
				add_to_totals(r, &smp, &r->pend);
			next++;
			merged = true;
			tick.bytes += smp.bytes[0] + smp.bytes[1];
			tick.last = &smp;
			if (per_second)	/* a simulator's seconds: status lines keep its pace */
				tell(r, hooks, &tick, next, true);
			if (next < total)	/* an engine clock's pace; none at the end */
				telemetry_at(tele(hooks), next);
		}
		if (!atomic_load(&r->sh.abort) && telemetry_failed(tele(hooks), NULL, 0))
			atomic_store(&r->sh.abort, true);	/* on_telemetry = "fail" */
		if ((merged || util_now_ns() - q->last_try >= STORE_RETRY_NS) && q->n &&
		    queue_store(r, hooks) < 0 && q->rc)
			atomic_store(&r->sh.abort, true);
		if (hooks && hooks->tick && util_now_ns() - last_tick >= TICK_NS) {
			tell(r, hooks, &tick, next, false);
			last_tick = util_now_ns();
		}
		if (hb_stop_requested && !finished)
			drain_notice(r, &stop_seen);
		if (!merged && !finished) {	/* until news, the live line or a store's retry */
			uint64_t until = (hooks && hooks->tick ? last_tick : util_now_ns()) + TICK_NS;

			if (q->n && !q->rc && q->last_try + STORE_RETRY_NS < until)
				until = q->last_try + STORE_RETRY_NS;
			worker_news_wait(&r->sh, seen, until);
		}
	}
	queue_flush(r, hooks);
}

void step_totals_release(struct step_totals *t)
{
	free(t->tgt);
	t->tgt = NULL;
	t->ntargets = 0;
}

void step_totals_finish(struct step_totals *t)
{
	struct hist all;
	double secs = t->window_s;	/* a step cut short: its last second's part */

	hist_reset(&all);
	hist_merge(&all, &t->lat[0]);
	hist_merge(&all, &t->lat[1]);
	t->res.read_iops = secs ? (double)t->ops[0] / secs : 0;
	t->res.write_iops = secs ? (double)t->ops[1] / secs : 0;
	t->res.iops = t->res.read_iops + t->res.write_iops;
	t->res.mbps = secs ? (double)(t->bytes[0] + t->bytes[1]) / secs / 1e6 : 0;
	t->res.lat_mean = hist_mean(&all) / 1000.0;
	t->res.lat_p50 = hist_percentile(&all, 50) / 1000.0;
	t->res.lat_p99 = hist_percentile(&all, 99) / 1000.0;
	t->res.lat_p999 = hist_percentile(&all, 99.9) / 1000.0;
	t->res.lat_max = all.total ? (double)all.max / 1000.0 : 0;
}

/* HBATEST_NO_SAMPLER=1, for `make bench` to measure the sampler's own cost:
 * the main thread sleeps in pthread_join while the workers run and merges
 * and stores every second at the end. Only for steps shorter than the
 * workers' ring of seconds (worker.h), which then holds all of them. */
static bool sampler_deferred(const struct step_spec *s)
{
	const char *e = getenv("HBATEST_NO_SAMPLER");

	return e && !strcmp(e, "1") && s->wl.ramp + s->wl.duration < WORKER_RING;
}

/* Wait until every worker started has opened its engine: whether all did. */
static bool workers_ready(struct step_run *r)
{
	bool opened = true;

	worker_ready_wait(&r->sh, r->nstarted);
	for (unsigned i = 0; i < r->nstarted; i++)
		if (r->workers[i].open_rc)
			opened = false;
	return opened;
}

static void join_workers(struct step_run *r)
{
	for (unsigned i = 0; i < r->nstarted && !r->joined; i++)
		pthread_join(r->workers[i].thread, NULL);
	r->joined = true;
}

/* A fill (passes=): whether a worker wrote all it was to, and when the last did. */
static void fill_ended(struct step_run *r, struct step_totals *t)
{
	for (unsigned i = 0; i < r->nstarted; i++) {
		struct worker *w = &r->workers[i];
		double el = (double)(w->end_ns - w->t0) / 1e9;

		t->filled |= w->exhausted;
		if (w->exhausted && el > t->res.elapsed_s)
			t->res.elapsed_s = el;
	}
}

int step_execute(const struct step_spec *spec, const struct step_hooks *hooks,
		 struct step_totals *t, char *err, size_t len)
{
	struct step_run r = { .spec = spec };
	bool open_failed = false;
	int rc;

	memset(t, 0, sizeof(*t));
	t->cpu_busy = t->host_busy = NAN;
	t->host_bound = -1;
	hist_reset(&t->lat[0]);
	hist_reset(&t->lat[1]);
	hist_reset(&r.pend.lat[0]);
	hist_reset(&r.pend.lat[1]);
	r.t = t;
	r.last_sec = -1;
	t->ntargets = r.pend.ntargets = spec->wl.ntargets;
	t->tgt = calloc(t->ntargets * TGT_COUNTERS, sizeof(uint64_t));
	r.pend.tgt = calloc(t->ntargets * TGT_COUNTERS, sizeof(uint64_t));
	r.sec_tgt = calloc(t->ntargets * TGT_COUNTERS, sizeof(uint64_t));
	if (!t->tgt || !r.sec_tgt || !r.pend.tgt) {
		free(r.sec_tgt);
		free(r.pend.tgt);
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	rc = open_targets(&r, hooks, err, len);
	if (rc == 0 && !(rc = placement_decide(&spec->wl, spec->cpus, step_numa(spec),
					       &r.place, err, len)))
		snprintf(t->placement, sizeof(t->placement), "%s", r.place.text);
	if (rc == 0)
		rc = start_workers(&r, err, len);
	if (r.nstarted) {
		open_failed = !workers_ready(&r);
		if (open_failed || rc)
			atomic_store(&r.sh.abort, true);
		r.sh.t0 = util_now_ns();
		/* a simulator's seconds are not the host's: its CPU figures stay NULL */
		if (!open_failed && rc == 0 &&
		    (rc = cpu_meter_start(&r.cpu, r.workers, r.nstarted, !r.sh.engine_clock))) {
			snprintf(err, len, "out of memory");
			atomic_store(&r.sh.abort, true);
		}
		if (!open_failed && rc == 0)	/* the first sample, at second 0 */
			telemetry_go(tele(hooks), r.sh.t0, r.sh.engine_clock,
				     spec->wl.ramp + spec->wl.duration);
		worker_go(&r.sh);
		if (!open_failed && rc == 0 && sampler_deferred(spec))
			join_workers(&r);	/* the seconds wait in the rings */
		if (!open_failed && rc == 0)
			sample_loop(&r, hooks);
		join_workers(&r);
		cpu_meter_result(&r.cpu, &t->cpu_busy, &t->host_busy, &t->host_bound);
		cpu_meter_free(&r.cpu);
		if (rc == 0)
			rc = step_errors(spec, r.workers, r.nworkers, r.place.text, err, len);
		if (r.q.rc) {	/* seconds lost: this outranks the rest */
			if (rc)
				log_error("%s", err);
			snprintf(err, len, "%s", r.q.err);
			rc = r.q.rc;
		}
		if (rc == 0 && hb_stop_requested)
			rc = -EINTR;
		if (rc == 0 && telemetry_failed(tele(hooks), err, len))
			rc = -ECANCELED;
		fill_ended(&r, t);
		if (t->filled && spec->wl.ramp && t->window_s == 0 && rc == 0)
			log_warn("the fill ended at %.2f s, inside its %u s ramp: no second after "
				 "the ramp, so no IOPS or MB/s (ramp=0 measures a whole fill)",
				 t->res.elapsed_s, spec->wl.ramp);
	}
	free(r.sec_tgt);
	free(r.pend.tgt);
	free(r.q.v);
	for (unsigned i = 0; r.workers && i < r.nworkers; i++)
		worker_release(&r.workers[i]);
	free(r.workers);
	close_targets(&r);
	step_totals_finish(t);
	return rc;
}
