/* The build's git commit, passed by the Makefile to this file alone (its
 * object is rebuilt when the commit changes; build/commit). */
#include "base/build_info.h"

#ifndef HB_BUILD_COMMIT
#define HB_BUILD_COMMIT ""
#endif

const char *build_commit(void)
{
	return HB_BUILD_COMMIT;
}
