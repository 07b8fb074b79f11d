/* Exec steps: run a command, time it, and derive its throughput. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "measure/exec.h"
#include "base/log.h"
#include "base/stop.h"
#include "measure/worker.h"

/* Wait for pid without blocking for long: tick about once a second, and
 * pass a stop request on as SIGTERM. Polls, at most 20 ms late. */
static int exec_wait(pid_t pid, int *status, exec_tick_fn tick, void *ctx)
{
	uint64_t last_tick = util_now_ns();
	long nap_ns = 1000 * 1000;
	bool killed = false;
	pid_t got;

	while ((got = waitpid(pid, status, WNOHANG)) == 0 || (got < 0 && errno == EINTR)) {
		struct timespec ts = { 0, nap_ns };

		if (hb_stop_requested && !killed) {
			kill(pid, SIGTERM);
			killed = true;
		}
		if (tick && util_now_ns() - last_tick >= NSEC_PER_SEC) {
			tick(ctx);
			last_tick = util_now_ns();
		}
		nanosleep(&ts, NULL);
		if (nap_ns < 20 * 1000 * 1000)
			nap_ns *= 2;
	}
	return got < 0 ? -errno : 0;
}

int exec_run(const struct step_spec *s, struct step_totals *t, exec_tick_fn tick, void *ctx,
	     char *err, size_t len)
{
	uint64_t start = util_now_ns();
	int status = 0, rc;
	pid_t pid;

	log_info("exec: %s", s->cmd);
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		snprintf(err, len, "cannot start '%s': %s", s->cmd, strerror(errno));
		return -errno;
	}
	if (pid == 0) {
		execl("/bin/sh", "sh", "-c", s->cmd, (char *)NULL);
		_exit(127);
	}
	if ((rc = exec_wait(pid, &status, tick, ctx)) < 0) {
		snprintf(err, len, "cannot wait for '%s': %s", s->cmd, strerror(-rc));
		return rc;
	}
	t->res.elapsed_s = (double)(util_now_ns() - start) / 1e9;
	t->res.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	t->window_s = (uint64_t)(t->res.elapsed_s + 0.5);
	if (s->exec_bytes && t->res.elapsed_s > 0)
		t->res.mbps = (double)s->exec_bytes / t->res.elapsed_s / 1e6;
	if (hb_stop_requested)
		return -EINTR;
	if (t->res.exit_status) {
		snprintf(err, len, "'%s' exited with status %d after %.1f s", s->cmd,
			 t->res.exit_status, t->res.elapsed_s);
		return -ECHILD;
	}
	return 0;
}
