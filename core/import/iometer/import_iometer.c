/* Importing Iometer's results.csv: one run per test, one step per result
 * (its ALL row), the manager, worker and disk rows as step targets and
 * probes, and the per-interval rows of the inst file beside it as samples.
 * The format follows Iometer's writers (tests/fixtures/iometer/README.md). */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/csvlines.h"
#include "import/import.h"
#include "import/iometer/import_iometer.h"
#include "import/iometer/iometer.h"
#include "base/jsonpos.h"
#include "base/strbuf.h"
#include "base/utf8.h"
#include "base/util.h"

#define IOM_MAX_SPECS 64
#define IOM_MAX_LINES 100	/* MAX_ACCESS_SPECS */

struct iom_spec {
	char name[256];
	unsigned n;
	double line[IOM_MAX_LINES][8];	/* size, % of size, % reads, % random, delay, burst, align, reply */
};

struct iom {
	struct imp *im;
	struct csvlines c;
	size_t i;			/* the next line */
	struct iom_inst inst;		/* the inst file's blocks, when given */
	struct iom_spec *specs;		/* of the current test */
	unsigned nspecs;
	int64_t run_id;			/* of the current test, 0: none */
	int test, block, seq;		/* the current test (1-based), its result blocks, steps */
	bool open;			/* inside a test */
	unsigned open_specs;		/* line of 'Access specifications, until a result */
	unsigned open_result;		/* line of 'Results, until its 'Time Stamp */
	char version[64], desc[256], type[32], started[40], stamp[40], host[256];
	char label[512];
	struct iom_names seen;		/* probes recorded in this run */
	struct iom_names starts;	/* each test's first 'Time Stamp: its line, test */
};

static const struct csvline *iom_line(struct iom *m, size_t i)
{
	return i < m->c.n ? &m->c.l[i] : NULL;
}

static bool is_marker(const struct csvline *l, const char *what)
{
	return l && !strcmp(csvline_field(l, 0), what);
}

/* s, UTF-8 but for a character snprintf may have cut at its end, without
 * that character. */
static void iom_utf8_end(char *s)
{
	s[utf8_invalid_at(s, strlen(s))] = '\0';
}

/* The line after a marker: its whole text (Iometer writes one value), as
 * much as fits in out. */
static int iom_value(struct iom *m, const char *marker, char *out, size_t len)
{
	const struct csvline *l = iom_line(m, m->i + 1);
	const struct csvline *at = iom_line(m, m->i);
	size_t n = 0;

	if (!l || csvline_field(l, 0)[0] == '\'')
		return imp_error(m->im, l ? l->line : at->line + 1, 1,
				 "expected a value after the line \"%s\"", marker);
	for (unsigned k = 0; k < l->nf && n < len - 1; k++) {
		int w = snprintf(out + n, len - n, "%s%s", k ? "," : "", csvline_field(l, k));

		n = w < 0 ? len : n + (size_t)w;
	}
	out[len - 1] = '\0';
	iom_utf8_end(out);
	m->i += 2;
	return 0;
}

/* An access specification line: Access_Spec's fields (IOAccess.h), DWORD
 * or int, the percentages 0-100. */
static int iom_spec_line(struct iom *m, const struct csvline *l, double *v)
{
	static const struct {
		const char *name;
		struct iom_range r;
	} f[8] = {
		{ "size", { 0, UINT32_MAX, false, true } },
		{ "% of size", { 0, 100, false, true } },
		{ "% reads", { 0, 100, false, true } },
		{ "% random", { 0, 100, false, true } },
		{ "delay", { 0, INT_MAX, false, true } },
		{ "burst", { 0, INT_MAX, false, true } },
		{ "align", { 0, UINT32_MAX, false, true } },
		{ "reply", { 0, UINT32_MAX, false, true } },
	};
	char name[64];

	/* Iometer 1.1.0 ends the line with a comma (AccessSpecList::SaveResults
	 * since 2014): a ninth field, empty */
	if (l->nf != 8 && !(l->nf == 9 && !csvline_field(l, 8)[0]))
		return imp_error(m->im, l->line, l->nf < 8 ? l->end_col : l->col[8],
				 "an access specification line has 8 fields (size,%% of size,"
				 "%% reads,%% random,delay,burst,align,reply), not %u", l->nf);
	for (int k = 0; k < 8; k++) {
		snprintf(name, sizeof(name), "access specification, %s", f[k].name);
		if (iom_num(m->im, m->im->path, l, k, name, &f[k].r, true, &v[k]) < 0)
			return -EINVAL;
	}
	return 0;
}

