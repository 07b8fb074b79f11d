/* Importing Iometer's results.csv (placeholder). */
#include <errno.h>
#include "db/import.h"

int db_import_iometer(struct imp *im)
{
	return imp_error(im, 1, 1, "not implemented");
}
