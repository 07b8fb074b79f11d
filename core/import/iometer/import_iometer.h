/* Iometer's results.csv and its inst file: what the two importer files share. */
#ifndef HB_DB_IMPORT_IOMETER_H
#define HB_DB_IMPORT_IOMETER_H

#include "base/csvlines.h"
#include "import/import.h"
#include "import/iometer/iometer.h"

/* The per-interval file Iometer 1.1.0 writes beside results.csv
 * ("inst" + its name), split into its result blocks. */
struct iom_iblock {
	int test, block;	/* 1-based, as in the results file */
	size_t first, n;	/* its rows in c */
	struct iom_layout lo;
};

struct iom_inst {
	const char *path;	/* NULL: none */
	char *own;		/* path, when found beside the results file */
	struct csvlines c;
	struct iom_iblock *b;
	unsigned nb, cap;
	unsigned next;		/* the first block no result has asked for yet */
};

/* Find (among the files given, or beside im->path) and read the inst file. */
int iom_inst_load(struct imp *im, struct iom_inst *in);
/* The interval rows of result block of test as samples of step_id; asked
 * for in the file's order (one walk through the blocks in all). */
int iom_inst_samples(struct imp *im, struct iom_inst *in, int test, int block,
		     const char *spec, int64_t step_id);
void iom_inst_free(struct iom_inst *in);

/* A set of names (byte strings), each with two values of the caller's
 * (import_iometer_names.c). */
struct iom_names {
	struct iom_name *slot;
	size_t cap, n;
	size_t probes;		/* slots looked at, by every add so far */
};

/* Add key[0..len): 0 when new (its values 0), 1 when there already, or
 * -ENOMEM; *val its two values, until the next add. */
int iom_names_add(struct iom_names *s, const char *key, size_t len, unsigned **val);
void iom_names_clear(struct iom_names *s);

/* Iometer's local "2006-10-02 14:03:11:250" as ISO 8601 (no zone: Iometer
 * does not say which). */
void iom_time(const char *s, char *out, size_t len);
/* What a number may be (import_iometer_values.c): min..max, min itself
 * not when above; whole: no fraction. */
struct iom_range {
	double min, max;
	bool above, whole;
};

/* A number field in r (NULL: any finite one); NAN when empty (or idx < 0)
 * and not required. Refused with FILE:LINE:COLUMN: hexadecimal, inf, nan,
 * blanks, a value out of r. */
int iom_num(struct imp *im, const char *file, const struct csvline *l, int idx,
	    const char *name, const struct iom_range *r, bool required, double *v);
/* Column c of a row, in the range Iometer writes it in. */
int iom_col(struct imp *im, const char *file, const struct csvline *l,
	    const struct iom_layout *lo, enum iom_col c, bool required, double *v);
/* A MANAGER or WORKER row's run time, Total Raw Run Time / Processor Speed,
 * in s: above 0 and at most INT_MAX; NAN when either is empty and not
 * required. */
int iom_runtime_of(struct imp *im, const char *file, const struct csvline *l,
		   const struct iom_layout *lo, bool required, double *secs);
/* A result row of a known type with every column (PROCESSOR rows may be
 * short: Iometer 1.1.0 writes them so, Manager.cpp); first: fields before
 * 'Target Type' (the inst file's TimeStamp). */
int iom_check_row(struct imp *im, const char *file, const struct csvline *l,
		  const struct iom_layout *lo, unsigned first);

/* A results header: its layout, or the first wrong column as the error. */
int iom_header(struct imp *im, const struct csvline *h, unsigned first,
	       struct iom_layout *lo, const char *file);

#endif
