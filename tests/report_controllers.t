#!/usr/bin/env bash
# hbatest report's chart of steps whose targets sit on several controllers
# (reports/controllers.lua, reference 004): NN-controllers-GROUP files only
# for groups with such a step (a step on one card gets none); per run a
# stacked bar, a stack per controller whose value is the sum of its targets'
# step_targets rates (MB/s for 1m blocks, IOPS for 4k); a dashed line at the
# sum of those controllers' PCIe link ceilings (MB/s charts only); stacks
# labelled by model and PCI address, the direction note, titled SVG and alt
# text; a table of each controller's targets, rate and share of its link;
# controllers a card probe names (cN.model per target, no PCI address: a
# simulated card's shape) are stacked and their links summed too.
# The runs are real (null engine) on a fixture sysfs of two cards: the
# MegaRAID of megaraid-pcie3-x8 (/dev/sda at 02:00.0, PCIe3 x8) and the
# SAS3008 of mpt3sas-pcie3-x4 (/dev/sdb.. at 03:00.0, PCIe3 trained x4).
. "$(dirname "$0")/lib.sh"

command -v gnuplot >/dev/null || { skip "gnuplot is not installed (apt-get install gnuplot-nox)"; done_testing; exit 0; }

SYS="$TMP/sys"
cp -a "$ROOT/tests/fixtures/sysfs/megaraid-pcie3-x8" "$SYS"
cp -a "$ROOT/tests/fixtures/sysfs/mpt3sas-pcie3-x4/sys/." "$SYS/sys/"
DB="$TMP/r.db"
cat > "$TMP/p.lua" <<'LUA'
hb.plan{ name = "two cards", defaults = { engine = "null", duration = 1, ramp = 0, telemetry = 0 } }
hb.targets = { "/dev/sda", "/dev/sdb", "/dev/sdc" }
hb.run{ name = "seq read 1m", rw = "read", bs = "1m", oio = 6 }
hb.sweep{ base = { rw = "randread", bs = "4k", targets = { "/dev/sda", "/dev/sdb" } },
          group = "4k randread", oio = { 2, 4 } }
hb.run{ name = "one card", rw = "read", bs = "1m", oio = 2, targets = { "/dev/sdb", "/dev/sdc" } }
LUA
for l in a b c; do
	HBATEST_SYSFS_ROOT="$SYS" "$HB" run "$TMP/p.lua" --db "$DB" -q --label "$l" 2>>"$TMP/stderr"
	ok $? "run $l on two cards (null engine, fixture sysfs)"
done
# rates a card could give, unlike the null engine's: each target its own,
# run b's 0.8 of run a's; MB/s on 1m steps (the ops: bytes / 1 MiB), IOPS on
# 4k ones (the bytes: ops x 4 KiB); every window 1 s, so the rates are exact
rate="(SELECT CASE run_id WHEN 1 THEN 1.0 ELSE 0.8 END FROM steps WHERE id = step_id)"
q "$DB" "UPDATE steps SET window_s = 1;
UPDATE step_targets SET read_bytes = CAST($rate * 1e6
    * CASE path WHEN '/dev/sda' THEN 2800 WHEN '/dev/sdb' THEN 1250 ELSE 1050 END AS INTEGER)
  WHERE step_id IN (SELECT id FROM steps WHERE bs = '1m');
UPDATE step_targets SET read_ops = read_bytes / 1048576 WHERE step_id IN (SELECT id FROM steps WHERE bs = '1m');
UPDATE step_targets SET read_ops = CAST($rate * CASE path WHEN '/dev/sda' THEN 380000 ELSE 150000 END AS INTEGER)
  WHERE step_id IN (SELECT id FROM steps WHERE bs = '4k');
UPDATE step_targets SET read_bytes = read_ops * 4096 WHERE step_id IN (SELECT id FROM steps WHERE bs = '4k')"

OUT="$TMP/rep"
"$HB" report a b --db "$DB" --out "$OUT" 2>"$TMP/rerr" >/dev/null
ok $? "hbatest report a b exits 0"
chart() { ls "$OUT/charts/" | grep -E "^[0-9]{2}-controllers-$1\.$2\$" | sed "s|^|$OUT/charts/|"; }
is "$(ls "$OUT/charts/" | grep -E '^[0-9]{2}-controllers-.*\.svg$' | sed 's/^[0-9]*-//')" \
	"controllers-seq-read-1m.svg
controllers-4k-randread.svg" "a chart per group with a step on two controllers; none for the step on one card"
SEQ=$(chart seq-read-1m tsv); RND=$(chart 4k-randread tsv)

