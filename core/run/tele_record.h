/* The runner's side of telemetry (measure/telemetry.h): log the watched
 * changes the samples found, and store the samples as telemetry rows. */
#ifndef HB_RUN_TELE_RECORD_H
#define HB_RUN_TELE_RECORD_H

#include <stdint.h>

#include "measure/telemetry.h"
#include "store/db.h"

/* The samples taken so far (telemetry_take's list, NULL: none) after those
 * held: each watched change a warning (the run's events, the console and
 * the live line), each sample's facts rows of the telemetry table. Samples
 * the database was busy for stay in *held, for the next call; 0 or the
 * number of samples that could not be stored (each said once). */
unsigned tele_record(struct db *db, int64_t run_id, struct tele_batch **held,
		     struct tele_batch *taken);
/* Free a list of samples (held at the end): how many. */
unsigned tele_record_drop(struct tele_batch *list);

#endif
