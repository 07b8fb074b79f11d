/* `hbatest sql`: one read-only statement, given on the command line or saved
 * in db/queries/NAME.sql, with --param values; its rows as an aligned table
 * (a terminal), TSV (a pipe or file), CSV or JSON. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "store/query.h"
#include "store/rows.h"
#include "base/log.h"
#include "base/paths.h"
#include "base/stop.h"
#include "base/util.h"

#define SQL_MAX_PARAMS 64

struct sql_args {
	const char *query;		/* SQL, or the name of a saved query */
	const char *file;		/* -f FILE: the statement is this file's */
	enum rows_format fmt;
	bool fmt_given, list;
	struct db_param params[SQL_MAX_PARAMS];
	int nparams;
};

static int add_param(struct sql_args *a, char *spec)
{
	char *eq = strchr(spec, '=');

	if (*spec == ':' || *spec == '$' || *spec == '@')
		spec++;
	if (!eq || eq == spec) {
		cli_usage_error("sql", "--param '%s': give NAME=VALUE", spec);
		return -1;
	}
	*eq = '\0';
	for (int i = 0; i < a->nparams; i++) {
		if (!strcmp(a->params[i].name, spec)) {
			cli_usage_error("sql", "--param %s given twice", spec);
			return -1;
		}
	}
	if (a->nparams == SQL_MAX_PARAMS) {
		cli_usage_error("sql", "more than %d --param values", SQL_MAX_PARAMS);
		return -1;
	}
	a->params[a->nparams++] = (struct db_param){ .name = spec, .value = eq + 1 };
	return 0;
}

/* "-- note\nSELECT ..." is a statement that starts with a comment, not an
 * option (no option has a blank after its dashes) */
static bool is_comment_arg(const char *s)
{
	return s[0] == '-' && s[1] == '-' && (s[2] == ' ' || s[2] == '\t' || s[2] == '\n');
}

/* Nothing but blanks, ';' and comments (-- to the line's end, slash-star to
 * star-slash or the end): SQLite would prepare no statement from it. */
static bool sql_is_empty(const char *s)
{
	while (*s) {
		if (strchr(" \t\r\n\f\v;", *s)) {
			s++;
		} else if (s[0] == '-' && s[1] == '-') {
			s += strcspn(s, "\n");
		} else if (s[0] == '/' && s[1] == '*') {
			const char *end = strstr(s + 2, "*/");

			s = end ? end + 2 : s + strlen(s);
		} else {
			return false;
		}
	}
	return true;
}

enum sql_opt { OPT_LIST = CLI_OWN, OPT_FORMAT, OPT_PARAM, OPT_FILE };

static const struct option sql_opts[] = {
	{ "list", no_argument, NULL, OPT_LIST },
	{ "file", required_argument, NULL, OPT_FILE },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "param", required_argument, NULL, OPT_PARAM },
	CLI_COMMON_OPTIONS
};

/* -f FILE (getopt saw an unknown short option) or --file FILE: once */
static int take_file(struct sql_args *a, struct cli_getopt *g, int opt)
{
	const char *f = opt == OPT_FILE ? g->arg : cli_getopt_peek(g);

	if (!f || (opt != OPT_FILE && f[0] == '-')) {	/* "-f --db x": no FILE */
		cli_usage_error("sql", "option '-f' needs a FILE (of SQL)");
		return -1;
	}
	if (opt != OPT_FILE)
		cli_getopt_skip(g);
	if (a->file) {
		cli_usage_error("sql", "-f/--file given twice ('%s', '%s')", a->file, f);
		return -1;
	}
	a->file = f;
	return 0;
}

static int parse_one(struct sql_args *a, struct cli_getopt *g, int opt)
{
	if (opt == OPT_FILE || (opt == '?' && !strcmp(g->opt, "-f")))
		return take_file(a, g, opt);
	if (opt == OPT_LIST) {
		a->list = true;
		return 0;
	}
	if (opt == OPT_PARAM)
		return add_param(a, (char *)g->arg);	/* argv's own, writable */
	if (opt == OPT_FORMAT) {
		if (rows_format_parse(g->arg, &a->fmt) < 0) {
			cli_usage_error("sql", "--format '%s': give table, csv, tsv or json",
					g->arg);
			return -1;
		}
		a->fmt_given = true;
		return 0;
	}
	/* the query, "-- a comment" first too (getopt_long saw an option) */
	if (((opt == CLI_ARG && g->opt[0] != '-') || is_comment_arg(g->opt)) && !a->query) {
		a->query = g->opt;
		return 0;
	}
	cli_usage_error("sql", "unexpected argument '%s'", g->opt);
	return -1;
}

