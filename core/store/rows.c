/* Writing a statement's rows: an aligned table for a person; CSV (libcsv),
 * TSV and JSON for programs, whose numbers are exact (the shortest %.Ng that
 * reads back as the same double) and whose NULL stays told apart from empty
 * text. */
#include <assert.h>
#include <csv.h>
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "store/rows.h"
#include "base/strbuf.h"
#include "base/utf8.h"

int rows_format_parse(const char *name, enum rows_format *fmt)
{
	static const char *const names[] = {
		[ROWS_TABLE] = "table", [ROWS_CSV] = "csv", [ROWS_TSV] = "tsv",
		[ROWS_JSON] = "json",
	};

	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(name, names[i])) {
			*fmt = (enum rows_format)i;
			return 0;
		}
	}
	return -EINVAL;
}

/* The fewest digits (15 to 17) that read back as d: 18278.6, not
 * 18278.599999999999. An infinity has no such form that JSON or Python reads
 * back: 1e999 overflows to it in both. (SQLite stores NaN as NULL.) */
static void put_real(FILE *out, double d)
{
	char buf[32];

	if (isinf(d)) {
		fputs(d > 0 ? "1e999" : "-1e999", out);
		return;
	}
	for (int digits = 15; digits <= 17; digits++) {
		snprintf(buf, sizeof(buf), "%.*g", digits, d);
		if (strtod(buf, NULL) == d)
			break;
	}
	fputs(buf, out);
}

static void put_number(FILE *out, sqlite3_stmt *st, int c)
{
	if (sqlite3_column_type(st, c) == SQLITE_INTEGER)
		fprintf(out, "%lld", (long long)sqlite3_column_int64(st, c));
	else
		put_real(out, sqlite3_column_double(st, c));
}

static bool is_number(sqlite3_stmt *st, int c)
{
	int t = sqlite3_column_type(st, c);

	return t == SQLITE_INTEGER || t == SQLITE_FLOAT;
}

void rows_json_string(FILE *out, const char *s, size_t n)
{
	struct strbuf b = { 0 };

	sb_json_strn(&b, s, n, SB_JSON_FFFD);
	fwrite(b.s, 1, b.len, out);
	sb_free(&b);
}

static void json_value(FILE *out, sqlite3_stmt *st, int c)
{
	if (sqlite3_column_type(st, c) == SQLITE_NULL)
		fputs("null", out);
	else if (is_number(st, c))
		put_number(out, st, c);
	else
		rows_json_string(out, (const char *)sqlite3_column_text(st, c),
				 (size_t)sqlite3_column_bytes(st, c));
}

static int64_t rows_end(struct db *db, int rc, int64_t n)
{
	if (rc == SQLITE_DONE)
		return n;
	snprintf(db->err, sizeof(db->err), "%s", sqlite3_errmsg(db->h));
	return -EIO;
}

int64_t db_rows_json_array(struct db *db, sqlite3_stmt *st, FILE *out)
{
	int ncols = sqlite3_column_count(st), rc;
	int64_t n = 0;

	fputc('[', out);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		fputs(n++ ? ",\n{" : "\n{", out);
		for (int c = 0; c < ncols; c++) {
			const char *name = sqlite3_column_name(st, c);

			if (c)
				fputs(", ", out);
			rows_json_string(out, name, strlen(name));
			fputs(": ", out);
			json_value(out, st, c);
		}
		fputc('}', out);
	}
	fputs(n ? "\n]" : "]", out);
	return rows_end(db, rc, n);
}

/* CSV: text always quoted (libcsv doubles the quotes inside), numbers bare,
 * NULL an empty field without quotes: "" is empty text. */
static void csv_field(FILE *out, sqlite3_stmt *st, int c)
{
	if (sqlite3_column_type(st, c) == SQLITE_NULL)
		return;
	if (is_number(st, c))
		put_number(out, st, c);
	else
		csv_fwrite(out, sqlite3_column_text(st, c), (size_t)sqlite3_column_bytes(st, c));
}

/* TSV: a tab between fields; tab, newline, carriage return and backslash
 * inside a value written \t, \n, \r, \\; NULL is an empty field. */
static void tsv_text(FILE *out, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		switch (s[i]) {
		case '\t':
			fputs("\\t", out);
			break;
		case '\n':
			fputs("\\n", out);
			break;
		case '\r':
			fputs("\\r", out);
			break;
		case '\\':
			fputs("\\\\", out);
			break;
		default:
			putc(s[i], out);
		}
	}
}

static void tsv_field(FILE *out, sqlite3_stmt *st, int c)
{
	if (sqlite3_column_type(st, c) == SQLITE_NULL)
		return;
	if (is_number(st, c))
		put_number(out, st, c);
	else
		tsv_text(out, (const char *)sqlite3_column_text(st, c),
			 (size_t)sqlite3_column_bytes(st, c));
}

