/* A chart template is data to hbatest: before a template is written into a
 * chart's script it is read as gnuplot reads it (lines joined at a final
 * '\', comments, strings, blocks in braces) and every statement must be one
 * a chart needs: set/unset of a drawing option, plot and stats of the
 * chart's data (datafile) or of a function of x, print, if/else, do for,
 * arrays, variables and functions. Whatever could run a command (system,
 * '!', backquotes, '@' macros, load, call, eval, a '<' file name, set
 * output/print/table '|...'), open another file or redefine a name hbatest
 * sets is refused: an allow-list, as gnuplot's language has more ways to
 * reach a shell than a deny-list would keep up with. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/gnuplot_check.h"
#include "base/utf8.h"
#include "base/util.h"

/* What report_chart.c writes before every template (build_gp). */
static const char *const core_names[] = {
	"datafile", "nseries", "formats", "fmt", "chart_title", "titles", "colors", "points",
	"key", "dec125", "lo125", "hi125", "m125", "key_margin", "small_font", "si", "sep_", "num",
	"ptype", "ptype_open", "dtype", "note", "key_inside",
};

/* A coordinate word of a position (offset character 1, 2): gnuplot reads it
 * as one, or as a variable; none is ever defined, so it never holds a file
 * name where a plot starts. */
static const char *const coord_words[] = { "first", "second", "graph", "screen", "character",
					   "char" };

const char *gnuplot_reserved(const char *name)
{
	for (unsigned i = 0; i < ARRAY_SIZE(core_names); i++)
		if (!strcmp(name, core_names[i]))
			return "set by hbatest for every chart";
	for (unsigned i = 0; i < ARRAY_SIZE(coord_words); i++)
		if (!strcmp(name, coord_words[i]))
			return "a gnuplot coordinate word";
	if (!strcmp(name, "x"))
		return "the variable of the functions a chart plots";
	return NULL;
}

/* The options a template may set or unset: how the chart looks. */
static const char *const set_options[] = {
	"title", "xlabel", "ylabel", "x2label", "y2label", "cblabel", "border", "tics",
	"xtics", "ytics", "x2tics", "y2tics", "mxtics", "mytics", "mx2tics", "my2tics",
	"cbtics", "grid", "key", "style", "boxwidth", "xrange", "yrange", "x2range",
	"y2range", "cbrange", "logscale", "format", "offsets", "autoscale", "bmargin",
	"tmargin", "lmargin", "rmargin", "margins", "object", "label", "arrow", "samples",
	"isosamples", "zeroaxis", "xzeroaxis", "yzeroaxis", "x2zeroaxis", "y2zeroaxis",
	"size", "origin", "pointsize", "pointintervalbox", "bars", "errorbars", "clip",
	"colorbox", "linetype", "dashtype", "xdata", "ydata", "timefmt", "link", "jitter",
	"boxdepth",
};

/* Why some are refused, for the message; the rest are "not a drawing option". */
static const struct why {
	const char *word, *why;
} refused_sets[] = {
	{ "output", "hbatest sets the output file (and gnuplot runs a name starting with '|')" },
	{ "terminal", "hbatest sets the terminal" },
	{ "term", "hbatest sets the terminal" },
	{ "print", "gnuplot writes print to any file, or runs a name starting with '|'" },
	{ "table", "gnuplot writes the table to any file, or runs a name starting with '|'" },
	{ "datafile", "hbatest sets how the chart's data is read" },
	{ "palette", "'set palette file' reads a file, or runs a name starting with '<'" },
	{ "loadpath", "it is where load and call find scripts" },
	{ "fontpath", "it is where fonts are read from" },
	{ "dummy", "a template's functions are of x" },
	{ "parametric", "a template's functions are of x" },
	{ "polar", "a template's functions are of x" },
	{ "fit", "fit writes a log file" },
	{ "history", "it writes a file" },
	{ "macros", "'@' macros run a string as commands" },
}, refused_cmds[] = {
	{ "system", "runs a shell command" },
	{ "shell", "starts a shell" },
	{ "load", "runs another script" },
	{ "call", "runs another script" },
	{ "eval", "runs a string as commands" },
	{ "evaluate", "runs a string as commands" },
	{ "import", "loads a shared library" },
	{ "cd", "changes gnuplot's folder" },
	{ "save", "writes a file (or runs a name starting with '|')" },
	{ "fit", "writes a log file and reads any file" },
	{ "history", "writes a file or runs an earlier command" },
	{ "pause", "waits for a key or the mouse" },
	{ "exit", "ends gnuplot before the chart is written" },
	{ "quit", "ends gnuplot before the chart is written" },
	{ "reset", "undoes the settings hbatest made" },
	{ "undefine", "undoes the settings hbatest made" },
	{ "replot", "repeats a plot with another output" },
	{ "reread", "runs the script again" },
	{ "splot", "is not a chart hbatest embeds" },
};

