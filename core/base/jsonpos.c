/* Positions in a JSON text: a small recursive scanner (RFC 8259) that finds
 * the first syntax error, the value a path names, the path of the value at
 * an offset, and escapes that are no character. It builds nothing. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/jsonpos.h"

#define JP_MAX_DEPTH 512

struct jp {
	const char *s;
	size_t n, i;
	const char *err;
	int depth;
};

static bool jp_fail(struct jp *p, const char *what)
{
	if (!p->err)
		p->err = what;
	return false;
}

static void jp_ws(struct jp *p)
{
	while (p->i < p->n && strchr(" \t\r\n", p->s[p->i]) && p->s[p->i])
		p->i++;
}

static bool jp_string(struct jp *p)
{
	p->i++;			/* the opening quote */
	while (p->i < p->n) {
		unsigned char c = (unsigned char)p->s[p->i];

		if (c == '"') {
			p->i++;
			return true;
		}
		if (c < 0x20)
			return jp_fail(p, "control character in a string");
		if (c == '\\') {
			if (++p->i >= p->n)
				break;
			c = (unsigned char)p->s[p->i];
			if (c == 'u') {
				for (int k = 1; k <= 4; k++)
					if (p->i + k >= p->n || !strchr("0123456789abcdefABCDEF",
									 p->s[p->i + k]) || !p->s[p->i + k])
						return jp_fail(p, "bad \\u escape");
				p->i += 4;
			} else if (!strchr("\"\\/bfnrt", c) || !c) {
				return jp_fail(p, "bad escape in a string");
			}
		}
		p->i++;
	}
	return jp_fail(p, "unterminated string");
}

static bool jp_digits(struct jp *p)
{
	size_t start = p->i;

	while (p->i < p->n && p->s[p->i] >= '0' && p->s[p->i] <= '9')
		p->i++;
	return p->i > start || jp_fail(p, "bad number");
}

static bool jp_number(struct jp *p)
{
	if (p->s[p->i] == '-')
		p->i++;
	if (p->i < p->n && p->s[p->i] == '0')
		p->i++;
	else if (!jp_digits(p))
		return false;
	if (p->i < p->n && p->s[p->i] == '.') {
		p->i++;
		if (!jp_digits(p))
			return false;
	}
	if (p->i < p->n && (p->s[p->i] == 'e' || p->s[p->i] == 'E')) {
		p->i++;
		if (p->i < p->n && (p->s[p->i] == '+' || p->s[p->i] == '-'))
			p->i++;
		if (!jp_digits(p))
			return false;
	}
	return true;
}

static bool jp_word(struct jp *p, const char *w)
{
	size_t l = strlen(w);

	if (p->n - p->i < l || memcmp(p->s + p->i, w, l))
		return jp_fail(p, "unexpected character");
	p->i += l;
	return true;
}

static bool jp_value(struct jp *p);

/* An object or array; key: expect "key": before each value. */
static bool jp_container(struct jp *p, char close, bool key)
{
	if (++p->depth > JP_MAX_DEPTH)
		return jp_fail(p, "nested too deeply");
	p->i++;
	jp_ws(p);
	if (p->i < p->n && p->s[p->i] == close) {
		p->i++;
		p->depth--;
		return true;
	}
	for (;;) {
		jp_ws(p);
		if (key) {
			if (p->i >= p->n || p->s[p->i] != '"')
				return jp_fail(p, p->i >= p->n ? "truncated JSON" : "expected a key");
			if (!jp_string(p))
				return false;
			jp_ws(p);
			if (p->i >= p->n || p->s[p->i] != ':')
				return jp_fail(p, p->i >= p->n ? "truncated JSON" : "expected ':'");
			p->i++;
		}
		if (!jp_value(p))
			return false;
		jp_ws(p);
		if (p->i >= p->n)
			return jp_fail(p, "truncated JSON");
		if (p->s[p->i] == close)
			break;
		if (p->s[p->i] != ',')
			return jp_fail(p, close == '}' ? "expected ',' or '}'" : "expected ',' or ']'");
		p->i++;
	}
	p->i++;
	p->depth--;
	return true;
}

