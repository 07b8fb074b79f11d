/* A step run by fio: fio writes a JSON object (json+, with the latency
 * bins) each second and one at the end, all cumulative since the job began;
 * each object less the one before is a sample. Samples join the totals once
 * stored, so the totals are always the sum of the stored seconds. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "measure/fio_step.h"
#include "measure/fio_hosts.h"
#include "measure/fio_job.h"
#include "measure/fio_status.h"
#include "measure/worker.h"
#include "base/jsonpos.h"
#include "base/log.h"
#include "base/stop.h"
#include "base/util.h"

struct fio_run {
	const struct step_spec *spec;
	const struct step_hooks *hooks;
	struct step_totals *t;
	struct fio_cum *prev, *cur;
	struct step_sample queue[64];	/* seconds not yet stored */
	unsigned nqueue;
	struct step_totals pend;	/* the window's part of the queued seconds */
	struct hist sec[2];
	uint64_t next_t, bytes_seen;
	uint64_t begin_ns;
	char *jsons[100000];	/* hosts: each second's hosts_json, freed at the end */
	unsigned njson;
	char missing[512];	/* hosts that dropped out */
	char gone[512];		/* and from which second */
	char *err;
	size_t errlen;
};

/* The second between prev and cur into smp (and r->sec, its bins). */
static void make_sample(struct fio_run *r, struct step_sample *smp)
{
	fio_second(r->cur, r->prev, r->spec->wl.workers, r->spec->wl.ramp, r->next_t, smp, r->sec);
}

/* Store the queued seconds: on success their window part joins the totals. */
static int flush_queue(struct fio_run *r)
{
	int rc;

	if (!r->nqueue)
		return 0;
	rc = r->hooks->store(r->hooks->ctx, r->queue, r->nqueue, r->err, r->errlen);
	if (rc)
		return rc;
	for (int d = 0; d < 2; d++) {
		r->t->ops[d] += r->pend.ops[d];
		r->t->bytes[d] += r->pend.bytes[d];
		hist_merge(&r->t->lat[d], &r->pend.lat[d]);
		r->pend.ops[d] = r->pend.bytes[d] = 0;
		hist_reset(&r->pend.lat[d]);
	}
	r->t->window_s += r->pend.window_s;
	for (int d = 0; r->t->tgt && d < 2; d++) {	/* one target: all of it is its */
		r->t->tgt[TGT_OPS + d] = r->t->ops[d];
		r->t->tgt[TGT_BYTES + d] = r->t->bytes[d];
	}
	r->pend.window_s = 0;
	r->nqueue = 0;
	return 0;
}

static void tell(struct fio_run *r, const struct step_sample *last, bool merged)
{
	struct step_tick tk = { r->next_t, (double)(util_now_ns() - r->begin_ns) / 1e9,
		r->spec->wl.ramp + r->spec->wl.duration, r->bytes_seen, last, false, merged };

	if (r->hooks->tick)
		r->hooks->tick(r->hooks->ctx, &tk);
}

/* The seconds still queued (the database was busy): retried for a while. */
static int flush_end(struct fio_run *r)
{
	uint64_t until = util_now_ns() + (uint64_t)step_store_retry_secs() * NSEC_PER_SEC;
	int rc;

	while ((rc = flush_queue(r)) == -EBUSY && util_now_ns() < until)
		usleep(100 * 1000);
	return rc;
}

/* A second (fio_second_fn): numbered, queued and offered to the store. 0, or
 * the store's -errno (-EBUSY kept for later, while the queue has room). */
static int queue_second(void *ctx, struct step_sample *smp, const struct hist sec[2])
{
	struct fio_run *r = ctx;
	int rc;

	if (smp->hosts_json && r->njson < ARRAY_SIZE(r->jsons))
		r->jsons[r->njson++] = (char *)smp->hosts_json;
	else if (smp->hosts_json)	/* more seconds than kept: stored without */
		free((char *)smp->hosts_json), smp->hosts_json = NULL;
	if (!smp->ops[0] && !smp->ops[1] && smp->secs < 0.05)
		return 0;	/* the final object, right after the last status */
	if (smp->secs <= 0)
		smp->secs = 1e-3;
	smp->t = r->next_t;
	smp->ramp = smp->t < r->spec->wl.ramp;
	if (r->nqueue == ARRAY_SIZE(r->queue) && (rc = flush_end(r)))
		return rc;
	r->queue[r->nqueue++] = *smp;
	if (!smp->ramp) {
		for (int d = 0; d < 2; d++) {
			r->pend.ops[d] += smp->ops[d];
			r->pend.bytes[d] += smp->bytes[d];
			hist_merge(&r->pend.lat[d], &sec[d]);
		}
		r->pend.window_s += smp->secs;
	}
	r->next_t++;
	r->bytes_seen += smp->bytes[0] + smp->bytes[1];
	tell(r, smp, true);
	rc = flush_queue(r);
	return rc == -EBUSY ? 0 : rc;
}

