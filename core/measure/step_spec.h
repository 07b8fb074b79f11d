/* A step's validated form, built and checked in plain C (step_spec.c). */
#ifndef HB_STEP_SPEC_H
#define HB_STEP_SPEC_H

#include <stdbool.h>
#include <stddef.h>

#include "measure/step.h"
#include "measure/step_keys.h"

/* A step key, or a plugin's name (its options)? */
bool step_key_known(const char *key);
/* A fill (passes=) needs a write rw; without its own duration or ramp
 * (own_*: given in the step, not by the defaults) it runs uncapped, no ramp. */
int step_check_fill(struct step_spec *s, bool own_duration, bool own_ramp, char *err,
		    size_t errlen);
/* Each target's kind, size and whether it is to be laid out (target.c), and
 * none given twice; the engine must be set. */
/* range=v, a bare number above 1: bytes when whole and at least the
 * largest block (into wl->range); 2 or 1.5 is a share or gigabytes with the
 * unit left out: -EINVAL with a message saying so. */
int step_range_bytes(struct workload *wl, double v, char *err, size_t errlen);
int step_resolve_targets(struct step_spec *s, char *err, size_t errlen);
/* Seconds the step should take: ramp + duration, or a fill at 1 GB/s. */
double step_estimate_secs(const struct step_spec *s);
/* Bytes a fill (passes=) writes: passes x the range of each target; 0 for
 * any other step. */
uint64_t step_fill_bytes(const struct step_spec *s);
/* The parameters as JSON, what steps.params_json stores (malloc'd). */
char *step_params_json(const struct step_spec *s);
/* The last rules, once every key is read: axis= (its value), the default
 * name, the estimate and params_json. 0 or -EINVAL with err. */
int step_spec_finish(struct step_spec *s, char *err, size_t errlen);
/* The numa mode a step's workers are placed by: "auto" for an engine without
 * device I/O (null, sim) is "node", as there are no interrupts to be near. */
enum numa_mode step_numa(const struct step_spec *s);

#endif
