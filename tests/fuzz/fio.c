/* Fuzz target: fio's JSON output and interval logs as `hbatest import fio`
 * reads them (core/base/jsonpos.c, core/import/fio/fiolog.c, core/import/fio/): the
 * logs claimed by the JSON's jobs first, as the command does, then the JSON
 * with its logs imported into a database and rolled back. An input is the
 * JSON, then optionally logs as `tail -n +1 r.json r_iops.1.log ...` prints
 * them (see fuzz.h); seeds: tests/fuzz/corpus/fio/. */
#include "import/fio/fio.h"
#include "import/fio/fiolog.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* fio_pair_logs: which logs the JSON's jobs claim; false when one is
 * claimed by none (the command then refuses before importing anything). */
static bool fio_claim(const struct fz_file *f, const char **extra, unsigned nextra,
		      unsigned *nmine)
{
	bool used[FZ_MAX_FILES] = { false };
	struct imp im = { .path = fz_path(f->name), .text = f->text, .len = f->len,
			  .extra = extra, .nextra = nextra, .extra_used = used };

	*nmine = 0;
	if (fz_import(db_import_fio_claim, &im, true) < 0)
		return true;	/* the import proper says what is wrong, without logs */
	for (unsigned x = 0; x < nextra; x++)
		if (!used[x])
			return false;
	*nmine = nextra;
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *extra[FZ_MAX_FILES];
	bool used[FZ_MAX_FILES] = { false };
	struct fz_input in;
	struct imp im = { .extra = extra, .extra_used = used };
	unsigned nextra = 0, nmine;
	const struct fz_file *f;
	struct fiolog_name n;

	fz_split(&in, data, size, "fio.json");
	f = &in.f[0];
	if (f->has_nul || fz_blank(f->text))	/* refused before the importer */
		goto out;
	for (unsigned k = 1; k < in.n; k++)	/* fio_is_log: named as a log */
		if (fiolog_name_parse(in.f[k].name, &n))
			extra[nextra++] = fz_write(&in.f[k]);
	if (!fio_claim(f, extra, nextra, &nmine))
		goto out;
	im.path = fz_path(f->name);
	im.text = f->text;
	im.len = f->len;
	im.nextra = nmine;
	fz_import(db_import_fio, &im, false);
out:
	fz_scratch_clear();
	fz_input_free(&in);
	return 0;
}
