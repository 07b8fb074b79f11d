/* A fio step on hosts= ("node1:8765,node2:8765"): fio as a client of
 * fio --server on each host. fio 3.x's client collects each server's
 * per-second status (--status-interval after each --client) and writes them
 * all in its one JSON object at the end, in client_stats[]. */
#ifndef HB_FIO_HOSTS_H
#define HB_FIO_HOSTS_H

#include <stddef.h>

#include "base/hist.h"
#include "measure/step.h"

#define FIO_MAX_HOSTS 32

/* Takes each second, in order: the hosts' sum in smp (smp->hosts_json each
 * host's part, malloc'd: the callee owns it), the merged bins in sec. */
typedef int (*fio_second_fn)(void *ctx, struct step_sample *smp, const struct hist sec[2]);

/* fio's arguments for the step: NULL-terminated, malloc'd (free the array
 * only); local: fio --output-format=json+ --status-interval=1 JOB. */
char **fio_argv(const struct step_spec *s, const char *job);
/* Whether text is a client's object (client_stats[]). */
bool fio_hosts_object(const char *text, size_t len);
/* The client's object: every host's seconds summed, second by second, to fn.
 * A host of hosts= with none, or two fewer than the most (it dropped out), is named in
 * missing ("" when none); gone names each host with fewer seconds than the
 * most and the second it is missing from ("'node2:8765' from second 3").
 * 0, or fn's error. */
int fio_hosts_take(const struct step_spec *s, const char *text, size_t len, fio_second_fn fn,
		   void *ctx, char *missing, size_t mlen, char *gone, size_t glen);

#endif
