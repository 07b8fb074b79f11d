#!/usr/bin/env bash
# What a run was: a run killed midway (kill -9) and one stopped by SIGINT,
# each resumed: the resumes table records when, how long the run sat idle,
# the steps kept (replayed from the database) and the one it ran anew from,
# and --force; show and the report say it per resume; merge, export and
# import carry the rows.
. "$(dirname "$0")/lib.sh"

DB="$TMP/r.db"
PLAN="$TMP/plan.lua"
# Steps of 1 s, but the one a run is cut in (HB_TEST_HOLD=SEQ, which a
# resume has not) lasts until the test cuts it: a 1 s step could end first.
cat > "$PLAN" <<'LUA'
hb.plan{ defaults = { engine = "null", duration = 1, ramp = 0, targets = { "a" }, workers = 1 } }
for i = 1, 6 do
  hb.run{ name = "step " .. i, rw = "randread", bs = "4k", oio = 1,
          duration = os.getenv("HB_TEST_HOLD") == tostring(i) and 600 or 1 }
end
LUA

HB_TEST_HOLD=4 "$HB" run "$PLAN" --db "$DB" --label killed -q 2>/dev/null &
pid=$!
samples_of_seq "$DB" 4 1	# killed once step 4 has stored a second: steps 1-3 done
kill -KILL $pid; wait $pid 2>/dev/null
began4=$(q "$DB" "SELECT started_at FROM steps WHERE run_id = 1 AND seq = 4")
is "$(q "$DB" "SELECT count(*) FROM resumes")" 0 "a run not resumed has no resume"
"$HB" show killed --db "$DB" >"$TMP/show0" 2>&1
! grep -q "resumed" "$TMP/show0"; ok $? "and show says none"
sleep 2	# idle: from its last heartbeat (or step end) to the resume
"$HB" run --resume killed --db "$DB" -q 2>"$TMP/err"; ok $? "the killed run resumed to its end"
is "$(q "$DB" "SELECT count(*) || ' ' || was_status || ' ' || steps_kept || ' ' || rerun_from || ' ' || forced FROM resumes WHERE run_id = 1")" \
	"1 running 3 4 0" "one resume: it was running (killed), steps 1-3 kept, step 4 onwards run anew, no --force"
# at most from the start of step 4 (a sign of life the kill came after) to
# the resume: a bound from the stored times, not from the wall clock
is "$(q "$DB" "SELECT (idle_s >= 2) AND (idle_s <= (julianday(at) - julianday('$began4')) * 86400 + 1) AND at > last_seen_at AND host IS NOT NULL AND pid > 0 FROM resumes")" 1 \
	"idle at least the 2 s it sat, from its last sign of life to the resume"
is "$(q "$DB" "SELECT last_seen_at >= '$began4' FROM resumes")" 1 "its last sign of life: no earlier than the start of step 4, which the kill stopped"
is "$(q "$DB" "SELECT at >= (SELECT max(started_at) FROM steps WHERE seq < 4) AND at <= (SELECT started_at FROM steps WHERE seq = 4) FROM resumes")" 1 \
	"resumed after the kept steps, before step 4 ran anew"
at=$(q "$DB" "SELECT at FROM resumes")
idle=$(q "$DB" "SELECT idle FROM run_resume")
like "$idle" '^[0-9]+s$' "the idle time in words (seconds)"
"$HB" show killed --db "$DB" >"$TMP/show1" 2>&1; ok $? "show the resumed run"
like "$(cat "$TMP/show1")" "  resumed at $at, idle $idle, steps 1-3 kept, step 4 onwards rerun" "show: when, idle, kept, rerun"

