/* Iometer 1.1.0's per-interval file ("inst" + the results file's name, its
 * rows "TimeStamp,'Target Type,..." from Worker::SaveResultsInstantaneous)
 * as per-second samples of the matching result's step, and which files
 * given are inst files; and the header and row checks it shares with
 * results.csv. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "import/iometer/import_iometer.h"
#include "base/log.h"
#include "base/util.h"

void iom_time(const char *s, char *out, size_t len)
{
	int y, mo, d, h, mi, se, ms = 0;

	if (sscanf(s, "%d-%d-%d %d:%d:%d:%d", &y, &mo, &d, &h, &mi, &se, &ms) >= 6)
		snprintf(out, len, "%04d-%02d-%02dT%02d:%02d:%02d.%03d", y, mo, d, h, mi, se, ms);
	else
		snprintf(out, len, "%s", s);
}

/* A results header (of either file) matched to one of Iometer's layouts. */
int iom_header(struct imp *im, const struct csvline *h, unsigned first,
	       struct iom_layout *lo, const char *file)
{
	const char *want;
	unsigned bad;

	if (!iometer_layout(h, first, lo, &bad, &want))
		return 0;
	if (bad == h->nf)
		return imp_error_in(im, file, h->line, h->end_col, "missing column '%s': not "
				    "one of Iometer's results headers (56, 59 or 80 columns)", want);
	if (!want)
		return imp_error_in(im, file, h->line, h->col[bad], "column '%s' is one too "
				    "many for Iometer's results header", csvline_field(h, bad));
	return imp_error_in(im, file, h->line, h->col[bad], "unknown column '%s' (Iometer's "
			    "results header has '%s' here)", csvline_field(h, bad), want);
}

int iom_check_row(struct imp *im, const char *file, const struct csvline *l,
		  const struct iom_layout *lo, unsigned first)
{
	static const char *const types[] = { "ALL", "MANAGER", "PROCESSOR", "WORKER", "DISK",
					     "NETWORK", "UNKNOWN" };
	unsigned want = (unsigned)lo->ncols + first;
	const char *type = l->nf > first ? csvline_field(l, first) : "";
	bool known = false;

	for (unsigned k = 0; k < sizeof(types) / sizeof(types[0]); k++)
		known |= !strcmp(type, types[k]);
	if (!known)
		return imp_error_in(im, file, l->line, l->nf > first ? l->col[first] : 1,
				    "unknown target type '%s' (ALL, MANAGER, PROCESSOR, WORKER, DISK)",
				    type);
	if (l->nf > want)
		return imp_error_in(im, file, l->line, l->col[want], "%u columns, the header "
				    "has %u", l->nf, want);
	if (l->nf < want && strcmp(type, "PROCESSOR"))
		return imp_error_in(im, file, l->line, l->end_col, "missing column '%s' "
				    "(%u of the header's %u columns)",
				    iometer_col_at(lo, l->nf - first), l->nf, want);
	return 0;
}

bool iometer_is_inst(const char *path, const char *const *files, int nfiles)
{
	const char *base = basename(path);

	if (strncmp(base, "inst", 4))
		return false;
	for (int i = 0; i < nfiles; i++)
		if (!strcmp(basename(files[i]), base + 4))
			return true;
	return false;
}

void iometer_inst_unused(const char *path)
{
	log_error("'%s' is the inst file of no results file given "
		  "(Iometer names it inst + the results file's name)", path);
}

static const char *inst_find(struct imp *im, struct iom_inst *in)
{
	const char *b = strrchr(im->path, '/');
	size_t dir = b ? (size_t)(b + 1 - im->path) : 0;

	b = b ? b + 1 : im->path;
	for (unsigned x = 0; x < im->nextra; x++) {
		const char *e = strrchr(im->extra[x], '/');

		e = e ? e + 1 : im->extra[x];
		if (!strncmp(e, "inst", 4) && !strcmp(e + 4, b)) {
			im->extra_used[x] = true;
			return im->extra[x];
		}
	}
	in->own = util_strdup_printf("%.*sinst%s", (int)dir, im->path, b);
	return in->own && !access(in->own, R_OK) ? in->own : NULL;
}