/* 'Access specifications ... 'End access specifications: the specs of the
 * next result, each "'Access specification name,default assignment" then
 * its name and "'size,% of size,% reads,% random,delay,burst,align,reply" lines. */
static int iom_specs(struct iom *m)
{
	struct iom_spec *s = NULL;
	const struct csvline *l;

	m->nspecs = 0;
	m->open_specs = iom_line(m, m->i)->line;
	for (m->i++; (l = iom_line(m, m->i)) && !is_marker(l, "'End access specifications");
	     m->i++) {
		if (is_marker(l, "'Access specification name")) {
			const struct csvline *n = iom_line(m, m->i + 1);

			if (!n || csvline_field(n, 0)[0] == '\'' || m->nspecs == IOM_MAX_SPECS)
				return imp_error(m->im, l->line + 1, 1, "expected an access "
						 "specification's name and default assignment");
			s = &m->specs[m->nspecs++];
			memset(s, 0, sizeof(*s));
			snprintf(s->name, sizeof(s->name), "%s", csvline_field(n, 0));
			m->i++;
		} else if (is_marker(l, "'size")) {
			continue;
		} else if (s && csvline_field(l, 0)[0] != '\'') {
			if (s->n == IOM_MAX_LINES)
				return imp_error(m->im, l->line, 1, "more than %d lines in one "
						 "access specification", IOM_MAX_LINES);
			if (iom_spec_line(m, l, s->line[s->n]) < 0)
				return -EINVAL;
			s->n++;
		} else {
			return imp_error(m->im, l->line, 1, "unexpected line in the access "
					 "specifications");
		}
	}
	if (!l)
		return imp_error(m->im, m->c.n ? m->c.l[m->c.n - 1].line + 1 : 1, 1,
				 "truncated: no \"'End access specifications\" line");
	m->i++;
	return 0;
}

static const struct iom_spec *iom_find_spec(const struct iom *m, const char *name)
{
	for (unsigned k = 0; k < m->nspecs; k++)
		if (!strcmp(m->specs[k].name, name))
			return &m->specs[k];
	return NULL;
}

/* rw, bs ("4k" or "4k:60,64k:40") and write % of a spec, as a plan states them. */
static void iom_workload(const struct iom_spec *s, struct imp_step *st, char *rw, char *bs,
			 size_t bslen)
{
	double reads = 0, random = 0, total = 0;
	char sz[32];

	bs[0] = '\0';
	for (unsigned k = 0; k < s->n; k++) {
		double w = s->line[k][1];

		util_format_size((uint64_t)s->line[k][0], sz, sizeof(sz));
		if (s->n == 1)
			snprintf(bs, bslen, "%s", sz);
		else
			snprintf(bs + strlen(bs), bslen - strlen(bs), "%s%s:%.0f", k ? "," : "", sz, w);
		reads += w * s->line[k][2];
		random += w * s->line[k][3];
		total += w;
	}
	reads = total ? reads / total : 100;
	random = total ? random / total : 0;
	st->write_pct = (int)lround(100 - reads);
	snprintf(rw, 16, "%s%s", random >= 50 ? "rand" : "",
		 st->write_pct == 0 ? "read" : st->write_pct == 100 ? "write" : "rw");
	st->rw = rw;
}