enum tk { TK_IDENT, TK_NUM, TK_STR, TK_OP, TK_EOL };

struct tok {
	enum tk kind;
	unsigned off, len;	/* in the joined text */
	unsigned line, col;	/* in the template as written */
};

struct chk {
	char *s;		/* the template, lines ending in '\' joined */
	unsigned *line, *col;	/* for each byte of s: where it was written */
	size_t n;
	struct tok *t;
	size_t nt, cap, i;
	char *err;
	size_t len;
};

static int fail_at(struct chk *c, unsigned line, unsigned col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fail_at(struct chk *c, unsigned line, unsigned col, const char *fmt, ...)
{
	int o = snprintf(c->err, c->len, "%u:%u: ", line, col);
	va_list ap;

	va_start(ap, fmt);
	if (o >= 0 && (size_t)o < c->len)
		vsnprintf(c->err + o, c->len - (size_t)o, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

#define fail(c, k, ...) fail_at((c), (c)->t[k].line, (c)->t[k].col, __VA_ARGS__)

/* ---- reading: the bytes, then tokens ------------------------------------ */

/* Bytes no template may hold anywhere, not even in a comment or a string:
 * a backquote is run as a shell command and an '@' expands a string as
 * commands wherever gnuplot's own quote tracking goes wrong ("it's" inside
 * double quotes ends its single quotes). */
static int check_bytes(struct chk *c, const char *text, size_t n)
{
	unsigned line = 1, col = 1;
	size_t bad = utf8_invalid_at(text, n);

	for (size_t i = 0; i < n; i++, col++) {
		unsigned char b = (unsigned char)text[i];

		if (i == bad)
			return fail_at(c, line, col, "bytes that are not UTF-8 (save the template as UTF-8)");
		if (b == '`')
			return fail_at(c, line, col, "a backquote: gnuplot runs the text between "
				       "backquotes as a shell command");
		if (b == '@')
			return fail_at(c, line, col, "an '@': gnuplot runs the string variable after "
				       "it as commands (a macro)");
		if (b == '\r')
			return fail_at(c, line, col, "a carriage return (Windows line ends?): save "
				       "the template with Unix line ends");
		if ((b < 0x20 && b != '\n' && b != '\t') || b == 0x7f)
			return fail_at(c, line, col, "a control character (0x%02x)", b);
		if (b == '\n') {
			line++;
			col = 0;
		}
	}
	return 0;
}

/* As gnuplot reads a script: a line ending in '\' goes on on the next one,
 * in a comment or a string too. Each byte keeps where it was written. */
static int join_lines(struct chk *c, const char *text, size_t n)
{
	unsigned line = 1, col = 1;

	c->s = malloc(n + 1);
	c->line = malloc((n + 1) * sizeof(*c->line));
	c->col = malloc((n + 1) * sizeof(*c->col));
	if (!c->s || !c->line || !c->col)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++, col++) {
		if (text[i] == '\\' && i + 1 < n && text[i + 1] == '\n') {
			i++;
			line++;
			col = 0;
			continue;
		}
		c->s[c->n] = text[i];
		c->line[c->n] = line;
		c->col[c->n++] = col;
		if (text[i] == '\n') {
			line++;
			col = 0;
		}
	}
	c->s[c->n] = '\0';
	c->line[c->n] = line;
	c->col[c->n] = col;
	return 0;
}

static bool is_ident_start(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_';
}

static bool is_digit(char ch)
{
	return ch >= '0' && ch <= '9';
}

static int add_tok(struct chk *c, enum tk kind, size_t off, size_t len)
{
	if (c->nt == c->cap) {
		size_t ncap = c->cap ? c->cap * 2 : 256;
		struct tok *t = realloc(c->t, ncap * sizeof(*t));

		if (!t)
			return -ENOMEM;
		c->t = t;
		c->cap = ncap;
	}
	c->t[c->nt++] = (struct tok){ kind, (unsigned)off, (unsigned)len, c->line[off],
				      c->col[off] };
	return 0;
}

/* The end of the string that opens at i, or 0 when it does not end on its
 * line: '...' doubles its quote, "..." escapes with '\'. */
static size_t string_end(const struct chk *c, size_t i)
{
	char q = c->s[i];

	for (size_t k = i + 1; k < c->n && c->s[k] != '\n'; k++) {
		if (q == '"' && c->s[k] == '\\' && k + 1 < c->n && c->s[k + 1] != '\n')
			k++;
		else if (c->s[k] == q && q == '\'' && k + 1 < c->n && c->s[k + 1] == '\'')
			k++;
		else if (c->s[k] == q)
			return k + 1;
	}
	return 0;
}

/* Operators of two characters, then of one. */
static size_t op_len(const char *p)
{
	static const char *const two[] = { "**", "==", "!=", "<=", ">=", "&&", "||", "<<", ">>" };

	for (unsigned k = 0; k < ARRAY_SIZE(two); k++)
		if (p[0] == two[k][0] && p[1] == two[k][1])
			return 2;
	return p[0] && strchr("+-*/%^&|!~<>=?:.,()[]{}$", p[0]) ? 1 : 0;
}

static size_t number_end(const struct chk *c, size_t i)
{
	while (i < c->n && (is_digit(c->s[i]) || c->s[i] == '.' || c->s[i] == 'x' ||
			    (c->s[i] >= 'a' && c->s[i] <= 'f') || (c->s[i] >= 'A' && c->s[i] <= 'F') ||
			    ((c->s[i] == '+' || c->s[i] == '-') &&
			     (c->s[i - 1] == 'e' || c->s[i - 1] == 'E'))))
		i++;
	return i;
}

static int tokenize(struct chk *c)
{
	for (size_t i = 0; i < c->n;) {
		char ch = c->s[i];
		size_t end;

		if (ch == ' ' || ch == '\t') {
			i++;
		} else if (ch == '#') {		/* a comment, to the end of the line */
			while (i < c->n && c->s[i] != '\n')
				i++;
		} else if (ch == '\n' || ch == ';') {
			if (add_tok(c, TK_EOL, i, 1))
				return -ENOMEM;
			i++;
		} else if (ch == '\'' || ch == '"') {
			if (!(end = string_end(c, i)))
				return fail_at(c, c->line[i], c->col[i], "a string that does not end on its line");
			if (add_tok(c, TK_STR, i, end - i))
				return -ENOMEM;
			i = end;
		} else if (is_ident_start(ch) || is_digit(ch) ||
			   (ch == '.' && is_digit(c->s[i + 1]))) {
			end = i + 1;
			if (is_ident_start(ch))
				while (end < c->n && (is_ident_start(c->s[end]) || is_digit(c->s[end])))
					end++;
			else
				end = number_end(c, i);
			if (add_tok(c, is_ident_start(ch) ? TK_IDENT : TK_NUM, i, end - i))
				return -ENOMEM;
			i = end;
		} else if ((end = op_len(c->s + i))) {
			if (add_tok(c, TK_OP, i, end))
				return -ENOMEM;
			i += end;
		} else {
			return fail_at(c, c->line[i], c->col[i], "'%c' is not gnuplot a chart template "
				       "may use", ch >= 0x20 && ch < 0x7f ? ch : '?');
		}
	}
	if (c->nt == 0 || c->t[c->nt - 1].kind != TK_EOL)
		return add_tok(c, TK_EOL, c->n, 0);
	return 0;
}

/* ---- tokens ------------------------------------------------------------ */

static bool is(const struct chk *c, size_t k, enum tk kind, const char *text)
{
	return k < c->nt && c->t[k].kind == kind && c->t[k].len == strlen(text) &&
	       !memcmp(c->s + c->t[k].off, text, c->t[k].len);
}

#define is_op(c, k, text) is((c), (k), TK_OP, (text))
#define is_word(c, k, text) is((c), (k), TK_IDENT, (text))

/* A token's text, NUL-terminated, for the message (cut at 63 bytes). */
static const char *text_of(const struct chk *c, size_t k, char *buf, size_t len)
{
	snprintf(buf, len, "%.*s", (int)c->t[k].len, c->s + c->t[k].off);
	return buf;
}

/* The index of the bracket that closes the one at k, or c->nt. */
static size_t closing(const struct chk *c, size_t k)
{
	int depth = 0;

	for (size_t j = k; j < c->nt && c->t[j].kind != TK_EOL; j++) {
		if (is_op(c, j, "(") || is_op(c, j, "["))
			depth++;
		else if ((is_op(c, j, ")") || is_op(c, j, "]")) && --depth == 0)
			return j;
	}
	return c->nt;
}

/* Where the statement that starts at k ends: a newline, ';', '{' or '}'. */
static size_t statement_end(const struct chk *c, size_t k)
{
	while (k < c->nt && c->t[k].kind != TK_EOL && !is_op(c, k, "{") && !is_op(c, k, "}"))
		k++;
	return k;
}

/* ---- what no statement may hold ------------------------------------------ */

static bool is_coord_word(const struct chk *c, size_t k)
{
	for (unsigned i = 0; i < ARRAY_SIZE(coord_words); i++)
		if (is_word(c, k, coord_words[i]))
			return true;
	return false;
}

/* Does the core name at k get a value: name = ..., name[i] = ..., name(a) =
 * ..., array name, for [name ...]? */
static bool assigns(const struct chk *c, size_t k)
{
	size_t j = k + 1;

	if (is_op(c, j, "(") || is_op(c, j, "["))
		j = closing(c, j) + 1;
	if (is_op(c, j, "=") || is_op(c, k + 1, "="))
		return true;
	if (k > 0 && is_word(c, k - 1, "array"))
		return true;
	return k > 1 && is_op(c, k - 1, "[") && is_word(c, k - 2, "for");
}

/* Each line's ( and [ closed on it, so closing() always finds the bracket. */
static int check_brackets(struct chk *c)
{
	size_t open[64];
	unsigned depth = 0;

	for (size_t k = 0; k < c->nt; k++) {
		bool round = is_op(c, k, ")");

		if (c->t[k].kind == TK_EOL && depth)
			return fail(c, open[depth - 1], "a bracket not closed on its line");
		if (is_op(c, k, "(") || is_op(c, k, "[")) {
			if (depth == ARRAY_SIZE(open))
				return fail(c, k, "brackets nested more than %zu deep", ARRAY_SIZE(open));
			open[depth++] = k;
		} else if (round || is_op(c, k, "]")) {
			if (!depth || is_op(c, open[depth - 1], round ? "[" : "("))
				return fail(c, k, "a '%s' that closes no '%s'", round ? ")" : "]",
					    round ? "(" : "[");
			depth--;
		}
	}
	return 0;
}

static int check_tokens(struct chk *c)
{
	const char *why;
	char buf[64];

	if (check_brackets(c))
		return -EINVAL;
	for (size_t k = 0; k < c->nt; k++) {
		const struct tok *t = &c->t[k];

		if (is_word(c, k, "system"))
			return fail(c, k, "'system' runs a shell command: a chart template draws, "
				    "it runs nothing");
		if (is_op(c, k, "$") && !(k + 1 < c->nt && c->t[k + 1].kind == TK_NUM))
			return fail(c, k, "'$' other than a column ($1): datablocks and function "
				    "blocks are not for chart templates");
		if (t->kind == TK_IDENT && assigns(c, k) &&
		    (why = gnuplot_reserved(text_of(c, k, buf, sizeof(buf)))))
			return fail(c, k, "'%s' is %s: a template may use it, not define it",
				    buf, why);
	}
	return 0;
}

/* ---- statements ----------------------------------------------------------- */

static int check_block(struct chk *c, bool in_braces);

static const char *why_refused(const struct why *w, size_t n, const char *word)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(w[i].word, word))
			return w[i].why;
	return NULL;
}

