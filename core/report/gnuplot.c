/* gnuplot as an external program: each chart's script run in the report's
 * charts/ folder, as many at once as there are CPUs; a failure names the
 * script, says how gnuplot ended and quotes its last messages. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "report/gnuplot.h"
#include "base/stop.h"
#include "base/util.h"

#define GNUPLOT_MAX_JOBS 64

struct gnuplot_job {
	pid_t pid;
	char script[256];
};

struct gnuplot {
	char dir[PATH_MAX];
	unsigned parallel, running;
	struct gnuplot_job jobs[GNUPLOT_MAX_JOBS];
	char failed[1024];	/* the first failure */
	unsigned nfailed;
	unsigned cpu_s;		/* RLIMIT_CPU of each gnuplot; 0: none */
	unsigned long long mem;	/* RLIMIT_AS, bytes; 0: none */
};

bool gnuplot_found(void)
{
	const char *path = getenv("PATH");
	char *dirs, *save = NULL;
	bool found = false;

	if (!path || !(dirs = strdup(path)))
		return false;
	for (char *d = strtok_r(dirs, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
		char exe[PATH_MAX];

		snprintf(exe, sizeof(exe), "%s/gnuplot", *d ? d : ".");
		found = access(exe, X_OK) == 0;
	}
	free(dirs);
	return found;
}

struct gnuplot *gnuplot_new(const char *dir, unsigned parallel)
{
	struct gnuplot *g = calloc(1, sizeof(*g));
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	if (!g)
		return NULL;
	snprintf(g->dir, sizeof(g->dir), "%s", dir);
	g->parallel = parallel ? parallel : n > 0 ? (unsigned)n : 1;
	if (g->parallel > GNUPLOT_MAX_JOBS)
		g->parallel = GNUPLOT_MAX_JOBS;
	return g;
}

void gnuplot_set_limits(struct gnuplot *g, unsigned cpu_s, unsigned long long mem)
{
	g->cpu_s = cpu_s;
	g->mem = mem;
}

static void log_name(const char *script, char *out, size_t len)
{
	const char *dot = strrchr(script, '.');
	int base = dot ? (int)(dot - script) : (int)strlen(script);

	snprintf(out, len, "%.*s.log", base, script);
}

/* gnuplot's last lines (at most GNUPLOT_TAIL, error context without the
 * caret lines), as ": a / b / c" for the message. */
#define GNUPLOT_TAIL 3

static void last_messages(struct gnuplot *g, const char *script, char *out, size_t len)
{
	char name[300], path[PATH_MAX + 310];
	const char *lines[GNUPLOT_TAIL];
	unsigned n = 0;
	size_t size = 0, o = 0;
	char *text;

	log_name(script, name, sizeof(name));
	snprintf(path, sizeof(path), "%s/%s", g->dir, name);
	text = util_read_file(path, &size);
	out[0] = '\0';
	if (!text)
		return;
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		line += strspn(line, " \t");
		if (!line[strspn(line, " \t^")])
			continue;
		if (n == GNUPLOT_TAIL)
			memmove(lines, lines + 1, sizeof(lines[0]) * --n);
		lines[n++] = line;
	}
	for (unsigned i = 0; i < n && o < len; i++)
		o += (size_t)snprintf(out + o, len - o, "%s%s", i ? " / " : ": ", lines[i]);
	free(text);
}

/* "exit status 1", "killed by signal 11, Segmentation fault" */
static void how_ended(int status, char *out, size_t len)
{
	if (WIFEXITED(status))
		snprintf(out, len, "exit status %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(out, len, "killed by signal %d, %s", WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
	else
		snprintf(out, len, "wait status %#x", (unsigned)status);
}

static void job_done(struct gnuplot *g, struct gnuplot_job *j, int status)
{
	char msg[600], how[96], name[300], path[PATH_MAX + 310];

	log_name(j->script, name, sizeof(name));
	snprintf(path, sizeof(path), "%s/%s", g->dir, name);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		unlink(path);	/* a failure keeps its log: the page names the chart */
	} else if (!g->nfailed++) {
		how_ended(status, how, sizeof(how));
		last_messages(g, j->script, msg, sizeof(msg));
		snprintf(g->failed, sizeof(g->failed), "gnuplot failed on 'charts/%s' (%s)%s",
			 j->script, how, msg);
	}
	j->pid = 0;
	g->running--;
}

/* Reap one finished job, waiting for it. */
static int reap_one(struct gnuplot *g)
{
	int status;
	pid_t pid;

	do
		pid = waitpid(-1, &status, 0);
	while (pid < 0 && errno == EINTR && !hb_stop_requested);
	if (pid < 0)
		return -errno;
	for (unsigned i = 0; i < GNUPLOT_MAX_JOBS; i++) {
		if (g->jobs[i].pid == pid) {
			job_done(g, &g->jobs[i], status);
			break;
		}
	}
	return 0;
}

static void child(struct gnuplot *g, const char *script)
{
	char name[300];
	int fd;

	log_name(script, name, sizeof(name));
	if (chdir(g->dir) < 0)
		_exit(127);
	fd = open(name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd >= 0) {
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
	}
	if (g->cpu_s)	/* SIGXCPU past the soft limit, SIGKILL a second later */
		setrlimit(RLIMIT_CPU, &(struct rlimit){ g->cpu_s, g->cpu_s + 1 });
	if (g->mem)
		setrlimit(RLIMIT_AS, &(struct rlimit){ g->mem, g->mem });
	execlp("gnuplot", "gnuplot", script, (char *)NULL);
	dprintf(STDERR_FILENO, "cannot run gnuplot: %s\n", strerror(errno));
	_exit(127);
}

int gnuplot_start(struct gnuplot *g, const char *script, char *err, size_t len)
{
	struct gnuplot_job *j = NULL;

	while (g->running >= g->parallel)
		if (reap_one(g) < 0)
			break;
	if (hb_stop_requested) {
		snprintf(err, len, "interrupted");
		return -EINTR;
	}
	for (unsigned i = 0; i < GNUPLOT_MAX_JOBS && !j; i++)
		if (!g->jobs[i].pid)
			j = &g->jobs[i];
	if (!j) {
		snprintf(err, len, "too many gnuplot jobs");
		return -EIO;
	}
	snprintf(j->script, sizeof(j->script), "%s", script);
	j->pid = fork();
	if (j->pid < 0) {
		j->pid = 0;
		snprintf(err, len, "cannot start gnuplot: %s", strerror(errno));
		return -errno;
	}
	if (j->pid == 0)
		child(g, script);
	g->running++;
	return 0;
}

int gnuplot_wait(struct gnuplot *g, char *err, size_t len)
{
	while (g->running)
		if (reap_one(g) < 0)
			break;
	if (hb_stop_requested) {
		snprintf(err, len, "interrupted");
		return -EINTR;
	}
	if (g->nfailed > 1)
		snprintf(err, len, "%s; and %u more charts (their logs are charts/NN-name.log)",
			 g->failed, g->nfailed - 1);
	else if (g->nfailed)
		snprintf(err, len, "%s", g->failed);
	return g->nfailed ? -EIO : 0;
}

void gnuplot_free(struct gnuplot *g)
{
	if (!g)
		return;
	for (unsigned i = 0; i < GNUPLOT_MAX_JOBS; i++) {
		if (g->jobs[i].pid > 0) {
			kill(g->jobs[i].pid, SIGTERM);
			waitpid(g->jobs[i].pid, NULL, 0);
		}
	}
	free(g);
}
