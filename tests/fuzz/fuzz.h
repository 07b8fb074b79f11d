/* What the fuzz targets share: an input as one or more files, a scratch
 * folder to write companions into, and an import into a database that is
 * rolled back after each input (so every input starts from the same empty
 * database), with the importer's contract checked. */
#ifndef HB_FUZZ_H
#define HB_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "import/import.h"

#define FZ_MAX_FILES 16

/* One file of an input: text is NUL-terminated, len bytes before it (a
 * file that holds a NUL byte has has_nul: imp_read refuses it). */
struct fz_file {
	char name[128];
	char *text;
	size_t len;
	bool has_nul;
};

/* An input split into files as `tail -n +1 A B ...` prints them: a line
 * "==> NAME <==" starts file NAME (and the blank line tail puts before it
 * is not the previous file's); text before the first such line is a file
 * named main_name. At most FZ_MAX_FILES files; later headers stay text. */
struct fz_input {
	char *buf;
	struct fz_file f[FZ_MAX_FILES];
	unsigned n;
};

void fz_split(struct fz_input *in, const uint8_t *data, size_t size, const char *main_name);
/* The whole input as one file. */
void fz_one(struct fz_input *in, const uint8_t *data, size_t size, const char *name);
void fz_input_free(struct fz_input *in);

/* Whether text holds only blanks (`hbatest import` refuses it before the
 * importer: "holds only blanks"). */
bool fz_blank(const char *text);

/* The path of name in the scratch folder (valid until the next call), and
 * f written there (a path valid until fz_scratch_clear, which removes what
 * was written). */
const char *fz_path(const char *name);
const char *fz_write(const struct fz_file *f);
void fz_scratch_clear(void);

/* Run an importer as `hbatest import` does (db_import_file), but in a
 * transaction that is rolled back, and check what it must hold whatever the
 * input: no statement left unfinalized, no transaction left open, a refusal
 * says why (im->err), a success wrote a run (unless claim). Aborts (a
 * crash to libFuzzer) when one does not hold; returns fn's result. */
int fz_import(imp_fn fn, struct imp *im, bool claim);

/* Report a broken contract and abort(). */
void fz_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

#endif
