#!/usr/bin/env bash
# Plan mistakes: each gives "file:line: message", exits non-zero, and leaves
# the database exactly as it was (no run written, nothing touched).
. "$(dirname "$0")/lib.sh"

DB="$TMP/results.db"
cat > "$TMP/good.lua" <<'LUA'
hb.run{ engine = "null", targets = { "x" }, duration = 1 }
LUA
"$HB" run "$TMP/good.lua" --db "$DB" -q; ok $? "a good null plan runs (the database to protect)"
before=$(sqlite3 "$DB" .dump | sha256sum)

# bad PLAN_BODY LINE PATTERN DESCRIPTION [extra args]
bad() {
	local body=$1 line=$2 pat=$3 what=$4; shift 4
	local plan="$TMP/bad.lua" out rc
	printf '%s\n' "$body" > "$plan"
	out=$("$HB" run "$plan" --db "$DB" --target "$TMP/t.dat" "$@" 2>&1); rc=$?
	ok $((rc == 0)) "$what: exits non-zero ($rc)"
	like "$out" "$plan:$line: .*$pat" "$what: message names file:line ($(printf '%s' "$out" | head -1 | sed "s|$TMP/||g"))"
	is "$(sqlite3 "$DB" .dump | sha256sum)" "$before" "$what: database unchanged"
}

bad 'hb.plan{ name = "x" }
hb.run{ rw = "randread"' 3 "'}' expected" "syntax error"
bad 'hb.run{ oi = 32, size = "1m" }' 1 "unknown key 'oi' \(did you mean 'oio'\?\)" "unknown key"
bad 'hb.run{ bs = "4kb!", size = "1m" }' 1 "bs: '4kb!' is not a block size" "bad size string"
bad 'hb.run{ size = "lots" }' 1 'size=lots: expected a size' "bad size for size="
bad 'local m = require "no_such_module"' 1 \
	"module 'no_such_module' not found: no no_such_module.lua in $ROOT/scripts, .*, $TMP" \
	"require of a module that is nowhere (the error lists the folders looked in)"
# a module kept beside the plan is found (after scripts/, which it never hides)
printf 'return { n = 42 }\n' > "$TMP/mine.lua"
printf 'local m = require "mine"\nassert(m.n == 42)\nlocal s = require "snia"\nassert(s.fit)\nhb.run{ engine = "null", targets = "v", duration = 1 }\n' > "$TMP/usesmine.lua"
"$HB" run "$TMP/usesmine.lua" --dry-run >/dev/null 2>"$TMP/err"; ok $? "require finds a module in the plan's own folder ($(head -c 200 "$TMP/err"))"
printf 'return { shadow = true }\n' > "$TMP/snia.lua"
printf 'local s = require "snia"\nassert(not s.shadow and s.fit, "scripts/snia.lua hidden")\nhb.run{ engine = "null", targets = "v", duration = 1 }\n' > "$TMP/shadow.lua"
"$HB" run "$TMP/shadow.lua" --dry-run >/dev/null 2>"$TMP/err"; ok $? "but scripts/ comes first: a snia.lua beside the plan does not hide it"
rm -f "$TMP/snia.lua"
# a worker's share rounded down to align is 0: every worker would write offset 0
bad 'hb.run{ rw = "write", bs = "4k", oio = 2, workers = 2, passes = 1, range = "1m", align = "1m", size = "4m" }' 1 \
	"0 bytes in use per worker \\(its share, rounded down to align\\) is less than the block size 4096" \
	"sequential shares that align rounds to nothing"
bad 'hb.run{ oio = 30, workers = 4, size = "1m" }' 1 'oio=30 does not split evenly over 4 workers x 1 target.*multiple of 4' "uneven oio split"
# divisible by the workers but not by workers x targets: the split is per queue
bad 'hb.run{ engine = "null", targets = { "a", "b" }, oio = 6, workers = 2, duration = 1 }' 1 \
	'oio=6 does not split evenly over 2 workers x 2 targets \(4 queues\).*multiple of 4' \
	"oio split over workers x targets"
