/* Options and messages shared by the subcommands. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "db.h"
#include "log.h"
#include "plugin.h"

static const char *db_path;

const char *cli_db_path(void)
{
	return db_path ? db_path : db_default_path();
}

void cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "hbatest %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n(see hbatest help)\n");
}

int cli_common_opt(int argc, char **argv, int i)
{
	const char *a = argv[i];

	if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
		log_set_verbosity(HB_LOG_DEBUG);
		return 1;
	}
	if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
		log_set_verbosity(HB_LOG_WARN);
		return 1;
	}
	if (strcmp(a, "--db") && strcmp(a, "--plugin-path"))
		return 0;
	if (i + 1 >= argc) {
		cli_usage_error(argv[0], "option '%s' needs a value", a);
		return -1;
	}
	if (!strcmp(a, "--db"))
		db_path = argv[i + 1];
	else
		plugins_set_path(argv[i + 1]);
	return 2;
}
