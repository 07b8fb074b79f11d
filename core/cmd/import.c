/* `hbatest import iometer|fio|hbatest FILE...`: results of other tools (and
 * hbatest's own JSON export) into the database, one transaction per file. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "db/import.h"
#include "fiolog.h"
#include "log.h"
#include "sha256.h"
#include "util.h"

static const struct import_kind {
	const char *name;
	imp_fn fn;
	const char *what;	/* for "'/tmp' is a directory, not a fio JSON file" */
} import_kinds[] = {
	{ "fio", db_import_fio, "a fio JSON file" },
	{ "iometer", db_import_iometer, "an Iometer results file" },
	{ "hbatest", db_import_hbatest, "an hbatest JSON export" },
	{ NULL, NULL, NULL }
};

static const char *base_name(const char *path)
{
	const char *b = strrchr(path, '/');

	return b ? b + 1 : path;
}

/* A companion file rather than a result: a fio log, or an Iometer inst
 * file ("inst" + the name of a results file also given). */
static bool import_is_extra(const char *kind, const char *path, const char **files, int n)
{
	struct fiolog_name fl;
	const char *base = base_name(path);

	if (!strcmp(kind, "fio"))
		return fiolog_name_parse(path, &fl);
	if (strcmp(kind, "iometer") || strncmp(base, "inst", 4))
		return false;
	for (int i = 0; i < n; i++)
		if (!strcmp(base_name(files[i]), base + 4))
			return true;
	return false;
}

/* fio's histogram logs (write_hist_log: NAME_clat_hist.N.log) hold a
 * histogram per interval, not the samples hbatest imports. */
static bool import_is_fio_hist_log(const char *kind, const char *path)
{
	const char *base = base_name(path), *h = strstr(base, "_hist.");
	size_t n;

	if (strcmp(kind, "fio") || !h)
		return false;
	n = strspn(h + 6, "0123456789");
	return n && !strcmp(h + 6 + n, ".log");
}

/* A database this command created and left empty: the file and its journals. */
static void remove_db_files(const char *path)
{
	char side[PATH_MAX + 8];

	unlink(path);
	snprintf(side, sizeof(side), "%s-wal", path);
	unlink(side);
	snprintf(side, sizeof(side), "%s-shm", path);
	unlink(side);
}

static int import_one(struct db *db, const struct import_kind *k, struct imp *im)
{
	size_t len;
	char *text;
	int rc = imp_read(im, im->path, k->what, &text, &len);

	if (rc < 0) {
		log_error("%s", im->err);
		return rc;
	}
	if (text[strspn(text, " \t\r\n")] == '\0') {
		log_error("'%s' %s, not %s", im->path, len ? "holds only blanks" : "is empty",
			  k->what);
		free(text);
		return -EINVAL;
	}
	im->db = db;
	im->text = text;
	im->len = len;
	sha256_hex(text, len, im->sha);
	rc = db_import_file(im, k->fn);
	free(text);
	if (rc) {
		log_error("%s", im->err[0] ? im->err : strerror(-rc));
		return rc;
	}
	if (im->nruns == 1)
		printf("imported %s as run %lld (%d step%s)\n", im->path, (long long)im->first_run,
		       im->nsteps, im->nsteps == 1 ? "" : "s");
	else
		printf("imported %s as runs %lld-%lld (%d steps)\n", im->path,
		       (long long)im->first_run, (long long)(im->first_run + im->nruns - 1),
		       im->nsteps);
	return 0;
}

static int import_files(const struct import_kind *k, const char **files, int nfiles,
			const char *label)
{
	const char *extra[256];
	bool used[256] = { false };
	unsigned nextra = 0;
	char err[1024];
	struct db db;
	int rc = EXIT_DONE, imported = 0;
	bool fresh = access(cli_db_path(), F_OK) != 0;

	for (int i = 0; i < nfiles; i++)
		if (import_is_extra(k->name, files[i], files, nfiles) && nextra < 256)
			extra[nextra++] = files[i];
	if (db_open(&db, cli_db_path(), true, err, sizeof(err)) < 0) {
		log_error("%s", err);
		return EXIT_FAILED;
	}
	for (int i = 0; i < nfiles; i++) {
		struct imp im = { .path = files[i], .label = label, .extra = extra,
				  .nextra = nextra, .extra_used = used };

		if (import_is_extra(k->name, files[i], files, nfiles))
			continue;
		if (import_is_fio_hist_log(k->name, files[i])) {
			log_error("'%s' is a fio histogram log (write_hist_log), which hbatest "
				  "does not import: give the job's _iops, _bw, _lat or _clat logs, "
				  "and json+ output for its histogram", files[i]);
			rc = EXIT_FAILED;
			continue;
		}
		if (import_one(&db, k, &im) < 0)
			rc = EXIT_FAILED;
		else
			imported++;
	}
	for (unsigned x = 0; x < nextra; x++) {
		if (!used[x]) {
			if (!strcmp(k->name, "fio"))
				log_error("'%s' belongs to no job of the files imported (fio "
					  "writes NAME_iops.N.log for job N with "
					  "write_iops_log=NAME)", extra[x]);
			else
				log_error("'%s' is the inst file of no results file given "
					  "(Iometer names it inst + the results file's name)",
					  extra[x]);
			rc = EXIT_FAILED;
		}
	}
	db_close(&db);
	if (fresh && !imported)	/* nothing came in: leave no empty database behind */
		remove_db_files(cli_db_path());
	return rc;
}

int cmd_import(int argc, char **argv)
{
	const char *files[256], *label = NULL;
	const struct import_kind *k;
	int nfiles = 0;

	if (argc < 2) {
		cli_usage_error("import", "give the kind (iometer, fio or hbatest) and FILE...");
		return EXIT_USAGE;
	}
	for (k = import_kinds; k->name && strcmp(k->name, argv[1]); k++)
		;
	if (!k->name) {
		cli_usage_error("import", "unknown kind '%s' (iometer, fio or hbatest)", argv[1]);
		return EXIT_USAGE;
	}
	for (int i = 2; i < argc; i++) {
		int used = cli_common_opt(argc, argv, i);

		if (used < 0)
			return EXIT_USAGE;
		if (used) {
			i += used - 1;
		} else if (!strcmp(argv[i], "--label") && i + 1 < argc) {
			label = argv[++i];
		} else if (argv[i][0] == '-' && argv[i][1]) {
			cli_usage_error("import", "unexpected argument '%s'", argv[i]);
			return EXIT_USAGE;
		} else if (nfiles < (int)ARRAY_SIZE(files)) {
			files[nfiles++] = argv[i];
		} else {
			cli_usage_error("import", "too many files (at most %zu)", ARRAY_SIZE(files));
			return EXIT_USAGE;
		}
	}
	if (!nfiles) {
		cli_usage_error("import", "missing FILE");
		return EXIT_USAGE;
	}
	return import_files(k, files, nfiles, label);
}
