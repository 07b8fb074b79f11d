/* hbatest plugin ABI: the only header a plugin includes.
 * A plugin exports one symbol, `hbatest_plugin`, a const struct hb_plugin.
 * Rules: fields are only ever appended; a new field bumps HB_ABI_MINOR. */
#ifndef HBATEST_PLUGIN_H
#define HBATEST_PLUGIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <stdlib.h>
/* what plugins got from here when the sysfs helpers lived here (hbatest/sysfs.h) */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <unistd.h>

#define HB_ABI_MAJOR 1
#define HB_ABI_MINOR 3

#define HB_PLUGIN_SYMBOL "hbatest_plugin"

enum hb_plugin_kind {
	HB_PLUGIN_ENGINE = 1,
	HB_PLUGIN_PROBE = 2,
};

enum hb_opt_type {
	HB_OPT_BOOL = 1,	/* true/false */
	HB_OPT_INT,		/* signed 64-bit decimal */
	HB_OPT_SIZE,		/* bytes; accepts "4k", "1m", "2g" */
	HB_OPT_STRING,
	HB_OPT_DOUBLE,
};

/* One option a plugin accepts; the table ends with a NULL name. */
struct hb_option {
	const char *name;
	enum hb_opt_type type;
	const char *def;	/* default as text, NULL for none */
	const char *help;
};

/* An option value as the core validated and normalised it: bools are "1"/"0",
 * ints and sizes decimal. Every option of the table is present (default filled). */
struct hb_kv {
	const char *key;
	const char *value;
};

enum hb_log_level { HB_LOG_ERROR = 0, HB_LOG_WARN, HB_LOG_INFO, HB_LOG_DEBUG };

/* ---- engines ---------------------------------------------------------- */

enum hb_op { HB_OP_READ = 0, HB_OP_WRITE = 1 };

/* One request. The core owns the memory; the engine must not keep pointers
 * to it past the completion it returns from reap(). */
struct hb_io {
	uint64_t offset;	/* bytes into the target */
	void *buf;		/* inside setup.buf (aligned when direct) */
	uint32_t len;		/* bytes */
	uint8_t op;		/* enum hb_op */
	uint8_t pad0;
	uint16_t target;	/* index into setup.fds */
	int64_t result;		/* engine sets: bytes transferred, or -errno */
	uint64_t submit_ns;	/* core's; an engine with its own clock (now()) that
				 * skips time moves it by the skip for requests in flight */
	void *engine_data;	/* engine's own, per request */
	/* 1.1: the requests this completion stands for, all alike, each counted
	 * (a simulator sampling part of each second); 0 or 1: itself alone.
	 * An engine that sets it sets it on every completion it returns. */
	uint32_t count;
	uint32_t pad1;
};

/* What a worker hands its engine when it opens. */
struct hb_engine_setup {
	size_t struct_size;
	unsigned ntargets;
	const int *fds;		/* one per target; -1 for virtual targets */
	const uint64_t *sizes;	/* bytes, one per target */
	unsigned depth;		/* most requests in flight at once */
	void *buf;		/* every hb_io.buf lies inside [buf, buf+buf_len) */
	size_t buf_len;
	int direct;		/* targets were opened with O_DIRECT */
	unsigned worker;	/* index of the worker, for logs and seeds */
	uint64_t seed;
	const struct hb_kv *opts;	/* this engine's options: every one the plan gave or
				 * that has a default (an option without one may be absent) */
	unsigned nopts;
	void (*log)(enum hb_log_level level, const char *fmt, ...)
		__attribute__((format(printf, 2, 3)));
	unsigned nworkers;	/* workers of the step, each with its own context */
};

/* Engine flags */
#define HB_ENGINE_SYNC     (1u << 0)	/* submit() completes the I/O before returning */
#define HB_ENGINE_VIRTUAL  (1u << 1)	/* targets are virtual: the core opens no files */
#define HB_ENGINE_SIMULATED (1u << 2)	/* results model hardware: runs are marked simulated */

struct hb_engine_ops {
	size_t struct_size;
	unsigned flags;
	/* Required. Return 0 or -errno; *ctx is the engine's per-worker state. */
	int (*open)(const struct hb_engine_setup *setup, void **ctx);
	/* Required. Queue n requests; return how many were accepted (>= 0) or -errno.
	 * Fewer than n, even 0 (a full queue, a transient EAGAIN), is no error: the
	 * core reaps, then offers the rest again. A synchronous engine must take 1. */
	int (*submit)(void *ctx, struct hb_io **ios, unsigned n);
	/* Required. Wait until at least min completions, or timeout_ns passes
	 * (0: do not wait); store up to max of them in done[]; return the count or -errno. */
	int (*reap)(void *ctx, unsigned min, unsigned max, struct hb_io **done,
		    uint64_t timeout_ns);
	/* Required. Release everything; in-flight requests have been reaped. Not
	 * called when the drain gave up on a request that never completed. */
	void (*close)(void *ctx);
	/* Optional: the engine's own clock in ns (a virtual clock for a simulator).
	 * When present the core takes every time of this worker from it. */
	uint64_t (*now)(void *ctx);
	/* Optional, for virtual targets: the size in bytes of target i under these
	 * options (e.g. a simulated array's capacity), used when the plan gives no size. */
	uint64_t (*target_size)(const struct hb_kv *opts, unsigned nopts, unsigned target);
	/* 1.2, optional: check option values (as in setup.opts, normalised) for what
	 * the table's types cannot say: choices, ranges, combinations. The core
	 * calls it in the dry pass, for every step, before anything runs. Return 0,
	 * or -EINVAL with a message in err that names the option and the values it
	 * takes, e.g. "layout 'raid6' is not jbod, raid0, raid5 or raid10". */
	int (*check)(const struct hb_kv *opts, unsigned nopts, char *err, size_t errlen);
};

