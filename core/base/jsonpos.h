/* Positions in a JSON text, for FILE:LINE:COLUMN messages: the first syntax
 * error, the place of the value a path names ('$.jobs[2]."job options".bs'),
 * the path of the value at a place, and string escapes that are no character. */
#ifndef HB_JSONPOS_H
#define HB_JSONPOS_H

#include <stddef.h>

/* Check the one JSON value at the start of s (after blanks) and that only
 * blanks follow: 0, or -1 with *off at the fault and *what saying it. *end
 * (when not NULL) is the offset just past the value. */
int jsonpos_check(const char *s, size_t len, size_t *off, const char **what, size_t *end);
/* Offset of the value at path in a valid text; where the path leaves the
 * text, the offset of the deepest value found on it. */
size_t jsonpos_find(const char *s, size_t len, const char *path);
/* The path of the deepest value (or key) holding offset off, as
 * 'jobs[2]."job options".bs' (no '$.'; "" for the top), into buf: 0, or -1
 * when off lies in no value. Best effort in a text with a syntax error. */
int jsonpos_path(const char *s, size_t len, size_t off, char *buf, size_t cap);
/* In a valid text, the offset of the first string escape that is no
 * character a C string can hold: \u0000 (a NUL, which would cut the text
 * there) or half of a UTF-16 surrogate pair; len when none. *what says which. */
size_t jsonpos_bad_escape(const char *s, size_t len, const char **what);
/* 1-based line and column (bytes) of offset off. */
void jsonpos_linecol(const char *s, size_t off, unsigned *line, unsigned *col);

#endif