bad 'hb.run{ engine = "warp_drive", size = "1m" }' 1 'engine="warp_drive": no such engine plugin' "unknown engine"
bad 'hb.run{ engine = "io_uring", io_uring = { sqpol = true }, size = "1m" }' 1 "io_uring: unknown option 'sqpol'" "unknown engine option"
bad 'hb.run{ rw = "randread", write_pct = 30, size = "1m" }' 1 'write_pct=30 contradicts rw="randread"' "write_pct against rw"
bad 'hb.run{ rw = "sideways", size = "1m" }' 1 'rw=sideways: expected one of' "unknown rw"
bad 'hb.run{ targets = { "'"$TMP"'/no/such/dir/file" }, size = "1m" }' 1 "folder '$TMP/no/such/dir' does not exist" "target in a missing folder"
bad 'hb.run{ duration = 5 }' 1 "target '$TMP/t.dat' does not exist; give size=" "missing target without size"
bad 'hb.run{ engine = "null", duration = 1, targets = { 1, 2 } }' 1 \
	'targets\[1\] is a number \(1\): each element must be a path string or a target name' \
	"a target that is a number (not a table's address)"
bad 'hb.plan{ defaults = { targets = { "a", {} } } }
hb.run{ engine = "null", duration = 1 }' 2 'targets\[2\] is a table: each element must be a path string or a target name' \
	"a target that is a table, from the defaults"
bad 'hb.run{ engine = "null", duration = 1, targets = { "a", "" } }' 1 'targets\[2\] is an empty string: each element' \
	"an empty target"
bad 'hb.run{ engine = "null", duration = 1, targets = { "a", x = "b" } }' 1 \
	'targets has the key x, which is not a list position: give a list' "a targets key that is a name, not a position"
bad 'hb.run{ engine = "null", duration = 1, targets = { "a", [3] = "c" } }' 1 \
	'targets has the key 3, which is not a list position' "a targets list with a hole"
# a value without its key: the message named the table ("not a table")
bad 'hb.run{ engine = "null", targets = "v", duration = 1, "randwrite" }' 1 \
	'a step key must be a name, not a number \(1\): a value without its name' "a step value without its key"
# a key named after another plugin holds a table of its options, even in a
# step of another engine: sim = "pcie3x4" in a null step was dropped
bad 'hb.run{ engine = "null", targets = "v", duration = 1, sim = "pcie3x4" }' 1 \
	"sim=pcie3x4: expected a table of that plugin.s options" "another engine's key that is not a table"
bad 'hb.run{ engine = "null", targets = "v", duration = 1, bs = { ["4k"] = 1, ["4096"] = 3 } }' 1 \
	'bs: the mix names the size 4096 twice' "a bs mix naming one size twice (stored as bs 4k:1,4k:3 before)"
bad 'hb.run{ engine = "null", targets = "v", duration = 1, bs = { "4k", "8k" } }' 1 \
	'bs: a list of sizes is not a mix: give each size a weight, \{\["4k"\] = 50, ...\}, or sweep bs' \
	"a list of sizes (said: weight of '1' must be a whole number, before)"
bad 'hb.steady{ name = 5, workload = { engine = "null", targets = "v", duration = 1 } }' 1 \
	'hb.steady: name is a number \(5\): expected a string' "hb.steady name a number (blamed group before)"
bad 'hb.plan{ name = "r5", description = { "4k", "8k" } }
hb.run{ engine = "null", targets = "v", duration = 1 }' 1 'hb.plan: description is a table: expected a string' \
	"hb.plan description that is not a string (dropped before)"
# a number key given a string (hb.set with no default returns one): the
# message read "duration=30: expected a whole number", as if 30 were not one
bad 'hb.run{ engine = "null", targets = "v", duration = hb.set("seconds") }' 1 \
	'duration=30: expected a whole number from 1 to 100000000, not a string \(from hb.set without a default' \
	"a number key given --set's string" --set seconds=30
# tags: a list of strings; { card = "9361" } was stored as [], the tag lost
bad 'hb.run{ engine = "null", targets = "v", duration = 1, tags = { "raid5", card = "9361" } }' 1 \
	'tags has the key card, which is not a list position: give a string or a list of strings' \
	"tags with a named key (stored as [] before)"
