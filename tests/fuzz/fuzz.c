/* The fuzz targets' shared part (see fuzz.h): inputs as files, a scratch
 * folder with one database, imports rolled back and their contract checked. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"
#include "base/log.h"
#include "base/sha256.h"

static char scratch[PATH_MAX];		/* the folder, made on first use */
static char written[FZ_MAX_FILES][PATH_MAX + 8];
static unsigned nwritten;
static struct db fz_database;
static bool db_open_done;

void fz_fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "fuzz: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	abort();
}

/* The file name of a header line's NAME: its last path component, a NUL
 * byte as '_', "file" for "", "." and "..". */
static void fz_name(char *out, size_t len, const char *s, size_t n)
{
	const char *slash = memrchr(s, '/', n);
	size_t k = 0;

	if (slash) {
		n -= (size_t)(slash + 1 - s);
		s = slash + 1;
	}
	for (size_t i = 0; i < n && k + 1 < len; i++)
		out[k++] = s[i] ? s[i] : '_';
	out[k] = '\0';
	if (!k || !strcmp(out, ".") || !strcmp(out, ".."))
		snprintf(out, len, "file");
}

static void fz_add(struct fz_input *in, char *text, const char *name, size_t namelen)
{
	struct fz_file *f = &in->f[in->n++];

	fz_name(f->name, sizeof(f->name), name, namelen);
	f->text = text;
}

/* File k ends where the next one's header line starts (end: the input's
 * end), less the blank line tail prints before a header. */
static void fz_end(struct fz_file *f, char *end, bool header_follows)
{
	f->len = (size_t)(end - f->text);
	if (header_follows && f->len >= 2 && !memcmp(end - 2, "\n\n", 2))
		f->len--;
	f->has_nul = memchr(f->text, '\0', f->len) != NULL;
}

/* The header line from p to le: "==> NAME <==". */
static bool fz_header(const char *p, const char *le)
{
	size_t n = (size_t)(le - p);

	return n > 8 && !memcmp(p, "==> ", 4) && !memcmp(le - 4, " <==", 4);
}

/* in emptied, holding a NUL-terminated copy of the input */
static void fz_copy(struct fz_input *in, const uint8_t *data, size_t size)
{
	memset(in, 0, sizeof(*in));
	in->buf = malloc(size + 1);
	if (!in->buf)
		fz_fail("out of memory");
	memcpy(in->buf, data, size);
	in->buf[size] = '\0';
}

void fz_split(struct fz_input *in, const uint8_t *data, size_t size, const char *main_name)
{
	char *p, *end, *hdr[FZ_MAX_FILES] = { NULL };

	fz_copy(in, data, size);
	end = in->buf + size;
	for (p = in->buf; p < end || !in->n;) {
		char *nl = memchr(p, '\n', (size_t)(end - p));
		char *le = nl ? nl : end;

		if (fz_header(p, le) && in->n < FZ_MAX_FILES) {
			hdr[in->n] = p;
			fz_add(in, nl ? nl + 1 : end, p + 4, (size_t)(le - p) - 8);
		} else if (!in->n) {	/* text before any header */
			fz_add(in, p, main_name, strlen(main_name));
		}
		p = nl ? nl + 1 : end;
	}
	for (unsigned k = 0; k < in->n; k++)
		fz_end(&in->f[k], k + 1 < in->n ? hdr[k + 1] : end, k + 1 < in->n);
	for (unsigned k = 0; k < in->n; k++)	/* after every end is known */
		in->f[k].text[in->f[k].len] = '\0';
}

void fz_one(struct fz_input *in, const uint8_t *data, size_t size, const char *name)
{
	fz_copy(in, data, size);
	fz_add(in, in->buf, name, strlen(name));
	fz_end(&in->f[0], in->buf + size, false);
}

void fz_input_free(struct fz_input *in)
{
	free(in->buf);
	in->buf = NULL;
}

bool fz_blank(const char *text)
{
	return text[strspn(text, " \t\r\n")] == '\0';
}

/* A scratch folder and what is in it: the database, in/ and its files. */
static void fz_remove(const char *dir)
{
	static const char *const db_files[] = { "fuzz.db", "fuzz.db-wal", "fuzz.db-shm" };
	char path[PATH_MAX + 300];
	struct dirent *e;
	DIR *d;

	for (size_t i = 0; i < sizeof(db_files) / sizeof(db_files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, db_files[i]);
		unlink(path);
	}
	snprintf(path, sizeof(path), "%s/in", dir);
	d = opendir(path);
	while (d && (e = readdir(d))) {
		snprintf(path, sizeof(path), "%s/in/%s", dir, e->d_name);
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			unlink(path);
	}
	if (d)
		closedir(d);
	snprintf(path, sizeof(path), "%s/in", dir);
	rmdir(path);
	rmdir(dir);
}

static void fz_cleanup(void)
{
	fz_scratch_clear();
	if (db_open_done)
		db_close(&fz_database);
	fz_remove(scratch);
}

/* The scratch folders of fuzz processes that died (a crash or a timeout
 * ends one before its atexit), named by their pid: removed by the next. */
static void fz_sweep(const char *tmp)
{
	char dir[PATH_MAX + 300], *end;
	struct dirent *e;
	DIR *d = opendir(tmp);
	long pid;

	while (d && (e = readdir(d))) {
		if (strncmp(e->d_name, "hbatest-fuzz.", 13))
			continue;
		pid = strtol(e->d_name + 13, &end, 10);
		if (end == e->d_name + 13 || *end != '.' || pid <= 0 || !kill((pid_t)pid, 0) ||
		    errno != ESRCH)
			continue;
		snprintf(dir, sizeof(dir), "%s/%s", tmp, e->d_name);
		fz_remove(dir);
	}
	if (d)
		closedir(d);
}

