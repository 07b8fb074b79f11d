/* engine = "fio": the built-in engine entry that names fio's options, the
 * job file written from a step, and fio's own check of it (--parse-only). */
#ifndef HB_FIO_JOB_H
#define HB_FIO_JOB_H

#include <stdbool.h>
#include <stddef.h>

#include "measure/loader.h"
#include "measure/step.h"

#define FIO_ENGINE "fio"

/* The engine entry a step with engine = "fio" points at: no plugin file, its
 * options (ioengine, options, hosts) checked as a plugin's are. */
const struct plugin *fio_engine(void);
/* Whether the step is run by fio. */
bool fio_step_is(const struct step_spec *s);
/* A resolved option of the step's fio = {...} (NULL: not given, or ""). */
const char *fio_step_opt(const struct step_spec *s, const char *key);
/* The fio job file of the step (malloc'd): [global] from the workload,
 * the extra options one a line, one job section. */
char *fio_job_text(const struct step_spec *s);
/* Write the job to a temporary file (path into buf, len >= 64): 0 or -errno. */
int fio_job_write(const struct step_spec *s, char *path, size_t len, char *err, size_t errlen);
/* The fio to run: $HBATEST_FIO, else "fio" (looked up on PATH). */
const char *fio_binary(void);
/* `fio --version` of that fio ("fio-3.33"), asked once; NULL when it says
 * no such word. On hosts= it is the client's: fio's client does not report
 * its servers' (they must match it). */
const char *fio_version(void);
/* The dry pass's check: fio --parse-only on the job, and each host of
 * hosts= reachable. 0, or -EINVAL with err naming the step and its line. */
int fio_job_check(const struct step_spec *s, char *err, size_t errlen);

#endif
