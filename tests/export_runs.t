#!/usr/bin/env bash
# hbatest export of several runs and of views: CSV with one header and each
# row's run in run_uuid, JSON one array (--what) or one document holding every
# run, which `hbatest import hbatest` reads back as the runs; --what any view
# of the schema, anything else refused with the list of what it takes.
. "$(dirname "$0")/lib.sh"

DB="$TMP/e.db"
PLAN="$ROOT/tests/fixtures/export/plan.lua"
ex() { "$HB" export --db "$DB" "$@"; }

"$HB" run "$PLAN" --db "$DB" --label first -q 2>>"$TMP/stderr"; ok $? "run 1"
"$HB" run "$PLAN" --db "$DB" --label second -q 2>>"$TMP/stderr"; ok $? "run 2"
u1=$(q "$DB" "SELECT uuid FROM runs WHERE id = 1"); u2=$(q "$DB" "SELECT uuid FROM runs WHERE id = 2")

# CSV of two runs: one header, run 1's rows then run 2's, each with its uuid
ex 1 second --what steps >"$TMP/two.csv"; ok $? "export 1 second --what steps"
is "$(grep -c '^run_uuid,' "$TMP/two.csv")" 1 "one header"
ex 1 --what steps >"$TMP/one.csv"; ex 2 --what steps >"$TMP/other.csv"
cmp -s "$TMP/two.csv" <(cat "$TMP/one.csv"; tail -n +2 "$TMP/other.csv"); ok $? "the rows of run 1, then run 2's, as each run's own export"
ex second 1 --what steps >"$TMP/rev.csv"
is "$(sed -n 2p "$TMP/rev.csv" | cut -d, -f1)" "\"$u2\"" "the runs in the order given"
ex 1 1 first --what steps >"$TMP/dup.csv"; cmp -s "$TMP/dup.csv" "$TMP/one.csv"; ok $? "a run named twice is exported once"
ex 1 2 >"$TMP/default.csv"; cmp -s "$TMP/default.csv" "$TMP/two.csv"; ok $? "CSV without --what: the steps"

# views: step_summary, its rows those of the runs named, in seq order
ex 1 2 --what step_summary >"$TMP/ss.csv"; ok $? "--what step_summary"
is "$(head -1 "$TMP/ss.csv" | cut -d, -f1-4)" "step_id,run_id,run_uuid,label" "the view's own columns (it has run_uuid)"
is "$(tail -n +2 "$TMP/ss.csv" | wc -l)" "$(q "$DB" "SELECT count(*) FROM step_summary")" "every step of both runs"
is "$(tail -n +2 "$TMP/ss.csv" | cut -d, -f19 | paste -sd' ')" \
   "$("$HB" sql --db "$DB" --format csv "SELECT iops FROM step_summary ORDER BY run_id, seq" | tail -n +2 | paste -sd' ')" \
   "IOPS as step_summary has them"
# a view's rows come run by run in the order given, as a table's do: by run
# (run_id), by step (step_id) and the run's own row (id and uuid)
ex second 1 --what step_summary >"$TMP/ssrev.csv"
is "$(tail -n +2 "$TMP/ssrev.csv" | cut -d, -f2 | uniq | paste -sd' ')" "2 1" \
   "--what step_summary of second and 1: run 2's rows first, as given"
ex 2 1 --what sample_total >"$TMP/strev.csv"
is "$(tail -n +2 "$TMP/strev.csv" | cut -d, -f1 | uniq | paste -sd' ')" "\"$u2\" \"$u1\"" \
   "--what sample_total of 2 and 1: run 2's samples first"
ex 2 1 --what run_state --format json >"$TMP/rsrev.json"
is "$(grep -o '"uuid": "[^"]*"' "$TMP/rsrev.json" | cut -d'"' -f4 | paste -sd' ')" "$u2 $u1" \
   "--what run_state of 2 and 1: run 2's row first"
ex 2 --what run_controller >"$TMP/rc.csv"; ok $? "--what run_controller"
is "$(head -1 "$TMP/rc.csv" | cut -d, -f1-2)" "run_uuid,run_id" "a view without run_uuid gets it first"
ex 1 2 --what sample_total >"$TMP/st.csv"; ok $? "--what sample_total (a view by step)"
is "$(tail -n +2 "$TMP/st.csv" | cut -d, -f1 | sort -u | paste -sd' ')" \
   "$(printf '"%s"\n' "$u1" "$u2" | sort | paste -sd' ')" "its rows carry their runs"
is "$(tail -n +2 "$TMP/st.csv" | wc -l)" "$(q "$DB" "SELECT count(*) FROM sample_total")" "every sample of both runs"
ex 2 --what run_state --format json >"$TMP/rs.json"; ok $? "--what run_state (the run's own row)"
like "$(cat "$TMP/rs.json")" "\"uuid\": \"$u2\"" "run 2's row"
is "$(grep -c '"uuid"' "$TMP/rs.json")" 1 "and only it"

# JSON: --what is one array; without, one document that imports as both runs
ex 1 2 --what steps --format json >"$TMP/steps.json"; ok $? "--what steps --format json"
is "$(head -c1 "$TMP/steps.json")$(tail -c2 "$TMP/steps.json" | head -c1)" "[]" "one array"
is "$(grep -c '"run_uuid"' "$TMP/steps.json")" "$(q "$DB" "SELECT count(*) FROM steps")" "a row a step of both runs"
ex 1 2 --format json >"$TMP/all.json"; ok $? "the two runs as one document"
is "$(grep -c '"format": "hbatest-export"' "$TMP/all.json")" 1 "one document"
"$HB" import hbatest "$TMP/all.json" --db "$TMP/back.db" -q >/dev/null; ok $? "import reads it back"
is "$(q "$TMP/back.db" "SELECT group_concat(uuid, ' ') FROM (SELECT uuid FROM runs ORDER BY id)")" "$u1 $u2" "both runs, by uuid"
for t in steps samples histograms probes events telemetry; do
	is "$(q "$TMP/back.db" "SELECT count(*) FROM $t")" "$(q "$DB" "SELECT count(*) FROM $t")" "every row of $t"
done
for r in 1 2; do
	cmp -s <(ex "$r" --format json) <("$HB" export --db "$TMP/back.db" "$r" --format json); ok $? "run $r exports as it did"
done

# refused: what is no table or view, a run that is not there
ex 1 2 --what nothing 2>"$TMP/err"; is $? 2 "--what nothing: exit 2"
like "$(cat "$TMP/err")" "--what 'nothing': give one of runs, targets, steps, .*telemetry.*; or a view: .*step_summary" "naming the tables and the views"
ex 1 --what sqlite_master 2>"$TMP/err"; is $? 2 "--what sqlite_master: exit 2"
ex 1 nosuch --out "$TMP/never.csv" 2>"$TMP/err"; is $? 1 "a run that is not there: exit 1"
like "$(cat "$TMP/err")" "nosuch" "naming it"
[ ! -e "$TMP/never.csv" ]; ok $? "and --out is not written"

done_testing
