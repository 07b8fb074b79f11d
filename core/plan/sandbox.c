/* The Lua sandbox: which libraries a plan gets, load() and require(). */
#include <lauxlib.h>
#include <limits.h>
#include <lua.h>
#include <lualib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "measure/guard.h"
#include "plan/sandbox.h"
#include "base/paths.h"
#include "base/util.h"

#define REG_LOADED "hbatest.loaded"	/* require's cache */
#define REG_DIR "hbatest.dir"		/* sandbox_set_dir() */
#define REG_FINDER "hbatest.finder"	/* sandbox_set_finder() */

void sandbox_set_dir(lua_State *L, const char *dir)
{
	lua_pushstring(L, dir);
	lua_setfield(L, LUA_REGISTRYINDEX, REG_DIR);
}

void sandbox_set_finder(lua_State *L, const struct sandbox_finder *f)
{
	lua_pushlightuserdata(L, (void *)f);
	lua_setfield(L, LUA_REGISTRYINDEX, REG_FINDER);
}

static const struct sandbox_finder *finder_of(lua_State *L)
{
	const struct sandbox_finder *f;

	lua_getfield(L, LUA_REGISTRYINDEX, REG_FINDER);
	f = lua_touserdata(L, -1);
	lua_pop(L, 1);
	return f;
}

/* ---- require: modules from scripts/ or the plan's folder, text only ----- */
/* The plan's folder (sandbox_set_dir) into dir and its ../scripts into
 * local: false when none is set. */
static bool plan_dir(lua_State *L, char dir[PATH_MAX], char local[PATH_MAX + 16])
{
	bool has = lua_getfield(L, LUA_REGISTRYINDEX, REG_DIR) == LUA_TSTRING;

	if (has) {
		snprintf(dir, PATH_MAX, "%s", lua_tostring(L, -1));
		snprintf(local, PATH_MAX + 16, "%s/../scripts", dir);
	}
	lua_pop(L, 1);
	return has;
}

bool sandbox_find_module(lua_State *L, const char *name, char *out, size_t len)
{
	char rel[256], dir[PATH_MAX], local[PATH_MAX + 16], own[PATH_MAX + 272];
	bool has_dir;

	snprintf(rel, sizeof(rel), "%s.lua", name);
	for (char *c = rel; *c && strcmp(c, ".lua"); c++)
		if (*c == '.')
			*c = '/';
	if (finder_of(L))
		return finder_of(L)->find(finder_of(L)->ctx, rel, out, len);
	has_dir = plan_dir(L, dir, local);
	if (paths_find(PATHS_SCRIPTS, has_dir ? local : NULL, rel, out, len))
		return true;
	/* last, the plan's own folder: a module kept beside the plan, which
	 * never hides one of scripts/ */
	if (!has_dir)
		return false;
	snprintf(own, sizeof(own), "%s/%s", dir, rel);
	if (access(own, R_OK) != 0)
		return false;
	snprintf(out, len, "%s", own);
	return true;
}

struct dir_list {
	char *buf;
	size_t len;
};

static bool list_dir(const char *dir, void *ctx)
{
	struct dir_list *l = ctx;
	size_t o = strlen(l->buf);

	snprintf(l->buf + o, l->len - o, "%s%s", o ? ", " : "", dir);
	return false;
}

/* Where sandbox_find_module looked, for the error: "a, b, c". */
static void module_dirs(lua_State *L, char *buf, size_t len)
{
	char dir[PATH_MAX], local[PATH_MAX + 16];
	struct dir_list l = { buf, len };
	bool has_dir = plan_dir(L, dir, local);

	buf[0] = '\0';
	paths_each(PATHS_SCRIPTS, has_dir ? local : NULL, list_dir, &l);
	if (has_dir)
		list_dir(dir, &l);
}

static int l_require(lua_State *L)
{
	const char *name = luaL_checkstring(L, 1);
	char path[PATH_MAX], chunk[PATH_MAX + 1];

	lua_getfield(L, LUA_REGISTRYINDEX, REG_LOADED);
	if (lua_getfield(L, -1, name) != LUA_TNIL)
		return 1;
	lua_pop(L, 1);
	if (strstr(name, "..") || strchr(name, '/') || !sandbox_find_module(L, name, path, sizeof(path))) {
		char dirs[2048];

		if (finder_of(L))
			snprintf(dirs, sizeof(dirs), "%s", finder_of(L)->where);
		else
			module_dirs(L, dirs, sizeof(dirs));
		return luaL_error(L, "module '%s' not found: no %s.lua in %s", name, name, dirs);
	}
	snprintf(chunk, sizeof(chunk), "@%s", path);
	size_t sz;
	char *src = util_read_file(path, &sz);

	if (!src)
		return luaL_error(L, "cannot read module '%s'", path);
	guard_protect(path, "a module the plan loads");
	int rc = luaL_loadbufferx(L, src, sz, chunk, "t");

	free(src);
	if (rc != LUA_OK)
		return lua_error(L);
	lua_pushstring(L, name);
	lua_call(L, 1, 1);
	if (lua_isnil(L, -1)) {
		lua_pop(L, 1);
		lua_pushboolean(L, 1);
	}
	lua_pushvalue(L, -1);
	lua_setfield(L, -3, name);
	return 1;
}

/* load() of text only: binary chunks could break the sandbox */
static int l_load(lua_State *L)
{
	int envidx = lua_gettop(L) >= 4 ? 4 : 0;
	size_t len;
	const char *s = luaL_checklstring(L, 1, &len);
	const char *chunk = luaL_optstring(L, 2, "=(load)");

	if (luaL_loadbufferx(L, s, len, chunk, "t") != LUA_OK) {
		lua_pushnil(L);
		lua_insert(L, -2);
		return 2;
	}
	if (envidx) {
		lua_pushvalue(L, envidx);
		if (!lua_setupvalue(L, -2, 1))
			lua_pop(L, 1);
	}
	return 1;
}

void sandbox_open(lua_State *L)
{
	static const char *const os_keep[] = { "time", "clock", "date", "getenv", "difftime", NULL };
	static const char *const base_drop[] = { "dofile", "loadfile", NULL };

	luaL_requiref(L, LUA_GNAME, luaopen_base, 1);
	luaL_requiref(L, LUA_STRLIBNAME, luaopen_string, 1);
	luaL_requiref(L, LUA_TABLIBNAME, luaopen_table, 1);
	luaL_requiref(L, LUA_MATHLIBNAME, luaopen_math, 1);
	luaL_requiref(L, LUA_UTF8LIBNAME, luaopen_utf8, 1);
	lua_pop(L, 5);
	lua_newtable(L);
	luaL_requiref(L, LUA_OSLIBNAME, luaopen_os, 0);	/* not global: we pick from it */
	for (unsigned i = 0; os_keep[i]; i++) {
		lua_getfield(L, -1, os_keep[i]);
		lua_setfield(L, -3, os_keep[i]);
	}
	lua_pop(L, 1);
	lua_setglobal(L, "os");
	for (unsigned i = 0; base_drop[i]; i++) {
		lua_pushnil(L);
		lua_setglobal(L, base_drop[i]);
	}
	lua_register(L, "load", l_load);
	lua_register(L, "require", l_require);
	lua_newtable(L);
	lua_setfield(L, LUA_REGISTRYINDEX, REG_LOADED);
}
