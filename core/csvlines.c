/* Lines of comma-separated fields, read with libcsv (see csvlines.h). */
#include <csv.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "csvlines.h"

struct fields {
	struct csvline *cl;
	unsigned pos;		/* column of the next field */
	int err;
};

/* libcsv's field is len bytes with no NUL after them: copied with memcpy,
 * as strndup may look at the byte past the end. */
static void on_field(void *s, size_t len, void *data)
{
	struct fields *fs = data;
	struct csvline *cl = fs->cl;
	char **f = realloc(cl->f, (cl->nf + 1) * sizeof(*f));
	unsigned *col = realloc(cl->col, (cl->nf + 1) * sizeof(*col));
	char *v = malloc(len + 1);

	if (f)
		cl->f = f;
	if (col)
		cl->col = col;
	if (!f || !col || !v) {
		free(v);
		fs->err = -ENOMEM;
		return;
	}
	if (len)
		memcpy(v, s, len);
	v[len] = '\0';
	cl->f[cl->nf] = v;
	cl->col[cl->nf++] = fs->pos;
	fs->pos += (unsigned)len + 1;
}

static int keep_spaces(unsigned char c)
{
	(void)c;
	return 0;
}

/* One line (without its end) into cl. */
static int parse_line(struct csvline *cl, const char *s, size_t len)
{
	struct csv_parser p;
	struct fields fs = { .cl = cl, .pos = 1 };

	if (csv_init(&p, 0) != 0)
		return -ENOMEM;
	csv_set_quote(&p, '\0');	/* Iometer never quotes */
	csv_set_space_func(&p, keep_spaces);
	if (csv_parse(&p, s, len, on_field, NULL, &fs) != len)
		fs.err = -ENOMEM;
	csv_fini(&p, on_field, NULL, &fs);
	csv_free(&p);
	cl->end_col = (unsigned)len + 1;
	return fs.err;
}

int csvlines_read(struct csvlines *c, const char *text, size_t len)
{
	size_t i = 0;
	unsigned line = 0;

	memset(c, 0, sizeof(*c));
	while (i < len) {
		size_t n = strcspn(text + i, "\n"), cut = n;
		struct csvline *l;

		if (i + n > len)
			n = cut = len - i;
		line++;
		if (cut && text[i + cut - 1] == '\r')
			cut--;
		if (cut) {
			l = realloc(c->l, (c->n + 1) * sizeof(*l));
			if (!l)
				return -ENOMEM;
			c->l = l;
			l = &c->l[c->n++];
			memset(l, 0, sizeof(*l));
			l->line = line;
			if (parse_line(l, text + i, cut) < 0)
				return -ENOMEM;
		}
		i += n + 1;
	}
	return 0;
}

void csvlines_free(struct csvlines *c)
{
	for (size_t i = 0; i < c->n; i++) {
		for (unsigned k = 0; k < c->l[i].nf; k++)
			free(c->l[i].f[k]);
		free(c->l[i].f);
		free(c->l[i].col);
	}
	free(c->l);
	memset(c, 0, sizeof(*c));
}
