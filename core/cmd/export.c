/* `hbatest export RUN...`: runs' rows as CSV (one table or view a file, steps
 * unless --what) or JSON (one table or view, or the whole runs as one
 * document), to stdout
 * or to --out FILE, which is written whole or not at all (a regular file;
 * a pipe, a terminal or a character device such as /dev/null is written to
 * as it is, a block device is refused). */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "store/export.h"
#include "base/log.h"
#include "measure/target.h"

struct export_args {
	const char **specs, *out;
	int nspecs;
	const char *what;	/* a table or view; NULL: the whole runs (JSON) */
	enum rows_format fmt;
};

enum export_opt { OPT_OUT = CLI_OWN, OPT_WHAT, OPT_FORMAT };

static const struct option export_opts[] = {
	{ "out", required_argument, NULL, OPT_OUT },
	{ "what", required_argument, NULL, OPT_WHAT },
	{ "format", required_argument, NULL, OPT_FORMAT },
	CLI_COMMON_OPTIONS
};

static int parse_value(struct export_args *a, int opt, const char *v)
{
	if (opt == OPT_OUT && !*v) {	/* --out "$F" with F unset */
		cli_usage_error("export", "option '--out' is empty (an unset variable?)");
		return -1;
	} else if (opt == OPT_OUT) {
		a->out = strcmp(v, "-") ? v : NULL;	/* "-": stdout */
	} else if (opt == OPT_WHAT) {
		a->what = v;	/* checked against the database's schema */
	} else if (rows_format_parse(v, &a->fmt) < 0 ||
		   (a->fmt != ROWS_CSV && a->fmt != ROWS_JSON)) {
		cli_usage_error("export", "--format '%s': give csv or json", v);
		return -1;
	}
	return 0;
}

static int parse_args(struct export_args *a, int argc, char **argv)
{
	struct cli_getopt g;
	int opt;

	*a = (struct export_args){ .fmt = ROWS_CSV };
	a->specs = calloc((size_t)argc + 1, sizeof(*a->specs));
	if (!a->specs)
		return -1;
	cli_getopt_init(&g, "export", argc, argv, export_opts);
	while ((opt = cli_getopt_next(&g)) != CLI_END) {
		if (opt == CLI_ERROR)
			return -1;
		if (opt == OPT_OUT || opt == OPT_WHAT || opt == OPT_FORMAT) {
			if (parse_value(a, opt, g.arg) < 0)
				return -1;
		} else if (opt == CLI_ARG && g.arg[0] != '-') {
			a->specs[a->nspecs++] = g.arg;
		} else {
			cli_usage_error("export", "unexpected argument '%s'", g.opt);
			return -1;
		}
	}
	if (!a->nspecs) {
		cli_usage_error("export", "give a run (an id, a label or a uuid prefix)");
		return -1;
	}
	if (!a->what && a->fmt == ROWS_CSV)
		a->what = "steps";
	return 0;
}

/* A temporary file beside path, renamed onto it once complete; a symbolic
 * link's target is replaced, the link kept (path becomes the target in
 * real). What is not a regular file is written as it is (tmp ""), and a
 * path that is this process's stdout (/dev/stdout, /proc/self/fd/1, the
 * file stdout is redirected to) is stdout itself: returned as stdout, so a
 * shell's >> still appends. */
static FILE *open_out(const char *path, char *tmp, size_t len, char *real)
{
	char copy[PATH_MAX];
	const char *dir;
	struct stat sb, so, sl;
	mode_t mask;
	FILE *f;
	int fd;

	tmp[0] = '\0';
	snprintf(real, PATH_MAX, "%s", path);
	if (stat(path, &sb) != 0) {
		int e = errno;

		if (lstat(path, &sl) == 0 && S_ISLNK(sl.st_mode)) {
			log_error("cannot write '%s': a symbolic link to nothing (%s); give a "
				  "file name", path, strerror(e));
			return NULL;
		}
	} else {
		if (S_ISBLK(sb.st_mode) || S_ISDIR(sb.st_mode)) {
			log_error("cannot write '%s': it is a %s; give a file name", path,
				  S_ISDIR(sb.st_mode) ? "folder" : "block device (export never "
				  "writes to a device)");
			return NULL;
		}
		if (fstat(STDOUT_FILENO, &so) == 0 && so.st_dev == sb.st_dev && so.st_ino == sb.st_ino)
			return stdout;
		if (!S_ISREG(sb.st_mode)) {
			if (!(f = fopen(path, "w")))	/* a pipe, a terminal, /dev/null */
				log_error("cannot write '%s': %s", path, strerror(errno));
			return f;
		}
		if (!realpath(path, real)) {
			log_error("cannot write '%s': %s", path, strerror(errno));
			return NULL;
		}
	}
	snprintf(copy, sizeof(copy), "%s", real);
	dir = dirname(copy);
	if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
		log_error("cannot write '%s': no folder '%s'", path, dir);
		return NULL;
	}
	snprintf(tmp, len, "%s.tmp-XXXXXX", real);
	fd = mkstemp(tmp);
	if (fd < 0) {
		log_error("cannot write '%s': %s", path, strerror(errno));
		tmp[0] = '\0';
		return NULL;
	}
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) != 0 || !(f = fdopen(fd, "w"))) {
		log_error("cannot write '%s': %s", tmp, strerror(errno));
		close(fd);
		unlink(tmp);
		return NULL;
	}
	return f;
}

