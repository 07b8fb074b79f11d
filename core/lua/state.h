/* Inside core/lua/: the state of one plan_execute() that the hb.* functions
 * (api.c) and the run lifecycle (plan.c) share. */
#ifndef HB_LUA_STATE_H
#define HB_LUA_STATE_H

#include <limits.h>
#include <lua.h>
#include <stdbool.h>

#include "lua/plan.h"

/* Registry keys */
#define REG_DEFAULTS "hbatest.defaults"
#define REG_TARGETS "hbatest.targets"	/* the plan's own hb.targets */
#define REG_CLI_TARGETS "hbatest.cli_targets"

struct plan {
	const struct plan_opts *o;
	const struct plan_hooks *hooks;
	struct plan_info *info;
	bool *set_used;
	char dir[PATH_MAX];		/* folder of the plan file */
	struct plan_limits lim;
};

/* The global table hb, its functions holding p as their upvalue, and
 * print() as hb.log. */
void api_open(lua_State *L, struct plan *p);

#endif
