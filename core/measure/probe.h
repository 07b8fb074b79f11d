/* Probes: run the probe plugins over the host and the targets, and keep,
 * print or store the facts they report. */
#ifndef HB_PROBE_H
#define HB_PROBE_H

#include <stdint.h>
#include <stdio.h>

#include "hbatest/plugin.h"
#include "measure/loader.h"

struct fact {
	char *target;		/* NULL for host facts */
	char *probe, *key, *value;
};

struct facts {
	struct fact *v;
	unsigned n;
};

/* $HBATEST_SYSFS_ROOT, or "/" */
const char *probe_root(void);
/* --probe-opt PROBE.KEY=VALUE (the command line only: a tool's path runs a
 * program): kept as given (spec must outlive the run) until
 * probe_options_check(). 0, or -EINVAL when it is not of that form (or
 * VALUE is empty). */
int probe_option_add(const char *spec);
/* Check each --probe-opt against its probe's option table (plugins loaded)
 * and normalise it: 0, or -EINVAL with a message naming the probe or the key
 * in err. */
int probe_options_check(char *err, size_t len);
/* The options given for probe name, as collect() and sample() get them (only
 * those given: an option left out is the probe's own default); NULL and
 * *n = 0 when none. */
const struct hb_kv *probe_options(const char *name, unsigned *n);
/* Host probes, then every per-target probe for each target that is (or lies
 * on) a block device. A probe that does not apply or fails adds nothing. */
void probe_collect(char *const *targets, unsigned ntargets, struct facts *out);
/* Whether plugin p is a probe with a sample() op (ABI 1.3): telemetry and
 * `probe --sample` read it while a run goes on. */
bool probe_can_sample(const struct plugin *p);
/* The same calls to the probes' sample() ops (ABI 1.3; a probe without
 * one is left out): the facts that change while a run goes on. */
void probe_sample(char *const *targets, unsigned ntargets, struct facts *out);
/* A probe's collect() or sample() */
typedef int (*hb_probe_fn)(const char *sysfs_root, const char *target,
			   const struct hb_kv *opts, unsigned nopts, hb_emit_fn emit,
			   void *emit_ctx);
const char *facts_find(const struct facts *f, const char *target, const char *probe,
		       const char *key);
void facts_print(const struct facts *f, FILE *out);
void facts_free(struct facts *f);

#endif