# --- the stacks: step_targets summed per controller -----------------------------
# a TSV's stacks, "series title|value" (to 0.001), each series' bars in order
stacks() { awk -F'\t' '/^# series/ { sub(/^# series [0-9]+: /, ""); t = $0; next }
	!/^#/ && NF > 5 && $2 != "NaN" { printf "%s|%.3f\n", t, $2 }' "$1"; }
# the same from the database: each run's (bar's) controllers, as the pcie probe
# placed their targets, and the sum of those targets' rates
want() {	# want GROUP-OR-NAME FIELD
	q "$DB" "SELECT CASE a.value WHEN '0000:02:00.0' THEN 'MegaRAID SAS 9361-8i 02:00.0'
	         ELSE 'SAS9300-8i 03:00.0' END, s.axis_value, r.label, printf('%.3f', sum(t.$2))
	  FROM step_target_rate t JOIN steps s ON s.id = t.step_id JOIN runs r ON r.id = s.run_id
	  JOIN run_testbed a ON a.run_id = s.run_id AND a.target = t.path AND a.probe = 'pcie' AND a.key = 'address'
	  WHERE coalesce(s.group_name, s.name) = '$1' AND r.label IN ('a', 'b')
	  GROUP BY 1, 2, 3 ORDER BY 1, CAST(s.axis_value AS INTEGER), r.label" | cut -d'|' -f1,4
}
is "$(stacks "$SEQ")" "$(want 'seq read 1m' mbps)" \
	"seq read 1m: each run's stack per controller is its targets' MB/s summed (sdb and sdc on one card)"
is "$(stacks "$SEQ")" "MegaRAID SAS 9361-8i 02:00.0|2800.000
MegaRAID SAS 9361-8i 02:00.0|2240.000
SAS9300-8i 03:00.0|2300.000
SAS9300-8i 03:00.0|1840.000" "seq read 1m: the stacks' values, as set"
is "$(stacks "$RND")" "MegaRAID SAS 9361-8i 02:00.0|380000.000
MegaRAID SAS 9361-8i 02:00.0|304000.000
MegaRAID SAS 9361-8i 02:00.0|380000.000
MegaRAID SAS 9361-8i 02:00.0|304000.000
SAS9300-8i 03:00.0|150000.000
SAS9300-8i 03:00.0|120000.000
SAS9300-8i 03:00.0|150000.000
SAS9300-8i 03:00.0|120000.000" "4k randread: IOPS stacks, a bar per run and OIO point"
is "$(awk -F'\t' '!/^#/ && NF > 5 && $11 != "" { print $11 "|" $12 }' "$RND")" "OIO 2|0.5
OIO 4|3.1" "4k randread: each point's name centred under its two bars (bars at 0, 1 and 2.6, 3.6)"

# --- the ceiling: the sum of the two links' ------------------------------------
ceil=$(q "$DB" "SELECT printf('%.3f', sum(c) / 1e6) FROM (SELECT DISTINCT a.value, p.ceiling_bytes_per_s AS c
	FROM run_pcie p JOIN run_testbed a ON a.run_id = p.run_id AND a.target = p.target
	AND a.probe = 'pcie' AND a.key = 'address' WHERE p.run_id = 1 AND p.target IN ('/dev/sda', '/dev/sdb', '/dev/sdc'))")
is "$ceil" "11815.385" "the links: PCIe3 x8 (7,877 MB/s) and PCIe3 x4 (3,938 MB/s)"
is "$(awk -F'\t' '/^# series 1/ { on = 1; next } /^# series/ { on = 0 } on && !/^#/ && NF > 5 { printf "%.3f|%s\n", $9, $10 }' "$SEQ")" \
	"$ceil|sum of links 11,815 MB/s
$ceil|sum of links 11,815 MB/s" "each bar's dashed line at the sum of its controllers' link ceilings, labelled"
is "$(grep -c '^has_ceiling = 1$' "${SEQ%.tsv}.gp")|$(grep -c '^has_ceiling = 0$' "${RND%.tsv}.gp")" "1|1" \
	"the ceiling is drawn (and keyed) on the MB/s chart, not on the IOPS one"
is "$(awk -F'\t' '!/^#/ && NF > 5 && $9 != "NaN" { n++ } END { print n + 0 }' "$RND")" 0 "no ceiling values in the IOPS chart"

# --- labels, formats, titles, alt text ------------------------------------------------
GP="${SEQ%.tsv}.gp"; SVG="${SEQ%.tsv}.svg"
grep -q "^array titles\[2\] = \['MegaRAID SAS 9361-8i 02:00.0', 'SAS9300-8i 03:00.0'\]" "$GP"
ok $? "the stacks are keyed by model and PCI address"
grep -q "^note = 'higher is better'" "$GP"; ok $? "the direction note: higher is better"
grep -q "^chart_title = 'seq read 1m: MB/s per controller, summed, against the sum of their PCIe link ceilings'" "$GP"
ok $? "the MB/s chart's title names the ceiling"
grep -q "^chart_title = '4k randread: IOPS per controller, summed'" "${RND%.tsv}.gp"; ok $? "the IOPS chart's title"
# the y axis's labels: some with k, none of five bare digits
ytl() { grep "^array ytl" "$1" | grep "'[0-9.]*k'" | grep -vc "'[0-9]\{5,\}'"; }
is "$(ytl "$GP")|$(ytl "${RND%.tsv}.gp")" "1|1" "both y axes labelled with k (5k, 200k), no bare five-digit tick"
is "$(awk -F'\t' '/^# series 1/ { on = 1; next } /^# series/ { on = 0 } on && !/^#/ && NF > 5 { print $6 "|" $8 }' "$SEQ")" \
	"a|5,100
b|4,080" "under each bar its run, over it its total in MB/s with a thousands separator"
# the y axis: a little room over the larger of the bars and the ceiling (its
# label's), on round ticks; not half as much again (11,815 MB/s gave 20k)
is "$(grep -h '^ymax = ' "$GP" "${RND%.tsv}.gp" | tr '\n' '|')" "ymax = 15000|ymax = 800000|" \
	"the y axes end a tick over the ceiling (11,815 MB/s: 15k) and over the IOPS (530k: 800k)"
# no name under the bars repeats the title's group ("seq read 1m" is both)
is "$(grep -c '^clusters = 0$' "$GP")|$(awk -F'\t' '!/^#/ && NF > 5 && $11 != "" { n++ } END { print n + 0 }' "$SEQ")" "1|0" \
	"seq read 1m: the group's name is in the title only, not again under its bars"
is "$(awk -F'\t' '!/^#/ && NF > 5 && $6 != "" { print $6 }' "$SEQ" "$RND" | grep -c 'seq read 1m\|4k randread')" 0 \
	"no bar's name repeats its group (the runs' names, a, b)"
is "$(awk -F'\t' '/^# series 1/ { on = 1; next } /^# series/ { on = 0 } on && !/^#/ && NF > 5 { print $5 "|" $8 }' "$RND" | head -2)" \
	"380k|530k
304k|424k" "IOPS stacks and totals printed with k"
title=$(grep -o '<title>[^<]*</title>' "$SVG" | head -1)
case "$title" in
"<title>seq read 1m: MB/s per controller, summed, against the sum of their PCIe link ceilings. seq read 1m: MB/s per controller (a stack each, its targets summed, labelled with its model and PCI address), one bar per run, its total above it; dashed: the sum of the bar"*) ok 0 "the SVG's title: the chart's title and what it shows" ;;
*) ok 1 "the SVG's title: the chart's title and what it shows"; echo "# $title" ;;
esac
grep -q 'alt="seq read 1m: MB/s per controller, summed, against the sum of their PCIe link ceilings. seq read 1m: MB/s per controller (a stack each' "$OUT/index.html"
ok $? "the page's alt text: the title and the caption"
grep -q '<a href="#chart-controllers-seq-read-1m">MB/s per controller</a>' "$OUT/index.html"
ok $? "the contents name the chart 'MB/s per controller'"
grep -q 'IOPS per controller (a stack each[^"]*; a link&#39;s ceiling is in bytes/s: it is drawn on MB/s charts' "$OUT/index.html"
ok $? "the IOPS chart's caption says why it has no ceiling"

