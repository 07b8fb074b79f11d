#!/usr/bin/env bash
# Host-bound steps (docs/measurement.md, "Host CPU"): per second and per step,
# cpu_busy (the busiest worker's share of the time it ran or waited to run)
# and host_busy (the host's CPUs, from /proc/stat under $HBATEST_SYSFS_ROOT);
# host_bound when cpu_busy >= 0.90 or host_busy >= 0.95. The verdicts are made
# certain, not timed: the null engine never sleeps (its worker always runs or
# waits to), the paced fixture sleeps 50 ms per I/O (its worker is off the
# CPU but for its wake-ups, and the run-queue waits after them on a busy host), and the host's /proc/stat is a fixture: one that
# never changes (the host's share unknown: NULL), or one a background loop
# moves on with busy time only (the host 100 % busy).
. "$(dirname "$0")/lib.sh"

PP="$ROOT/build/tests/plugins"
if [ ! -f "$PP/paced.so" ]; then
	skip "$PP/paced.so is not built (make build/tests/plugins/paced.so)"
	done_testing
	exit 0
fi
DB=$TMP/h.db
IDLE=$TMP/idle		# a /proc/stat that never moves: host_busy NULL
mkdir -p "$IDLE/proc" "$TMP/busy/proc"
echo "cpu  100 0 100 5000 10 0 0 0 0 0" > "$IDLE/proc/stat"

cat > "$TMP/p.lua" <<'PLAN'
hb.plan{ name = "cpu", defaults = { rw = "randread", bs = "4k", oio = 1, duration = 2, ramp = 0,
                                    size = "16m" } }
local function said(name, r)
  if not hb.dry then
    hb.log(("result %s: host_bound=%s cpu_busy=%s host_busy=%s"):format(name, tostring(r.host_bound),
      r.cpu_busy and (r.cpu_busy >= 0.9 and "high" or "low") or "nil", tostring(r.host_busy)))
  end
end
said("null", hb.run{ name = "null", engine = "null" })
said("slow", hb.run{ name = "slow", engine = "paced", paced = { lat_us = 50000 } })
said("sim", hb.run{ name = "sim", engine = "sim" })
said("cmd", hb.exec{ name = "cmd", cmd = "true" })
PLAN
HBATEST_SYSFS_ROOT=$IDLE "$HB" run "$TMP/p.lua" --target "$TMP/f.dat" --db "$DB" \
	--plugin-path "$PP" --allow-exec >"$TMP/out" 2>"$TMP/err"
is "$?" 0 "a plan of a null, a paced (50 ms an I/O), a sim and an exec step runs"
step() { q "$DB" "SELECT $2 FROM steps WHERE name = '$1'"; }
# hb.run's results tell the plan too (nil where not measured)
is "$(grep -o 'result [a-z]*: .*' "$TMP/err" | tr '\n' '|')" \
	"result null: host_bound=true cpu_busy=high host_busy=nil|result slow: host_bound=false cpu_busy=low host_busy=nil|result sim: host_bound=nil cpu_busy=nil host_busy=nil|result cmd: host_bound=nil cpu_busy=nil host_busy=nil|" \
	"hb.run returns host_bound and cpu_busy to the plan; nil for the sim and exec steps"

is "$(step null "host_bound || ' ' || (cpu_busy >= 0.9) || ' ' || ifnull(host_busy, 'NULL')")" "1 1 NULL" \
	"the null engine's step is host-bound: its worker on (or waiting for) a CPU >= 90 % of the window; the host's share unknown"
is "$(step slow "host_bound || ' ' || (cpu_busy < 0.9) || ' ' || ifnull(host_busy, 'NULL')")" "0 1 NULL" \
	"a QD1 read of a slow device (paced) is not: its worker sleeps through its I/Os"
is "$(step sim "ifnull(cpu_busy, 'NULL') || ifnull(host_busy, 'NULL') || ifnull(host_bound, 'NULL')")" "NULLNULLNULL" \
	"a sim step (a simulated clock) has no host CPU figures: NULL"
is "$(step cmd "ifnull(cpu_busy, 'NULL') || ifnull(host_busy, 'NULL') || ifnull(host_bound, 'NULL')")" "NULLNULLNULL" \
	"an exec step: NULL"
is "$(q "$DB" "SELECT (count(*) = sum(s.cpu_busy >= 0.5)) || ' ' || count(s.host_busy) FROM samples s JOIN steps t ON t.id = s.step_id WHERE t.name = 'null'")" "1 0" \
	"each second of the null step has its cpu_busy; host_busy NULL"
is "$(q "$DB" "SELECT count(*) FROM samples s JOIN steps t ON t.id = s.step_id WHERE t.name = 'sim' AND (s.cpu_busy IS NOT NULL OR s.host_busy IS NOT NULL)")" 0 \
	"a sim step's seconds: NULL"
is "$(q "$DB" "SELECT host_bound FROM step_summary WHERE name = 'null'")" 1 "step_summary carries host_bound"

