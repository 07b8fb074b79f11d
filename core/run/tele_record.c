/* Telemetry into the run: the watched changes as warnings, the samples as
 * rows of the telemetry table. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "measure/progress.h"
#include "run/tele_record.h"
#include "store/write.h"

static void log_events(struct tele_batch *b)
{
	for (unsigned i = 0; i < b->nevents; i++) {
		const char *note = strstr(b->events[i], "telemetry: ");

		log_warn("%s", b->events[i]);
		progress_note(note ? note : b->events[i]);	/* the line names the step */
		free(b->events[i]);
	}
	free(b->events);
	b->events = NULL;
	b->nevents = 0;
}

static int store(struct db *db, int64_t run_id, const struct tele_batch *b)
{
	struct db_telemetry_row *r = calloc(b->f.n ? b->f.n : 1, sizeof(*r));
	int rc;

	if (!r)
		return -ENOMEM;
	for (unsigned i = 0; i < b->f.n; i++) {
		const struct fact *x = &b->f.v[i];

		r[i] = (struct db_telemetry_row){ .step_id = b->step_tag, .t = b->t, .at = b->at,
			.source = x->probe, .key = x->key, .value = x->value, .target = x->target };
	}
	rc = b->f.n ? db_telemetry_insert(db, run_id, r, b->f.n) : 0;
	free(r);
	return rc;
}

unsigned tele_record(struct db *db, int64_t run_id, struct tele_batch **held,
		     struct tele_batch *taken)
{
	struct tele_batch **end = held, *b;
	unsigned lost = 0;

	for (b = taken; b; b = b->next)
		log_events(b);
	while (*end)
		end = &(*end)->next;
	*end = taken;
	while ((b = *held)) {
		int rc = store(db, run_id, b);

		if (rc == -EBUSY)
			break;	/* kept, in order, for the next call */
		if (rc) {
			log_warn("telemetry: cannot store the sample at t=%.0f s in '%s': %s",
				 b->t, db->path, db_errmsg(db));
			lost++;
		}
		*held = b->next;
		tele_batch_free(b);
	}
	return lost;
}

unsigned tele_record_drop(struct tele_batch *list)
{
	unsigned n = 0;

	for (struct tele_batch *next; list; list = next, n++) {
		next = list->next;
		tele_batch_free(list);
	}
	return n;
}
