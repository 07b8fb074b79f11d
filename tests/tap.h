/* A small TAP producer for the C unit tests: plan, ok, is, skip, done. */
#ifndef HB_TAP_H
#define HB_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int tap_n, tap_failed;

/* The time box of the shell tests (tests/lib.sh) for a C test too: SIGALRM
 * ends a hung one, and prove reports it failed. HBATEST_TEST_TIMEOUT s, 900 by
 * default, 0 for none. */
__attribute__((constructor)) static void tap_time_box(void)
{
	const char *v = getenv("HBATEST_TEST_TIMEOUT");

	alarm(v ? (unsigned)atoi(v) : 900);
}

static inline void tap_plan(int n)
{
	printf("1..%d\n", n);
}

__attribute__((format(printf, 2, 3)))
static inline int ok(int cond, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d - ", cond ? "" : "not ", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!cond)
		tap_failed++;
	fflush(stdout);
	return cond;
}

__attribute__((format(printf, 1, 2)))
static inline void diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

#define is_int(got, want, ...) \
	(ok((long long)(got) == (long long)(want), __VA_ARGS__) ? 1 : \
	 (diag("  got %lld, want %lld", (long long)(got), (long long)(want)), 0))

static inline int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
