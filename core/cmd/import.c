/* `hbatest import iometer|fio|hbatest FILE...`: results of other tools (and
 * hbatest's own JSON export) into the database, one transaction per file. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "import/import.h"
#include "import/fio/fiolog.h"
#include "import/iometer/iometer.h"
#include "base/log.h"
#include "base/sha256.h"
#include "base/utf8.h"
#include "base/util.h"

static const struct import_kind {
	const char *name;
	imp_fn fn;
	const char *what;	/* for "'/tmp' is a directory, not a fio JSON file" */
	/* Why a file's start cannot begin this kind (NULL: any can): a file
	 * that cannot is refused before it is read whole, with the reason. */
	const char *(*refuse)(const char *text, size_t len, bool cut, unsigned *line);
} import_kinds[] = {
	{ "fio", db_import_fio, "a fio JSON file", NULL },
	{ "iometer", db_import_iometer, "an Iometer results file", iometer_head_refusal },
	{ "hbatest", db_import_hbatest, "an hbatest JSON export", NULL },
	{ NULL, NULL, NULL, NULL }
};

#define IMPORT_HEAD 65536	/* bytes: how much of a file tells its kind */

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

/* The first IMPORT_HEAD bytes of a regular file: false (im->err says why)
 * when they cannot begin a file of kind k. Anything else (a pipe, which
 * would lose what is read here; a directory; binary data; blanks) is left
 * to imp_read and import_one to report. */
static bool import_head_ok(const struct import_kind *k, struct imp *im)
{
	char buf[IMPORT_HEAD + 1];
	int fd = k->refuse ? open(im->path, O_RDONLY | O_CLOEXEC) : -1;
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
		    (why = k->refuse(buf, n, n == IMPORT_HEAD, &line)))
			ok = imp_error(im, line, 1, "%s", why) == 0;
	}
	if (fd >= 0)
		close(fd);
	return ok;
}

