#!/usr/bin/env bash
# Resume matches a done step by its parameters, not their text: the same
# keys in another order still resume; another value is refused, and so is a
# plan that now ends before a step done earlier.
. "$(dirname "$0")/lib.sh"

DB="$TMP/p.db"
PLAN="$TMP/plan.lua"
cat > "$PLAN" <<'LUA'
hb.run{ name = "one", engine = "null", duration = 1, ramp = 0, oio = 2, size = "1m" }
if os.getenv("HB_TEST_STOP") == "1" and not hb.dry then error("stopped after step one") end
hb.run{ name = "two", engine = "null", duration = 1, ramp = 0, size = "1m" }
LUA

HB_TEST_STOP=1 "$HB" run "$PLAN" --db "$DB" --target "$TMP/t.dat" -q 2>/dev/null
is "$(q "$DB" "SELECT status FROM runs")" failed "the first try fails after step one"
cp "$DB" "$TMP/copy.db"
cp "$DB" "$TMP/copy3.db"

# the same parameters, keys in reverse order
q "$DB" "UPDATE steps SET params_json = (SELECT json_group_object(key, CASE
	WHEN type IN ('object', 'array', 'true', 'false') THEN json(CASE type WHEN 'true' THEN
	'true' WHEN 'false' THEN 'false' ELSE value END) ELSE value END) FROM (SELECT key,
	value, type FROM json_each(steps.params_json) ORDER BY key DESC)) WHERE seq = 1"
like "$(q "$DB" "SELECT params_json FROM steps WHERE seq = 1")" '^\{"write_pct":0,"workers":1,"targets":\["' \
	"params_json now lists its keys in another order"
out=$("$HB" run --resume --db "$DB" 2>&1); is $? 0 "the run resumes"
like "$out" "step 1 one: done earlier, not run again" "step one is not run again"
is "$(q "$DB" "SELECT group_concat(seq || ':' || status, ',') FROM steps ORDER BY seq")" \
	"1:done,2:done" "and step two runs"

# another value: not the same step
q "$TMP/copy.db" "UPDATE steps SET params_json = json_set(params_json, '$.oio', 3) WHERE seq = 1"
out=$("$HB" run --resume --db "$TMP/copy.db" 2>&1); is $? 1 "a step with another oio does not resume"
like "$out" "step 1 'one' is not the step run 1 did there" "and says which step differs"
like "$out" "parameters differ: oio: 3 then, [0-9]+ now" "and names the key, with its value then and now"
# an engine option stored then and not set now (a default an older hbatest filled in)
cp "$TMP/copy.db" "$TMP/copy2.db"
eng=$(q "$TMP/copy2.db" "SELECT engine FROM steps WHERE seq = 1")
q "$TMP/copy2.db" "UPDATE steps SET params_json = json_set(params_json, '$.oio',
	(SELECT oio FROM steps WHERE seq = 1), '$.$eng.old_default', 4) WHERE seq = 1"
out=$("$HB" run --resume --db "$TMP/copy2.db" 2>&1)
like "$out" "parameters differ: $eng\.old_default: 4 then, not set now\): .*or a default changed between hbatest versions" \
	"a key set then and not now is named, with a word on changed defaults"

# --force over a plan that no longer replays: refused, and the run keeps the
# plan it was measured with (a later resume of the old plan needs no --force)
cp "$PLAN" "$TMP/plan.orig"
sha0=$(q "$TMP/copy3.db" "SELECT plan_sha256 || ' ' || steps_planned FROM runs")
sed -i 's/oio = 2,/oio = 5,/' "$PLAN"
out=$("$HB" run --resume --force --db "$TMP/copy3.db" 2>&1); is $? 1 "--force over a plan whose step one changed fails"
like "$out" "step 1 'one' is not the step run 1 did there" "naming the step"
is "$(q "$TMP/copy3.db" "SELECT plan_sha256 || ' ' || steps_planned FROM runs")" "$sha0" \
	"the run's plan hash and step count are still the ones it was measured with"
is "$(q "$TMP/copy3.db" "SELECT plan_text = CAST(readfile('$TMP/plan.orig') AS TEXT) FROM runs")" 1 "and so is its text"
cp "$TMP/plan.orig" "$PLAN"
"$HB" run --resume --db "$TMP/copy3.db" -q 2>"$TMP/err"; is $? 0 "the original plan back: it resumes without --force"