static void header(FILE *out, sqlite3_stmt *st, enum rows_format fmt)
{
	int ncols = sqlite3_column_count(st);

	for (int c = 0; c < ncols; c++) {
		const char *name = sqlite3_column_name(st, c);

		if (c)
			putc(fmt == ROWS_CSV ? ',' : '\t', out);
		if (fmt == ROWS_CSV && name[strspn(name, "abcdefghijklmnopqrstuvwxyz"
						 "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")])
			csv_fwrite(out, name, strlen(name));
		else if (fmt == ROWS_CSV)
			fputs(name, out);
		else
			tsv_text(out, name, strlen(name));
	}
	putc('\n', out);
}

static int64_t write_delimited(struct db *db, sqlite3_stmt *st, enum rows_format fmt,
			       FILE *out)
{
	int ncols = sqlite3_column_count(st), rc;
	int64_t n = 0;

	header(out, st, fmt);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		for (int c = 0; c < ncols; c++) {
			if (c)
				putc(fmt == ROWS_CSV ? ',' : '\t', out);
			if (fmt == ROWS_CSV)
				csv_field(out, st, c);
			else
				tsv_field(out, st, c);
		}
		putc('\n', out);
		n++;
	}
	return rows_end(db, rc, n);
}


/* The table a person reads: every row held to measure the columns; numbers
 * right-aligned to 6 significant digits (the machine formats have them
 * all), NULL empty, control characters shown escaped so a row stays a line. */
struct table {
	char **cells;		/* row-major; NULL for NULL */
	size_t n, cap;
	int ncols;
	size_t *width;
	bool *text;		/* a column with text in it is left-aligned */
};

static char *display_real(double d)
{
	double a = fabs(d);
	char buf[64];
	int dec;

	if (isinf(d))
		return strdup(d > 0 ? "inf" : "-inf");
	if (a != 0 && (a >= 1e15 || a < 1e-6)) {
		snprintf(buf, sizeof(buf), "%.6g", d);
		return strdup(buf);
	}
	dec = a == 0 ? 0 : a < 1 ? 5 - (int)floor(log10(a)) : 6 - (int)floor(log10(a)) - 1;
	snprintf(buf, sizeof(buf), "%.*f", dec < 0 ? 0 : dec, d);
	if (strchr(buf, '.')) {
		char *e = buf + strlen(buf) - 1;

		while (*e == '0')
			*e-- = '\0';
		if (*e == '.')
			*e = '\0';
	}
	return strdup(buf);
}

static char *display_text(const char *s, size_t n)
{
	struct strbuf b = { 0 };

	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '\n')
			sb_printf(&b, "\\n");
		else if (c == '\t')
			sb_printf(&b, "\\t");
		else if (c == '\r')
			sb_printf(&b, "\\r");
		else if (c < 0x20 || c == 0x7f)
			sb_printf(&b, "\\x%02x", c);
		else
			sb_printf(&b, "%c", c);
	}
	return sb_take(&b);
}

/* LC_CTYPE C.UTF-8, made once, for wcwidth whatever locale the program runs
 * in (NULL when the system has none). */
static locale_t utf8_ctype;
static pthread_once_t utf8_ctype_once = PTHREAD_ONCE_INIT;

static void utf8_ctype_make(void)
{
	utf8_ctype = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
}

/* Terminal cells of the UTF-8 character at s, its length in *len: wcwidth's
 * (2 for East Asian wide and full-width characters and emoji, 0 for
 * combining marks and zero-width ones), 1 for a character it calls not
 * printable and for a byte that starts no character. */
static unsigned char_cells(const char *s, size_t *len)
{
	mbstate_t st = { 0 };
	locale_t was;
	wchar_t wc;
	int w = -1;

	*len = utf8_len((const unsigned char *)s, strnlen(s, 4));
	if (!*len) {		/* one byte, one cell */
		*len = 1;
		return 1;
	}
	pthread_once(&utf8_ctype_once, utf8_ctype_make);
	if (!utf8_ctype)
		return 1;
	was = uselocale(utf8_ctype);
	if (mbrtowc(&wc, s, *len, &st) == *len)
		w = wcwidth(wc);
	uselocale(was);
	return w < 0 ? 1 : (unsigned)w;
}

/* Terminal cells, not bytes or characters. */
static size_t display_width(const char *s)
{
	size_t w = 0, len;

	for (; *s; s += len)
		w += char_cells(s, &len);
	return w;
}

size_t rows_column_width(const char *s)
{
	char *t = display_text(s ? s : "", s ? strlen(s) : 0);
	size_t w = t ? display_width(t) : 0;

	free(t);
	return w;
}

/* s in width cells, cut at a character that would not fit, padded with
 * spaces (SIZE_MAX: neither). */
void rows_put_column(FILE *out, const char *s, size_t width)
{
	size_t w = rows_put_head(out, s, width);

	for (; width != SIZE_MAX && w < width; w++)
		putc(' ', out);
}

/* s cut as rows_put_column cuts it, not padded: the cells written. */
size_t rows_put_head(FILE *out, const char *s, size_t width)
{
	char *t = display_text(s ? s : "", s ? strlen(s) : 0);
	size_t w = 0, i = 0, len;

	for (; t && t[i]; i += len) {
		unsigned cells = char_cells(t + i, &len);

		if (w + cells > width)
			break;
		w += cells;
	}
	if (t)
		fwrite(t, 1, i, out);
	free(t);
	return w;
}

