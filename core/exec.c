/* Exec steps: run a command, time it, and derive its throughput. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "exec.h"
#include "log.h"
#include "worker.h"

int exec_run(const struct step_spec *s, struct step_totals *t, char *err, size_t len)
{
	uint64_t start = util_now_ns();
	bool killed = false;
	int status = 0;
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
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			snprintf(err, len, "cannot wait for '%s': %s", s->cmd, strerror(errno));
			return -errno;
		}
		if (hb_stop_requested && !killed) {
			kill(pid, SIGTERM);
			killed = true;
		}
	}
	t->elapsed_s = (double)(util_now_ns() - start) / 1e9;
	t->exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	t->window_s = (uint64_t)(t->elapsed_s + 0.5);
	if (s->exec_bytes && t->elapsed_s > 0)
		t->mbps = (double)s->exec_bytes / t->elapsed_s / 1e6;
	if (hb_stop_requested)
		return -EINTR;
	if (t->exit_status) {
		snprintf(err, len, "'%s' exited with status %d after %.1f s", s->cmd,
			 t->exit_status, t->elapsed_s);
		return -ECHILD;
	}
	return 0;
}
