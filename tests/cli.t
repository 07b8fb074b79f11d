#!/usr/bin/env bash
# The command line: version, help, usage errors and their exit codes.
. "$(dirname "$0")/lib.sh"
# V: this hbatest's schema version (db/schema.sql's last line)
V=$(sed -n 's/^PRAGMA user_version = \([0-9]*\);$/\1/p' "$ROOT/db/schema.sql")

out=$("$HB" --version); ok $? "--version exits 0"
like "$out" '^hbatest [0-9]+\.[0-9]+\.[0-9]+ \(plugin ABI 1\.3, database schema '"$V"'\)' "--version names the ABI and schema"
out=$("$HB" help); ok $? "help exits 0"
like "$out" 'hbatest run PLAN.lua' "help shows the run synopsis"
# CMD --help and -h: that command's usage on stdout, nothing on stderr, exit 0
bad=""
for c in run list show plugins probe report sql export import merge; do
	for h in --help -h; do
		out=$("$HB" $c $h 2>"$TMP/err"); rc=$?
		case "$rc $out" in
		"0 usage: hbatest $c "*) [ -s "$TMP/err" ] && bad="$bad $c$h(stderr)" ;;
		*) bad="$bad $c$h(exit $rc: $(head -c 80 "$TMP/err"))" ;;
		esac
	done
done
is "$bad" "" "every command's --help and -h print its usage on stdout and exit 0"
out=$("$HB" run plan.lua --label x --help); ok $? "run PLAN --help exits 0 (an option after the plan)"
like "$out" "hbatest run \[PLAN\.lua\] --resume" "run --help: both usage lines of run"
like "$out" "^--lua-memory SIZE raises" "run --help: the notes on run's options"
for f in "--label TEXT" "--target PATH" "--set K=V" "--dry-run" "--destroy-data DEV" "--resume \\[RUN\\]" "--force"; do
	like "$out" "^  $f  " "run --help: a line on $f"
done
! grep -qE "hbatest list|^report:" <<<"$out"; ok $? "run --help: no other command's usage or notes"
like "$("$HB" sql -h)" '^sql: reads only' "sql -h: its notes"
is "$("$HB" --help)" "$("$HB" help)" "--help prints the whole help"
out=$("$HB" help)
like "$out" "hbatest list \[--db FILE\] \[--check\]" "help names list's --check"
is "$(grep -c "^list, show: .*--check" <<<"$out")" 1 "and the note list and show share, once"
like "$("$HB" show -h)" "^integrity_check \(indexes too\)" "show -h has that note too"
is "$("$HB" -h)" "$("$HB" help)" "-h prints the whole help"
"$HB" frobnicate >/dev/null 2>&1; is $? 2 "an unknown command exits 2"
"$HB" run 2>/dev/null; is $? 2 "run without a plan exits 2"
out=$("$HB" run x.lua --bogus 2>&1); is $? 2 "an unknown option exits 2"
like "$out" "unknown option '--bogus'" "and names the option"
out=$("$HB" run x.lua --set novalue 2>&1); is $? 2 "--set without = exits 2"
out=$("$HB" list --db "$TMP/none.db" 2>&1); is $? 1 "list on a missing database fails"
like "$out" "no database '$TMP/none.db'" "and names the file"
[ ! -e "$TMP/none.db" ]; ok $? "list does not create a database"
out=$("$HB" plugins); ok $? "plugins exits 0"
for e in null psync libaio io_uring; do
	like "$out" "^$e +engine +1\.3 +$ROOT/plugins/$e\.so" "plugins lists the $e engine with ABI and file"
done
like "$out" "^block +probe +1\.3 +$ROOT/plugins/block\.so .* \[sampled\]$" "plugins marks a probe with a sample op"
! grep -E "^(host|null|nvme) .*\[sampled\]" <<<"$out"; ok $? "and not a probe without one, nor an engine"
like "$out" "^\[sampled\]: a probe with a sample op" "plugins says what the mark means"
out=$("$HB" plugins -v)
like "$out" 'sqpoll=bool' "plugins -v lists engine options"
out=$("$HB" plugins --plugin-path "$ROOT/build/tests/plugins" 2>&1)
like "$out" "warning: plugin '$ROOT/build/tests/plugins/abi_major.so' was built for ABI 2\.0" \
	"a plugin of another ABI is reported with its file and version"
