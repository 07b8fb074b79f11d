/* A growable string. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"

static void sb_grow(struct strbuf *b, size_t need)
{
	size_t cap = b->cap ? b->cap : 64;
	char *p;

	while (cap < b->len + need + 1)
		cap *= 2;
	if (cap == b->cap)
		return;
	p = realloc(b->s, cap);
	if (!p)
		abort();	/* out of memory building a message: nothing sensible left */
	b->s = p;
	b->cap = cap;
}

void sb_printf(struct strbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	sb_grow(b, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

void sb_json_str(struct strbuf *b, const char *s)
{
	sb_printf(b, "\"");
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			sb_printf(b, "\\%c", c);
		else if (c == '\n')
			sb_printf(b, "\\n");
		else if (c < 0x20)
			sb_printf(b, "\\u%04x", c);
		else
			sb_printf(b, "%c", c);
	}
	sb_printf(b, "\"");
}

char *sb_take(struct strbuf *b)
{
	char *s = b->s ? b->s : strdup("");

	b->s = NULL;
	b->len = b->cap = 0;
	return s;
}

void sb_free(struct strbuf *b)
{
	free(b->s);
	b->s = NULL;
	b->len = b->cap = 0;
}