/* for [name = a:b] or for [name in list]: a loop that defines no core name
 * (check_tokens) and does nothing else; the index after it. */
static size_t skip_for(struct chk *c, size_t k)
{
	if (is_word(c, k, "for") && is_op(c, k + 1, "["))
		return closing(c, k + 1) + 1;
	return k;
}

static int check_set(struct chk *c, size_t k, size_t end)
{
	char opt[64];
	const char *why;

	k = skip_for(c, k + 1);
	if (k >= end || c->t[k].kind != TK_IDENT)
		return fail(c, k < c->nt ? k : c->nt - 1, "'set' without an option");
	text_of(c, k, opt, sizeof(opt));
	for (unsigned i = 0; i < ARRAY_SIZE(set_options); i++)
		if (!strcmp(opt, set_options[i]))
			return 0;
	why = why_refused(refused_sets, ARRAY_SIZE(refused_sets), opt);
	return fail(c, k, "'%s' is not an option a chart template may set: %s", opt,
		    why ? why : "only those that style a chart are");
}

/* A binary operator gnuplot continues an expression with. */
static bool is_binop(const struct chk *c, size_t k)
{
	static const char *const ops[] = { "+", "-", "*", "/", "%", "**", "==", "!=", "<", ">",
		"<=", ">=", "&&", "||", "&", "|", "^", ".", "<<", ">>" };

	if (is_word(c, k, "eq") || is_word(c, k, "ne"))
		return true;
	for (unsigned i = 0; i < ARRAY_SIZE(ops); i++)
		if (is_op(c, k, ops[i]))
			return true;
	return false;
}

