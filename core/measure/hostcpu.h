/* CPU over a step: how much of each second the workers wanted a CPU (ran,
 * or were ready to run and waited for one) and how busy the host's CPUs
 * were (/proc/stat), so a step can say when the host, not the device, set
 * its pace (docs/measurement.md, "Host CPU"). The sampler (main thread)
 * reads once per batch of seconds it merges, never on the I/O path. */
#ifndef HB_HOSTCPU_H
#define HB_HOSTCPU_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* host_bound: a worker wanted the CPU this share of the window or more ... */
#define HOSTCPU_WORKER_BOUND 0.90
/* ... or the host's CPUs were this busy */
#define HOSTCPU_HOST_BOUND 0.95

struct worker;

struct cpu_meter {
	bool on;		/* wall-clock steps; an engine's clock (sim): off */
	unsigned n;		/* workers */
	uint64_t wall;		/* ns: the last reading */
	uint64_t hbusy, htotal;	/* /proc/stat jiffies then; htotal 0: unknown */
	struct cpu_worker {
		uint64_t ns;	/* on CPU or waiting for one, at its last reading */
		uint64_t wall;	/* that reading's time: a finished worker's end */
		double d, d_wall;	/* the batch's; d NAN: unknown */
		double win, win_wall;	/* the window's so far */
	} *w;
	/* the batch being merged: nsecs seconds, what the reading saw of the
	 * host since the one before, and the shares (NAN: unknown) */
	unsigned nsecs;
	double d_hbusy, d_htotal;
	double cpu, host;
	double win_hbusy, win_htotal;	/* the window's so far */
};

/* Host CPU jiffies busy and in all from <HBATEST_SYSFS_ROOT>/proc/stat's
 * "cpu" line (busy: all but idle and iowait). 0, or -errno. */
int hostcpu_stat(uint64_t *busy, uint64_t *total);
/* ns thread tid (of this process) has run or waited to run
 * (/proc/self/task/TID/schedstat); 0 when unknown. */
uint64_t hostcpu_thread_ns(pid_t tid);
/* The calling thread's: schedstat, else its CPU time alone. */
uint64_t hostcpu_self_ns(void);

/* First reading, as the workers start. on: false leaves every figure NULL. */
int cpu_meter_start(struct cpu_meter *m, struct worker *w, unsigned n, bool on);
/* A reading now, for the nsecs seconds about to be merged: their shares. */
void cpu_meter_batch(struct cpu_meter *m, struct worker *w, unsigned nsecs);
/* One merged second of the batch: its shares (NAN: unknown); a window
 * second's add to the step's. */
void cpu_meter_second(struct cpu_meter *m, bool window, double *cpu, double *host);
/* Over the window: shares (NAN: unknown) and host_bound (1, 0; -1: unknown). */
void cpu_meter_result(const struct cpu_meter *m, double *cpu, double *host, int *bound);
void cpu_meter_free(struct cpu_meter *m);
/* Whether shares (NAN: unknown) pass HOSTCPU_*_BOUND. */
bool hostcpu_bound(double cpu, double host);
/* "the busiest worker was on (or waiting for) a CPU 99% of the window, the
 * host's CPUs 100% busy": the step's, for its warning. */
void hostcpu_describe(double cpu, double host, char *buf, size_t len);

#endif
