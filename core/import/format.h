/* The import formats behind `hbatest import KIND FILE...`: one row each in
 * formats.c, and all the command knows of a format (core/import/README.md
 * says how to add one). */
#ifndef HB_IMPORT_FORMAT_H
#define HB_IMPORT_FORMAT_H

#include <stdbool.h>
#include <stddef.h>

#include "import/import.h"

struct import_format {
	const char *name;	/* the KIND on the command line: "fio" */
	imp_fn import;		/* one file, in db_import_file's transaction */
	const char *what;	/* for "'/tmp' is a directory, not a fio JSON file" */
	/* Why a file's start (its first len bytes; cut: there is more) cannot
	 * begin this format, for "FILE:LINE:1: why": a file that cannot is
	 * refused before it is read whole. NULL: the check it has not. */
	const char *(*head_refusal)(const char *text, size_t len, bool cut, unsigned *line);
	/* Whether path is a companion of a result (a fio log, an Iometer inst
	 * file), given every file named. NULL: the format has none. */
	bool (*companion)(const char *path, const char *const *files, int nfiles);
	/* A file that is neither a result nor a companion, refused by its name
	 * alone: says why (log_error), true. NULL: none is. */
	bool (*refused)(const char *path);
	/* Which file each companion extra[x] is of (owner[x], -1: none), before
	 * anything is written: 0, or -1 when something was reported. Each file
	 * is then given its own. NULL: each file is given every companion, and
	 * one that none used (extra_used) is reported by unused. */
	int (*pair)(struct db *db, const char *const *files, int nfiles,
		    const char *const *extra, unsigned nextra, int *owner);
	void (*unused)(const char *path);	/* says why; with companion and no pair */
};

/* The format named name, or NULL. */
const struct import_format *import_format_find(const char *name);
/* The formats' names for a message: "iometer, fio or hbatest". */
void import_format_names(char *buf, size_t len);

#endif