/* The end of the expression that starts at k: never past where gnuplot
 * would end it (it stops earlier on what it does not know), so that a dummy
 * x found before this end is one gnuplot's expression holds too. */
static size_t expr_end(const struct chk *c, size_t k, size_t end)
{
	int ternary = 0;

	for (;;) {
		while (k < end && (is_op(c, k, "-") || is_op(c, k, "+") || is_op(c, k, "!") ||
				   is_op(c, k, "~")))
			k++;
		if (k >= end)
			return k;
		if (c->t[k].kind == TK_NUM || c->t[k].kind == TK_STR)
			k++;
		else if (c->t[k].kind == TK_IDENT && !is_word(c, k, "sum"))
			k += is_op(c, k + 1, "(") ? closing(c, k + 1) - k + 1 : 1;
		else if (is_op(c, k, "("))
			k = closing(c, k) + 1;
		else if (is_op(c, k, "$") && k + 1 < end && c->t[k + 1].kind == TK_NUM)
			k += 2;
		else
			return k;
		if (k < end && is_op(c, k, "["))	/* a substring s[a:b] */
			k = closing(c, k) + 1;
		if (k >= end)
			return end;
		if (is_op(c, k, "?"))
			ternary++;
		else if (is_op(c, k, ":") && ternary > 0)
			ternary--;
		else if (!is_binop(c, k))
			return k;
		k++;
	}
}

