#!/usr/bin/env bash
# make lint's layer rules: the tree passes, and a breach of each rule planted
# in a copy of core/ and plugins/ fails it, naming the file and the rule.
. "$(dirname "$0")/lib.sh"

LINT="$ROOT/tests/dev/lint.sh"
out=$(sh "$LINT" 2>/dev/null); ok $? "the tree passes make lint ($out)"

# plant FILE LINE RULE-PATTERN WHAT [FILE2 LINE2]: add LINE at the top of FILE
# (and LINE2 at the top of FILE2) in a fresh copy
plant() {
	local file=$1 line=$2 pat=$3 what=$4 copy="$TMP/tree"
	rm -rf "$copy" && mkdir -p "$copy/tests" && cp -R "$ROOT/core" "$ROOT/plugins" "$copy/"
	set -- "$file" "$line" "${5:-}" "${6:-}"
	while [ -n "$1" ]; do
		mkdir -p "$copy/$(dirname "$1")"
		{ printf '%s\n' "$2"; cat "$copy/$1" 2>/dev/null || true; } > "$copy/$1.new"
		mv "$copy/$1.new" "$copy/$1"
		shift 2
	done
	out=$(LINT_ROOT="$copy" sh "$LINT" 2>/dev/null); rc=$?
	ok $((rc == 0)) "$what: make lint fails"
	like "$out" "^$file:1:.*$pat" "$what: it names $file and the rule"
}

plant core/base/util.c '#include "measure/step.h"' 'upward include \(base includes measure\)' \
	"base includes measurement"
plant core/measure/step.c '#include "store/db.h"' 'upward include \(measure includes store\)' \
	"measurement includes storage"
plant core/store/write.c '#include "cmd/cmd.h"' 'upward include \(store includes cmd\)' \
	"storage includes a command"
plant core/report/gnuplot.c '#include "run/runner.h"' 'upward include \(report includes run\)' \
	"the report includes the runner"
plant core/import/fio/fiolog.c '#include "import/iometer/iometer.h"' "one import format includes another's" \
	"one import format includes another"
plant core/store/read.c '#include <lua.h>' 'a Lua header outside core/plan/ and core/report/' \
	"storage includes Lua"
plant core/store/write.c '#include "measure/step.h"' 'storage includes a measurement header' \
	"storage includes measurement"
plant core/cmd/list.c 'static void f(void) { sqlite3_prepare_v2(0, 0, 0, 0, 0); }' \
	'sqlite3_prepare outside core/store/' "a command prepares SQL"
plant plugins/engines/null.c '#include "base/util.h"' 'a plugin includes more than core/hbatest' \
	"a plugin includes a core header"
plant plugins/engines/skeleton.c '#include "measure/worker.h"' 'a plugin includes more than core/hbatest' \
	"the engine skeleton includes a core header"
plant plugins/probes/skeleton.c '#include "measure/probe.h"' 'a plugin includes more than core/hbatest' \
	"the probe skeleton includes a core header"
plant core/misc/x.c '/* a new folder */' 'a folder that is no layer' "a folder that is no layer"
# two files calling each other: base/csvlines.c calls utf8.c already; utf8.c
# then calls csvlines back
plant core/base/utf8.c 'void lint_loop(void); void lint_loop(void) { csvlines_free(0); }' \
	'a loop of files calling each other.*core/base/utf8.c uses csvlines_free of core/base/csvlines.c' \
	"two files calling each other"
# two headers including each other
plant core/base/utf8.h '#include "base/csvlines.h"' \
	'a loop of files calling each other.*utf8.h includes core/base/csvlines.h' \
	"two headers including each other" core/base/csvlines.h '#include "base/utf8.h"'

# a lower layer reaching up without an include (a declaration of its own)
plant core/base/strbuf.c 'int plan_execute(void); int lint_up(void) { return plan_execute(); }' \
	'calls up a layer \(base uses plan_execute of core/plan/plan.c\)' "a call up a layer"
# a mutant whose string no longer occurs once (the code moved on)
copy="$TMP/tree"
rm -rf "$copy" && mkdir -p "$copy/tests" && cp -R "$ROOT/core" "$ROOT/plugins" "$ROOT/reports" "$ROOT/scripts" "$ROOT/plans" "$ROOT/examples" \
	"$ROOT/db" "$ROOT/docs" "$ROOT/Makefile" "$copy/" && cp -R "$ROOT/tests/dev" "$ROOT/tests/lib.sh" "$copy/tests/"
cp "$ROOT/tests/mutants.txt" "$copy/tests/"
out=$(LINT_ROOT="$copy" sh "$LINT" 2>/dev/null); ok $? "a copy with the mutant list passes"
sed -i 's/^\(find: unsigned queues = wl->workers\) \* wl->ntargets;$/\1 * wl->ntargets_moved;/' "$copy/tests/mutants.txt"
out=$(LINT_ROOT="$copy" sh "$LINT" 2>/dev/null); rc=$?
ok $((rc == 0)) "a mutant whose string is gone: make lint fails"
like "$out" "^tests/mutants.txt:[0-9]+: mutant 1: its find string occurs 0 times in core/measure/workload.c" \
	"it names the record, the mutant and its file"
done_testing