# --- the table -----------------------------------------------------------------------
rows=$(sed 's/<tr>/\n<tr>/g' "$OUT/index.html" | grep '^<tr><td>seq read 1m</td><td>a</td>' | sed 's/<[^>]*>/|/g; s/||*/|/g')
is "$rows" "|seq read 1m|a|MegaRAID SAS 9361-8i 02:00.0|/dev/sda|2,800|2,670|PCIe3 x8 ceiling 7,877 MB/s|36 %|
|seq read 1m|a|SAS9300-8i 03:00.0|/dev/sdb, /dev/sdc|2,300|2,193|PCIe3 x4 ceiling 3,938 MB/s|58 %|
|seq read 1m|a|sum of 2 controllers|3 targets|5,100|4,863|11,815 MB/s|43 %|" \
	"the table: per controller its targets, MB/s, IOPS, link ceiling and share of it; then the sum"

# --- controllers a card probe names, no PCI address (as a simulated card's may) -----
# run c: its targets' pcie address facts taken out; a card probe's cN.model
# recorded for each target (sdb and sdc behind one) places them instead
q "$DB" "DELETE FROM probes WHERE run_id = 3 AND probe = 'pcie' AND key = 'address';
INSERT INTO probes VALUES (3, 'start', '/dev/sda', 'sim', 'c0.model', 'Sim A'),
  (3, 'start', '/dev/sdb', 'sim', 'c1.model', 'Sim B'), (3, 'start', '/dev/sdc', 'sim', 'c1.model', 'Sim B'),
  (3, 'start', '/dev/sdc', 'sim', 'c1.v0.model', 'not the card')"
