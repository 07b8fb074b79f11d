/* hbatest's own JSON export as `hbatest import hbatest` takes it (its row
 * in core/import/formats.c). */
#ifndef HB_IMPORT_HBATEST_HBATEST_H
#define HB_IMPORT_HBATEST_HBATEST_H

#include "import/import.h"

/* Import an export of `hbatest export RUN --format json` (an imp_fn). */
int db_import_hbatest(struct imp *im);

#endif
