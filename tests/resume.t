#!/usr/bin/env bash
# Resume: a run killed with SIGKILL reads 'interrupted', resumes under the same
# uuid, runs no step twice and misses none; a changed plan needs --force.
. "$(dirname "$0")/lib.sh"

DB="$TMP/r.db"
PLAN="$TMP/plan.lua"
cat > "$PLAN" <<'LUA'
local secs = hb.set("secs", 3)
hb.plan{ defaults = { engine = "io_uring", duration = secs, ramp = 1, size = "16m" } }
for i = 1, 5 do
  local r = hb.run{ name = "step " .. i, rw = "randrw", write_pct = 10 * i, oio = 4, duration = i == 3 and os.getenv("HB_TEST_KILL3") == "1" and 600 or secs }
  hb.log("step " .. i .. " gave " .. r.iops)
end
hb.exec{ cmd = "true", name = "after" }
LUA

# kill it once step 3 has stored a sample; in this first run (HB_TEST_KILL3,
# which the resume has not) step 3 lasts until then: killed after a 2 s step
# 3 had ended on a loaded machine, steps 1-3 were done. --set secs=1, not the
# plan's 3: the resume must replay it (and its steps take 1 s)
HB_TEST_KILL3=1 "$HB" run "$PLAN" --db "$DB" --target "$TMP/t.dat" --set secs=1 --label resumable --allow-exec -q 2>/dev/null &
pid=$!
samples_of_seq "$DB" 3 1
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
# ... the stored ones: the iops it logs is the database's, not 0
gave=$(printf '%s\n' "$out" | sed -n 's/.*plan: step 2 gave \([0-9.e+]*\).*/\1/p' | head -1)
stored=$(q "$DB" "SELECT iops FROM steps WHERE seq = 2")
awk -v a="${gave:-0}" -v b="${stored:-0}" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= 1e-6 * b) }'
ok $? "the skipped step 2 gives the plan its stored iops ($gave, database $stored)"
ok "$(q "$DB" "SELECT count(*) FROM steps WHERE seq <= 5 AND write_pct != 10 * seq")" "the replayed steps keep their parameters (--set secs replayed too)"
is "$(q "$DB" "SELECT group_concat(duration_s) FROM (SELECT duration_s FROM steps WHERE seq <= 5)")" "1,1,1,1,1" \
	"--set secs=1 was replayed from the database (the plan's default is 3)"
for id in $(q "$DB" "SELECT id FROM steps WHERE kind = 'measure'"); do
	is "$(check_invariant "$DB" "$id")" 1 "step id $id: samples add up after the resume"
done
is "$(q "$DB" "SELECT count(*) FROM samples WHERE step_id NOT IN (SELECT id FROM steps)")" 0 \
	"no samples are left from the step that started over"
out=$("$HB" run --resume 1 --db "$DB" 2>&1); is $? 1 "a done run does not resume"
like "$out" "run 1 is done: nothing to resume" "and says so"

# two resumes of one run started at once: exactly one takes it, the other is
# refused naming the pid that holds it, and no step runs twice (s3, the step
# resumed, takes a real second; s1 and s2, only done before it, the sim's)
DB2="$TMP/race.db"
cat > "$TMP/race.lua" <<'LUA'
for i = 1, 3 do hb.run{ name = "s" .. i, engine = i < 3 and "sim" or "null", targets = "v", duration = 1 } end
LUA
"$HB" run "$TMP/race.lua" --db "$DB2" -q 2>/dev/null; ok $? "a run to race over"
for round in 1 2 3 4 5; do
	q "$DB2" "UPDATE runs SET status = 'aborted'; UPDATE steps SET status = 'aborted' WHERE seq = 3"
	"$HB" run --resume 1 --db "$DB2" >"$TMP/a.out" 2>&1 & a=$!
	"$HB" run --resume 1 --db "$DB2" >"$TMP/b.out" 2>&1 & b=$!
	wait $a; ra=$?; wait $b; rb=$?
	if [ $ra = 0 ]; then win=$a; lose=$TMP/b.out; else win=$b; lose=$TMP/a.out; fi
	is "$(printf '%s\n' $ra $rb | sort | tr '\n' ' ')" "0 1 " "race $round: one resume wins, the other fails"
	like "$(cat "$lose")" "run 1 (is still running|was taken by another resume) \(pid $win\)" \
		"race $round: the loser names the winner's pid"
	is "$(q "$DB2" "SELECT status || ':' || (SELECT group_concat(seq) FROM (SELECT seq FROM steps ORDER BY seq)) FROM runs")" \
		"done:1,2,3" "race $round: the run is done with each step once"
done

