/* Limits on a plan's Lua (memory, the dry pass's time, the stop flag) and
 * the messages a plan's errors give, each naming the plan line. */
#include <assert.h>
#include <errno.h>
#include <lauxlib.h>
#include <lua.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "plan/state.h"
#include "base/stop.h"
#include "measure/worker.h"

/* Lua instructions between two limits_hook() calls. A count hook makes the
 * VM look at every instruction and slows a pure-Lua loop (about 2x), which a
 * plan, microseconds of Lua a step, does not feel. It covers coroutines too,
 * which inherit the hook. */
#define HOOK_EVERY 10000

static char interrupt_marker;

/* Every thread (coroutine) gets a copy of the main thread's extra space. */
static struct plan_limits *limits_of(lua_State *L)
{
	return *(struct plan_limits **)lua_getextraspace(L);
}

int plan_raise_interrupt(lua_State *L)
{
	limits_of(L)->interrupted = true;
	lua_pushlightuserdata(L, &interrupt_marker);
	return lua_error(L);
}

int plan_line(lua_State *L, const char *path, int level)
{
	lua_Debug ar;

	for (; lua_getstack(L, level, &ar); level++) {
		if (lua_getinfo(L, "Sl", &ar) && ar.source[0] == '@' &&
		    strcmp(ar.source + 1, path) == 0 && ar.currentline > 0)
			return ar.currentline;
	}
	return 0;
}

/* The plan library (scripts/hbatest.lua: hb.sweep, hb.steady) is no module
 * of the plan's: a position names the line that called it. */
static bool is_plan_library(const char *source)
{
	size_t n = strlen(source);

	return n >= 12 && !strcmp(source + n - 12, "/hbatest.lua");
}

int plan_module_line(lua_State *L, const char *path, int level, char *buf, size_t len)
{
	lua_Debug ar;
	int line = 0;

	for (; lua_getstack(L, level, &ar); level++) {
		if (!lua_getinfo(L, "Sl", &ar) || ar.source[0] != '@' || ar.currentline <= 0)
			continue;
		if (!strcmp(ar.source + 1, path))
			return line;
		if (is_plan_library(ar.source))
			continue;
		snprintf(buf, len, "%s", ar.source + 1);
		line = ar.currentline;
	}
	return 0;	/* no line of the plan's on the stack */
}

/* Where the Lua running at stack level `level` is: "plan.lua:12", then
 * when that code is a module's, its line as Lua names it ("plan.lua:12:
 * ./mod.lua:5", as a Lua error in a module reads), or "plan.lua" when no
 * line of the plan is on the stack. Pushes nothing (the allocator calls it). */
static void plan_where(lua_State *L, const struct plan_limits *lim, int level, char *buf,
		       size_t len)
{
	int line = L ? plan_line(L, lim->path, level) : 0;
	lua_Debug ar;

	if (line <= 0) {
		snprintf(buf, len, "%s", lim->path);
		return;
	}
	for (; lua_getstack(L, level, &ar); level++)
		if (lua_getinfo(L, "Sl", &ar) && ar.source[0] == '@' && ar.currentline > 0)
			break;
	if (strcmp(ar.source + 1, lim->path))
		snprintf(buf, len, "%s:%d: %s:%d", lim->path, line, ar.source + 1,
			 ar.currentline);
	else
		snprintf(buf, len, "%s:%d", lim->path, line);
}

static void format_mib(uint64_t bytes, char *buf, size_t len)
{
	if (bytes >= (1ull << 30) && bytes % (1ull << 30) == 0)
		snprintf(buf, len, "%llu GiB", (unsigned long long)(bytes >> 30));
	else
		snprintf(buf, len, "%.0f MiB", (double)bytes / (1 << 20));
}

static void set_memory_msg(struct plan_limits *lim, const char *where)
{
	char size[32];

	format_mib(lim->mem_limit, size, sizeof(size));
	snprintf(lim->msg, sizeof(lim->msg), "%s: %s's Lua needs more memory than its "
		 "limit of %s (--lua-memory SIZE raises it)", where,
		 lim->who ? lim->who : "the plan", size);
}

static void set_time_msg(struct plan_limits *lim, lua_State *L)
{
	char where[2 * PATH_MAX + 32];

	plan_where(L, lim, 0, where, sizeof(where));
	if (lim->who)
		snprintf(lim->msg, sizeof(lim->msg), "%s: %s has run for %u s: does it loop "
			 "forever? (--lua-time SECONDS raises the limit)", where, lim->who,
			 lim->time_limit_s);
	else
		snprintf(lim->msg, sizeof(lim->msg), "%s: the dry pass has run for %u s: does "
			 "the plan loop forever?", where, lim->time_limit_s);
}

static bool past_time(const struct plan_limits *lim)
{
	uint64_t used = plan_clock_ns() - lim->start_ns;
	uint64_t in_lua = used > lim->hook_ns ? used - lim->hook_ns : 0;

	return lim->time_limit_s && in_lua > lim->time_limit_s * NSEC_PER_SEC;
}