/* One of fio's JSON objects: a status of the local fio (the second since
 * the one before), or the client's one object (every host's seconds). */
static int take_status(struct fio_run *r, const char *s, size_t len)
{
	struct step_sample smp;
	struct fio_cum *x;

	if (fio_hosts_object(s, len))
		return fio_hosts_take(r->spec, s, len, queue_second, r, r->missing,
				      sizeof(r->missing), r->gone, sizeof(r->gone));
	fio_parse_status(s, len, "$.jobs[0]", r->cur);
	if (fio_cum_behind(r->cur, r->prev))
		return 0;
	make_sample(r, &smp);
	x = r->prev;
	r->prev = r->cur;
	r->cur = x;
	return queue_second(r, &smp, r->sec);
}

/* Each whole JSON object at the start of buf (text before '{' skipped):
 * taken, and dropped from buf. */
static int take_objects(struct fio_run *r, char *buf, size_t *n)
{
	int rc = 0;

	for (;;) {
		char *open = memchr(buf, '{', *n);
		size_t off = 0, end = 0, skip;
		const char *what;

		if (!open) {
			*n = 0;
			return rc;
		}
		skip = (size_t)(open - buf);
		jsonpos_check(open, *n - skip, &off, &what, &end);
		if (!end)
			break;	/* not whole yet */
		if (!rc)
			rc = take_status(r, open, end);
		memmove(buf, open + end, *n - skip - end);
		*n -= skip + end;
	}
	return rc;
}

/* fio on the job, its stdout (the JSON) and stderr into pipes; in a group of
 * its own, so that only hbatest's stop reaches it, as SIGINT. */