/* params_json: the access specification as Iometer recorded it. */
static char *iom_params(const struct iom *m, const char *spec, const struct iom_spec *s,
			double qd)
{
	static const char *const keys[8] = { "size", "of_size", "reads", "random", "delay",
					     "burst", "align", "reply" };
	struct strbuf b = { 0 };

	sb_printf(&b, "{\"source\":\"iometer\",\"version\":");
	sb_json_str(&b, m->version);
	sb_printf(&b, ",\"access_spec\":");
	sb_json_str(&b, spec);
	sb_printf(&b, ",\"queue_depth\":%.0f,\"spec\":[", isnan(qd) ? -1 : qd);
	for (unsigned k = 0; s && k < s->n; k++) {
		sb_printf(&b, "%s{", k ? "," : "");
		for (int f = 0; f < 8; f++)
			sb_printf(&b, "%s\"%s\":%.15g", f ? "," : "", keys[f], s->line[k][f]);
		sb_printf(&b, "}");
	}
	sb_printf(&b, "]}");
	return sb_take(&b);
}

/* Record a name once per run as a probe: seen holds target, key and value
 * joined by NULs (which none of them holds), so two probes are one key
 * only when all three are equal. */
static int iom_probe_once(struct iom *m, const char *target, const char *key, const char *v)
{
	size_t tl = target ? strlen(target) + 1 : 0, kl = strlen(key) + 1, vl = strlen(v);
	char *tag = malloc(tl + kl + vl + 1);
	unsigned *val;
	int rc;

	if (!tag)
		return -ENOMEM;
	memcpy(tag, target ? target : "", tl);
	memcpy(tag + tl, key, kl);
	memcpy(tag + tl + kl, v, vl);
	rc = iom_names_add(&m->seen, tag, tl + kl + vl, &val);
	free(tag);
	if (rc)
		return rc < 0 ? rc : 0;
	return imp_probe_insert(m->im, m->run_id, target, "iometer", key, v);
}

/* The run time of a result, in s: Total Raw Run Time / Processor Speed of
 * its first MANAGER or WORKER row (the ALL row leaves both empty). */
static int iom_runtime(struct iom *m, const struct csvline *rows, size_t n,
		       const struct iom_layout *lo, double *secs)
{
	*secs = NAN;
	for (size_t k = 0; k < n; k++) {
		const struct csvline *l = &rows[k];

		if (!strcmp(csvline_field(l, 0), "MANAGER") || !strcmp(csvline_field(l, 0), "WORKER"))
			return iom_runtime_of(m->im, m->im->path, l, lo, true, secs);
	}
	return 0;
}

/* The measured columns of a row into a step (or its counts). */
static int iom_measures(struct iom *m, const struct csvline *l, const struct iom_layout *lo,
			struct imp_step *s)
{
	static const enum iom_col cols[] = { IC_IOPS, IC_RIOPS, IC_WIOPS, IC_MBPS_BIN, IC_AVG,
					     IC_MAX, IC_ERR, IC_BYTES_R, IC_BYTES_W, IC_IOS_R,
					     IC_IOS_W, IC_MBPS_DEC, IC_QD, IC_DISKS, IC_WORKERS };
	double v[sizeof(cols) / sizeof(cols[0])];