/* A dummy variable, as gnuplot tells a function to plot from a file name: x,
 * and not a call x() or an element x[i] (of an array named x). */
static bool has_dummy(const struct chk *c, size_t from, size_t to)
{
	for (size_t k = from; k < to; k++)
		if (is_word(c, k, "x") && !is_op(c, k + 1, "(") && !is_op(c, k + 1, "["))
			return true;
	return false;
}

/* Only numbers and operators: no name or string that could make it text. */
static bool numeric_only(const struct chk *c, size_t from, size_t to)
{
	for (size_t k = from; k < to; k++)
		if (c->t[k].kind == TK_IDENT || c->t[k].kind == TK_STR || is_op(c, k, "$"))
			return false;
	return to > from;
}

/* What may follow a comma in plot or stats, or start one: the chart's data,
 * keyentry, an expression of x (plot only) or of numbers alone (a label's
 * "offset 0,0.7"), after a coordinate word (offset character 0, character
 * 1). gnuplot takes any other expression that evaluates to a string as a
 * file name, and runs one that starts with '<'. Every top-level comma is
 * checked so, whether gnuplot reads a new plot after it or the rest of a
 * modifier: which one depends on the modifier, and a check that does not
 * rely on it cannot be led astray. */
static int check_source(struct chk *c, size_t k, size_t end, bool functions)
{
	size_t e;

	while (is_word(c, k, "for"))
		k = skip_for(c, k);
	if (is_coord_word(c, k))
		k++;
	if (is_word(c, k, "datafile") && (k + 1 >= end || is_op(c, k + 1, ",") ||
	    (c->t[k + 1].kind == TK_IDENT && !is_word(c, k + 1, "eq") && !is_word(c, k + 1, "ne"))))
		return 0;
	if (functions && is_word(c, k, "keyentry"))
		return 0;
	e = expr_end(c, k, end);
	if ((functions && e > k && has_dummy(c, k, e)) || numeric_only(c, k, e))
		return 0;
	return fail(c, k < c->nt ? k : c->nt - 1, "a chart template plots its data (datafile)%s: "
		    "gnuplot reads any other name as a file, and runs one that starts with '<'",
		    functions ? " or a function of x" : "");
}

