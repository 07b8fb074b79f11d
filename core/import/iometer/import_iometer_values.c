/* The numbers of Iometer's files as Iometer writes them: decimals (never
 * hexadecimal, inf or nan), each column in the range its writer can give
 * (rates and times 0 or more, counts whole, a run time above 0); anything
 * else is refused at its FILE:LINE:COLUMN rather than stored. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "import/iometer/import_iometer.h"

#define DIGITS "0123456789"
#define INT64_TOP 9223372036854774784.0	/* the largest double below 2^63 */

/* Rates (IOps, MBps) and response times (ms): 0 or more. */
static const struct iom_range non_negative = { 0, HUGE_VAL, false, false };
/* Counts of I/Os, bytes and errors: whole, and an int64 in the database. */
static const struct iom_range count = { 0, INT64_TOP, false, true };
/* Managers, workers, disks: an int in Iometer and in hbatest. */
static const struct iom_range units = { 0, INT_MAX, false, true };

static const struct iom_range *const col_range[IC_N] = {
	[IC_MANAGERS] = &units, [IC_WORKERS] = &units, [IC_DISKS] = &units,
	[IC_IOPS] = &non_negative, [IC_RIOPS] = &non_negative, [IC_WIOPS] = &non_negative,
	[IC_MBPS_BIN] = &non_negative, [IC_MBPS_DEC] = &non_negative,
	[IC_AVG] = &non_negative, [IC_AVG_R] = &non_negative, [IC_AVG_W] = &non_negative,
	[IC_MAX] = &non_negative, [IC_MAX_R] = &non_negative, [IC_MAX_W] = &non_negative,
	[IC_ERR] = &count, [IC_BYTES_R] = &count, [IC_BYTES_W] = &count,
	[IC_IOS_R] = &count, [IC_IOS_W] = &count,
	/* timer ticks (Manager::SaveResults: counter_time), a run of some time */
	[IC_RAW_RUN] = &(const struct iom_range){ 0, HUGE_VAL, true, true },
	/* -1: the workers' queue depths differ (AMBIGUOUS_VALUE) */
	[IC_QD] = &(const struct iom_range){ -1, INT_MAX, false, true },
	[IC_CPU] = &non_negative,
	/* ticks per second (timer_resolution; the processor's Hz before 1.1.0) */
	[IC_SPEED] = &(const struct iom_range){ 0, HUGE_VAL, true, false },
};

/* Iometer's number: [-+]digits[.digits][e[-+]digits] (C++ streams, fixed
 * or not), so strtod's hexadecimal, inf, nan and blanks are not. */
static bool iom_decimal(const char *s)
{
	size_t d, f = 0;

	s += *s == '-' || *s == '+';
	d = strspn(s, DIGITS);
	s += d;
	if (*s == '.') {
		f = strspn(s + 1, DIGITS);
		s += 1 + f;
	}
	if (!d && !f)
		return false;
	if (*s == 'e' || *s == 'E') {
		s += 1 + (s[1] == '-' || s[1] == '+');
		d = strspn(s, DIGITS);
		if (!d)
			return false;
		s += d;
	}
	return !*s;
}

int iom_num(struct imp *im, const char *file, const struct csvline *l, int idx,
	    const char *name, const struct iom_range *r, bool required, double *v)
{
	const char *f;
	unsigned col;

	*v = NAN;
	if (idx < 0 || (unsigned)idx >= l->nf || !csvline_field(l, idx)[0]) {
		if (!required)
			return 0;
		return imp_error_in(im, file, l->line, idx >= 0 && (unsigned)idx < l->nf ?
				    l->col[idx] : l->end_col, "%s: missing, expected a number", name);
	}
	f = csvline_field(l, idx);
	col = l->col[idx];
	if (!iom_decimal(f))
		return imp_error_in(im, file, l->line, col, "%s: '%s' is not a decimal number",
				    name, f);
	*v = strtod(f, NULL);
	if (!isfinite(*v))
		return imp_error_in(im, file, l->line, col, "%s: '%s' is out of range", name, f);
	if (!r)
		return 0;
	if (*v < r->min || (r->above && *v == r->min)) {
		if (r->min == 0 && !r->above)
			return imp_error_in(im, file, l->line, col, "%s: '%s' is negative", name, f);
		return imp_error_in(im, file, l->line, col, "%s: '%s' is not %s %g", name, f,
				    r->above ? "above" : "at least", r->min);
	}
	if (*v > r->max)
		return imp_error_in(im, file, l->line, col, "%s: '%s' is too large (at most %.0f)",
				    name, f, r->max);
	if (r->whole && *v != floor(*v))
		return imp_error_in(im, file, l->line, col, "%s: '%s' is not a whole number",
				    name, f);
	return 0;
}

int iom_col(struct imp *im, const char *file, const struct csvline *l,
	    const struct iom_layout *lo, enum iom_col c, bool required, double *v)
{
	return iom_num(im, file, l, lo->idx[c], iometer_col_name(lo, c), col_range[c], required, v);
}

int iom_runtime_of(struct imp *im, const char *file, const struct csvline *l,
		   const struct iom_layout *lo, bool required, double *secs)
{
	double raw, speed;

	*secs = NAN;
	if (iom_col(im, file, l, lo, IC_RAW_RUN, required, &raw) < 0 ||
	    iom_col(im, file, l, lo, IC_SPEED, required, &speed) < 0)
		return -EINVAL;
	if (isnan(raw) || isnan(speed))
		return 0;
	*secs = raw / speed;
	if (!(*secs > 0) || *secs > INT_MAX)
		return imp_error_in(im, file, l->line, l->col[lo->idx[IC_SPEED]], "%s: '%s' "
				    "gives a run time (%s / %s) of %g s; a run takes above 0 "
				    "and at most %d s", iometer_col_name(lo, IC_SPEED),
				    csvline_field(l, lo->idx[IC_SPEED]),
				    iometer_col_name(lo, IC_RAW_RUN), iometer_col_name(lo, IC_SPEED),
				    *secs, INT_MAX);
	return 0;
}