static int parse_args(struct sql_args *a, int argc, char **argv)
{
	struct cli_getopt g;
	int opt;

	memset(a, 0, sizeof(*a));
	cli_getopt_init(&g, "sql", argc, argv, sql_opts);
	while ((opt = cli_getopt_next(&g)) != CLI_END)
		if (opt == CLI_ERROR || parse_one(a, &g, opt) < 0)
			return -1;
	return 0;
}

/* A saved query's name: letters, digits, '-', '_' (SQL has a space or more). */
static bool is_query_name(const char *s)
{
	return *s && !s[strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			       "0123456789-_")];
}

/* "run" takes RUN as every command does (an id, a label, a uuid prefix) and
 * is bound as the run's id; "runs" a comma-separated list of them, bound as
 * the ids, comma-separated. */
static int resolve_runs(struct db *db, struct sql_args *a, char **owned)
{
	char err[512];

	for (int i = 0; i < a->nparams; i++) {
		struct db_param *p = &a->params[i];
		char *list, *save = NULL, *spec;
		size_t len = 0;

		if (strcmp(p->name, "run") && strcmp(p->name, "runs"))
			continue;
		if (!p->value[strspn(p->value, ",")]) {
			log_error("--param %s: give a run (an id, a label or a uuid prefix)",
				  p->name);
			return -EINVAL;
		}
		if (!strcmp(p->name, "runs") && (p->value[0] == ',' || strstr(p->value, ",,") ||
						 p->value[strlen(p->value) - 1] == ',')) {
			/* runs="$A,$B" with $B empty compares A alone: say so */
			log_error("--param runs: '%s' has an empty run (a comma at an end, or two "
				  "in a row)", p->value);
			return -EINVAL;
		}
		list = strdup(p->value);
		owned[i] = calloc(1, strlen(p->value) * 21 + 2);
		if (!list || !owned[i]) {
			free(list);
			return -ENOMEM;
		}
		spec = strcmp(p->name, "run") ? strtok_r(list, ",", &save) : list;
		for (; spec; spec = strtok_r(NULL, ",", &save)) {
			int64_t id = db_find_run(db, spec, err, sizeof(err));

			if (id < 0) {
				log_error("--param %s: %s", p->name, err);
				free(list);
				return (int)id;
			}
			len += (size_t)sprintf(owned[i] + len, "%s%lld", len ? "," : "",
					       (long long)id);
			if (!strcmp(p->name, "run"))
				break;
		}
		free(list);
		p->value = owned[i];
	}
	return 0;
}

static const char *param_value(const struct sql_args *a, const char *name)
{
	for (int i = 0; i < a->nparams; i++)
		if (!strcmp(a->params[i].name, name))
			return a->params[i].value;
	return NULL;
}

/* "group" names a step group of the runs given (run or runs, as ids by now,
 * spec as the user gave them; neither: any run): a name none has is refused
 * with theirs, not answered with no rows. 0, -EINVAL (usage) or -EIO. */
static int check_group(struct db_query *q, const struct sql_args *a, const char *spec)
{
	const char *group = param_value(a, "group");
	const char *ids = param_value(a, "runs");
	char groups[512];
	int rc;

	if (!group)
		return 0;
	if (!ids)
		ids = param_value(a, "run");
	rc = db_query_group_known(q, group, ids, groups, sizeof(groups));
	if (rc < 0)
		log_error("cannot read the step groups of '%s': %s", q->db.path,
			  db_errmsg(&q->db));
	else if (!rc)
		log_error("--param group=%s: no step group '%s' in %s%s (%s%s)", group, group,
			  ids ? (strchr(ids, ',') ? "runs " : "run ") : "any run",
			  ids ? spec : "", *groups ? "groups: " : "no step groups there",
			  groups);
	return rc < 0 ? rc : rc ? 0 : -EINVAL;
}

/* Ctrl-C, SIGTERM or a closed pipe (| head) end the query, not the
 * process: the database is closed and the -wal and -shm files the query
 * made are removed (db_query_close), as when it ends. */
static volatile sig_atomic_t pipe_closed;

static void on_sigpipe(int sig)
{
	(void)sig;
	pipe_closed = 1;
}

static int query_stopped(void *arg)
{
	(void)arg;
	return hb_stop_requested || pipe_closed;
}

static void catch_signals(void)
{
	struct sigaction sa = { .sa_handler = on_sigpipe, .sa_flags = SA_RESTART };

	stop_catch_signals();	/* SIGINT, SIGTERM, SIGHUP: hb_stop_requested */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGPIPE, &sa, NULL);
}

