/* The file guard, guard.c's half for regular files: may the run write an
 * existing file (guard.h has its rules), and the files it claims. */
#ifndef HB_GUARD_FILE_H
#define HB_GUARD_FILE_H

#include <stddef.h>

#include "measure/target_id.h"

/* A file target at path, resolved as id (the protected files passed): 0,
 * or -errno with err saying why not. Claims it; in the real pass marks it. */
int guard_file_check(const char *path, const struct target_id *id, char *err, size_t len);
/* The i-th claimed file offered with --destroy-data, and what writing it
 * destroys; NULL past the last. */
const char *guard_file_destroys(unsigned i);
/* Let go of the files' claims; forget the run's uuid. */
void guard_file_release(void);

#endif
