#!/usr/bin/env bash
# Resume: a run killed with SIGKILL reads 'interrupted', resumes under the same
# uuid, runs no step twice and misses none; a changed plan needs --force.
. "$(dirname "$0")/lib.sh"

DB="$TMP/r.db"
PLAN="$TMP/plan.lua"
cat > "$PLAN" <<'LUA'
local secs = hb.set("secs", 2)
hb.plan{ defaults = { engine = "io_uring", duration = secs, ramp = 1, size = "16m" } }
for i = 1, 5 do
  local r = hb.run{ name = "step " .. i, rw = "randrw", write_pct = 10 * i, oio = 4 }
  hb.log("step " .. i .. " gave " .. r.iops)
end
hb.exec{ cmd = "true", name = "after" }
LUA

"$HB" run "$PLAN" --db "$DB" --target "$TMP/t.dat" --set secs=2 --label resumable --allow-exec -q 2>/dev/null &
pid=$!
# kill it once step 3 has stored a sample
for _ in $(seq 300); do
	n=$(q "$DB" "SELECT count(*) FROM samples s JOIN steps t ON t.id = s.step_id WHERE t.seq = 3" 2>/dev/null)
	[ "${n:-0}" -ge 1 ] && break
	sleep 0.1
done
kill -KILL $pid; wait $pid 2>/dev/null
uuid=$(q "$DB" "SELECT uuid FROM runs WHERE id = 1")
before=$(q "$DB" "SELECT group_concat(seq || ':' || id || ':' || started_at, ' ') FROM steps WHERE status = 'done'")
is "$(q "$DB" "SELECT group_concat(status, ',') FROM steps ORDER BY seq")" "done,done,running" \
	"killed during step 3: steps 1-2 done, step 3 left running"
like "$("$HB" list --db "$DB")" '^ +1 +[0-9a-f]{8} +resumable +interrupted ' "list shows the run as interrupted"

# the plan file changed since: refused, then accepted with --force
cp "$PLAN" "$TMP/plan.orig"
printf '\n-- an edit\n' >> "$PLAN"
out=$("$HB" run --resume --db "$DB" 2>&1); is $? 1 "resuming after the plan changed is refused"
like "$out" "plan '$PLAN' changed since run 1 started.*--force" "and says to use --force"
is "$(q "$DB" "SELECT status FROM runs")" running "the refusal leaves the run as it was"
out=$("$HB" run --resume resumable --db "$DB" --target /elsewhere 2>&1); is $? 2 \
	"--resume with --target is a usage error (the run's own targets are replayed)"
cp "$TMP/plan.orig" "$PLAN"

out=$("$HB" run --resume --db "$DB" 2>&1); is $? 1 "--resume without --allow-exec again is refused"
like "$out" "plan.lua:7: hb.exec: running shell commands needs --allow-exec on the command line \(the command: true\)" \
	"naming the plan line and the flag"
is "$(q "$DB" "SELECT status FROM runs")" running "and leaves the run as it was"

out=$("$HB" run --resume --db "$DB" --allow-exec 2>&1); is $? 0 "--resume finishes the run"
is "$(q "$DB" "SELECT count(*) || ':' || status || ':' || uuid FROM runs")" "1:done:$uuid" \
	"one run, done, under the same uuid"
is "$(q "$DB" "SELECT group_concat(seq, ',') FROM (SELECT seq FROM steps ORDER BY seq)")" "1,2,3,4,5,6" \
	"every step exactly once"
is "$(q "$DB" "SELECT group_concat(seq || ':' || id || ':' || started_at, ' ') FROM steps WHERE seq <= 2")" "$before" \
	"the steps done before the kill were not run again"
like "$out" 'step 1 step 1: done earlier, not run again' "the log says which steps were skipped"
like "$out" 'plan: step 2 gave [0-9.]+e?[0-9+]*' "a skipped step returns its stored results to the plan"
ok "$(q "$DB" "SELECT count(*) FROM steps WHERE seq <= 5 AND write_pct != 10 * seq")" "the replayed steps keep their parameters (--set secs replayed too)"
is "$(q "$DB" "SELECT group_concat(duration_s) FROM (SELECT duration_s FROM steps WHERE seq <= 5)")" "2,2,2,2,2" \
	"--set secs=2 was replayed from the database"
for id in $(q "$DB" "SELECT id FROM steps WHERE kind = 'measure'"); do
	is "$(check_invariant "$DB" "$id")" 1 "step id $id: samples add up after the resume"
done
is "$(q "$DB" "SELECT count(*) FROM samples WHERE step_id NOT IN (SELECT id FROM steps)")" 0 \
	"no samples are left from the step that started over"
out=$("$HB" run --resume 1 --db "$DB" 2>&1); is $? 1 "a done run does not resume"
like "$out" "run 1 is done: nothing to resume" "and says so"
done_testing
