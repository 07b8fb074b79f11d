/* SANITIZE=1 builds only: make UBSan honour UBSAN_OPTIONS=log_path. With GCC
 * each sanitizer runtime has its own report file, and libubsan's call to set
 * its path from its flags binds to libasan's copy, so UBSan reports go to
 * stderr, where a test that ignores a command's output would lose them.
 * `make check` looks for reports in files; this sets libubsan's own path. */
#ifdef HB_SANITIZE
#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sanitizer/common_interface_defs.h>

#include "base/sanitize.h"

static void (*ubsan_set_path(void))(const char *)
{
	void *ubsan = dlopen("libubsan.so.1", RTLD_NOW | RTLD_NOLOAD);
	void (*set_path)(const char *) = NULL;

	if (ubsan) {	/* still loaded: we hold a reference from the link */
		*(void **)&set_path = dlsym(ubsan, "__sanitizer_set_report_path");
		dlclose(ubsan);
	}
	return set_path;
}

void sanitize_set_log(const char *path)
{
	void (*set_path)(const char *) = ubsan_set_path();

	__sanitizer_set_report_path(path);	/* ASan and LSan */
	if (set_path)
		set_path(path);
}

__attribute__((constructor)) static void sanitize_ubsan_log_path(void)
{
	const char *opts = getenv("UBSAN_OPTIONS"), *p;
	void (*set_path)(const char *) = ubsan_set_path();
	char path[PATH_MAX];
	size_t n;

	p = opts ? strstr(opts, "log_path=") : NULL;
	if (set_path && p) {
		p += strlen("log_path=");
		n = strcspn(p, ":");
		if (n && n < sizeof(path)) {
			memcpy(path, p, n);
			path[n] = '\0';
			set_path(path);
		}
	}
}
#endif
