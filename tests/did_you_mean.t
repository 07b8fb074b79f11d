#!/usr/bin/env bash
# A RUN that matches no run (no id, label or uuid prefix): the error names
# the nearest labels (edit distance in lower case, or a label it begins),
# in every command that takes RUN; none when no label is near.
. "$(dirname "$0")/lib.sh"

DB=$TMP/x.db
cat > "$TMP/q.lua" <<'LUA'
hb.plan{ name = "c", defaults = { engine = "null", duration = 1 } }
hb.targets = { "a" }
hb.run{ rw = "randread", oio = 1 }
LUA
for l in raid5 raid5-wb "LSI 9361-8i RAID5" jbod; do
	"$HB" run "$TMP/q.lua" --db "$DB" --label "$l" -q || echo "run $l failed"
done > "$TMP/runs.err"
is "$(cat "$TMP/runs.err")" "" "four labelled runs"

# err CMD ARGS...: the first line on stderr, the exit code after it
err() { "$HB" "$@" --db "$DB" 2>&1 >/dev/null | head -1; }
want="hbatest: error: no run 'raid-5' in '$DB'; did you mean 'raid5'?"
is "$(err show raid-5)" "$want" "show: a misspelt label names the nearest one"
is "$(err report raid-5 --no-charts --out "$TMP/r")" "$want" "report: the same"
is "$(err export raid-5)" "$want" "export: the same"
like "$(err report jbod --baseline raid-5 --no-charts --out "$TMP/r")" \
	"no run 'raid-5' in '$DB'; did you mean 'raid5'\?" "report --baseline: the same"
like "$(err sql "SELECT :run" --param run=raid-5)" "did you mean 'raid5'\?" "sql --param run=: the same"
like "$(err run "$TMP/q.lua" --resume raid-5)" "did you mean 'raid5'\?" "run --resume: the same"
"$HB" show raid-5 --db "$DB" >/dev/null 2>&1; is $? 1 "and show exits 1"

is "$(err show RAID5)" "hbatest: error: no run 'RAID5' in '$DB'; did you mean 'raid5'?" \
	"another case: the label that differs only in case, alone (distance 0)"
like "$(err show raid)" "did you mean 'raid5-wb' or 'raid5'\?$" "a label's start: every label it begins, newest first"
is "$(err show raid5-w)" "hbatest: error: no run 'raid5-w' in '$DB'; did you mean 'raid5-wb'?" \
	"only the nearest: not 'raid5' (two edits) after 'raid5-wb' (one)"
is "$(err show abcdraid5-wb)" \
	"hbatest: error: no run 'abcdraid5-wb' in '$DB' (give an id, a label or a uuid prefix of 4 characters or more; see hbatest list)" \
	"four characters before a label are four edits: not near"
like "$(err show lsi)" "did you mean 'LSI 9361-8i RAID5'\?$" "the start of a label in another case"
like "$(err show 'LSI 9361-8i RAID6')" "did you mean 'LSI 9361-8i RAID5'\?$" "one character off in a long label"
like "$(err show jbdo)" "did you mean 'jbod'\?$" "two letters swapped"
is "$(err show zz)" \
	"hbatest: error: no run 'zz' in '$DB' (give an id, a label or a uuid prefix of 4 characters or more; see hbatest list)" \
	"nothing near: no suggestion, the usual advice"
like "$(err show 99)" "no run '99' in '$DB' \(give an id" "an id that is not there: no suggestion"
done_testing