static bool jp_value(struct jp *p)
{
	jp_ws(p);
	if (p->i >= p->n)
		return jp_fail(p, "truncated JSON");
	switch (p->s[p->i]) {
	case '{':
		return jp_container(p, '}', true);
	case '[':
		return jp_container(p, ']', false);
	case '"':
		return jp_string(p);
	case 't':
		return jp_word(p, "true");
	case 'f':
		return jp_word(p, "false");
	case 'n':
		return jp_word(p, "null");
	default:
		if (p->s[p->i] == '-' || (p->s[p->i] >= '0' && p->s[p->i] <= '9'))
			return jp_number(p);
		return jp_fail(p, "unexpected character");
	}
}

int jsonpos_check(const char *s, size_t len, size_t *off, const char **what, size_t *end)
{
	struct jp p = { .s = s, .n = len };

	if (jp_value(&p)) {
		if (end)
			*end = p.i;
		jp_ws(&p);
		if (p.i == p.n)
			return 0;
		p.err = "unexpected text after the JSON";
	}
	*off = p.i;
	*what = p.err;
	return -1;
}

/* The next path component: a key (quoted or bare) or an [index]. */
static const char *path_next(const char *path, const char **k, size_t *kl, long *idx)
{
	*idx = -1;
	if (*path == '[') {
		*idx = strtol(path + 1, (char **)&path, 10);
		return *path == ']' ? path + 1 : path;
	}
	path++;			/* '.' */
	if (*path == '"') {
		*k = ++path;
		path = strchr(path, '"');
		if (!path)
			path = *k + strlen(*k);
		*kl = (size_t)(path - *k);
		return *path ? path + 1 : path;
	}
	*k = path;
	*kl = strcspn(path, ".[");
	return path + *kl;
}

/* Move p into the container at p->i to the member k or element idx. */
static bool jp_enter(struct jp *p, const char *k, size_t kl, long idx)
{
	bool obj = p->s[p->i] == '{';
	long n = 0;

	if ((obj && idx >= 0) || (!obj && (p->s[p->i] != '[' || idx < 0)))
		return false;
	p->i++;
	for (;;) {
		jp_ws(p);
		if (p->i >= p->n || p->s[p->i] == '}' || p->s[p->i] == ']')
			return false;
		if (obj) {
			size_t ks = p->i + 1;
			bool hit;

			if (!jp_string(p))
				return false;
			hit = p->i - 1 - ks == kl && !memcmp(p->s + ks, k, kl);
			jp_ws(p);
			p->i++;	/* ':' */
			jp_ws(p);
			if (hit)
				return true;
		} else if (n++ == idx) {
			return true;
		}
		if (!jp_value(p))
			return false;
		jp_ws(p);
		if (p->i < p->n && p->s[p->i] == ',')
			p->i++;
	}
}

size_t jsonpos_find(const char *s, size_t len, const char *path)
{
	struct jp p = { .s = s, .n = len };
	size_t found;

	jp_ws(&p);
	found = p.i;
	if (*path == '$')
		path++;
	while (*path) {
		const char *k = NULL;
		size_t kl = 0;
		long idx;

		path = path_next(path, &k, &kl, &idx);
		if (!jp_enter(&p, k, kl, idx))
			break;
		jp_ws(&p);
		found = p.i;
	}
	return found;
}