	for (unsigned k = 0; k < sizeof(cols) / sizeof(cols[0]); k++)
		if (iom_col(m->im, m->im->path, l, lo, cols[k], k < 11, &v[k]) < 0)
			return -EINVAL;
	/* both at most INT_MAX (iom_col), their product need not be */
	if (v[12] > 0 && v[13] > 0 && v[12] * v[13] > INT_MAX)
		return imp_error(m->im, l->line, l->col[lo->idx[IC_DISKS]], "%s: %.0f at %s %.0f "
				 "make %.0f outstanding I/Os, more than %d", iometer_col_name(lo, IC_DISKS),
				 v[13], iometer_col_name(lo, IC_QD), v[12], v[12] * v[13], INT_MAX);
	s->iops = v[0], s->read_iops = v[1], s->write_iops = v[2];
	/* before 1.1.0 Iometer's MBps were 2^20 bytes/s (MEGABYTE) */
	s->mbps = !isnan(v[11]) ? v[11] : v[3] * 1048576.0 / 1e6;
	s->lat_mean = v[4] * 1000, s->lat_max = v[5] * 1000;
	s->errors = llround(v[6]);
	s->read_bytes = llround(v[7]), s->write_bytes = llround(v[8]);
	s->read_ops = llround(v[9]), s->write_ops = llround(v[10]);
	s->oio = isnan(v[12]) || isnan(v[13]) || v[12] < 0 ? -1 : (int)lround(v[12] * v[13]);
	s->workers = isnan(v[14]) ? -1 : (int)lround(v[14]);
	return 0;
}

static int iom_row_targets(struct iom *m, int64_t step_id, const struct csvline *l,
			   const struct iom_layout *lo, const char *manager, const char *worker)
{
	struct imp_step c = { 0 };
	char *path;
	int rc;
	const char *type = csvline_field(l, 0), *name = csvline_field(l, lo->idx[IC_NAME]);
	bool disk = !strcmp(type, "DISK") || !strcmp(type, "NETWORK") || !strcmp(type, "UNKNOWN");
	int64_t counts[5];

	if (iom_measures(m, l, lo, &c) < 0)
		return -EINVAL;
	counts[0] = c.read_ops, counts[1] = c.write_ops, counts[2] = c.read_bytes;
	counts[3] = c.write_bytes, counts[4] = c.errors;
	if (disk) {
		const char *kind = !strncmp(name, "PHYSICALDRIVE", 13) || !strncmp(name, "/dev/", 5) ?
				   "block" : "file";

		if (imp_target_insert(m->im, m->run_id, name, kind, -1) < 0 ||
		    iom_probe_once(m, name, "worker", worker) < 0 ||
		    iom_probe_once(m, name, "manager", manager) < 0)
			return -EIO;
		return imp_step_target_add(m->im, step_id, name, counts);
	}
	path = util_strdup_printf("worker:%s/%s", manager, name);
	if (!path)
		return -ENOMEM;
	rc = imp_step_target_add(m->im, step_id, path, counts);
	free(path);
	return rc;
}

/* Every row after the ALL row: managers and processors as probes, workers
 * and disks as step targets. */
static int iom_rows(struct iom *m, int64_t step_id, const struct csvline *rows, size_t n,
		    const struct iom_layout *lo)
{
	const char *manager = "", *worker = "";

	for (size_t k = 0; k < n; k++) {
		const struct csvline *l = &rows[k];
		const char *type = csvline_field(l, 0), *name = csvline_field(l, lo->idx[IC_NAME]);
		int rc = 0;

		if (!strcmp(type, "MANAGER")) {
			manager = name;
			if (!m->host[0]) {
				snprintf(m->host, sizeof(m->host), "%s", name);
				iom_utf8_end(m->host);
			}
			rc = iom_probe_once(m, NULL, "manager", name);
		} else if (!strcmp(type, "PROCESSOR")) {
			rc = iom_probe_once(m, manager, "processor", name);
		} else if (!strcmp(type, "WORKER")) {
			worker = name;
			rc = iom_row_targets(m, step_id, l, lo, manager, worker);
		} else if (strcmp(type, "ALL")) {
			rc = iom_row_targets(m, step_id, l, lo, manager, worker);
		}
		if (rc < 0)
			return rc;
	}
	return 0;
}