/* ---- probes ----------------------------------------------------------- */

/* Where a probe reports each fact it finds. */
typedef void (*hb_emit_fn)(void *emit_ctx, const char *key, const char *value);

struct hb_probe_ops {
	size_t struct_size;
	/* Facts about the host (target == NULL) or one target. sysfs_root is where
	 * /sys, /proc and /dev are read from ("/" on a live system).
	 * Return 0, -ENOENT when it does not apply, or another -errno. */
	int (*collect)(const char *sysfs_root, const char *target,
		       const struct hb_kv *opts, unsigned nopts,
		       hb_emit_fn emit, void *emit_ctx);
	unsigned flags;
	/* Since ABI 1.3, optional (NULL, or absent from an older plugin's smaller
	 * struct_size): the facts that change while a run goes on, for telemetry
	 * every few seconds: temperatures, the write policy in effect, cache
	 * protection state, link speed and width, volume state and background
	 * operations. Arguments and return as collect(), keys named as collect()
	 * names them ("c0.temperature_c", "c0.v0.write_policy_effective"), so a
	 * sample reads beside the run's start. The core calls it on a thread of
	 * its own, never on a worker, and never twice at once for one probe. */
	int (*sample)(const char *sysfs_root, const char *target,
		      const struct hb_kv *opts, unsigned nopts,
		      hb_emit_fn emit, void *emit_ctx);
};

#define HB_PROBE_PER_TARGET (1u << 0)	/* collect() wants a target */
/* with HB_PROBE_PER_TARGET: collect() is also called once with target NULL
 * (a RAID card's probe: every controller, then what is behind each target).
 * A core that predates the flag calls it per target only. */
#define HB_PROBE_HOST (1u << 1)

/* ---- the descriptor --------------------------------------------------- */

struct hb_plugin {
	uint16_t abi_major;
	uint16_t abi_minor;
	uint32_t struct_size;	/* sizeof(struct hb_plugin) the plugin built with */
	const char *name;	/* no space or control character; an engine's not a step key */
	const char *summary;	/* one line */
	enum hb_plugin_kind kind;
	const void *ops;	/* struct hb_engine_ops or struct hb_probe_ops */
	const struct hb_option *options;	/* NULL-name terminated, may be NULL */
};

#define HB_PLUGIN_INIT(kind_, name_, summary_, ops_, opts_) { \
	.abi_major = HB_ABI_MAJOR, .abi_minor = HB_ABI_MINOR,    \
	.struct_size = sizeof(struct hb_plugin), .name = (name_), \
	.summary = (summary_), .kind = (kind_), .ops = (ops_),    \
	.options = (opts_) }

/* Helpers compiled into the plugin: they touch public types only. */
static inline const char *hb_opt_str(const struct hb_kv *opts, unsigned n,
				     const char *key)
{
	for (unsigned i = 0; i < n; i++)
		if (strcmp(opts[i].key, key) == 0)
			return opts[i].value;
	return NULL;
}

static inline long long hb_opt_int(const struct hb_kv *opts, unsigned n,
				   const char *key, long long def)
{
	const char *v = hb_opt_str(opts, n, key);
	return v ? strtoll(v, NULL, 10) : def;
}

/* The submit_batch default: 4 requests a call at every depth (docs/benchmarks.md,
 * "Requests per call": the device gets requests as they are
 * ready, not in bursts of a whole reap; 8 and 16 a call were slower at QD32
 * and QD128 in alternating rounds). The io_uring and libaio engines declare
 * it as their option's default, so that params_json holds it; this is the
 * fallback for an engine that does not. depth is kept for plugins built
 * against 1.x. */
static inline unsigned hb_submit_batch_default(unsigned depth)
{
	(void)depth;
	return 4;
}

/* For a check(): whole-number option key (when given) within lo..hi; else
 * -EINVAL with "key=V is out of range: lo to hi (why)" in err (the core
 * puts the plugin's name before it). */
static inline int hb_opt_int_range(const struct hb_kv *opts, unsigned n, const char *key,
				   long long lo, long long hi, const char *why, char *err,
				   size_t len)
{
	const char *v = hb_opt_str(opts, n, key);
	long long x = v ? strtoll(v, NULL, 10) : lo;

	if (x >= lo && x <= hi)
		return 0;
	snprintf(err, len, "%s=%lld is out of range: %lld to %lld (%s)", key, x, lo, hi, why);
	return -EINVAL;
}

/* reap_max, an option of the io_uring and libaio engines alike: the
 * completions a reap takes at most (like fio's iodepth_batch_complete_max,
 * which their preset "fio" sets to 1), so that as many are resubmitted before
 * the next reap; 0: all that are ready. Its line in the engine's option
 * table, what naming a completion there: */
#define HB_REAP_MAX_OPTION(what) { "reap_max", HB_OPT_INT, "0", what " at most (like " \
	"fio's iodepth_batch_complete_max), so as many resubmitted before the next " \
	"reap; 0: all that are ready" }

/* reap_max as the engine opens (0 when not given) */
static inline unsigned hb_reap_max(const struct hb_engine_setup *s)
{
	return (unsigned)hb_opt_int(s->opts, s->nopts, "reap_max", 0);
}

/* a reap's max (the core's, or the engine's own bound) cut to reap_max */
static inline unsigned hb_reap_cap(unsigned max, unsigned reap_max)
{
	return reap_max && max > reap_max ? reap_max : max;
}

/* for the engine's check(): reap_max from 0 to 65536 */
static inline int hb_reap_max_check(const struct hb_kv *o, unsigned n, const char *what,
				    char *err, size_t len)
{
	return hb_opt_int_range(o, n, "reap_max", 0, 65536, what, err, len);
}

#endif
