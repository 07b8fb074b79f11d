#!/usr/bin/env bash
# What a first night's user met at the command line (night27's cosmetic
# items): hbatest with no command is a usage error, list marks a label it
# cuts, the man page names report's real default folder, and the man page's
# exit status for a --set value the plan refuses is the one given; show's
# command line pastes back as it ran.
. "$(dirname "$0")/lib.sh"

# no command: exit 2, the usage on stderr; help, --help and -h: exit 0, stdout
out=$("$HB" 2>"$TMP/err"); rc=$?
is "$rc ${#out}" "2 0" "hbatest with no command: exit 2 (a usage error), nothing on stdout"
like "$(head -3 "$TMP/err" | tr '\n' ' ')" "^hbatest: no command given  usage: hbatest run PLAN.lua" "and the usage on stderr"
for h in help --help -h; do
	out=$("$HB" $h 2>"$TMP/err"); rc=$?
	is "$rc $(printf '%s' "$out" | head -1 | cut -c1-24) $(wc -c < "$TMP/err")" "0 usage: hbatest run PLAN. 0" \
		"hbatest $h: the usage on stdout, exit 0"
done

# list: the label column is as wide as its widest label, up to 40 cells; a
# longer label is cut in its middle ("..."), so that two labels alike but
# for their ends do not read as one label (they did when cut at 24 cells)
DB="$TMP/l.db"
printf 'hb.run{ engine = "null", targets = "v", duration = 1 }\n' > "$TMP/p.lua"
for l in "LSI 9361-8i RAID5 write-back" "exactly-twenty-four-cell" "二十四セルちょうどのラベル" \
	"Adaptec ASR-8885 RAID5 WB 8x SSD800MH run 2" "Adaptec ASR-8885 RAID5 WB 8x SSD800MH run 3" \
	"四十セルを超えるラベルはその真ん中で切られて両端が残るラベルです"; do
	"$HB" run "$TMP/p.lua" --db "$DB" --label "$l" -q 2>/dev/null
done
out=$("$HB" list --db "$DB")
like "$out" "  1  [0-9a-f]{8}  LSI 9361-8i RAID5 write-back {12}  done " "a 28-cell label shown whole, padded to the 40-cell column"
like "$out" "  2  [0-9a-f]{8}  exactly-twenty-four-cell {16}  done " "a label of 24 cells shown whole"
like "$out" "  4  [0-9a-f]{8}  Adaptec ASR-8885 R\.\.\.B 8x SSD800MH run 2  done " \
	"a 43-cell label: its first 18 cells, '...', its last 19: 40 cells, the columns in place"
like "$out" "  5  [0-9a-f]{8}  Adaptec ASR-8885 R\.\.\.B 8x SSD800MH run 3  done " \
	"and the label alike but for its end stays apart from it"
like "$out" "  6  [0-9a-f]{8}  四十セルを超えるラ\.\.\.端が残るラベルです {3}done " \
	"a label of wide characters: cut at characters, padded to the column (a wide character never split)"
"$HB" run "$TMP/p.lua" --db "$TMP/s.db" --label ab -q 2>/dev/null
out=$("$HB" list --db "$TMP/s.db")
like "$(head -1 <<<"$out")" "^  id  uuid      label  status " "labels of 5 cells or less: the column as wide as its title"
like "$(sed -n 2p <<<"$out")" "^   1  [0-9a-f]{8}  ab     done " "and the label padded to it"
"$HB" run "$TMP/p.lua" --db "$TMP/s.db" --label ten-cells. -q 2>/dev/null
out=$("$HB" list --db "$TMP/s.db")
like "$(head -1 <<<"$out")" "^  id  uuid      label       status " "the widest label 10 cells: the column 10 cells"
like "$(sed -n 2p <<<"$out")" "^   1  [0-9a-f]{8}  ab          done " "a shorter label padded to it"
like "$(sed -n 3p <<<"$out")" "^   2  [0-9a-f]{8}  ten-cells\.  done " "the widest shown whole"

# a label of digits only would be read as a run id by show, report and sql:
# run and import refuse it (exit 2) before anything is written
"$HB" run "$TMP/p.lua" --db "$TMP/digits.db" --label 2024 -q 2>"$TMP/err"
is "$? $([ -e "$TMP/digits.db" ]; echo $?)" "2 1" "run --label 2024: exit 2, no database made"
like "$(cat "$TMP/err")" "--label '2024': a label of digits only is read as a run id by show, report and sql, never as the label; give it a letter too \('run-2024'\)" \
	"saying why and what to give"
"$HB" import fio /dev/null --db "$TMP/digits.db" --label 7 2>"$TMP/err"
is "$?" 2 "import --label 7: exit 2"
"$HB" run "$TMP/p.lua" --db "$TMP/digits.db" --label 9361-r5 -q 2>/dev/null
is "$?" 0 "a label with digits and more is taken"

