/* The import formats, one row each: a format is a folder under core/import/
 * that provides the row's functions, and its row here (README.md). */
#include <stdio.h>
#include <string.h>

#include "import/format.h"
#include "import/fio/fio.h"
#include "import/hbatest/hbatest.h"
#include "import/iometer/iometer.h"
#include "base/util.h"

/* In the order usage messages name them. */
static const struct import_format import_formats[] = {
	{ .name = "iometer", .import = db_import_iometer, .what = "an Iometer results file",
	  .head_refusal = iometer_head_refusal, .companion = iometer_is_inst,
	  .unused = iometer_inst_unused },
	{ .name = "fio", .import = db_import_fio, .what = FIO_WHAT,
	  .companion = fio_is_log, .refused = fio_hist_refused, .pair = fio_pair_logs },
	{ .name = "hbatest", .import = db_import_hbatest, .what = "an hbatest JSON export" },
};

const struct import_format *import_format_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(import_formats); i++)
		if (!strcmp(import_formats[i].name, name))
			return &import_formats[i];
	return NULL;
}

void import_format_names(char *buf, size_t len)
{
	size_t n = ARRAY_SIZE(import_formats), at = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s", !i ? "" : i + 1 < n ? ", " : " or ",
				       import_formats[i].name);
}
