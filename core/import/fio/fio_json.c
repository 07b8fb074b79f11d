/* Values of fio's JSON by path (through SQLite's JSON1): numbers, strings,
 * job options, and faults placed at the line and column of a path. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "import/fio/import_fio.h"
#include "base/jsonpos.h"

int fio_fault(struct fio *f, const char *path, const char *fmt, const char *key,
		     const char *detail)
{
	unsigned line, col;

	jsonpos_linecol(f->im->text, f->base + jsonpos_find(f->json, f->jlen, path), &line, &col);
	return imp_error(f->im, line, col, fmt, key, detail);
}

/* The type ("null" when missing) and value at path. */
const char *fio_get(struct fio *f, const char *path, sqlite3_value **v)
{
	const char *type;

	sqlite3_reset(f->get);
	sqlite3_bind_text(f->get, 2, path, -1, SQLITE_TRANSIENT);
	if (sqlite3_step(f->get) != SQLITE_ROW)
		return NULL;
	type = (const char *)sqlite3_column_text(f->get, 0);
	*v = sqlite3_column_value(f->get, 1);
	return type ? type : "null";
}

/* The path's last key: 'iops', or '"99.000000"' quoted as the path has it. */
const char *fio_last_key(const char *path)
{
	size_t n = strlen(path);
	const char *k;

	if (n > 1 && path[n - 1] == '"') {
		for (k = path + n - 2; k > path && *k != '"'; k--)
			;
		return k;
	}
	k = strrchr(path, '.');
	return k ? k + 1 : path;
}

/* The number at path as the file writes it ("1e400"), for a message. */
static void fio_literal(struct fio *f, const char *path, char *buf, size_t len)
{
	const char *s = f->json + jsonpos_find(f->json, f->jlen, path);

	snprintf(buf, len, "%.*s", (int)strspn(s, "-+.0123456789eE"), s);
}

/* A number at path; NAN when missing and not required. One past a
 * double's range (1e400) reads as infinite: refused, as fio never writes it. */
int fio_num(struct fio *f, const char *path, bool required, double *out)
{
	sqlite3_value *v;
	const char *type = fio_get(f, path, &v);
	char lit[48], what[120];

	*out = NAN;
	if (!type)
		return imp_db_error(f->im);
	if (!strcmp(type, "integer") || !strcmp(type, "real")) {
		*out = sqlite3_value_double(v);
		if (isfinite(*out))
			return 0;
		fio_literal(f, path, lit, sizeof(lit));
		snprintf(what, sizeof(what), "%s is not a finite number (past a double's range)",
			 lit);
		*out = NAN;
		return fio_fault(f, path, "%s: %s", fio_last_key(path), what);
	}
	if (!strcmp(type, "null") && !required)
		return 0;
	return fio_fault(f, path, "%s: %s", fio_last_key(path),
			 !strcmp(type, "null") ? "missing, expected a number" :
			 "expected a number");
}

/* A string at path into buf; false when missing. */
bool fio_str(struct fio *f, const char *path, char *buf, size_t len)
{
	sqlite3_value *v;
	const char *type = fio_get(f, path, &v);

	if (!type || !strcmp(type, "null") || !strcmp(type, "object") || !strcmp(type, "array"))
		return false;
	snprintf(buf, len, "%s", (const char *)sqlite3_value_text(v));
	return true;
}

/* A job option: the job's own, the global one, or def. */
const char *fio_opt(struct fio *f, int i, const char *name, char *buf, size_t len,
			   const char *def)
{
	char path[320];

	snprintf(path, sizeof(path), "$.jobs[%d].\"job options\".%s", i, name);
	if (fio_str(f, path, buf, len))
		return buf;
	snprintf(path, sizeof(path), "$.\"global options\".%s", name);
	if (fio_str(f, path, buf, len))
		return buf;
	if (!def)
		return NULL;
	snprintf(buf, len, "%s", def);
	return buf;
}

void fio_opt_path(struct fio *f, int i, const char *name, char *path, size_t len)
{
	char buf[64];

	snprintf(path, len, "$.jobs[%d].\"job options\".%s", i, name);
	if (fio_str(f, path, buf, sizeof(buf)))
		return;
	snprintf(path, len, "$.\"global options\".%s", name);
}