"$HB" report c --db "$DB" --out "$TMP/c" 2>>"$TMP/rerr" >/dev/null
ok $? "hbatest report c exits 0"
C=$(ls "$TMP/c/charts/"*-controllers-seq-read-1m.tsv)
is "$(stacks "$C")" "Sim A sim c0|2240.000
Sim B sim c1|1840.000" "a card probe's controllers: named by its cN.model and cN, their targets summed"
is "$(awk -F'\t' '/^# series 1/ { on = 1; next } /^# series/ { on = 0 } on && !/^#/ && NF > 5 { printf "%.3f\n", $9 }' "$C")" \
	"$ceil" "their ceiling: the sum of their targets' links (run_pcie)"

# --- two runs of other cards: the key names each stack by its position -----------------
# runs a and c: at each stack a card of a's (a PCI address) and one of c's
# (a card probe's cN), two different labels and no address they share
"$HB" report a c --db "$DB" --out "$TMP/ac" 2>>"$TMP/rerr" >/dev/null
ok $? "hbatest report a c exits 0"
AC=$(ls "$TMP/ac/charts/"*-controllers-seq-read-1m.tsv)
is "$(grep '^# series' "$AC" | tr '\n' '|')" "# series 1: controller 1|# series 2: controller 2|" \
	"two other cards at each stack: the key says 'controller 1' and 'controller 2', not the first bar's card"

# --- --units MiB: the same stacks, totals and ceiling in MiB/s ---------------------------
# (the stacks read a field "mibps" the step's rows do not hold: the report
# stopped with "attempt to perform arithmetic on a nil value")
"$HB" report a b --db "$DB" --out "$TMP/mib" --units MiB 2>"$TMP/mib.err" >/dev/null
ok $? "hbatest report a b --units MiB exits 0: $(head -c 300 "$TMP/mib.err")"
MIB=$(ls "$TMP/mib/charts/"*-controllers-seq-read-1m.tsv 2>/dev/null)
is "$(stacks "$MIB")" "MegaRAID SAS 9361-8i 02:00.0|2670.288
MegaRAID SAS 9361-8i 02:00.0|2136.230
SAS9300-8i 03:00.0|2193.451
SAS9300-8i 03:00.0|1754.761" "--units MiB: each stack its targets' MB/s in MiB/s (2,800 MB/s: 2,670.288 MiB/s)"
is "$(awk -F'\t' '/^# series 1/ { on = 1; next } /^# series/ { on = 0 } on && !/^#/ && NF > 5 { printf "%.3f|%s|%s\n", $9, $10, $8 }' "$MIB" | head -1)" \
	"11268.029|sum of links 11,268 MiB/s|4,864" "--units MiB: the links' sum (11,815 MB/s) drawn and labelled in MiB/s, the bar's total too"
grep -q "^ylabel = 'MiB/s (1 MiB = 1,048,576 bytes)'" "${MIB%.tsv}.gp"; ok $? "--units MiB: the y axis says MiB/s and what a MiB is"
like "$(grep '^array ytl' "${MIB%.tsv}.gp")" "^array ytl\[[0-9]+\] = \['0'(, '[0-9]{1,3}(,[0-9]{3})*')+\]$" \
	"--units MiB: ticked in plain MiB/s figures, 5,000 (no k of a binary unit)"
is "$(stacks "$(ls "$TMP/mib/charts/"*-controllers-4k-randread.tsv)" | head -1)" "MegaRAID SAS 9361-8i 02:00.0|380000.000" \
	"--units MiB: the 4k chart stays in IOPS"

# --- a report of the one-card step alone: no such chart ------------------------------
"$HB" report a b --db "$DB" --out "$TMP/one" --only 'one card' 2>>"$TMP/rerr" >/dev/null
ok $? "hbatest report --only 'one card' exits 0"
is "$(ls "$TMP/one/charts/" | grep -c controllers)" 0 "a step whose targets sit on one controller: no controllers chart"
grep -q 'Several controllers' "$TMP/one/index.html"; is $? 1 "nor the section"
done_testing
