/* UTF-8: what counts as valid, the first invalid byte, Windows-1252 and U+FFFD. */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "base/utf8.h"

static void check_convert(char *got, const char *want, const char *what)
{
	ok(got && !strcmp(got, want), "%s", what);
	if (got && strcmp(got, want))
		printf("#   got '%s', want '%s'\n", got, want);
	free(got);
}

int main(void)
{
	static const struct {
		const char *s;
		size_t at;
		const char *what;
	} cases[] = {
		{ "plain ASCII", 11, "ASCII is valid" },
		{ "Pr\xc3\xbc" "fung", 8, "a two-byte sequence (\xc3\xbc) is valid" },
		{ "\xe2\x82\xac and \xf0\x9f\x92\xbe", 12, "three- and four-byte sequences are valid" },
		{ "card\xff\xfe" "A", 4, "0xff is not UTF-8" },
		{ "Pr\xfc" "fung", 2, "a Latin-1 byte is not UTF-8" },
		{ "x\xc0\xaf", 1, "an overlong form is not UTF-8" },
		{ "x\xed\xa0\x80", 1, "a surrogate is not UTF-8" },
		{ "x\xf4\x90\x80\x80", 1, "a code point past U+10FFFF is not UTF-8" },
		{ "ab\xe2\x82", 2, "a sequence cut at the end is not UTF-8" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t at = utf8_invalid_at(cases[i].s, strlen(cases[i].s));

		ok(at == cases[i].at, "%s (first invalid byte at %zu, got %zu)", cases[i].what,
		   cases[i].at, at);
	}
	check_convert(utf8_from_cp1252("Pr\xfc" "fung", 7), "Pr\xc3\xbc" "fung",
		      "Latin-1 text reads as written (Pr\xc3\xbc" "fung)");
	check_convert(utf8_from_cp1252("\x80 \x81 \xc3\xbc", 7), "\xe2\x82\xac \xef\xbf\xbd \xc3\xbc",
		      "Windows-1252's 0x80 is the euro sign, 0x81 U+FFFD, valid UTF-8 kept");
	check_convert(utf8_replace_invalid("card\xff\xfe" "A", 7),
		      "card\xef\xbf\xbd\xef\xbf\xbd" "A", "each invalid byte becomes U+FFFD");
	check_convert(utf8_replace_invalid("ok \xc3\xbc", 5), "ok \xc3\xbc", "valid text is copied as is");
	return tap_done();
}
