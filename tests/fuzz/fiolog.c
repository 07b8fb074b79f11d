/* Fuzz target: fio's interval logs as core/import/fio/fiolog.c reads them, without
 * a JSON: every file of the input added to one job's logs (its kind from
 * its name, NAME_KIND.N.log, else an IOPS log), then every second read
 * back. An input is one log, or several as `tail -n +1 A B` prints them
 * (see fuzz.h); seeds: tests/fuzz/corpus/fiolog/. */
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "import/fio/fiolog.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fiolog log = { 0 };
	struct fz_input in;

	fz_split(&in, data, size, "fuzz_iops.1.log");
	for (unsigned k = 0; k < in.n; k++) {
		struct fiolog_name n = { .kind = FIOLOG_IOPS };
		/* a job that read and wrote, without end, of any latency */
		struct fiolog_fit fit = { .who = "job 'fuzz'", .io = { true, true },
					  .end_ms = 2147483647LL * 1000,	/* fio's longest runtime */
					  .lat_min = { NAN, NAN }, .lat_max = { NAN, NAN } };
		struct fiolog_fault e = { 0 };

		if (in.f[k].has_nul)	/* imp_read refuses it */
			continue;
		if (!fiolog_name_parse(in.f[k].name, &n))
			n.kind = FIOLOG_IOPS;
		if (fiolog_add(&log, n.kind, in.f[k].text, &fit, &e) &&
		    (!*e.what || !e.line || !e.col))
			fz_fail("a refused log without its line, column and reason");
	}
	for (size_t t = 0; t < log.nsec; t++)
		for (int k = 0; k < FIOLOG_KINDS; k++)
			for (int d = 0; d < 2; d++) {
				double v;

				if (fiolog_value(&log, t, (enum fiolog_kind)k, d, &v) && !isfinite(v))
					fz_fail("second %zu: a value that is not finite", t);
			}
	fiolog_free(&log);
	fz_input_free(&in);
	return 0;
}