static int iom_start_run(struct iom *m)
{
	struct imp_run r = { .source = "iometer", .status = "done", .version = m->version,
			     .started_at = m->started[0] ? m->started : NULL };
	/* the file's name as text (a byte that is not UTF-8 as U+FFFD, as the
	 * fio importer does); source_file keeps its bytes */
	char *path = utf8_replace_invalid(m->im->path, strlen(m->im->path)), *text, *label;
	const char *b = path ? strrchr(path, '/') : NULL;

	if (!path)
		return -ENOMEM;
	b = b ? b + 1 : path;
	text = util_strdup_printf("Iometer %s results, test %d%s%s, imported from %s",
				  m->version, m->test, m->desc[0] ? ": " : "", m->desc, path);
	if (m->im->label)
		label = util_strdup_printf(m->test > 1 ? "%s #%d" : "%s", m->im->label, m->test);
	else if (m->desc[0])
		label = util_strdup_printf("%s", m->desc);
	else
		label = util_strdup_printf(m->test > 1 ? "%s #%d" : "%s", b, m->test);
	r.plan_text = text;
	r.label = label;
	iom_names_clear(&m->seen);	/* the names of the run before */
	m->run_id = text && label ? imp_run_insert(m->im, &r) : 0;
	free(text);
	free(label);
	free(path);
	if (!m->run_id)
		return -ENOMEM;
	if (m->run_id < 0)
		return -EIO;
	if (imp_probe_insert(m->im, m->run_id, NULL, "iometer", "version", m->version) < 0 ||
	    imp_probe_insert(m->im, m->run_id, NULL, "iometer", "test_type", m->type) < 0 ||
	    imp_probe_insert(m->im, m->run_id, NULL, "iometer", "test_description", m->desc) < 0)
		return -EIO;
	return 0;
}

/* 'Results, its header and rows: one step. */
static int iom_result(struct iom *m)
{
	const struct csvline *h = iom_line(m, m->i + 1), *all = NULL, *rows, *l;
	struct imp_step s = { .status = "done", .write_pct = -1, .duration_s = -1 };
	struct iom_layout lo;
	const struct iom_spec *spec;
	char rw[16], bs[256], *params;
	double secs;
	size_t n = 0;
	int64_t step_id;
	int rc;

	if (!h || csvline_field(h, 0)[0] != '\'')
		return imp_error(m->im, h ? h->line : iom_line(m, m->i)->line + 1, 1,
				 "expected the results header after \"'Results\"");
	if ((rc = iom_header(m->im, h, 0, &lo, m->im->path)) < 0)
		return rc;
	m->open_result = h->line - 1;
	m->open_specs = 0;
	m->i += 2;
	rows = iom_line(m, m->i);
	while ((l = iom_line(m, m->i + n)) && csvline_field(l, 0)[0] != '\'' &&
	       strcmp(csvline_field(l, 0), "Aborted test")) {
		if ((rc = iom_check_row(m->im, m->im->path, l, &lo, 0)) < 0)
			return rc;
		if (!strcmp(csvline_field(l, 0), "ALL") && !all)
			all = l;
		n++;
	}
	m->i += n;
	if (!all)
		return imp_error(m->im, h->line, 1, "a result without its ALL row");
	if (!m->run_id && (rc = iom_start_run(m)) < 0)
		return rc;
	if ((rc = iom_measures(m, all, &lo, &s)) < 0 || (rc = iom_runtime(m, rows, n, &lo, &secs)) < 0)
		return rc;
	s.name = s.group = csvline_field(all, lo.idx[IC_SPEC]);
	spec = iom_find_spec(m, s.name);
	if (spec)
		iom_workload(spec, &s, rw, bs, sizeof(bs));
	s.bs = spec ? bs : NULL;
	s.lat_p50 = s.lat_p99 = s.lat_p999 = NAN;
	if (!isnan(secs))
		s.window_s = secs, s.duration_s = secs < 1 ? 1 : (int)lround(secs);
	else
		s.window_s = NAN;
	s.engine = "iometer";
	{
		double qd;

		iom_col(m->im, m->im->path, all, &lo, IC_QD, false, &qd);
		params = iom_params(m, s.name, spec, qd);
	}
	s.params_json = params;
	step_id = imp_step_insert(m->im, m->run_id, ++m->seq, &s);
	free(params);
	if (step_id < 0)
		return -EIO;
	m->block++;
	if ((rc = iom_rows(m, step_id, rows, n, &lo)) < 0)
		return rc;
	return iom_inst_samples(m->im, &m->inst, m->test, m->block, s.name, step_id);
}

