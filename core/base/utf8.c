/* UTF-8 checks and conversions for text from users, files and databases. */
#include "base/utf8.h"

#include <stdlib.h>
#include <string.h>

size_t utf8_len(const unsigned char *p, size_t n)
{
	size_t len;
	unsigned cp;

	if (!n)
		return 0;
	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		len = 2, cp = p[0] & 0x1f;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		len = 3, cp = p[0] & 0x0f;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		len = 4, cp = p[0] & 0x07;
	else
		return 0;
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return len;
}

size_t utf8_invalid_at(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;

	for (size_t i = 0; i < n;) {
		size_t len = utf8_len(p + i, n - i);

		if (!len)
			return i;
		i += len;
	}
	return n;
}

/* Windows-1252's 0x80-0x9f; 0 where it has no character (read as U+FFFD). */
static const unsigned short cp1252_high[32] = {
	0x20ac, 0, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021,
	0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017d, 0,
	0, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014,
	0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0, 0x017e, 0x0178,
};

static size_t utf8_put(char *out, unsigned cp)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | cp >> 6);
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	out[0] = (char)(0xe0 | cp >> 12);
	out[1] = (char)(0x80 | (cp >> 6 & 0x3f));
	out[2] = (char)(0x80 | (cp & 0x3f));
	return 3;
}

/* Copy s, each invalid byte b written as the character bad(b) gives. */
static char *utf8_convert(const char *s, size_t n, unsigned (*bad)(unsigned char))
{
	const unsigned char *p = (const unsigned char *)s;
	char *out = malloc(n * 3 + 1), *o = out;

	if (!out)
		return NULL;
	for (size_t i = 0; i < n;) {
		size_t len = utf8_len(p + i, n - i);

		if (len) {
			memcpy(o, p + i, len);
			o += len;
			i += len;
		} else {
			o += utf8_put(o, bad(p[i++]));
		}
	}
	*o = '\0';
	return out;
}

static unsigned cp1252(unsigned char b)
{
	if (b >= 0x80 && b < 0xa0)
		return cp1252_high[b - 0x80] ? cp1252_high[b - 0x80] : 0xfffd;
	return b;
}

static unsigned replacement(unsigned char b)
{
	(void)b;
	return 0xfffd;
}

char *utf8_from_cp1252(const char *s, size_t n)
{
	return utf8_convert(s, n, cp1252);
}

char *utf8_replace_invalid(const char *s, size_t n)
{
	return utf8_convert(s, n, replacement);
}
