/* The subcommands of the hbatest binary, one file and one function each,
 * and what they share: the common options, the views' queries. */
#ifndef HB_CMD_H
#define HB_CMD_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>

#include "store/db.h"
#include "run/runner.h"	/* enum exit_code */

int cmd_run(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_plugins(int argc, char **argv);
int cmd_probe(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_sql(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_merge(int argc, char **argv);

/* Options every command takes: --db, --plugin-path, -v, -q. Returns how
 * many argv entries it used (0: not a common option, -1: missing value). */
int cli_common_opt(int argc, char **argv, int i);
/* How many argv entries common option a takes with its value: 1 (-v, -q),
 * 2 (--db FILE, --plugin-path DIR), 0 when a is none of them. */
int cli_common_width(const char *a);
/* main() moved the common options written before the command to the end of
 * its arguments: the last n of them. An option's value is never one of
 * those (`hbatest --db x run p.lua --label`: --label has no value). */
void cli_set_hoisted(int n);
/* Whether option argv[i] has a value of the command's own after it. */
bool cli_has_value(int argc, int i);
const char *cli_db_path(void);
void cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The common options, npos positional arguments into pos, and -v or --check
 * where verbose or check is given. */
int cli_parse_common(const char *cmd, int argc, char **argv, const char **pos, int npos,
		     bool *verbose, bool *check);

/* Open the database (--db) read-only for a view; errors are logged. */
int cli_open_ro(struct db *db, bool full_check);

#endif