/* Past a limit? Then msg says which, at which plan line. */
static void check_limits(lua_State *L, struct plan_limits *lim)
{
	if (past_time(lim)) {
		set_time_msg(lim, L);
		return;
	}
	if (lim->mem > lim->mem_limit) {
		lua_gc(L, LUA_GCCOLLECT);	/* garbage is not usage */
		if (lim->mem > lim->mem_limit) {
			char where[2 * PATH_MAX + 32];

			plan_where(L, lim, 0, where, sizeof(where));
			set_memory_msg(lim, where);
		}
	}
}

/* Every HOOK_EVERY instructions, in every Lua function and coroutine: stop
 * on SIGINT/SIGTERM/SIGHUP even inside an endless loop, and raise a limit
 * again each time, so a pcall in the plan cannot swallow it. */
/* A stop (signal) or a limit already reached, raised (again) into Lua. */
static void raise_pending(lua_State *L, struct plan_limits *lim)
{
	if (hb_stop_requested)
		plan_raise_interrupt(L);
	if (lim->msg[0]) {
		lua_pushstring(L, lim->msg);
		lua_error(L);
	}
}

static void limits_hook(lua_State *L, lua_Debug *ar)
{
	struct plan_limits *lim = limits_of(L);

	(void)ar;
	if (lim->tick)
		lim->tick(lim->tick_ctx);
	if (!hb_stop_requested && !lim->msg[0])
		check_limits(L, lim);
	raise_pending(L, lim);
}

/* After a pcall or xpcall of the plan returns, outside it now: a stop or a
 * limit that fired inside is raised again, so that a loop of pcalls (each
 * catching the hook's error, which almost always fires inside the inner
 * call) cannot outlive the dry pass's time or a signal. */
static int after_pcall(lua_State *L, int status, lua_KContext ctx)
{
	(void)status, (void)ctx;
	raise_pending(L, limits_of(L));
	return lua_gettop(L);
}

static int guarded_pcall(lua_State *L)
{
	lua_pushvalue(L, lua_upvalueindex(1));	/* the library's pcall or xpcall */
	lua_insert(L, 1);
	lua_callk(L, lua_gettop(L) - 1, LUA_MULTRET, 0, after_pcall);
	return after_pcall(L, LUA_OK, 0);
}

void plan_limits_guard_pcall(lua_State *L)
{
	static const char *const names[] = { "pcall", "xpcall" };

	for (unsigned i = 0; i < 2; i++) {
		lua_getglobal(L, names[i]);
		lua_pushcclosure(L, guarded_pcall, 1);
		lua_setglobal(L, names[i]);
	}
}

/* Lua's allocator, counting bytes. Beyond a margin over the limit it refuses,
 * which Lua raises as "not enough memory" (after one emergency collection,
 * which calls here again); it notes the plan line for the message. */
static void *limits_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
	struct plan_limits *lim = ud;
	void *n;

	if (!ptr)
		osize = 0;	/* then it is the kind of object, not a size */
	assert(lim->mem >= osize);	/* every block Lua holds was counted here */
	if (nsize == 0) {
		free(ptr);
		lim->mem -= osize;
		return NULL;
	}
	if (nsize > osize && lim->mem + (nsize - osize) > lim->mem_hard) {
		plan_where(lim->L, lim, 0, lim->refused_where, sizeof(lim->refused_where));
		return NULL;
	}
	n = realloc(ptr, nsize);
	if (n)
		lim->mem = lim->mem - osize + nsize;
	return n;
}

static int limits_panic(lua_State *L)
{
	log_error("plan: unprotected Lua error: %s", lua_tostring(L, -1));
	return 0;	/* then Lua aborts */
}

lua_State *plan_limits_open(struct plan_limits *lim, const char *path, bool dry,
			    uint64_t mem_limit)
{
	memset(lim, 0, sizeof(*lim));
	lim->path = path;
	lim->dry = dry;
	lim->time_limit_s = dry ? PLAN_DRY_LIMIT_S : 0;
	lim->mem_limit = mem_limit ? mem_limit : PLAN_LUA_MEMORY;
	lim->mem_hard = lim->mem_limit + lim->mem_limit / 8;
	lim->L = lua_newstate(limits_alloc, lim);
	if (!lim->L)
		return NULL;
	*(struct plan_limits **)lua_getextraspace(lim->L) = lim;
	lua_atpanic(lim->L, limits_panic);
	lim->start_ns = plan_clock_ns();
	lua_sethook(lim->L, limits_hook, LUA_MASKCOUNT, HOOK_EVERY);
	return lim->L;
}

void plan_limits_for(struct plan_limits *lim, const char *who, unsigned seconds)
{
	lim->who = who;
	lim->time_limit_s = seconds;
}

int plan_limits_raise(lua_State *L, const char *msg)
{
	struct plan_limits *lim = limits_of(L);

	snprintf(lim->msg, sizeof(lim->msg), "%s", msg);
	lua_pushstring(L, lim->msg);
	return lua_error(L);
}

