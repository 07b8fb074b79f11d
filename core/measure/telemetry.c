/* Telemetry: a thread samples the probes every `telemetry` seconds of a step
 * and compares the watched values with the sample before. */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/log.h"
#include "base/stop.h"
#include "base/util.h"
#include "measure/loader.h"
#include "measure/telemetry.h"

/* A watched value's last sample: the thread's own. */
struct watch_last {
	char *source, *target, *key, *value;
};

struct telemetry {
	char *const *targets;
	unsigned ntargets;
	pthread_t thread;
	bool started;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	/* under mu: the step being sampled */
	bool quit, active, engine_clock;
	bool busy;		/* the thread is in the probes */
	unsigned every;		/* s */
	uint64_t t0;		/* ns, CLOCK_MONOTONIC */
	uint64_t due;		/* s: the next second to sample */
	uint64_t secs;		/* s: the step's; no sample at or past it */
	int64_t asked, done;	/* engine clock: second asked for, last one sampled */
	unsigned gen;		/* steps begun: a sample of an older one fails none */
	int64_t step_tag;
	double temp_limit;
	bool fail;
	char label[200];
	bool failed;
	char fail_msg[1024];
	struct tele_batch *head, **tail;
	/* the thread's */
	struct watch_last *last;
	unsigned nlast;
};

/* Keys whose change is an event, by their last part (probes name them
 * "c0.v0.write_policy_effective", "link.current_link_speed"). */
static const char *const watched_suffixes[] = {
	"write_policy_effective", "cache_protection_state", "active_operations",
	"background_operations", "current_link_speed", "current_link_width", NULL,
};

static const char *last_part(const char *key)
{
	const char *dot = strrchr(key, '.');

	return dot ? dot + 1 : key;
}

/* cN.vM.state: a volume's state (a drive's, cN.vM.dK.state, is not watched) */
static bool volume_state(const char *key)
{
	unsigned c, v;
	int n = -1;

	return sscanf(key, "c%u.v%u.state%n", &c, &v, &n) == 2 && n > 0 && !key[n];
}

bool telemetry_watched(const char *key)
{
	for (unsigned i = 0; watched_suffixes[i]; i++)
		if (!strcmp(last_part(key), watched_suffixes[i]))
			return true;
	return volume_state(key);
}

static bool temperature(const char *key)
{
	return !strcmp(last_part(key), "temperature_c");
}

