#!/usr/bin/env bash
# The plan library: hb.sweep, hb.profile, hb.precondition, hb.steady, hb.exec,
# several targets and workers, and the dry-run listing. The plan library's
# own steps run on the simulator (virtual seconds: a step in a few ms, not
# the second of a real clock: what they check is the plan, not the I/O), the
# per-target counters on the null engine and small files.
. "$(dirname "$0")/lib.sh"

DB="$TMP/p.db"
run() { "$HB" run "$@" --db "$DB" -q 2>"$TMP/stderr"; }
last_run() { q "$DB" "SELECT max(id) FROM runs"; }

# --- hb.sweep -------------------------------------------------------------
cat > "$TMP/sweep.lua" <<'LUA'
hb.plan{ defaults = { engine = "sim", duration = 1 } }
hb.targets = { "v" }
local r = hb.sweep{ base = { rw = "randrw" }, bs = { "4k", "8k" }, write_pct = { 0, 50 },
                    oio = { 1, 2, 4 } }
assert(#r == 12, "12 results")
assert(r[1].point.bs == "4k" and r[1].point.write_pct == 0 and r[1].point.oio == 1)
assert(r[12].point.bs == "8k" and r[12].point.write_pct == 50 and r[12].point.oio == 4)
local s = hb.sweep{ base = { rw = "randread", group = "stopped" }, bs = { "4k", "8k" },
                    oio = { 1, 2, 4, 8 }, stop = function(res, p) return p.oio >= 2 end }
assert(hb.dry or #s == 4, "stop ends each inner sweep")
LUA
run "$TMP/sweep.lua"; ok $? "a sweep plan runs (its own asserts hold)"
id=$(last_run)
is "$(q "$DB" "SELECT count(*) FROM steps WHERE run_id = $id AND group_name NOT LIKE 'stopped%'")" 12 \
	"bs x write_pct x oio = 2 x 2 x 3 = 12 steps"
is "$(q "$DB" "SELECT group_concat(bs || '/' || write_pct || '/' || oio, ' ') FROM (SELECT * FROM steps WHERE run_id = $id ORDER BY seq LIMIT 4)")" \
	"4k/0/1 4k/0/2 4k/0/4 4k/50/1" "bs outermost, oio innermost"
is "$(q "$DB" "SELECT count(DISTINCT axis) || axis FROM steps WHERE run_id = $id")" "1oio" \
	"every point records oio as its axis"
is "$(q "$DB" "SELECT group_concat(DISTINCT group_name) FROM (SELECT group_name FROM steps WHERE run_id = $id AND group_name NOT LIKE 'stopped%' ORDER BY seq)")" \
	"randrw bs=4k write_pct=0,randrw bs=4k write_pct=50,randrw bs=8k write_pct=0,randrw bs=8k write_pct=50" \
	"the group names the outer values, one line per group in a chart"
is "$(q "$DB" "SELECT group_concat(bs || '/' || oio, ' ') FROM steps WHERE run_id = $id AND group_name LIKE 'stopped%'")" \
	"4k/1 4k/2 8k/1 8k/2" "stop() skips the rest of the inner axis, then the sweep goes on"
is "$(q "$DB" "SELECT count(*) FROM oio_sweep WHERE run_id = $id")" 16 "the oio_sweep view lists every point"
out=$("$HB" run "$TMP/sweep.lua" --db "$DB" --dry-run); ok $? "--dry-run lists the sweep"
is "$(printf '%s\n' "$out" | grep -c ' measure ')" 20 "the dry run lists every point (stop never fires in it)"
like "$out" 'estimated time: 20s' "and estimates 20 x 1 s"

# --- hb.profile -------------------------------------------------------------
cat > "$TMP/prof.lua" <<'LUA'
hb.plan{ defaults = { engine = "sim", duration = 1, oio = 4 } }
hb.targets = { "v" }
for _, name in ipairs{ "oltp", "email", "webserver", "fileserver" } do hb.run(hb.profile(name)) end
hb.profile("backup", { rw = "read", bs = "1m" })
hb.run(hb.profile("backup"))
LUA
run "$TMP/prof.lua"; ok $? "every profile runs"
id=$(last_run)
is "$(q "$DB" "SELECT group_concat(name || ':' || rw || ':' || bs || ':' || write_pct, ' ') FROM steps WHERE run_id = $id AND name IN ('oltp', 'email')")" \
	"oltp:randrw:8k:33 email:randrw:8k:50" "oltp is 8k random 67/33, email 8k random 50/50"
is "$(q "$DB" "SELECT rw || ':' || write_pct || ':' || bs FROM steps WHERE run_id = $id AND name = 'webserver'")" \
	"randread:0:512:22,1k:15,2k:8,4k:23,8k:15,16k:2,32k:6,64k:7,128k:1,512k:1" "webserver: 100% random reads, 512 B .. 512 KiB"
is "$(q "$DB" "SELECT rw || ':' || write_pct || ':' || bs FROM steps WHERE run_id = $id AND name = 'fileserver'")" \
	"randrw:20:512:10,1k:5,2k:5,4k:60,8k:2,16k:4,32k:4,64k:10" "fileserver: random, 80% read, 512 B .. 64 KiB"
is "$(q "$DB" "SELECT rw || ':' || bs FROM steps WHERE run_id = $id AND name = 'backup'")" "read:1m" \
	"a plan adds its own profile"
printf 'hb.run(hb.profile("olpt"))\n' > "$TMP/badprof.lua"
out=$("$HB" run "$TMP/badprof.lua" --db "$DB" 2>&1); ok $((! $?)) "an unknown profile fails"
like "$out" "badprof.lua:1: hb.profile: no profile 'olpt' \(known: email, fileserver, oltp, webserver\)" \
	"and lists the known ones with the plan line"

# --- hb.precondition --------------------------------------------------------
cat > "$TMP/pre.lua" <<'LUA'
hb.plan{ defaults = { engine = "io_uring", duration = 600, ramp = 60, size = "16m" } }
hb.precondition{ passes = 2, oio = 8 }
hb.precondition{ duration = 2, bs = "4k", oio = 16 }
LUA
run "$TMP/pre.lua" --target "$TMP/pre.dat"; ok $? "a fill and a timed preconditioning run"
id=$(last_run)
is "$(q "$DB" "SELECT group_concat(kind || ':' || rw || ':' || bs || ':' || COALESCE(passes, '-') || ':' || write_bytes, ' ') FROM steps WHERE run_id = $id AND seq = 1")" \
	"precondition:write:128k:2:33554432" "the fill writes exactly 2 x 16 MiB in 128k sequential writes"
is "$(q "$DB" "SELECT kind || ':' || rw || ':' || bs || ':' || COALESCE(passes, '-') || ':' ||
	(write_ops > 0) || ':' || (write_bytes = 4096 * write_ops) || ':' || read_ops || ':' || errors
	FROM steps WHERE run_id = $id AND seq = 2")" "precondition:randwrite:4k:-:1:1:0:0" \
	"the timed preconditioning writes 4k random, write_bytes = 4 KiB x its writes, no reads"
is "$(q "$DB" "SELECT ramp_s || ':' || (duration_s < 600) FROM steps WHERE run_id = $id AND seq = 1")" "0:1" \
	"a fill ignores the plan's default ramp and duration"
is "$(q "$DB" "SELECT count(*) || ':' || sum(ramp) FROM samples s JOIN steps t ON t.id = s.step_id WHERE t.run_id = $id AND t.seq = 2")" "2:0" \
	"a timed preconditioning stores every second of its own duration, none flagged ramp"
for seq in 1 2; do
	sid=$(q "$DB" "SELECT id FROM steps WHERE run_id = $id AND seq = $seq")
	is "$(check_invariant "$DB" "$sid")" 1 "preconditioning step $seq: samples add up"
done

# --- hb.steady ---------------------------------------------------------------
cat > "$TMP/steady.lua" <<'LUA'
hb.plan{ defaults = { engine = "sim", duration = 1 } }
hb.targets = { "v" }
-- a hand-made tracking series: a descent, then a plateau (steady at round 10)
local series = { 400, 300, 220, 160, 130, 118, 112, 110, 109, 111, 110, 110 }
local n = 0
local ss = hb.steady{ name = "made up", workloads = { { rw = "randwrite" }, { rw = "randread" } },
                      track = function(rr) n = n + 1; return hb.dry and 0 or series[n] end,
                      max_rounds = 12 }
if not hb.dry then
  assert(ss.attained and ss.rounds == 10, "attained at round 10")
  assert(ss.window.first == 6 and ss.window.last == 10 and #ss.window == 5)
  assert(math.abs(ss.mean - 112) < 1e-9 and math.abs(ss.slope + 1.7) < 1e-9)
end
local never = hb.steady{ name = "never", workload = { rw = "randread" }, round = 1,
                         track = function() n = n + 1; return (n % 2 == 0) and 100 or 200 end,
                         max_rounds = 6 }
assert(hb.dry or (not never.attained and never.rounds == 6))
LUA
out=$("$HB" run "$TMP/steady.lua" --db "$DB" --dry-run)
like "$out" 'estimated time: 30s' "the dry run counts steady rounds at their maximum (12 x 2 + 6)"
run "$TMP/steady.lua"; ok $? "hb.steady runs (its own asserts hold)"
id=$(last_run)
is "$(q "$DB" "SELECT group_concat(name || ':' || attained || ':' || rounds || ':' || COALESCE(window_first, '-') || '-' || COALESCE(window_last, '-'), ' ') FROM steady_state WHERE run_id = $id")" \
	"made up:1:10:6-10 never:0:6:2-6" "steady_state stores attained, rounds and window"
is "$(q "$DB" "SELECT count(*) || ':' || min(round) || ':' || max(round) FROM steps WHERE run_id = $id AND kind = 'steady-round' AND group_name = 'made up'")" \
	"20:1:10" "2 workloads x 10 rounds stored as steady-round steps"
is "$(q "$DB" "SELECT (SELECT min(id) FROM steps WHERE run_id = $id) = first_step_id FROM steady_state WHERE run_id = $id AND name = 'made up'")" 1 \
	"the outcome points at its rounds' steps"
grep -q "steady state 'never' not attained in 6 rounds" "$TMP/stderr"; ok $? "a steady state not attained is a warning"
out=$("$HB" show "$id" --db "$DB")
like "$out" "steady state 'made up': attained after 10 rounds; window rounds 6-10, mean function 112.0, data excursion 8.0% \(max 20%\), slope excursion 6.1% \(max 10%\)" \
	"show reports the steady state with its window and why"
like "$out" "steady state 'never': NOT attained after 6 rounds" "and one not attained"

# --- hb.exec ------------------------------------------------------------------
cat > "$TMP/exec.lua" <<LUA
local r = hb.exec{ cmd = "head -c 3000000 /dev/zero > '$TMP/copy.out'", bytes = 3000000, name = "copy" }
assert(hb.dry or (r.exit_status == 0 and r.elapsed_s > 0))
LUA
run "$TMP/exec.lua" --allow-exec; ok $? "hb.exec times a command (with --allow-exec)"
id=$(last_run)
is "$(q "$DB" "SELECT kind || ':' || name || ':' || exit_status || ':' || (abs(mbps - 3.0 / elapsed_s) < 1e-6) FROM steps WHERE run_id = $id")" \
	"exec:copy:0:1" "its duration and throughput (bytes / elapsed) are stored"
[ -s "$TMP/copy.out" ]; ok $? "the command ran"
like "$("$HB" show "$id" --db "$DB")" "exec +copy +done +- +[0-9.]+ .* ran [0-9]+\.[0-9] s, exit status 0$" \
	"show: an exec step's time and exit status, no IOPS"
printf 'hb.exec{ cmd = "exit 3" }\nhb.run{ engine = "null", targets = "v", duration = 1 }\n' > "$TMP/fail.lua"
out=$("$HB" run "$TMP/fail.lua" --db "$DB" --allow-exec 2>&1); is $? 1 "a failing command fails the run"
like "$out" "fail.lua:1: hb.exec: 'exit 3' exited with status 3" "with the plan line and the status"
is "$(q "$DB" "SELECT status || ':' || (SELECT count(*) FROM steps WHERE run_id = runs.id) FROM runs WHERE id = $(last_run)")" "failed:1" \
	"the run is failed and stops there"

out=$("$HB" run "$TMP/exec.lua" --db "$DB" --dry-run 2>&1); is $? 0 "--dry-run without --allow-exec lists the commands"
like "$out" "exec +copy .*cmd=head -c 3000000 /dev/zero > '$TMP/copy.out' +line 1 +\(needs --allow-exec\)" \
	"with the command, its line and the flag it needs"

# --- several targets and workers: per-target totals ----------------------------
cat > "$TMP/jbod.lua" <<LUA
hb.targets = { "$TMP/d1", "$TMP/d2", "$TMP/d3", "$TMP/d4" }
hb.run{ engine = "io_uring", rw = "randread", workers = 2, oio = 2 * 4 * 4, duration = 2, size = "8m" }
LUA
run "$TMP/jbod.lua"; ok $? "4 targets x 2 workers x QD 4 run"
sid=$(q "$DB" "SELECT max(id) FROM steps")
is "$(q "$DB" "SELECT count(*) FROM step_targets WHERE step_id = $sid")" 4 "one row per target in step_targets"
is "$(q "$DB" "SELECT sum(t.read_ops) = s.read_ops AND sum(t.read_bytes) = s.read_bytes AND min(t.read_ops) > 0 FROM step_targets t JOIN steps s ON s.id = t.step_id WHERE t.step_id = $sid")" 1 \
	"per-target totals add up to the step's, and every target did I/O"

# a mixed workload: each direction's per-target counters add up on their own
cat > "$TMP/mixed.lua" <<LUA
hb.run{ engine = "null", targets = { "m1", "m2" }, rw = "randrw", write_pct = 50, bs = "4k",
        workers = 2, oio = 4, duration = 1 }
LUA
run "$TMP/mixed.lua"; ok $? "a 50% write mix over 2 targets x 2 workers runs"
sid=$(q "$DB" "SELECT max(id) FROM steps")
is "$(q "$DB" "SELECT sum(t.read_ops) = s.read_ops AND sum(t.write_ops) = s.write_ops
	AND sum(t.read_bytes) = s.read_bytes AND sum(t.write_bytes) = s.write_bytes
	AND sum(t.errors) = s.errors AND min(t.read_ops) > 0 AND min(t.write_ops) > 0
	AND sum(t.write_bytes) = 4096 * sum(t.write_ops)
	FROM step_targets t JOIN steps s ON s.id = t.step_id WHERE t.step_id = $sid")" 1 \
	"randrw: per-target reads and writes each add up to the step's, every target did both"
# --target replaces the plan's targets, those of hb.plan{defaults=} too (it
# was ignored there: the step measured the plan's device); a step's own
# targets stay its own
cat > "$TMP/deftgt.lua" <<'LUA'
hb.plan{ defaults = { engine = "null", targets = { "plan-a", "plan-b" }, oio = 2, duration = 1 } }
hb.run{ name = "by default" }
hb.run{ name = "its own", targets = "own" }
LUA
run "$TMP/deftgt.lua" --target cli; ok $? "a plan with targets in its defaults runs with --target"
id=$(last_run)
is "$(q "$DB" "SELECT group_concat(json_extract(params_json, '\$.targets'), ' ') FROM (SELECT params_json FROM steps WHERE run_id = $id ORDER BY seq)")" \
	'["cli"] ["own"]' "--target replaces the defaults' targets; a step's own targets stay"
is "$(q "$DB" "SELECT group_concat(path, ' ') FROM (SELECT path FROM targets WHERE run_id = $id ORDER BY path)")" \
	"cli own" "the run's targets are those measured"
run "$TMP/deftgt.lua"; ok $? "and without --target"
is "$(q "$DB" "SELECT json_extract(params_json, '\$.targets') FROM steps WHERE run_id = $(last_run) AND seq = 1")" \
	'["plan-a","plan-b"]' "without --target the defaults' targets"
done_testing
