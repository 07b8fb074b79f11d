/* Where hbatest finds its files: one install-relative search for plugins,
 * the Lua modules in scripts/, reports and saved queries (db/queries/). */
#ifndef HB_PATHS_H
#define HB_PATHS_H

#include <stdbool.h>
#include <stddef.h>

/* PATHS_REPORT_SCRIPTS: scripts/ for a report's require, where
 * $HBATEST_SCRIPTS (a plan's) does not apply. */
enum paths_kind { PATHS_PLUGINS, PATHS_SCRIPTS, PATHS_REPORTS, PATHS_QUERIES,
		  PATHS_REPORT_SCRIPTS };

/* fn(dir, ctx) on each folder of kind, in order, until fn returns true:
 * $HBATEST_SCRIPTS (scripts) or $HBATEST_QUERIES (queries), beside the
 * binary (a build tree: plugins/, scripts/, reports/, db/queries/), the
 * installed tree relative to the binary (moved elsewhere:
 * ../lib/hbatest/plugins, ../share/hbatest/scripts), local (a plan's own
 * ../scripts; NULL: none), the folder it was installed to.
 * (--plugin-path and $HBATEST_PLUGIN_PATH come before these: loader.c.)
 * Returns whether fn stopped the walk. */
bool paths_each(enum paths_kind kind, const char *local,
		bool (*fn)(const char *dir, void *ctx), void *ctx);
/* The first readable dir/rel in paths_each's order: true, out set. */
bool paths_find(enum paths_kind kind, const char *local, const char *rel, char *out,
		size_t len);
/* The folder that holds the running binary (/proc/self/exe less its last
 * part) in out: false when it cannot be read. */
bool paths_self_dir(char *out, size_t len);
/* The folder of a file's path in out: "a/b.lua" -> "a", "b.lua" -> ".",
 * "/b.lua" -> "" (as the path is joined again with a '/'). */
void paths_dirname(const char *path, char *out, size_t len);

#endif
