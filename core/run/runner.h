/* The runner: the dry pass collects and checks every step of a plan, the
 * real pass runs them into the database, with the hooks both passes give
 * the plan (store, progress, probes, steady state, events). */
#ifndef HB_RUNNER_H
#define HB_RUNNER_H

#include <stdbool.h>
#include <stdint.h>

#include "measure/telemetry.h"
#include "store/db.h"
#include "plan/plan.h"
#include "store/resume.h"

enum exit_code { EXIT_DONE = 0, EXIT_FAILED = 1, EXIT_USAGE = 2, EXIT_INTERRUPTED = 130 };

struct run_ctx {
	const char *db_path;	/* --db, or the default */
	struct plan_opts po;
	const char *label;
	bool dry_only;
	bool resume, force;
	bool status_given;	/* --status-interval was given */
	unsigned status_interval;	/* s between status lines; 0: none */
	const char *resume_spec;	/* RUN after --resume, or NULL */
	const char **notes;	/* --note, in order (argv's strings) */
	unsigned nnotes;
	struct resume rs;
	/* dry pass */
	struct step_spec *steps;
	unsigned nsteps;
	double total_secs;
	bool layout;		/* some target will be laid out */
	bool fills;		/* some step is a fill, whose time is a guess */
	bool simulated;		/* some step runs on a simulating engine */
	double sim_secs;	/* of total_secs, simulated time (far faster than real) */
	char **probe_targets;	/* the real (not virtual) targets of the dry pass */
	unsigned nprobe_targets;
	bool link_warned;
	char *plan_name;	/* hb.plan{ name }, or NULL */
	char **plan_notes;	/* hb.note in the dry pass: listed, not stored */
	unsigned nplan_notes;
	/* real pass */
	struct db db;
	int64_t run_id;
	unsigned seq;
	int64_t step_id;
	struct telemetry *tele;	/* the probes' samples; NULL: no probe has sample() */
	struct tele_batch *tele_held;	/* samples the database was busy for */
	uint64_t last_beat;	/* ns */
	bool step_failed;
};

/* The dry pass: runs the plan's Lua once, keeping each checked step in
 * c->steps (for the listing and the progress estimate). */
int runner_dry_pass(struct run_ctx *c, struct plan_info *info, char *err, size_t len);
/* The real pass: the run row, then each step into the database; returns
 * the exit code. argv is recorded as the run's command line. */
int runner_real_pass(struct run_ctx *c, int argc, char **argv);
void runner_free(struct run_ctx *c);

#endif
