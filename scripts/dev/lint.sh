#!/bin/sh
# make lint: the rules that keep the architecture visible (README, Layout).
#   only core/lua/ includes Lua headers; only core/db/ prepares SQL;
#   a plugin includes only core/hbatest/*.h and its own NAME_*.h beside it;
#   a C file past $WARN_LINES lines is named as a warning (split at a seam,
#   never at a line count: DESIGN.md, Layout), not a breach;
#   no upward include: util, hist, log, ... < workload, target, worker < step
#   and the rest of core/ < db/ < lua/ (the report API reads the database)
#   < runner < cmd/ < main.c.
# Prints each breach as file:line: rule; exits 1 if there is any.
cd "$(dirname "$0")/../.." || exit 2
WARN_LINES=${WARN_LINES:-800}

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

	# upward includes: a file includes its own layer and those below
	for f in util hist log strbuf sha256 stop paths sanitize utf8; do
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

for f in $(find core plugins tests/unit -name '*.c'); do
	n=$(wc -l < "$f")
	[ "$n" -le "$WARN_LINES" ] ||
		echo "warning: $f:$n: over $WARN_LINES lines; does it hold two jobs?" >&2
done
out=$(checks)
if [ -n "$out" ]; then
	echo "$out"
	exit 1
fi
echo "lint: ok"