/* Split the inst file into result blocks: 'Results, the TimeStamp header,
 * its rows. */
static int inst_blocks(struct imp *im, struct iom_inst *in)
{
	int test = 0, block = 0;

	for (size_t i = 0; i < in->c.n; i++) {
		const struct csvline *l = &in->c.l[i];
		struct iom_iblock *b;
		int rc;

		if (!strcmp(csvline_field(l, 0), "'Test Type"))
			test++, block = 0;
		if (strcmp(csvline_field(l, 0), "'Results"))
			continue;
		if (i + 1 >= in->c.n || strcmp(csvline_field(&in->c.l[i + 1], 0), "TimeStamp"))
			return imp_error_in(im, in->path, l->line + 1, 1, "expected the header "
					    "\"TimeStamp,'Target Type,...\" after \"'Results\"");
		if (in->nb == in->cap) {
			b = realloc(in->b, (in->cap ? 2 * in->cap : 16) * sizeof(*b));
			if (!b)
				return -ENOMEM;
			in->b = b;
			in->cap = in->cap ? 2 * in->cap : 16;
		}
		b = &in->b[in->nb++];
		b->test = test, b->block = ++block;
		if ((rc = iom_header(im, &in->c.l[i + 1], 1, &b->lo, in->path)) < 0)
			return rc;
		b->first = i + 2;
		for (b->n = 0; b->first + b->n < in->c.n &&
		     csvline_field(&in->c.l[b->first + b->n], 0)[0] != '\''; b->n++)
			if ((rc = iom_check_row(im, in->path, &in->c.l[b->first + b->n], &b->lo, 1)) < 0)
				return rc;
		i = b->first + b->n - 1;
	}
	return 0;
}

int iom_inst_load(struct imp *im, struct iom_inst *in)
{
	size_t len;
	char *text;
	int rc;

	memset(in, 0, sizeof(*in));
	in->path = inst_find(im, in);
	if (!in->path)
		return 0;
	if ((rc = imp_read(im, in->path, "an Iometer inst file", &text, &len)) < 0)
		return rc;
	rc = csvlines_read(&in->c, text, len, 0);
	free(text);
	return rc < 0 ? rc : inst_blocks(im, in);
}

/* Milliseconds of Iometer's "2014-03-05 11:00:02:100" (its zone does not
 * matter: only differences are used); -1 when it is not one. */
static double inst_ms(const char *s)
{
	struct tm tm = { 0 };
	int ms = 0;

	if (sscanf(s, "%d-%d-%d %d:%d:%d:%d", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour,
		   &tm.tm_min, &tm.tm_sec, &ms) != 7)
		return -1;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	return (double)timegm(&tm) * 1000 + ms;
}

struct inst_acc {
	double t0_ms, ms;		/* the first interval's time, this one's */
	struct imp_sample s;
	double lat_sum[2], secs;
	unsigned nrows;
	const char *names[64];		/* workers in this interval */
};

static int inst_flush(struct imp *im, struct inst_acc *a, int64_t step_id)
{
	struct imp_sample *s = &a->s;

	if (!a->nrows)
		return 0;
	s->t = llround((a->ms - a->t0_ms) / 1000);
	for (int d = 0; d < 2; d++)
		s->lat_mean[d] = s->ops[d] ? a->lat_sum[d] / (double)s->ops[d] : NAN;
	s->lat_p99[0] = s->lat_p99[1] = NAN;
	s->occupancy = a->secs > 0 ? (a->lat_sum[0] + a->lat_sum[1]) / 1e6 / a->secs : NAN;
	a->nrows = 0;
	return imp_sample_insert(im, step_id, s);
}

/* One WORKER row into the interval it belongs to: a worker seen twice
 * starts the next interval. */
