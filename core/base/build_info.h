/* What this binary was built from. */
#ifndef HB_BUILD_INFO_H
#define HB_BUILD_INFO_H

/* The git commit (12 hex digits, "-dirty" when the tree had changes to
 * tracked files); "" when not built in a git checkout (a tarball). */
const char *build_commit(void);

#endif
