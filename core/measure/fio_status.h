/* fio's JSON status (--output-format=json+): the cumulative counters of one
 * job (or one host's job, in client mode), and a second as two of them less. */
#ifndef HB_FIO_STATUS_H
#define HB_FIO_STATUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/hist.h"
#include "measure/step.h"

/* fio's counters since the job began (group_reporting: one job). */
struct fio_cum {
	uint64_t ops[2], bytes[2];
	double lat_ns[2];	/* clat mean x N: the sum of latencies */
	double runtime_ms;	/* summed over numjobs */
	struct hist h[2];	/* json+ clat bins */
};

/* The job at prefix ("$.jobs[0]", or "$" for a text holding one job) of a
 * status into c. Ops are the I/Os in the clat bins: fio's counters of one
 * status are not read at one instant, and the bins are what latency is from. */
void fio_parse_status(const char *s, size_t len, const char *prefix, struct fio_cum *c);
/* Second t as cur less prev (jobs: numjobs, whose runtimes fio sums; the
 * first `ramp` seconds are ramp): its counts into smp, its bins into sec. */
void fio_second(const struct fio_cum *cur, const struct fio_cum *prev, unsigned jobs,
		unsigned ramp, uint64_t t, struct step_sample *smp, struct hist sec[2]);
/* Whether cur counts less than prev (a status fio's client received after
 * the host's last): such a status is no second, and is passed over. */
bool fio_cum_behind(const struct fio_cum *cur, const struct fio_cum *prev);
/* A second's mean, p99 and max latency from its bins (sum: the exact total). */
void fio_sample_lat(struct step_sample *smp, const struct hist sec[2]);

#endif