/* plot [ranges] source modifiers, source modifiers...: the first source and
 * what follows each comma outside brackets. */
static int check_plot(struct chk *c, size_t k, size_t end, bool functions)
{
	for (k++; is_op(c, k, "["); k = closing(c, k) + 1) {	/* ranges */
		for (size_t j = k; j < closing(c, k); j++)
			if (is_op(c, j, "="))
				return fail(c, j, "a range that renames x: a template's functions are of x");
	}
	if (is_word(c, k, "sample"))
		return fail(c, k, "'sample' renames x: a template's functions are of x");
	if (check_source(c, k, end, functions))
		return -EINVAL;
	for (; k < end; k++) {
		if (is_op(c, k, "(") || is_op(c, k, "["))
			k = closing(c, k);
		else if (is_op(c, k, ",") && check_source(c, k + 1, end, functions))
			return -EINVAL;
	}
	return 0;
}

/* if (cond) { ... } else if (...) { ... } else { ... }, or the old form
 * whose commands follow on the line (checked as statements). */
static int check_if(struct chk *c)
{
	size_t k = c->i + 1;

	if (!is_op(c, k, "("))
		return fail(c, c->i, "'if' without '(condition)'");
	k = closing(c, k) + 1;
	c->i = k;
	if (!is_op(c, k, "{"))
		return 0;
	c->i++;
	if (check_block(c, true))
		return -EINVAL;
	c->i++;	/* the '}' */
	if (!is_word(c, c->i, "else"))
		return 0;
	c->i++;
	if (is_word(c, c->i, "if"))
		return check_if(c);
	if (!is_op(c, c->i, "{"))
		return 0;
	c->i++;
	if (check_block(c, true))
		return -EINVAL;
	c->i++;
	return 0;
}

