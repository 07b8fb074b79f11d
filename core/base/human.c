/* Numbers for people: each scaled to a unit that keeps it to three figures. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>

#include "base/human.h"

/* v in units[0], each unit `step` times the one before: three significant
 * figures ("1.23", "12.3", "123"), the unit the smallest in which the figure
 * rounds below 1000 (so 999.7 reads "1.00k", never "1000"); whole numbers in
 * the first unit when `whole` (operations, bytes). */
static void scaled(double v, double step, const char *const units[], unsigned n, bool whole,
		   const char *sep, char *buf, size_t len)
{
	unsigned u = 0;

	if (!isfinite(v) || v < 0) {
		snprintf(buf, len, "-");
		return;
	}
	while (u + 1 < n && v >= 999.5) {
		v /= step;
		u++;
	}
	if (v == 0 || (u == 0 && whole) || v >= 99.95)
		snprintf(buf, len, "%.0f%s%s", v, sep, units[u]);
	else if (v >= 9.995)
		snprintf(buf, len, "%.1f%s%s", v, sep, units[u]);
	else
		snprintf(buf, len, "%.2f%s%s", v, sep, units[u]);
}

void human_count(double v, char *buf, size_t len)
{
	static const char *const units[] = { "", "k", "M", "G", "T" };

	scaled(v, 1000, units, 5, true, "", buf, len);
}

void human_mbps(double mbps, char *buf, size_t len)
{
	static const char *const units[] = { "MB/s", "GB/s", "TB/s", "PB/s" };

	scaled(mbps, 1000, units, 4, false, " ", buf, len);
}

void human_usecs(double us, char *buf, size_t len)
{
	static const char *const units[] = { "us", "ms", "s" };

	scaled(us, 1000, units, 3, false, " ", buf, len);
}

void human_bytes(uint64_t bytes, char *buf, size_t len)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };

	scaled((double)bytes, 1024, units, 7, true, " ", buf, len);
}
