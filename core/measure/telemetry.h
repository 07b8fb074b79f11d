/* Telemetry: the probes' sample() ops, every `telemetry` seconds of a step,
 * on a thread of their own (never a worker; no Lua, no SQLite), and the
 * watched values whose change is an event. The thread that owns the
 * database takes the batches (telemetry_take) and stores them. */
#ifndef HB_TELEMETRY_H
#define HB_TELEMETRY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "measure/probe.h"

/* One sample of every probe: its facts, when, and what changed since the
 * one before (messages, each a warning). */
struct tele_batch {
	int64_t step_tag;	/* the step_tag of telemetry_step_begin */
	double t;		/* s on the step's sample clock (samples.t) */
	char at[40];		/* UTC ISO 8601, when the sample began */
	struct facts f;
	char **events;		/* malloc'd messages */
	unsigned nevents;
	struct tele_batch *next;
};

struct telemetry;

/* A run's telemetry over the probe targets (borrowed: they outlive it).
 * NULL when no loaded probe has a sample() op: nothing to sample. */
struct telemetry *telemetry_new(char *const *targets, unsigned ntargets);
/* The next step: every (s, 0: none), a temperature limit (NAN: none),
 * fail: a watched change fails it (telemetry_failed), label: how messages
 * name it ("step 3 'seq write'"). Sampling starts at telemetry_go. */
void telemetry_step_begin(struct telemetry *tl, unsigned every, double temp_limit_c,
			  bool fail, int64_t step_tag, const char *label);
/* The step's clock starts at t0 (ns, CLOCK_MONOTONIC), the samples' second
 * 0: the first sample now, the last before secs (its ramp and duration).
 * engine_clock: the step's seconds are an engine's (virtual) ones, and
 * telemetry_at paces the samples instead of the wall. */
void telemetry_go(struct telemetry *tl, uint64_t t0, bool engine_clock, uint64_t secs);
/* An engine-clock step has merged its seconds below `merged`: at each
 * multiple of every this waits (the main thread, not the workers) for that
 * second's sample, or a stop request. Nothing on the wall clock. */
void telemetry_at(struct telemetry *tl, uint64_t merged);
/* The step ended: no new sample for it; one in flight still lands, later,
 * with its step_tag. Never waits. */
void telemetry_step_end(struct telemetry *tl);
/* Between steps: wait for a sample still in flight (the probes' collect()
 * is not to run beside it). */
void telemetry_quiet(struct telemetry *tl);
/* A watched change failed the running step (fail): true, the reason in err
 * (NULL: not wanted). */
bool telemetry_failed(struct telemetry *tl, char *err, size_t errlen);
/* The batches done so far, oldest first (the caller frees each). */
struct tele_batch *telemetry_take(struct telemetry *tl);
void tele_batch_free(struct tele_batch *b);
/* Stop the thread: waits for a sample in flight (a probe's tool runs under
 * its own time limit, 10 s); the batches it took can still be taken. */
void telemetry_stop(struct telemetry *tl);
/* Stop, and free (batches not taken are lost). */
void telemetry_free(struct telemetry *tl);
/* Whether key is a watched one (telemetry.c's list), for tests and docs. */
bool telemetry_watched(const char *key);

#endif