bad 'hb.run{ engine = "null", targets = "v", duration = 1, tags = { "a", 7 } }' 1 \
	'tags\[2\] is a number: each tag must be a string' "a tag that is a number (a table address in the message before)"
bad 'hb.run{ engine = "null", duration = 1, targets = 5 }' 1 \
	'targets=5: expected a path string or a target name, .* or a table of them' "targets that is a number"
bad 'hb.run{ range = 2.0, size = "1m" }' 1 \
	'range=2: a share is at most 1 \(0\.5 or "50%"\); give a size with a unit such as "2g"' \
	"range=2.0 (read as 2 bytes before)"
bad 'hb.run{ range = 1.5, size = "1m" }' 1 'range=1\.5: a share is at most 1' "range=1.5"
bad 'hb.run{ bs = "8k", range = 4096, size = "1m" }' 1 'range=4096: a share is at most 1' \
	"range=4096 bytes below bs=8k"
bad 'hb.run{ engine = "null", targets = "v", range = "2g", duration = 1 }' 1 \
	"range=2147483648 is more than target .v. holds \\(1073741824 bytes\\): give at most its size" \
	"a range past the target's end (cut to it without a word before)"
printf 'hb.run{ engine = "null", targets = "v", range = 8192, duration = 1 }\n' > "$TMP/range.lua"
"$HB" run "$TMP/range.lua" --dry-run >/dev/null; ok $? "range=8192: whole bytes, at least a block, still accepted"
bad 'hb.sleep(0/0)' 1 "hb.sleep: -?nan seconds: expected 0 to 10000000" "hb.sleep of NaN (it slept forever)"
bad 'hb.sleep(1e12)' 1 "hb.sleep: 1000000000000.0 seconds: expected 0 to 10000000" "hb.sleep too long to be meant (it returned at once)"
bad 'hb.steady{ workload = { engine = "null", targets = "v", duration = 1 }, max_rounds = 0 }' 1 \
	"hb.steady: max_rounds=0: expected a whole number, at least 1" "hb.steady with no rounds (an internal error before)"
bad 'hb.steady{ workload = { engine = "null", targets = "v", duration = 1 }, window = -3 }' 1 \
	"hb.steady: window=-3: expected a whole number, at least 2" "hb.steady with a negative window (accepted before)"
# hb.sweep's own keys: stop is never called in the dry pass, so a wrong type
# there passed it and failed the night after the first point
bad 'hb.sweep{ base = { engine = "null", targets = "v", duration = 1 },
  oio = { 1, 2 }, stop = 5 }' 1 "hb.sweep: stop is a number \\(5\\): expected a function" \
	"hb.sweep stop= that is not a function (refused only after step 1 before)"
bad 'hb.sweep{ base = { engine = "null", targets = "v", duration = 1 }, oio = { 1 }, group = {} }' 1 \
	"hb.sweep: group is a table: expected a string" "hb.sweep group= a table (an error in hbatest.lua before)"
bad 'hb.sweep{ base = { engine = "null", targets = "v", duration = 1 }, oio = {} }' 1 \
	"hb.sweep: oio=\\{\\} has no values" "a sweep of no points (a table address as the oio before)"
# hb.precondition{passes = 0} (--set passes=0 in plans/raid5.lua) ran a
# sequential write for the plan's default duration, named "fill 0x"
bad 'hb.plan{ defaults = { engine = "null", targets = "v", duration = 1 } }
hb.precondition{ passes = 0 }' 2 "hb.precondition: passes=0 fills nothing" "a fill of 0 passes"
# hb.steady's limits are shares of the mean: the dry pass's zero figures never
# reach the comparison, so "20%" failed the real run at its second round and
# 20 (meant as percent) made any series steady
bad 'hb.steady{ workload = { engine = "null", targets = "v", duration = 1 }, window = 2, max_rounds = 2,
  max_data_excursion = "20%" }' 1 "hb.steady: max_data_excursion is a string \\(20%\\): expected a share of the window.s mean above 0 and at most 1, such as 0.2 for 20%" \
	"hb.steady max_data_excursion a string (failed the real run in snia.lua before)"
bad 'hb.steady{ workload = { engine = "null", targets = "v", duration = 1 }, window = 2, max_rounds = 2,
  max_slope_excursion = 10 }' 1 "hb.steady: max_slope_excursion is a number \\(10\\): .* such as 0.1 for 10%" \
	"hb.steady max_slope_excursion=10, a percentage (any series was steady before)"
