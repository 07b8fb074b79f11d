#!/bin/sh
# make lint: the layer rules of core/ (docs/HACKING.md, Layout), as folder rules.
#   The layers, bottom up: hbatest (the plugin ABI) < base < measure < plan <
#   store < import < report < run < cmd. A file includes headers of its own
#   layer and those below, never above; a format folder of import/ never
#   includes another's.
#   Only plan/ and report/ include Lua headers; only store/ prepares SQL.
#   Storage includes no measurement header: the layer above turns what
#   was measured into the store's rows (store/write.h).
#   A plugin includes only core/hbatest/*.h and its own NAME_*.h beside it.
#   No loop of files calling each other (or headers including each other),
#   and no call up a layer (tests/dev/calls.pl: the graph from the source).
#   Every mutant of tests/mutants.txt finds its string exactly once.
#   A C file past $WARN_LINES lines, and a function past $WARN_FUNC lines, is
#   named as a warning (split at a seam, never at a line count), not a breach.
# Prints each breach as file:line: rule; exits 1 if there is any.
# LINT_ROOT=DIR checks another tree (tests/lint.t plants a breach of each rule).
LINT_HOME=$(cd "$(dirname "$0")/../.." && pwd)
cd "${LINT_ROOT:-$LINT_HOME}" || exit 2
WARN_LINES=${WARN_LINES:-800}
WARN_FUNC=${WARN_FUNC:-80}
LAYERS="hbatest base measure plan store import report run cmd"

rank() {	# the position of layer $1 in $LAYERS, or nothing
	i=0
	for l in $LAYERS; do
		i=$((i + 1))
		[ "$l" = "$1" ] && echo $i && return
	done
}

breach() {	# rule; grep -n lines on stdin
	sed "s|\$|: $1|"
}

upward() {	# each core file's quoted includes of a layer above its own
	for f in $(find core -name '*.[ch]'); do
		layer=${f#core/}
		layer=${layer%%/*}
		own=$(rank "$layer")
		[ -n "$own" ] || { echo "$f:1: a folder that is no layer ($LAYERS)"; continue; }
		grep -nHoE '#include *"[a-z_]+/' "$f" | while IFS= read -r hit; do
			to=${hit##*\"}
			to=${to%/}
			r=$(rank "$to")
			if [ -n "$r" ] && [ "$r" -gt "$own" ]; then
				echo "${hit%%:#*}: upward include ($layer includes $to)"
			fi
		done
	done
}

formats() {	# an import format folder including another format's
	for d in core/import/*/; do
		fmt=$(basename "$d")
		grep -nHE '#include *"import/[a-z_]+/' "$d"*.[ch] 2>/dev/null |
			grep -vE "#include *\"import/$fmt/" |
			breach "one import format includes another's"
	done
}

checks() {
	upward
	formats
	grep -nE '#include *[<"](lua|lauxlib|lualib|luaconf)\.h' \
		$(find core -name '*.[ch]' ! -path 'core/plan/*' ! -path 'core/report/*') |
		breach "a Lua header outside core/plan/ and core/report/"
	grep -nE 'sqlite3_prepare' $(find core plugins -name '*.[ch]' ! -path 'core/store/*') |
		breach "sqlite3_prepare outside core/store/"
	grep -nHE '#include *"measure/' $(find core/store -name '*.[ch]') |
		breach "storage includes a measurement header"
	for f in plugins/*/*.c; do	# and its own headers beside it: sim.c, sim_model.h
		grep -nHE '#include *"' "$f" |
			grep -vE "#include *\"(hbatest/[a-z_]+|$(basename "$f" .c)_[a-z_]+)\.h\""
	done | breach "a plugin includes more than core/hbatest/*.h and its own NAME_*.h"
	grep -nE '#include *<(lua|lauxlib|lualib|sqlite3)\.h>' plugins/*/*.c |
		breach "a plugin includes a core library"
	perl "$LINT_HOME/tests/dev/calls.pl" $LAYERS
	[ ! -f tests/mutants.txt ] ||
		MUTANTS_ROOT=. perl "$LINT_HOME/tests/dev/mutants.pl" --check tests/mutants.txt
}

for f in $(find core plugins $(ls -d tests/unit 2>/dev/null) -name '*.c'); do
	n=$(wc -l < "$f")
	[ "$n" -le "$WARN_LINES" ] ||
		echo "warning: $f:$n: over $WARN_LINES lines; does it hold two jobs?" >&2
done
find core plugins -name '*.c' -exec awk -v max="$WARN_FUNC" -f "$LINT_HOME/tests/dev/fnlen.awk" {} + >&2
out=$(checks)
if [ -n "$out" ]; then
	echo "$out"
	exit 1
fi
echo "lint: ok"
