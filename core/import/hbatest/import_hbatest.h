/* hbatest's JSON export import: what import_hbatest.c and its histogram
 * check share. */
#ifndef HB_DB_IMPORT_HBATEST_H
#define HB_DB_IMPORT_HBATEST_H

#include "import/import.h"

/* Row i of the export's histograms, of the step step_id (inserted already):
 * 0, or -EINVAL with im->err naming the step, the direction and what
 * disagrees (see import_hbatest_hist.c for the rules). */
int hb_hist_check(struct imp *im, int64_t i, const char *row, int64_t step_id);

#endif
