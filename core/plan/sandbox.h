/* The Lua sandbox plans (and reports) run in: base, string, table, math,
 * utf8 and part of os; load() of text only; require() of modules in
 * scripts/ only (paths.c), each loaded once. */
#ifndef HB_LUA_SANDBOX_H
#define HB_LUA_SANDBOX_H

#include <stdbool.h>
#include <stddef.h>

struct lua_State;

void sandbox_open(struct lua_State *L);
/* The folder of the file being run: require() also looks in its ../scripts. */
void sandbox_set_dir(struct lua_State *L, const char *dir);
/* Another program than a plan (a report) searches its own folders: rel is
 * "name.lua" with dots made slashes; where names them in the error. The
 * finder must outlive the state. */
struct sandbox_finder {
	bool (*find)(void *ctx, const char *rel, char *out, size_t len);
	void *ctx;
	const char *where;	/* "reports/ or scripts/" */
};
void sandbox_set_finder(struct lua_State *L, const struct sandbox_finder *f);
/* Where require(name) would load from: true and out set. */
bool sandbox_find_module(struct lua_State *L, const char *name, char *out, size_t len);

#endif
