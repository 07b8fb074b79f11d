/* hbatest probe helpers: running a vendor tool (smartctl, storcli, arcconf)
 * safely: a fixed argv by fork/execve (no shell), stdin /dev/null, stderr
 * discarded, a time limit and an output cap. Inline, public types only. */
#ifndef HBATEST_TOOL_H
#define HBATEST_TOOL_H

#include "hbatest/plugin.h"

#include <ctype.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>

#define HB_TOOL_TIMEOUT_S 10		/* default time limit of one run */
#define HB_TOOL_CAP (4u << 20)		/* bytes of output kept; more is cut */

/* A tool probe's two options: the tool's path (a path only: a plan cannot
 * pass arguments to it) and the time limit of one run, in seconds. */
#define HB_TOOL_OPTIONS(tool_help)                                       \
	{ "tool", HB_OPT_STRING, NULL, tool_help },                      \
	{ "timeout", HB_OPT_INT, "10", "seconds one run of the tool may take" }

struct hb_tool_out {
	char *out;		/* what it printed, NUL-terminated; free() it */
	size_t len;
	int status;		/* exit status 0-255; -1: killed or not run */
	bool timed_out;		/* killed at the time limit */
	bool cut;		/* printed more than the cap: the rest dropped */
};

/* Find program name on PATH (or name itself when it holds a '/'), as an
 * executable file: its path in out. Returns whether it was found. */
static inline bool hb_tool_find(const char *name, char *out, size_t len)
{
	const char *path = getenv("PATH"), *p;

	if (strchr(name, '/')) {
		snprintf(out, len, "%s", name);
		return access(out, X_OK) == 0;
	}
	for (p = path; p && *p; p += strcspn(p, ":") + (p[strcspn(p, ":")] == ':')) {
		size_t n = strcspn(p, ":");

		if (n == 0)
			continue;
		snprintf(out, len, "%.*s/%s", (int)n, p, name);
		if (access(out, X_OK) == 0)
			return true;
	}
	return false;
}

/* The time limit in seconds: option "timeout" when given, else
 * HBATEST_TOOL_TIMEOUT, else HB_TOOL_TIMEOUT_S; at least 1. */
static inline unsigned hb_tool_timeout(const struct hb_kv *opts, unsigned n)
{
	const char *env = getenv("HBATEST_TOOL_TIMEOUT");
	long long s = hb_opt_int(opts, n, "timeout", env && *env ? atoll(env) : HB_TOOL_TIMEOUT_S);

	return s < 1 ? 1 : s > 3600 ? 3600 : (unsigned)s;
}

static inline long long hb_tool_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The child: its own process group (so the limit kills what it starts too),
 * /dev/null in and for errors, the pipe as stdout. */
static inline void hb_tool_child(const char *path, char *const argv[], int wfd)
{
	extern char **environ;
	int null = open("/dev/null", O_RDWR);

	setpgid(0, 0);
	if (null < 0 || dup2(null, 0) < 0 || dup2(null, 2) < 0 || dup2(wfd, 1) < 0)
		_exit(127);
	execve(path, argv, environ);
	_exit(127);
}

/* Keep up to cap bytes read from fd in r; past that, read and drop. */
static inline int hb_tool_read(int fd, size_t cap, size_t *size, struct hb_tool_out *r)
{
	char sink[4096], *buf = sink;
	size_t room = sizeof(sink);
	ssize_t got;

	if (r->len < cap) {
		if (r->len + 1 >= *size) {
			size_t nsize = *size * 2 > cap + 1 ? cap + 1 : *size * 2;
			char *o = realloc(r->out, nsize);

			if (!o)
				return -ENOMEM;
			r->out = o;
			*size = nsize;
		}
		buf = r->out + r->len;
		room = *size - 1 - r->len;
	}
	got = read(fd, buf, room);
	if (got < 0)
		return errno == EINTR || errno == EAGAIN ? 1 : -errno;
	if (got == 0)
		return 0;
	if (buf == sink)
		r->cut = true;
	else
		r->len += (size_t)got;
	return 1;
}

/* Run path with argv (argv[0] first, NULL-terminated) for at most timeout_s
 * seconds, keeping at most cap bytes of its output. The child's process
 * group is killed at the limit and reaped. 0 (see r), or -errno when it
 * could not be started. */
static inline int hb_tool_run(const char *path, char *const argv[], unsigned timeout_s,
			      size_t cap, struct hb_tool_out *r)
{
	long long end = hb_tool_now_ms() + (long long)timeout_s * 1000;
	size_t size = 4096;
	int fds[2], st = 0, rc = 1;
	pid_t pid;

	memset(r, 0, sizeof(*r));
	r->status = -1;
	if (!(r->out = malloc(size)))
		return -ENOMEM;
	if (pipe2(fds, O_CLOEXEC) < 0) {
		rc = -errno;
		free(r->out);
		r->out = NULL;
		return rc;
	}
	pid = fork();
	if (pid == 0)
		hb_tool_child(path, argv, fds[1]);
	close(fds[1]);
	if (pid < 0) {
		close(fds[0]);
		free(r->out);
		r->out = NULL;
		return -EAGAIN;
	}
	setpgid(pid, pid);	/* as the child does: whichever runs first */
	while (rc > 0) {
		struct pollfd p = { .fd = fds[0], .events = POLLIN };
		long long left = end - hb_tool_now_ms();
		int ready = left > 0 ? poll(&p, 1, (int)left) : 0;

		if (ready == 0) {
			r->timed_out = true;
			break;
		}
		if (ready < 0 && errno != EINTR)
			rc = -errno;
		else if (ready > 0)
			rc = hb_tool_read(fds[0], cap, &size, r);
	}
	close(fds[0]);
	/* its output ended: it has until the same limit to exit (a tool that
	 * closed its stdout and hangs is cut as one that keeps it open) */
	while (!r->timed_out && rc >= 0 && waitpid(pid, &st, WNOHANG) == 0) {
		struct timespec nap = { 0, 10 * 1000 * 1000 };

		if (hb_tool_now_ms() >= end)
			r->timed_out = true;
		else
			nanosleep(&nap, NULL);
	}
	if (r->timed_out || rc < 0) {
		kill(-pid, SIGKILL);
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
	}
	if (rc < 0) {
		free(r->out);
		r->out = NULL;
		return rc;
	}
	if (!r->timed_out && WIFEXITED(st))
		r->status = WEXITSTATUS(st);
	r->out[r->len] = '\0';
	return 0;
}

