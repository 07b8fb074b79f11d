/* Inside core/plan/: the state of one plan_execute() that the hb.* functions
 * (api.c) and the run lifecycle (plan.c) share. */
#ifndef HB_LUA_STATE_H
#define HB_LUA_STATE_H

#include <limits.h>
#include <lua.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/util.h"
#include "plan/plan.h"

/* Registry keys */
#define REG_DEFAULTS "hbatest.defaults"
#define REG_TARGETS "hbatest.targets"	/* the plan's own hb.targets */
#define REG_CLI_TARGETS "hbatest.cli_targets"

/* ---- step_table.c ---- */
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
	bool dry;			/* the dry pass: its CPU time is limited */
	const char *who;		/* NULL: a plan; else what runs ("the report program") */
	unsigned time_limit_s;		/* of the thread (hook_ns left out); 0: none */
	bool interrupted;		/* the stop flag was raised into Lua */
	uint64_t mem, mem_limit, mem_hard;	/* bytes: in use, the limit, refused beyond */
	uint64_t start_ns, hook_ns;	/* thread CPU time: at the start; in waits that are
					 * not the program's (a report's gnuplot) */
	char refused_where[2 * PATH_MAX + 32];	/* where the allocator last refused ("plan.lua:3",
						 * a module's line after it); "": never */
	void (*tick)(void *ctx);	/* called from the instruction hook (plan_hooks) */
	void *tick_ctx;
	char msg[2 * PATH_MAX + 256];	/* a limit passed: raised again and again */
	struct lua_State *L;
};

/* A Lua state whose allocator counts against mem_limit (0: PLAN_LUA_MEMORY),
 * with the instruction hook set and the clock started; NULL: no memory. */
struct lua_State *plan_limits_open(struct plan_limits *lim, const char *path, bool dry,
				   uint64_t mem_limit);
/* Replace pcall and xpcall (after the base library is open) by ones that
 * raise a stop or a limit again once the call returns, so no pcall loop in a
 * plan can outlast them. */
void plan_limits_guard_pcall(struct lua_State *L);
/* A report program's limits: a plan's memory, and in place of the dry
 * pass's time `seconds` of its own (in Lua and its queries; what the caller
 * adds to hook_ns is not counted), each message naming `who`. */
void plan_limits_for(struct plan_limits *lim, const char *who, unsigned seconds);
/* Set msg (a limit passed: raised again after every pcall) and raise it. */
int plan_limits_raise(struct lua_State *L, const char *msg);
/* For code outside Lua that may run long (a query): true when a stop was
 * asked for or the time limit has passed (then msg says so). */
bool plan_limits_over(struct plan_limits *lim);
/* The clock of the time limits: this thread's CPU time, so that a loaded
 * host's waits (or a stopped process) do not count as the plan's Lua. */
static inline uint64_t plan_clock_ns(void)
{
	return util_thread_cpu_ns();
}
/* Raise "interrupted" (a signal) into Lua; plan_limits_check() returns -EINTR. */
int plan_raise_interrupt(struct lua_State *L);
/* The innermost line in the plan file itself from stack level `level` out
 * (a call may come through a scripts/ module such as hb.sweep), or 0. */
int plan_line(struct lua_State *L, const char *path, int level);
/* The line in a module of the plan's (a require'd file such as
 * scripts/review.lua; not the plan library scripts/hbatest.lua) that the
 * plan's line called and that led here (from stack level `level` out): of
 * the module frames between here and the plan, the one nearest the plan, so
 * a module's helper called from many places names the place. Its file (as
 * Lua names it) goes to buf; 0 when the plan called directly. */
int plan_module_line(struct lua_State *L, const char *path, int level, char *buf,
		     size_t len);
/* The message handler for lua_pcall: a traceback, and for error values that
 * are not strings (error(42), error({code=1})) a message with the plan line. */
int plan_traceback(struct lua_State *L);
/* How a protected call into the plan ended (status: lua_pcall's): 0, -EINTR,
 * or -EINVAL with err; a limit passed wins even when the plan caught it. */
int plan_limits_check(struct lua_State *L, struct plan_limits *lim, int status, char *err,
		      size_t errlen);

/* ---- text.c ---- */
/* A name or other text a plan gives (key: what it is, for the message) must
 * be UTF-8 with no NUL byte, so that no report, SVG or database row cuts it
 * or shows it broken: 0, or -EINVAL with err naming the key and the byte. */
int plan_text_check(const char *s, size_t n, const char *key, char *err, size_t errlen);

/* ---- plan.c ---- */
struct plan {
	const struct plan_opts *o;
	const struct plan_hooks *hooks;
	struct plan_info *info;
	bool *set_used;
	char keys_read[256];		/* the hb.set keys read, ", "-separated */
	char dir[PATH_MAX];		/* folder of the plan file */
	bool layout_warned;		/* plan_layout_check has warned */
	unsigned steps;			/* made so far (hb.run, hb.exec) */
	struct plan_limits lim;
};

/* ---- layout.c ---- */
/* In the dry pass, warn once when a step's engine simulates a layout (its
 * option layout, as the sim's) that the plan's name or file name does not:
 * a sim step of JBOD in "RAID5 review suite" or raid5.lua. */
void plan_layout_check(struct plan *p, const struct step_spec *s);

/* ---- api.c ---- */
/* The global table hb, its functions holding p as their upvalue, and
 * print() as hb.log. */
void api_open(lua_State *L, struct plan *p);

#endif
