/* `hbatest import KIND FILE...`: results of other tools (and hbatest's own
 * JSON export) into the database, one transaction per file. The KINDs are
 * the rows of core/import/formats.c: this file knows none by name. */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "import/format.h"
#include "base/log.h"
#include "base/sha256.h"
#include "base/utf8.h"
#include "base/util.h"

#define IMPORT_HEAD 65536	/* bytes: how much of a file tells its format */

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

/* The first IMPORT_HEAD bytes of a regular file: false (im->err says why)
 * when they cannot begin a file of format fmt. Anything else (a pipe, which
 * would lose what is read here; a directory; binary data; blanks) is left
 * to imp_read and import_one to report. */
static bool import_head_ok(const struct import_format *fmt, struct imp *im)
{
	char buf[IMPORT_HEAD + 1];
	int fd = fmt->head_refusal ? open(im->path, O_RDONLY | O_CLOEXEC) : -1;
	const char *why;
	struct stat st;
	ssize_t got = -1;
	size_t n = 0;
	unsigned line;
	bool ok = true;

	if (fd >= 0 && !fstat(fd, &st) && S_ISREG(st.st_mode)) {
		while (n < IMPORT_HEAD && ((got = pread(fd, buf + n, IMPORT_HEAD - n,
							 (off_t)n)) > 0 || (got < 0 && errno == EINTR)))
			n += got > 0 ? (size_t)got : 0;
		buf[n] = '\0';
		if (got >= 0 && buf[strspn(buf, " \t\r\n")] &&
		    (why = fmt->head_refusal(buf, n, n == IMPORT_HEAD, &line)))
			ok = imp_error(im, line, 1, "%s", why) == 0;
	}
	if (fd >= 0)
		close(fd);
	return ok;
}

static int import_one(struct db *db, const struct import_format *fmt, struct imp *im)
{
	size_t len;
	char *text;
	int rc = import_head_ok(fmt, im) ? imp_read(im, im->path, fmt->what, &text, &len) : -EINVAL;

	if (rc < 0) {
		log_error("%s", im->err);
		return rc;
	}
	if (text[strspn(text, " \t\r\n")] == '\0') {
		log_error("'%s' %s, not %s", im->path, len ? "holds only blanks" : "is empty",
			  fmt->what);
		free(text);
		return -EINVAL;
	}
	im->db = db;
	im->text = text;
	im->len = len;
	sha256_hex(text, len, im->sha);
	rc = db_import_file(im, fmt->import);
	free(text);
	if (rc) {
		log_error("%s", im->err[0] ? im->err : strerror(-rc));
		return rc;
	}
	if (im->check_only)
		return 0;
	if (im->nruns == 1)
		printf("imported %s as run %lld (%d step%s)\n", im->path, (long long)im->first_run,
		       im->nsteps, im->nsteps == 1 ? "" : "s");
	else
		printf("imported %s as runs %lld-%lld (%d steps)\n", im->path,
		       (long long)im->first_run, (long long)(im->first_run + im->nruns - 1),
		       im->nsteps);
	return 0;
}

/* Whether files[i] is a companion of another file given (a fio log, an
 * Iometer inst file) rather than a result. */
static bool import_is_companion(const struct import_format *fmt, const char *const *files,
				int nfiles, int i)
{
	return fmt->companion && fmt->companion(files[i], files, nfiles);
}

/* The files of one import and what pairs them with their companions. */
struct import_set {
	const struct import_format *fmt;
	const char **files;
	int nfiles;
	const char *label;
	const char *extra[256];
	bool used[256];
	int owner[256];
	unsigned nextra;
};

/* Each result file of s into db (check: each in a transaction rolled back,
 * and no file twice): how many failed, each said. */
static int import_pass(struct db *db, struct import_set *s, bool check, int *imported)
{
	char (*sha)[65] = check ? calloc((size_t)s->nfiles, sizeof(*sha)) : NULL;
	int failed = 0;

	memset(s->used, 0, sizeof(s->used));
	for (int i = 0; i < s->nfiles; i++) {
		const char *mine[256];
		bool mine_used[256] = { false };
		struct imp im = { .path = s->files[i], .label = s->label, .extra = s->extra,
				  .nextra = s->nextra, .extra_used = s->used, .check_only = check };

		if (import_is_companion(s->fmt, s->files, s->nfiles, i))
			continue;
		if (s->fmt->refused && s->fmt->refused(s->files[i])) {
			failed++;
			continue;
		}
		if (s->fmt->pair) {	/* only its own companions, each paired once */
			im.extra = mine, im.extra_used = mine_used, im.nextra = 0;
			for (unsigned x = 0; x < s->nextra; x++)
				if (s->owner[x] == i)
					mine[im.nextra++] = s->extra[x];
		}
		if (import_one(db, s->fmt, &im) < 0) {
			failed++;
			continue;
		}
		for (int j = 0; sha && j < i; j++)
			if (!strcmp(sha[j], im.sha)) {
				log_error("'%s' holds what '%s' does: give it once", s->files[i],
					  s->files[j]);
				failed++;
				break;
			}
		if (sha)
			memcpy(sha[i], im.sha, sizeof(sha[i]));
		*imported += !check;
	}
	free(sha);
	return failed;
}

/* The companions no file used: each said; how many. */
static int import_unused(const struct import_set *s)
{
	int n = 0;

	for (unsigned x = 0; !s->fmt->pair && x < s->nextra; x++) {
		if (!s->used[x]) {
			assert(s->fmt->unused);	/* companions without pair need it */
			s->fmt->unused(s->extra[x]);
			n++;
		}
	}
	return n;
}

