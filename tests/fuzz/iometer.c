/* Fuzz target: Iometer's results.csv as `hbatest import iometer` reads it
 * (core/import/iometer/iometer.c, core/base/csvlines.c, core/import/iometer/import_iometer*.c), imported
 * into a database and rolled back. An input is the results file, then
 * optionally its inst file as `tail -n +1 results.csv instresults.csv`
 * prints both (see fuzz.h); seeds: tests/fuzz/corpus/iometer/. */
#include <string.h>

#include "fuzz.h"
#include "import/iometer/iometer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *extra[FZ_MAX_FILES];
	bool used[FZ_MAX_FILES] = { false };
	struct fz_input in;
	struct imp im = { .extra = extra, .extra_used = used };
	unsigned line, nextra = 0;
	const struct fz_file *f;

	fz_split(&in, data, size, "results.csv");
	f = &in.f[0];
	if (f->has_nul || fz_blank(f->text))	/* refused before the importer */
		goto out;
	/* the kind check `hbatest import` makes on a file's first 64 KiB */
	iometer_starts_results(f->text, f->len, true, &line);
	/* companions: what iometer_is_inst takes, "inst" + the results' name */
	for (unsigned k = 1; k < in.n; k++)
		if (!strncmp(in.f[k].name, "inst", 4) && !strcmp(in.f[k].name + 4, f->name))
			extra[nextra++] = fz_write(&in.f[k]);
	im.path = fz_path(f->name);
	im.text = f->text;
	im.len = f->len;
	im.nextra = nextra;
	fz_import(db_import_iometer, &im, false);
out:
	fz_scratch_clear();
	fz_input_free(&in);
	return 0;
}
