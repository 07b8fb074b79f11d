/* A step's failures and I/O errors, told from its workers' records. */
#ifndef HB_STEP_ERRORS_H
#define HB_STEP_ERRORS_H

#include <stddef.h>

#include "measure/step.h"
#include "measure/worker.h"

/* The first failure among workers w[0..n) into err (0 when none); I/O
 * errors under on_error="continue" are a warning. placement: the CPU list
 * the workers were to be pinned to, for the pin failure's message. */
int step_errors(const struct step_spec *spec, const struct worker *w, unsigned n,
		const char *placement, char *err, size_t len);

#endif
