/* A histogram of hbatest's JSON export checked before it is stored: the
 * layout this hbatest reads, counts as [[bucket, count], ...] with buckets
 * in range and ascending (as hist_to_json writes them) and no count below
 * zero, and one count per I/O: the buckets sum to the step's read_ops or
 * write_ops, as the runner stores both from the same seconds (a run
 * imported from fio: within the I/Os a ramp and the end leave in flight).
 * A histogram that disagrees makes every percentile a report draws from it
 * wrong. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "import/hbatest/import_hbatest.h"
#include "base/hist.h"
#include "base/jsonpos.h"

struct hb_hist {
	struct imp *im;
	int64_t i;		/* the row */
	char who[400];		/* "histograms[3]: step 2 'qd4' read" */
	int64_t ops, oio;	/* the step's, -1: NULL */
	bool fio;		/* the run came from fio */
};

static int hh_fault(struct hb_hist *c, const char *key, const char *msg)
{
	char path[64];
	unsigned line, col;

	snprintf(path, sizeof(path), "$.histograms[%lld].%s", (long long)c->i, key);
	jsonpos_linecol(c->im->text, jsonpos_find(c->im->text, c->im->len, path), &line, &col);
	return imp_error(c->im, line, col, "%s: %s", c->who, msg);
}

/* The pairs in order; their sum into *sum. */
static int hh_pairs(struct hb_hist *c, const char *counts, uint64_t *sum)
{
	sqlite3_stmt *st = db_prep(c->im->db, "SELECT json_type(value), json_array_length(value), "
		"json_type(value, '$[0]'), json_extract(value, '$[0]'), json_type(value, '$[1]'), "
		"json_extract(value, '$[1]'), value FROM json_each(?1)");
	char msg[400];
	int64_t prev = -1;
	unsigned k = 0;
	int rc = 0;

	if (!st)
		return imp_db_error(c->im);
	*sum = 0;
	sqlite3_bind_text(st, 1, counts, -1, SQLITE_STATIC);
	for (; !rc && sqlite3_step(st) == SQLITE_ROW; k++) {
		const char *t0 = (const char *)sqlite3_column_text(st, 2);
		const char *t1 = (const char *)sqlite3_column_text(st, 4);
		const char *pair = (const char *)sqlite3_column_text(st, 6);
		int64_t b = sqlite3_column_int64(st, 3), n = sqlite3_column_int64(st, 5);

		if (strcmp((const char *)sqlite3_column_text(st, 0), "array") ||
		    sqlite3_column_int(st, 1) != 2 || !t0 || strcmp(t0, "integer") || !t1 ||
		    strcmp(t1, "integer"))
			snprintf(msg, sizeof(msg), "pair %u (%.40s) is not [bucket, count] in "
				 "integers", k + 1, pair);
		else if (b < 0 || b >= HIST_BUCKETS)
			snprintf(msg, sizeof(msg), "bucket %lld is outside 0-%d of its layout",
				 (long long)b, HIST_BUCKETS - 1);
		else if (b <= prev)
			snprintf(msg, sizeof(msg), "bucket %lld after bucket %lld: buckets "
				 "ascend, each once", (long long)b, (long long)prev);
		else if (n < 0)
			snprintf(msg, sizeof(msg), "bucket %lld has a negative count (%lld)",
				 (long long)b, (long long)n);
		else if ((uint64_t)n > INT64_MAX - *sum)
			snprintf(msg, sizeof(msg), "bucket %lld: the counts sum past 2^63",
				 (long long)b);
		else
			msg[0] = '\0';
		if (msg[0])
			rc = hh_fault(c, "counts", msg);
		*sum += (uint64_t)n;
		prev = b;
	}
	sqlite3_finalize(st);
	return rc;
}

static int hh_total(struct hb_hist *c, const char *dir, uint64_t sum)
{
	double slack = c->fio ? fmax(2.0 * (c->oio > 0 ? (double)c->oio : 1),
				     floor((double)c->ops / 100)) : 0;
	char msg[400];

	if (c->ops >= 0 && fabs((double)sum - (double)c->ops) <= slack)
		return 0;
	if (c->ops < 0)
		snprintf(msg, sizeof(msg), "the buckets count %llu I/Os, the step has no "
			 "%s_ops", (unsigned long long)sum, dir);
	else
		snprintf(msg, sizeof(msg), "the buckets count %llu I/Os, the step's %s_ops "
			 "is %lld%s: one count per I/O", (unsigned long long)sum, dir,
			 (long long)c->ops, c->fio ? " (more apart than fio's I/Os in flight)" : "");
	return hh_fault(c, "counts", msg);
}

int hb_hist_check(struct imp *im, int64_t i, const char *row, int64_t step_id)
{
	sqlite3_stmt *st = db_prep(im->db, "SELECT json_extract(?1, '$.dir'), json_extract(?1, "
		"'$.layout'), json_extract(?1, '$.counts'), s.seq, s.name, CASE json_extract(?1, "
		"'$.dir') WHEN 'read' THEN s.read_ops ELSE s.write_ops END, s.oio, r.source, "
		"json_valid(json_extract(?1, '$.counts')) AND json_type(json_extract(?1, "
		"'$.counts')) = 'array' FROM steps s JOIN runs r ON r.id = s.run_id WHERE s.id = ?2");
	struct hb_hist c = { .im = im, .i = i };
	const char *dir, *layout, *counts;
	char msg[400];
	uint64_t sum = 0;
	int rc;

	if (!st)
		return imp_db_error(im);
	sqlite3_bind_text(st, 1, row, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, step_id);
	if (sqlite3_step(st) != SQLITE_ROW) {
		sqlite3_finalize(st);
		return imp_db_error(im);
	}
	dir = (const char *)sqlite3_column_text(st, 0);
	layout = (const char *)sqlite3_column_text(st, 1);
	counts = (const char *)sqlite3_column_text(st, 2);
	snprintf(c.who, sizeof(c.who), "histograms[%lld]: step %d '%.200s' %.8s", (long long)i,
		 sqlite3_column_int(st, 3), sqlite3_column_text(st, 4) ?
		 (const char *)sqlite3_column_text(st, 4) : "", dir ? dir : "");
	c.ops = sqlite3_column_type(st, 5) == SQLITE_NULL ? -1 : sqlite3_column_int64(st, 5);
	c.oio = sqlite3_column_type(st, 6) == SQLITE_NULL ? -1 : sqlite3_column_int64(st, 6);
	c.fio = sqlite3_column_text(st, 7) && !strcmp((const char *)sqlite3_column_text(st, 7),
						      "fio");
	if (!layout || strcmp(layout, HIST_LAYOUT)) {
		snprintf(msg, sizeof(msg), "layout '%.80s': this hbatest reads '%s'",
			 layout ? layout : "", HIST_LAYOUT);
		rc = hh_fault(&c, "layout", msg);
	} else if (!counts || !sqlite3_column_int(st, 8)) {
		rc = hh_fault(&c, "counts", "counts is not JSON [[bucket, count], ...]");
	} else if (!(rc = hh_pairs(&c, counts, &sum))) {
		rc = hh_total(&c, dir, sum);
	}
	sqlite3_finalize(st);
	return rc;
}
