#!/bin/sh
# make lint: the rules that keep the architecture visible (README, Layout).
#   only core/lua/ includes Lua headers; only core/db/ prepares SQL;
#   a plugin includes only core/hbatest/*.h and its own NAME_*.h beside it;
#   no C file over $MAX_LINES lines;
#   no upward include: util, hist, log, ... < workload, target, worker < step
#   and the rest of core/ < db/ < lua/ (the report API reads the database)
#   < runner < cmd/ < main.c.
# Prints each breach as file:line: rule; exits 1 if there is any.
cd "$(dirname "$0")/../.." || exit 2
MAX_LINES=${MAX_LINES:-600}

breach() {	# rule; grep -n lines on stdin
	sed "s|\$|: $1|"
}

includes() {	# pattern, files: the quoted includes that match
	pat=$1
	shift
	grep -nHE "#include *\"($pat)" "$@" 2>/dev/null
}

checks() {
	grep -nE '#include *[<"](lua|lauxlib|lualib|luaconf)\.h' \
		$(find core -name '*.[ch]' ! -path 'core/lua/*') |
		breach "a Lua header outside core/lua/"
	grep -nE 'sqlite3_prepare' $(find core plugins -name '*.[ch]' ! -path 'core/db/*') |
		breach "sqlite3_prepare outside core/db/"
	for f in plugins/*/*.c; do	# and its own headers beside it: sim.c, sim_model.h
		grep -nHE '#include *"' "$f" |
			grep -vE "#include *\"(hbatest/[a-z_]+|$(basename "$f" .c)_[a-z_]+)\.h\""
	done | breach "a plugin includes more than core/hbatest/*.h and its own NAME_*.h"
	grep -nE '#include *<(lua|lauxlib|lualib|sqlite3)\.h>' plugins/*/*.c |
		breach "a plugin includes a core library"
	for f in $(find core plugins tests/unit -name '*.c'); do
		n=$(wc -l < "$f")
		[ "$n" -le "$MAX_LINES" ] || echo "$f:$n: over $MAX_LINES lines"
	done

	# upward includes: a file includes its own layer and those below
	for f in util hist log strbuf sha256 stop paths sanitize; do
		includes '(workload|target|worker|step|step_spec|exec|guard|probe|progress|loader)\.h' \
			core/$f.c core/$f.h
	done | breach "upward include (util, hist, log, ... are below workload, target, worker)"
	for f in workload target worker; do
		includes '(step|step_spec|exec|guard|probe|progress)\.h' core/$f.c core/$f.h
	done | breach "upward include (workload, target, worker are below step)"
	includes '(cmd|db|lua)/|runner\.h' $(find core -maxdepth 1 -name '*.[ch]' \
		! -name main.c ! -name 'runner.[ch]') |
		breach "upward include (core/ is below db/, lua/, the runner and cmd/)"
	includes '(cmd|lua)/|runner\.h' $(find core/db -name '*.[ch]') |
		breach "upward include (db/ is below lua/, the runner and cmd/)"
	includes 'cmd/|runner\.h' $(find core/lua -name '*.[ch]') |
		breach "upward include (lua/ is below the runner and cmd/)"
	includes 'cmd/' core/runner.c core/runner.h |
		breach "upward include (the runner is below cmd/)"
}

out=$(checks)
if [ -n "$out" ]; then
	echo "$out"
	exit 1
fi
echo "lint: ok"
