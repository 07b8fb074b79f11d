/* Fuzz target: hbatest's JSON export as `hbatest import hbatest` reads it
 * (core/import/hbatest/import_hbatest*.c, core/base/jsonpos.c), imported into a database and
 * rolled back. An input is one file; seeds: tests/fuzz/corpus/hbatest/. */
#include "fuzz.h"
#include "import/hbatest/hbatest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_input in;
	struct imp im = { 0 };

	fz_one(&in, data, size, "export.json");
	if (!in.f[0].has_nul && !fz_blank(in.f[0].text)) {	/* else refused before */
		im.path = fz_path(in.f[0].name);
		im.text = in.f[0].text;
		im.len = in.f[0].len;
		fz_import(db_import_hbatest, &im, false);
	}
	fz_input_free(&in);
	return 0;
}
