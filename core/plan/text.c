/* The rule for a plan's text that reaches the database and the report (names,
 * groups, hb.plan's fields, hb.exec's output): UTF-8 without a NUL. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "plan/state.h"
#include "base/utf8.h"

int plan_text_check(const char *s, size_t n, const char *key, char *err, size_t errlen)
{
	const char *nul = memchr(s, '\0', n);
	size_t bad = utf8_invalid_at(s, n);

	if (nul) {
		snprintf(err, errlen, "%s: a NUL byte at byte %zu: text cannot hold one", key,
			 (size_t)(nul - s) + 1);
		return -EINVAL;
	}
	if (bad < n) {
		snprintf(err, errlen, "%s: byte %zu (0x%02x) is not UTF-8: names and text are "
			 "UTF-8 (convert with iconv -f latin1 -t utf-8, or name it in ASCII)",
			 key, bad + 1, (unsigned char)s[bad]);
		return -EINVAL;
	}
	return 0;
}
