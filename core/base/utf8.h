/* UTF-8 as text enters and leaves hbatest: checking it at the door, and
 * converting a legacy 8-bit text (Iometer's Windows-1252) into it. */
#ifndef HB_UTF8_H
#define HB_UTF8_H

#include <stddef.h>

/* The length of the UTF-8 sequence at p (1-4), or 0 when it is not one:
 * overlong forms, surrogates and code points past U+10FFFF are not. */
size_t utf8_len(const unsigned char *p, size_t n);
/* The offset of the first byte of s[0..n) that is not UTF-8, or n when all
 * of it is (a NUL byte counts as valid here: callers that refuse NUL check
 * for it themselves). */
size_t utf8_invalid_at(const char *s, size_t n);
/* A copy of s[0..n) as UTF-8, each invalid byte read as Windows-1252 (so
 * Latin-1 text reads as written); NULL when out of memory. */
char *utf8_from_cp1252(const char *s, size_t n);
/* A copy of s[0..n) with each byte that is not UTF-8 replaced by U+FFFD;
 * NULL when out of memory. */
char *utf8_replace_invalid(const char *s, size_t n);

#endif
