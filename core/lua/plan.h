/* Test plans: Lua 5.4 in a sandbox with the hb.* API. Only the files in
 * core/lua/ touch Lua; this header keeps Lua out of its users. */
#ifndef HB_PLAN_H
#define HB_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <limits.h>
#include <stdint.h>

#include "step.h"

struct plan_opts {
	const char *path;
	bool dry;
	char **targets;		/* --target, replaces hb.targets */
	unsigned ntargets;
	char **sets;		/* --set K=V */
	unsigned nsets;
	bool allow_exec;	/* --allow-exec: hb.exec may run shell commands */
	bool listing;		/* --dry-run: list hb.exec commands even without it */
	uint64_t lua_memory;	/* bytes the plan's Lua may use; 0: PLAN_LUA_MEMORY */
};

/* Limits on a plan's Lua: memory (--lua-memory raises it) and the wall time
 * the dry pass may spend in Lua, where a plan only lists its steps. */
#define PLAN_LUA_MEMORY (1ull << 30)
#define PLAN_DRY_LIMIT_S 10

/* What the plan asks the runner to do. */
struct plan_hooks {
	void *ctx;
	/* hb.run: execute (or, in the dry pass, record) one step. The spec is the
	 * hook's to keep (it frees it). 0, -EINTR, or another -errno with err set. */
	int (*step)(void *ctx, struct step_spec *spec, struct step_totals *t,
		    int64_t *step_id, char *err, size_t errlen);
	/* hb.log */
	void (*log)(void *ctx, const char *msg);
	/* hb.steady's outcome, to store (real pass only) */
	void (*steady)(void *ctx, const struct steady_result *r);
	/* hb.probe(phase): a snapshot of the test bed (real pass only) */
	void (*probe)(void *ctx, const char *phase);
};

struct plan_info {
	char *name, *description;
};

/* Run the plan once. Returns 0, -EINTR when interrupted, or -EINVAL with
 * err holding "file:line: message". */
int plan_execute(const struct plan_opts *o, const struct plan_hooks *hooks,
		 struct plan_info *info, char *err, size_t errlen);
void plan_info_free(struct plan_info *info);

/* ---- step_table.c ---- */
struct lua_State;
/* Build a step from the table at idx merged over the defaults table at
 * defaults_idx (0: none); targets_idx is hb.targets. On bad input returns
 * -EINVAL with a message naming the key; spec is then already freed. */
int plan_step_from_table(struct lua_State *L, int idx, int defaults_idx, int targets_idx,
			 struct step_spec *spec, char *err, size_t errlen);
/* Check the keys of a table of step keys (hb.plan{defaults=...}); 0 or -EINVAL. */
int plan_check_keys(struct lua_State *L, int idx, char *err, size_t errlen);

/* ---- limits.c ---- */
/* What a plan's Lua may spend, and how it stopped; one per plan_execute(). */
struct plan_limits {
	const char *path;		/* the plan file, for "plan.lua:12" */
	bool dry;			/* the dry pass: its time in Lua is limited */
	bool interrupted;		/* the stop flag was raised into Lua */
	uint64_t mem, mem_limit, mem_hard;	/* bytes: in use, the limit, refused beyond */
	uint64_t start_ns, hook_ns;	/* when the plan started; time spent in step hooks */
	int refused_line;		/* where the allocator last refused; -1: never */
	char msg[PATH_MAX + 256];	/* a limit passed: raised again and again */
	struct lua_State *L;
};

/* A Lua state whose allocator counts against mem_limit (0: PLAN_LUA_MEMORY),
 * with the instruction hook set and the clock started; NULL: no memory. */
struct lua_State *plan_limits_open(struct plan_limits *lim, const char *path, bool dry,
				   uint64_t mem_limit);
/* Raise "interrupted" (a signal) into Lua; plan_limits_check() returns -EINTR. */
int plan_raise_interrupt(struct lua_State *L);
/* The innermost line in the plan file itself from stack level `level` out
 * (a call may come through a scripts/ module such as hb.sweep), or 0. */
int plan_line(struct lua_State *L, const char *path, int level);
/* The message handler for lua_pcall: a traceback, and for error values that
 * are not strings (error(42), error({code=1})) a message with the plan line. */
int plan_traceback(struct lua_State *L);
/* How a protected call into the plan ended (status: lua_pcall's): 0, -EINTR,
 * or -EINVAL with err; a limit passed wins even when the plan caught it. */
int plan_limits_check(struct lua_State *L, struct plan_limits *lim, int status, char *err,
		      size_t errlen);

#endif