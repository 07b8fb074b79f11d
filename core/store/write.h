/* The one writer of runs, steps, samples, histograms, targets, step
 * targets, probes, events and steady state: a struct per row, plain data in
 * the tables' units, which the runner and every importer fill. In a row, a
 * NULL string, an integer < 0 and a NAN leave the column NULL. */
#ifndef HB_STORE_WRITE_H
#define HB_STORE_WRITE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/hist.h"

struct db;

struct db_run_row {
	const char *uuid, *label, *plan_path, *plan_sha256, *plan_text;
	const char *host, *version, *cmdline;
	const char *started_at, *finished_at, *heartbeat_at;	/* ISO-8601 UTC */
	const char *status;	/* 'running', 'done', 'aborted', 'failed' */
	bool simulated;
	int64_t pid;		/* of the process running it */
	const char *sets_json, *targets_json;	/* --set and --target values */
	const char *source;	/* 'hbatest', 'fio', 'iometer' */
	const char *source_file, *source_sha256;	/* imported runs */
	int steps_planned;	/* steps the plan will run */
	const char *cwd;	/* the folder relative targets are relative to */
	const char *plan_name;	/* hb.plan{ name } */
	const char *notes;	/* one per line, in order */
	const char *build_commit;	/* git commit of the binary ("" or NULL: not known) */
};

/* A run's end; host NULL and heartbeat_at NULL: unchanged. count_planned:
 * steps_planned becomes the number of steps the run holds. In the same
 * transaction every step of the run still running ends (status not
 * "running"), failed, with lost_step_error
 * for step lost_step_id (the error its own end could not store; 0: none),
 * else "the run ended (STATUS) before this step's end was stored". */
struct db_run_end {
	const char *status, *finished_at, *heartbeat_at, *host;
	bool count_planned;
	int64_t lost_step_id;
	const char *lost_step_error;
};

/* What a step measured: the columns its end sets. */
struct db_step_totals {
	double window_s;	/* s: its samples' secs summed (a fraction when cut short) */
	int64_t read_ops, write_ops, read_bytes, write_bytes, errors;
	double iops, read_iops, write_iops, mbps;	/* mbps: 10^6 bytes/s */
	double lat_mean, lat_p50, lat_p99, lat_p999, lat_max;	/* us */
};

struct db_step_row {
	const char *kind;	/* 'measure', 'precondition', 'steady-round', 'exec' */
	const char *name, *group, *tags_json, *params_json;
	const char *engine, *rw, *bs;	/* bs: "4k", or "4k:60,64k:40" */
	int write_pct, oio, workers, duration_s, ramp_s;	/* duration, ramp: s */
	const char *status, *started_at, *finished_at, *error_text;
	const char *axis, *axis_value;	/* the key a sweep varies here, its value */
	int round, passes;	/* steady-state round; a fill's passes */
	const char *on_error;	/* 'fail', 'continue' */
	struct db_step_totals tot;
};

/* Per-target totals of a step's window. */
struct db_step_target_row {
	const char *path;
	int64_t read_ops, write_ops, read_bytes, write_bytes, errors;
};

/* The end of a step the runner measured: its row's status and totals, its
 * histograms (a direction with no count is not stored) and per-target rows,
 * in one transaction. */
struct db_step_end {
	const char *status, *finished_at, *error_text, *placement;
	struct db_step_totals tot;
	const struct hist *lat[2];	/* ns; read, write */
	const struct db_step_target_row *targets;
	unsigned ntargets;
	/* exec steps and fills (passes=) also set elapsed_s and exit_status, and
	 * a fill's duration_s becomes the seconds its samples are in */
	bool exec, fill;
	double elapsed_s;	/* s, wall (or engine) time */
	int exit_status;	/* exec: the command's */
	/* the window's CPU (measure/hostcpu.h): 0..1, NAN for NULL; host_bound
	 * 1 or 0, -1 for NULL */
	double cpu_busy, host_busy;
	int host_bound;
};

/* One second of a step; latencies in us. */
struct db_sample_row {
	int64_t t;		/* s since the step began */
	bool ramp;
	double secs;		/* s of the second covered: 1, less for a last one */
	int64_t ops[2], bytes[2], errors;	/* read, write */
	double lat_mean[2], lat_p99[2], lat_max, occupancy;
	bool cpu_measured;	/* false (an import): cpu_busy and host_busy NULL */
	double cpu_busy, host_busy;	/* 0..1; NAN: NULL */
	const char *hosts_json;	/* fio on several hosts: each one's part; NULL: none */
};

struct db_target_row {
	const char *path, *kind;	/* kind: 'file', 'block', 'virtual' (static) */
	int64_t size_bytes;
};

struct db_probe_row {
	const char *phase, *target, *probe, *key, *value;	/* target NULL: the host */
};

