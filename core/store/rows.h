/* Writing a statement's rows for a person or a program: an aligned table,
 * CSV (libcsv), TSV or JSON, each with the column names and exact values. */
#ifndef HB_DB_ROWS_H
#define HB_DB_ROWS_H

#include <stdint.h>
#include <stdio.h>

#include "store/db.h"

enum rows_format { ROWS_TABLE, ROWS_CSV, ROWS_TSV, ROWS_JSON };

/* "table", "csv", "tsv", "json" -> fmt; 0 or -EINVAL. */
int rows_format_parse(const char *name, enum rows_format *fmt);

/* Steps st to its end and writes its rows to out: a header (the column
 * names) and one line a row; JSON an array of objects. The number of rows,
 * or -EIO when the query stopped on an error (db->err says why). Whether
 * out took every byte is the caller's to check (ferror). */
int64_t db_rows_write(struct db *db, sqlite3_stmt *st, enum rows_format fmt, FILE *out);

/* The rows of st as a JSON array of objects, one a line, with no newline
 * after the closing bracket (for a document that holds several). */
int64_t db_rows_json_array(struct db *db, sqlite3_stmt *st, FILE *out);

/* A JSON string: quotes, backslashes and control characters escaped,
 * UTF-8 passed through, a byte that is not UTF-8 written as U+FFFD. */
void rows_json_string(FILE *out, const char *s, size_t len);

/* s (NULL: "") as one column of a table for a person: control characters
 * escaped as the table format shows them ("\\n"), cut to width terminal
 * cells (never inside a UTF-8 sequence; a wide character, CJK or emoji,
 * takes two) and padded to width with spaces; width SIZE_MAX: neither cut
 * nor padded. */
void rows_put_column(FILE *out, const char *s, size_t width);
/* s cut to width cells as rows_put_column cuts it, not padded: the cells
 * written (less than width when a wide character would not fit). */
size_t rows_put_head(FILE *out, const char *s, size_t width);
/* The last width terminal cells of s (NULL: "") as rows_put_column shows
 * it, never starting inside a character, padded to width with spaces. */
void rows_put_tail(FILE *out, const char *s, size_t width);
/* The terminal cells rows_put_column shows s (NULL: "") in, uncut. */
size_t rows_column_width(const char *s);

#endif
