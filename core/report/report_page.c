/* The report's pages made self-contained: each chart marker the report
 * program wrote becomes an <img> whose image is inside the page (base64),
 * so index.html can be mailed as one file and opens with no network. */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/report_page.h"
#include "base/strbuf.h"
#include "base/util.h"

#define MARK "<!--hbatest:chart "

static int base64(struct strbuf *b, const unsigned char *p, size_t n)
{
	static const char tab[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	char *q = malloc((n + 2) / 3 * 4 + 1), *o = q;

	if (!q)
		return -ENOMEM;
	for (size_t i = 0; i < n; i += 3) {
		unsigned v = (unsigned)p[i] << 16 | (i + 1 < n ? (unsigned)p[i + 1] << 8 : 0) |
			     (i + 2 < n ? p[i + 2] : 0);

		*o++ = tab[v >> 18 & 63];
		*o++ = tab[v >> 12 & 63];
		*o++ = i + 1 < n ? tab[v >> 6 & 63] : '=';
		*o++ = i + 2 < n ? tab[v & 63] : '=';
	}
	*o = '\0';
	sb_printf(b, "%s", q);
	free(q);
	return 0;
}

static bool chart_name_ok(const char *name)
{
	size_t n = strlen(name);

	return n > 4 && n < 100 && name[strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789-.")] == '\0' &&
	       !strstr(name, "..") && (!strcmp(name + n - 4, ".svg") || !strcmp(name + n - 4, ".png"));
}

/* alt as an attribute's text: it comes as HTML (report_chart.c's marker),
 * and a quote or bracket a report program left in it is made an entity. */
static void add_alt(struct strbuf *b, const char *alt)
{
	for (const char *p = alt; *p; p++) {
		if (*p == '"')
			sb_printf(b, "%s", "&quot;");
		else if (*p == '<')
			sb_printf(b, "%s", "&lt;");
		else if (*p == '>')
			sb_printf(b, "%s", "&gt;");
		else
			sb_printf(b, "%c", *p);
	}
}

/* path's text made b's; 0 or -EIO with err. */
static int write_all(const char *path, const struct strbuf *b, char *err, size_t len)
{
	FILE *f = fopen(path, "w");
	bool ok = f && fwrite(b->s ? b->s : "", 1, b->len, f) == b->len;

	if (f && fclose(f))
		ok = false;
	if (!ok) {
		snprintf(err, len, "cannot write '%s': %s", path, strerror(errno));
		return -EIO;
	}
	return 0;
}

#define SVG_TITLE "<title>Gnuplot</title>"

/* charts/NN-name.svg titled with alt (gnuplot titles every SVG "Gnuplot"),
 * whichever image the page shows; nothing when there is no such SVG. */
static int title_svg(const char *dir, const char *name, const char *alt, char *err, size_t len)
{
	char path[PATH_MAX];
	struct strbuf b = { 0 };
	char *text, *t;
	size_t n;
	int rc;

	snprintf(path, sizeof(path), "%s/charts/%.*s.svg", dir, (int)(strlen(name) - 4), name);
	text = util_read_file(path, &n);
	if (!text || !(t = strstr(text, SVG_TITLE))) {
		free(text);
		return 0;
	}
	sb_printf(&b, "%.*s<title>", (int)(t - text), text);
	add_alt(&b, alt);
	sb_printf(&b, "</title>%s", t + strlen(SVG_TITLE));
	rc = write_all(path, &b, err, len);
	free(text);
	sb_free(&b);
	return rc;
}

/* alt: the marker's text after the name (the chart's title and what it
 * shows), else the name. */
static int embed_one(struct strbuf *out, const char *dir, const char *name, const char *alt,
		     bool rendered, char *err, size_t len)
{
	char path[PATH_MAX];
	size_t n;
	unsigned char *img;
	int rc;
	bool svg = !strcmp(name + strlen(name) - 4, ".svg");

	if (!rendered) {
		sb_printf(out, "<p class=\"nochart\">chart not rendered (--no-charts): "
			  "<code>charts/%.*s.gp</code></p>", (int)(strlen(name) - 4), name);
		return 0;
	}
	snprintf(path, sizeof(path), "%s/charts/%.*s.log", dir, (int)(strlen(name) - 4), name);
	if (access(path, F_OK) == 0) {	/* gnuplot failed on it: say so, keep the page */
		sb_printf(out, "<p class=\"nochart failed\">chart not drawn: gnuplot failed on "
			  "<code>charts/%.*s.gp</code> (its messages: <code>charts/%.*s.log</code>)</p>",
			  (int)(strlen(name) - 4), name, (int)(strlen(name) - 4), name);
		return 0;
	}
	if (*alt && (rc = title_svg(dir, name, alt, err, len)) < 0)
		return rc;
	snprintf(path, sizeof(path), "%s/charts/%s", dir, name);
	img = (unsigned char *)util_read_file(path, &n);
	if (!img) {
		snprintf(err, len, "gnuplot wrote no 'charts/%s': %s", name, strerror(errno));
		return -EIO;
	}
	sb_printf(out, "%s", "<img class=\"chart\" alt=\"");
	add_alt(out, *alt ? alt : name);
	sb_printf(out, "\" src=\"data:image/%s;base64,", svg ? "svg+xml" : "png");
	rc = base64(out, img, n);
	sb_printf(out, "\">");
	free(img);
	return rc;
}

static int embed_file(const char *dir, const char *file, bool rendered, char *err, size_t len)
{
	char path[PATH_MAX];
	struct strbuf out = { 0 };
	size_t n;
	char *text, *p, *m;
	int rc = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	text = util_read_file(path, &n);
	if (!text) {
		snprintf(err, len, "cannot read '%s': %s", path, strerror(errno));
		return -errno;
	}
	for (p = text; !rc && (m = strstr(p, MARK)); ) {
		char name[128], *alt;
		char *end = strstr(m, "-->");
		size_t nlen;

		sb_printf(&out, "%.*s", (int)(m - p), p);
		if (!end)
			break;
		m += strlen(MARK);
		nlen = strcspn(m, " ");	/* the name ends at a space or at "-->" */
		nlen = m + nlen > end ? (size_t)(end - m) : nlen;
		if (nlen >= sizeof(name))
			break;
		snprintf(name, sizeof(name), "%.*s", (int)nlen, m);
		alt = strndup(m + nlen + (m[nlen] == ' '), (size_t)(end - m) - nlen - (m[nlen] == ' '));
		p = end + 3;
		if (!alt)
			rc = -ENOMEM;
		else if (!chart_name_ok(name))
			sb_printf(&out, "<!-- not a chart: %s -->", "?");
		else
			rc = embed_one(&out, dir, name, alt, rendered, err, len);
		free(alt);
	}
	if (!rc) {
		sb_printf(&out, "%s", p);
		rc = write_all(path, &out, err, len);
	}
	free(text);
	sb_free(&out);
	return rc;
}

int report_page_embed(const char *dir, bool rendered, char *err, size_t len)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int rc = 0;

	if (!d) {
		snprintf(err, len, "cannot open '%s': %s", dir, strerror(errno));
		return -errno;
	}
	while (!rc && (e = readdir(d))) {
		size_t n = strlen(e->d_name);

		if (n > 5 && !strcmp(e->d_name + n - 5, ".html"))
			rc = embed_file(dir, e->d_name, rendered, err, len);
	}
	closedir(d);
	return rc;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path);
}

int report_remove_tree(const char *dir)
{
	return nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS) ? -errno : 0;
}