static int iom_end_test(struct iom *m, const char *status)
{
	char end[40];

	if (!m->open)
		return 0;
	if (!m->run_id && iom_start_run(m) < 0)
		return -EIO;
	iom_time(m->stamp, end, sizeof(end));
	if (imp_run_end(m->im, m->run_id, status, m->stamp[0] ? end : NULL,
			m->host[0] ? m->host : NULL) < 0 ||
	    imp_mark_oio_sweeps(m->im, m->run_id) < 0 ||
	    (!strcmp(status, "done") && imp_run_planned(m->im, m->run_id) < 0))
		return -EIO;
	if (!strcmp(status, "aborted") &&
	    imp_event_insert(m->im, m->run_id, m->stamp[0] ? end : m->started, "warning",
			     "Iometer: Aborted test") < 0)
		return -EIO;
	m->open = false;
	return 0;
}

/* Iometer 1.1.0 ends every test with 'End Test or Aborted test; dated
 * versions (2006.07.27, 2008.06.18-RC2) end with the last result. */
static bool iom_writes_end(const struct iom *m)
{
	return strncmp(m->version, "19", 2) && strncmp(m->version, "20", 2);
}

/* A dated version's test, ending at line at (the next test, or the file's
 * end), is whole when its last result is: Iometer writes a result's rows,
 * then "'Time Stamp" and the time (ManagerList::SaveResults, since
 * 2003.05.10), and the specifications of a result just before it. */
static int iom_check_whole(struct iom *m, unsigned at)
{
	bool stamps = strcmp(m->version, "2003.05.10") >= 0;

	if (m->open_result && stamps)
		return imp_error(m->im, at, 1, "truncated: result %d of test %d (\"'Results\" at "
				 "line %u) has no closing \"'Time Stamp\" line (Iometer %s writes "
				 "one after each result's rows)", m->block, m->test, m->open_result,
				 m->version);
	if (m->open_specs)
		return imp_error(m->im, at, 1, "truncated: test %d has no result after its "
				 "access specifications (line %u)", m->test, m->open_specs);
	if (!m->block)
		return imp_error(m->im, at, 1, "truncated: test %d has no result "
				 "(\"'Results\")", m->test);
	return 0;
}

static int iom_test_start(struct iom *m)
{
	char line[300], *comma;
	int rc = 0;

	if (m->open && !iom_writes_end(m))	/* before 1.1.0: no 'End Test */
		rc = iom_check_whole(m, iom_line(m, m->i)->line);
	if (rc < 0 || (rc = iom_end_test(m, "done")) < 0 ||
	    (rc = iom_value(m, "'Test Type,Test Description", line, sizeof(line))) < 0)
		return rc;
	comma = strchr(line, ',');
	snprintf(m->desc, sizeof(m->desc), "%s", comma ? comma + 1 : "");
	iom_utf8_end(m->desc);
	if (comma)
		*comma = '\0';
	snprintf(m->type, sizeof(m->type), "%.31s", line);
	iom_utf8_end(m->type);
	m->test++;
	m->open = true;
	m->run_id = 0;
	m->seq = m->block = 0;
	m->nspecs = 0;
	m->open_specs = m->open_result = 0;
	m->host[0] = m->stamp[0] = m->started[0] = m->version[0] = '\0';
	return 0;
}