/* The rows to stdout: 0, or an exit code; a closed pipe is said by the
 * status a shell gives a process SIGPIPE ended (141), as before, and by
 * nothing on stderr. */
static int write_rows(struct db_query *q, sqlite3_stmt *st, enum rows_format fmt)
{
	int64_t n;

	if (hb_stop_requested)
		n = -1;
	else
		n = db_rows_write(&q->db, st, fmt, stdout);
	if (fflush(stdout) != 0 || ferror(stdout) || pipe_closed) {
		if (pipe_closed || errno == EPIPE)
			return 128 + SIGPIPE;
		log_error("cannot write the rows: %s", strerror(errno));
		return EXIT_FAILED;
	}
	if (hb_stop_requested) {
		log_error("interrupted (signal): the query on '%s' stopped", q->db.path);
		return EXIT_INTERRUPTED;
	}
	if (n < 0) {
		log_error("query on '%s' failed: %s", q->db.path, db_errmsg(&q->db));
		return EXIT_FAILED;
	}
	return EXIT_DONE;
}

static int run_query(struct sql_args *a, const char *sql)
{
	struct db_query q;
	sqlite3_stmt *st = NULL;
	char *owned[SQL_MAX_PARAMS] = { 0 };
	const char *runs = param_value(a, "runs") ? param_value(a, "runs") : param_value(a, "run");
	char err[1024];
	int rc;

	catch_signals();
	if (db_query_open(&q, cli_db_path(), err, sizeof(err)) < 0) {
		log_error("%s", err);
		return EXIT_FAILED;
	}
	if (q.version > DB_SCHEMA_VERSION) {	/* as every other command refuses it */
		log_error("database '%s' has schema version %d; this hbatest knows up to %d: "
			  "upgrade hbatest", q.db.path, q.version, DB_SCHEMA_VERSION);
		db_query_close(&q);
		return EXIT_FAILED;
	}
	rc = db_query_prepare(&q, sql, &st, err, sizeof(err));
	if (rc < 0) {
		log_error("%s", err);
		rc = rc == -EINVAL ? EXIT_FAILED : EXIT_USAGE;
		goto out;
	}
	if (resolve_runs(&q.db, a, owned) < 0) {
		rc = EXIT_FAILED;
		goto out;
	}
	rc = check_group(&q, a, runs);
	if (rc < 0) {
		rc = rc == -EINVAL ? EXIT_USAGE : EXIT_FAILED;
		goto out;
	}
	if (db_query_bind(st, a->params, a->nparams, err, sizeof(err)) < 0) {
		log_error("%s", err);
		rc = EXIT_USAGE;
		goto out;
	}
	if (!a->fmt_given)
		a->fmt = isatty(STDOUT_FILENO) ? ROWS_TABLE : ROWS_TSV;
	db_query_stop_when(&q, query_stopped, NULL);
	rc = write_rows(&q, st, a->fmt);
out:
	sqlite3_finalize(st);
	db_query_close(&q);
	for (int i = 0; i < SQL_MAX_PARAMS; i++)
		free(owned[i]);
	return rc;
}

/* The saved queries: NAME.sql in each folder of the search, the first of a
 * name winning, listed with their header's first line and params line. */
struct saved {
	char name[NAME_MAX + 1];
	char path[PATH_MAX];
};

struct saved_list {
	struct saved *v;
	size_t n, cap;
};

static bool saved_add(struct saved_list *l, const char *dir, const char *file)
{
	size_t stem = strlen(file) - 4;
	struct saved *s;

	for (size_t i = 0; i < l->n; i++)
		if (strlen(l->v[i].name) == stem && !strncmp(l->v[i].name, file, stem))
			return true;
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 16;
		struct saved *v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			return false;
		l->v = v;
		l->cap = cap;
	}
	s = &l->v[l->n++];
	snprintf(s->name, sizeof(s->name), "%.*s", (int)stem, file);
	snprintf(s->path, sizeof(s->path), "%s/%s", dir, file);
	return true;
}

static bool saved_collect(const char *dir, void *ctx)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return false;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		char stem[NAME_MAX + 1];

		if (len <= 4 || strcmp(e->d_name + len - 4, ".sql"))
			continue;
		snprintf(stem, sizeof(stem), "%.*s", (int)len - 4, e->d_name);
		if (is_query_name(stem) && !saved_add(ctx, dir, e->d_name))
			break;
	}
	closedir(d);
	return false;	/* every folder: a name found first wins */
}

