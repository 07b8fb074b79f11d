/* engine = "fio": its entry beside the plugins, the job file written from a
 * step's workload, and fio's --parse-only check of it in the dry pass. */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "measure/fio_job.h"
#include "base/log.h"
#include "base/strbuf.h"

static const struct hb_option fio_options[] = {
	{ "ioengine", HB_OPT_STRING, "libaio", "fio's ioengine= (io_uring, spdk, io_uring_cmd, ...)" },
	{ "options", HB_OPT_STRING, "", "more job options, \"k=v,k=v\", one a line in the job" },
	{ "hosts", HB_OPT_STRING, "", "\"host:port,...\": run as --client of fio --server on each" },
	{ NULL, 0, NULL, NULL },
};

static const struct hb_engine_ops fio_ops = { .struct_size = sizeof(fio_ops), .flags = 0 };

static const struct hb_plugin fio_desc = HB_PLUGIN_INIT(HB_PLUGIN_ENGINE, FIO_ENGINE,
	"fio drives the step (locally, or fio --server on hosts=)", &fio_ops, fio_options);

static const struct plugin fio_entry = { &fio_desc, (char *)"(built in)", NULL };

const struct plugin *fio_engine(void)
{
	return &fio_entry;
}

bool fio_step_is(const struct step_spec *s)
{
	return s->engine == &fio_entry;
}

const char *fio_step_opt(const struct step_spec *s, const char *key)
{
	for (unsigned i = 0; i < s->nopts; i++)
		if (!strcmp(s->opts[i].key, key))
			return *s->opts[i].value ? s->opts[i].value : NULL;
	return NULL;
}

const char *fio_binary(void)
{
	const char *e = getenv("HBATEST_FIO");

	return e && *e ? e : "fio";
}

/* options="k=v,k=v": one a line; a part without '=' belongs to the one
 * before it (bssplit=4k/50,8k/100 keeps its comma). */
static void add_extra(struct strbuf *b, const char *opts)
{
	const char *p = opts;

	while (p && *p) {
		size_t n = strcspn(p, ",");
		const char *next = p[n] ? p + n + 1 : NULL;

		sb_add(b, p, n);
		while (next && *next && memchr(next, '=', strcspn(next, ",")) == NULL) {
			size_t m = strcspn(next, ",");

			sb_printf(b, ",%.*s", (int)m, next);
			next = next[m] ? next + m + 1 : NULL;
		}
		sb_printf(b, "\n");
		p = next;
	}
}

static void add_bs(struct strbuf *b, const struct workload *wl)
{
	if (wl->nbs == 1) {
		sb_printf(b, "bs=%u\n", wl->bs[0].size);
		return;
	}
	sb_printf(b, "bssplit=");
	for (unsigned i = 0; i < wl->nbs; i++)
		sb_printf(b, "%s%u/%u", i ? ":" : "", wl->bs[i].size, wl->bs[i].weight);
	sb_printf(b, "\n");
}

char *fio_job_text(const struct step_spec *s)
{
	const struct workload *wl = &s->wl;
	const char *engine = fio_step_opt(s, "ioengine");
	unsigned depth = wl->workers ? wl->oio / wl->workers : wl->oio;
	struct strbuf b = { 0 };
	uint64_t span = 0;

	sb_printf(&b, "[global]\nioengine=%s\ndirect=%d\ntime_based=1\nruntime=%u\n"
		  "group_reporting=1\nrw=%s\n", engine ? engine : "libaio", wl->direct ? 1 : 0,
		  wl->ramp + wl->duration, rw_name(wl->rw));
	if (wl->rw == RW_RW || wl->rw == RW_RANDRW)
		sb_printf(&b, "rwmixwrite=%u\n", wl->write_pct);
	add_bs(&b, wl);
	sb_printf(&b, "iodepth=%u\nnumjobs=%u\nrandseed=%llu\nfilename=", depth ? depth : 1,
		  wl->workers ? wl->workers : 1, (unsigned long long)wl->seed);
	for (unsigned i = 0; i < wl->ntargets; i++) {
		const char *p = wl->targets[i].path;

		sb_printf(&b, "%s", i ? ":" : "");
		for (; *p; p++)		/* fio's filename= escapes its separator */
			sb_printf(&b, "%s%c", *p == ':' ? "\\" : "", *p);
		span += wl->range ? workload_span(wl, i) : 0;
	}
	sb_printf(&b, "\n");
	if (span)
		sb_printf(&b, "size=%llu\n", (unsigned long long)span);
	add_extra(&b, fio_step_opt(s, "options"));
	sb_printf(&b, "[hbatest]\n");
	return sb_take(&b);
}

