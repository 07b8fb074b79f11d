/* Options and messages shared by the subcommands: getopt_long over a
 * command's arguments with the options every command takes. */
#include <assert.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "base/log.h"
#include "measure/loader.h"
#include "base/util.h"

static const char *db_path;
static int hoisted;

static const struct option common_opts[] = { CLI_COMMON_OPTIONS };

void cli_set_hoisted(int n)
{
	hoisted = n;
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
	fprintf(stderr, "\n(see hbatest %s --help)\n", cmd);
}

/* --label of run and import: one of digits only ("1", "2024") would be
 * read as a run's id by show, report and sql (db_find_run), never as the
 * label: refused, with the usage error's exit. */
bool cli_label_ok(const char *cmd, const char *label)
{
	if (!label[0] || label[strspn(label, "0123456789")])
		return true;
	cli_usage_error(cmd, "--label '%s': a label of digits only is read as a run id by "
			"show, report and sql, never as the label; give it a letter too "
			"('run-%s')", label, label);
	return false;
}

/* --db FILE (db) or --plugin-path DIR given value v */
static int common_apply(const char *cmd, bool db, const char *v)
{
	if (!v[0]) {	/* --db "$DB" with DB unset */
		cli_usage_error(cmd, "option '%s' is empty (an unset variable?)",
				db ? "--db" : "--plugin-path");
		return -1;
	}
	if (db && !strcmp(v, ":memory:")) {
		/* SQLite's name for a database that is gone when the program ends */
		cli_usage_error(cmd, "--db :memory: would keep nothing (a file named so: "
				"./:memory:)");
		return -1;
	}
	if (db)
		db_path = v;
	else
		plugins_set_path(v);
	return 0;
}

/* Written out: "-v" (not a cluster such as "-vq"), "--name" or "--name=..."
 * with name in opts (getopt_long would take a prefix, "--dry" for
 * "--dry-run"). */
static bool spelled_out(const struct option *opts, const char *a)
{
	size_t n;

	if (a[1] != '-')
		return a[2] == '\0';
	n = strcspn(a + 2, "=");
	for (; opts->name; opts++)
		if (strlen(opts->name) == n && !strncmp(opts->name, a + 2, n))
			return true;
	return false;
}

int cli_leading_options(int argc, char **argv)
{
	int c, at;

	opterr = 0;
	optind = 0;	/* glibc: start afresh, reading the '+' of the option string */
	for (;;) {
		at = optind ? optind : 1;
		c = getopt_long(argc, argv, "+:vq", common_opts, NULL);
		if (c == -1)
			return optind > at ? at : optind;	/* "--" is taken for the command */
		if (c == '?' || !spelled_out(common_opts, argv[at]))
			return at;	/* the command, unknown or not */
		if (c == ':')
			return argc;	/* its value missing: no command */
	}
}

void cli_getopt_init(struct cli_getopt *g, const char *cmd, int argc, char **argv,
		     const struct option *opts)
{
	*g = (struct cli_getopt){ .cmd = cmd, .opts = opts, .argv = argv,
				  .argc = argc - hoisted, .rest = hoisted };
	opterr = 0;
	optind = 0;
}

/* The options moved from before the command, after the command's own:
 * their own pass, so that an option left last there takes none of them as
 * its value. */
static bool next_pass(struct cli_getopt *g)
{
	if (!g->rest)
		return false;
	g->argv += g->argc - 1;	/* argv[0], the last own argument, is skipped */
	g->argc = g->rest + 1;
	g->rest = 0;
	optind = 0;
	return true;
}

/* A common option: applied, and the next one parsed. */
static int common_opt(struct cli_getopt *g, int c)
{
	if (c == 'v' || c == CLI_VERBOSE) {
		g->short_v |= c == 'v';
		log_set_verbosity(HB_LOG_DEBUG);
	} else if (c == 'q' || c == CLI_QUIET) {
		log_set_verbosity(HB_LOG_WARN);
	} else {
		if (common_apply(g->cmd, c == CLI_DB, g->arg) < 0)
			return -1;
		if (c == CLI_DB && g->db_refused) {
			cli_usage_error(g->cmd, "%s", g->db_refused);
			return -1;
		}
	}
	return 0;
}

int cli_getopt_next(struct cli_getopt *g)
{
	for (;;) {
		int at = optind ? optind : 1, idx = -1;
		int c = getopt_long(g->argc, g->argv, "-:vq", g->opts, &idx);

		g->opt = at < g->argc ? g->argv[at] : NULL;
		g->arg = optarg;
		g->name = idx >= 0 ? g->opts[idx].name : NULL;
		if (c == -1 && at < g->argc)
			c = '?';	/* "--": refused as any unknown option */
		if (c == -1 && next_pass(g))
			continue;
		if (c == -1 || c == CLI_ARG)
			return c;
		if (c == '?' || !spelled_out(g->opts, g->opt)) {
			g->arg = g->opt;
			return '?';
		}
		if (c == ':') {
			cli_usage_error(g->cmd, "option '%s' needs a value", g->opt);
			return CLI_ERROR;
		}
		if (c != 'v' && c != 'q' && (c < CLI_DB || c > CLI_QUIET))
			return c;	/* the command's own */
		if (common_opt(g, c) < 0)
			return CLI_ERROR;
	}
}

const char *cli_getopt_peek(const struct cli_getopt *g)
{
	return optind < g->argc ? g->argv[optind] : NULL;
}

void cli_getopt_skip(struct cli_getopt *g)
{
	assert(optind < g->argc);
	optind++;
}

int cli_parse_common(const char *cmd, int argc, char **argv, const char **pos, int npos,
		     bool *verbose, bool *check)
{
	static const struct option opts[] = {
		{ "check", no_argument, NULL, CLI_OWN }, CLI_COMMON_OPTIONS
	};
	struct cli_getopt g;
	int got = 0, c;

	cli_getopt_init(&g, cmd, argc, argv, opts);
	while ((c = cli_getopt_next(&g)) != -1) {
		if (c == CLI_ERROR)
			return -1;
		if (c == CLI_OWN && check) {
			*check = true;
		} else if (c == CLI_ARG && g.arg[0] != '-' && got < npos) {
			pos[got++] = g.arg;
		} else {
			cli_usage_error(cmd, "unexpected argument '%s'", g.opt);
			return -1;
		}
	}
	if (verbose)
		*verbose = g.short_v;
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
