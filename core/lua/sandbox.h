/* The Lua sandbox that plans and reports run in: base, string, table, math,
 * utf8 and a few os functions; load() of text only; require of modules. */
#ifndef HB_LUA_SANDBOX_H
#define HB_LUA_SANDBOX_H

struct lua_State;

void sandbox_open(struct lua_State *L);

#endif