void jsonpos_linecol(const char *s, size_t off, unsigned *line, unsigned *col)
{
	*line = 1;
	*col = 1;
	for (size_t i = 0; i < off; i++) {
		if (s[i] == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

/* Append a member's key (quoted unless a plain name) or an [index]. */
static void path_push(char *buf, size_t cap, const char *key, size_t kl, long idx)
{
	size_t n = strlen(buf), plain = 0;

	if (!key) {
		snprintf(buf + n, cap - n, "[%ld]", idx);
		return;
	}
	while (plain < kl && (key[plain] == '_' || (key[plain] >= 'a' && key[plain] <= 'z') ||
			      (key[plain] >= 'A' && key[plain] <= 'Z') ||
			      (key[plain] >= '0' && key[plain] <= '9')))
		plain++;
	if (kl > 64)
		kl = 64;
	snprintf(buf + n, cap - n, plain == kl && kl ? "%s%.*s" : "%s\"%.*s\"", n ? "." : "",
		 (int)kl, key);
	for (size_t i = n; buf[i]; i++)	/* a message is ASCII whatever the key holds */
		if ((unsigned char)buf[i] < 0x20 || (unsigned char)buf[i] >= 0x7f)
			buf[i] = '?';
}

/* Walk the value at p->i: true when off lies in it, buf then extended to
 * the deepest member that holds off. Stops at a syntax error (p->err). */
static bool jp_locate(struct jp *p, size_t off, char *buf, size_t cap)
{
	size_t start, keep = strlen(buf);
	char close;
	long idx = 0;

	jp_ws(p);
	start = p->i;
	if (p->i >= p->n)
		return false;
	if (p->s[p->i] != '{' && p->s[p->i] != '[') {
		bool ok = jp_value(p);

		return off >= start && (off < p->i || !ok);
	}
	if (++p->depth > JP_MAX_DEPTH) {
		jp_fail(p, "nested too deeply");
		return off >= start;
	}
	close = p->s[p->i] == '{' ? '}' : ']';
	p->i++;
	for (;;) {
		jp_ws(p);
		if (p->i >= p->n)
			return off >= start;
		if (p->s[p->i] == close)
			break;
		if (close == '}') {
			size_t ks = p->i;

			if (p->s[p->i] != '"' || !jp_string(p)) {
				jp_fail(p, "expected a key");
				return off >= start;
			}
			path_push(buf, cap, p->s + ks + 1, p->i - ks - 2, 0);
			if (off >= ks && off < p->i)
				return true;
			jp_ws(p);
			if (p->i >= p->n || p->s[p->i] != ':') {
				jp_fail(p, "expected ':'");
				return off >= start;
			}
			p->i++;
		} else {
			path_push(buf, cap, NULL, 0, idx++);
		}
		if (jp_locate(p, off, buf, cap))
			return true;
		buf[keep] = '\0';
		if (p->err)
			return off >= start;
		jp_ws(p);
		if (p->i < p->n && p->s[p->i] == ',')
			p->i++;
		else if (p->i < p->n && p->s[p->i] != close) {
			jp_fail(p, "expected ',' or a close");
			return off >= start;
		}
	}
	p->i++;
	p->depth--;
	return off >= start && off < p->i;
}

int jsonpos_path(const char *s, size_t len, size_t off, char *buf, size_t cap)
{
	struct jp p = { .s = s, .n = len };

	if (!cap)
		return -1;
	buf[0] = '\0';
	return jp_locate(&p, off, buf, cap) ? 0 : -1;
}

static long hex4(const char *s)
{
	char h[5];

	memcpy(h, s, 4);
	h[4] = '\0';
	return strtol(h, NULL, 16);
}

size_t jsonpos_bad_escape(const char *s, size_t len, const char **what)
{
	bool in = false;

	for (size_t i = 0; i < len; i++) {
		long cp;

		if (s[i] == '"') {
			in = !in;
			continue;
		}
		if (!in || s[i] != '\\' || i + 1 >= len)
			continue;
		if (s[++i] != 'u' || i + 4 >= len)
			continue;	/* \" \\ \n ...: one character, skipped */
		cp = hex4(s + i + 1);
		if (cp == 0) {
			*what = "a NUL character (\\u0000), which would cut the text there";
			return i - 1;
		}
		if (cp >= 0xdc00 && cp <= 0xdfff) {
			*what = "the second half of a UTF-16 surrogate pair without its first: "
				"not a character";
			return i - 1;
		}
		if (cp >= 0xd800 && cp <= 0xdbff) {
			long lo = i + 10 < len && s[i + 5] == '\\' && s[i + 6] == 'u' ?
				  hex4(s + i + 7) : -1;

			if (lo < 0xdc00 || lo > 0xdfff) {
				*what = "the first half of a UTF-16 surrogate pair without its "
					"second: not a character";
				return i - 1;
			}
			i += 6;	/* the pair's second half */
		}
		i += 4;
	}
	return len;
}