static bool str_eq(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* The last value of x (added when new: *old NULL); NULL out of memory. */
static struct watch_last *watch_find(struct telemetry *tl, const struct fact *x)
{
	struct watch_last *w;

	for (unsigned i = 0; i < tl->nlast; i++) {
		w = &tl->last[i];
		if (!strcmp(w->key, x->key) && !strcmp(w->source, x->probe) &&
		    str_eq(w->target, x->target))
			return w;
	}
	w = realloc(tl->last, (tl->nlast + 1) * sizeof(*w));
	if (!w)
		return NULL;
	tl->last = w;
	w = &tl->last[tl->nlast++];
	w->source = strdup(x->probe);
	w->target = x->target ? strdup(x->target) : NULL;
	w->key = strdup(x->key);
	w->value = NULL;
	return w;
}

static void add_event(struct tele_batch *b, char *msg)
{
	char **v = msg ? realloc(b->events, (b->nevents + 1) * sizeof(*v)) : NULL;

	if (!v) {
		free(msg);
		return;
	}
	b->events = v;
	b->events[b->nevents++] = msg;
}

/* The message of a change of x from old, or NULL when it is none. */
static char *watch_change(const struct fact *x, const char *old, double limit,
			  const char *label, double t)
{
	const char *tgt = x->target ? x->target : "", *sep = x->target ? ", behind " : "";

	if (temperature(x->key)) {
		double now = atof(x->value), was = old ? atof(old) : -INFINITY;

		if (!(limit > 0) || !(now > limit) || was > limit)	/* NaN or 0: no limit */
			return NULL;
		return util_strdup_printf("%s: telemetry: %s %s is %s, past the limit of %g "
					  "(temp_limit_c; it was %s) at t=%.0f s%s%s", label,
					  x->probe, x->key, x->value, limit, old ? old : "not sampled",
					  t, sep, tgt);
	}
	if (!old || !strcmp(old, x->value) || !telemetry_watched(x->key))
		return NULL;
	return util_strdup_printf("%s: telemetry: %s %s changed from '%s' to '%s' at t=%.0f s%s%s",
				  label, x->probe, x->key, old, x->value, t, sep, tgt);
}

/* Compare the watched values of b with the samples before (any step's). */
static void watch(struct telemetry *tl, struct tele_batch *b, double limit, const char *label)
{
	for (unsigned i = 0; i < b->f.n; i++) {
		const struct fact *x = &b->f.v[i];
		struct watch_last *w;

		if (!telemetry_watched(x->key) && !temperature(x->key))
			continue;
		if (!(w = watch_find(tl, x)))
			continue;
		add_event(b, watch_change(x, w->value, limit, label, b->t));
		free(w->value);
		w->value = strdup(x->value);
	}
}

/* The next second to sample, waiting for it (mu held): -1 to quit. */
static int64_t next_due(struct telemetry *tl)
{
	for (;;) {
		if (tl->quit)
			return -1;
		if (tl->active && tl->engine_clock && tl->asked > tl->done)
			return tl->asked;
		if (tl->active && !tl->engine_clock && tl->due < tl->secs) {
			uint64_t now = util_now_ns(), at = tl->t0 + tl->due * NSEC_PER_SEC;

			if (now >= at) {	/* late (a slow sample): the period now is in */
				uint64_t k = (now - tl->t0) / NSEC_PER_SEC / tl->every * tl->every;

				tl->due = k + tl->every;
				if (k >= tl->secs)
					continue;
				return (int64_t)k;
			}
			struct timespec ts;

			clock_gettime(CLOCK_REALTIME, &ts);	/* the condvar's clock */
			at -= now;
			ts.tv_sec += (time_t)(at / NSEC_PER_SEC);
			ts.tv_nsec += (long)(at % NSEC_PER_SEC);
			if (ts.tv_nsec >= (long)NSEC_PER_SEC) {
				ts.tv_sec++;
				ts.tv_nsec -= (long)NSEC_PER_SEC;
			}
			pthread_cond_timedwait(&tl->cv, &tl->mu, &ts);
			continue;
		}
		pthread_cond_wait(&tl->cv, &tl->mu);
	}
}

static void *tele_thread(void *arg)
{
	struct telemetry *tl = arg;
	int64_t t;

	pthread_mutex_lock(&tl->mu);
	while ((t = next_due(tl)) >= 0) {
		struct tele_batch *b = calloc(1, sizeof(*b));
		unsigned gen = tl->gen;
		double limit = tl->temp_limit;
		char label[sizeof(tl->label)];

		if (!b)
			break;
		b->step_tag = tl->step_tag;
		b->t = (double)t;
		snprintf(label, sizeof(label), "%s", tl->label);
		tl->busy = true;
		pthread_mutex_unlock(&tl->mu);
		util_utc_now(b->at, sizeof(b->at));
		probe_sample(tl->targets, tl->ntargets, &b->f);
		watch(tl, b, limit, label);
		pthread_mutex_lock(&tl->mu);
		tl->busy = false;
		if (gen == tl->gen && tl->fail && b->nevents && !tl->failed) {
			tl->failed = true;
			snprintf(tl->fail_msg, sizeof(tl->fail_msg), "%s (on_telemetry=\"fail\")",
				 b->events[0]);
		}
		*tl->tail = b;
		tl->tail = &b->next;
		if (gen == tl->gen && tl->done < t)
			tl->done = t;
		pthread_cond_broadcast(&tl->cv);
	}
	pthread_mutex_unlock(&tl->mu);
	return NULL;
}

struct telemetry *telemetry_new(char *const *targets, unsigned ntargets)
{
	struct telemetry *tl;
	bool any = false;

	for (unsigned i = 0; i < plugins_count(); i++) {
		const struct plugin *p = plugins_at(i);

		any |= p->desc->kind == HB_PLUGIN_PROBE &&
		       HB_OPS_HAS((const struct hb_probe_ops *)p->desc->ops, sample);
	}
	if (!any || !(tl = calloc(1, sizeof(*tl))))
		return NULL;
	tl->targets = targets;
	tl->ntargets = ntargets;
	tl->tail = &tl->head;
	tl->temp_limit = NAN;
	pthread_mutex_init(&tl->mu, NULL);
	pthread_cond_init(&tl->cv, NULL);
	return tl;
}

void telemetry_step_begin(struct telemetry *tl, unsigned every, double temp_limit_c,
			  bool fail, int64_t step_tag, const char *label)
{
	if (!tl)
		return;
	pthread_mutex_lock(&tl->mu);
	tl->gen++;
	tl->active = false;
	tl->every = every;
	tl->temp_limit = temp_limit_c;
	tl->fail = fail;
	tl->failed = false;
	tl->step_tag = step_tag;
	snprintf(tl->label, sizeof(tl->label), "%s", label);
	if (every && !tl->started)
		tl->started = pthread_create(&tl->thread, NULL, tele_thread, tl) == 0;
	if (every && !tl->started)
		log_warn("telemetry: cannot start its thread: no samples");
	pthread_mutex_unlock(&tl->mu);
}

/* Wait (mu held) until second `due` is sampled, the step ends or a stop. */
static void wait_done(struct telemetry *tl, unsigned gen)
{
	while (tl->done < tl->asked && gen == tl->gen && !tl->quit && !hb_stop_requested) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 100 * 1000 * 1000;	/* to look at the stop flag */
		if (ts.tv_nsec >= (long)NSEC_PER_SEC) {
			ts.tv_sec++;
			ts.tv_nsec -= (long)NSEC_PER_SEC;
		}
		pthread_cond_timedwait(&tl->cv, &tl->mu, &ts);
	}
}