# stopped with SIGINT during step 2 of the second run, resumed with --force
HB_TEST_HOLD=2 "$HB" run "$PLAN" --db "$DB" --label stopped -q 2>/dev/null &
pid=$!
samples_of_seq "$DB" 2 1	# run 1 has step 2 too: wait for run 2's
wait_count "$DB" "SELECT count(*) FROM samples s JOIN steps t ON t.id = s.step_id WHERE t.run_id = 2 AND t.seq = 2" 1
kill -INT $pid; wait $pid 2>/dev/null
is "$(q "$DB" "SELECT status FROM runs WHERE id = 2")" aborted "SIGINT: the run aborted"
printf '\n-- changed\n' >>"$PLAN"
"$HB" run --resume stopped --force --db "$DB" -q 2>/dev/null; ok $? "resumed with --force (the plan changed)"
is "$(q "$DB" "SELECT was_status || ' ' || steps_kept || ' ' || rerun_from || ' ' || forced FROM resumes WHERE run_id = 2")" \
	"aborted 1 2 1" "it was aborted, step 1 kept, step 2 onwards run anew, --force"
is "$(q "$DB" "SELECT idle_s >= 0 AND last_seen_at >= (SELECT finished_at FROM steps WHERE run_id = 2 AND seq = 1) FROM resumes WHERE run_id = 2")" 1 \
	"idle from its end at the interrupt, at the earliest its last step's end"
"$HB" show stopped --db "$DB" >"$TMP/show2" 2>&1
like "$(cat "$TMP/show2")" "  resumed at [0-9T:.Z-]+, idle [0-9]+s, step 1 kept, step 2 onwards rerun \(--force: the plan had changed\)" \
	"show: step 1 kept, --force"
# a second resume of a done run is refused and records nothing
"$HB" run --resume stopped --db "$DB" -q 2>/dev/null; [ $? -ne 0 ]; ok $? "resuming a done run: refused"
is "$(q "$DB" "SELECT count(*) FROM resumes")" 2 "no resume recorded for it"

# the report: the Run section says each resume, per run
"$HB" report killed stopped --db "$DB" --no-charts --out "$TMP/rep" >/dev/null 2>"$TMP/err"; ok $? "report of both runs"
page=$(tr -d '\n' <"$TMP/rep/index.html")
like "$page" "<th>Finished \(UTC\)</th><td>[^<]*<br>resumed at $at, idle $idle, steps 1-3 kept, step 4 onwards rerun</td>" \
	"the report's Run section: the killed run's resume under its end"
like "$page" "<td>[^<]*<br>resumed at [^<]*, step 1 kept, step 2 onwards rerun \(--force: the plan had changed\)</td></tr>" \
	"and the stopped run's"

# merge, export and import carry the rows
rows() { q "$1" "SELECT r.uuid, x.at, x.last_seen_at, x.idle_s, x.was_status, x.steps_kept, x.rerun_from, x.forced, x.host, x.pid FROM resumes x JOIN runs r ON r.id = x.run_id ORDER BY r.uuid, x.at"; }
want=$(rows "$DB")
"$HB" merge "$TMP/m.db" "$DB" >/dev/null 2>&1; ok $? "merge into a new database"
is "$(rows "$TMP/m.db")" "$want" "merge carries every resume"
"$HB" merge "$TMP/m.db" "$DB" >/dev/null 2>&1; ok $? "merge again"
is "$(rows "$TMP/m.db")" "$want" "no resume twice"
"$HB" export killed stopped --db "$DB" --what resumes >"$TMP/res.csv"; ok $? "export --what resumes"
is "$(head -1 "$TMP/res.csv")" "run_uuid,at,last_seen_at,idle_s,was_status,steps_kept,rerun_from,forced,host,pid" "its columns"
is "$(tail -n +2 "$TMP/res.csv" | wc -l)" 2 "a row a resume"
"$HB" export 1 2 --db "$DB" --format json >"$TMP/all.json"; ok $? "export both runs as JSON"
"$HB" import hbatest "$TMP/all.json" --db "$TMP/i.db" >/dev/null 2>&1; ok $? "import reads it back"
is "$(rows "$TMP/i.db")" "$want" "import carries every resume"
"$HB" show killed --db "$TMP/i.db" | grep -q "  resumed at $at, idle $idle, steps 1-3 kept, step 4 onwards rerun"
ok $? "show says it in the imported copy"

done_testing
