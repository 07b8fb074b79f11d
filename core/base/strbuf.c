/* A growable string. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/utf8.h"

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

void sb_add(struct strbuf *b, const char *p, size_t n)
{
	sb_grow(b, n);
	memcpy(b->s + b->len, p, n);
	b->len += n;
	b->s[b->len] = '\0';
}

static const char *json_escape(unsigned char c)
{
	switch (c) {
	case '"':
		return "\\\"";
	case '\\':
		return "\\\\";
	case '\n':
		return "\\n";
	case '\t':
		return "\\t";
	case '\r':
		return "\\r";
	}
	return NULL;
}

void sb_json_strn(struct strbuf *b, const char *str, size_t n, enum sb_json_bad bad)
{
	const unsigned char *s = (const unsigned char *)str;

	sb_add(b, "\"", 1);
	for (size_t i = 0; i < n;) {
		size_t len = utf8_len(s + i, n - i);
		const char *esc = len == 1 ? json_escape(s[i]) : NULL;

		if (!len && bad == SB_JSON_FFFD)
			sb_add(b, "\\ufffd", 6);
		else if (!len)
			sb_add(b, str + i, 1);
		else if (esc)
			sb_add(b, esc, 2);
		else if (s[i] < 0x20)
			sb_printf(b, "\\u%04x", s[i]);
		else
			sb_add(b, str + i, len);
		i += len ? len : 1;
	}
	sb_add(b, "\"", 1);
}

void sb_json_str(struct strbuf *b, const char *s)
{
	sb_json_strn(b, s ? s : "", s ? strlen(s) : 0, SB_JSON_BYTES);
}

void sb_shell_word(struct strbuf *b, const char *s)
{
	const char *safe = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789@%+=:,./_-";

	if (*s && strspn(s, safe) == strlen(s)) {
		sb_add(b, s, strlen(s));
		return;
	}
	sb_add(b, "'", 1);
	for (const char *q; (q = strchr(s, '\'')); s = q + 1) {
		sb_add(b, s, (size_t)(q - s));
		sb_add(b, "'\\''", 4);
	}
	sb_add(b, s, strlen(s));
	sb_add(b, "'", 1);
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
