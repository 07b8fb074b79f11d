#!/usr/bin/env bash
# Telemetry: the probes' sample() every `telemetry` seconds of a step, from
# the fixture probe tests/fixtures/plugins/tele_probe.c, whose facts are files
# under the sysfs root that a plan's exec step changes between two steps.
# The sim engine's virtual clock paces the samples, so the seconds sampled
# are exact: every 2 s of a 10 s step is 0, 2, 4, 6, 8. A probe built
# against ABI 1.2 (tele_old.c) loads and is never sampled.
. "$(dirname "$0")/lib.sh"

PP="$TMP/plugins"
SYS="$TMP/root"
DB="$TMP/t.db"
mkdir -p "$PP" "$SYS/tele" "$SYS/sys/class/block/sdt"
for p in tele_probe tele_old; do
	[ -f "$ROOT/build/tests/plugins/$p.so" ]
	ok $? "the fixture probe $p is built (make build/tests/plugins/$p.so)"
	cp "$ROOT/build/tests/plugins/$p.so" "$PP/"
done
export HBATEST_SYSFS_ROOT="$SYS"
echo WriteBack > "$SYS/tele/policy"
echo 40 > "$SYS/tele/temp"
run() { "$HB" run "$@" --plugin-path "$PP" --allow-exec -q 2>"$TMP/stderr"; }
run_id() { q "$1" "SELECT max(id) FROM runs"; }
step_id() { q "$1" "SELECT id FROM steps WHERE run_id = (SELECT max(id) FROM runs) AND seq = $2"; }
tq() { q "$DB" "SELECT $1 FROM telemetry WHERE source = 'tele' AND $2"; }

# step 1: write-back, 40 C; the exec step turns it to write-through at 80 C;
# step 3 sees the change at its first sample (a limit of 70 C); step 4: none
cat > "$TMP/p.lua" <<EOF
hb.plan{ name = "tele", defaults = { engine = "sim", workers = 1, duration = 10,
	telemetry = 2, targets = { "/dev/sdt" } } }
hb.run{ name = "one" }
hb.exec{ cmd = "echo WriteThrough > '$SYS/tele/policy'; echo 80 > '$SYS/tele/temp'" }
hb.run{ name = "two", duration = 6, temp_limit_c = 70 }
hb.run{ name = "off", duration = 4, telemetry = 0 }
EOF
run "$TMP/p.lua" --db "$DB"; is $? 0 "a run with telemetry exits 0 (warnings only)"
S1=$(step_id "$DB" 1); S3=$(step_id "$DB" 3); S4=$(step_id "$DB" 4)
is "$(tq "group_concat(t, ',')" "step_id = $S1 AND key = 'c0.temperature_c'")" \
	"0.0,2.0,4.0,6.0,8.0" "telemetry=2 on a 10 s step: a sample at 0, 2, 4, 6 and 8 s"
is "$(q "$DB" "SELECT count(*) FROM (SELECT 1 FROM telemetry GROUP BY step_id, t, source, key, target HAVING count(*) > 1)")" \
	0 "one row per source, key, target and sampled second"
is "$(q "$DB" "SELECT count(*) FROM telemetry x WHERE NOT EXISTS (SELECT 1 FROM samples s WHERE s.step_id = x.step_id AND s.t = x.t)")" \
	0 "every sample's t is a second of its step's samples"
is "$(tq "count(*)" "step_id = $S1 AND key = 'c0.v0.os_device' AND target = '/dev/sdt' AND value = '/dev/sdt'")|$(tq "count(*)" "step_id = $S1 AND key = 'c0.temperature_c' AND target IS NULL")" \
	"5|5" "a per-target sample is marked with its target, a host one with none"
is "$(tq "group_concat(DISTINCT value)" "step_id = $S1 AND key = 'c0.v0.write_policy_effective'")|$(tq "group_concat(DISTINCT value)" "step_id = $S3 AND key = 'c0.v0.write_policy_effective'")" \
	"WriteBack|WriteThrough" "the values as the probe read them, before and after the change"
is "$(q "$DB" "SELECT count(*) FROM telemetry WHERE step_id = $S4")" 0 "telemetry=0: no samples"
is "$(q "$DB" "SELECT count(*) FROM telemetry WHERE source = 'tele_old'")|$(q "$DB" "SELECT value FROM probes WHERE probe = 'tele_old' AND phase = 'start'")" \
	"0|yes" "a probe built against ABI 1.2 loads (its facts at the start) and is not sampled"