/* Iometer stamps each test's start to the millisecond: two tests that start
 * at the same time are one test twice (a file joined to itself). */
static int iom_start_once(struct iom *m, unsigned line)
{
	unsigned *first;
	int rc = iom_names_add(&m->starts, m->stamp, strlen(m->stamp), &first);

	if (rc < 0)
		return rc;
	if (rc)
		return imp_error(m->im, line, 1, "test %d starts at %s, as test %u does "
				 "(line %u): the file holds the same test twice", m->test,
				 m->stamp, first[1], first[0]);
	first[0] = line;
	first[1] = (unsigned)m->test;
	return 0;
}

static int iom_line_step(struct iom *m, const struct csvline *l)
{
	const char *f = csvline_field(l, 0);

	if (!strcmp(f, "'Test Type"))
		return iom_test_start(m);
	if (!m->open)
		return imp_error(m->im, l->line, 1, "%s", IOMETER_NOT_RESULTS);
	if (!strcmp(f, "'Version"))
		return iom_value(m, f, m->version, sizeof(m->version));
	if (!strcmp(f, "'Time Stamp")) {
		int rc = iom_value(m, f, m->stamp, sizeof(m->stamp));

		m->open_result = 0;

		if (!rc && !m->started[0]) {
			iom_time(m->stamp, m->started, sizeof(m->started));
			rc = iom_start_once(m, l->line + 1);
		}
		return rc;
	}
	if (!strcmp(f, "'Access specifications"))
		return iom_specs(m);
	if (!strcmp(f, "'Results"))
		return iom_result(m);
	if (!strcmp(f, "'End Test") || !strcmp(f, "Aborted test")) {
		m->i++;
		return iom_end_test(m, f[0] == '\'' ? "done" : "aborted");
	}
	return imp_error(m->im, l->line, 1, "unexpected line '%.40s' in an Iometer results file", f);
}

static int iom_import(struct iom *m)
{
	const struct csvline *l;
	int rc = 0;

	while (!rc && (l = iom_line(m, m->i)))
		rc = iom_line_step(m, l);
	if (rc)
		return rc;
	if (m->open && iom_writes_end(m))
		return imp_error(m->im, m->c.n ? m->c.l[m->c.n - 1].line + 1 : 1, 1, "truncated: "
				 "test %d has no \"'End Test\" or \"Aborted test\" line (Iometer %s "
				 "ends each test with one)", m->test, m->version);
	if (m->open && (rc = iom_check_whole(m, m->c.l[m->c.n - 1].line + 1)) < 0)
		return rc;
	if (!m->test)
		return imp_error(m->im, 1, 1, "no \"'Test Type\" line: is this Iometer's results.csv?");
	return iom_end_test(m, "done");
}

int db_import_iometer(struct imp *im)
{
	struct iom m = { .im = im };
	unsigned first, col;
	int rc;
	const char *nul = memchr(im->text, '\0', im->len);
	const char *why = iometer_head_refusal(im->text, im->len, false, &first);

	if (why)
		return imp_error(im, first, 1, "%s", why);
	/* imp_read refuses a NUL byte; text from a caller that did not (a fuzz
	 * target) would have its fields cut there */
	if (nul) {
		jsonpos_linecol(im->text, (size_t)(nul - im->text), &first, &col);
		return imp_error(im, first, col, "a NUL byte: binary data, not Iometer's results");
	}
	m.specs = calloc(IOM_MAX_SPECS, sizeof(*m.specs));
	if (!m.specs || csvlines_read(&m.c, im->text, im->len, 0) < 0) {
		rc = -ENOMEM;
		goto out;
	}
	rc = iom_inst_load(im, &m.inst);
	if (!rc)
		rc = iom_import(&m);
out:
	iom_inst_free(&m.inst);
	csvlines_free(&m.c);
	iom_names_clear(&m.seen);
	iom_names_clear(&m.starts);
	free(m.specs);
	return rc;
}
