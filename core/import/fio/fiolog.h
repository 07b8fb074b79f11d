/* fio's interval logs (--write_iops_log, --write_bw_log, --write_lat_log with
 * --log_avg_msec=1000): NAME_iops.N.log lines "msec, value, dir, bs, offset[, prio]",
 * an entry a second, each checked against what the job's JSON says; the logs
 * of a job's threads (numjobs with group_reporting) summed (IOPS, bandwidth)
 * or averaged (latency) per second. No SQL: core/import/fio/import_fio.c stores them. */
#ifndef HB_FIOLOG_H
#define HB_FIOLOG_H

#include <stdbool.h>
#include <stddef.h>

enum fiolog_kind { FIOLOG_IOPS, FIOLOG_BW, FIOLOG_LAT, FIOLOG_CLAT, FIOLOG_SLAT, FIOLOG_KINDS };

struct fiolog_name {
	char prefix[256];	/* NAME, without its folder */
	enum fiolog_kind kind;
	unsigned job;		/* N: fio's job (thread) number, 1-based */
};

/* Values per second t (the window ending near t + 1 s), per direction: the
 * sum over the logs (threads) that have an entry, and how many have. */
struct fiolog_sec {
	double sum[FIOLOG_KINDS][2];
	unsigned n[FIOLOG_KINDS][2];
	unsigned line[FIOLOG_KINDS][2];	/* the line of the last entry added, for messages */
};

struct fiolog {
	struct fiolog_sec *sec;
	size_t nsec;
	/* per kind and direction, over every entry added: */
	unsigned entries[FIOLOG_KINDS][2];
	double total[FIOLOG_KINDS][2];	/* the values summed */
	double max[FIOLOG_KINDS][2];	/* the largest value */
	unsigned seconds[FIOLOG_KINDS];	/* seconds with an entry, either direction (merged:
					 * summed over the threads) */
};

/* What the job's JSON says a log must fit. */
struct fiolog_fit {
	const char *who;		/* "job 'qd1'", for messages */
	bool io[2];			/* the direction had I/O: entries of one without are refused */
	long long end_ms;		/* a thread's time: no IOPS or bandwidth entry after it */
	double lat_min[2], lat_max[2];	/* ns: the range of the latency this log times; NAN: any */
};

/* Where a log does not fit, and why. */
struct fiolog_fault {
	unsigned line, col;
	char what[320];
};

/* Is path a log's name (NAME_iops.N.log, ..._bw, _lat, _clat, _slat)? */
bool fiolog_name_parse(const char *path, struct fiolog_name *n);
/* "iops", "bw", "lat", "clat", "slat". */
const char *fiolog_kind_name(enum fiolog_kind k);
/* The job option that writes a log of this kind ("write_iops_log"). */
const char *fiolog_option(enum fiolog_kind k);
/* Add a log's lines: 0, or -EINVAL with the fault in *e: a line that is
 * not "msec, value, dir, bs...", two entries in one second (as without
 * log_avg_msec=1000), entries out of order, and what does not fit the job
 * (an entry of a direction it did no I/O in, a rate after its end, or a
 * latency outside its range). */
int fiolog_add(struct fiolog *l, enum fiolog_kind k, const char *text,
	       const struct fiolog_fit *fit, struct fiolog_fault *e);
/* Add src's seconds and totals to dst (a thread's logs to its job's). */
int fiolog_merge(struct fiolog *dst, const struct fiolog *src);
/* Kind k in direction d at second t, over the threads: IOPS and bandwidth
 * summed, latency their mean; false when none. */
bool fiolog_value(const struct fiolog *l, size_t t, enum fiolog_kind k, int d, double *v);
void fiolog_free(struct fiolog *l);

#endif
