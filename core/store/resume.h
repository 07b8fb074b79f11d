/* Resuming a run: which run, its plan, targets and --set values, and the
 * steps already done, which a replay returns from the database without I/O. */
#ifndef HB_RESUME_H
#define HB_RESUME_H

#include <stdbool.h>
#include <stdint.h>

#include "store/db.h"
#include "store/write.h"

struct resume_step {
	unsigned seq;
	int64_t id;
	bool done;
	char *params_json;
	struct db_step_totals tot;	/* read back: NULL reads 0 */
	double elapsed_s;	/* s: exec steps' wall time */
	int exit_status;	/* exec steps */
};

struct resume {
	int64_t run_id;
	char uuid[37];
	char *plan_path;
	char **targets, **sets;	/* as the run was started with */
	unsigned ntargets, nsets;
	struct resume_step *steps;
	unsigned nsteps;
	bool truncated;		/* the unfinished steps are gone: run the rest */
	/* the run's state as resume_load read it: resume_reopen takes the run
	 * only if it is still so (another resume may have taken it since) */
	char was_status[16];
	int64_t was_pid;	/* -1: NULL */
	/* --force over a changed plan: the text the replay runs, and both hashes */
	char *new_text;
	char old_sha[65], new_sha[65];
	int steps_planned;	/* the replay's dry pass count, stored with the text */
	bool plan_adopted;	/* the text, hash and count above are stored */
	/* this resume's row of resumes (since schema 8): the steps the replay
	 * kept (1 to kept) and the first it runs anew (0: none yet) */
	int64_t resume_row;	/* 0: none */
	unsigned kept, rerun_from;
};

/* Find the run (spec: id, label, uuid prefix; NULL: the newest unfinished
 * one, of plan_path when given), check it can resume, and load it. */
int resume_load(struct db *db, const char *spec, const char *plan_path, bool force,
		struct resume *r, char *err, size_t errlen);
/* Take the run for this process: running again, under our pid and host,
 * with a row in resumes (when, how long the run sat idle, --force).
 * Atomic: of two resumes exactly one wins; the other gets -EBUSY and err
 * naming the pid that holds the run. */
int resume_reopen(struct db *db, struct resume *r, char *err, size_t errlen);
/* Step seq of the replay, named name with params_json: 1 and *done its
 * stored row when it was done (the parameters must match), 0 when it is to
 * run (unfinished steps are deleted first), or -EINVAL when the plan now
 * asks something else at that step. */
int resume_step(struct db *db, struct resume *r, unsigned seq, const char *name,
		const char *params_json, const struct resume_step **done, char *err,
		size_t errlen);
/* The replay ended after step last: 0 when it matched every step done
 * earlier, or -EINVAL and err naming the steps stored past it (done, or
 * begun and stopped) that the plan (changed, with --force) no longer makes;
 * -EIO when it cannot tell. */
int resume_check_end(struct db *db, struct resume *r, unsigned last, char *err, size_t errlen);
/* Store r->steps_planned and, after --force, the new plan text and hash as
 * the run's: once the replay has matched every step done earlier (a replay
 * that fails leaves the run's plan as it was). Once; 0 or -EIO. */
int resume_adopt_plan(struct db *db, struct resume *r);
void resume_free(struct resume *r);
/* Each resume of run_id in words (the view run_resume's summary: "resumed
 * at ..., idle 3h12m, steps 1-5 kept, step 6 onwards rerun"), oldest first,
 * to fn; none before schema 8. 0, or -EIO with db->err. */
int resume_history(struct db *db, int64_t run_id, void (*fn)(const char *line, void *arg),
		   void *arg);

#endif
