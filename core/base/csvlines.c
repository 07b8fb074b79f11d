/* Lines of comma-separated fields, read with libcsv (see csvlines.h). */
#include <csv.h>
#include <errno.h>
#include <stdalign.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/csvlines.h"
#include "base/utf8.h"

#define CSV_BLOCK (1u << 20)	/* bytes: an arena block, unless a line needs more */

struct csvblock {
	struct csvblock *next;
	size_t used, cap;
	alignas(void *) char data[];
};

/* One line's fields as libcsv gives them, before they go to the arena:
 * reused from line to line. */
struct fields {
	char *text;		/* the fields' bytes, each NUL-terminated */
	size_t len, cap;
	unsigned *col;		/* each field's column */
	unsigned *off;		/* where each field starts in text */
	size_t fcap, ocap;
	unsigned nf;
	unsigned pos;		/* column of the next field */
	bool moved;		/* a field was converted: off is not col - 1 */
	int err;
};

static int grow(void **p, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 64;
	void *q;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	q = realloc(*p, n * size);
	if (!q)
		return -ENOMEM;
	*p = q;
	*cap = n;
	return 0;
}

/* libcsv's field is len bytes with no NUL after them: copied with memcpy,
 * as strndup may look at the byte past the end. A field that is not UTF-8
 * is Windows-1252 (Iometer writes the ANSI code page), converted here so
 * that every field is UTF-8; its column stays the file's. */
static void on_field(void *s, size_t len, void *data)
{
	struct fields *fs = data;
	char *utf8 = NULL;
	size_t n = len;

	if (fs->err)
		return;
	if (len && utf8_invalid_at(s, len) < len) {
		if (!(utf8 = utf8_from_cp1252(s, len))) {
			fs->err = -ENOMEM;
			return;
		}
		n = strlen(utf8);
		fs->moved = true;
	}
	if (grow((void **)&fs->text, &fs->cap, fs->len + n + 1, 1) ||
	    grow((void **)&fs->col, &fs->fcap, fs->nf + 1, sizeof(*fs->col)) ||
	    grow((void **)&fs->off, &fs->ocap, fs->nf + 1, sizeof(*fs->off))) {
		free(utf8);
		fs->err = -ENOMEM;
		return;
	}
	if (n)
		memcpy(fs->text + fs->len, utf8 ? utf8 : s, n);
	free(utf8);
	fs->text[fs->len + n] = '\0';
	fs->col[fs->nf] = fs->pos;
	fs->off[fs->nf++] = (unsigned)fs->len;
	fs->len += n + 1;
	fs->pos += (unsigned)len + 1;
}

static int keep_spaces(unsigned char c)
{
	(void)c;
	return 0;
}

/* n bytes of the arena, aligned for a pointer; NULL: out of memory. */
static void *arena_take(struct csvlines *c, size_t n)
{
	struct csvblock *b = c->blocks;

	n = (n + alignof(void *) - 1) & ~(alignof(void *) - 1);
	if (!b || b->cap - b->used < n) {
		size_t cap = n > CSV_BLOCK ? n : CSV_BLOCK;

		b = malloc(sizeof(*b) + cap);
		if (!b)
			return NULL;
		b->next = c->blocks;
		b->used = 0;
		b->cap = cap;
		c->blocks = b;
	}
	b->used += n;
	return b->data + b->used - n;
}

/* The fields of fs into cl, in one piece of the arena: their columns, where
 * they are in text when a field was converted (else field k is at col[k] -
 * 1, as on_field counts both alike), then their bytes. */
static int keep_line(struct csvlines *c, struct csvline *cl, const struct fields *fs)
{
	size_t csz = fs->nf * sizeof(unsigned), osz = fs->moved ? csz : 0;
	char *p = arena_take(c, csz + osz + fs->len);

	if (!p)
		return -ENOMEM;
	cl->col = (unsigned *)(void *)p;
	cl->off = fs->moved ? (unsigned *)(void *)(p + csz) : NULL;
	cl->text = p + csz + osz;
	memcpy(cl->col, fs->col, csz);
	if (cl->off)
		memcpy(cl->off, fs->off, osz);
	memcpy(cl->text, fs->text, fs->len);
	cl->nf = fs->nf;
	return 0;
}

/* One line (without its end) into cl. */
static int parse_line(struct csvlines *c, struct csvline *cl, struct fields *fs,
		      const char *s, size_t len)
{
	struct csv_parser p;

	fs->len = 0;
	fs->nf = 0;
	fs->pos = 1;
	fs->moved = false;
	if (csv_init(&p, 0) != 0)
		return -ENOMEM;
	csv_set_quote(&p, '\0');	/* Iometer never quotes */
	csv_set_space_func(&p, keep_spaces);
	if (csv_parse(&p, s, len, on_field, NULL, fs) != len)
		fs->err = -ENOMEM;
	csv_fini(&p, on_field, NULL, fs);
	csv_free(&p);
	if (!fs->nf)		/* "\r" alone: libcsv ends a row there, with no field */
		on_field("", 0, fs);
	cl->end_col = (unsigned)len + 1;
	return fs->err ? fs->err : keep_line(c, cl, fs);
}

int csvlines_read(struct csvlines *c, const char *text, size_t len, size_t max)
{
	struct fields fs = { 0 };
	size_t i = 0;
	unsigned line = 0;
	int rc = 0;

	memset(c, 0, sizeof(*c));
	if (len >= 3 && !memcmp(text, CSV_UTF8_BOM, 3))
		text += 3, len -= 3;
	while (!rc && i < len && (!max || c->n < max)) {
		const char *nl = memchr(text + i, '\n', len - i);
		size_t n = nl ? (size_t)(nl - text - i) : len - i, cut = n;
		struct csvline *l;

		line++;
		if (cut && text[i + cut - 1] == '\r')
			cut--;
		if (cut) {
			if (grow((void **)&c->l, &c->cap, c->n + 1, sizeof(*c->l)) < 0) {
				rc = -ENOMEM;
				break;
			}
			l = &c->l[c->n++];
			memset(l, 0, sizeof(*l));
			l->line = line;
			rc = parse_line(c, l, &fs, text + i, cut);
		}
		i += n + 1;
	}
	free(fs.text);
	free(fs.col);
	free(fs.off);
	return rc;
}

void csvlines_free(struct csvlines *c)
{
	while (c->blocks) {
		struct csvblock *b = c->blocks;

		c->blocks = b->next;
		free(b);
	}
	free(c->l);
	memset(c, 0, sizeof(*c));
}