struct db_event_row {
	const char *at;		/* ISO-8601 UTC */
	const char *level;	/* 'error', 'warning', 'info' (static) */
	const char *msg;
};

/* One fact of a probe's sample() during a run (the telemetry table). */
struct db_telemetry_row {
	int64_t step_id;	/* < 0: between steps */
	double t;		/* s on the samples' clock (since the run began between steps) */
	const char *at;		/* ISO-8601 UTC */
	const char *source, *key, *value;	/* source: the probe */
	const char *target;	/* the run's target it is behind, NULL: none */
};

/* The outcome of one hb.steady{}. */
struct db_steady_row {
	const char *name, *track;
	bool attained;
	int rounds, window_first, window_last;	/* window_last 0: no window */
	double mean, slope, data_excursion, slope_excursion;
	double max_data_excursion, max_slope_excursion;
	int64_t first_step_id, last_step_id;
};

/* Each returns 0 (the inserts: the new row's id) or -errno, the reason in
 * db->err (db_errmsg). */
int64_t db_run_insert(struct db *db, const struct db_run_row *r);
int db_run_end(struct db *db, int64_t run_id, const struct db_run_end *e);
/* steps_planned becomes the number of steps the run holds. */
int db_run_planned(struct db *db, int64_t run_id);
int db_run_heartbeat(struct db *db, int64_t run_id);
/* One line (no newline in it) appended to the run's notes; unless_known:
 * not when the notes hold that line already (a resumed run replaying its
 * plan's hb.note). */
int db_run_note(struct db *db, int64_t run_id, const char *line, bool unless_known);
/* A path the run has already is kept as it is. */
int db_target_insert(struct db *db, int64_t run_id, const struct db_target_row *t);
int64_t db_step_insert(struct db *db, int64_t run_id, int seq, const struct db_step_row *s);
int db_step_finish(struct db *db, int64_t step_id, const struct db_step_end *e);
/* add: to the counts a row for the path holds (several workers on one
 * disk); else they replace it. */
int db_step_target_put(struct db *db, int64_t step_id, const struct db_step_target_row *t,
		       bool add);
/* Steps of a run that differ only in OIO within a group: axis 'oio'. */
int db_mark_oio_sweeps(struct db *db, int64_t run_id);
/* counts: JSON [[bucket, count], ...] in HIST_LAYOUT's buckets; replace: a
 * histogram the step has for dir is replaced (a resumed step's), else it is
 * an error (an importer's second one). */
int db_hist_insert(struct db *db, int64_t step_id, const char *dir, const char *counts,
		   bool replace);
/* One second, or (db_samples_insert) n in one transaction: all or none; 0,
 * -EBUSY (nothing stored: retry), or another -errno. */
int db_sample_insert(struct db *db, int64_t step_id, const struct db_sample_row *s);
int db_samples_insert(struct db *db, int64_t step_id, const struct db_sample_row *s,
		      unsigned n);
int db_probe_insert(struct db *db, int64_t run_id, const struct db_probe_row *p);
/* n facts of one snapshot, in one transaction. */
int db_probes_insert(struct db *db, int64_t run_id, const struct db_probe_row *p, unsigned n);
int db_event_insert(struct db *db, int64_t run_id, const struct db_event_row *e);
/* An event now. Tries briefly: one that cannot be stored now (busy) is
 * kept and stored with the next one, or by db_close. */
int db_event(struct db *db, int64_t run_id, const char *level, const char *msg);
/* Store the events kept while the database was busy; 0 or -errno. */
int db_event_flush(struct db *db);
/* n facts of one telemetry sample, in one transaction: all or none; 0,
 * -EBUSY (nothing stored: retry), or another -errno. */
int db_telemetry_insert(struct db *db, int64_t run_id, const struct db_telemetry_row *r,
			unsigned n);
/* The outcome replaces one a resume's replay records again. */
int db_steady_insert(struct db *db, int64_t run_id, const struct db_steady_row *r);

/* A column of a table as hbatest's JSON export gives it (pragma table_info). */
struct db_json_col {
	char name[64];
	char type;		/* 'i' INTEGER, 'r' REAL, 't' TEXT */
	bool required;		/* NOT NULL without a default */
	char dflt[64];		/* the default's SQL, or "" */
};
/* The INSERT of a row of table from its JSON object, the export's form (the
 * hbatest importer): ?1 the object, whose columns c[0..n) it reads (a
 * column's default where the object has none); ?2 the run's id (a table of
 * a run), ?3 the step's (samples, step_targets, histograms, telemetry; steady_state's
 * first step) and ?4 steady_state's last step. NULL with db->err. */
sqlite3_stmt *db_json_row_insert(struct db *db, const char *table, const struct db_json_col *c,
				  unsigned n);

#endif