static int saved_cmp(const void *a, const void *b)
{
	return strcmp(((const struct saved *)a)->name, ((const struct saved *)b)->name);
}

/* The leading comment: its first line, and the line that starts "params:". */
static void saved_header(const char *text, char *desc, size_t dlen, char *params, size_t plen)
{
	*desc = *params = '\0';
	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		size_t n = strcspn(l, "\n");
		const char *c = l + 2;

		if (strncmp(l, "--", 2))
			break;
		c += strspn(c, " ");
		n -= (size_t)(c - l);
		if (!strncmp(c, "params:", 7))
			snprintf(params, plen, "%.*s", (int)n, c);
		else if (!*desc)
			snprintf(desc, dlen, "%.*s", (int)n, c);
	}
}

static int sql_list_saved(void)
{
	struct saved_list l = { 0 };

	paths_each(PATHS_QUERIES, NULL, saved_collect, &l);
	if (!l.n) {
		printf("(no saved queries found: they are db/queries/NAME.sql beside hbatest, "
		       "or in $HBATEST_QUERIES)\n");
		return EXIT_DONE;
	}
	qsort(l.v, l.n, sizeof(*l.v), saved_cmp);
	printf("saved queries (hbatest sql NAME [--param NAME=VALUE]...):\n");
	for (size_t i = 0; i < l.n; i++) {
		char desc[256], params[256], err[PATH_MAX + 64];
		char *text = db_query_read_file(l.v[i].path, err, sizeof(err));

		saved_header(text ? text : "", desc, sizeof(desc), params, sizeof(params));
		if (!text)
			snprintf(desc, sizeof(desc), "(not read: %.200s)", err);
		printf("  %-14s %s\n", l.v[i].name, desc);
		if (*params)
			printf("  %-14s %s\n", "", params);
		free(text);
	}
	free(l.v);
	return EXIT_DONE;
}

/* sql -f FILE: the file's statement (a regular file), with --param values
 * as any; a statement on the command line as well is refused. */
static int sql_from_file(struct sql_args *a)
{
	char err[PATH_MAX + 64];
	char *text;
	int rc;

	if (a->query || a->list) {
		cli_usage_error("sql", "-f %s and %s: give the statement one way", a->file,
				a->list ? "--list" : "a statement");
		return EXIT_USAGE;
	}
	text = db_query_read_file(a->file, err, sizeof(err));
	if (!text) {
		log_error("sql -f '%s': %s", a->file, err);
		return EXIT_FAILED;
	}
	if (sql_is_empty(text)) {
		log_error("sql -f '%s': empty SQL statement (only blanks, ';' or comments)",
			  a->file);
		free(text);
		return EXIT_USAGE;
	}
	rc = run_query(a, text);
	free(text);
	return rc;
}

int cmd_sql(int argc, char **argv)
{
	struct sql_args a;
	char path[PATH_MAX], rel[NAME_MAX + 1], err[PATH_MAX + 64];
	bool found;
	char *text;
	int rc;

	if (parse_args(&a, argc, argv) < 0)
		return EXIT_USAGE;
	if (a.file)
		return sql_from_file(&a);
	if (a.list || !a.query)
		return sql_list_saved();
	if (sql_is_empty(a.query)) {
		cli_usage_error("sql", "empty SQL statement (only blanks, ';' or comments): "
				"give one such as \"SELECT * FROM runs\", or a saved query's name");
		return EXIT_USAGE;
	}
	if (!is_query_name(a.query))
		return run_query(&a, a.query);
	snprintf(rel, sizeof(rel), "%.250s.sql", a.query);
	found = paths_find(PATHS_QUERIES, NULL, rel, path, sizeof(path));
	if (!found && db_is_sql_keyword(a.query))	/* "VACUUM", "BEGIN": a statement */
		return run_query(&a, a.query);
	if (!found) {
		log_error("no saved query '%s' (hbatest sql --list lists them; a statement "
			  "is one argument: hbatest sql \"SELECT ...\")", a.query);
		return EXIT_USAGE;
	}
	text = db_query_read_file(path, err, sizeof(err));
	if (!text) {
		log_error("saved query '%s': %s", a.query, err);
		return EXIT_FAILED;
	}
	if (sql_is_empty(text)) {
		log_error("saved query '%s' ('%s'): empty SQL statement (only blanks, ';' "
			  "or comments)", a.query, path);
		free(text);
		return EXIT_FAILED;
	}
	log_debug("saved query '%s': %s", a.query, path);
	rc = run_query(&a, text);
	free(text);
	return rc;
}
