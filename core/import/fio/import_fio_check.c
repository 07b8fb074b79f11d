/* fio's JSON checked before it is stored: no job twice, and the latency
 * figures of each direction against each other (a histogram that disagrees
 * with the I/O count would make every percentile drawn from it wrong). The rules are those fio
 * itself keeps (stat.c: the json+ bins and the percentiles are one array,
 * io_u_plat, and N its sum). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/fio/import_fio.h"
#include "base/jsonpos.h"

struct fio_bin {
	unsigned long long ns, count;
};

struct fio_chk {
	struct fio *f;
	char who[320];		/* "jobs[0] 'qd1' read" */
	char path[400];		/* "$.jobs[0].read.clat_ns" */
	const char *src;
	struct fio_bin *b;	/* the bins, ascending (fio_bins checked it) */
	size_t nb;
};

static int chk_fault(struct fio_chk *c, const char *key, const char *msg)
{
	char path[512], text[900];

	snprintf(path, sizeof(path), "%s%s%s", c->path, key[0] ? "." : "", key);
	snprintf(text, sizeof(text), "%s: %s", c->who, msg);
	return fio_fault(c->f, path, "%s%s", text, "");
}

static int chk_load_bins(struct fio_chk *c)
{
	sqlite3_stmt *st = db_prep(c->f->im->db, "SELECT CAST(key AS INTEGER), value FROM "
				   "json_each(?1, ?2)");
	char path[420];
	int rc;

	if (!st)
		return imp_db_error(c->f->im);
	snprintf(path, sizeof(path), "%s.bins", c->path);
	sqlite3_bind_text(st, 1, c->f->json, (int)c->f->jlen, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, path, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct fio_bin *p = realloc(c->b, (c->nb + 1) * sizeof(*p));

		if (!p) {
			sqlite3_finalize(st);
			return -ENOMEM;
		}
		c->b = p;
		p[c->nb].ns = (unsigned long long)sqlite3_column_int64(st, 0);
		p[c->nb++].count = (unsigned long long)sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : imp_db_error(c->f->im);
}

/* The bin where fio's calc_clat_percentiles stops for p: the first whose
 * running sum reaches p% of the total (scaled by k, for its rounding). */
static unsigned long long chk_bin_at(const struct fio_chk *c, double p, double total, double k)
{
	double sum = 0;

	for (size_t i = 0; i < c->nb; i++) {
		sum += (double)c->b[i].count;
		if (sum >= p / 100 * total * k)
			return c->b[i].ns;
	}
	return c->nb ? c->b[c->nb - 1].ns : 0;
}

/* The percentiles ascend, and with bins each lies in the bin fio's own
 * computation gives (within its long-double rounding). */
static int chk_percentiles(struct fio_chk *c, double total)
{
	sqlite3_stmt *st = db_prep(c->f->im->db, "SELECT key, value, type FROM json_each(?1, ?2) "
				   "WHERE json_type(?1, ?2) = 'object'");
	char path[420], key[64] = "", prev[64] = "", msg[400];
	double last = -1;
	int rc = 0;

	if (!st)
		return imp_db_error(c->f->im);
	snprintf(path, sizeof(path), "%s.percentile", c->path);
	sqlite3_bind_text(st, 1, c->f->json, (int)c->f->jlen, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, path, -1, SQLITE_STATIC);
	while (!rc && sqlite3_step(st) == SQLITE_ROW) {
		double p = strtod((const char *)sqlite3_column_text(st, 0), NULL);
		double v = sqlite3_column_double(st, 1);
		unsigned long long lo = chk_bin_at(c, p, total, 1 - 1e-9);
		unsigned long long hi = chk_bin_at(c, p, total, 1 + 1e-9);
		const char *type = (const char *)sqlite3_column_text(st, 2);

		snprintf(key, sizeof(key), "percentile.\"%s\"", sqlite3_column_text(st, 0));
		if ((strcmp(type, "integer") && strcmp(type, "real")) || !isfinite(v) || v < 0) {
			snprintf(msg, sizeof(msg), "%s %s is not a latency in ns (a finite number, "
				 "at least 0)", c->src, key);
			rc = chk_fault(c, key, msg);
		} else if (v < last) {
			snprintf(msg, sizeof(msg), "%s %s is %.0f ns, below %s %s (%.0f ns): "
				 "percentiles ascend", c->src, key, v, c->src, prev, last);
			rc = chk_fault(c, key, msg);
		} else if (c->nb && (v < (double)lo || v > (double)hi)) {
			snprintf(msg, sizeof(msg), "%s %s is %.0f ns, but its bins put it at "
				 "%llu ns", c->src, key, v, lo);
			rc = chk_fault(c, key, msg);
		}
		last = v;
		snprintf(prev, sizeof(prev), "%s", key);
	}
	sqlite3_finalize(st);
	return rc;
}

int fio_check_lat(struct fio *f, const struct fio_job *j, const char *dirpath,
		  const char *src, double n, double ios, const struct hist *h)
{
	struct fio_chk c = { .f = f, .src = src };
	/* in flight at the ramp's end and at the run's: twice the OIO */
	double slack = fmax(2.0 * (j->s.oio > 0 ? j->s.oio : 1), floor(ios / 100));
	char msg[400];
	int rc = 0;
	const char *dir = strrchr(dirpath, '.');

	snprintf(c.who, sizeof(c.who), "%.*s '%s' %s", (int)(dir - dirpath - 2), dirpath + 2,
		 j->name, dir + 1);
	snprintf(c.path, sizeof(c.path), "%s.%s", dirpath, src);
	if (h && (double)h->total != n) {
		snprintf(msg, sizeof(msg), "the %s bins count %llu I/Os, its N is %.0f (fio "
			 "writes both from one count)", src, (unsigned long long)h->total, n);
		return chk_fault(&c, "bins", msg);
	}
	if (h && fabs(n - ios) > slack) {
		snprintf(msg, sizeof(msg), "%s N is %.0f, total_ios %.0f: more apart than the "
			 "%.0f I/Os (twice the OIO, or 1%%) a ramp and the end leave in flight", src, n, ios, slack);
		return chk_fault(&c, "N", msg);
	}
	if (h && (rc = chk_load_bins(&c)) < 0)
		return rc;
	if (n > 0)
		rc = chk_percentiles(&c, n);
	free(c.b);
	return rc;
}

/* Two jobs[] entries alike in every value: one job twice (fio's own have
 * their own start times; jobs that share a name, as numjobs=N writes them
 * without group_reporting, are different jobs and stay). */
int fio_job_twice(struct fio *f)
{
	sqlite3_stmt *st = db_prep(f->im->db, "SELECT a.key, b.key, json_extract(a.value, "
		"'$.jobname') FROM json_each(?1, '$.jobs') a, json_each(?1, '$.jobs') b "
		"WHERE a.key < b.key AND a.value = b.value ORDER BY b.key LIMIT 1");
	char path[64], first[64], what[400];
	unsigned line, col;
	int rc = 0;

	if (!st)
		return imp_db_error(f->im);
	sqlite3_bind_text(st, 1, f->json, (int)f->jlen, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW) {
		snprintf(first, sizeof(first), "$.jobs[%d]", sqlite3_column_int(st, 0));
		snprintf(path, sizeof(path), "$.jobs[%d]", sqlite3_column_int(st, 1));
		jsonpos_linecol(f->im->text, f->base + jsonpos_find(f->json, f->jlen, first),
				&line, &col);
		snprintf(what, sizeof(what), "'%.256s' is %s (line %u) again, every value the "
			 "same: the file holds the same job twice", sqlite3_column_text(st, 2) ?
			 (const char *)sqlite3_column_text(st, 2) : "", first + 2, line);
		rc = fio_fault(f, path, "%s %s", path + 2, what);
	}
	sqlite3_finalize(st);
	return rc;
}
