/* The runner's records: what a step, a second, a probe snapshot or an
 * hb.steady measured, as the rows of store/write.h, stored. Each returns
 * what the store function it calls returns (db_errmsg says why). */
#ifndef HB_RUN_RECORD_H
#define HB_RUN_RECORD_H

#include <stdbool.h>
#include <stdint.h>

#include "measure/probe.h"
#include "measure/step.h"
#include "store/db.h"
#include "store/resume.h"

/* The run's row, started now by this process in this folder. */
int64_t record_run_begin(struct db *db, const struct db_run_row *r);
/* A note (--note, hb.note) appended to the run's notes, a line each of its
 * lines (blank ones dropped); unless_known: a line the notes hold already
 * is not added again (a resume). */
int record_note(struct db *db, int64_t run_id, const char *text, bool unless_known);
/* plan_ended: the plan ran to its end, and steps_planned becomes the number
 * of steps it ran (the dry pass counts hb.steady's every round, and branches
 * on results may differ from the real pass). */
int record_run_end(struct db *db, int64_t run_id, const char *status, bool plan_ended);
/* The step's targets (a path the run has already is kept) and its row,
 * running: the step's id. */
int64_t record_step_begin(struct db *db, int64_t run_id, int seq, const struct step_spec *s);
int record_step_end(struct db *db, int64_t step_id, const char *status,
		    const struct step_spec *s, const struct step_totals *t,
		    const char *error_text);
/* n seconds in one transaction: all or none; 0, -EBUSY (nothing stored:
 * retry), or another -errno. */
int record_samples(struct db *db, int64_t step_id, const struct step_sample *s, unsigned n);
/* The facts of one phase ("start", "end"), in one transaction. */
int record_facts(struct db *db, int64_t run_id, const char *phase, const struct facts *f);
int record_steady(struct db *db, int64_t run_id, const struct steady_result *r);
/* The results of a step a resume found done, as the step returns them. */
void record_resumed(const struct resume_step *d, struct step_totals *t);

#endif
