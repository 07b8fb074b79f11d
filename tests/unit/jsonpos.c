/* jsonpos: the path of the value at an offset (what an import's message
 * names), and the string escapes no C string holds (\u0000, lone surrogates). */
#include <stdlib.h>
#include <string.h>

#include "base/jsonpos.h"
#include "tap.h"

static void check_path(const char *json, const char *at, const char *want)
{
	char buf[128];
	size_t off = (size_t)(strstr(json, at) - json);
	int rc = jsonpos_path(json, strlen(json), off, buf, sizeof(buf));

	ok(want ? rc == 0 && !strcmp(buf, want) : rc < 0, "the path at '%s' is '%s' (got '%s')",
	   at, want ? want : "(none)", rc < 0 ? "(none)" : buf);
}

static void check_escape(const char *json, const char *at, const char *what)
{
	const char *why = NULL;
	size_t off = jsonpos_bad_escape(json, strlen(json), &why);
	size_t want = at ? (size_t)(strstr(json, at) - json) : strlen(json);

	ok(off == want, "%s (offset %zu, got %zu%s%s)", what, want, off, why ? ": " : "",
	   why ? why : "");
}

int main(void)
{
	const char *doc = "{\"jobs\": [{\"jobname\": \"qd1\", \"job options\": {\"bs\": \"4k\"}},\n"
			  " {\"read\": {\"iops\": 1e400}}], \"n\": [1, [2, 3]]}";

	size_t deep = 200000;
	char *nest = malloc(2 * deep + 2), path[64];

	check_path(doc, "\"qd1\"", "jobs[0].jobname");
	check_path(doc, "qd1", "jobs[0].jobname");
	check_path(doc, "\"jobname\"", "jobs[0].jobname");
	check_path(doc, "\"4k\"", "jobs[0].\"job options\".bs");
	check_path(doc, "1e400", "jobs[1].read.iops");
	check_path(doc, "3]", "n[1][1]");
	check_path(doc, ", \"job", "jobs[0]");
	check_path(doc, "{\"jobs", "");
	check_path("  [1]", " [", NULL);
	check_escape("{\"a\": \"x\\u0000y\"}", "\\u0000", "\\u0000 in a string");
	check_escape("{\"a\": \"x\\\\u0000y\"}", NULL, "an escaped backslash before u0000 is text");
	check_escape("[\"\\ud83d\\ude00\", \"\\ud800x\"]", "\\ud800x", "a pair is a character, "
		     "a first half alone is not");
	check_escape("[\"\\uDC00\"]", "\\uDC00", "a second half alone is not a character");
	check_escape("[\"\\u00e9\\n\\\"\"]", NULL, "other escapes are characters");
	/* a path is looked for before the syntax is checked (a byte that is not
	 * UTF-8 comes first): as deep as the check allows, never past the stack */
	memset(nest, '[', deep);
	nest[deep] = '1';
	memset(nest + deep + 1, ']', deep);
	nest[2 * deep + 1] = '\0';
	ok(jsonpos_path(nest, 2 * deep + 1, deep, path, sizeof(path)) == 0 &&
	   !strncmp(path, "[0][0]", 6), "a text nested %zu deep: a path, cut at the depth limit", deep);
	free(nest);
	return tap_done();
}
