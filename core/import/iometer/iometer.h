/* Iometer's results.csv: the column layouts of its 'Results header (56
 * columns up to 2008, 59 in 1.1.0, 80 with latency bins since 2014, and
 * the inst file's 80 with the 59's MBps names), told apart by their names,
 * and the columns hbatest reads (iometer.c, no SQL); and what the import
 * registry (core/import/formats.c) calls of the format. */
#ifndef HB_IOMETER_H
#define HB_IOMETER_H

#include <stdbool.h>
#include <stddef.h>

#include "base/csvlines.h"

/* What a file that does not start as Iometer's results.csv is told. */
#define IOMETER_NOT_RESULTS \
	"expected \"'Test Type,Test Description\" (is this Iometer's results.csv?)"

enum iom_col {
	IC_TYPE, IC_NAME, IC_SPEC, IC_MANAGERS, IC_WORKERS, IC_DISKS, IC_IOPS, IC_RIOPS,
	IC_WIOPS, IC_MBPS_BIN, IC_MBPS_DEC, IC_AVG, IC_AVG_R, IC_AVG_W, IC_MAX, IC_MAX_R,
	IC_MAX_W, IC_ERR, IC_BYTES_R, IC_BYTES_W, IC_IOS_R, IC_IOS_W, IC_RAW_RUN, IC_QD,
	IC_CPU, IC_SPEED, IC_N
};

struct iom_layout {
	int ncols;		/* 56, 59 or 80 */
	int mbps;		/* which MBps names: 56 (MBps), 59 (MBps (Binary)), 80 (MiBps) */
	int idx[IC_N];		/* field index of each column, -1: not in this layout */
};

/* Match a header's names (the first without its "'") from field first on:
 * 0 with the layout, or -1 with *bad the field that matches no layout and
 * want what Iometer writes there (NULL: one column too many). */
int iometer_layout(const struct csvline *h, unsigned first, struct iom_layout *lo,
		   unsigned *bad, const char **want);
/* The name of column c in the layout, and of field i (NULL past the end). */
const char *iometer_col_name(const struct iom_layout *lo, enum iom_col c);
const char *iometer_col_at(const struct iom_layout *lo, unsigned i);

/* Whether text begins as Iometer's results.csv does, its first non-empty
 * line "'Test Type,Test Description"; false with *line that line. Only the
 * first line is split, so a file that is not Iometer's is refused after it.
 * cut: text is the start of a longer file (a first line it ends inside
 * counts as Iometer's while it may still become one). */
bool iometer_starts_results(const char *text, size_t len, bool cut, unsigned *line);

/* Why text (a file's first len bytes; cut: there is more) cannot begin
 * Iometer's results.csv, for "FILE:LINE:1: why": UTF-16 (Iometer writes
 * 8-bit text, an editor may have saved it so) or not Iometer's first line
 * (IOMETER_NOT_RESULTS); NULL when it can, or when it holds a NUL byte but
 * is not UTF-16 (binary data, for the reader to refuse). */
const char *iometer_head_refusal(const char *text, size_t len, bool cut, unsigned *line);

struct imp;

/* Import a results file and its inst file, when one is among im->extra or
 * beside it (import_iometer.c; an imp_fn). */
int db_import_iometer(struct imp *im);
/* Whether path is an inst file: "inst" + the name of a results file among
 * files (import_iometer_inst.c). */
bool iometer_is_inst(const char *path, const char *const *files, int nfiles);
/* An inst file given that no results file used: says so. */
void iometer_inst_unused(const char *path);

#endif
