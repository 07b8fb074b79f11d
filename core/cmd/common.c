/* Options and messages shared by the subcommands. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "base/log.h"
#include "measure/loader.h"
#include "base/util.h"

static const char *db_path;
static int hoisted;

void cli_set_hoisted(int n)
{
	hoisted = n;
}

bool cli_has_value(int argc, int i)
{
	return i + 1 < argc - hoisted;
}

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

int cli_common_width(const char *a)
{
	if (!strcmp(a, "-v") || !strcmp(a, "--verbose") || !strcmp(a, "-q") || !strcmp(a, "--quiet"))
		return 1;
	return !strcmp(a, "--db") || !strcmp(a, "--plugin-path") ? 2 : 0;
}

int cli_common_opt(int argc, char **argv, int i)
{
	const char *a = argv[i];
	int width = cli_common_width(a);

	if (width == 1) {
		bool verbose = !strcmp(a, "-v") || !strcmp(a, "--verbose");

		log_set_verbosity(verbose ? HB_LOG_DEBUG : HB_LOG_WARN);
		return 1;
	}
	if (!width)
		return 0;
	if (i < argc - hoisted ? !cli_has_value(argc, i) : i + 1 >= argc) {
		cli_usage_error(argv[0], "option '%s' needs a value", a);
		return -1;
	}
	if (!argv[i + 1][0]) {	/* --db "$DB" with DB unset */
		cli_usage_error(argv[0], "option '%s' is empty (an unset variable?)", a);
		return -1;
	}
	if (!strcmp(a, "--db") && !strcmp(argv[i + 1], ":memory:")) {
		/* SQLite's name for a database that is gone when the program ends */
		cli_usage_error(argv[0], "--db :memory: would keep nothing (a file named so: "
				"./:memory:)");
		return -1;
	}
	if (!strcmp(a, "--db"))
		db_path = argv[i + 1];
	else
		plugins_set_path(argv[i + 1]);
	return 2;
}

int cli_parse_common(const char *cmd, int argc, char **argv, const char **pos, int npos,
			bool *verbose, bool *check)
{
	int got = 0;

	for (int i = 1; i < argc; i++) {
		int used = cli_common_opt(argc, argv, i);

		if (used < 0)
			return -1;
		if (used) {
			if (verbose && !strcmp(argv[i], "-v"))
				*verbose = true;
			i += used - 1;
		} else if (check && !strcmp(argv[i], "--check")) {
			*check = true;
		} else if (argv[i][0] != '-' && got < npos) {
			pos[got++] = argv[i];
		} else {
			cli_usage_error(cmd, "unexpected argument '%s'", argv[i]);
			return -1;
		}
	}
	if (got < npos) {
		cli_usage_error(cmd, "missing argument");
		return -1;
	}
	return 0;
}

/* Read-only: a view never writes a schema into a file, nor anything else. */
int cli_open_ro(struct db *db, bool full_check)
{
	char err[1024];

	if (db_open_ro(db, cli_db_path(), full_check, err, sizeof(err)) < 0) {
		log_error("%s", err);
		return -1;
	}
	return 0;
}

