/* The report's folder: what may be replaced, and moving a report in. */
#ifndef HB_CMD_REPORT_DIR_H
#define HB_CMD_REPORT_DIR_H

#include <stdbool.h>
#include <stddef.h>

#define REPORT_MAX_RUNS 32
#define REPORT_MARK ".hbatest-report"	/* in every report folder: its runs' uuids */
#define UUIDS_LEN (REPORT_MAX_RUNS * 37 + 8)	/* "runs:", then a space and 36 a run */

/* dir may be written (0), or a message said why not (< 0). A default dir
 * holding the report of other runs (uuids: "runs: UUID ...") is kept and
 * dir becomes dir-UUID8; an --out dir's older report is replaced. */
int report_dir_choose(char *dir, size_t len, bool by_default, const char *uuids);

/* Writes the mark (uuids) into the finished report tmp. */
int report_dir_mark(const char *tmp, const char *uuids);

/* tmp, finished, takes dir's place; dir is judged again as it goes. */
int report_dir_put(const char *tmp, const char *dir, const char *uuids, bool by_default);

#endif
