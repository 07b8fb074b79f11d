/* SANITIZE=1: a heap overflow, a leak, undefined behaviour and a float cast
 * out of range each end the process with exit code 86 (ASAN_OPTIONS and
 * UBSAN_OPTIONS as `make check` sets them) and leave a report file, which
 * `make check` turns into a failure. Each runs in a child that writes its
 * report to a scratch folder, not the one `make check` watches. */
#include <dirent.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/sanitize.h"
#include "tap.h"

#ifdef HB_SANITIZE
static char dir[] = "/tmp/hbatest-sanitize.XXXXXX";

static int reports(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.') {
			char p[PATH_MAX];

			snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
			unlink(p);
			n++;
		}
	if (d)
		closedir(d);
	return n;
}

static volatile size_t sixteen = 16;	/* hidden from the compiler's bounds check */

__attribute__((noinline)) static void overflow(void)
{
	volatile char *p = malloc(sixteen);

	p[sixteen] = 1;
	free((void *)p);
}

__attribute__((noinline)) static void *leak_one(void)
{
	char *volatile p = malloc(100);

	p[0] = 1;
	return NULL;	/* and the only pointer to it is gone */
}

__attribute__((noinline)) static void leak(void)
{
	volatile char scrub[4096];

	leak_one();
	for (unsigned i = 0; i < sizeof(scrub); i++)	/* leak_one's frame */
		scrub[i] = 0;
}

__attribute__((noinline)) static void undefined(void)
{
	volatile int x = INT_MAX;

	x = x + 1;
}

__attribute__((noinline)) static void cast(void)
{
	volatile double d = 1e30;
	volatile uint64_t x = (uint64_t)d;

	(void)x;
}

static void expect(void (*fn)(void), const char *what)
{
	char log[sizeof(dir) + 8];
	pid_t pid;
	int st = 0;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		snprintf(log, sizeof(log), "%s/report", dir);
		sanitize_set_log(log);
		fn();
		exit(0);
	}
	waitpid(pid, &st, 0);
	is_int(WIFEXITED(st) ? WEXITSTATUS(st) : -1, 86, "%s: exit code 86", what);
	is_int(reports(), 1, "%s: one report file", what);
}
#endif

int main(void)
{
#ifdef HB_SANITIZE
	if (!ok(mkdtemp(dir) != NULL, "a scratch folder for reports"))
		return tap_done();
	expect(overflow, "a heap overflow");
	expect(leak, "a leak");
	expect(undefined, "a signed overflow");
	expect(cast, "a double out of an integer's range");
	rmdir(dir);
	return tap_done();
#else
	printf("1..0 # SKIP not a SANITIZE=1 build\n");
	return 0;
#endif
}
