/* One measured step: open targets, start the workers, merge their seconds
 * into samples as they become final, and add up the measurement window. */
#ifndef HB_STEP_H
#define HB_STEP_H

#include <stdbool.h>
#include <stdint.h>

#include "base/hist.h"
#include "measure/loader.h"
#include "measure/placement.h"
#include "measure/workload.h"

/* telemetry= when a plan gives none: a probe sample a minute */
#define STEP_TELEMETRY_DEFAULT 60

enum step_kind { STEP_MEASURE = 0, STEP_PRECONDITION, STEP_STEADY_ROUND, STEP_EXEC };
/* What an I/O error does: fail the step at once, or count it and go on. */
enum step_on_error { ON_ERROR_FAIL = 0, ON_ERROR_CONTINUE };

struct step_spec {
	enum step_kind kind;
	char *name;
	char *group;
	char *tags;		/* JSON array text, or NULL */
	char *params_json;	/* every key as the plan resolved it */
	const struct plugin *engine;
	struct hb_kv *opts;	/* the engine's, resolved */
	unsigned nopts;
	struct hb_kv *facts;	/* its preset's facts(opts): what it simulates (probe keys) */
	unsigned nfacts;
	struct workload wl;
	int line;		/* plan line of the call, for messages */
	char *module_pos;	/* "scripts/review.lua:64": where in a module of the plan's
				 * (a require'd file) the call was, or NULL */
	char *axis;		/* the key a sweep varies at this step, or NULL */
	char *axis_value;
	unsigned round;		/* steady-state round, 0: none */
	char *cmd;		/* exec steps: the shell command */
	uint64_t exec_bytes;	/* exec steps: bytes it moves, for MB/s (0: unknown) */
	double estimate;	/* s: what the dry pass counts for this step */
	enum step_on_error on_error;
	char *cpus;		/* cpus= CPU list ("0-7,16-23"), or NULL */
	enum numa_mode numa;	/* numa=: "auto" (the default), "node" or "none" */
	unsigned telemetry;	/* s between probe samples (telemetry=), 0: none */
	bool telemetry_fail;	/* on_telemetry="fail": a watched change fails the step */
	double temp_limit_c;	/* temp_limit_c=: a temperature_c past it is watched; NAN: none */
};

/* One second of a step, merged over workers. Latencies in us. */
struct step_sample {
	uint64_t t;
	bool ramp;
	double secs;		/* s it covers: 1, less for a last second cut short */
	uint64_t ops[2], bytes[2], errors;
	double lat_mean[2], lat_p99[2], lat_max, occupancy;
	double cpu_busy;	/* 0..1: the busiest worker's share of it on (or waiting
				 * for) a CPU; NAN: not measured (an engine's clock) */
	double host_busy;	/* 0..1: the host's CPUs busy (/proc/stat); NAN: unknown */
	const char *hosts_json;	/* a fio step on hosts=: each host's part; NULL: none */
};

/* What a step measured, as the database stores it, resume reads it back and
 * hb.run returns it to the plan: the one list of a step's result fields. */
struct step_result {
	double iops, read_iops, write_iops, mbps;
	double lat_mean, lat_p50, lat_p99, lat_p999, lat_max;	/* us */
	uint64_t errors;
	double elapsed_s;	/* exec steps: wall time */
	int exit_status;	/* exec steps */
};

/* The outcome of one hb.steady{} (see scripts/snia.lua). */
struct steady_result {
	const char *name, *track;
	bool attained;
	int rounds, window_first, window_last;
	double mean, slope, data_excursion, slope_excursion;
	double max_data_excursion, max_slope_excursion;
	int64_t first_step_id, last_step_id;
};

struct step_totals {
	struct step_result res;
	uint64_t ops[2], bytes[2];
	double window_s;	/* s: the secs of the window's stored samples, summed */
	bool filled;		/* a fill (passes=) wrote all it was to write */
	unsigned ntargets;
	uint64_t *tgt;		/* per target, TGT_COUNTERS each (worker.h); malloc'd */
	struct hist lat[2];	/* ns, merged over the window */
	char placement[128];	/* where the workers ran (steps.placement); "" for none chosen */
	double cpu_busy, host_busy;	/* over the window (step_sample's); NAN: unknown */
	int host_bound;		/* 1: the host's CPU set the pace (measure/hostcpu.h); -1: unknown */
};

/* What the sampler tells the live line: about once a wall-clock second, and
 * on a step that runs on an engine's clock (a simulator's, far faster than
 * the wall's) each second as it is merged too, so that status lines can keep
 * the step's own pace. */
struct step_tick {
	uint64_t sec;		/* seconds merged so far, on the step's clock */
	double elapsed;		/* s since the step began on its clock: sec, or on the
				 * wall clock a little more (the second under way) */
	uint64_t total_secs;	/* ramp + duration */
	uint64_t bytes;		/* read and written in those seconds, ramp included */
	const struct step_sample *last;	/* the last of them; NULL before the first */
	bool engine_clock;	/* the step's clock is its engine's: merged calls come */
	bool merged;		/* called as second `sec` was merged, not by the wall clock */
};

struct step_hooks {
	void *ctx;
	/* Store n merged seconds, in order, all or none (the main thread). 0;
	 * -EBUSY: not now, they are offered again with the next ones; another
	 * -errno fails the step. err says why. */
	int (*store)(void *ctx, const struct step_sample *s, unsigned n, char *err,
		     size_t errlen);
	/* for the live line and status lines (struct step_tick) */
	void (*tick)(void *ctx, const struct step_tick *t);
	/* about once a second while a file target is laid out */
	void (*layout)(void *ctx, uint64_t done, uint64_t total);
	/* the run's telemetry (measure/telemetry.h), sampled on the step's clock; NULL: none */
	struct telemetry *telemetry;
};

const char *step_kind_name(enum step_kind kind);
/* Where the plan made the step, for the listing: "line 20", or for a step a
 * module made, "line 20 (review.lua:64)" (the module's file name). */
void step_where(const struct step_spec *s, char *buf, size_t len);
const char *step_on_error_name(enum step_on_error e);
/* How long the end of a step keeps retrying to store seconds held while the
 * database was busy: 60 s, or $HBATEST_STORE_RETRY seconds. */
unsigned step_store_retry_secs(void);
/* 0: done; -EINTR: interrupted (samples so far are whole); else failed (err
 * set): an engine failure, an I/O error with on_error="fail", or seconds that
 * could not be stored. */
int step_execute(const struct step_spec *spec, const struct step_hooks *hooks,
		 struct step_totals *out, char *err, size_t errlen);
void step_spec_free(struct step_spec *spec);
void step_totals_finish(struct step_totals *t);
void step_totals_release(struct step_totals *t);

#endif
