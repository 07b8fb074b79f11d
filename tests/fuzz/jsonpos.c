/* Fuzz target: core/base/jsonpos.c, the JSON scanner behind every FILE:LINE:COL
 * of the fio and export imports: the JSON found as fio_locate finds it,
 * checked by imp_json_check (and imp_json_twice for a second object), and
 * held against SQLite's JSON, which the importers read it with: a text
 * jsonpos accepts SQLite must accept (else an import fails on a database
 * error), and each value's path (json_tree's fullkey) must lead jsonpos_find
 * to that value. An input is one file; seeds: tests/fuzz/corpus/{fio,hbatest}/. */
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

#include "fuzz.h"
#include "base/jsonpos.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static sqlite3 *sql;
static sqlite3_stmt *valid, *tree;

static void jp_open(void)
{
	if (sql)
		return;
	if (sqlite3_open(":memory:", &sql) != SQLITE_OK ||
	    sqlite3_prepare_v2(sql, "SELECT json_valid(?1)", -1, &valid, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(sql, "SELECT fullkey, json_type(?1, fullkey), key FROM "
			       "json_tree(?1) LIMIT 300",
			       -1, &tree, NULL) != SQLITE_OK)
		fz_fail("sqlite: %s", sqlite3_errmsg(sql));
}

/* The first character of a value of json_type's type. */
static bool jp_starts(const char *type, char c)
{
	if (!strcmp(type, "object"))
		return c == '{';
	if (!strcmp(type, "array"))
		return c == '[';
	if (!strcmp(type, "text"))
		return c == '"';
	if (!strcmp(type, "integer") || !strcmp(type, "real"))
		return c == '-' || (c >= '0' && c <= '9');
	return c == type[0];	/* true, false, null */
}

/* Every value's path (up to 300) leads jsonpos_find to the value SQLite
 * reads there (the first of a key given twice); a path with a key that
 * holds a '"' (which jsonpos's paths cannot say) is left out. */
static void jp_paths(const char *s, size_t n)
{
	sqlite3_bind_text(tree, 1, s, (int)n, SQLITE_STATIC);
	while (sqlite3_step(tree) == SQLITE_ROW) {
		const char *path = (const char *)sqlite3_column_text(tree, 0);
		const char *type = (const char *)sqlite3_column_text(tree, 1);
		const char *key = (const char *)sqlite3_column_text(tree, 2);
		size_t off = jsonpos_find(s, n, path);
		unsigned line, col;

		if (off > n)
			fz_fail("jsonpos_find('%s') = %zu, past the text's %zu bytes", path, off, n);
		jsonpos_linecol(s, off, &line, &col);
		if (!type || strchr(path, '\\') || (key && strchr(key, '"')))
			continue;
		if (!jp_starts(type, s[off]))
			fz_fail("jsonpos_find('%s') = %zu (%u:%u), where '%c' is, not the %s there",
				path, off, line, col, s[off], type);
	}
	sqlite3_reset(tree);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_input in;
	struct imp im = { 0 };
	size_t base = 0, end, second[2];
	const char *s;
	int rc;

	jp_open();
	fz_one(&in, data, size, "fuzz.json");
	s = in.f[0].text;
	if (in.f[0].has_nul || fz_blank(s))	/* refused before the importers */
		goto out;
	if (!strncmp(s, "\xef\xbb\xbf", 3))	/* fio_locate: a BOM, lines before '{' */
		base = 3;
	while (s[base + strspn(s + base, " \t")] != '{' && strchr(s + base, '\n'))
		base = (size_t)(strchr(s + base, '\n') + 1 - s);
	im.path = "fuzz.json";
	im.text = s;
	im.len = in.f[0].len;
	rc = imp_json_check(&im, base, &end, second);
	if (rc > 0)
		rc = imp_json_twice(&im, base, end, second, "fio result", NULL);
	if (rc < 0 && !im.err[0])
		fz_fail("imp_json_check refused without saying why");
	if (rc)
		goto out;
	sqlite3_bind_text(valid, 1, s + base, (int)(end - base), SQLITE_STATIC);
	if (sqlite3_step(valid) != SQLITE_ROW || sqlite3_column_int(valid, 0) != 1)
		fz_fail("jsonpos accepts a JSON text SQLite's json_valid() refuses");
	sqlite3_reset(valid);
	jp_paths(s + base, end - base);
out:
	fz_input_free(&in);
	return 0;
}
