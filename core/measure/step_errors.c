/* What went wrong in a step's workers, in words: the first failure that
 * fails the step, and the I/O errors counted (step.c). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/log.h"
#include "measure/step_errors.h"

/* "4940 I/O errors on '/dev/loop0', first at offset 8192: Input/output
 * error", counting what the step's errors hold (its window's); errors that
 * completed in the ramp, before the window, or in the drain, after it, are
 * told apart. */
static void io_error_text(const struct step_spec *spec, const struct worker *ws, unsigned nw,
			  char *buf, size_t len)
{
	const struct worker *first = NULL;
	uint64_t n = 0, kept = 0, ramp = 0, win, shown;
	bool elsewhere = false;
	char cause[128], apart[192] = "";
	size_t at = 0;

	for (unsigned i = 0; i < nw; i++) {
		const struct worker *w = &ws[i];

		if (!w->nerrors)
			continue;
		n += w->nerrors;
		kept += w->nerrors_kept;
		ramp += w->nerrors_ramp;
		elsewhere |= w->err_elsewhere || (first && w->err_target != first->err_target);
		if (!first || w->err_ns < first->err_ns)
			first = w;
	}
	if (first->err_result < 0)
		snprintf(cause, sizeof(cause), "%s", strerror((int)-first->err_result));
	else
		snprintf(cause, sizeof(cause), "short %s (%lld of %u bytes)",
			 first->err_op == HB_OP_WRITE ? "write" : "read",
			 (long long)first->err_result, first->err_len);
	/* the count is the step's errors (its window's); the ramp's and the
	 * drain's are told apart, or named as all there is */
	win = kept - ramp;
	shown = win ? win : ramp ? ramp : n;
	if (!win && ramp)
		at += (size_t)snprintf(apart, sizeof(apart), ", in the ramp, before the window");
	else if (ramp)
		at += (size_t)snprintf(apart, sizeof(apart), ", and %llu more in the ramp, "
				       "before the window", (unsigned long long)ramp);
	if (!kept)
		snprintf(apart + at, sizeof(apart) - at, ", in the drain, after the window");
	else if (kept < n)
		snprintf(apart + at, sizeof(apart) - at, ", and %llu more in the drain, after "
			 "the window", (unsigned long long)(n - kept));
	snprintf(buf, len, "%llu I/O error%s on '%s'%s, first at offset %llu: %s%s%s",
		 (unsigned long long)shown, shown == 1 ? "" : "s",
		 spec->wl.targets[first->err_target].path,
		 elsewhere ? " and other targets" : "",
		 (unsigned long long)first->err_offset, cause, apart,
		 win ? "" : ": not in the step's errors");
}

int step_errors(const struct step_spec *spec, const struct worker *ws, unsigned nw,
		const char *placement, char *err, size_t len)
{
	bool io_errors = false;
	char msg[512];
	int rc = 0;

	for (unsigned i = 0; i < nw; i++) {
		const struct worker *w = &ws[i];

		if (w->pin_failed && !rc) {
			snprintf(err, len, "cannot pin worker %u to %s: %s", i,
				 placement, strerror(-w->open_rc));
			rc = w->open_rc;
		} else if (w->open_rc && w->open_rc != -ECANCELED && !rc) {
			snprintf(err, len, "engine '%s' cannot open worker %u: %s",
				 spec->engine->desc->name, i, strerror(-w->open_rc));
			rc = w->open_rc;
		} else if (w->stuck && !rc) {
			snprintf(err, len, "%u request%s to '%s' never completed: worker %u gave "
				 "up on %s after %.0f s of draining", w->stuck,
				 w->stuck == 1 ? "" : "s", spec->wl.targets[w->stuck_target].path,
				 i, w->stuck == 1 ? "it" : "them", w->drain_s);
			rc = w->fatal;
		} else if (w->refused && !rc) {
			snprintf(err, len, "engine '%s' took no request in worker %u, with none in "
				 "flight, %d times in a row: %s", spec->engine->desc->name, i,
				 WORKER_IDLE_RETRIES, strerror(-w->fatal));
			rc = w->fatal;
		} else if (w->broke[0] && !rc) {
			snprintf(err, len, "engine '%s' broke the plugin ABI in worker %u: %s",
				 spec->engine->desc->name, i, w->broke);
			rc = w->fatal;
		} else if (w->fatal && !rc) {
			snprintf(err, len, "engine '%s' failed in worker %u: %s",
				 spec->engine->desc->name, i, strerror(-w->fatal));
			rc = w->fatal;
		}
		io_errors |= w->nerrors > 0;
	}
	if (!io_errors)
		return rc;
	io_error_text(spec, ws, nw, msg, sizeof(msg));
	if (!rc && spec->on_error == ON_ERROR_FAIL) {
		snprintf(err, len, "%s", msg);
		return -EIO;
	}
	log_warn("%s%s", msg, spec->on_error == ON_ERROR_CONTINUE
		 ? " (on_error=\"continue\": the step went on)" : "");
	return rc;
}
