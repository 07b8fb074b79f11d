/* A step run by fio (engine = "fio"): fio's per-second JSON status read as
 * it arrives, each second stored as a sample, the totals those seconds' sum. */
#ifndef HB_FIO_STEP_H
#define HB_FIO_STEP_H

#include <stddef.h>

#include "measure/step.h"

/* Run the step's job with fio --output-format=json+ --status-interval=1.
 * As step_execute: 0 done; -EINTR interrupted (fio is sent SIGINT, the seconds
 * stored so far kept); else failed with err (fio's exit, a store failure). */
int fio_step_run(const struct step_spec *spec, const struct step_hooks *hooks,
		 struct step_totals *t, char *err, size_t errlen);

#endif