/* The last width cells of s as rows_put_column shows it (a wide character
 * that would straddle the cut left out), padded to width: the end of a
 * label cut in its middle. */
void rows_put_tail(FILE *out, const char *s, size_t width)
{
	char *t = display_text(s ? s : "", s ? strlen(s) : 0);
	size_t w = t ? display_width(t) : 0, i = 0, len;

	for (; t && t[i] && w > width; i += len)
		w -= char_cells(t + i, &len);
	if (t)
		fputs(t + i, out);
	for (; w < width; w++)
		putc(' ', out);
	free(t);
}

static char *display_cell(sqlite3_stmt *st, int c, bool *text)
{
	switch (sqlite3_column_type(st, c)) {
	case SQLITE_NULL:
		return NULL;
	case SQLITE_INTEGER: {
		char buf[32];

		snprintf(buf, sizeof(buf), "%lld", (long long)sqlite3_column_int64(st, c));
		return strdup(buf);
	}
	case SQLITE_FLOAT:
		return display_real(sqlite3_column_double(st, c));
	default:
		*text = true;
		return display_text((const char *)sqlite3_column_text(st, c),
				    (size_t)sqlite3_column_bytes(st, c));
	}
}

static int table_add(struct table *t, char *cell)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 256;
		char **p = realloc(t->cells, cap * sizeof(*p));

		if (!p) {
			free(cell);
			return -ENOMEM;
		}
		t->cells = p;
		t->cap = cap;
	}
	t->cells[t->n] = cell;
	if (cell && display_width(cell) > t->width[t->n % (size_t)t->ncols])
		t->width[t->n % (size_t)t->ncols] = display_width(cell);
	t->n++;
	return 0;
}

static void table_line(const struct table *t, char *const *cells, FILE *out)
{
	for (int c = 0; c < t->ncols; c++) {
		const char *s = cells[c] ? cells[c] : "";
		size_t w = display_width(s), pad = t->width[c] - w;

		assert(w <= t->width[c]);	/* the widest of the column's cells */

		if (c)
			fputs("  ", out);
		if (!t->text[c])
			fprintf(out, "%*s", (int)pad, "");
		fputs(s, out);
		if (t->text[c] && c + 1 < t->ncols)
			fprintf(out, "%*s", (int)pad, "");
	}
	putc('\n', out);
}

static void table_print(struct table *t, sqlite3_stmt *st, FILE *out)
{
	char **names = calloc((size_t)t->ncols, sizeof(*names));

	if (!names)
		return;
	for (int c = 0; c < t->ncols; c++) {
		names[c] = display_text(sqlite3_column_name(st, c),
					strlen(sqlite3_column_name(st, c)));
		if (display_width(names[c]) > t->width[c])
			t->width[c] = display_width(names[c]);
	}
	table_line(t, names, out);
	for (int c = 0; c < t->ncols; c++) {
		free(names[c]);
		names[c] = malloc(t->width[c] + 1);
		if (names[c]) {
			memset(names[c], '-', t->width[c]);
			names[c][t->width[c]] = '\0';
		}
	}
	table_line(t, names, out);
	for (size_t r = 0; r < t->n; r += (size_t)t->ncols)
		table_line(t, t->cells + r, out);
	for (int c = 0; c < t->ncols; c++)
		free(names[c]);
	free(names);
}

static int64_t rows_table(struct db *db, sqlite3_stmt *st, FILE *out)
{
	struct table t = { .ncols = sqlite3_column_count(st) };
	int64_t n = 0;
	int rc, err = 0;

	t.width = calloc((size_t)t.ncols + 1, sizeof(*t.width));
	t.text = calloc((size_t)t.ncols + 1, sizeof(*t.text));
	while (t.width && t.text && !err && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		for (int c = 0; c < t.ncols && !err; c++)
			err = table_add(&t, display_cell(st, c, &t.text[c]));
		n++;
	}
	if (!t.width || !t.text || err) {
		snprintf(db->err, sizeof(db->err), "out of memory");
		n = -ENOMEM;
	} else {
		assert(t.n % (size_t)(t.ncols ? t.ncols : 1) == 0);	/* whole rows */
		table_print(&t, st, out);
		n = rows_end(db, rc, n);
	}
	for (size_t i = 0; i < t.n; i++)
		free(t.cells[i]);
	free(t.cells);
	free(t.width);
	free(t.text);
	return n;
}

int64_t db_rows_write(struct db *db, sqlite3_stmt *st, enum rows_format fmt, FILE *out)
{
	int64_t n;

	switch (fmt) {
	case ROWS_TABLE:
		return rows_table(db, st, out);
	case ROWS_JSON:
		n = db_rows_json_array(db, st, out);
		putc('\n', out);
		return n;
	default:
		return write_delimited(db, st, fmt, out);
	}
}
