/* Importing results of other tools (fio, Iometer) and hbatest's own JSON
 * export: the file being imported, and the rows every importer writes. */
#ifndef HB_DB_IMPORT_H
#define HB_DB_IMPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "store/db.h"

/* One file (and its companions: fio logs, Iometer's inst file). */
struct imp {
	struct db *db;
	const char *path;		/* as given */
	const char *text;		/* its bytes, NUL-terminated */
	size_t len;
	char sha[65];
	const char *label;		/* --label, or NULL */
	const char *const *extra;	/* companion files given on the command line */
	unsigned nextra;
	bool *extra_used;		/* set by the importer that used extra[i] */
	bool claim_only;		/* fio: only mark the logs that are this file's */
	bool check_only;		/* the file read and written, then rolled back:
					 * import checks every file before it keeps any */
	char err[1024];			/* "FILE:LINE:COLUMN: what" */
	int64_t first_run;		/* runs written, for the message */
	int nruns, nsteps;
};

struct imp_run {
	const char *uuid;		/* NULL: a new one */
	const char *label, *plan_text, *host, *version, *cmdline;
	const char *started_at, *finished_at, *status;
	const char *source;		/* 'fio', 'iometer' */
};

/* A step as imported; NAN (or NULL) leaves a column empty. */
struct imp_step {
	const char *name, *group, *params_json, *engine, *rw, *bs, *status, *error_text;
	const char *axis, *axis_value, *started_at, *finished_at;
	int write_pct, oio, workers, duration_s, ramp_s;
	double window_s;		/* s, a fraction when cut short; NAN: not known */
	int64_t read_ops, write_ops, read_bytes, write_bytes, errors;
	double iops, read_iops, write_iops, mbps;
	double lat_mean, lat_p50, lat_p99, lat_p999, lat_max;	/* us */
};

struct imp_sample {
	int64_t t;
	int64_t ops[2], bytes[2], errors;
	double lat_mean[2], lat_p99[2], lat_max, occupancy;	/* NAN: none */
};

/* "FILE:LINE:COLUMN: what" into im->err; returns -EINVAL. */
int imp_error(struct imp *im, unsigned line, unsigned col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* The same about a companion file. */
int imp_error_in(struct imp *im, const char *file, unsigned line, unsigned col,
		 const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* A file to import (or a companion), what it should be ("a fio JSON file")
 * for the message: 0, or im->err says why not (cannot read it, a directory
 * or block device, a NUL byte: binary). The caller frees *text. */
int imp_read(struct imp *im, const char *path, const char *what, char **text, size_t *len);
/* The JSON value at im->text + base, *end past it: 0; -EINVAL with
 * FILE:LINE:COLUMN; 1 when a second JSON object follows on a later line
 * (second[0] and [1] its start and end): imp_json_twice says so. */
int imp_json_check(struct imp *im, size_t base, size_t *end, size_t second[2]);
/* "the fio result of lines 1-519 again" (the same bytes twice), "a second
 * export, with run X again" (dup: what both hold, or NULL), or "a second fio
 * result begins here"; -EINVAL. noun: "fio result", "export". */
int imp_json_twice(struct imp *im, size_t base, size_t end, const size_t second[2],
		   const char *noun, const char *dup);
/* The database's reason into im->err; returns -EIO. */
int imp_db_error(struct imp *im);

/* Import one file in one transaction: 0, -EEXIST (im->err names the run it
 * was imported as), -EINVAL (malformed: im->err) or -EIO. With check_only
 * the transaction is rolled back, 0 meaning it would have been imported. */
typedef int (*imp_fn)(struct imp *im);
int db_import_file(struct imp *im, imp_fn fn);
/* Each format's imp_fn is declared in its folder (import/format.h, formats.c). */

/* The writers, inside db_import_file's transaction: -EIO (imp_db_error) on failure. */
int64_t imp_run_insert(struct imp *im, const struct imp_run *r);
int64_t imp_step_insert(struct imp *im, int64_t run_id, int seq, const struct imp_step *s);
int imp_sample_insert(struct imp *im, int64_t step_id, const struct imp_sample *s);
int imp_hist_insert(struct imp *im, int64_t step_id, const char *dir, const char *counts);
int imp_probe_insert(struct imp *im, int64_t run_id, const char *target, const char *probe,
		     const char *key, const char *value);
int imp_target_insert(struct imp *im, int64_t run_id, const char *path, const char *kind,
		      int64_t size_bytes);
/* Set a run's end once its file says how it ended; host NULL: unchanged. */
int imp_run_end(struct imp *im, int64_t run_id, const char *status, const char *finished_at,
		const char *host);
/* The run's steps_planned: the steps it holds (a file that ran to its end). */
int imp_run_planned(struct imp *im, int64_t run_id);
/* Steps of a run that differ only in OIO within a group: axis 'oio'. */
int imp_mark_oio_sweeps(struct imp *im, int64_t run_id);
/* Add counts to a step's row for path (several workers on one disk). */
int imp_step_target_add(struct imp *im, int64_t step_id, const char *path,
			const int64_t counts[5]);
int imp_event_insert(struct imp *im, int64_t run_id, const char *at, const char *level,
		     const char *msg);

#endif