void telemetry_go(struct telemetry *tl, uint64_t t0, bool engine_clock, uint64_t secs)
{
	if (!tl || !tl->every || !tl->started)
		return;
	pthread_mutex_lock(&tl->mu);
	tl->t0 = t0;
	tl->engine_clock = engine_clock;
	tl->due = 0;
	tl->secs = secs;
	tl->done = -1;
	tl->asked = engine_clock ? 0 : -1;
	tl->active = true;
	pthread_cond_broadcast(&tl->cv);
	if (engine_clock)
		wait_done(tl, tl->gen);
	if (engine_clock)
		tl->due = tl->every;
	pthread_mutex_unlock(&tl->mu);
}

void telemetry_at(struct telemetry *tl, uint64_t merged)
{
	if (!tl || !tl->every || !tl->started || !tl->engine_clock)
		return;
	pthread_mutex_lock(&tl->mu);
	while (tl->active && merged >= tl->due && !hb_stop_requested) {
		tl->asked = (int64_t)tl->due;
		pthread_cond_broadcast(&tl->cv);
		wait_done(tl, tl->gen);
		tl->due += tl->every;
	}
	pthread_mutex_unlock(&tl->mu);
}

void telemetry_step_end(struct telemetry *tl)
{
	if (!tl)
		return;
	pthread_mutex_lock(&tl->mu);
	tl->active = false;
	tl->gen++;
	pthread_cond_broadcast(&tl->cv);
	pthread_mutex_unlock(&tl->mu);
}

void telemetry_quiet(struct telemetry *tl)
{
	if (!tl)
		return;
	pthread_mutex_lock(&tl->mu);
	while (tl->busy)
		pthread_cond_wait(&tl->cv, &tl->mu);
	pthread_mutex_unlock(&tl->mu);
}

bool telemetry_failed(struct telemetry *tl, char *err, size_t len)
{
	bool failed;

	if (!tl)
		return false;
	pthread_mutex_lock(&tl->mu);
	failed = tl->failed;
	if (failed && err)
		snprintf(err, len, "%s", tl->fail_msg);
	pthread_mutex_unlock(&tl->mu);
	return failed;
}

struct tele_batch *telemetry_take(struct telemetry *tl)
{
	struct tele_batch *b;

	if (!tl)
		return NULL;
	pthread_mutex_lock(&tl->mu);
	b = tl->head;
	tl->head = NULL;
	tl->tail = &tl->head;
	pthread_mutex_unlock(&tl->mu);
	return b;
}

void tele_batch_free(struct tele_batch *b)
{
	facts_free(&b->f);
	for (unsigned i = 0; i < b->nevents; i++)
		free(b->events[i]);
	free(b->events);
	free(b);
}

void telemetry_stop(struct telemetry *tl)
{
	if (!tl)
		return;
	pthread_mutex_lock(&tl->mu);
	tl->quit = true;
	pthread_cond_broadcast(&tl->cv);
	pthread_mutex_unlock(&tl->mu);
	if (tl->started)
		pthread_join(tl->thread, NULL);
	tl->started = false;
}

void telemetry_free(struct telemetry *tl)
{
	struct tele_batch *b;

	if (!tl)
		return;
	telemetry_stop(tl);
	while ((b = telemetry_take(tl))) {
		while (b) {
			struct tele_batch *n = b->next;

			tele_batch_free(b);
			b = n;
		}
	}
	for (unsigned i = 0; i < tl->nlast; i++) {
		free(tl->last[i].source);
		free(tl->last[i].target);
		free(tl->last[i].key);
		free(tl->last[i].value);
	}
	free(tl->last);
	pthread_mutex_destroy(&tl->mu);
	pthread_cond_destroy(&tl->cv);
	free(tl);
}
