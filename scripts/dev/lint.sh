#!/bin/sh
# make lint: the rules that keep the architecture visible (README, Layout).
#   only core/lua/ includes Lua headers; only core/db/ prepares SQL;
#   a plugin includes only core/hbatest/*.h; no C file over $MAX_LINES lines;
#   no upward include: util, hist, log, ... < step < db, lua < runner < cmd < main.
# Prints each breach as file:line: rule, exits 1 if there is any.
cd "$(dirname "$0")/../.." || exit 2
MAX_LINES=${MAX_LINES:-600}

breach() {	# rule; grep -n lines on stdin
	sed "s|\$|: $1|"
}

checks() {

grep -nE '#include *[<"](lua|lauxlib|lualib|luaconf)\.h' $(find core -name '*.[ch]' ! -path 'core/lua/*') |
	breach "a Lua header outside core/lua/"
grep -nE 'sqlite3_prepare' $(find core plugins -name '*.[ch]' ! -path 'core/db/*') |
	breach "sqlite3_prepare outside core/db/"
grep -nE '#include *"' plugins/*/*.c | grep -vE '#include *"hbatest/[a-z_]+\.h"' |
	breach "a plugin includes more than core/hbatest/*.h"
grep -nE '#include *<' plugins/*/*.c | grep -E '<(lua|lauxlib|lualib|sqlite3)\.h>' |
	breach "a plugin includes a core library"
for f in $(find core plugins tests/unit -name '*.c'); do
	n=$(wc -l < "$f")
	[ "$n" -le "$MAX_LINES" ] || echo "$f:$n: over $MAX_LINES lines"
done
# upward includes: a file may include its own layer and those below
low='core/[a-z_0-9]*.[ch]'
for f in $(find core -maxdepth 1 -name '*.[ch]' ! -name 'main.c' ! -name 'runner.[ch]'); do
	grep -nHE '#include *"(cmd|db|lua)/|#include *"runner\.h"' "$f"
done | breach "upward include (core/ basics below db/, lua/, runner, cmd/)"
grep -nHE '#include *"(cmd|lua)/|#include *"runner\.h"' $(find core/db -name '*.[ch]') |
	breach "upward include (db/ below lua/, runner, cmd/)"
grep -nHE '#include *"(cmd|db)/|#include *"runner\.h"' $(find core/lua -name '*.[ch]') |
	breach "upward include (lua/ below db/'s users, runner, cmd/)"
grep -nHE '#include *"cmd/' core/runner.[ch] | breach "upward include (runner below cmd/)"
}

out=$(checks)
if [ -n "$out" ]; then
	echo "$out"
	exit 1
fi
echo "lint: ok"
