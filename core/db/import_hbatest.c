/* Importing hbatest's JSON export (placeholder). */
#include <errno.h>
#include "db/import.h"

int db_import_hbatest(struct imp *im)
{
	return imp_error(im, 1, 1, "not implemented");
}