static pid_t fio_start(const struct step_spec *spec, const char *job, int *out, int *errfd)
{
	char **argv = fio_argv(spec, job);
	int o[2], e[2];
	pid_t pid;

	if (!argv)
		return -ENOMEM;
	if (pipe(o)) {
		free(argv);
		return -errno;
	}
	if (pipe(e)) {
		close(o[0]);
		close(o[1]);
		free(argv);
		return -errno;
	}
	fflush(NULL);
	if ((pid = fork()) == 0) {
		setpgid(0, 0);
		dup2(o[1], 1);
		dup2(e[1], 2);
		close(o[0]);
		close(e[0]);
		execvp(argv[0], argv);
		fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	free(argv);
	close(o[1]);
	close(e[1]);
	if (pid < 0) {
		close(o[0]);
		close(e[0]);
		return -errno;
	}
	*out = o[0];
	*errfd = e[0];
	return pid;
}

/* fio's stderr, its last 512 bytes kept for a message. */
static void keep_tail(char *tail, size_t cap, const char *p, size_t n)
{
	size_t have = strlen(tail);

	if (n >= cap - 1) {
		p += n - (cap - 1);
		n = cap - 1;
	}
	if (have + n >= cap) {
		memmove(tail, tail + have + n - (cap - 1), cap - 1 - n);
		have = cap - 1 - n;
	}
	memcpy(tail + have, p, n);
	tail[have + n] = '\0';
}

struct fio_io {
	int out, errfd;
	char *buf;
	size_t n, cap;
	char tail[512];
};

/* Read what fio wrote in the next 200 ms; 0 at the end of its output. */
static int read_some(struct fio_run *r, struct fio_io *io, int *rc)
{
	struct pollfd p[2] = { { io->out, POLLIN, 0 }, { io->errfd, POLLIN, 0 } };
	char chunk[4096];
	ssize_t got;

	if (poll(p, io->errfd >= 0 ? 2 : 1, 200) < 0)
		return errno == EINTR ? 1 : 0;
	if (io->errfd >= 0 && p[1].revents) {
		got = read(io->errfd, chunk, sizeof(chunk));
		if (got > 0)
			keep_tail(io->tail, sizeof(io->tail), chunk, (size_t)got);
		else if (got == 0 || errno != EINTR)
			io->errfd = -1;	/* closed: its fd goes at the end */
	}
	if (!p[0].revents)
		return 1;
	if (io->cap - io->n < 65536) {
		char *nb = realloc(io->buf, io->cap * 2 + 65536);

		if (!nb)
			return 0;
		io->buf = nb;
		io->cap = io->cap * 2 + 65536;
	}
	got = read(io->out, io->buf + io->n, io->cap - io->n);
	if (got < 0)
		return errno == EINTR ? 1 : 0;
	if (got == 0)
		return 0;
	io->n += (size_t)got;
	if (!*rc)
		*rc = take_objects(r, io->buf, &io->n);
	return 1;
}

/* Run fio until its output ends; SIGINT on a stop (SIGKILL 10 s later). */
static int fio_loop(struct fio_run *r, pid_t pid, struct fio_io *io, int *status)
{
	uint64_t stopped = 0, last_tick = util_now_ns();
	int rc = 0, efd = io->errfd;

	while (read_some(r, io, &rc)) {
		if (hb_stop_requested && !stopped) {
			kill(pid, SIGINT);
			stopped = util_now_ns();
		} else if (stopped && util_now_ns() - stopped > 10 * NSEC_PER_SEC) {
			kill(pid, SIGKILL);
		}
		if (util_now_ns() - last_tick >= NSEC_PER_SEC) {
			tell(r, NULL, false);
			last_tick = util_now_ns();
		}
	}
	close(efd);
	close(io->out);
	while (waitpid(pid, status, 0) < 0 && errno == EINTR)
		;
	return rc;
}

static int fio_outcome(struct fio_run *r, int status, int rc, const char *tail)
{
	int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	int frc = flush_end(r);

	step_totals_finish(r->t);
	if (rc || frc)
		return rc ? rc : frc;
	if (hb_stop_requested)
		return -EINTR;
	if (r->missing[0] && r->spec->on_error == ON_ERROR_CONTINUE && r->next_t) {
		log_warn("step '%s': fio host %s dropped out midway (%s): the step is done with "
			 "the seconds it has, each second's hosts_json naming the hosts it had "
			 "(on_error = \"continue\"; fio exited with status %d)", r->spec->name,
			 r->gone, r->missing, code);
		return 0;
	}
	if (r->missing[0]) {	/* before fio's status: it says why, this says who */
		snprintf(r->err, r->errlen, "fio host %s dropped out midway (fio exited with "
			 "status %d: %s)", r->missing, code, tail[0] ? tail : "no message");
		return -EIO;
	}
	if (code) {
		snprintf(r->err, r->errlen, "fio exited with status %d: %s", code,
			 tail[0] ? tail : "no message");
		return -ECHILD;
	}
	if (!r->next_t) {
		snprintf(r->err, r->errlen, "fio wrote no status%s%s: %s",
			 fio_step_opt(r->spec, "hosts") ? " from hosts " : "",
			 fio_step_opt(r->spec, "hosts") ? fio_step_opt(r->spec, "hosts") : "",
			 tail[0] ? tail : "no output");
		return -EIO;
	}
	return 0;
}

int fio_step_run(const struct step_spec *spec, const struct step_hooks *hooks,
		 struct step_totals *t, char *err, size_t errlen)
{
	struct fio_run *r = calloc(1, sizeof(*r));
	struct fio_cum *c = calloc(2, sizeof(*c));
	struct fio_io io = { .out = -1, .errfd = -1 };
	char job[256];
	int rc, status = 0;
	pid_t pid;

	memset(t, 0, sizeof(*t));
	if (spec->wl.ntargets == 1 && (t->tgt = calloc(TGT_COUNTERS, sizeof(*t->tgt))))
		t->ntargets = 1;	/* fio counts per job: several files are one */
	hist_reset(&t->lat[0]);
	hist_reset(&t->lat[1]);
	if (!r || !c) {
		free(r);
		free(c);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	*r = (struct fio_run){ spec, hooks, t, &c[0], &c[1], .err = err, .errlen = errlen,
			       .begin_ns = util_now_ns() };
	for (int d = 0; d < 2; d++) {
		hist_reset(&c[0].h[d]);
		hist_reset(&r->pend.lat[d]);
	}
	if ((rc = fio_job_write(spec, job, sizeof(job), err, errlen)))
		goto out;
	if (fio_step_opt(spec, "hosts"))
		log_info("fio: %s as a client of fio --server on %s, job %s", fio_binary(),
			 fio_step_opt(spec, "hosts"), job);
	else
		log_info("fio: %s --output-format=json+ --status-interval=1 %s", fio_binary(), job);
	if ((pid = fio_start(spec, job, &io.out, &io.errfd)) < 0) {
		rc = (int)pid;
		snprintf(err, errlen, "cannot start %s: %s", fio_binary(), strerror(-rc));
		unlink(job);
		goto out;
	}
	rc = fio_loop(r, pid, &io, &status);
	unlink(job);
	rc = fio_outcome(r, status, rc, io.tail);
out:
	for (unsigned i = 0; i < r->njson; i++)
		free(r->jsons[i]);
	free(io.buf);
	free(c);
	free(r);
	return rc;
}