/* do for [...] { ... } */
static int check_do(struct chk *c)
{
	size_t k = c->i + 1;

	if (!is_word(c, k, "for") || !is_op(c, k + 1, "["))
		return fail(c, c->i, "'do' without 'for [...]'");
	k = skip_for(c, k);
	if (!is_op(c, k, "{"))
		return fail(c, k < c->nt ? k : c->nt - 1, "'do for [...]' without '{'");
	c->i = k + 1;
	if (check_block(c, true))
		return -EINVAL;
	c->i++;
	return 0;
}

/* A statement that is not a block: its first word says what it is. */
static int check_simple(struct chk *c, size_t k, size_t end)
{
	char word[64];
	const char *why;

	if (c->t[k].kind == TK_IDENT) {
		text_of(c, k, word, sizeof(word));
		if (!strcmp(word, "set") || !strcmp(word, "unset"))
			return check_set(c, k, end);
		if (!strcmp(word, "plot"))
			return check_plot(c, k, end, true);
		if (!strcmp(word, "stats"))
			return check_plot(c, k, end, false);
		if (!strcmp(word, "print") || !strcmp(word, "array"))
			return 0;	/* (an array of a core name: check_tokens) */
		if (is_op(c, k + 1, "=") ||
		    ((is_op(c, k + 1, "(") || is_op(c, k + 1, "[")) && is_op(c, closing(c, k + 1) + 1, "=")))
			return 0;	/* a variable, a function, an element */
		why = why_refused(refused_cmds, ARRAY_SIZE(refused_cmds), word);
		return fail(c, k, "'%s' %s: a chart template sets options, defines variables and "
			    "plots its data", word, why ? why : "is not a command a chart template may use");
	}
	if (is_op(c, k, "!"))
		return fail(c, k, "'!' runs the rest of the line in a shell: a chart template "
			    "runs nothing");
	return fail(c, k, "'%s' cannot start a command", text_of(c, k, word, sizeof(word)));
}

static int check_statement(struct chk *c)
{
	size_t end;

	if (is_word(c, c->i, "if"))
		return check_if(c);
	if (is_word(c, c->i, "do"))
		return check_do(c);
	if (is_word(c, c->i, "else")) {		/* the old form: if (c) cmd; else cmd */
		c->i++;
		return 0;
	}
	if (is_op(c, c->i, "{"))
		return fail(c, c->i, "a '{' here: only if, else and do for open a block");
	end = statement_end(c, c->i);
	if (check_simple(c, c->i, end))
		return -EINVAL;
	if (is_op(c, end, "{"))
		return fail(c, end, "a '{' here: only if, else and do for open a block");
	c->i = end;
	return 0;
}

/* Statements to the end, or (in_braces) to the '}' that closes the block,
 * left at c->i. */
static int check_block(struct chk *c, bool in_braces)
{
	while (c->i < c->nt) {
		if (c->t[c->i].kind == TK_EOL) {
			c->i++;
		} else if (is_op(c, c->i, "}")) {
			if (in_braces)
				return 0;
			return fail(c, c->i, "a '}' that closes no '{'");
		} else if (check_statement(c)) {
			return -EINVAL;
		}
	}
	if (in_braces)
		return fail(c, c->nt - 1, "a '{' that is not closed");
	return 0;
}

int gnuplot_check_template(const char *text, size_t n, char *err, size_t len)
{
	struct chk c = { .err = err, .len = len };
	int rc;

	if (n > GNUPLOT_TEMPLATE_MAX) {
		snprintf(err, len, "%zu bytes: a chart template has at most %u", n,
			 GNUPLOT_TEMPLATE_MAX);
		return -EINVAL;
	}
	rc = check_bytes(&c, text, n);
	if (!rc)
		rc = join_lines(&c, text, n);
	if (!rc)
		rc = tokenize(&c);
	if (!rc)
		rc = check_tokens(&c);
	if (!rc)
		rc = check_block(&c, false);
	if (rc == -ENOMEM)
		snprintf(err, len, "out of memory");
	free(c.s);
	free(c.line);
	free(c.col);
	free(c.t);
	return rc;
}
