/* A text as lines of comma-separated fields (libcsv with quoting off, so a
 * lone '"' is text), each field with its column, for FILE:LINE:COLUMN, and
 * each field UTF-8: Iometer writes the Windows ANSI code page, so a field
 * that is not UTF-8 is read as Windows-1252 (utf8_from_cp1252). */
#ifndef HB_CSVLINES_H
#define HB_CSVLINES_H

#include <stddef.h>

/* The UTF-8 byte-order mark some Windows editors write before the text. */
#define CSV_UTF8_BOM "\xef\xbb\xbf"

struct csvline {
	unsigned line;		/* 1-based */
	unsigned nf;
	char *text;		/* the fields, each NUL-terminated: csvline_field() */
	unsigned *col;		/* 1-based column (byte) where each field starts */
	unsigned *off;		/* where each field is in text; NULL: at its column */
	unsigned end_col;	/* the column just past the line's last character */
};

/* Field k: in text where its column says, as the line is its fields and a
 * separator after each, unless a field was converted to UTF-8 (off); past
 * the line's last field, "" (a short row of a hostile file is read as
 * empty fields, never past its end). */
static inline const char *csvline_field(const struct csvline *l, unsigned k)
{
	if (k >= l->nf)
		return "";
	return l->text + (l->off ? l->off[k] : l->col[k] - 1);
}

struct csvblock;

struct csvlines {
	struct csvline *l;	/* the non-empty lines */
	size_t n, cap;
	struct csvblock *blocks;	/* f, col and the fields' bytes of every line */
};

/* Split text (CRLF or LF; a UTF-8 byte-order mark before it is skipped),
 * its first max non-empty lines (0: all); 0 or -ENOMEM. A line takes its
 * length, 4 bytes a field (its column) and 40 more (8 more a field when
 * one was converted), in large blocks: a file of short fields splits into
 * a few times its size, not an allocation a field. */
int csvlines_read(struct csvlines *c, const char *text, size_t len, size_t max);
void csvlines_free(struct csvlines *c);

#endif