# --- the warning: stderr, events, show -------------------------------------------
like "$(cat "$TMP/err")" "warning: step 1 null: host-bound: its busiest worker was on \(or waiting for\) a CPU [0-9]+% of the window; its figures measure the host's CPU, not the device" \
	"the null step warns on stderr, saying what it means"
is "$(grep -c 'host-bound' "$TMP/err")" 1 "and only it"
is "$(q "$DB" "SELECT count(*) FROM events WHERE level = 'warning' AND message LIKE 'step 1 null: host-bound: %'")" 1 \
	"a warning event of the run"
"$HB" show 1 --db "$DB" >"$TMP/show"; ok $? "show"
like "$(grep ' null ' "$TMP/show")" "host-bound: worker CPU [0-9]+%$" "show marks the null step host-bound"
like "$(grep ' slow ' "$TMP/show")" "done" "show lists the paced step"
! grep ' slow ' "$TMP/show" | grep -q 'host-bound'; ok $? "and does not mark it"

# --- the live line (a terminal's) ends in HOST-BOUND once a host-bound second is in
if command -v script >/dev/null; then
	printf 'hb.run{ name = "spin", engine = "null", targets = "v", duration = 3 }\n' > "$TMP/spin.lua"
	HBATEST_SYSFS_ROOT=$IDLE script -qec "'$HB' run '$TMP/spin.lua' --db '$TMP/s.db'" /dev/null >"$TMP/tty" 2>&1
	tr '\r' '\n' <"$TMP/tty" | sed 's/\x1b\[K//g' >"$TMP/lines"
	like "$(grep -a '^step 1/1 spin |' "$TMP/lines")" 'p99 [^|]* \| plan ETA [^|]* \| HOST-BOUND$' \
		"the live line of the null step says HOST-BOUND"
else
	skip "script (util-linux) is not installed: no terminal for the live line"
fi

# --- the report: the mark, the note, the chart ------------------------------------
"$HB" report 1 --db "$DB" --out "$TMP/rep" >/dev/null 2>"$TMP/rerr"; ok $? "report"
H=$TMP/rep/index.html
is "$(grep -o '&#9888; host-bound</span>' "$H" | wc -l)" 2 \
	"the summary marks the null step's two figures (IOPS, p99), not the paced step's"
like "$(cat "$H")" "title=\"host-bound: busiest worker on CPU [0-9]+ %, host CPUs \? busy\"" "the mark's tooltip gives the shares"
like "$(cat "$H")" "host-bound: the step’s busiest worker was on a CPU, or waiting for one, at least 90 % of its window.*Its figures measure the host’s CPU, not the device" \
	"a note under the summary says what the mark means"
svg=$(ls "$TMP/rep/charts/"*-hostcpu-run1.svg 2>/dev/null)
[ -n "$svg" ]; ok $? "a host CPU chart for the run: $(basename "$svg")"
like "$(grep -o '<title>[^<]*' "$svg" | head -1)" "host CPU per second" "its SVG is titled"
like "$(cat "$H")" 'alt="[^"]*: host CPU per second, the host(&#39;|.)s CPUs busy and the busiest worker on \(or waiting for\) a CPU, in % of each second; shaded and numbered: the steps; ⚠: 1 step host-bound' \
	"its alt text says what it shows and how many steps were host-bound"
like "$(cat "${svg%.svg}.gp")" "step 1 ⚠" "the host-bound step's band is marked"
# the key under the plot (its lines fill it: the host's CPUs near 100 %, the
# worker's low), the note a line over the steps' labels, not on their row
gp=${svg%.svg}.gp
like "$(grep '^set key' "$gp")" "^set key at screen 0.5, screen 0.01 center bottom" "the key is under the plot"
! grep -q '^[^#]*set key .*inside' "$gp"; ok $? "never inside it, over a step's worker line"
note=$(sed -n 's/.*set label 990 note at graph 1, graph 1 right offset 0, \([0-9.]*\) .*/\1/p' "$gp" | tail -1)
steps=$(sed -n 's/.*set label k step_label\[k\] at .*, graph 1 center offset 0, \([0-9.]*\) .*/\1/p' "$gp")
awk -v n="$note" -v s="$steps" 'BEGIN { exit !(n != "" && s != "" && n - s >= 1) }'
ok $? "the note (offset $note) a line over the steps' labels (offset $steps), not over 'step 3 ⚠'"

# --- merge: a schema-8 database's steps come in with NULL, a current one's keep theirs
cp "$DB" "$TMP/v8.db"
q "$TMP/v8.db" "UPDATE runs SET uuid = 'old-' || uuid; DROP VIEW oio_sweep; DROP VIEW write_mix_sweep;
	DROP VIEW step_summary; ALTER TABLE steps DROP COLUMN cpu_busy;
	ALTER TABLE steps DROP COLUMN host_busy; ALTER TABLE steps DROP COLUMN host_bound;
	ALTER TABLE samples DROP COLUMN cpu_busy; ALTER TABLE samples DROP COLUMN host_busy;
	PRAGMA user_version = 8"
