/* fio's interval logs, averaged into whole seconds (see fiolog.h). */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/fio/fiolog.h"

static const char *const kind_names[FIOLOG_KINDS] = { "iops", "bw", "lat", "clat", "slat" };

const char *fiolog_kind_name(enum fiolog_kind k)
{
	return kind_names[k];
}

const char *fiolog_option(enum fiolog_kind k)
{
	return k == FIOLOG_IOPS ? "write_iops_log" : k == FIOLOG_BW ? "write_bw_log" :
	       "write_lat_log";
}

bool fiolog_name_parse(const char *path, struct fiolog_name *n)
{
	const char *base = strrchr(path, '/'), *us, *dot;
	size_t len;

	base = base ? base + 1 : path;
	len = strlen(base);
	if (len < 8 || strcmp(base + len - 4, ".log"))
		return false;
	dot = base + len - 4;	/* ".log" */
	us = dot;
	while (us > base && isdigit((unsigned char)us[-1]))
		us--;
	if (us == dot || us == base || us[-1] != '.')
		return false;
	n->job = (unsigned)strtoul(us, NULL, 10);
	dot = us - 1;		/* the '.' before N */
	for (int k = 0; k < FIOLOG_KINDS; k++) {
		size_t kl = strlen(kind_names[k]);
		const char *p = dot - kl;

		if (p - 1 <= base || p[-1] != '_' || strncmp(p, kind_names[k], kl))
			continue;
		if ((size_t)(p - 1 - base) >= sizeof(n->prefix))
			return false;
		snprintf(n->prefix, sizeof(n->prefix), "%.*s", (int)(p - 1 - base), base);
		n->kind = (enum fiolog_kind)k;
		return n->job > 0;
	}
	return false;
}

static int sec_grow(struct fiolog *l, size_t t)
{
	struct fiolog_sec *p;

	if (t < l->nsec)
		return 0;
	p = realloc(l->sec, (t + 1) * sizeof(*p));
	if (!p)
		return -ENOMEM;
	memset(p + l->nsec, 0, (t + 1 - l->nsec) * sizeof(*p));
	l->sec = p;
	l->nsec = t + 1;
	return 0;
}

/* One line's fields: integers separated by commas; 0 or the bad field's offset + 1. */
static size_t parse_fields(const char *s, size_t len, long long *v, int *nv)
{
	size_t i = 0;

	*nv = 0;
	while (i < len) {
		char *end;

		while (i < len && (s[i] == ' ' || s[i] == '\t'))
			i++;
		if (*nv == 6 || i >= len || !(isdigit((unsigned char)s[i]) || s[i] == '-'))
			return i + 1;
		errno = 0;
		v[(*nv)++] = strtoll(s + i, &end, 10);
		if (errno || (size_t)(end - s) > len)
			return i + 1;
		i = (size_t)(end - s);
		while (i < len && (s[i] == ' ' || s[i] == '\t'))
			i++;
		if (i < len && s[i] != ',')
			return i + 1;
		if (i < len && ++i >= len)
			return i + 1;	/* a trailing comma */
	}
	return 0;
}

/* A log's times: msec since the job began; a Unix epoch time (fio's
 * log_unix_epoch=1) is far beyond any run, and would make a second each. */
#define FIOLOG_MAX_MS (31LL * 24 * 3600 * 1000)

/* ms an IOPS or bandwidth entry may come after the job's end: fio writes an
 * entry it computed but had not written yet when it closes the log, a
 * moment after it timed the job. A latency log's last entry can come
 * hundreds of ms later still (after a verify, after a short job), which is
 * why latency entries are not held to it: a second with latency alone is no
 * sample. */
#define FIOLOG_END_SLACK_MS 500

static const char *const dir_names[2] = { "read", "write" };

/* One file's state: per direction, the second and msec of the previous
 * entry (-1: none) and its line; late: an entry came in the second of the
 * one before (fio's flush of a last, partial interval when the job ends),
 * which counts as the next second. */
struct fiolog_file {
	enum fiolog_kind k;
	const struct fiolog_fit *fit;
	long long last[2], last_ms[2];
	unsigned last_line[2];
	bool late[2];
};