static int inst_row(struct imp *im, struct iom_inst *in, const struct iom_iblock *b,
		    const struct csvline *l, struct inst_acc *a, int64_t step_id)
{
	static const enum iom_col cols[] = { IC_IOS_R, IC_IOS_W, IC_BYTES_R, IC_BYTES_W, IC_ERR,
					     IC_AVG_R, IC_AVG_W, IC_MAX };
	const char *name = csvline_field(l, b->lo.idx[IC_NAME]);
	double v[8], secs, ms = inst_ms(csvline_field(l, 0));
	bool over = false;
	int rc;

	if (ms < 0)
		return imp_error_in(im, in->path, l->line, 1, "TimeStamp: '%s' is not "
				    "YYYY-MM-DD hh:mm:ss:ms", csvline_field(l, 0));
	for (unsigned k = 0; k < a->nrows; k++)
		if (!strcmp(a->names[k], name) && (rc = inst_flush(im, a, step_id)) < 0)
			return rc;
	for (unsigned k = 0; k < 8; k++)
		if (iom_col(im, in->path, l, &b->lo, cols[k], k < 5, &v[k]) < 0)
			return -EINVAL;
	if (iom_runtime_of(im, in->path, l, &b->lo, false, &secs) < 0)
		return -EINVAL;
	if (!a->nrows) {
		memset(&a->s, 0, sizeof(a->s));
		a->s.lat_max = NAN;
		a->lat_sum[0] = a->lat_sum[1] = a->secs = 0;
		a->ms = ms;
		if (a->t0_ms < 0)
			a->t0_ms = ms;
	}
	if (a->nrows < 64)
		a->names[a->nrows++] = name;
	for (int d = 0; d < 2; d++) {
		over |= __builtin_add_overflow(a->s.ops[d], llround(v[d]), &a->s.ops[d]);
		over |= __builtin_add_overflow(a->s.bytes[d], llround(v[2 + d]), &a->s.bytes[d]);
		if (!isnan(v[5 + d]))
			a->lat_sum[d] += v[5 + d] * 1000 * v[d];
	}
	over |= __builtin_add_overflow(a->s.errors, llround(v[4]), &a->s.errors);
	if (over)
		return imp_error_in(im, in->path, l->line, 1, "the interval's counts add up to "
				    "more than 2^63");
	if (!isnan(v[7]) && (isnan(a->s.lat_max) || v[7] * 1000 > a->s.lat_max))
		a->s.lat_max = v[7] * 1000;
	if (!isnan(secs))
		a->secs = secs;
	return 0;
}

int iom_inst_samples(struct imp *im, struct iom_inst *in, int test, int block,
		     const char *spec, int64_t step_id)
{
	const struct iom_iblock *b = NULL;
	struct inst_acc a = { .t0_ms = -1 };
	int rc = 0;

	while (in->next < in->nb && (in->b[in->next].test < test ||
				     (in->b[in->next].test == test && in->b[in->next].block < block)))
		in->next++;
	if (in->next < in->nb && in->b[in->next].test == test && in->b[in->next].block == block)
		b = &in->b[in->next];
	if (!b)
		return 0;
	for (size_t r = b->first; !rc && r < b->first + b->n; r++) {
		const struct csvline *l = &in->c.l[r];
		const char *type = csvline_field(l, 1);

		if (!strcmp(type, "ALL") && strcmp(csvline_field(l, b->lo.idx[IC_SPEC]), spec))
			return imp_error_in(im, in->path, l->line, l->col[b->lo.idx[IC_SPEC]],
					    "access specification '%s', but result %d of test %d "
					    "in '%s' is '%s'", csvline_field(l, b->lo.idx[IC_SPEC]),
					    block, test, im->path, spec);
		if (!strcmp(type, "WORKER") && !csvline_field(l, b->lo.idx[IC_SPEC])[0])
			rc = inst_row(im, in, b, l, &a, step_id);
	}
	return rc ? rc : inst_flush(im, &a, step_id);
}

void iom_inst_free(struct iom_inst *in)
{
	csvlines_free(&in->c);
	free(in->b);
	free(in->own);
	memset(in, 0, sizeof(*in));
}