like "$out" '^good +engine' "a valid plugin on --plugin-path is listed"
out=$("$HB" plugins --plugin-path "$TMP/no-such-folder" 2>&1); rc=$?
like "$rc $out" "^0 hbatest: warning: plugin folder '$TMP/no-such-folder' \(--plugin-path or HBATEST_PLUGIN_PATH\): No such file" \
	"a --plugin-path folder that does not exist is warned about, not silently skipped"
# two files of one plugin name in one folder: the order of their names would
# decide, and a run stores only the name; in two folders the earlier one wins
mkdir -p "$TMP/dup" "$TMP/dup2"
cp "$ROOT/build/tests/plugins/good.so" "$TMP/dup/a.so"
cp "$ROOT/build/tests/plugins/good.so" "$TMP/dup/b.so"
cp "$ROOT/build/tests/plugins/good.so" "$TMP/dup2/c.so"
out=$("$HB" plugins --plugin-path "$TMP/dup" 2>&1)
like "$out" "warning: plugins '$TMP/dup/a.so' and '$TMP/dup/b.so' are both named 'good': '$TMP/dup/a.so' is used" \
	"two plugins of one name in one folder are warned about, naming both files"
out=$("$HB" plugins --plugin-path "$TMP/dup2:$TMP/dup2:$TMP/dup" 2>&1)
is "$(printf '%s\n' "$out" | grep -c 'both named')" 0 \
	"one folder twice on the path, or a folder after another: no warning"
like "$out" "^good +engine +1\.3 +$TMP/dup2/c\.so" "and the first folder's plugin is used"
# show prints step names whole: cut at 30, "... QD16" would read as "... QD1"
printf 'hb.run{ name = "4k random 70/30 read/write QD16", engine = "null", targets = "v", duration = 1 }\nhb.run{ name = "4k random 70/30 read/write QD1", engine = "null", targets = "v", duration = 1 }\n' > "$TMP/names.lua"
"$HB" run "$TMP/names.lua" --db "$TMP/names.db" -q 2>/dev/null
out=$("$HB" show 1 --db "$TMP/names.db")
like "$out" "   1  measure +4k random 70/30 read/write QD16  done " "show: a 31-character step name whole"
like "$out" "   2  measure +4k random 70/30 read/write QD1   done " "and the column as wide as the longest name"
# the options every command takes, before the command (git's order) too
is "$("$HB" --db "$TMP/names.db" -q show 1)" "$out" "--db and -q before the command: show reads that database"
# a long option's value after '=' too; an option written out whole (getopt_long
# would take a prefix), -v and -q alone, and "--" refused as before
is "$("$HB" --db="$TMP/names.db" show 1)" "$out" "--db=FILE before the command reads as --db FILE"
is "$("$HB" show 1 --db="$TMP/names.db")" "$out" "and after it"
err=$("$HB" run "$TMP/names.lua" --dry --db="$TMP/names.db" 2>&1); is $? 2 "run --dry: exit 2"
like "$err" "hbatest run: unknown option '--dry'$" "a prefix of --dry-run is no option"
like "$("$HB" list -vq 2>&1)" "hbatest list: unexpected argument '-vq'$" "-v and -q stand alone"
like "$("$HB" probe -- x 2>&1)" "hbatest probe: unknown option '--'$" "-- is refused"
"$HB" -q --db "$TMP/before.db" run "$TMP/names.lua" --label first 2>/dev/null; ok $? "and run stores there"
is "$(q "$TMP/before.db" "SELECT label FROM runs")" first "the run is in --db's file"
"$HB" --db "$TMP/before.db" -q import iometer "$ROOT/tests/fixtures/iometer/results-2006.07.27.csv" --label imp 2>/dev/null
ok $? "import too (it reads its kind from the argument after the command)"
is "$(q "$TMP/before.db" "SELECT group_concat(label, ' ') FROM runs")" "first imp" "into --db's file"
out=$("$HB" --db "$TMP/names.db" 2>&1); is $? 2 "options and no command exit 2"
like "$out" "^hbatest: no command after the options" "and say so"
# an option left without its value takes none of those moved from before
# the command (they go to the end of the arguments)
out=$("$HB" --db "$TMP/nv.db" run "$TMP/names.lua" --label 2>&1); is $? 2 "run --label last, --db before the command: exit 2"
like "$out" "option '--label' needs a value" "and names --label, not the moved --db"
[ ! -e "$TMP/nv.db" ]; ok $? "and no database is made"
out=$("$HB" -q --db "$TMP/nv.db" import iometer --label 2>&1); is $? 2 "import --label last: exit 2"
like "$out" "option '--label' needs a value" "and says --label needs a value"
out=$("$HB" --db "$TMP/names.db" list --db 2>&1); is $? 2 "list --db with --db before the command: exit 2"
like "$out" "option '--db' needs a value" "the second --db does not take the first as its value"
# a label given to several runs (a plan run again): the newest, said aloud
for i in 1 2; do "$HB" run "$TMP/names.lua" --db "$TMP/names.db" --label again -q 2>/dev/null; done
out=$("$HB" show again --db "$TMP/names.db" 2>&1 >/dev/null)
like "$out" "warning: label 'again' names 2 runs: using the newest, run 3 \(the others: 2; give an id" \
	"a label of two runs: show says it uses the newest and names the other"
