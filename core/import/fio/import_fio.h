/* fio's JSON import: what its files share (the internal header of
 * core/import/fio/; fio.h is what the rest of hbatest calls). Each file
 * calls only those below it: fio_pair.c > import_fio.c > import_fio_check.c,
 * import_fio_logs.c, import_fio_opts.c > fio_json.c; fiolog.c calls none. */
#ifndef HB_DB_IMPORT_FIO_H
#define HB_DB_IMPORT_FIO_H

#include "import/import.h"
#include "import/fio/fiolog.h"
#include "base/hist.h"

struct fio {
	struct imp *im;
	const char *json;	/* the JSON inside the file */
	size_t jlen, base;	/* its length, and offset in the file */
	sqlite3_stmt *get;	/* json_type and json_extract of ?1 at path ?2 */
	int njobs;
	int *threads, *first;	/* per job: fio threads it stands for, the first's number */
};

/* fio's REAL_MAX_JOBS: the threads one fio runs, numjobs included. */
#define FIO_MAX_THREADS 4096

/* A job as it becomes a step. */
struct fio_job {
	struct imp_step s;
	char name[256], group[300], rw[32], bs[64], engine[64], axis_value[32];
	char *params;
	struct hist *h[2];
	uint64_t bs_bytes;	/* the fixed block size; 0: not fixed (bsrange, bssplit) */
	double runtime_ms[2];	/* per direction, as the JSON has it; NAN: not given */
	double job_ms;		/* job_runtime: its threads' time summed; NAN: not given */
	double lat_min[2], lat_max[2];	/* ns, of lat_src; NAN: not given */
	const char *lat_src;	/* "clat_ns" or "lat_ns": what the step's latency times */
	struct fiolog log;
	const char *log_of[FIOLOG_KINDS];	/* the first log given of each kind */
	int lat_kind;		/* the log kind samples take latency from; -1: none */
};

/* fio_json.c: values by path. "FILE:LINE:COLUMN: key: detail" at the value path names. */
int fio_fault(struct fio *f, const char *path, const char *fmt, const char *key,
	      const char *detail);
/* The JSON type at path ("null" when missing; NULL: database error) and value. */
const char *fio_get(struct fio *f, const char *path, sqlite3_value **v);
int fio_num(struct fio *f, const char *path, bool required, double *out);
bool fio_str(struct fio *f, const char *path, char *buf, size_t len);
/* A job option: the job's own, the global one, or def (NULL: none). */
const char *fio_opt(struct fio *f, int i, const char *name, char *buf, size_t len,
		    const char *def);
/* The path of a job option as fio_opt finds it (the job's, else global). */
void fio_opt_path(struct fio *f, int i, const char *name, char *path, size_t len);
/* The path's last key: 'iops', or '"99.000000"' quoted as the path has it. */
const char *fio_last_key(const char *path);


/* import_fio_check.c: values checked against each other. -EINVAL when two jobs[] entries are alike in every value (im->err). */
int fio_job_twice(struct fio *f);
/* A direction's latency (dirpath "$.jobs[0].read", src "clat_ns", N n,
 * total_ios ios, json+ bins as h or NULL) checked against itself: the bins
 * count N I/Os, N is total_ios but for those in flight, the percentiles
 * ascend and lie where the bins put them. 0 or -EINVAL (im->err). */
int fio_check_lat(struct fio *f, const struct fio_job *j, const char *dirpath,
		  const char *src, double n, double ios, const struct hist *h);

/* import_fio_opts.c: a job's workload from its options (rw, bs, iodepth x
 * numjobs, times) and its targets: 0 or -EINVAL (im->err). */
int fio_workload(struct fio *f, int i, struct fio_job *j);
int fio_targets(struct fio *f, int i, int64_t run_id);
/* Which fio threads each job stands for (f->threads, f->first): numjobs when
 * fio grouped them (group_reporting), else one. 0 or -ENOMEM/-EIO. */
int fio_threads(struct fio *f);

/* import_fio_logs.c: the logs given beside the JSON into their jobs (jobs
 * NULL, im->claim_only: only mark those of this file's jobs), and a job's
 * as samples. */
int fio_logs(struct fio *f, struct fio_job *jobs);
int fio_samples(struct fio *f, struct fio_job *j, int64_t step_id);

#endif