"$HB" merge "$TMP/all.db" "$DB" "$TMP/v8.db" >/dev/null 2>"$TMP/merr"; ok $? "merge a current and a schema-8 database"
is "$(q "$TMP/all.db" "SELECT group_concat(ifnull(s.host_bound, 'NULL'), ' ') FROM steps s JOIN runs r ON r.id = s.run_id WHERE s.name = 'null' ORDER BY r.uuid LIKE 'old-%'")" "1 NULL" \
	"the current run's null step keeps host_bound 1; the schema-8 one's is NULL"
is "$(q "$TMP/all.db" "SELECT count(s.cpu_busy) > 0 FROM samples s JOIN steps t ON t.id = s.step_id JOIN runs r ON r.id = t.run_id WHERE r.uuid LIKE 'old-%'")" 0 \
	"and its seconds' cpu_busy NULL"

# --- host-bound from the host alone: its /proc/stat busy, the worker asleep -----
BUSY=$TMP/busy
(n=1000; while :; do n=$((n + 100)); echo "cpu  $n 0 0 5000 10 0 0 0 0 0" > "$BUSY/proc/s.tmp"
	mv "$BUSY/proc/s.tmp" "$BUSY/proc/stat"; sleep 0.05; done) &
mover=$!
cat > "$TMP/slow.lua" <<'PLAN'
local r = hb.run{ name = "slow", engine = "paced", paced = { lat_us = 50000 }, rw = "randread",
                  bs = "4k", oio = 1, duration = 2, ramp = 0, size = "16m" }
if not hb.dry then hb.log("result slow: host_busy=" .. tostring(r.host_busy)) end
PLAN
for _ in $(seq 100); do [ -s "$BUSY/proc/stat" ] && break; sleep 0.05; done
HBATEST_SYSFS_ROOT=$BUSY "$HB" run "$TMP/slow.lua" --target "$TMP/f.dat" --db "$TMP/b.db" \
	--plugin-path "$PP" >/dev/null 2>"$TMP/err2"
is "$?" 0 "the paced step again, the host's /proc/stat busy only"
kill "$mover"; wait "$mover" 2>/dev/null
is "$(q "$TMP/b.db" "SELECT host_bound || ' ' || host_busy || ' ' || (cpu_busy < 0.9) FROM steps")" "1 1.0 1" \
	"host_busy 1.0 from /proc/stat alone makes it host-bound, its worker asleep"
is "$(q "$TMP/b.db" "SELECT count(*) = count(host_busy) AND min(host_busy) = 1.0 FROM samples")" 1 \
	"every second has host_busy 1.0"
like "$(cat "$TMP/err2")" "host-bound: its busiest worker was on \(or waiting for\) a CPU [0-9]+% of the window, the host's CPUs were 100% busy" \
	"the warning gives both shares"
is "$(grep -o 'result slow: .*' "$TMP/err2")" "result slow: host_busy=1.0" \
	"hb.run returns the host's share as host_busy (not the worker's)"
"$HB" show 1 --db "$TMP/b.db" >"$TMP/show2"; ok $? "show"
like "$(grep ' slow ' "$TMP/show2")" "host-bound: worker CPU [0-9]+%, host CPUs 100% busy$" \
	"show gives both shares, the host's as its CPUs' busy"
"$HB" report 1 --db "$TMP/b.db" --out "$TMP/rep2" >/dev/null 2>&1; ok $? "report of it"
like "$(cat "$TMP/rep2/index.html")" 'title="host-bound: busiest worker on CPU [0-9]+ %, host CPUs 100 % busy"' \
	"the mark's tooltip gives the host's share, in percent"
is "$(awk '/^# series/ { s++ } s == 1 && /^[0-9]/ { print $2 }' "$TMP"/rep2/charts/*-hostcpu-run1.tsv | sort -u)" 100 \
	"the chart's first line, the host's CPUs busy, is the host's share: 100 % each second"

# --- /proc/stat's fields: iowait is idle, and a kernel's shorter "cpu" line is read
# (user nice system idle iowait: five fields, as before Linux 2.6.11); the host
# half busy (user +100 and iowait +100 a tick), so neither share makes it host-bound
HALF=$TMP/half
mkdir -p "$HALF/proc"
(n=1000; while :; do n=$((n + 100)); echo "cpu  $n 0 0 5000 $n" > "$HALF/proc/s.tmp"
	mv "$HALF/proc/s.tmp" "$HALF/proc/stat"; sleep 0.05; done) &
mover=$!
for _ in $(seq 100); do [ -s "$HALF/proc/stat" ] && break; sleep 0.05; done
HBATEST_SYSFS_ROOT=$HALF "$HB" run "$TMP/slow.lua" --target "$TMP/f.dat" --db "$TMP/half.db" \
	--plugin-path "$PP" >/dev/null 2>"$TMP/err3"
is "$?" 0 "the paced step again, the host's /proc/stat a five-field line, half busy, half iowait"
kill "$mover"; wait "$mover" 2>/dev/null
is "$(q "$TMP/half.db" "SELECT round(host_busy, 3) || ' ' || host_bound FROM steps")" "0.5 0" \
	"host_busy 0.5: iowait counts as idle; the step is not host-bound"

done_testing