# RUN: an id, then a label, then a uuid prefix of 4 characters or more.
# Runs 1-3 are there; run 4 is labelled "abab", a label that is also the
# start of run 1's uuid, as a label made of the letters a-f is one run in
# 65,536. Runs 2 and 3 are relabelled "efef" and "fafa", run 2's uuid
# starting as run 4's (5 characters alike), run 3's as its own label.
"$HB" run "$TMP/names.lua" --db "$TMP/names.db" --label abab -q 2>/dev/null
q "$TMP/names.db" "UPDATE runs SET uuid = 'abab' || substr(uuid, 5) WHERE id = 1;
	UPDATE runs SET uuid = 'efefe' || substr(uuid, 6), label = 'efef' WHERE id = 2;
	UPDATE runs SET uuid = 'fafa' || substr(uuid, 5), label = 'fafa' WHERE id = 3;
	UPDATE runs SET uuid = 'efefe' || substr(uuid, 6) WHERE id = 4"
run_of() {	# the id RUN names (exit 1 when none)
	"$HB" sql --db "$TMP/names.db" "SELECT :run AS r" --param run="$1" --format csv >"$TMP/out" 2>"$TMP/err" &&
		tail -n +2 "$TMP/out"
}
is "$(run_of abab)" 4 "a label that is also the start of another run's uuid names its run"
like "$(cat "$TMP/err")" "warning: 'abab' is the label of run 4 and the start of the uuid of run 1: using the label \(give an id for that one\)" \
	"and a warning names the other run"
is "$(run_of efef)" 2 "a label that starts its own run's uuid and another's names its run"
like "$(cat "$TMP/err")" "warning: 'efef' is the label of run 2 and the start of the uuid of run 4: using" \
	"and the warning names only the other run"
is "$(run_of fafa) $(cat "$TMP/err")" "3 " "a label that starts only its own run's uuid: no warning"
is "$(run_of "$(q "$TMP/names.db" "SELECT substr(uuid, 1, 8) FROM runs WHERE id = 1")")" 1 "a longer uuid prefix names run 1"
run_of efefe; is $? 1 "a uuid prefix of two runs is an error"
like "$(cat "$TMP/err")" "run 'efefe' is ambiguous: 2 runs have a uuid starting so; give more of it" "which says so"
run_of aba; is $? 1 "a uuid prefix of 3 characters names no run (an id mistyped, '12', named the run in 256 whose uuid starts so)"
like "$(cat "$TMP/err")" "no run 'aba' in " "and the error says it names no run"
# a uuid prefix is text, not a LIKE pattern: a mistyped "raid_5" names no run
u1=$(q "$TMP/names.db" "SELECT substr(uuid, 1, 8) FROM runs WHERE id = 1")
run_of "${u1:0:3}_${u1:4:4}"; is $? 1 "'_' in RUN matches no character of a uuid"
like "$(cat "$TMP/err")" "no run '${u1:0:3}_${u1:4:4}'" "and names no run"
run_of "${u1:0:3}%"; is $? 1 "nor does '%'"
is "$(run_of "$(tr a-f A-F <<<"$u1")")" 1 "a uuid prefix in capitals names its run"
cp "$TMP/names.db" "$TMP/upper.db"; q "$TMP/upper.db" "UPDATE runs SET uuid = upper(uuid) WHERE id = 1"
is "$("$HB" sql --db "$TMP/upper.db" "SELECT :run AS r" --param run="$u1" --format csv 2>/dev/null | tail -1)" 1 \
	"and a uuid stored in capitals (an import's) by its prefix in small letters"