bad 'hb.steady{ workload = { engine = "null", targets = "v", duration = 1 }, workloads = {} }' 1 \
	"hb.steady: give workload = \\{...\\} or workloads = \\{...\\}, not both" "hb.steady with workload and workloads (workload ignored before)"
bad 'hb.steady{ workload = "4k randwrite" }' 1 "hb.steady: workload 1 is a string \\(4k randwrite\\): expected a table" \
	"hb.steady workload that is not a table (an error in hbatest.lua before)"
bad 'hb.steady{ workload = { engine = "null", targets = "v", duration = 1 }, window = 30, max_rounds = 5 }' 1 \
	"hb.steady: window=30 is more than max_rounds=5" "a window that could never be attained"
bad 'hb.steady{ workload = { engine = "null", targets = "v", duration = 1 }, max_rounds = 2 }' 1 \
	"hb.steady: window=5 \\(the SNIA default\\) is more than max_rounds=2" \
	"max_rounds below the default window of 5 (it ran every round, never attainable)"
bad 'hb.run{ rw = "write", size = "1p", duration = 1 }' 1 \
	"target '$TMP/t.dat': 1.00 PiB more to lay out, but its file system has [0-9.]+ ([KMGTPE]i)?B free" \
	"a file larger than the free space is refused before a byte is written"
[ ! -e "$TMP/t.dat" ]; ok $? "and the file is not created"
bad 'local x = nil
x.field = 1' 2 "attempt to index a nil value" "runtime error"
bad 'local f = io.open("/etc/passwd")' 1 "global 'io'" "io is not in the sandbox"
bad 'os.execute("true")' 1 "field 'execute'" "os.execute is not in the sandbox"
bad 'local f = load(string.dump(function() end))
f()' 2 "attempt to call a nil value" "binary chunks do not load"
bad 'hb.plan{ defaults = { ramp = 1, duraton = 3 } }' 1 "unknown key 'duraton' \(did you mean 'duration'\?\)" "unknown key in defaults"
bad 'for i = 1, 40 do
  hb.run{ name = "step " .. i, size = "1m", duration = 600,
          oio = (i == 37) and 3 or 4, workers = 2 }
end' 2 'oio=3 does not split evenly' "a mistake at step 37 is found before any I/O"