static int fault(struct fiolog_fault *e, unsigned col, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fault(struct fiolog_fault *e, unsigned col, const char *fmt, ...)
{
	va_list ap;

	e->col = col;
	va_start(ap, fmt);
	vsnprintf(e->what, sizeof(e->what), fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* An entry that does not fit the job its JSON describes. */
static int entry_misfit(const struct fiolog_file *ff, const long long v[6],
			struct fiolog_fault *e)
{
	const struct fiolog_fit *fit = ff->fit;
	int d = (int)v[2];

	if (!fit)
		return 0;
	if (!fit->io[d])
		return fault(e, 1, "a %s entry, but %s did no %ss (its JSON's %s total_ios is 0): "
			     "a log of another job?", dir_names[d], fit->who, dir_names[d],
			     dir_names[d]);
	if ((ff->k == FIOLOG_IOPS || ff->k == FIOLOG_BW) &&
	    v[0] > fit->end_ms + FIOLOG_END_SLACK_MS)
		return fault(e, 1, "an entry at %lld ms, after %s's end (%lld ms: the longest of "
			     "its runtimes in its JSON): a log of a longer run?", v[0], fit->who,
			     fit->end_ms);
	if (!isnan(fit->lat_min[d]) && ((double)v[1] < fit->lat_min[d] ||
					 (double)v[1] > fit->lat_max[d]))
		return fault(e, 1, "a %s latency of %lld ns, outside %s's range in its JSON "
			     "(%.0f to %.0f ns): a log of another run?", kind_names[ff->k], v[1],
			     fit->who, fit->lat_min[d], fit->lat_max[d]);
	return 0;
}

/* The second of an entry: fio writes one at or after its interval's end
 * (the first I/O that completes then), 1000 ms on from the last whole
 * second: whole seconds down, so that an entry a stall delayed (3500 after
 * 1000) keeps its second and the next (4001) its own. */
static int entry_second(struct fiolog_file *ff, const long long v[6], unsigned line,
			long long *t, struct fiolog_fault *e)
{
	int d = (int)v[2];

	if (v[0] < ff->last_ms[d])
		return fault(e, 1, "out of order: an entry at %lld ms after one at %lld ms "
			     "(line %u); fio writes a log's %s entries in time order", v[0],
			     ff->last_ms[d], ff->last_line[d], dir_names[d]);
	*t = v[0] / 1000 - 1;
	if (*t < 0)
		*t = 0;
	if (*t == ff->last[d] && !ff->late[d]) {	/* a last, partial interval at the end */
		(*t)++;
		ff->late[d] = true;
	} else if (*t <= ff->last[d]) {
		return fault(e, 1, "a second entry in one second: fio logged more often than once "
			     "a second (log_avg_msec unset logs every I/O): rerun fio with "
			     "--log_avg_msec=1000");
	}
	ff->last[d] = *t;
	ff->last_ms[d] = v[0];
	ff->last_line[d] = line;
	return 0;
}

static int add_line(struct fiolog *l, struct fiolog_file *ff, const char *s, size_t len,
		    unsigned line, struct fiolog_fault *e)
{
	long long v[6], t = 0;
	int nv, rc, d;
	size_t bad = parse_fields(s, len, v, &nv);

	if (bad)
		return fault(e, (unsigned)bad, "expected an integer field (msec, value, dir, bs, "
			     "offset[, prio])");
	if (nv < 4)
		return fault(e, (unsigned)len + 1, "missing columns: expected msec, value, dir, "
			     "bs[, offset[, prio]]");
	if (v[0] < 0 || v[1] < 0 || v[2] < 0 || v[2] > 2)
		return fault(e, 1, "a negative time or value, or a direction other than 0, 1, 2");
	if (v[2] == 2)		/* trims: hbatest has no such direction */
		return 0;
	if (v[0] > FIOLOG_MAX_MS)
		return fault(e, 1, "a time beyond 31 days: a Unix epoch time (log_unix_epoch=1)? "
			     "hbatest reads msec since the job began: rerun fio without "
			     "log_unix_epoch");
	if ((rc = entry_misfit(ff, v, e)) < 0 || (rc = entry_second(ff, v, line, &t, e)) < 0)
		return rc;
	if (sec_grow(l, (size_t)t) < 0) {
		fault(e, 1, "out of memory");
		return -ENOMEM;
	}
	d = (int)v[2];
	l->seconds[ff->k] += !l->sec[t].n[ff->k][0] && !l->sec[t].n[ff->k][1];
	l->sec[t].sum[ff->k][d] += (double)v[1];
	l->sec[t].n[ff->k][d]++;
	l->sec[t].line[ff->k][d] = line;
	l->entries[ff->k][d]++;
	l->total[ff->k][d] += (double)v[1];
	if ((double)v[1] > l->max[ff->k][d])
		l->max[ff->k][d] = (double)v[1];
	return 0;
}

int fiolog_add(struct fiolog *l, enum fiolog_kind k, const char *text,
	       const struct fiolog_fit *fit, struct fiolog_fault *e)
{
	struct fiolog_file ff = { .k = k, .fit = fit, .last = { -1, -1 }, .last_ms = { -1, -1 } };
	const char *s = text;

	for (e->line = 1; *s; e->line++) {
		size_t len = strcspn(s, "\n");
		size_t cut = len && s[len - 1] == '\r' ? len - 1 : len;
		int rc = cut ? add_line(l, &ff, s, cut, e->line, e) : 0;

		if (rc)
			return rc;
		s += len + (s[len] == '\n');
	}
	return 0;
}

int fiolog_merge(struct fiolog *dst, const struct fiolog *src)
{
	if (src->nsec && sec_grow(dst, src->nsec - 1) < 0)
		return -ENOMEM;
	for (size_t t = 0; t < src->nsec; t++) {
		for (int k = 0; k < FIOLOG_KINDS; k++) {
			for (int d = 0; d < 2; d++) {
				if (!src->sec[t].n[k][d])
					continue;
				dst->sec[t].sum[k][d] += src->sec[t].sum[k][d];
				dst->sec[t].n[k][d] += src->sec[t].n[k][d];
				dst->sec[t].line[k][d] = src->sec[t].line[k][d];
			}
		}
	}
	for (int k = 0; k < FIOLOG_KINDS; k++) {
		dst->seconds[k] += src->seconds[k];
		for (int d = 0; d < 2; d++) {
			dst->entries[k][d] += src->entries[k][d];
			dst->total[k][d] += src->total[k][d];
			if (src->max[k][d] > dst->max[k][d])
				dst->max[k][d] = src->max[k][d];
		}
	}
	return 0;
}

bool fiolog_value(const struct fiolog *l, size_t t, enum fiolog_kind k, int d, double *v)
{
	if (t >= l->nsec || !l->sec[t].n[k][d])
		return false;
	*v = l->sec[t].sum[k][d];
	if (k != FIOLOG_IOPS && k != FIOLOG_BW)
		*v /= l->sec[t].n[k][d];
	return true;
}

void fiolog_free(struct fiolog *l)
{
	free(l->sec);
	memset(l, 0, sizeof(*l));
}