is "$(run_of 2)" 2 "an id"
cp "$TMP/names.db" "$TMP/idlabel.db"; q "$TMP/idlabel.db" "UPDATE runs SET label = '1' WHERE id = 3"
is "$("$HB" sql --db "$TMP/idlabel.db" "SELECT :run AS r" --param run=1 --format csv 2>"$TMP/err" | tail -1)" 1 \
	"an id that is also another run's label (one from an older hbatest) names the run of that id"
like "$(cat "$TMP/err")" "warning: '1' is the id of run 1 and the label of run 3: using the id \(give a uuid prefix for that one\)" \
	"and a warning names the run whose label it is"

# list: the label column is as wide as the widest label (at most 40 terminal
# cells), whatever it holds; a longer one is cut in its middle
cp "$TMP/names.db" "$TMP/lab.db"
q "$TMP/lab.db" "UPDATE runs SET label = '日本語のラベル とても長いラベル名 ŁÓDŹ 🚀🚀🚀 emoji' WHERE id = 1;
	UPDATE runs SET label = 'line1' || char(10) || 'line2' WHERE id = 2"
out=$("$HB" list --db "$TMP/lab.db"); is $? 0 "list with a long UTF-8 label and one with a newline"
iconv -f utf-8 -t utf-8 <<<"$out" >/dev/null; ok $? "its output is valid UTF-8 (a label cut at a character, not a byte)"
is "$(wc -l <<<"$out")" "$(( $(q "$TMP/lab.db" "SELECT count(*) FROM runs") + 1 ))" "one line per run (and the header)"
like "$out" '^   1  ab[0-9a-f]{6}  日本語のラベル と\.\.\.名 ŁÓDŹ 🚀🚀🚀 emoji  done ' \
	"the 51-cell label cut in its middle to 40 cells, '...' marking the cut: a wide character takes two, one that would not fit in the head is left out and the tail takes its cell"
like "$out" '^   2  ef[0-9a-f]{6}  line1\\nline2 {28}  done ' "the newline shown as \\n, the column padded to 40"
q "$TMP/lab.db" "UPDATE runs SET label = 'café 🚀 ŁÓDŹ' WHERE id = 1"
like "$("$HB" list --db "$TMP/lab.db")" '^   1  ab[0-9a-f]{6}  café 🚀 ŁÓDŹ  done ' \
	"labels of at most 12 cells (one with an emoji, which counts two): a column of 12"
# --db "" (an unset variable) or SQLite's :memory: would keep no result
printf 'hb.run{ engine = "null", duration = 1 }\n' > "$TMP/one.lua"
out=$(cd "$TMP" && "$HB" run one.lua --target v1 --db "" 2>&1); rc=$?
is "$rc" 2 "run --db \"\": exit 2 (SQLite made a temporary database of it, gone at exit: results lost, exit 0)"
like "$out" "option '--db' is empty \(an unset variable\?\)" "and says the option is empty"
"$HB" run "$TMP/one.lua" --target v1 --db :memory: 2>"$TMP/err"; is $? 2 "--db :memory: is refused: exit 2"
like "$(cat "$TMP/err")" "--db :memory: would keep nothing" "saying why"
HBATEST_DB=:memory: "$HB" run "$TMP/one.lua" --target v1 -q 2>"$TMP/err"; is $? 1 "HBATEST_DB=:memory: is refused by run: exit 1"
like "$(cat "$TMP/err")" "database ':memory:' is SQLite's name for one that is gone when hbatest ends" "saying why"

# show: a label's tab or newline escaped as list does; a step name's column
# in terminal cells
q "$TMP/lab.db" "UPDATE steps SET name = CASE seq WHEN 1 THEN '日本語' ELSE 'b' END WHERE run_id = 2"
out=$("$HB" show 2 --db "$TMP/lab.db")
like "$out" '^  label        line1\\nline2$' "show: a label's newline shown as \\n, on one line"
like "$out" '^   1  [a-z]+ +日本語 {24}  done ' "show: a CJK step name padded to the name column's 30 cells (6 + 24)"
q "$TMP/lab.db" "UPDATE steps SET name = '$(printf '日%.0s' $(seq 16))' WHERE run_id = 2 AND seq = 1"
out=$("$HB" show 2 --db "$TMP/lab.db")
like "$out" '^   2  [a-z]+ +b {31}  done ' "show: a name of 16 CJK characters makes the column 32 cells wide, not 48 (bytes)"
done_testing