# an engine option's value is checked in the dry pass (the engine's check op),
# so a bad one at step 2 fails before step 1 runs: nothing written
sim_ok='hb.run{ name = "a", engine = "sim", targets = "v", duration = 60 }'
bad "$sim_ok
hb.run{ name = \"b\", engine = \"sim\", targets = \"v\", duration = 60,
        sim = { layout = \"raid6\" } }" 2 "sim: layout 'raid6' is not jbod, raid0, raid5 or raid10" \
	"an unknown sim layout at step 2"
bad "$sim_ok
hb.run{ engine = \"sim\", targets = \"v\", sim = { link = \"pcie9x3\" } }" 2 \
	"sim: link 'pcie9x3' is not pcieGENxWIDTH with GEN 1 to 6 and WIDTH 1 to 32" "a sim link of no PCIe generation"
# io_uring's and libaio's own ranges, checked in the dry pass (they ran before)
bad 'hb.run{ size = "1m", duration = 1, io_uring = { submit_batch = 0 } }' 1 \
	"io_uring: submit_batch=0 is out of range: 1 to 65536" "io_uring submit_batch 0"
bad 'hb.run{ size = "1m", duration = 1, io_uring = { wait_nr = -1 } }' 1 \
	"io_uring: wait_nr=-1 is out of range: 1 to 65536" "io_uring wait_nr -1"
bad 'hb.run{ size = "1m", duration = 1, io_uring = { reap_max = -1 } }' 1 \
	"io_uring: reap_max=-1 is out of range: 0 to 65536" "io_uring reap_max -1"
bad 'hb.run{ size = "1m", duration = 1, io_uring = { sqpoll = true, sqpoll_idle_ms = -5 } }' 1 \
	"io_uring: sqpoll_idle_ms=-5 is out of range: 0 to 3600000" "io_uring sqpoll_idle_ms -5"
bad 'hb.run{ engine = "libaio", size = "1m", duration = 1, libaio = { submit_batch = 0 } }' 1 \
	"libaio: submit_batch=0 is out of range: 1 to 65536" "libaio submit_batch 0"
bad 'hb.run{ engine = "libaio", size = "1m", duration = 1, libaio = { reap_max = -1 } }' 1 \
	"libaio: reap_max=-1 is out of range: 0 to 65536" "libaio reap_max -1"
# another engine's options in a step (or its defaults): unused here, still checked
bad 'hb.run{ engine = "psync", duration = 1, io_uring = { nosuch = 1 } }' 1 \
	"io_uring: unknown option 'nosuch' \\(it takes: sqpoll," "a misspelt option of another engine than the step's"
bad 'hb.plan{ defaults = { io_uring = { sqpoll = "maybe" } } }
hb.run{ engine = "psync", duration = 1 }' 2 \
	"io_uring: option 'sqpoll' wants true or false, not 'maybe'" "a bad value for another engine, in the defaults"
bad 'hb.run{ engine = "sim", targets = "v", sim = { drives = 8.5 } }' 1 \
	"sim: option 'drives' wants a whole number, not '8.5'" "a sim drive count that is not whole"
printf 'hb.run{ engine = "sim", targets = "v", duration = 1, sim = { drives = 8.0, sample_ios = 1e3 } }\n' > "$TMP/whole.lua"
out=$("$HB" run "$TMP/whole.lua" --db "$TMP/whole.db" 2>&1); rc=$?
is "$rc $(q "$TMP/whole.db" "SELECT json_extract(params_json, '$.sim.drives') || ' ' || json_extract(params_json, '$.sim.sample_ios') FROM steps")" \
	"0 8 1000" "whole numbers Lua writes as 8.0 and 1e3 are whole-number options (refused before)"
bad 'hb.run{ engine = "sim", targets = "v", sim = { drives = 0 } }' 1 \
	"sim: drives 0 do not make a jbod: drives is 1 to 4096, at least 3 for raid5 and even for raid10" "0 sim drives"
bad 'hb.run{ engine = "sim", targets = "v", sim = { layout = "raid10", drives = 5 } }' 1 \
	"sim: drives 5 do not make a raid10" "an odd number of drives in raid10"
bad 'hb.run{ engine = "sim", targets = "v", sim = { jitter = -1 } }' 1 \
	"sim: jitter -1 is not a share from 0 \(none\) to 1" "a negative sim jitter"
bad 'hb.run{ engine = "sim", targets = "v", sim = { link_efficiency = 5 } }' 1 \
	"sim: link_efficiency 5 is not a share of the link above 0 and at most 1" "a sim link_efficiency of 500 %"
bad 'hb.run{ engine = "sim", targets = "v", sim = { ctrl_latency_us = 1e300 } }' 1 \
	"sim: ctrl_latency_us 1e\\+300 is out of range: 0 to 1000000" "a sim latency that would never drain"
bad 'hb.run{ engine = "sim", targets = "v", sim = { ctrl_iops = -100 } }' 1 \
	"sim: ctrl_iops -100 is out of range: 1 to 1000000000" "a negative sim rate"
bad 'hb.run{ engine = "sim", targets = "v", sim = { gc_factor = 0 } }' 1 \
	"sim: gc_factor 0 is out of range: above 0, at most 1" "a sim GC dip to a standstill"
printf '%s\n' "$sim_ok" 'hb.run{ engine = "sim", targets = "v", sim = { layout = "raid6" } }' > "$TMP/bad.lua"
out=$("$HB" run "$TMP/bad.lua" --dry-run --db "$DB" 2>&1); is $? 1 "--dry-run fails on a bad engine option too"
like "$out" "bad.lua:2: .*layout 'raid6'" "naming the line"
printf '%s\n' 'hb.run{ engine = "sim", targets = "v", sim = { link_efficiency = 1, jitter = 0, drives = 1 } }' \
	> "$TMP/edge.lua"
"$HB" run "$TMP/edge.lua" --dry-run --db "$DB" >/dev/null; ok $? "the edges (link_efficiency 1, jitter 0, 1 drive) pass"

# hb.exec is a root shell: only the operator's --allow-exec lets it run
bad 'hb.run{ engine = "null", targets = "v", duration = 1 }
hb.exec{ cmd = "dd if=/dev/zero of='"$TMP"'/wiped bs=1k count=1" }' 2 \
	"hb.exec: running shell commands needs --allow-exec on the command line \(the command: dd if=/dev/zero of=$TMP/wiped" \
	"hb.exec without --allow-exec"
bad 'hb.allow_exec = true
rawset(hb, "allow_exec", true)
hb.exec{ cmd = "touch '"$TMP"'/wiped" }' 3 "needs --allow-exec on the command line" \
	"a plan cannot grant itself --allow-exec" --set allow_exec=true
[ ! -e "$TMP/wiped" ]; ok $? "the refused commands did not run"
# hb.exec's other keys: a negative estimate wrapped the plan's estimate to
# 5124095576030430h, "1h" was read as 0 s, name={} and group=7 were dropped
bad 'hb.exec{ cmd = "true", estimate = -1000 }' 1 "hb.exec: estimate=-1000: expected the seconds it may take" \
	"hb.exec estimate below 0" --allow-exec
bad 'hb.exec{ cmd = "true", estimate = "1h" }' 1 "hb.exec: estimate=1h: expected the seconds it may take" \
	"hb.exec estimate that is not a number" --allow-exec
bad 'hb.exec{ cmd = "true", name = {} }' 1 "hb.exec: name=a table: expected a string" \
	"hb.exec name that is a table" --allow-exec
bad 'hb.exec{ cmd = "true", group = 7 }' 1 "hb.exec: group=7: expected a string" \
	"hb.exec group that is a number" --allow-exec

# a plan's Lua has limits: CPU time in the dry pass, memory, and error values
# that are not strings still give a message with the plan line
bad 'hb.run{ engine = "null", targets = "v", duration = 1 }
local caught = pcall(function()
  while true do end
end)
hb.log("a pcall does not swallow the limit")' 3 "the dry pass has run for 10 s: does the plan loop forever\?" \
	"an endless loop in the dry pass, even inside pcall"
# the limit is the plan's CPU time, not the wall's: a dry pass held off the CPU
# for 11 s (SIGSTOP, as a loaded host would) and given 2 s of loop still passes
printf 'local n = 0\nfor i = 1, 1e8 do n = n + i end\nhb.run{ engine = "null", targets = "v", duration = 1 }\n' > "$TMP/slow.lua"
"$HB" run "$TMP/slow.lua" --dry-run >"$TMP/slow.out" 2>&1 &
pid=$!
sleep 0.2; kill -STOP $pid; sleep 11; kill -CONT $pid
wait $pid; rc=$?
is "$rc $(grep -c 'loop forever' "$TMP/slow.out")" "0 0" "a dry pass stopped for 11 s: its Lua's CPU time is under 10 s, no limit"
bad 'local t = {}
while true do t[#t + 1] = string.rep("x", 1000000) .. #t end' 2 \
	"the plan's Lua needs more memory than its limit of 64 MiB \(--lua-memory SIZE raises it\)" \
	"a memory bomb under --lua-memory 64m" --lua-memory 64m
bad 'local keep = {}
for i = 1, 100 do keep[i] = string.rep("x", 1000) .. i end
local s = string.rep("y", 1500000000)' 3 "needs more memory than its limit of 1 GiB" \
	"one allocation past the default limit (1 GiB)"
bad 'hb.log("x")
error({ code = 1, why = "disk" })' 2 'error raised with a table: \{(code=1, why="disk"|why="disk", code=1)\}' \
	"error() with a table (its fields in Lua's order)"
bad 'error(42)' 1 "error raised with a number: 42" "error() with a number"
bad 'local x
error(x)' 2 "error raised with nil \(no message\)" "error() with nil"
bad 'error(setmetatable({}, { __tostring = function() return "disk full" end }))' 1 "disk full$" \
	"error() with an object that has __tostring"

out=$("$HB" run "$TMP/good.lua" --db "$DB" --lua-memory lots 2>&1); is $? 2 "--lua-memory takes a size"
like "$out" "--lua-memory lots: expected a size" "and says so"
out=$("$HB" run "$TMP/good.lua" --db "$DB" --set secs=5 --set secs=10 2>&1); is $? 2 "a repeated --set key is a usage error"
like "$out" "--set secs is given twice \('5' and '10'\)" "naming the key and both values"
is "$(sqlite3 "$DB" .dump | sha256sum)" "$before" "repeated --set: database unchanged"

# a mistake inside a module: the plan's line, then the module's
# (a number the plan reads it checks itself, tests/plans_set.t: size= it hands on)
out=$("$HB" run "$ROOT/plans/raid5.lua" --db "$DB" --target "$TMP/r5.dat" --set size=1x 2>&1); rc=$?
r5line=$(grep -n '^require("review")' "$ROOT/plans/raid5.lua" | cut -d: -f1)
like "$rc $out" "^1 .*plans/raid5\\.lua:$r5line: hb\\.run: size=1x: expected a size.* \\(at $ROOT/scripts/review\\.lua:[0-9]+\\)$" \
	"a bad --set value used in scripts/review.lua: the plan's line and the module's"
is "$(sqlite3 "$DB" .dump | sha256sum)" "$before" "a mistake in a module: database unchanged"
# an error raised in Lua in a module (hb.precondition in scripts/hbatest.lua,
# called from a module beside the plan) named the module's line only
printf 'return { fill = function()\n  hb.precondition{ passes = 0 }\nend }\n' > "$TMP/fillmod.lua"
printf 'hb.plan{ defaults = { engine = "null", targets = "v" } }\nrequire("fillmod").fill()\n' > "$TMP/usesfill.lua"
out=$("$HB" run "$TMP/usesfill.lua" --db "$DB" 2>&1); rc=$?
like "$rc $out" "^1 .*usesfill\\.lua:2: $TMP/fillmod\\.lua:2: hb\\.precondition: passes=0" \
	"an error raised in a module's Lua: the plan's line, then the module's"
# plans/raid5.lua --set passes=0: no fill (an array filled just before)
out=$("$HB" run "$ROOT/plans/raid5.lua" --db "$DB" --target "$TMP/r5.dat" --set size=64m \
	--set passes=0 --dry-run 2>&1); rc=$?
like "$rc $out" "^0 " "raid5 --set passes=0: the dry run passes"
printf '%s\n' "$out" | grep -q "fill"; is $? 1 "and has no fill step"
like "$out" "4k random write preconditioning" "but keeps the timed preconditioning"
printf 'return { go = function() error("my own") end }\n' > "$TMP/ownmod.lua"
printf 'local m = require "ownmod"\n\nm.go()\n' > "$TMP/usesown.lua"
like "$("$HB" run "$TMP/usesown.lua" --db "$DB" 2>&1)" "usesown\\.lua:3: $TMP/ownmod\\.lua:1: my own$" \
	"an error() in the plan's own module: the plan's line first"
out=$("$HB" run "$TMP/good.lua" --db "$DB" --set duration=5 2>&1)
is $? 2 "an unused --set key is a usage error (exit 2)"
like "$out" "--set duration=5 is not read by the plan \\(it reads no --set key; check" "and names the key, and that the plan reads none"
printf 'local a, b = hb.set("seconds", 1), hb.set("ramp", 0)\nfor i = 1, 3 do hb.set("seconds", 1) end\nhb.run{ engine = "null", targets = "v", duration = a }\n' > "$TMP/reads.lua"
out=$("$HB" run "$TMP/reads.lua" --db "$DB" --set secs=5 2>&1)
like "$out" "--set secs=5 is not read by the plan \\(it reads seconds, ramp; check the spelling\\)" \
	"a misspelt --set: the keys the plan reads, each once"
is "$(sqlite3 "$DB" .dump | sha256sum)" "$before" "unused --set: database unchanged"
is "$(q "$DB" "SELECT count(*) FROM runs")" 1 "unused --set: no run row"
# --set values: converted to the default's type; a list default takes a list
cat > "$TMP/types.lua" <<'LUA'
local oios, secs = hb.set("oio", {1, 4}), hb.set("secs", 1)
local names, on = hb.set("names", {}), hb.set("on", false)
for i, o in ipairs(oios) do
  hb.run{ name = ("q%s %s %s %s %s"):format(o, math.type(o), type(secs), names[i] or "-", on),
          engine = "null", targets = "v", oio = o, duration = secs }
end
LUA
out=$("$HB" run "$TMP/types.lua" --dry-run --set oio=8,64 --set secs=2 --set names=a,b --set on=1 2>&1 | tr '\n' ' ')
like "$out" "q8 integer number a true.*q64 integer number b true" \
	"--set oio=8,64 with a list default {1, 4}: a list of numbers; names=a,b of strings; on=1 true"
like "$("$HB" run "$TMP/types.lua" --dry-run 2>&1 | tr '\n' ' ')" "q1 integer number - false.*q4 integer" "no --set: the defaults"
for bad in "oio=8,,64|--set oio: '8,,64' has an empty item" "oio=8,x|--set oio: 'x' is not a number" \
	   "secs=2s|--set secs: '2s' is not a number" "on=yes|--set on: 'yes' is not true or false"; do
	out=$("$HB" run "$TMP/types.lua" --dry-run --set "${bad%%|*}" 2>&1)
	like "$? $out" "^1 .*types\.lua:[0-9]+: ${bad#*|}" "--set ${bad%%|*}: refused, naming the key and the value"
done
printf 'local f = hb.set("f", print)\nhb.run{ engine = "null", targets = "v", duration = 1 }\n' > "$TMP/fdef.lua"
like "$("$HB" run "$TMP/fdef.lua" --dry-run 2>&1)" "fdef\.lua:1: hb\.set: the default of 'f' is a function: give a number" \
	"a function as the default: an error naming the key"
printf 'hb.run{ targets = "%s", size = "1m", duration = 1 }\n' "$TMP/set.dat" > "$TMP/set.lua"
"$HB" run "$TMP/set.lua" --db "$DB" --set nosuch=1 >/dev/null 2>&1
is "$?$([ -e "$TMP/set.dat" ] && echo ' created')" 2 "unused --set on a plan with a file target: exit 2, the file not laid out"

# names and text are UTF-8 with no NUL byte (issue 32: an invalid byte broke
# every SVG of the report; a NUL cut a group name short)
bad 'hb.run{ size = "1m", group = "a\0b" }' 1 'group: a NUL byte at byte 2' "a NUL byte in a group name"
bad 'hb.run{ size = "1m", name = "Pr\xfcfung" }' 1 'name: byte 3 \(0xfc\) is not UTF-8' "a Latin-1 step name"
bad 'hb.plan{ description = "card\xff" }' 1 'hb.plan: description: byte 5 \(0xff\) is not UTF-8' "a plan description that is not UTF-8"
bad 'hb.exec{ cmd = "true", group = "g\xfe" }' 1 'group: byte 2 \(0xfe\) is not UTF-8' "an hb.exec group that is not UTF-8" --allow-exec
bad 'hb.run{ size = "1m", group = hb.set("g", "x") }' 1 'group: byte 2 \(0xfc\) is not UTF-8' \
	"a --set value that is not UTF-8, as a group name" --set g=$'G\xfcx'
out=$("$HB" run "$TMP/good.lua" --db "$DB" --label $'card\xff\xfeA' 2>&1)
like "$? $out" '^2 .*--label: byte 5 \(0xff\) is not UTF-8' "--label that is not UTF-8: a usage error naming the byte"
is "$(sqlite3 "$DB" .dump | sha256sum)" "$before" "--label that is not UTF-8: database unchanged"
out=$("$HB" run "$TMP/good.lua" --db "$DB" --label 'Prüfung ✓' -q 2>&1); ok $? "a UTF-8 label runs ($out)"
is "$(q "$DB" "SELECT label FROM runs ORDER BY id DESC LIMIT 1")" 'Prüfung ✓' "and is stored as given"

"$HB" run "$TMP/bad.lua" --db "$TMP/fresh.db" >/dev/null 2>&1
[ ! -e "$TMP/fresh.db" ]; ok $? "a failing plan does not create a database"
[ ! -e "$TMP/t.dat" ]; ok $? "a failing plan does not create a target"
done_testing
