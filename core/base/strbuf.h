/* A growable string, for JSON and listings built piece by piece. */
#ifndef HB_STRBUF_H
#define HB_STRBUF_H

#include <stddef.h>

struct strbuf {
	char *s;
	size_t len, cap;
};

void sb_printf(struct strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_json_str(struct strbuf *b, const char *s);	/* "quoted", escaped */
/* Hand the string over (never NULL); the strbuf is empty afterwards. */
char *sb_take(struct strbuf *b);
void sb_free(struct strbuf *b);

#endif