bool plan_limits_over(struct plan_limits *lim)
{
	if (!hb_stop_requested && !lim->msg[0] && past_time(lim))
		set_time_msg(lim, lim->L);
	return hb_stop_requested || lim->msg[0];
}

/* A table's first few scalar fields: {code=1, what="disk"} */
static void add_table_text(lua_State *L, int idx, luaL_Buffer *b)
{
	int n = 0;

	luaL_addchar(b, '{');
	lua_pushnil(L);
	while (lua_next(L, idx)) {
		if (n++ == 8) {
			luaL_addstring(b, ", ...");
			lua_pop(L, 2);
			break;
		}
		if (n > 1)
			luaL_addstring(b, ", ");
		if (lua_type(L, -2) == LUA_TSTRING)
			lua_pushfstring(L, "%s=", lua_tostring(L, -2));
		else
			lua_pushfstring(L, "[%s]=", luaL_typename(L, -2));
		luaL_addvalue(b);
		if (lua_type(L, -1) == LUA_TSTRING)
			lua_pushfstring(L, "\"%s\"", lua_tostring(L, -1));
		else if (lua_type(L, -1) == LUA_TNUMBER || lua_type(L, -1) == LUA_TBOOLEAN)
			luaL_tolstring(L, -1, NULL);
		else
			lua_pushstring(L, luaL_typename(L, -1));
		luaL_addvalue(b);
		lua_pop(L, 1);
	}
	luaL_addchar(b, '}');
}

/* Replace the error value at 1 that is not a string (error(42), error(nil),
 * error({code = 1}), an object with __tostring) by a message with the plan
 * line: Lua adds a position only to string messages. */
static void error_value_text(lua_State *L)
{
	struct plan_limits *lim = limits_of(L);
	char where[2 * PATH_MAX + 32];
	luaL_Buffer b;

	plan_where(L, lim, 1, where, sizeof(where));
	luaL_buffinit(L, &b);
	luaL_addstring(&b, where);
	if (luaL_getmetafield(L, 1, "__tostring") != LUA_TNIL) {
		lua_pop(L, 1);
		luaL_addstring(&b, ": ");
		luaL_tolstring(L, 1, NULL);
		luaL_addvalue(&b);
	} else if (lua_istable(L, 1)) {
		luaL_addstring(&b, ": error raised with a table: ");
		add_table_text(L, 1, &b);
	} else if (lua_isnil(L, 1)) {
		luaL_addstring(&b, ": error raised with nil (no message)");
	} else {
		lua_pushfstring(L, ": error raised with a %s: ", luaL_typename(L, 1));
		luaL_addvalue(&b);
		luaL_tolstring(L, 1, NULL);
		luaL_addvalue(&b);
	}
	luaL_pushresult(&b);
	lua_replace(L, 1);
}

/* A message raised in a module (scripts/hbatest.lua's hb.sweep, a module of
 * the plan's) names the module's line only: put the plan's line before it,
 * as every other plan error starts with it. */
static void error_plan_line(lua_State *L)
{
	struct plan_limits *lim = limits_of(L);
	const char *msg = lua_tostring(L, 1);
	size_t n = strlen(lim->path);
	int line;

	if (!strncmp(msg, lim->path, n) && msg[n] == ':')
		return;
	line = plan_line(L, lim->path, 1);
	if (line <= 0)
		return;
	lua_pushfstring(L, "%s:%d: %s", lim->path, line, msg);
	lua_replace(L, 1);
}

int plan_traceback(lua_State *L)
{
	if (lua_touserdata(L, 1) == &interrupt_marker)
		return 1;
	if (lua_type(L, 1) != LUA_TSTRING)
		error_value_text(L);
	else
		error_plan_line(L);
	luaL_traceback(L, L, lua_tostring(L, 1), 1);
	return 1;
}

/* The message up to the traceback; the traceback itself goes to debug. */
static void report_error(lua_State *L, char *err, size_t len)
{
	const char *msg = lua_tostring(L, -1);
	const char *tb = msg ? strstr(msg, "\nstack traceback:") : NULL;

	if (!msg)
		msg = "error object is not a string";
	snprintf(err, len, "%.*s", tb ? (int)(tb - msg) : (int)strlen(msg), msg);
	if (tb)
		log_debug("%s", tb + 1);
}

int plan_limits_check(lua_State *L, struct plan_limits *lim, int status, char *err,
		      size_t len)
{
	if (lim->interrupted)
		return -EINTR;
	if (!lim->msg[0] && status == LUA_ERRMEM)
		set_memory_msg(lim, lim->refused_where[0] ? lim->refused_where : lim->path);
	if (lim->msg[0]) {	/* a limit wins over whatever the plan made of it */
		snprintf(err, len, "%s", lim->msg);
		return -EINVAL;
	}
	if (status == LUA_OK)
		return 0;
	report_error(L, err, len);
	return -EINVAL;
}