int fio_job_write(const struct step_spec *s, char *path, size_t len, char *err, size_t errlen)
{
	const char *tmp = getenv("TMPDIR");
	char *text = fio_job_text(s);
	int fd, rc = 0;

	snprintf(path, len, "%s/hbatest-fio-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!text || (fd = mkstemp(path)) < 0) {
		rc = text ? -errno : -ENOMEM;
		snprintf(err, errlen, "cannot write the fio job (%s): %s", path, strerror(-rc));
		free(text);
		return rc;
	}
	if (write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		rc = -EIO;
	if (close(fd) && !rc)
		rc = -errno;
	if (rc) {
		snprintf(err, errlen, "cannot write the fio job (%s): %s", path, strerror(-rc));
		unlink(path);
	}
	free(text);
	return rc;
}

/* Run argv, its stdout and stderr into out (the last line kept): its exit
 * status, or -errno when it could not start. */
static int run_quiet(char *const *argv, char *out, size_t len)
{
	int fds[2], status = 0;
	size_t n = 0;
	ssize_t got;
	pid_t pid;

	if (pipe(fds))
		return -errno;
	fflush(NULL);
	if ((pid = fork()) < 0) {
		close(fds[0]);
		close(fds[1]);
		return -errno;
	}
	if (pid == 0) {
		dup2(fds[1], 1);
		dup2(fds[1], 2);
		close(fds[0]);
		execvp(argv[0], argv);
		fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(fds[1]);
	while (n + 1 < len && ((got = read(fds[0], out + n, len - n - 1)) > 0 ||
			       (got < 0 && errno == EINTR)))
		n += got > 0 ? (size_t)got : 0;
	out[n] = '\0';
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	while (n && (out[n - 1] == '\n' || out[n - 1] == ' '))
		out[--n] = '\0';
	for (char *p = out; *p; p++)	/* one line for the message */
		if (*p == '\n')
			*p = ';';
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* host:port accepts a TCP connection within 3 s: 0, or -errno. */
static int host_reachable(const char *hostport)
{
	char host[300], *colon;
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *ai = NULL;
	int fd, rc;

	snprintf(host, sizeof(host), "%s", hostport);
	colon = strrchr(host, ':');
	if (!colon)
		return -EINVAL;
	*colon = '\0';
	if (getaddrinfo(host, colon + 1, &hints, &ai) || !ai)
		return -EHOSTUNREACH;
	fd = socket(ai->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	rc = fd < 0 ? -errno : connect(fd, ai->ai_addr, ai->ai_addrlen) ? -errno : 0;
	if (rc == -EINPROGRESS) {
		struct pollfd p = { fd, POLLOUT, 0 };
		socklen_t sl = sizeof(rc);

		rc = poll(&p, 1, 3000) == 1 && !getsockopt(fd, SOL_SOCKET, SO_ERROR, &rc, &sl)
			? -rc : -ETIMEDOUT;
	}
	if (fd >= 0)
		close(fd);
	freeaddrinfo(ai);
	return rc;
}

const char *fio_version(void)
{
	static char v[64];
	static bool asked;
	char out[256];
	char *argv[] = { (char *)fio_binary(), (char *)"--version", NULL };

	if (!asked) {	/* "fio-3.33": one word, else none (a stand-in's) */
		asked = true;
		if (!run_quiet(argv, out, sizeof(out)) && !strncmp(out, "fio-", 4) &&
		    strlen(out) < sizeof(v) && !strpbrk(out, " ;\"\\"))
			snprintf(v, sizeof(v), "%s", out);
	}
	return v[0] ? v : NULL;
}

static int check_hosts(const struct step_spec *s, const char *where, char *err, size_t len)
{
	const char *h = fio_step_opt(s, "hosts");

	while (h && *h) {
		size_t n = strcspn(h, ",");
		char one[256];
		int rc;

		snprintf(one, sizeof(one), "%.*s", (int)n, h);
		if (!strchr(one, ':')) {
			snprintf(err, len, "step '%s' (%s): fio host '%s': expected host:port",
				 s->name, where, one);
			return -EINVAL;
		}
		if ((rc = host_reachable(one))) {
			snprintf(err, len, "step '%s' (%s): fio host '%s' is not reachable (%s): "
				 "is fio --server running there?", s->name, where, one, strerror(-rc));
			return -EINVAL;
		}
		h += n + (h[n] == ',');
	}
	return 0;
}

int fio_job_check(const struct step_spec *s, char *err, size_t len)
{
	char job[256], out[1024], where[300];
	char *argv[] = { (char *)fio_binary(), (char *)"--parse-only", job, NULL };
	int rc;

	snprintf(where, sizeof(where), "line %d", s->line);
	if ((rc = fio_job_write(s, job, sizeof(job), err, len)))
		return rc;
	rc = run_quiet(argv, out, sizeof(out));
	unlink(job);
	if (rc) {
		snprintf(err, len, "step '%s' (%s): fio --parse-only refused its job: %s", s->name,
			 where, rc < 0 ? strerror(-rc) : out[0] ? out : "no message");
		return -EINVAL;
	}
	if ((rc = check_hosts(s, where, err, len)))
		return rc;
	if (fio_step_opt(s, "hosts") && s->wl.write_pct)
		log_warn("step '%s' (%s) writes to %s on fio hosts %s: hbatest cannot probe a "
			 "remote device, so the destroy-data rule is not checked there",
			 s->name, where, s->wl.ntargets == 1 ? s->wl.targets[0].path : "its targets",
			 fio_step_opt(s, "hosts"));
	return 0;
}
