#!/usr/bin/env bash
# make lint's layer rules: the tree passes, and a breach of each rule planted
# in a copy of core/ and plugins/ fails it, naming the file and the rule.
. "$(dirname "$0")/lib.sh"

LINT="$ROOT/scripts/dev/lint.sh"
out=$(sh "$LINT" 2>/dev/null); ok $? "the tree passes make lint ($out)"

# plant FILE LINE RULE-PATTERN WHAT: add LINE at the top of FILE in a fresh copy
plant() {
	local file=$1 line=$2 pat=$3 what=$4 copy="$TMP/tree"
	rm -rf "$copy" && mkdir -p "$copy/tests" && cp -R "$ROOT/core" "$ROOT/plugins" "$copy/"
	mkdir -p "$copy/$(dirname "$file")"
	{ printf '%s\n' "$line"; cat "$copy/$file" 2>/dev/null || true; } > "$copy/$file.new"
	mv "$copy/$file.new" "$copy/$file"
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
plant core/misc/x.c '/* a new folder */' 'a folder that is no layer' "a folder that is no layer"
# a mutant whose string no longer occurs once (the code moved on)
copy="$TMP/tree"
rm -rf "$copy" && mkdir -p "$copy/tests" && cp -R "$ROOT/core" "$ROOT/plugins" "$ROOT/reports" "$ROOT/scripts" "$copy/"
cp "$ROOT/tests/mutants.txt" "$copy/tests/"
out=$(LINT_ROOT="$copy" sh "$LINT" 2>/dev/null); ok $? "a copy with the mutant list passes"
sed -i 's/^\(find: unsigned queues = wl->workers\) \* wl->ntargets;$/\1 * wl->ntargets_moved;/' "$copy/tests/mutants.txt"
out=$(LINT_ROOT="$copy" sh "$LINT" 2>/dev/null); rc=$?
ok $((rc == 0)) "a mutant whose string is gone: make lint fails"
like "$out" "^tests/mutants.txt:[0-9]+: mutant 1: its find string occurs 0 times in core/measure/workload.c" \
	"it names the record, the mutant and its file"
done_testing