/* The "unavailable: ..." fact for a run that did not give usable output, or
 * NULL when it ran to the end with status 0. */
static inline const char *hb_tool_failure(const char *name, const struct hb_tool_out *r,
					  unsigned timeout_s, char *buf, size_t len)
{
	if (r->timed_out)
		snprintf(buf, len, "unavailable: %s did not finish in %u s (killed)", name,
			 timeout_s);
	else if (r->status < 0)
		snprintf(buf, len, "unavailable: %s was killed by a signal", name);
	else if (r->status)
		snprintf(buf, len, "unavailable: %s exited with status %d", name, r->status);
	else
		return NULL;
	return buf;
}

/* For a tool that prints "key : value" lines (sas2ircu, arcconf): the line at
 * *p as key and value around its first " :" or ": ", both trimmed of spaces
 * (keys are indented, values padded); advances *p. false at the end of the
 * text. A line without either is all key, its value empty. */
static inline bool hb_tool_line(const char **p, char *key, size_t klen, char *val, size_t vlen)
{
	const char *s = *p, *e, *colon;
	size_t n;

	if (!*s)
		return false;
	e = s + strcspn(s, "\n");
	*p = *e ? e + 1 : e;
	s += strspn(s, " \t");
	for (colon = s; colon < e; colon++)	/* " :" or ": " ("Policy: Disabled") */
		if (*colon == ':' && colon > s && (colon[-1] == ' ' || colon[1] == ' '))
			break;
	colon = colon < e ? colon : NULL;
	for (n = (size_t)((colon ? colon : e) - s); n && isspace((unsigned char)s[n - 1]); n--)
		;
	snprintf(key, klen, "%.*s", (int)n, s);
	val[0] = '\0';
	if (colon) {
		s = colon + 1 + strspn(colon + 1, " \t");
		for (n = (size_t)(e - s); n && isspace((unsigned char)s[n - 1]); n--)
			;
		snprintf(val, vlen, "%.*s", (int)n, s);
	}
	return true;
}

/* Run tool with argv (argv[1] its verb) under the limit and the cap: true
 * with its output in r (free r->out), or false after a "status" fact that
 * says why not (not run, killed at the limit, a failure status, cut). */
static inline bool hb_tool_ask(hb_emit_fn emit, void *ctx, const char *tool, char *const argv[],
				       unsigned timeout, struct hb_tool_out *r)
{
	char msg[2 * PATH_MAX];
	const char *fail;

	if (hb_tool_run(tool, argv, timeout, HB_TOOL_CAP, r) < 0) {
		snprintf(msg, sizeof(msg), "unavailable: cannot run %s", tool);
		emit(ctx, "status", msg);
		return false;
	}
	if ((fail = hb_tool_failure(argv[0], r, timeout, msg, sizeof(msg))) || r->cut) {
		if (!fail)
			snprintf(msg, sizeof(msg), "unavailable: %s %s: output cut at %u bytes",
				 argv[0], argv[1], HB_TOOL_CAP);
		emit(ctx, "status", fail ? fail : msg);
		free(r->out);
		r->out = NULL;
		return false;
	}
	return true;
}

/* The "skipped" fact of a tool probe that found no tool: the path its tool
 * option gave (when given), else the names it looked for on PATH. */
static inline void hb_tool_skipped(hb_emit_fn emit, void *ctx, const char *given,
				   const char *names)
{
	char msg[PATH_MAX + 96];

	if (given)
		snprintf(msg, sizeof(msg), "skipped: the tool option's '%s' is no executable file",
			 given);
	else
		snprintf(msg, sizeof(msg), "skipped: no %s on PATH", names);
	emit(ctx, "status", msg);
}

/* A tool probe's sample(): its collect() run with hb_tool_sample_emit in
 * front of the core's emit, which passes on only the facts that change while
 * a run goes on, by the last part of their key ("c0.v0.state": "state"), and
 * "status" (why a sample has no answer). One parser for both ops. */
struct hb_tool_sample {
	hb_emit_fn emit;
	void *ctx;
};

static inline bool hb_tool_sampled(const char *key)
{
	static const char *const keep[] = {
		"status", "state", "temperature_c", "cache_protection_state",
		"write_policy_effective", "active_operations",
	};
	const char *last = strrchr(key, '.') ? strrchr(key, '.') + 1 : key;

	for (unsigned i = 0; i < sizeof(keep) / sizeof(keep[0]); i++)
		if (!strcmp(last, keep[i]))
			return true;
	return false;
}

static inline void hb_tool_sample_emit(void *vs, const char *key, const char *value)
{
	const struct hb_tool_sample *s = vs;

	if (key && hb_tool_sampled(key))
		s->emit(s->ctx, key, value);
}

#endif