ev=$(q "$DB" "SELECT level || ': ' || message FROM events WHERE message LIKE '%telemetry:%' ORDER BY id")
like "$ev" "^warning: step 3 'two': telemetry: tele c0\.v0\.write_policy_effective changed from 'WriteBack' to 'WriteThrough' at t=0 s$" \
	"write-back to write-through: a warning naming the step, probe, key, old and new value"
like "$ev" "warning: step 3 'two': telemetry: tele c0\.v0\.write_policy_effective changed from 'WriteBack' to 'WriteThrough' at t=0 s, behind /dev/sdt" \
	"the same change behind the target names the target"
like "$ev" "warning: step 3 'two': telemetry: tele c0\.temperature_c is 80, past the limit of 70 \(temp_limit_c; it was 40\)" \
	"a temperature past temp_limit_c is a warning"
is "$(grep -c 'telemetry:' <<< "$ev")" 3 "no other event: an unchanged value, or a temperature under no limit, is none"
like "$(cat "$TMP/stderr")" "warning: step 3 'two': telemetry: tele c0\.v0\.write_policy_effective changed" \
	"the warning is on the console too"
is "$(q "$DB" "SELECT status FROM steps WHERE id = $S3")" done "on_telemetry=\"warn\" (the default): the step is done"
is "$(q "$DB" "SELECT json_extract(params_json, '\$.telemetry') || '|' || json_extract(params_json, '\$.temp_limit_c') FROM steps WHERE id = $S3")|$(q "$DB" "SELECT json_extract(params_json, '\$.telemetry') FROM steps WHERE id = $S4")" \
	"2|70|0" "params_json holds telemetry and temp_limit_c"

# --- on_telemetry = "fail" ---------------------------------------------------
echo WriteBack > "$SYS/tele/policy"
sed 's/name = "two", duration = 6, temp_limit_c = 70/name = "two", duration = 6, on_telemetry = "fail"/' \
	"$TMP/p.lua" > "$TMP/fail.lua"
run "$TMP/fail.lua" --db "$TMP/f.db"; is $? 1 "on_telemetry=\"fail\": the run fails"
is "$(q "$TMP/f.db" "SELECT status || ': ' || error_text FROM steps WHERE id = $(step_id "$TMP/f.db" 3)")" \
	"failed: step 3 'two': telemetry: tele c0.v0.write_policy_effective changed from 'WriteBack' to 'WriteThrough' at t=0 s (on_telemetry=\"fail\")" \
	"on_telemetry=\"fail\": the step fails with the change as its error"

# --- the wall clock (null engine): the first sample at second 0 -------------
printf 'hb.run{ engine = "null", duration = 2, telemetry = 1, targets = "/dev/sdt" }\n' > "$TMP/null.lua"
run "$TMP/null.lua" --db "$TMP/n.db"; is $? 0 "a null-engine run with telemetry=1 exits 0"
is "$(q "$TMP/n.db" "SELECT min(t) || '|' || (max(t) < 2) || '|' || (count(*) % 4) FROM telemetry WHERE source = 'tele'")" \
	"0.0|1|0" "null engine: a sample at second 0, none at or past the step's end, 4 facts each"