/* Several files: every one is checked (imported and rolled back) before
 * any is kept, so that one bad file leaves the database as it was. */
static int import_files(const struct import_format *fmt, const char **files, int nfiles,
			const char *label)
{
	struct import_set s = { .fmt = fmt, .files = files, .nfiles = nfiles, .label = label };
	char err[1024];
	struct db db;
	int rc = EXIT_DONE, imported = 0, results = 0, bad;
	bool fresh = access(cli_db_path(), F_OK) != 0;

	for (int i = 0; i < nfiles; i++) {
		if (!import_is_companion(fmt, files, nfiles, i))
			results++;
		else if (s.nextra < 256)
			s.extra[s.nextra++] = files[i];
	}
	if (label && results > 1) {	/* before the database is made or opened */
		cli_usage_error("import", "--label '%s' names one run, and the %d result files "
				"given make %d: import each with a --label of its own, or leave "
				"--label out (each run is then named by its file)", label, results,
				results);
		return EXIT_USAGE;
	}
	if (db_open(&db, cli_db_path(), true, err, sizeof(err)) < 0) {
		log_error("%s", err);
		return EXIT_FAILED;
	}
	if (fmt->pair && fmt->pair(&db, files, nfiles, s.extra, s.nextra, s.owner) < 0) {
		rc = EXIT_FAILED;
		goto close;
	}
	if (results > 1 && (bad = import_pass(&db, &s, true, &imported) + import_unused(&s))) {
		log_error("nothing imported: %d of the %d files given %s refused (fix %s or "
			  "leave %s out)", bad, nfiles, bad == 1 ? "is" : "are",
			  bad == 1 ? "it" : "them", bad == 1 ? "it" : "them");
		rc = EXIT_FAILED;
		goto close;
	}
	if (import_pass(&db, &s, false, &imported) + import_unused(&s))
		rc = EXIT_FAILED;
close:
	db_close(&db);
	if (fresh && !imported)	/* nothing came in: leave no empty database behind */
		remove_db_files(cli_db_path());
	return rc;
}

/* --label names the runs on every page: text that is not UTF-8 would break
 * them (an SVG with it is not XML). A NUL cannot reach argv. Refused with
 * the bad bytes shown as \xNN; true when it is UTF-8. */
static bool import_label_ok(const char *label)
{
	size_t n = strlen(label), at = utf8_invalid_at(label, n);
	char shown[256];
	size_t k = 0;

	if (at == n)
		return true;
	for (size_t i = 0; i < n && k + 5 < sizeof(shown);) {
		size_t len = utf8_len((const unsigned char *)label + i, n - i);

		if (!len)
			k += (size_t)snprintf(shown + k, sizeof(shown) - k, "\\x%02x",
					      (unsigned char)label[i++]);
		else if (k + len < sizeof(shown))
			for (size_t e = i + len; i < e;)
				shown[k++] = label[i++];
		else
			break;
	}
	shown[k] = '\0';
	cli_usage_error("import", "option '--label' is not UTF-8 (byte %zu is 0x%02x): '%s': "
			"give the label in UTF-8", at + 1, (unsigned char)label[at], shown);
	return false;
}

/* What the command line gives after the kind. */
struct import_args {
	const char *files[256], *label;
	int nfiles;
};

enum { OPT_LABEL = CLI_OWN };

static const struct option import_opts[] = {
	{ "label", required_argument, NULL, OPT_LABEL },
	CLI_COMMON_OPTIONS
};

/* argv after the kind, in order: --label, the common options, and files. */
static int import_args(int argc, char **argv, struct import_args *a)
{
	struct cli_getopt g;
	int opt;

	cli_getopt_init(&g, "import", argc - 1, argv + 1, import_opts);
	while ((opt = cli_getopt_next(&g)) != CLI_END) {
		if (opt == CLI_ERROR)
			return -1;
		if (opt == OPT_LABEL) {
			a->label = g.arg;
			if (!import_label_ok(a->label) || !cli_label_ok("import", a->label))
				return -1;
		} else if (opt == CLI_ARG) {
			if (a->nfiles >= (int)ARRAY_SIZE(a->files)) {
				cli_usage_error("import", "too many files (at most %zu)",
						ARRAY_SIZE(a->files));
				return -1;
			}
			a->files[a->nfiles++] = g.arg;
		} else {
			cli_usage_error("import", "unexpected argument '%s'", g.opt);
			return -1;
		}
	}
	if (!a->nfiles) {
		cli_usage_error("import", "missing FILE");
		return -1;
	}
	return 0;
}

int cmd_import(int argc, char **argv)
{
	const struct import_format *fmt;
	struct import_args a = { .nfiles = 0 };
	char kinds[128];

	import_format_names(kinds, sizeof(kinds));
	if (argc < 2) {
		cli_usage_error("import", "give the kind (%s) and FILE...", kinds);
		return EXIT_USAGE;
	}
	fmt = import_format_find(argv[1]);
	if (!fmt) {
		cli_usage_error("import", "unknown kind '%s' (%s)", argv[1], kinds);
		return EXIT_USAGE;
	}
	if (import_args(argc, argv, &a) < 0)
		return EXIT_USAGE;
	return import_files(fmt, a.files, a.nfiles, a.label);
}
