/* Iometer's results.csv and its inst file: what the two importer files share. */
#ifndef HB_DB_IMPORT_IOMETER_H
#define HB_DB_IMPORT_IOMETER_H

#include "csvlines.h"
#include "db/import.h"
#include "iometer.h"

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
	unsigned nb;
};

/* Find (among the files given, or beside im->path) and read the inst file. */
int iom_inst_load(struct imp *im, struct iom_inst *in);
/* The interval rows of result block of test as samples of step_id. */
int iom_inst_samples(struct imp *im, struct iom_inst *in, int test, int block,
		     const char *spec, int64_t step_id);
void iom_inst_free(struct iom_inst *in);

/* Iometer's local "2006-10-02 14:03:11:250" as ISO 8601 (no zone: Iometer
 * does not say which). */
void iom_time(const char *s, char *out, size_t len);
/* A number field; NAN when empty (or idx < 0) and not required. */
int iom_num(struct imp *im, const char *file, const struct csvline *l, int idx,
	    const char *name, bool required, double *v);
/* A result row of a known type with every column (PROCESSOR rows may be
 * short: Iometer 1.1.0 writes them so, Manager.cpp); first: fields before
 * 'Target Type' (the inst file's TimeStamp). */
int iom_check_row(struct imp *im, const char *file, const struct csvline *l,
		  const struct iom_layout *lo, unsigned first);

/* A results header: its layout, or the first wrong column as the error. */
int iom_header(struct imp *im, const struct csvline *h, unsigned first,
	       struct iom_layout *lo, const char *file);

#endif
