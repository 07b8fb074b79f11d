/* merge.c's own: its tables, its state and the helpers merge_later.c
 * shares (the statements that tell a resumed run's later copy). */
#ifndef HB_DB_MERGE_INT_H
#define HB_DB_MERGE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <sqlite3.h>

#include "store/db.h"
#include "base/util.h"

enum link { BY_RUN, BY_STEP };

struct merge_table {
	const char *name;
	enum link link;
	const char *order;	/* of the copy, so ids and rowids keep their order */
	const char *cols;	/* remapped columns, and their values */
	const char *vals;
};

#define NTABLES 8	/* merge.c's tables[] */
extern const struct merge_table merge_tables[NTABLES];

/* The runs columns a resume moves on (take_run, resume_adopt_plan, its end). */
#define MERGE_MOVING "[\"status\", \"finished_at\", \"pid\", \"host\", \"heartbeat_at\", " \
	"\"plan_text\", \"plan_sha256\", \"steps_planned\"]"

struct merge {
	struct db *out;
	const char *in;
	char *err;
	size_t len;
	char *run_cols, *step_cols;	/* "a", "b", ... (both databases have them) */
	sqlite3_stmt *copy_run, *same_run, *same_steps, *renew_run;
	sqlite3_stmt *later[2];		/* src run ?1 later than main's ?2; main's later */
	sqlite3_stmt *copy[NTABLES], *count_src[NTABLES], *count_out[NTABLES];
	sqlite3_stmt *drop[NTABLES];	/* main run ?1's rows */
};

int merge_fail(struct merge *m, const char *what);
/* Quoted column names of main.table that src.table has too, but id, the
 * remapped keys and those of the JSON list skip (NULL: none); prefix each
 * with pre ("x."). NULL: no such table. */
char *merge_common_cols(struct merge *m, const char *table, const char *pre, const char *skip);
/* Prepare sql (malloc'd) and free it; prepf(m, fmt, ...) formats it. */
sqlite3_stmt *merge_prep_owned(struct merge *m, char *sql);
#define prepf(m, ...) merge_prep_owned((m), util_strdup_printf(__VA_ARGS__))
/* Is src run ?1 (fwd; else main run ?2) the later copy of the other? */
sqlite3_stmt *merge_later_stmt(struct merge *m, bool fwd);

#endif
