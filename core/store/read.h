/* The views' reads (list, show): each a cursor over named rows, the SQL and
 * its column numbers kept in read.c. A row's strings belong to the cursor
 * and last until its next row, its rewind or its end. */
#ifndef HB_DB_READ_H
#define HB_DB_READ_H

#include <stdbool.h>
#include <stdint.h>

#include "store/db.h"

struct db_cursor;

/* A run's steps: done, started, and planned (the dry pass's count; not
 * known for a run made before schema 5). */
struct db_step_counts {
	int done, started, planned;
	bool planned_known;
};

/* list: one run. */
struct db_run_line {
	int64_t id;
	const char *uuid8;	/* the uuid's first 8 characters */
	const char *label;	/* "" when none */
	const char *state;	/* as a person reads it (db_state_of) */
	const char *started_at, *plan_path;
	bool simulated;
	struct db_step_counts steps;
	const char *notes;	/* a line each; NULL: none (or before schema 7) */
};

/* show: the run itself (a NULL string: not known). */
struct db_run_info {
	const char *uuid, *label, *plan_path, *plan_sha256, *host, *version, *cmdline;
	const char *started_at, *finished_at;
	const char *state;	/* as a person reads it (db_state_of) */
	bool simulated;
	const char *source, *source_file;	/* where imported results came from */
	struct db_step_counts steps;
	const char *plan_name, *notes, *build_commit;	/* since schema 7; notes: a line each */
};

/* show: a target of the run. */
struct db_target_info {
	const char *path, *kind;
	bool size_known;	/* not for imported results */
	int64_t size_bytes;
};

/* show: a step with its summary; a measure is NAN where the step has none
 * (no I/O completed: it failed or was stopped before its first second). */
struct db_step_info {
	int seq;
	const char *kind, *name, *status;
	double iops, mbps, mibps, lat_mean_us, lat_p99_us, lat_max_us;
	int64_t errors;
	const char *placement;	/* "" when none (and before schema 4) */
	double elapsed_s;	/* an exec step's time; NAN when not known */
	int exit_status;	/* an exec step's */
	int host_bound;		/* 1: the host's CPU set its pace; 0; -1: unknown (before schema 10) */
	double cpu_busy, host_busy;	/* 0..1 over the window; NAN: unknown */
};

/* show: a steady-state check (hb.steady). */
struct db_steady_info {
	const char *name, *track;
	bool attained;
	int rounds;
	bool has_window;	/* the window's fields below are known */
	int window_first, window_last;
	double mean;
	double data_excursion, slope_excursion;	/* % of the mean */
	double max_data_excursion, max_slope_excursion;	/* % */
};

/* show: a warning or an error the run logged. */
struct db_event_info {
	const char *at, *level, *message;
};

/* A cursor over one view's rows, or NULL (logged): every run, oldest first;
 * one run (id); its targets, steps, steady states, warnings and errors. */
struct db_cursor *db_read_runs(struct db *db);
struct db_cursor *db_read_run(struct db *db, int64_t id);
struct db_cursor *db_read_targets(struct db *db, int64_t id);
struct db_cursor *db_read_steps(struct db *db, int64_t id);
struct db_cursor *db_read_steady(struct db *db, int64_t id);
struct db_cursor *db_read_events(struct db *db, int64_t id);
/* The next row of a cursor of its kind into *row: true, or false at the end
 * of its rows or on an error (db_read_end tells which). */
bool db_next_run_line(struct db_cursor *c, struct db_run_line *row);
bool db_next_run_info(struct db_cursor *c, struct db_run_info *row);
bool db_next_target(struct db_cursor *c, struct db_target_info *row);
bool db_next_step(struct db_cursor *c, struct db_step_info *row);
bool db_next_steady(struct db_cursor *c, struct db_steady_info *row);
bool db_next_event(struct db_cursor *c, struct db_event_info *row);
/* Back to the first row, to read them again (a column sized to its widest
 * value): 0, or -EIO when the rows stopped on an error (then db_read_end
 * says why). */
int db_read_rewind(struct db_cursor *c);
/* Ends the cursor: 0, or -EIO (logged) when its rows stopped on an error
 * (not at their end, nor where the caller stopped reading). */
int db_read_end(struct db_cursor *c);

#endif