# --force over a plan that now ends before a step done earlier: refused like a
# step that differs, naming the step; the run keeps its plan and its steps
cat > "$TMP/drop.lua" <<'LUA'
for i = 1, 2 do hb.run{ name = "s" .. i, engine = "null", targets = "v", duration = 1 } end
if os.getenv("HB_TEST_STOP") == "1" and not hb.dry then error("stopped after step two") end
hb.run{ name = "s3", engine = "null", targets = "v", duration = 1 }
LUA
HB_TEST_STOP=1 "$HB" run "$TMP/drop.lua" --db "$TMP/drop.db" -q 2>/dev/null
cp "$TMP/drop.lua" "$TMP/drop.orig"
kept="SELECT plan_sha256 || ' ' || steps_planned || ' ' || (plan_text = CAST(readfile('$TMP/drop.orig') AS TEXT)) || ' ' || (SELECT group_concat(seq || ':' || status || ':' || id, ',') FROM (SELECT * FROM steps ORDER BY seq)) FROM runs"
before=$(q "$TMP/drop.db" "$kept")
like "$before" " 3 1 1:done:[0-9]+,2:done:[0-9]+$" "a run of 3 planned steps fails after steps 1 and 2 are done"
cp "$TMP/drop.db" "$TMP/drop-ab.db"
q "$TMP/drop-ab.db" "UPDATE steps SET status = 'aborted' WHERE seq = 2"
echo 'hb.run{ name = "s1", engine = "null", targets = "v", duration = 1 }' > "$TMP/drop.lua"
out=$("$HB" run "$TMP/drop.lua" --resume --force --db "$TMP/drop.db" 2>&1)
is $? 1 "--force over a plan cut down to step 1 of the 2 done fails"
like "$out" "the plan now ends after step 1, but run 1 has step 2 's2' too" "naming the done step the plan no longer makes"
out=$("$HB" run "$TMP/drop.lua" --resume --force --db "$TMP/drop-ab.db" 2>&1)
is "$? $(q "$TMP/drop-ab.db" "SELECT status FROM runs")" "1 failed" "and so does one that drops a step begun and stopped (aborted): the run would end done with it"
like "$out" "but run 1 has step 2 's2' \(aborted\) too" "naming it with its state"
is "$(q "$TMP/drop.db" "SELECT status FROM runs") $(q "$TMP/drop.db" "$kept")" "failed $before" \
	"the run is not done and keeps its plan text, hash, count and steps"
cp "$TMP/drop.orig" "$TMP/drop.lua"
"$HB" run "$TMP/drop.lua" --resume --db "$TMP/drop.db" -q 2>"$TMP/err"
is "$? $(q "$TMP/drop.db" "SELECT status || ' ' || (SELECT group_concat(seq) FROM (SELECT seq FROM steps ORDER BY seq)) FROM runs")" \
	"0 done 1,2,3" "the original plan back: it resumes without --force and finishes"
# hb.steady's outcome (steady_state): kept by a resume that fails, and
# recorded once, not twice, by one that replays it to the end
cat > "$TMP/st.lua" <<'LUA'
hb.run{ name = "a", engine = "null", targets = "v", duration = tonumber(os.getenv("HB_TEST_DUR") or "1") }
hb.steady{ name = "ss", round = 1, workload = { engine = "sim", targets = { "v" }, rw = "randwrite", bs = "4k",
           oio = 32, sim = { preset = "lsi3108-8sas", drive_capacity = "4g" } } }
if os.getenv("HB_TEST_STOP") == "1" and not hb.dry then error("stopped after the steady state") end
hb.run{ name = "z", engine = "null", targets = "v", duration = 1 }
LUA
HB_TEST_STOP=1 "$HB" run "$TMP/st.lua" --db "$TMP/st.db" -q 2>/dev/null
ss="SELECT count(*) || ' ' || group_concat(name || ':' || rounds) FROM steady_state"
before=$(q "$TMP/st.db" "$ss")
like "$before" "^1 ss:[0-9]+$" "a run stopped after its hb.steady holds its outcome"
cp "$TMP/st.db" "$TMP/st2.db"
HB_TEST_DUR=2 "$HB" run "$TMP/st.lua" --resume --db "$TMP/st.db" -q 2>/dev/null
is "$? $(q "$TMP/st.db" "$ss")" "1 $before" "a resume whose step 1 now differs fails and leaves the outcome (it was deleted)"
"$HB" run "$TMP/st.lua" --resume --db "$TMP/st2.db" -q 2>/dev/null
is "$? $(q "$TMP/st2.db" "SELECT status FROM runs") $(q "$TMP/st2.db" "$ss")" "0 done $before" \
	"one that replays it to the end records it once"

done_testing
