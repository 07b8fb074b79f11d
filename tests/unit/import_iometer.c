/* The Iometer reader's parts below the database: the name set a large
 * result is checked against (a hash set, not a walk: bounded probes), the
 * head check (UTF-16 named, a UTF-8 byte-order mark skipped) and the lines
 * (Windows-1252 fields read as UTF-8, the file's columns kept). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/csvlines.h"
#include "import/iometer/import_iometer.h"
#include "import/iometer/iometer.h"
#include "tap.h"
#include "base/utf8.h"

#define NKEYS 100000

static void check_names(void)
{
	struct iom_names s = { 0 };
	unsigned *val;
	char key[32];
	int fresh = 0, again = 0, kept = 0;

	for (unsigned i = 0; i < NKEYS; i++) {
		int n = snprintf(key, sizeof(key), "PHYSICALDRIVE:%u", i);

		fresh += iom_names_add(&s, key, (size_t)n, &val) == 0;
		val[0] = i;
	}
	for (unsigned i = 0; i < NKEYS; i++) {
		int n = snprintf(key, sizeof(key), "PHYSICALDRIVE:%u", i);

		again += iom_names_add(&s, key, (size_t)n, &val) == 1;
		kept += val[0] == i;
	}
	ok(fresh == NKEYS && s.n == NKEYS, "%d names, each new once (%d new, %zu held)", NKEYS,
	   fresh, s.n);
	ok(again == NKEYS && kept == NKEYS, "each found again with its values (%d found, %d kept)",
	   again, kept);
	/* a walk through the names before (the quadratic import of issue 32)
	 * looks at n^2/2 of them; a hash set at most half full at a few each */
	ok(s.probes <= 4 * 2 * (size_t)NKEYS, "%d adds looked at %zu slots (at most %d: "
	   "constant time each)", 2 * NKEYS, s.probes, 8 * NKEYS);
	ok(iom_names_add(&s, "a\0bc", 4, &val) == 0 && iom_names_add(&s, "ab\0c", 4, &val) == 0 &&
	   iom_names_add(&s, "ab", 2, &val) == 0 && iom_names_add(&s, "ab\0c", 4, &val) == 1,
	   "keys are bytes: a NUL inside one is part of it");
	iom_names_clear(&s);
	ok(s.n == 0 && s.cap == 0, "cleared");
}

static void check_head(void)
{
	static const char le_bom[] = "\xff\xfe'\0T\0e\0s\0t\0";
	static const char be_bom[] = "\xfe\xff\0'\0T\0e\0s\0t";
	static const char le[] = "'\0T\0e\0s\0t\0";
	static const char be[] = "\0'\0T\0e\0s\0t";
	static const char results[] = "'Test Type,Test Description\r\n0,x\r\n";
	static const char bom[] = "\xef\xbb\xbf'Test Type,Test Description\r\n0,x\r\n";
	const char *why;
	unsigned line;

	why = iometer_head_refusal(le_bom, sizeof(le_bom) - 1, true, &line);
	ok(why && strstr(why, "UTF-16 LE") && strstr(why, "save it as UTF-8"),
	   "UTF-16 LE with its byte-order mark: %s", why ? why : "(accepted)");
	why = iometer_head_refusal(be_bom, sizeof(be_bom) - 1, true, &line);
	ok(why && strstr(why, "UTF-16 BE"), "UTF-16 BE with its byte-order mark: %s",
	   why ? why : "(accepted)");
	why = iometer_head_refusal(le, sizeof(le) - 1, true, &line);
	ok(why && strstr(why, "UTF-16 LE"), "UTF-16 LE without one: %s", why ? why : "(accepted)");
	why = iometer_head_refusal(be, sizeof(be) - 1, true, &line);
	ok(why && strstr(why, "UTF-16 BE"), "UTF-16 BE without one: %s", why ? why : "(accepted)");
	ok(!iometer_head_refusal(results, sizeof(results) - 1, false, &line),
	   "Iometer's first line is accepted");
	ok(!iometer_head_refusal(bom, sizeof(bom) - 1, false, &line),
	   "and after a UTF-8 byte-order mark");
	why = iometer_head_refusal("{\"jobs\": []}\n", 13, false, &line);
	ok(why && !strcmp(why, IOMETER_NOT_RESULTS) && line == 1, "a fio file is not Iometer's");
	ok(!iometer_head_refusal("\x7f" "ELF\2\1\1\0\0\0", 10, true, &line),
	   "binary data that is not UTF-16 is left to the reader (a NUL byte)");
}

static void check_lines(void)
{
	static const char text[] = "\xef\xbb\xbf'Test Type,Test Description\r\n"
				   "0,Pr\xfc" "fung \x80,12x\r\n"
				   "0,Pr\xc3\xbc" "fung\r\n"
				   "4096,100,0,100,0,1,0,0,\r\n";
	struct csvlines c;
	const struct csvline *l;

	ok(csvlines_read(&c, text, sizeof(text) - 1, 0) == 0 && c.n == 4, "four lines");
	l = &c.l[0];
	ok(!strcmp(csvline_field(l, 0), "'Test Type") && l->col[0] == 1 && l->col[1] == 12,
	   "a UTF-8 byte-order mark is not text: the first field is '%s' at column %u",
	   csvline_field(l, 0), l->col[0]);
	l = &c.l[1];
	ok(!strcmp(csvline_field(l, 1), "Pr\xc3\xbc" "fung \xe2\x82\xac"),
	   "a Windows-1252 field reads as UTF-8: '%s'", csvline_field(l, 1));
	ok(l->col[2] == 13 && !strcmp(csvline_field(l, 2), "12x"),
	   "the field after it keeps the file's column (%u) and text (%s)", l->col[2],
	   csvline_field(l, 2));
	ok(l->off != NULL && c.l[0].off == NULL, "only a converted line holds offsets");
	l = &c.l[2];
	ok(!strcmp(csvline_field(l, 1), "Pr\xc3\xbc" "fung") && !l->off,
	   "a UTF-8 field is kept as it is");
	l = &c.l[3];
	ok(l->nf == 9 && !csvline_field(l, 8)[0] && l->col[8] == 24,
	   "a trailing comma is a ninth field, empty, at column 24 (%u fields)", l->nf);
	csvlines_free(&c);
}

int main(void)
{
	check_names();
	check_head();
	check_lines();
	return tap_done();
}
