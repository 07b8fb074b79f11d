/* One measured step: targets, workers, the sampler, the totals. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "step.h"
#include "target.h"
#include "worker.h"

struct step_run {
	const struct step_spec *spec;
	struct worker *workers;
	unsigned nworkers;
	unsigned nstarted;		/* threads running, to join */
	struct worker_shared sh;
	int *fds;
	uint64_t *sizes;
	struct hist sec_lat[2];		/* scratch: one second, merged */
	uint64_t *sec_tgt;		/* scratch: one second's per-target counters */
};

const char *step_kind_name(enum step_kind kind)
{
	static const char *const names[] = { "measure", "precondition", "steady-round", "exec" };

	return names[kind];
}

void step_spec_free(struct step_spec *s)
{
	free(s->name);
	free(s->group);
	free(s->tags);
	free(s->params_json);
	free(s->axis);
	free(s->axis_value);
	free(s->cmd);
	plugin_opts_free(s->opts, s->nopts);
	for (unsigned i = 0; i < s->wl.ntargets; i++)
		free(s->wl.targets[i].path);
	free(s->wl.targets);
	memset(s, 0, sizeof(*s));
}

static void close_targets(struct step_run *r)
{
	for (unsigned i = 0; r->fds && i < r->spec->wl.ntargets; i++)
		if (r->fds[i] >= 0)
			close(r->fds[i]);
	free(r->fds);
	free(r->sizes);
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
		if (t->create) {
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
	memset(r->sec_tgt, 0, r->spec->wl.ntargets * TGT_COUNTERS * sizeof(uint64_t));
	hist_reset(&r->sec_lat[0]);
	hist_reset(&r->sec_lat[1]);
	for (unsigned i = 0; i < r->nworkers; i++) {
		struct worker *w = &r->workers[i];
		struct sec_bucket *b = &w->ring[sec % WORKER_RING];

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
	smp->occupancy = (double)busy / NSEC_PER_SEC;
}

static void add_to_totals(struct step_run *r, const struct step_sample *smp,
			  struct step_totals *t)
{
	if (smp->ramp)
		return;
	for (int d = 0; d < 2; d++) {
		t->ops[d] += smp->ops[d];
		t->bytes[d] += smp->bytes[d];
		hist_merge(&t->lat[d], &r->sec_lat[d]);
	}
	t->errors += smp->errors;
	t->window_s++;
	for (unsigned k = 0; k < t->ntargets * TGT_COUNTERS; k++)
		t->tgt[k] += r->sec_tgt[k];
}

static int64_t min_published(struct step_run *r, bool *all_finished)
{
	int64_t m = INT64_MAX;

	*all_finished = true;
	for (unsigned i = 0; i < r->nworkers; i++) {
		int64_t p = atomic_load_explicit(&r->workers[i].published, memory_order_acquire);

		if (!atomic_load_explicit(&r->workers[i].finished, memory_order_acquire))
			*all_finished = false;
		if (p < m)
			m = p;
	}
	return m;
}

/* The sampler: runs on the main thread until every worker has finished. */
static void sample_loop(struct step_run *r, const struct step_hooks *hooks,
			struct step_totals *t)
{
	uint64_t total = r->spec->wl.ramp + r->spec->wl.duration, next = 0;
	uint64_t last_tick = 0;
	struct step_sample smp = { 0 };
	bool finished = false;

	while (!finished) {
		int64_t ready = min_published(r, &finished);
		bool merged = false;

		while ((int64_t)next <= ready && next < total) {
			merge_second(r, next, &smp);
			add_to_totals(r, &smp, t);
			if (hooks && hooks->sample)
				hooks->sample(hooks->ctx, &smp);
			next++;
			merged = true;
		}
		if (hooks && hooks->tick && util_now_ns() - last_tick >= NSEC_PER_SEC / 2) {
			hooks->tick(hooks->ctx, next, total, next ? &smp : NULL);
			last_tick = util_now_ns();
		}
		if (!merged && !finished) {
			struct timespec ts = { 0, r->sh.engine_clock ? 1000000 : 10000000 };

			nanosleep(&ts, NULL);
		}
	}
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
	/* a fill ends inside its last second: rate it by the time it took */
	double secs = t->filled && t->elapsed_s > 0 ? t->elapsed_s : (double)t->window_s;

	hist_reset(&all);
	hist_merge(&all, &t->lat[0]);
	hist_merge(&all, &t->lat[1]);
	t->read_iops = secs ? (double)t->ops[0] / secs : 0;
	t->write_iops = secs ? (double)t->ops[1] / secs : 0;
	t->iops = t->read_iops + t->write_iops;
	t->mbps = secs ? (double)(t->bytes[0] + t->bytes[1]) / secs / 1e6 : 0;
	t->lat_mean = hist_mean(&all) / 1000.0;
	t->lat_p50 = hist_percentile(&all, 50) / 1000.0;
	t->lat_p99 = hist_percentile(&all, 99) / 1000.0;
	t->lat_p999 = hist_percentile(&all, 99.9) / 1000.0;
	t->lat_max = all.total ? (double)all.max / 1000.0 : 0;
}

static int collect_errors(struct step_run *r, char *err, size_t len)
{
	int rc = 0;

	for (unsigned i = 0; i < r->nworkers; i++) {
		struct worker *w = &r->workers[i];

		if (w->open_rc && w->open_rc != -ECANCELED && !rc) {
			snprintf(err, len, "engine '%s' cannot open worker %u: %s",
				 r->spec->engine->desc->name, i, strerror(-w->open_rc));
			rc = w->open_rc;
		} else if (w->fatal && !rc) {
			snprintf(err, len, "engine '%s' failed in worker %u: %s",
				 r->spec->engine->desc->name, i, strerror(-w->fatal));
			rc = w->fatal;
		}
		if (w->err)
			log_warn("I/O error on '%s' at offset %llu: %s",
				 r->spec->wl.targets[w->err_target].path,
				 (unsigned long long)w->err_offset, strerror(-w->err));
	}
	return rc;
}

int step_execute(const struct step_spec *spec, const struct step_hooks *hooks,
		 struct step_totals *t, char *err, size_t len)
{
	struct step_run r = { .spec = spec };
	bool open_failed = false;
	int rc;

	memset(t, 0, sizeof(*t));
	hist_reset(&t->lat[0]);
	hist_reset(&t->lat[1]);
	t->ntargets = spec->wl.ntargets;
	t->tgt = calloc(t->ntargets * TGT_COUNTERS, sizeof(uint64_t));
	r.sec_tgt = calloc(t->ntargets * TGT_COUNTERS, sizeof(uint64_t));
	if (!t->tgt || !r.sec_tgt) {
		free(r.sec_tgt);
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	rc = open_targets(&r, hooks, err, len);
	if (rc == 0)
		rc = start_workers(&r, err, len);
	if (r.nstarted) {
		while (atomic_load(&r.sh.ready) < r.nstarted) {
			struct timespec ts = { 0, 100 * 1000 };

			nanosleep(&ts, NULL);
		}
		for (unsigned i = 0; i < r.nstarted; i++)
			if (r.workers[i].open_rc)
				open_failed = true;
		if (open_failed || rc)
			atomic_store(&r.sh.abort, true);
		r.sh.t0 = util_now_ns();
		atomic_store_explicit(&r.sh.go, true, memory_order_release);
		if (!open_failed && rc == 0)
			sample_loop(&r, hooks, t);
		for (unsigned i = 0; i < r.nstarted; i++)
			pthread_join(r.workers[i].thread, NULL);
		if (rc == 0)
			rc = collect_errors(&r, err, len);
		if (rc == 0 && hb_stop_requested)
			rc = -EINTR;
		for (unsigned i = 0; i < r.nstarted; i++) {
			struct worker *w = &r.workers[i];
			double el = (double)(w->end_ns - w->t0) / 1e9;

			t->filled |= w->exhausted;
			if (w->exhausted && el > t->elapsed_s)
				t->elapsed_s = el;
		}
	}
	free(r.sec_tgt);
	for (unsigned i = 0; r.workers && i < r.nworkers; i++)
		worker_release(&r.workers[i]);
	free(r.workers);
	close_targets(&r);
	step_totals_finish(t);
	return rc;
}
