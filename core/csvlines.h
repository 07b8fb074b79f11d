/* A text as lines of comma-separated fields (libcsv with quoting off, so a
 * lone '"' is text), each field with its column, for FILE:LINE:COLUMN. */
#ifndef HB_CSVLINES_H
#define HB_CSVLINES_H

#include <stddef.h>

struct csvline {
	unsigned line;		/* 1-based */
	unsigned nf;
	char **f;		/* the fields, NUL-terminated */
	unsigned *col;		/* 1-based column where each field starts */
	unsigned end_col;	/* the column just past the line's last character */
};

struct csvlines {
	struct csvline *l;	/* the non-empty lines */
	size_t n;
};

/* Split text (CRLF or LF); 0 or -ENOMEM. */
int csvlines_read(struct csvlines *c, const char *text, size_t len);
void csvlines_free(struct csvlines *c);

#endif
