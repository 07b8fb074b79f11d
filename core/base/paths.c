/* The one search for hbatest's files, relative to where the binary is. */
#include <assert.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/paths.h"
#include "base/util.h"

#ifndef HB_PLUGIN_DIR
#define HB_PLUGIN_DIR "/usr/local/lib/hbatest/plugins"
#endif
#ifndef HB_DATA_DIR
#define HB_DATA_DIR "/usr/local/share/hbatest"
#endif

static const struct {
	const char *env;	/* a folder that comes first, or NULL */
	const char *build;	/* beside the binary */
	const char *installed;	/* relative to the binary's folder */
	const char *dir;	/* where `make install` put them */
} kinds[] = {
	[PATHS_PLUGINS] = { NULL, "plugins", "../lib/hbatest/plugins", HB_PLUGIN_DIR },
	[PATHS_SCRIPTS] = { "HBATEST_SCRIPTS", "scripts", "../share/hbatest/scripts",
			    HB_DATA_DIR "/scripts" },
	[PATHS_REPORTS] = { NULL, "reports", "../share/hbatest/reports",
			    HB_DATA_DIR "/reports" },
	[PATHS_QUERIES] = { "HBATEST_QUERIES", "db/queries", "../share/hbatest/queries",
			    HB_DATA_DIR "/queries" },
	[PATHS_REPORT_SCRIPTS] = { NULL, "scripts", "../share/hbatest/scripts",
				   HB_DATA_DIR "/scripts" },
};

bool paths_self_dir(char *out, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", out, len - 1);
	char *slash;

	if (n <= 0)
		return false;
	out[n] = '\0';
	slash = strrchr(out, '/');
	assert(slash);		/* the kernel gives the binary's absolute path */
	*slash = '\0';
	return true;
}

void paths_dirname(const char *path, char *out, size_t len)
{
	char *slash;

	snprintf(out, len, "%s", path);
	slash = strrchr(out, '/');
	if (slash)
		*slash = '\0';
	else
		snprintf(out, len, ".");
}

bool paths_each(enum paths_kind kind, const char *local,
		bool (*fn)(const char *dir, void *ctx), void *ctx)
{
	char self[PATH_MAX], dir[PATH_MAX + 64];
	const char *env;

	assert((size_t)kind < ARRAY_SIZE(kinds));
	env = kinds[kind].env ? getenv(kinds[kind].env) : NULL;
	if (env && *env && fn(env, ctx))
		return true;
	if (paths_self_dir(self, sizeof(self))) {
		snprintf(dir, sizeof(dir), "%s/%s", self, kinds[kind].build);
		if (fn(dir, ctx))
			return true;
		snprintf(dir, sizeof(dir), "%s/%s", self, kinds[kind].installed);
		if (fn(dir, ctx))
			return true;
	}
	if (local && fn(local, ctx))
		return true;
	return fn(kinds[kind].dir, ctx);
}

struct find {
	const char *rel;
	char *out;
	size_t len;
};

static bool readable(const char *dir, void *ctx)
{
	struct find *f = ctx;

	snprintf(f->out, f->len, "%s/%s", dir, f->rel);
	return access(f->out, R_OK) == 0;
}

bool paths_find(enum paths_kind kind, const char *local, const char *rel, char *out,
		size_t len)
{
	struct find f = { rel, out, len };

	return paths_each(kind, local, readable, &f);
}