# --resume --force over a changed plan records the new text and hash
q "$DB2" "UPDATE runs SET status = 'aborted'; UPDATE steps SET status = 'aborted' WHERE seq = 3"
old_sha=$(q "$DB2" "SELECT plan_sha256 FROM runs")
printf -- '-- edited\n' >> "$TMP/race.lua"
new_sha=$(sha256sum "$TMP/race.lua" | cut -d' ' -f1)
"$HB" run --resume 1 --force --db "$DB2" -q 2>/dev/null; ok $? "--resume --force replays a changed plan"
is "$(q "$DB2" "SELECT plan_sha256 = '$new_sha' AND plan_text = CAST(readfile('$TMP/race.lua') AS TEXT) FROM runs")" 1 \
	"the run now holds the new plan text and hash"
is "$(q "$DB2" "SELECT count(*) FROM events WHERE message = 'plan ''$TMP/race.lua'' changed since the run started (sha256 $old_sha -> $new_sha): replaying it with --force'")" 1 \
	"an event says the plan changed (old -> new hash) and was replayed with --force"

# a file target relative to the folder the run started in: resumed from
# another folder it would lay out and measure a new file under the same run
mkdir -p "$TMP/w1" "$TMP/w2"
cat > "$TMP/w1/rel.lua" <<'LUA'
for i = 1, 3 do hb.run{ name = "s" .. i, engine = "psync", rw = "randread", size = "1m", duration = 1 } end
if os.getenv("HB_TEST_STOP") == "1" and not hb.dry then error("stopped") end
LUA
(cd "$TMP/w1" && HB_TEST_STOP=1 "$HB" run rel.lua --db "$TMP/rel.db" --target rel.dat -q 2>/dev/null)
q "$TMP/rel.db" "UPDATE runs SET status = 'aborted'; UPDATE steps SET status = 'aborted' WHERE seq = 3"
cp "$TMP/w1/rel.lua" "$TMP/w2/"
out=$(cd "$TMP/w2" && "$HB" run --resume 1 --db "$TMP/rel.db" 2>&1); rc=$?
is "$rc $(ls "$TMP/w2")" "1 rel.lua" "resumed from another folder: refused, and no rel.dat laid out there"
like "$out" "run 1 started in $TMP/w1 and measures the file 'rel.dat' there \\(a path relative to that folder\\); this is $TMP/w2, where 'rel.dat' would be another file: resume it from $TMP/w1" \
	"saying which file and where to resume from (the folder stored with the run)"
is "$(q "$TMP/rel.db" "SELECT cwd FROM runs")" "$TMP/w1" "the run stores the folder it started in"
out=$(cd "$TMP/w2" && "$HB" run ../w1/rel.lua --resume --db "$TMP/rel.db" 2>&1)
like "$? $out" "^1 .*run 1 started in $TMP/w1 and measures the file 'rel.dat' there" \
	"the plan named from another folder (../w1/rel.lua, stored as rel.lua): the run is found, and refused as above"
# another file of that name there: caught too (before schema 6 it was measured)
truncate -s 1m "$TMP/w2/rel.dat"
out=$(cd "$TMP/w2" && "$HB" run --resume 1 --db "$TMP/rel.db" 2>&1)
like "$? $out" "^1 .*run 1 started in $TMP/w1 and measures the file 'rel.dat' there" \
	"a file of the same name in the other folder: refused, not measured under the run"
is "$(q "$TMP/rel.db" "SELECT group_concat(status) FROM steps ORDER BY seq")" "done,done,aborted" "and the run is as it was"
# a run of before schema 6 (no folder stored): only a missing file is caught
q "$TMP/rel.db" "UPDATE runs SET cwd = NULL"
rm "$TMP/w2/rel.dat"
out=$(cd "$TMP/w2" && "$HB" run --resume 1 --db "$TMP/rel.db" 2>&1)
like "$? $out" "^1 .*run 1 measured the file 'rel.dat', a path relative to the folder it started in, and there is no 'rel.dat' in .*/w2: resume it from that folder" \
	"no folder stored: a missing relative target is refused, naming it"
q "$TMP/rel.db" "UPDATE runs SET cwd = '$TMP/w1'"
# the run's folder moved or renamed, with its file: resumed from where it is now
mv "$TMP/w1" "$TMP/w1b"
(cd "$TMP/w1b" && "$HB" run --resume 1 --db "$TMP/rel.db" -q 2>"$TMP/err"); is $? 0 \
	"the folder it started in renamed (w1 -> w1b, the file with it): resumed from the new name ($(head -c 200 "$TMP/err"))"
(cd "$TMP" && "$HB" run w1b/rel.lua --db "$TMP/rel.db" --target "$TMP/w1b/abs.dat" -q 2>/dev/null)
q "$TMP/rel.db" "UPDATE runs SET status = 'aborted' WHERE id = 2; UPDATE steps SET status = 'aborted' WHERE run_id = 2 AND seq = 3"
(cd "$TMP/w2" && "$HB" run --resume 2 --db "$TMP/rel.db" -q 2>/dev/null); is $? 0 "an absolute file target resumes from any folder"
done_testing
