/* The subcommands of the hbatest binary, one file and one function each,
 * and what they share: the options every command takes and how a command
 * reads its own (cli_getopt). */
#ifndef HB_CMD_H
#define HB_CMD_H

#include <getopt.h>
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

/* A command's options: getopt_long over its arguments in order (a
 * positional where it stands, as CLI_ARG), the options every command takes
 * (CLI_COMMON_OPTIONS: --db, --plugin-path, -v, -q) applied on the way. A
 * long option takes its value as --opt VALUE or --opt=VALUE, written out
 * (no prefix of it); -v and -q stand alone (not -vq). */
enum cli_code {
	CLI_ERROR = -2,		/* a usage error, said already */
	CLI_END = -1,
	CLI_ARG = 1,		/* a positional argument: arg */
	CLI_DB = 0x100, CLI_PLUGIN_PATH, CLI_VERBOSE, CLI_QUIET,
	CLI_OWN = 0x200,	/* a command's own options from here on */
};
/* The end of every command's table (struct option[], ended here). */
#define CLI_COMMON_OPTIONS \
	{ "db", required_argument, NULL, CLI_DB }, \
	{ "plugin-path", required_argument, NULL, CLI_PLUGIN_PATH }, \
	{ "verbose", no_argument, NULL, CLI_VERBOSE }, \
	{ "quiet", no_argument, NULL, CLI_QUIET }, \
	{ NULL, 0, NULL, 0 }

struct cli_getopt {
	const char *cmd;		/* the command, for its messages */
	const struct option *opts;
	int argc, rest;			/* the pass's arguments; the hoisted ones after */
	char **argv;
	const char *opt;		/* the argument as written ("--out=x", "-v") */
	const char *arg;		/* CLI_ARG: it; '?': the argument refused;
					 * an option: its value, NULL when none */
	const char *name;		/* a long option's name in opts */
	const char *db_refused;		/* set: --db is refused, saying this */
	bool short_v;			/* -v was given (not --verbose) */
};
void cli_getopt_init(struct cli_getopt *g, const char *cmd, int argc, char **argv,
		     const struct option *opts);
/* The next option's code (its val in opts), CLI_ARG, '?' for an unknown
 * option (or "--"; the command words the message), CLI_ERROR after a
 * message, or CLI_END. */
int cli_getopt_next(struct cli_getopt *g);
/* The argument after the option returned (NULL at the end of the command's
 * own), and taking it (run --resume [RUN]). */
const char *cli_getopt_peek(const struct cli_getopt *g);
void cli_getopt_skip(struct cli_getopt *g);

/* main: where the command is in argv after the common options written
 * before it (argc when they leave none). */
int cli_leading_options(int argc, char **argv);
/* main() moved the common options written before the command to the end of
 * its arguments: the last n of them. An option's value is never one of
 * those (`hbatest --db x run p.lua --label`: --label has no value). */
void cli_set_hoisted(int n);
const char *cli_db_path(void);
void cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* --label: false (and the usage error said) for a label of digits only */
bool cli_label_ok(const char *cmd, const char *label);
/* The common options, npos positional arguments into pos, and -v or --check
 * where verbose or check is given. */
int cli_parse_common(const char *cmd, int argc, char **argv, const char **pos, int npos,
		     bool *verbose, bool *check);

/* --probe-opt PROBE.KEY=VALUE of probe and run (checked once the plugins
 * are loaded: probe_options_check): 0, or -1 after a usage error. */
int cli_probe_opt(const char *cmd, const char *spec);

/* Open the database (--db) read-only for a view; errors are logged. */
int cli_open_ro(struct db *db, bool full_check);

#endif
