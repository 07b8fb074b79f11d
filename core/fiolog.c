/* fio's interval logs, averaged into whole seconds (see fiolog.h). */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fiolog.h"

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

/* last[d]: the second of the direction's previous entry in this file, -1 none;
 * late[d]: an entry came in the second of the one before (fio's flush of a
 * last, partial interval when the job ends), which counts as the next second. */
static int add_line(struct fiolog *l, enum fiolog_kind k, const char *s, size_t len,
		    long long last[2], bool late[2], unsigned *col, const char **what)
{
	long long v[6];
	int nv;
	size_t bad = parse_fields(s, len, v, &nv);
	long long t;

	if (bad) {
		*col = (unsigned)bad;
		*what = "expected an integer field (msec, value, dir, bs, offset[, prio])";
		return -EINVAL;
	}
	if (nv < 4) {
		*col = (unsigned)len + 1;
		*what = "missing columns: expected msec, value, dir, bs[, offset[, prio]]";
		return -EINVAL;
	}
	if (v[0] < 0 || v[1] < 0 || v[2] < 0 || v[2] > 2) {
		*col = 1;
		*what = "a negative time or value, or a direction other than 0, 1, 2";
		return -EINVAL;
	}
	if (v[2] == 2)		/* trims: hbatest has no such direction */
		return 0;
	if (v[0] > FIOLOG_MAX_MS) {
		*col = 1;
		*what = "a time beyond 31 days: a Unix epoch time (log_unix_epoch=1)? hbatest reads "
			"msec since the job began: rerun fio without log_unix_epoch";
		return -EINVAL;
	}
	/* fio writes an entry at or after its interval's end (the first I/O
	 * that completes then), 1000 ms on from the last whole second: whole
	 * seconds down, so that an entry a stall delayed (3500 after 1000)
	 * keeps its second and the next (4001) its own */
	t = v[0] / 1000 - 1;
	if (t < 0)
		t = 0;
	if (t == last[v[2]] && !late[v[2]]) {	/* a last, partial interval at the job's end */
		t++;
		late[v[2]] = true;
	} else if (t <= last[v[2]]) {
		*col = 1;
		*what = "a second entry in one second: fio logged more often than once a second "
			"(log_avg_msec unset logs every I/O): rerun fio with --log_avg_msec=1000";
		return -EINVAL;
	}
	last[v[2]] = t;
	if (sec_grow(l, (size_t)t) < 0) {
		*col = 1;
		*what = "out of memory";
		return -ENOMEM;
	}
	l->sec[t].sum[k][v[2]] += (double)v[1];
	l->sec[t].n[k][v[2]]++;
	return 0;
}

int fiolog_add(struct fiolog *l, enum fiolog_kind k, const char *text, unsigned *line,
	       unsigned *col, const char **what)
{
	const char *s = text;
	long long last[2] = { -1, -1 };
	bool late[2] = { false, false };

	for (*line = 1; *s; (*line)++) {
		size_t len = strcspn(s, "\n");
		size_t cut = len && s[len - 1] == '\r' ? len - 1 : len;
		int rc = cut ? add_line(l, k, s, cut, last, late, col, what) : 0;

		if (rc)
			return rc;
		s += len + (s[len] == '\n');
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
	l->sec = NULL;
	l->nsec = 0;
}
