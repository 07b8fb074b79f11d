/* Exec steps: time an external command (a scrub, a copy) as a step. */
#ifndef HB_EXEC_H
#define HB_EXEC_H

#include <stddef.h>

#include "measure/step.h"

/* Called about once a second while the command runs (the run's heartbeat). */
typedef void (*exec_tick_fn)(void *ctx);

/* Run s->cmd with /bin/sh; 0 when it exits 0, -EINTR when interrupted (the
 * command gets SIGTERM), else -ECHILD with err saying how it ended. */
int exec_run(const struct step_spec *s, struct step_totals *t, exec_tick_fn tick, void *ctx,
	     char *err, size_t errlen);

#endif