# --- a busy database: the samples taken meanwhile kept, then stored ---------
# Driven by events, not time: the lock is taken once a sample is stored; the
# policy changes once the run says the database is busy, and changes back
# once that change is logged (the batch holding it was then taken, and its
# store tried under the lock); the lock is given back once the second change
# is logged (the first one's store had then ended).
echo WriteBack > "$SYS/tele/policy"
B="$TMP/busy.db"
printf 'hb.run{ engine = "null", duration = 600, telemetry = 1, targets = "/dev/sdt" }\n' > "$TMP/busy.lua"
"$HB" run "$TMP/busy.lua" --db "$B" --plugin-path "$PP" -q 2>"$TMP/berr" >/dev/null &
pid=$!
# seen TEXT N: until stderr holds N lines with TEXT (1: the run ended first,
# or an earlier wait failed, or 60 s went by: a run that stopped with the
# lock held, which then waits the lock's minute at every store, a run that
# hangs; never a verdict's bound)
missed=0
seen() {
	for _ in $(seq 600); do
		[ $missed = 0 ] || return 1
		[ "$(grep -c -- "$1" "$TMP/berr")" -ge "$2" ] && return 0
		kill -0 $pid 2>/dev/null || break
		sleep 0.1
	done
	missed=1
	return 1
}
stored() { sqlite3 "file:$B?mode=ro" "SELECT count(*) FROM telemetry WHERE $1" 2>/dev/null || echo 0; }
until [ "$(stored 1)" -gt 0 ] || ! kill -0 $pid 2>/dev/null; do sleep 0.1; done
lock_db "$B"
seen 'kept in memory until it is free' 1; ok $? "busy: the run says the database is busy"
echo WriteThrough > "$SYS/tele/policy"
seen "changed from 'WriteBack' to 'WriteThrough'" 1; ok $? "busy: a change sampled meanwhile is logged"
echo WriteBack > "$SYS/tele/policy"
seen "changed from 'WriteThrough' to 'WriteBack'" 1; ok $? "busy: and a change back, at a later sample"
unlock_db
t1=$(grep -o "changed from 'WriteBack' to 'WriteThrough' at t=[0-9]*" "$TMP/berr" | head -1 | sed 's/.*t=//')
until [ "$(stored "t > ${t1:-0} + 1")" -gt 0 ] || ! kill -0 $pid 2>/dev/null; do sleep 0.1; done
kill -INT $pid; wait $pid; is $? 130 "busy: the run stopped by SIGINT once later samples are stored"
is "$(grep -c 'telemetry: cannot store' "$TMP/berr")" 0 "busy: no telemetry sample dropped"
is "$(stored "t = ${t1:-0} AND key = 'c0.v0.write_policy_effective' AND target IS NULL AND value = 'WriteThrough'")" 1 \
	"busy: the sample taken while the database was busy is stored once it is free"

# --- bad values: errors naming the key and the line -------------------------
bad() {
	printf 'hb.plan{ defaults = { engine = "null", duration = 1 } }\nhb.run{ %s }\n' "$1" > "$TMP/bad.lua"
	out=$("$HB" run "$TMP/bad.lua" --db "$TMP/bad.db" --plugin-path "$PP" -q 2>&1)
	like "$out" "$2" "$1: an error naming the key and the line"
}
bad "telemetry = -1" "bad\.lua:2: .*telemetry=-1: expected a whole number from 0 to 86400"
bad "telemetry = 1.5" "bad\.lua:2: .*telemetry=1\.5: expected a whole number"
bad 'on_telemetry = "maybe"' "bad\.lua:2: .*on_telemetry=\"maybe\": expected \"warn\" .* or \"fail\""
bad "temp_limit_c = 0" "bad\.lua:2: .*temp_limit_c=0: expected degrees Celsius"
bad "telemetri = 5" "bad\.lua:2: .*unknown key 'telemetri' \(did you mean 'telemetry'\?\)"
printf 'hb.plan{ defaults = { engine = "null", duration = 1, telemetry = "x" } }\nhb.run{ }\n' > "$TMP/bad.lua"
like "$("$HB" run "$TMP/bad.lua" --db "$TMP/bad.db" --plugin-path "$PP" -q 2>&1)" \
	"bad\.lua:2: .*telemetry=x: expected a whole number" "a bad telemetry in defaults: the step's line"
[ ! -e "$TMP/bad.db" ]; ok $? "a bad key stores nothing"

# --- export, import and merge keep the rows ----------------------------------
rows() { q "$1" "SELECT count(*) || '|' || count(x.step_id) || '|' || count(x.target) || '|' || sum(s.seq) FROM telemetry x LEFT JOIN steps s ON s.id = x.step_id"; }
want=$(rows "$DB")
"$HB" export --db "$DB" --format json "$(run_id "$DB")" > "$TMP/run.json"; ok $? "export exits 0"
"$HB" import hbatest "$TMP/run.json" --db "$TMP/imp.db" >/dev/null; ok $? "import hbatest exits 0"
is "$(rows "$TMP/imp.db")" "$want" "export then import keeps every telemetry row, its step and target"
"$HB" merge "$TMP/m.db" "$DB" >/dev/null && "$HB" merge "$TMP/m.db" "$DB" >/dev/null
ok $? "merge twice exits 0"
is "$(rows "$TMP/m.db")" "$want" "merge copies the telemetry rows once, with their steps"

done_testing