static int import_one(struct db *db, const struct import_kind *k, struct imp *im)
{
	size_t len;
	char *text;
	int rc = import_head_ok(k, im) ? imp_read(im, im->path, k->what, &text, &len) : -EINVAL;

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

/* A file's folder, resolved ("." when the name has none), to tell which
 * JSON a fio log given beside it is of. */
static void import_dir(const char *path, char *out, size_t len)
{
	const char *b = strrchr(path, '/');
	char dir[PATH_MAX];

	if (!b)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s", b == path ? 1 : (int)(b - path), path);
	if (!realpath(dir, out))
		snprintf(out, len, "%s", dir);
}

/* fio's logs of all jobs in one file (per_job_logs=0: NAME_iops.log) hold
 * no job number to tell whose each line is. */
static bool import_is_fio_shared_log(const char *kind, const char *path)
{
	const char *base = base_name(path);
	size_t len = strlen(base);

	for (int k = 0; k < FIOLOG_KINDS && !strcmp(kind, "fio"); k++) {
		const char *name = fiolog_kind_name((enum fiolog_kind)k);
		size_t kl = strlen(name);

		if (len > kl + 5 && base[len - kl - 5] == '_' &&
		    !strncmp(base + len - kl - 4, name, kl) && !strcmp(base + len - 4, ".log"))
			return true;
	}
	return false;
}

/* fio: which JSON each log is of, before anything is written. A log is a
 * JSON's when it lies in the JSON's folder and names one of its jobs; a log
 * missing, of no file, or of two, stops the whole import (owner[x]: the
 * file's index; -1 none). 0, or -1 when something was reported. */
static int import_fio_claims(struct db *db, const char **files, int nfiles,
			     const char **extra, unsigned nextra, int *owner)
{
	bool soft[256] = { false }, seen[256] = { false };
	char dir[PATH_MAX], xdir[PATH_MAX];
	int rc = 0;

	for (unsigned x = 0; x < nextra; x++) {
		struct stat st;

		owner[x] = -1;
		if (stat(extra[x], &st) < 0) {
			log_error("cannot read fio log '%s': %s", extra[x], strerror(errno));
			rc = -1;
		}
	}
	for (int i = 0; i < nfiles; i++) {
		const char *mine[256];
		unsigned idx[256], n = 0;
		bool used[256] = { false };
		struct imp im = { .path = files[i], .db = db, .extra = mine, .extra_used = used,
				  .claim_only = true };
		char *text;
		int frc;

		if (import_is_fio_shared_log("fio", files[i])) {
			log_error("'%s' is a fio log of all jobs in one file (per_job_logs=0), "
				  "which hbatest cannot split by job: rerun fio without "
				  "per_job_logs=0 and give its NAME_KIND.N.log files", files[i]);
			rc = -1;
			continue;
		}
		if (import_is_extra("fio", files[i], files, nfiles) ||
		    import_is_fio_hist_log("fio", files[i]))
			continue;
		import_dir(files[i], dir, sizeof(dir));
		for (unsigned x = 0; x < nextra; x++) {
			import_dir(extra[x], xdir, sizeof(xdir));
			if (!strcmp(dir, xdir)) {
				seen[x] = true;
				idx[n] = x, mine[n++] = extra[x];
			}
		}
		if (!n)
			continue;
		im.nextra = n;
		frc = imp_read(&im, files[i], "a fio JSON file", &text, &im.len);
		if (!frc) {
			im.text = text;
			frc = db_import_fio_claim(&im);
			free(text);
		}
		for (unsigned k = 0; k < n; k++) {
			unsigned x = idx[k];

			if (frc < 0) {		/* the import proper says what is wrong */
				soft[x] = true;
			} else if (used[k] && owner[x] >= 0) {
				log_error("'%s' is a log of a job of both '%s' and '%s' (one folder): "
					  "give each fio run its own folder", extra[x],
					  files[owner[x]], files[i]);
				rc = -1;
			} else if (used[k]) {
				owner[x] = i;
			}
		}
	}
	for (unsigned x = 0; x < nextra; x++) {
		struct fiolog_name n;

		if (owner[x] >= 0 || soft[x] || access(extra[x], F_OK))
			continue;
		if (!seen[x])
			log_error("'%s': no fio JSON file given from its folder (a log is imported "
				  "with the JSON of its run, beside it)", extra[x]);
		else if (fiolog_name_parse(extra[x], &n))
			log_error("'%s' belongs to no job of the fio files given from its folder "
				  "(fio writes NAME_%s.N.log for job N with %s=NAME)", extra[x],
				  fiolog_kind_name(n.kind), fiolog_option(n.kind));
		rc = -1;
	}
	return rc;
}

static int import_files(const struct import_kind *k, const char **files, int nfiles,
			const char *label)
{
	const char *extra[256];
	bool used[256] = { false };
	int owner[256];
	unsigned nextra = 0;
	char err[1024];
	struct db db;
	int rc = EXIT_DONE, imported = 0;
	bool fresh = access(cli_db_path(), F_OK) != 0, fio = !strcmp(k->name, "fio");

	for (int i = 0; i < nfiles; i++)
		if (import_is_extra(k->name, files[i], files, nfiles) && nextra < 256)
			extra[nextra++] = files[i];
	if (db_open(&db, cli_db_path(), true, err, sizeof(err)) < 0) {
		log_error("%s", err);
		return EXIT_FAILED;
	}
	if (fio && import_fio_claims(&db, files, nfiles, extra, nextra, owner) < 0) {
		rc = EXIT_FAILED;
		goto close;
	}
	for (int i = 0; i < nfiles; i++) {
		const char *mine[256];
		bool mine_used[256] = { false };
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
		if (fio) {	/* only its own logs, each claimed once */
			im.extra = mine, im.extra_used = mine_used, im.nextra = 0;
			for (unsigned x = 0; x < nextra; x++)
				if (owner[x] == i)
					mine[im.nextra++] = extra[x];
		}
		if (import_one(&db, k, &im) < 0)
			rc = EXIT_FAILED;
		else
			imported++;
	}
	for (unsigned x = 0; !fio && x < nextra; x++) {
		if (!used[x]) {
			log_error("'%s' is the inst file of no results file given "
				  "(Iometer names it inst + the results file's name)", extra[x]);
			rc = EXIT_FAILED;
		}
	}
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
		} else if (!strcmp(argv[i], "--label")) {
			if (!cli_has_value(argc, i)) {
				cli_usage_error("import", "option '--label' needs a value");
				return EXIT_USAGE;
			}
			label = argv[++i];
			if (!import_label_ok(label))
				return EXIT_USAGE;
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
