/* fio's results as `hbatest import fio` takes them (its row in
 * core/import/formats.c): the JSON (import_fio.c) and the interval logs
 * given beside it, each paired with its JSON first (fio_pair.c). */
#ifndef HB_IMPORT_FIO_FIO_H
#define HB_IMPORT_FIO_FIO_H

#include <stdbool.h>

#include "import/import.h"

/* What a fio file is, for "'/tmp' is a directory, not a fio JSON file". */
#define FIO_WHAT "a fio JSON file"

/* Import fio's --output-format=json (or json+) output and the logs among
 * im->extra that are its jobs' (imp_fn). */
int db_import_fio(struct imp *im);
/* Which of im->extra are logs of this fio file's jobs (extra_used), without
 * a transaction or a row written: 0, or -EINVAL when the file is not fio's. */
int db_import_fio_claim(struct imp *im);

/* Whether path is named as a fio log (NAME_iops.N.log ...): a companion. */
bool fio_is_log(const char *path, const char *const *files, int nfiles);
/* A fio histogram log (NAME_clat_hist.N.log), which is not imported: says
 * so and returns true. */
bool fio_hist_refused(const char *path);
/* Which JSON each log is of, before anything is written: a log is a JSON's
 * when it lies in the JSON's folder and names one of its jobs; a log
 * missing, of no file, or of two is reported (owner[x]: the index in files
 * of extra[x]'s JSON; -1 none). 0, or -1 when something was reported. */
int fio_pair_logs(struct db *db, const char *const *files, int nfiles,
		  const char *const *extra, unsigned nextra, int *owner);

#endif