/* The scratch folder, made once per process and removed at exit: the
 * database, and in/ for the input's files (whatever their names, they
 * cannot be the database's). */
static const char *fz_scratch(void)
{
	const char *tmp = getenv("TMPDIR");
	char in[PATH_MAX + 4];

	if (scratch[0])
		return scratch;
	tmp = tmp && *tmp ? tmp : "/tmp";
	fz_sweep(tmp);
	snprintf(scratch, sizeof(scratch), "%s/hbatest-fuzz.%ld.XXXXXX", tmp, (long)getpid());
	if (!mkdtemp(scratch))
		fz_fail("cannot make a scratch folder '%s': %s", scratch, strerror(errno));
	snprintf(in, sizeof(in), "%s/in", scratch);
	if (mkdir(in, 0700) < 0)
		fz_fail("cannot make '%s': %s", in, strerror(errno));
	/* the importers' messages are not what is checked, only that they exist */
	log_set_verbosity(getenv("FUZZ_VERBOSE") ? HB_LOG_DEBUG : -1);
	atexit(fz_cleanup);
	return scratch;
}

const char *fz_path(const char *name)
{
	static char path[PATH_MAX + 8];

	snprintf(path, sizeof(path), "%s/in/%s", fz_scratch(), name);
	return path;
}

const char *fz_write(const struct fz_file *f)
{
	char *path;
	int fd;

	if (nwritten == FZ_MAX_FILES)
		fz_fail("more than %d files written", FZ_MAX_FILES);
	path = written[nwritten];
	snprintf(path, sizeof(written[0]), "%s/in/%s", fz_scratch(), f->name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || write(fd, f->text, f->len) != (ssize_t)f->len)
		fz_fail("cannot write '%s': %s", path, strerror(errno));
	close(fd);
	nwritten++;
	return path;
}

void fz_scratch_clear(void)
{
	for (unsigned k = 0; k < nwritten; k++)
		unlink(written[k]);
	nwritten = 0;
}

static struct db *fz_db(void)
{
	char err[1024], path[PATH_MAX + 8];

	if (db_open_done)
		return &fz_database;
	snprintf(path, sizeof(path), "%s/fuzz.db", fz_scratch());
	if (db_open(&fz_database, path, true, err, sizeof(err)) < 0)
		fz_fail("%s", err);
	db_open_done = true;
	return &fz_database;
}

/* Statements the importer prepared and did not finalize: the connection's
 * own (db_open prepares two) are not the importer's. */
static void fz_check_statements(struct db *db)
{
	for (sqlite3_stmt *st = sqlite3_next_stmt(db->h, NULL); st;
	     st = sqlite3_next_stmt(db->h, st))
		if (st != db->ins_sample && st != db->ins_event)
			fz_fail("a statement left unfinalized: %s", sqlite3_sql(st));
}

/* A malformed file's error is "FILE:LINE:COLUMN: what" (imp_error), and
 * about the file imported, LINE:COLUMN is a place in it: a line it has
 * (or the one after its last, for "truncated"), a column up to one past
 * that line's end. */
static void fz_check_position(const struct imp *im)
{
	size_t plen = strlen(im->path);
	unsigned long line, col;
	const char *s = im->text;
	char *end;

	if (strncmp(im->err, im->path, plen) || im->err[plen] != ':') {
		for (unsigned x = 0; x < im->nextra; x++)
			if (!strncmp(im->err, im->extra[x], strlen(im->extra[x])))
				return;	/* a companion's (not checked further) */
		fz_fail("a malformed file's error names no file: %s", im->err);
	}
	line = strtoul(im->err + plen + 1, &end, 10);
	col = *end == ':' ? strtoul(end + 1, &end, 10) : 0;
	if (!line || !col || strncmp(end, ": ", 2))
		fz_fail("a malformed file's error is not FILE:LINE:COLUMN: %s", im->err);
	for (unsigned long l = 1; l < line; l++) {
		s = strchr(s, '\n');
		if (!s) {
			if (l + 1 == line)
				return;	/* the line after the last */
			fz_fail("line %lu of a file of %lu lines: %s", line, l, im->err);
		}
		s++;
	}
	if (col > strcspn(s, "\n") + 1)
		fz_fail("column %lu of line %lu, which has %zu bytes: %s", col, line,
			strcspn(s, "\n"), im->err);
}

int fz_import(imp_fn fn, struct imp *im, bool claim)
{
	struct db *db = fz_db();
	int rc;

	im->db = db;
	sha256_hex(im->text, im->len, im->sha);
	if (sqlite3_exec(db->h, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
		fz_fail("BEGIN: %s", sqlite3_errmsg(db->h));
	rc = fn(im);
	if (sqlite3_get_autocommit(db->h))
		fz_fail("the importer ended the transaction (rc %d)", rc);
	if (sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL) != SQLITE_OK)
		fz_fail("ROLLBACK: %s", sqlite3_errmsg(db->h));
	fz_check_statements(db);
	if (getenv("FUZZ_VERBOSE"))
		fprintf(stderr, "fuzz: rc %d, %d run(s), %d step(s): %s\n", rc, im->nruns,
			im->nsteps, im->err);
	if (rc > 0)
		fz_fail("the importer returned %d", rc);
	if (rc < 0 && rc != -ENOMEM && !im->err[0])
		fz_fail("refused (%s) without saying why", strerror(-rc));
	if (!rc && !claim && im->nruns < 1)
		fz_fail("neither imported a run nor refused the file");
	if (rc == -EINVAL)
		fz_check_position(im);
	return rc;
}
