/* megaraid probe: a small JSON reader for storcli's "J" output: the text
 * as a tree of values, looked up by key; malformed text is refused whole. */
#ifndef MEGARAID_JSON_H
#define MEGARAID_JSON_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum mj_type { MJ_NULL, MJ_BOOL, MJ_NUM, MJ_STR, MJ_ARR, MJ_OBJ };

struct mj {
	enum mj_type type;
	char *key;		/* its name in the object holding it; NULL in an array */
	char *text;		/* a string's value, a number's or a literal's text */
	struct mj *child;	/* first member of an object or array */
	struct mj *next;	/* next member of the same parent */
};

struct mj_in {
	const char *p;
	int depth;
};

#define MJ_MAX_DEPTH 64

static void mj_free(struct mj *v)
{
	while (v) {
		struct mj *next = v->next;

		mj_free(v->child);
		free(v->key);
		free(v->text);
		free(v);
		v = next;
	}
}

static void mj_space(struct mj_in *in)
{
	in->p += strspn(in->p, " \t\r\n");
}

/* A string at in->p (after its opening quote); \uXXXX beyond ASCII is '?'. */
static char *mj_string(struct mj_in *in)
{
	size_t n = 0, cap = 32;
	char *s = malloc(cap);

	while (s && *in->p && *in->p != '"') {
		char c = *in->p++;

		if ((unsigned char)c < 0x20)
			break;
		if (c == '\\') {
			static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
			const char *e = *in->p ? strchr(from, *in->p) : NULL;

			if (*in->p == 'u' && strspn(in->p + 1, "0123456789abcdefABCDEF") >= 4) {
				unsigned u = (unsigned)strtoul((char[5]){ in->p[1], in->p[2], in->p[3],
									 in->p[4], 0 }, NULL, 16);
				c = u < 0x80 && u >= 0x20 ? (char)u : '?';
				in->p += 5;
			} else if (e) {
				c = to[e - from];
				in->p++;
			} else {
				break;
			}
		}
		if (n + 2 > cap) {
			char *t = realloc(s, cap *= 2);

			if (!t)
				break;
			s = t;
		}
		s[n++] = c;
	}
	if (!s || *in->p != '"') {
		free(s);
		return NULL;
	}
	in->p++;
	s[n] = '\0';
	return s;
}

static struct mj *mj_value(struct mj_in *in);

/* The members of an object or array, at in->p after its bracket. */
static bool mj_members(struct mj_in *in, struct mj *parent, char close)
{
	struct mj **tail = &parent->child;

	mj_space(in);
	if (*in->p == close)
		return in->p++, true;
	for (;;) {
		char *key = NULL;
		struct mj *v;

		if (close == '}') {
			if (*in->p != '"')
				return false;
			in->p++;
			if (!(key = mj_string(in)))
				return false;
			mj_space(in);
			if (*in->p++ != ':')
				return free(key), false;
		}
		if (!(v = mj_value(in)))
			return free(key), false;
		v->key = key;
		*tail = v;
		tail = &v->next;
		mj_space(in);
		if (*in->p == ',') {
			in->p++;
			mj_space(in);
			continue;
		}
		return *in->p++ == close;
	}
}

static struct mj *mj_value(struct mj_in *in)
{
	struct mj *v = calloc(1, sizeof(*v));
	bool ok = false;
	size_t n;

	mj_space(in);
	if (++in->depth > MJ_MAX_DEPTH || !v)
		goto out;
	if (*in->p == '{' || *in->p == '[') {
		char open = *in->p++;

		v->type = open == '{' ? MJ_OBJ : MJ_ARR;
		ok = mj_members(in, v, open == '{' ? '}' : ']');
	} else if (*in->p == '"') {
		in->p++;
		v->type = MJ_STR;
		ok = (v->text = mj_string(in)) != NULL;
	} else if ((n = strspn(in->p, "-+0123456789.eE")) > 0) {
		v->type = MJ_NUM;
		ok = (v->text = strndup(in->p, n)) != NULL;
		in->p += n;
	} else {
		static const char *const lit[] = { "true", "false", "null" };

		for (unsigned i = 0; i < 3 && !ok; i++)
			if (!strncmp(in->p, lit[i], strlen(lit[i]))) {
				v->type = i < 2 ? MJ_BOOL : MJ_NULL;
				ok = (v->text = strdup(lit[i])) != NULL;
				in->p += strlen(lit[i]);
			}
	}
out:
	in->depth--;
	if (!ok) {
		mj_free(v);
		return NULL;
	}
	return v;
}

/* The whole text as one value, or NULL when it is not JSON. */
static struct mj *mj_parse(const char *text)
{
	struct mj_in in = { text, 0 };
	struct mj *v = mj_value(&in);

	mj_space(&in);
	if (v && *in.p) {	/* text after the value */
		mj_free(v);
		return NULL;
	}
	return v;
}

/* The member of object o named key, or NULL. */
static const struct mj *mj_get(const struct mj *o, const char *key)
{
	if (!o || o->type != MJ_OBJ)
		return NULL;
	for (const struct mj *c = o->child; c; c = c->next)
		if (!strcmp(c->key, key))
			return c;
	return NULL;
}

/* Element i of array a (an object a storcli prints alone counts as [a]). */
static const struct mj *mj_at(const struct mj *a, unsigned i)
{
	const struct mj *c;

	if (a && a->type == MJ_OBJ)
		return i == 0 ? a : NULL;
	if (!a || a->type != MJ_ARR)
		return NULL;
	for (c = a->child; c && i; c = c->next)
		i--;
	return c;
}

/* A string's or number's text, spaces at both ends trimmed into buf; NULL
 * for anything else or an empty text. */
static const char *mj_text(const struct mj *v, char *buf, size_t len)
{
	const char *s;
	size_t n;

	if (!v || v->type == MJ_OBJ || v->type == MJ_ARR || v->type == MJ_NULL)
		return NULL;
	s = v->text + strspn(v->text, " \t");
	n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	if (!n)
		return NULL;
	snprintf(buf, len, "%.*s", (int)n, s);
	return buf;
}

#endif
