/* The one JSON string writer (sb_json_strn, both ways with a byte that is not
 * UTF-8), and base's time stamp, uuid, edit distance and folder helpers. */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "base/paths.h"
#include "base/strbuf.h"
#include "base/util.h"

static void check_json(const char *s, size_t n, enum sb_json_bad bad, const char *want,
		       const char *what)
{
	struct strbuf b = { 0 };
	char *got;

	sb_json_strn(&b, s, n, bad);
	got = sb_take(&b);
	ok(!strcmp(got, want), "%s", what);
	if (strcmp(got, want))
		printf("#   got '%s', want '%s'\n", got, want);
	free(got);
}

static void check_dirname(const char *path, const char *want)
{
	char out[64];

	paths_dirname(path, out, sizeof(out));
	ok(!strcmp(out, want), "the folder of '%s' is '%s' (got '%s')", path, want, out);
}

int main(void)
{
	struct strbuf b = { 0 };
	char buf[64], u[37];
	char *got;

	check_json("a\"b\\c", 5, SB_JSON_FFFD, "\"a\\\"b\\\\c\"", "quote and backslash escaped");
	check_json("1\n2\t3\r4", 7, SB_JSON_FFFD, "\"1\\n2\\t3\\r4\"",
		   "newline, tab and carriage return as \\n \\t \\r");
	check_json("x\001\037\0y", 5, SB_JSON_FFFD, "\"x\\u0001\\u001f\\u0000y\"",
		   "other control characters and NUL as \\u00NN");
	check_json("\xc3\xa9\xe6\xbc\xa2\xf0\x9f\x9a\x80", 9, SB_JSON_FFFD,
		   "\"\xc3\xa9\xe6\xbc\xa2\xf0\x9f\x9a\x80\"", "UTF-8 as it is");
	check_json("a\xff\xc3", 3, SB_JSON_FFFD, "\"a\\ufffd\\ufffd\"",
		   "SB_JSON_FFFD: each byte that is not UTF-8 as U+FFFD");
	check_json("a\xff\xc3\t", 4, SB_JSON_BYTES, "\"a\xff\xc3\\t\"",
		   "SB_JSON_BYTES: each byte that is not UTF-8 kept");
	sb_json_str(&b, NULL);
	sb_json_str(&b, "p\xfe");
	got = sb_take(&b);
	ok(!strcmp(got, "\"\"\"p\xfe\""), "sb_json_str: NULL as \"\", bytes kept");
	free(got);

	util_iso8601(0, 0, buf, sizeof(buf));
	ok(!strcmp(buf, "1970-01-01T00:00:00.000Z"), "util_iso8601 of 0: %s", buf);
	util_iso8601(253402300799, 999, buf, sizeof(buf));
	ok(!strcmp(buf, "9999-12-31T23:59:59.999Z"), "util_iso8601 of the last ms of 9999: %s", buf);
	util_utc_now(buf, sizeof(buf));
	ok(strlen(buf) == 24 && buf[10] == 'T' && buf[23] == 'Z', "util_utc_now: %s", buf);

	util_uuid(u);
	ok(strlen(u) == 36 && u[8] == '-' && u[14] == '4' && strchr("89ab", u[19]) &&
	   strspn(u, "0123456789abcdef-") == 36, "util_uuid: lowercase, version 4: %s", u);

	ok(util_edit_distance("raid5", "raid5") == 0, "util_edit_distance: the same, 0");
	ok(util_edit_distance("raid-5", "raid5") == 1, "util_edit_distance: one deleted, 1");
	ok(util_edit_distance("jbdo", "jbod") == 2, "util_edit_distance: two swapped, 2");
	ok(util_edit_distance("", "oio") == 3 && util_edit_distance("oio", "") == 3,
	   "util_edit_distance: from and to nothing, the length");
	memset(buf, 'a', 63), buf[63] = '\0';
	ok(util_edit_distance("a", buf) == 62, "util_edit_distance: a 63-byte string (past the old 64)");

	check_dirname("plans/a.lua", "plans");
	check_dirname("a.lua", ".");
	check_dirname("/a.lua", "");
	ok(paths_self_dir(buf, sizeof(buf)) && buf[0] == '/', "paths_self_dir: %s", buf);
	return tap_done();
}
