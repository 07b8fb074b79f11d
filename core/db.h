/* The results database: schema, runs, steps, samples, histograms, events. */
#ifndef HB_DB_H
#define HB_DB_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>

#include "step.h"

#define DB_SCHEMA_VERSION 1

struct db {
	sqlite3 *h;
	char *path;
	sqlite3_stmt *ins_sample;
	sqlite3_stmt *ins_event;
};

struct db_run {
	char uuid[37];
	const char *label, *plan_path, *plan_sha256, *plan_text;
	const char *host, *version, *cmdline, *sets_json, *targets_json;
	bool simulated;
};

/* Open (creating the file and schema when missing); err names the file. */
int db_open(struct db *db, const char *path, bool create, char *err, size_t errlen);
void db_close(struct db *db);
int db_exec(struct db *db, const char *sql);

int64_t db_run_insert(struct db *db, const struct db_run *run);
int db_run_finish(struct db *db, int64_t run_id, const char *status);
int db_run_heartbeat(struct db *db, int64_t run_id);
int db_target_insert(struct db *db, int64_t run_id, const char *path, const char *kind,
		     uint64_t size);
int64_t db_step_insert(struct db *db, int64_t run_id, int seq, const struct step_spec *s);
int db_sample_insert(struct db *db, int64_t step_id, const struct step_sample *smp);
int db_step_finish(struct db *db, int64_t step_id, const char *status,
		   const struct step_spec *s, const struct step_totals *t,
		   const char *error_text);
int db_event(struct db *db, int64_t run_id, const char *level, const char *msg);
struct steady_result;
int db_steady_insert(struct db *db, int64_t run_id, const struct steady_result *r);
/* RUN as the user wrote it: an id, a uuid prefix or a label (the newest). */
int64_t db_find_run(struct db *db, const char *spec, char *err, size_t errlen);
/* Default database path: $HBATEST_DB or ./hbatest.db */
const char *db_default_path(void);

#endif