static int close_out(FILE *f, const char *tmp, const char *path, bool ok)
{
	int err = 0;

	errno = 0;
	if (fflush(f) != 0 || ferror(f) || (*tmp && fsync(fileno(f)) != 0))
		err = errno ? errno : EIO;
	if (fclose(f) != 0 && !err)
		err = errno;
	if (ok && !err && *tmp && rename(tmp, path) != 0)
		err = errno;
	if (ok && err)
		log_error("cannot write '%s': %s", path, strerror(err));
	if (!ok || err) {
		if (*tmp)
			unlink(tmp);
		return -1;
	}
	return 0;
}

/* --out naming the database read, or one of its journals: the export would
 * replace every run in it with their CSV (the file by its inode, through a
 * link too; a journal not there yet by its path). */
static bool out_is_db(const char *out, const char *db)
{
	static const char *const side[] = { "", "-wal", "-shm", "-journal" };
	char path[PATH_MAX], real[PATH_MAX];

	target_canon(db, real, sizeof(real));	/* SQLite's journals sit beside the file a link names */
	for (size_t i = 0; i < sizeof(side) / sizeof(side[0]); i++) {
		snprintf(path, sizeof(path), "%s%s", real, side[i]);
		if (target_same_path(out, path)) {
			cli_usage_error("export", "--out '%s' is '%s', %s the export reads; give "
					"another file", out, path, *side[i] ? "a journal of the database" :
					"the database");
			return true;
		}
	}
	return false;
}

/* --what: a table of the export format or a view of the database's schema. */
static bool what_known(struct db *db, const char *what)
{
	char *names;

	if (!what || db_export_has(db, what))
		return true;
	names = db_export_names(db);
	cli_usage_error("export", "--what '%s': give one of %s", what, names ? names : "");
	free(names);
	return false;
}

/* The ids of the runs named, each once (a run named twice is exported
 * once, where first named); 0, or -1 with the reason logged. */
static int find_runs(struct db *db, const struct export_args *a, int64_t *ids, size_t *n)
{
	char err[512];

	*n = 0;
	for (int i = 0; i < a->nspecs; i++) {
		int64_t id = db_find_run(db, a->specs[i], err, sizeof(err));
		bool seen = false;

		if (id < 0) {
			log_error("%s", err);
			return -1;
		}
		for (size_t k = 0; k < *n; k++)
			seen |= ids[k] == id;
		if (!seen)
			ids[(*n)++] = id;
	}
	return 0;
}

static int export_runs(struct db *db, const struct export_args *a, const int64_t *ids,
		       size_t n, FILE *out)
{
	int rc;

	if (!a->what)
		rc = db_export_runs_json(db, ids, n, out);
	else
		rc = db_export_rows(db, ids, n, a->what, a->fmt, out);
	if (rc < 0 && a->nspecs == 1)
		log_error("cannot export run '%s' from '%s': %s", a->specs[0], db->path,
			  db_errmsg(db));
	else if (rc < 0)
		log_error("cannot export %d runs from '%s': %s", a->nspecs, db->path,
			  db_errmsg(db));
	return rc;
}

/* The runs named, found and checked before --out is touched. */
static int export_open(struct db *db, const struct export_args *a, int64_t **ids, size_t *n)
{
	if (cli_open_ro(db, false) < 0)
		return EXIT_FAILED;
	if (!what_known(db, a->what)) {
		db_close(db);
		return EXIT_USAGE;
	}
	*ids = calloc((size_t)a->nspecs, sizeof(**ids));
	if (!*ids || find_runs(db, a, *ids, n) < 0) {
		free(*ids);
		db_close(db);
		return EXIT_FAILED;
	}
	return EXIT_DONE;
}

int cmd_export(int argc, char **argv)
{
	struct export_args a;
	char tmp[PATH_MAX + 16], real[PATH_MAX];
	FILE *out = stdout;
	struct db db;
	int64_t *ids = NULL;
	size_t n = 0;
	int rc;

	if (parse_args(&a, argc, argv) < 0 || (a.out && out_is_db(a.out, cli_db_path()))) {
		free(a.specs);
		return EXIT_USAGE;
	}
	if ((rc = export_open(&db, &a, &ids, &n)) != EXIT_DONE) {
		free(a.specs);
		return rc;
	}
	if (a.out && !(out = open_out(a.out, tmp, sizeof(tmp), real)))
		rc = -1;
	else
		rc = export_runs(&db, &a, ids, n, out);
	db_close(&db);
	free(ids);
	free(a.specs);
	if (!out)
		return EXIT_FAILED;
	if (out != stdout)
		return close_out(out, tmp, real, rc == 0) ? EXIT_FAILED : EXIT_DONE;
	if (!rc && (fflush(stdout) != 0 || ferror(stdout))) {
		log_error("cannot write the export: %s", strerror(errno));
		rc = -1;
	}
	return rc ? EXIT_FAILED : EXIT_DONE;
}
