/* A growable string, for JSON and listings built piece by piece. */
#ifndef HB_STRBUF_H
#define HB_STRBUF_H

#include <stddef.h>

struct strbuf {
	char *s;
	size_t len, cap;
};

void sb_printf(struct strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Append n bytes of p. */
void sb_add(struct strbuf *b, const char *p, size_t n);

/* What a JSON string holds of a byte that is not UTF-8. */
enum sb_json_bad {
	SB_JSON_FFFD,	/* U+FFFD: JSON every reader takes (export, docs/database.md) */
	SB_JSON_BYTES,	/* the byte: SQLite's JSON functions give it back, so a
			 * path of any bytes (a --target) survives runs.targets_json */
};
/* s[0..n) as a JSON string: quoted; '"', '\\', newline, tab and carriage
 * return as \" \\ \n \t \r, other control characters (NUL too) \u00NN,
 * UTF-8 as it is, each byte that is not UTF-8 as bad says. The one JSON
 * string writer. */
void sb_json_strn(struct strbuf *b, const char *s, size_t n, enum sb_json_bad bad);
/* s (NULL: "") as sb_json_strn writes it, bytes that are not UTF-8 kept
 * (SB_JSON_BYTES): the JSON the database stores (params_json, tags_json,
 * targets_json, sets_json). */
void sb_json_str(struct strbuf *b, const char *s);
/* s as one word of a POSIX shell's command line: as it is when it holds
 * only letters, digits and @%+=:,./_- (and is not empty), else in single
 * quotes, each ' as '\'' : a stored command line pastes back as it ran. */
void sb_shell_word(struct strbuf *b, const char *s);
/* Hand the string over (never NULL); the strbuf is empty afterwards. */
char *sb_take(struct strbuf *b);
void sb_free(struct strbuf *b);

#endif
