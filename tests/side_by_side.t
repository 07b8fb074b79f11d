#!/usr/bin/env bash
# The saved query side-by-side: runs as columns (run1.. in the order given),
# a row per point of a step group, the metric's values as step_summary has
# them; an empty cell where a run has no such point; a metric it does not
# take, or more than 8 runs, stops it naming them.
. "$(dirname "$0")/lib.sh"

DB="$TMP/s.db"
PLAN="$ROOT/tests/fixtures/export/plan.lua"
sbs() { "$HB" sql --db "$DB" side-by-side --format csv "$@"; }
ss() { "$HB" sql --db "$DB" --format csv "$1" | tail -n +2 | paste -sd,; }

"$HB" run "$PLAN" --db "$DB" --label fast -q 2>>"$TMP/stderr"; ok $? "run fast (PCIe 3 x8)"
"$HB" run "$PLAN" --db "$DB" --label slow --set link=pcie1x1 -q 2>>"$TMP/stderr"; ok $? "run slow (PCIe 1 x1)"
"$HB" run "$PLAN" --db "$DB" --label third --set link=pcie2x1 -q 2>>"$TMP/stderr"; ok $? "run third"
q "$DB" "DELETE FROM steps WHERE run_id = 3 AND seq = 2"	# third has no OIO 8

sbs --param group="4k randread" --param runs=fast,slow,third --param metric=iops >"$TMP/iops.csv"
ok $? "side-by-side of three runs, IOPS"
is "$(head -1 "$TMP/iops.csv")" "point,axis,metric,run1,run2,run3,run4,run5,run6,run7,run8" "a column per run slot"
is "$(tail -n +2 "$TMP/iops.csv" | cut -d, -f1-3 | paste -sd' ')" '2,"oio","iops" 8,"oio","iops"' "a row per OIO, in plan order"
for p in 2 8; do
	is "$(grep "^$p," "$TMP/iops.csv" | cut -d, -f4-6)" \
	   "$(ss "SELECT (SELECT iops FROM step_summary WHERE run_id = r.id AND group_name = '4k randread' AND oio = $p) FROM runs r ORDER BY r.id")" \
	   "OIO $p: each run's IOPS as step_summary has them"
done
is "$(grep '^8,' "$TMP/iops.csv" | cut -d, -f6-)" ",,,,," "a run without the point, and the slots past the runs, are empty"
[ "$(grep '^2,' "$TMP/iops.csv" | cut -d, -f4)" != "$(grep '^2,' "$TMP/iops.csv" | cut -d, -f5)" ]
ok $? "the two links give two numbers (the columns are not one run twice)"

sbs --param group="4k randread" --param runs=slow,fast --param metric=p99 >"$TMP/p99.csv"
is "$(grep '^2,' "$TMP/p99.csv" | cut -d, -f3-5)" \
   "\"lat_p99_us\",$(ss "SELECT lat_p99_us FROM step_summary WHERE group_name = '4k randread' AND oio = 2 AND run_id IN (2, 1) ORDER BY run_id DESC")" \
   "p99: lat_p99_us, the runs in the order given"
sbs --param group="4k mix" --param runs=1,2 --param metric=mbps >"$TMP/mix.csv"
is "$(tail -n +2 "$TMP/mix.csv" | cut -d, -f1,2 | paste -sd' ')" '0,"write_pct" 50,"write_pct"' "a write-mix sweep by write %"
sbs --param group="steady" --param runs=1,2 --param metric=mean >"$TMP/steady.csv"
is "$(tail -n +2 "$TMP/steady.csv" | cut -d, -f1 | paste -sd' ')" "1 2 3 4 5" "a group without an axis: the n-th step"
is "$(sed -n 4p "$TMP/steady.csv" | cut -d, -f4)" \
   "$(ss "SELECT lat_mean_us FROM step_summary WHERE run_id = 1 AND group_name = 'steady' ORDER BY seq LIMIT 1 OFFSET 2")" "its third step's mean latency"

# two steps of a group at one point (a read and a write at OIO 4): the
# run's first, in plan order, gives the value
cat > "$TMP/twice.lua" <<'LUA'
hb.plan{ name = "twice", defaults = { engine = "sim", duration = 1, ramp = 0,
                                      sim = { preset = "lsi3108-8sas", layout = "raid5" } } }
hb.targets = { "volume" }
hb.sweep{ base = { name = "read", rw = "randread", bs = "4k" }, group = "twice", oio = { 4 } }
hb.sweep{ base = { name = "write", rw = "randwrite", bs = "4k" }, group = "twice", oio = { 4 } }
LUA
"$HB" run "$TMP/twice.lua" --db "$DB" --label twice -q 2>>"$TMP/stderr"; ok $? "run twice"
sbs --param group=twice --param runs=twice --param metric=iops >"$TMP/twice.csv"
is "$(tail -n +2 "$TMP/twice.csv" | cut -d, -f1,4)" \
   "4,$(ss "SELECT iops FROM step_summary WHERE label = 'twice' AND rw = 'randread'")" \
   "two steps at one point: one row, the first step's (the read's) IOPS"
[ "$(ss "SELECT count(DISTINCT iops) FROM step_summary WHERE label = 'twice'")" = 2 ]
ok $? "(the read and the write give two numbers)"

sbs --param group="4k randread" --param runs=1,2 --param metric=nope 2>"$TMP/err" >/dev/null
is $? 1 "an unknown metric: exit 1"
like "$(cat "$TMP/err")" "metric nope is not one of iops, read_iops, write_iops, mbps, mibps, mean, p50, p99, p999, max" "naming the metrics"
sbs --param group="4k randread" --param runs=1,2,3,1,2,3,1,2,3 --param metric=iops 2>"$TMP/err" >/dev/null
is $? 1 "nine runs: exit 1"
like "$(cat "$TMP/err")" "runs: 9 runs given, side-by-side takes up to 8" "saying so"
"$HB" sql --list --db "$DB" | grep -q '^ *side-by-side '; ok $? "listed by sql --list"

done_testing
