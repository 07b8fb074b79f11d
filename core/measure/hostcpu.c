/* CPU over a step: the workers' run and run-queue time, the host's busy share. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sys/syscall.h>

#include "hbatest/sysfs.h"
#include "base/util.h"
#include "measure/hostcpu.h"
#include "measure/probe.h"
#include "measure/worker.h"

int hostcpu_stat(uint64_t *busy, uint64_t *total)
{
	char line[512];		/* its first line, "cpu ...": the sum over the CPUs */
	unsigned long long v[8] = { 0 };
	int n = hb_sysfs_read(probe_root(), "proc/stat", line, sizeof(line));

	if (n < 0)
		return n;
	n = sscanf(line, "cpu %llu %llu %llu %llu %llu %llu %llu %llu",
		   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
	if (n < 4)
		return -EINVAL;
	*total = 0;
	for (int i = 0; i < 8; i++)	/* guest time is in user's already */
		*total += v[i];
	*busy = *total - v[3] - v[4];	/* idle, iowait */
	return 0;
}

static uint64_t schedstat(const char *path)
{
	unsigned long long run, wait;
	FILE *f = fopen(path, "re");
	int n;

	if (!f)
		return 0;
	n = fscanf(f, "%llu %llu", &run, &wait);
	fclose(f);
	return n == 2 ? run + wait : 0;
}

uint64_t hostcpu_thread_ns(pid_t tid)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/task/%ld/schedstat", (long)tid);
	return schedstat(path);
}

uint64_t hostcpu_self_ns(void)
{
	uint64_t ns = hostcpu_thread_ns((pid_t)syscall(SYS_gettid));
	struct timespec ts;

	if (ns || clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts))
		return ns;
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

/* A worker's reading and its time: its own last one once it has finished
 * (its thread is gone from /proc), else schedstat, else its CPU clock. */
static uint64_t worker_ns(struct worker *w, uint64_t now, uint64_t *at)
{
	uint64_t ns;
	clockid_t id;
	struct timespec ts;

	*at = now;
	if (atomic_load_explicit(&w->finished, memory_order_acquire))
		goto end;
	ns = w->tid ? hostcpu_thread_ns(w->tid) : 0;
	if (ns)
		return ns;
	if (atomic_load_explicit(&w->finished, memory_order_acquire))
		goto end;	/* it finished as we looked */
	if (pthread_getcpuclockid(w->thread, &id) || clock_gettime(id, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
end:
	*at = w->end_wall_ns < now ? w->end_wall_ns : now;
	return w->cpu_end_ns;
}

int cpu_meter_start(struct cpu_meter *m, struct worker *w, unsigned n, bool on)
{
	memset(m, 0, sizeof(*m));
	m->cpu = m->host = NAN;
	if (!(m->on = on))
		return 0;
	m->n = n;
	if (!(m->w = calloc(n, sizeof(*m->w))))
		return -ENOMEM;
	m->wall = util_now_ns();
	for (unsigned i = 0; i < n; i++)
		m->w[i].ns = worker_ns(&w[i], m->wall, &m->w[i].wall);
	if (hostcpu_stat(&m->hbusy, &m->htotal))
		m->htotal = 0;
	return 0;
}

/* A worker's share of the batch: d_wall is up to its end once it has finished */
static void worker_batch(struct cpu_meter *m, struct cpu_worker *c, struct worker *w,
			 uint64_t now)
{
	uint64_t at, ns = worker_ns(w, now, &at);

	c->d = ns && c->ns && ns >= c->ns && at > c->wall ? (double)(ns - c->ns) : NAN;
	c->d_wall = at > c->wall ? (double)(at - c->wall) : 0;
	if (!isnan(c->d) && !(c->d / c->d_wall <= m->cpu))
		m->cpu = c->d / c->d_wall;
	c->ns = ns;
	c->wall = at > c->wall ? at : c->wall;
}

void cpu_meter_batch(struct cpu_meter *m, struct worker *w, unsigned nsecs)
{
	uint64_t now, hb = 0, ht = 0;
	bool host;

	if (!m->on || !nsecs)
		return;
	now = util_now_ns();
	host = !hostcpu_stat(&hb, &ht);
	m->nsecs = nsecs;
	m->cpu = NAN;
	for (unsigned i = 0; i < m->n; i++)
		worker_batch(m, &m->w[i], &w[i], now);
	if (m->cpu > 1)
		m->cpu = 1;	/* the slack of two readings */
	m->d_hbusy = m->d_htotal = 0;
	if (host && m->htotal && ht > m->htotal) {
		m->d_hbusy = (double)(hb - m->hbusy);
		m->d_htotal = (double)(ht - m->htotal);
	}
	m->host = m->d_htotal > 0 ? m->d_hbusy / m->d_htotal : NAN;
	m->hbusy = hb;
	m->htotal = host ? ht : 0;
	m->wall = now;
}

void cpu_meter_second(struct cpu_meter *m, bool window, double *cpu, double *host)
{
	*cpu = m->on ? m->cpu : NAN;
	*host = m->on ? m->host : NAN;
	if (!m->on || !window || !m->nsecs)
		return;
	/* a batch of n seconds: each holds 1/n of what the reading saw */
	m->win_hbusy += m->d_hbusy / m->nsecs;
	m->win_htotal += m->d_htotal / m->nsecs;
	for (unsigned i = 0; i < m->n; i++)
		if (!isnan(m->w[i].d)) {
			m->w[i].win += m->w[i].d / m->nsecs;
			m->w[i].win_wall += m->w[i].d_wall / m->nsecs;
		}
}

void cpu_meter_result(const struct cpu_meter *m, double *cpu, double *host, int *bound)
{
	*cpu = *host = NAN;
	*bound = -1;
	if (!m->on)
		return;
	for (unsigned i = 0; i < m->n; i++) {
		double share = m->w[i].win_wall > 0 ? m->w[i].win / m->w[i].win_wall : NAN;

		if (!isnan(share) && !(share <= *cpu))
			*cpu = share > 1 ? 1 : share;
	}
	if (m->win_htotal > 0)
		*host = m->win_hbusy / m->win_htotal;
	if (!isnan(*cpu) || !isnan(*host))
		*bound = hostcpu_bound(*cpu, *host);
}

bool hostcpu_bound(double cpu, double host)
{
	return cpu >= HOSTCPU_WORKER_BOUND || host >= HOSTCPU_HOST_BOUND;	/* false for NAN */
}

void hostcpu_describe(double cpu, double host, char *buf, size_t len)
{
	char w[96] = "", h[64] = "";

	if (!isnan(cpu))
		snprintf(w, sizeof(w), "its busiest worker was on (or waiting for) a CPU %.0f%% "
			 "of the window", floor(cpu * 100));
	if (!isnan(host))
		snprintf(h, sizeof(h), "the host's CPUs were %.0f%% busy", floor(host * 100));
	snprintf(buf, len, "%s%s%s", w, *w && *h ? ", " : "", h);
}

void cpu_meter_free(struct cpu_meter *m)
{
	free(m->w);
	m->w = NULL;
}
