/* Test plans: Lua 5.4 in a sandbox with the hb.* API. Only the files in
 * core/plan/ touch Lua; this header keeps Lua out of its users. */
#ifndef HB_PLAN_H
#define HB_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <limits.h>
#include <stdint.h>

#include "measure/step.h"

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
	unsigned max_steps;	/* steps (hb.run, hb.exec) a pass may make; 0: PLAN_MAX_STEPS */
};

/* Limits on a plan: its Lua's memory (--lua-memory raises it), the CPU time
 * the dry pass may spend (in Lua and in hb.run's listing of steps alike),
 * where a plan only lists its steps, and the steps a pass may make
 * (--max-steps raises it): a plan that makes steps forever, whose steps'
 * memory is outside Lua's, stops at one or the other. */
#define PLAN_LUA_MEMORY (1ull << 30)
#define PLAN_DRY_LIMIT_S 10
#define PLAN_MAX_STEPS 100000u

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
	/* often while Lua runs or hb.sleep waits (the run's heartbeat; NULL: none) */
	void (*tick)(void *ctx);
	/* hb.note(text): checked UTF-8 text, in both passes (NULL: dropped) */
	void (*note)(void *ctx, const char *text);
};

struct plan_info {
	char *name, *description;
	bool usage;	/* the error is the command line's (a --set nothing reads) */
};

/* Run the plan once. Returns 0, -EINTR when interrupted, or -EINVAL with
 * err holding "file:line: message". */
int plan_execute(const struct plan_opts *o, const struct plan_hooks *hooks,
		 struct plan_info *info, char *err, size_t errlen);
void plan_info_free(struct plan_info *info);

#endif