# run --resume without RUN takes the newest unfinished run of the plan and
# names the others it could have taken (it took the newest unsaid)
printf 'hb.run{ name = "a", engine = "null", targets = "v", duration = 1 }\nhb.run{ name = "b", engine = "null", targets = "v", duration = 1 }\n' > "$TMP/r.lua"
for i in 1 2 3 4; do "$HB" run "$TMP/r.lua" --db "$TMP/r.db" -q 2>/dev/null; done
sqlite3 "$TMP/r.db" "UPDATE runs SET status = 'aborted' WHERE id != 2; DELETE FROM steps WHERE run_id != 2 AND name = 'b'"
"$HB" run "$TMP/r.lua" --db "$TMP/r.db" --resume -q 2>"$TMP/err"
is "$?" 0 "--resume with four runs, three unfinished"
like "$(cat "$TMP/err")" "warning: resuming run 4, the newest unfinished run of $TMP/r.lua; runs 3, 1 are unfinished too \(--resume RUN for one of those\)" \
	"resumes the newest and names the two others"
"$HB" run "$TMP/r.lua" --db "$TMP/r.db" --resume -q 2>"$TMP/err"
like "$(cat "$TMP/err")" "warning: resuming run 3, .*; run 1 is unfinished too \(--resume 1 for it\)" "then the next, naming the last"
"$HB" run "$TMP/r.lua" --db "$TMP/r.db" --resume -q 2>"$TMP/err"
grep -q "unfinished too" "$TMP/err"; is "$?" 1 "and the last alone: no word of others"

# a mistyped command: the nearest command in the error (two letters swapped
# count as one edit), none when nothing is near; exit 2, the usage after it
for w in "lsit list" "rnu run" "repotr report" "shw show" "improt import"; do
	set -- $w
	"$HB" "$1" >/dev/null 2>"$TMP/err"
	is "$? $(head -1 "$TMP/err")" "2 hbatest: unknown command '$1'; did you mean '$2'?" "hbatest $1: did you mean $2"
done
"$HB" xyz >/dev/null 2>"$TMP/err"
is "$? $(head -1 "$TMP/err")" "2 hbatest: unknown command 'xyz'" "hbatest xyz: nothing near, no suggestion"
grep -q "^usage: hbatest" "$TMP/err" || grep -q "hbatest run" "$TMP/err"; ok $? "and the usage follows"

# report's default folder is what the man page says
cd "$TMP" || exit 1
"$HB" report exactly-twenty-four-cell --db "$DB" --no-charts >/dev/null 2>&1
[ -f "$TMP/hbatest-report-exactly-twenty-four-cell/index.html" ]; ok $? "report with no --out writes hbatest-report-LABEL/"
page=$(MANWIDTH=2000 man -l "$ROOT/docs/man/hbatest.1" 2>/dev/null)
like "$(printf '%s\n' "$page" | grep -A1 -- '^ *--out DIR$' | tr -s ' \n' '  ')" "default hbatest-report-LABEL in the working folder" \
	"and the man page names that default (it said report/)"

# a --set value the plan cannot use: exit 1 with the plan's line, as the
# man page's EXIT STATUS says (2 is for a --set key the plan never reads)
printf 'local s = hb.set("seconds", 5)\nhb.run{ engine = "null", targets = "v", duration = s }\n' > "$TMP/s.lua"
for v in abc -1; do
	"$HB" run "$TMP/s.lua" --set seconds=$v --dry-run >/dev/null 2>&1
	is "$?" 1 "--set seconds=$v: exit 1"
done
"$HB" run "$TMP/s.lua" --set second=1 --dry-run >/dev/null 2>&1
is "$?" 2 "--set second=1 (a key the plan does not read): exit 2"
status=$(printf '%s\n' "$page" | sed -n '/^EXIT STATUS/,/^ENVIRONMENT/p' | tr -s ' \n' '  ')
like "$status" " 1 Failed: .*--set seconds=abc where the plan reads a number, --set seconds=-1 where a step refuses it" \
	"the man page's exit status 1 names those"
like "$status" " 2 Usage: .*no command at all.*a --set key the plan does not read" \
	"and its exit status 2 the usage errors"
# show: the stored command line pastes back as it ran, each argument one shell word
# (a label with a space and a quote, a target with a space, an empty --set value)
printf 'hb.run{ engine = "null", rw = "randread", duration = 1, ramp = 0, targets = { "v" }, name = hb.set("n", "x") .. "y" }\n' > "$TMP/w.lua"
"$HB" run "$TMP/w.lua" --db "$TMP/w.db" --label "it's a night" --set "n=" --note 'a $HOME `x`' -q 2>/dev/null
ok $? "a run with a label, a --set and a note that a shell would split or expand"
cmd=$("$HB" show --db "$TMP/w.db" 1 | sed -n 's/^ *command  *//p')
eval "set -- $cmd"
is "$#|$1|$2|$3|$6|$7|$9|${11}" "12|hbatest|run|$TMP/w.lua|--label|it's a night|n=|a \$HOME \`x\`" \
	"show's command, read back by the shell, gives each argument as it was ($cmd)"
# an empty argument is a word too (''), and a word a shell would expand at
# its start (~/x: the home folder) is quoted
"$HB" run "$TMP/w.lua" --db "$TMP/e.db" --label "" --note '~/x' -q 2>/dev/null
ok $? "a run with an empty --label and a note that starts with ~"
cmd=$("$HB" show --db "$TMP/e.db" 1 | sed -n 's/^ *command  *//p')
eval "set -- $cmd"
is "$#|$6|$7|$8|$9" "10|--label||--note|~/x" "show's command keeps the empty label and the ~ as they were ($cmd)"
done_testing
