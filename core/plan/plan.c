/* A plan's run: the Lua state with its limits, the sandbox, the hb.* API
 * and the plan library, then the plan's chunk. */
#include <errno.h>
#include <lauxlib.h>
#include <lua.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/sandbox.h"
#include "plan/state.h"
#include "base/paths.h"
#include "base/util.h"

/* hb.sweep, hb.profile, hb.steady, hb.precondition live in scripts/hbatest.lua */
static int load_library(lua_State *L, struct plan *p, char *err, size_t len)
{
	char path[PATH_MAX];
	int rc;

	if (!sandbox_find_module(L, "hbatest", path, sizeof(path))) {
		snprintf(err, len, "cannot find scripts/hbatest.lua (the plan library) beside "
			 "the binary, the plan or $HBATEST_SCRIPTS: is hbatest installed whole?");
		return -ENOENT;
	}
	lua_getglobal(L, "require");
	lua_pushliteral(L, "hbatest");
	rc = lua_pcall(L, 1, 0, 1);
	return plan_limits_check(L, &p->lim, rc, err, len);
}

static int check_sets(struct plan *p, char *err, size_t len)
{
	for (unsigned i = 0; i < p->o->nsets; i++) {
		if (!p->set_used[i]) {
			snprintf(err, len, "%s: --set %s is not read by the plan (%s%s; "
				 "check the spelling)", p->o->path, p->o->sets[i],
				 p->keys_read[0] ? "it reads " : "it reads no --set key",
				 p->keys_read);
			p->info->usage = true;
			return -EINVAL;
		}
	}
	return 0;
}

/* The chunk, run with every limit in force; 0, -EINTR or -EINVAL with err. */
static int run_chunk(lua_State *L, struct plan *p, const char *src, size_t sz, char *err,
		     size_t len)
{
	char chunk[PATH_MAX + 1];
	int st;

	snprintf(chunk, sizeof(chunk), "@%s", p->o->path);
	if (sz && src[0] == LUA_SIGNATURE[0]) {	/* text only: bytecode could break the sandbox */
		snprintf(err, len, "'%s' is compiled Lua (luac output): give the plan's source",
			 p->o->path);
		return -EINVAL;
	}
	st = luaL_loadbufferx(L, src, sz, chunk, "t");
	if (st == LUA_OK)
		st = lua_pcall(L, 0, 0, 1);
	st = plan_limits_check(L, &p->lim, st, err, len);
	return st ? st : check_sets(p, err, len);
}

int plan_execute(const struct plan_opts *o, const struct plan_hooks *hooks,
		 struct plan_info *info, char *err, size_t len)
{
	struct plan p = { .o = o, .hooks = hooks, .info = info };
	char *src;
	size_t sz;
	int rc;
	lua_State *L;

	paths_dirname(o->path, p.dir, sizeof(p.dir));
	src = util_read_file(o->path, &sz);
	if (!src) {
		snprintf(err, len, "cannot read plan '%s': %s", o->path, strerror(errno));
		return -errno;
	}
	p.set_used = calloc(o->nsets + 1, sizeof(bool));
	L = p.set_used ? plan_limits_open(&p.lim, o->path, o->dry, o->lua_memory) : NULL;
	if (!L) {
		free(src);
		free(p.set_used);
		return -ENOMEM;
	}
	p.lim.tick = hooks->tick;
	p.lim.tick_ctx = hooks->ctx;
	sandbox_open(L);
	plan_limits_guard_pcall(L);
	sandbox_set_dir(L, p.dir);
	api_open(L, &p);
	lua_pushcfunction(L, plan_traceback);
	rc = load_library(L, &p, err, len);
	if (rc == 0)
		rc = run_chunk(L, &p, src, sz, err, len);
	lua_close(L);
	free(src);
	free(p.set_used);
	return rc;
}

void plan_info_free(struct plan_info *info)
{
	free(info->name);
	free(info->description);
	info->name = info->description = NULL;
}
