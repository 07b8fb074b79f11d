/* The subcommands of the hbatest binary, one function each. */
#ifndef HB_CLI_H
#define HB_CLI_H

enum exit_code { EXIT_DONE = 0, EXIT_FAILED = 1, EXIT_USAGE = 2, EXIT_INTERRUPTED = 130 };

int cmd_run(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_plugins(int argc, char **argv);
int cmd_probe(int argc, char **argv);
int cmd_report(int argc, char **argv);
/* Options every command takes: --db, --plugin-path, -v, -q. Returns how
 * many argv entries it used (0: not a common option, -1: missing value). */
int cli_common_opt(int argc, char **argv, int i);
const char *cli_db_path(void);
void cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
