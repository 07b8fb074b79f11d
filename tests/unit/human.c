/* Numbers for people (base/human.c): the unit each value is scaled to, three
 * significant figures, and the edges where rounding would reach 1000. */
#include <math.h>
#include <string.h>

#include "tap.h"
#include "base/human.h"

static void check(const char *got, const char *want, const char *what)
{
	ok(!strcmp(got, want), "%s: '%s'", what, want);
	if (strcmp(got, want))
		diag("  got '%s'", got);
}

int main(void)
{
	char b[64];

	human_count(0, b, sizeof(b));
	check(b, "0", "no IOPS");
	human_count(850.4, b, sizeof(b));
	check(b, "850", "IOPS below 1000: whole operations");
	human_count(999.4, b, sizeof(b));
	check(b, "999", "999.4 IOPS stay in ops");
	human_count(999.7, b, sizeof(b));
	check(b, "1.00k", "999.7 IOPS round up to 1.00k, never 1000");
	human_count(16535, b, sizeof(b));
	check(b, "16.5k", "16535 IOPS");
	human_count(120468, b, sizeof(b));
	check(b, "120k", "120468 IOPS");
	human_count(4509925, b, sizeof(b));
	check(b, "4.51M", "the null engine's 4.5 million IOPS");
	human_count(99.96e6, b, sizeof(b));
	check(b, "100M", "99.96M rounds to 100M, not 100.0M");

	human_mbps(0, b, sizeof(b));
	check(b, "0 MB/s", "no throughput");
	human_mbps(0.5216, b, sizeof(b));
	check(b, "0.52 MB/s", "half a MB/s");
	human_mbps(67.71, b, sizeof(b));
	check(b, "67.7 MB/s", "67.71 MB/s");
	human_mbps(493.4, b, sizeof(b));
	check(b, "493 MB/s", "493.4 MB/s");
	human_mbps(1876.0, b, sizeof(b));
	check(b, "1.88 GB/s", "1876 MB/s in GB/s");
	human_mbps(4470356.3, b, sizeof(b));
	check(b, "4.47 TB/s", "the null engine's 4470356.3 MB/s in TB/s");

	human_usecs(0.213, b, sizeof(b));
	check(b, "0.21 us", "a fraction of a microsecond");
	human_usecs(850, b, sizeof(b));
	check(b, "850 us", "850 us");
	human_usecs(1626.1, b, sizeof(b));
	check(b, "1.63 ms", "1626.1 us in ms");
	human_usecs(24051.7, b, sizeof(b));
	check(b, "24.1 ms", "24051.7 us in ms");
	human_usecs(2.1e6, b, sizeof(b));
	check(b, "2.10 s", "2.1 million us in seconds");
	human_usecs(5e9, b, sizeof(b));
	check(b, "5000 s", "seconds are the largest unit");
	human_usecs(NAN, b, sizeof(b));
	check(b, "-", "no latency measured");

	human_bytes(512, b, sizeof(b));
	check(b, "512 B", "bytes");
	human_bytes(1536, b, sizeof(b));
	check(b, "1.50 KiB", "1536 bytes in KiB");
	human_bytes(225443840, b, sizeof(b));
	check(b, "215 MiB", "215 MiB");
	human_bytes(2ull << 30, b, sizeof(b));
	check(b, "2.00 GiB", "2 GiB");
	human_bytes(1023ull << 20, b, sizeof(b));
	check(b, "1.00 GiB", "1023 MiB round to 1.00 GiB, never 1023 MiB");
	human_bytes(UINT64_MAX, b, sizeof(b));
	check(b, "16.0 EiB", "the largest count");

	human_count(1234, b, 4);
	check(b, "1.2", "a short buffer is cut, never overrun");
	return tap_done();
}
