/* Which fio JSON each log given beside it is of, settled before anything is
 * written (a log of no file, or of two, stops the whole import); and the
 * files given to `hbatest import fio` that are refused by name alone. */
#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "import/fio/fio.h"
#include "import/fio/fiolog.h"
#include "base/log.h"

#define FIO_PAIR_MAX 256	/* logs: as many as the command takes files */

/* The pairing of one command's files: what each log is known to be. */
struct fio_pair {
	struct db *db;
	const char *const *files, *const *extra;
	int nfiles;
	unsigned nextra;
	int *owner;			/* extra[x]'s JSON, an index in files; -1: none */
	bool seen[FIO_PAIR_MAX];	/* a JSON from its folder was given */
	bool soft[FIO_PAIR_MAX];	/* that JSON was refused: its import says why */
};

bool fio_is_log(const char *path, const char *const *files, int nfiles)
{
	struct fiolog_name n;

	(void)files, (void)nfiles;
	return fiolog_name_parse(path, &n);
}

/* fio's histogram logs (write_hist_log: NAME_clat_hist.N.log) hold a
 * histogram per interval, not the samples hbatest imports. */
static bool fio_is_hist_log(const char *path)
{
	const char *h = strstr(basename(path), "_hist.");
	size_t n;

	if (!h)
		return false;
	n = strspn(h + 6, "0123456789");
	return n && !strcmp(h + 6 + n, ".log");
}

bool fio_hist_refused(const char *path)
{
	if (!fio_is_hist_log(path))
		return false;
	log_error("'%s' is a fio histogram log (write_hist_log), which hbatest "
		  "does not import: give the job's _iops, _bw, _lat or _clat logs, "
		  "and json+ output for its histogram", path);
	return true;
}

/* fio's logs of all jobs in one file (per_job_logs=0: NAME_iops.log) hold
 * no job number to tell whose each line is. */
static bool fio_is_shared_log(const char *path)
{
	const char *base = basename(path);
	size_t len = strlen(base);

	for (int k = 0; k < FIOLOG_KINDS; k++) {
		const char *name = fiolog_kind_name((enum fiolog_kind)k);
		size_t kl = strlen(name);

		if (len > kl + 5 && base[len - kl - 5] == '_' &&
		    !strncmp(base + len - kl - 4, name, kl) && !strcmp(base + len - 4, ".log"))
			return true;
	}
	return false;
}

/* A file's folder, resolved ("." when the name has none), to tell which
 * JSON a log given beside it is of. */
static void fio_dir_of(const char *path, char *out, size_t len)
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

/* Every log owned by none yet, and readable: 0, or -1 when one is not. */
static int fio_pair_stat(struct fio_pair *p)
{
	int rc = 0;

	for (unsigned x = 0; x < p->nextra; x++) {
		struct stat st;

		p->owner[x] = -1;
		if (stat(p->extra[x], &st) < 0) {
			log_error("cannot read fio log '%s': %s", p->extra[x], strerror(errno));
			rc = -1;
		}
	}
	return rc;
}

/* The logs from files[i]'s folder that its jobs claim become its own (the
 * JSON read but nothing written): 0, or -1 when a log is claimed twice or
 * files[i] is a log of all jobs. */
static int fio_pair_file(struct fio_pair *p, int i)
{
	const char *mine[FIO_PAIR_MAX], *path = p->files[i];
	unsigned idx[FIO_PAIR_MAX], n = 0;
	bool used[FIO_PAIR_MAX] = { false };
	struct imp im = { .path = path, .db = p->db, .extra = mine, .extra_used = used,
			  .claim_only = true };
	char dir[PATH_MAX], xdir[PATH_MAX], *text;
	int frc, rc = 0;

	if (fio_is_shared_log(path)) {
		log_error("'%s' is a fio log of all jobs in one file (per_job_logs=0), "
			  "which hbatest cannot split by job: rerun fio without "
			  "per_job_logs=0 and give its NAME_KIND.N.log files", path);
		return -1;
	}
	if (fio_is_log(path, p->files, p->nfiles) || fio_is_hist_log(path))
		return 0;
	fio_dir_of(path, dir, sizeof(dir));
	for (unsigned x = 0; x < p->nextra; x++) {
		fio_dir_of(p->extra[x], xdir, sizeof(xdir));
		if (!strcmp(dir, xdir)) {
			p->seen[x] = true;
			idx[n] = x, mine[n++] = p->extra[x];
		}
	}
	if (!n)
		return 0;
	im.nextra = n;
	frc = imp_read(&im, path, FIO_WHAT, &text, &im.len);
	if (!frc) {
		im.text = text;
		frc = db_import_fio_claim(&im);
		free(text);
	}
	for (unsigned k = 0; k < n; k++) {
		unsigned x = idx[k];

		if (frc < 0) {		/* the import proper says what is wrong */
			p->soft[x] = true;
		} else if (used[k] && p->owner[x] >= 0) {
			log_error("'%s' is a log of a job of both '%s' and '%s' (one folder): "
				  "give each fio run its own folder", p->extra[x],
				  p->files[p->owner[x]], path);
			rc = -1;
		} else if (used[k]) {
			p->owner[x] = i;
		}
	}
	return rc;
}

/* The logs no JSON claimed, but for those of a refused JSON (its import
 * says why) and those gone: 0, or -1 when there is one. */
static int fio_pair_orphans(const struct fio_pair *p)
{
	int rc = 0;

	for (unsigned x = 0; x < p->nextra; x++) {
		struct fiolog_name n;

		if (p->owner[x] >= 0 || p->soft[x] || access(p->extra[x], F_OK))
			continue;
		if (!p->seen[x])
			log_error("'%s': no fio JSON file given from its folder (a log is imported "
				  "with the JSON of its run, beside it)", p->extra[x]);
		else if (fiolog_name_parse(p->extra[x], &n))
			log_error("'%s' belongs to no job of the fio files given from its folder "
				  "(fio writes NAME_%s.N.log for job N with %s=NAME)", p->extra[x],
				  fiolog_kind_name(n.kind), fiolog_option(n.kind));
		rc = -1;
	}
	return rc;
}

int fio_pair_logs(struct db *db, const char *const *files, int nfiles,
		  const char *const *extra, unsigned nextra, int *owner)
{
	struct fio_pair p = { .db = db, .files = files, .extra = extra, .nfiles = nfiles,
			      .nextra = nextra, .owner = owner };
	int rc;

	assert(nextra <= FIO_PAIR_MAX);
	rc = fio_pair_stat(&p);
	for (int i = 0; i < nfiles; i++)
		if (fio_pair_file(&p, i) < 0)
			rc = -1;
	if (fio_pair_orphans(&p) < 0)
		rc = -1;
	return rc;
}
