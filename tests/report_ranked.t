#!/usr/bin/env bash
# hbatest report's ranked bars and IOPS-latency curves (reports/ranked.lua,
# reports/curves.lua): NN-ranked-GROUP-AXIS-POINT and NN-iops-latency-GROUP files;
# the runs at one point, best on top, each bar's label its value and its
# delta against the baseline, as `hbatest sql` gives the steps; --at oio=32
# picks that point, else the highest point every run has; an --at no run
# can answer (an axis no step is swept over, a point none has) exits 2
# naming it; the curves hold each run's points by OIO; a preconditioning
# step is one chart of every run, its seconds and their rolling average.
. "$(dirname "$0")/lib.sh"

command -v gnuplot >/dev/null || { skip "gnuplot is not installed (apt-get install gnuplot-nox)"; done_testing; exit 0; }

DB="$TMP/r.db"
cat > "$TMP/plan.lua" <<'LUA'
local preset, top = hb.set("preset", "lsi3108-8sas"), hb.set("top", 64)
hb.plan{ defaults = { engine = "sim", workers = 1, targets = { "v" }, duration = 1, ramp = 0,
                      sim = { preset = preset, drive_capacity = "8g" } } }
hb.precondition{ name = "fill", duration = 8, rw = "randwrite", bs = "4k", oio = 32 }
for _, oio in ipairs{ 2, 32, 64 } do
  if oio <= top then hb.run{ rw = "randread", bs = "4k", oio = oio, axis = "oio", group = "4k randread" } end
end
for _, w in ipairs{ 0, 50 } do
  hb.run{ rw = "randrw", bs = "4k", oio = 16, write_pct = w, axis = "write_pct", group = "4k mix" }
end
LUA
for r in "a lsi3108-8sas 64" "b asr8885-8sas 64" "c sas2308-8ssd 32"; do
	set -- $r
	"$HB" run "$TMP/plan.lua" --db "$DB" --label "$1" --set preset="$2" --set top="$3" -q 2>>"$TMP/stderr"
	ok $? "run $1 ($2, OIO up to $3)"
done

# the IOPS of run LABEL at OIO N of the sweep
iops() { "$HB" sql --db "$DB" --format tsv "SELECT s.iops FROM steps s JOIN runs r ON r.id = s.run_id
	WHERE r.label = '$1' AND s.group_name = '4k randread' AND s.axis_value = '$2'" | tail -n +2; }
# file NAME-PATTERN in report DIR's charts (its path, or nothing)
chart() { ls "$1/charts/" | grep -E "^[0-9]{2}-$2\.$3\$" | sed "s|^|$1/charts/|"; }
# the bars of a ranked chart's data, top first: "run<TAB>value<TAB>label"
bars() { awk -F'\t' '!/^#/ && NF == 4 { print $1 "\t" $4 "\t" $2 "\t" $3 }' "$1" | sort -rn | cut -f2-; }
# what the labels should be: runs by value, each "value IOPS  delta" against BASE
expect() {
	local base=$1 at=$2; shift 2
	for r in "$@"; do printf '%s\t%s\n' "$r" "$(iops "$r" "$at")"; done | sort -t$'\t' -k2,2gr |
	awk -F'\t' -v base="$base" -v bv="$(iops "$base" "$at")" '{
		v = sprintf("%.0f", $2); s = ""; n = length(v)
		for (i = 1; i <= n; i++) { s = s substr(v, i, 1); if ((n - i) % 3 == 0 && i < n) s = s "," }
		d = $1 == base ? "(baseline)" : sprintf("%+.1f %%", ($2 - bv) / bv * 100)
		if (d ~ /^[-+]0\.0 %$/) d = "±0.0 %"
		sub(/^-/, "−", d); print $1 " [simulated]\t" $2 "\t" s " IOPS  " d }'
}
# the bars as expect() gives them: values compared to 1e-6, labels exactly
same_bars() {
	awk -F'\t' 'NR == FNR { want[FNR] = $0; n = FNR; next }
		{ split(want[FNR], w, "\t"); if ($1 != w[1] || ($2 - w[2]) ^ 2 > 1e-12 * w[2] ^ 2 || $3 != w[3]) bad = 1; m = FNR }
		END { exit bad || m != n }' <(expect "$@") -
}

"$HB" report c b a --db "$DB" --out "$TMP/rep" --at oio=32 >/dev/null 2>"$TMP/err"; ok $? "report c b a --at oio=32"
tsv=$(chart "$TMP/rep" 'ranked-4k-randread-oio-32' tsv)
for ext in gp tsv svg; do
	[ -n "$(chart "$TMP/rep" 'ranked-4k-randread-oio-32' $ext)" ]; ok $? "NN-ranked-4k-randread-oio-32.$ext is written"
	[ -n "$(chart "$TMP/rep" 'iops-latency-4k-randread' $ext)" ]; ok $? "NN-iops-latency-4k-randread.$ext is written"
done
[ -n "$(chart "$TMP/rep" 'ranked-4k-mix-write-pct-50' tsv)" ]; ok $? "and the write-mix sweep's ranked bars"
bars "$tsv" | same_bars c 32 a b c
ok $? "at OIO 32 (--at): the three runs, best on top, labelled with their IOPS and delta against c" ||
	{ bars "$tsv" | sed 's/^/#   /'; expect c 32 a b c | sed 's/^/#   want /'; }
grep -q "chart_title = '4k randread: IOPS at OIO 32'" "${tsv%.tsv}.gp"; ok $? "the title names the point"
grep -q "note = 'higher is better'" "${tsv%.tsv}.gp"; ok $? "the chart says which way is better"
grep -Eq "^array xtl\[[0-9]+\] = \[.*'[0-9.]+k'" "${tsv%.tsv}.gp"; ok $? "its x tics read in k"
! grep -Eq "^array xtl.*'[0-9]{5,}'" "${tsv%.tsv}.gp"; ok $? "and none is a bare five-digit number"

"$HB" report a b c --db "$DB" --out "$TMP/top" --baseline b >/dev/null 2>"$TMP/err"; ok $? "report a b c --baseline b, no --at"
bars "$(chart "$TMP/top" 'ranked-4k-randread-oio-32' tsv)" | same_bars b 32 a b c
ok $? "without --at: the highest point all three have (OIO 32: c stops there), deltas against b"
"$HB" report a b --db "$DB" --out "$TMP/ab" >/dev/null 2>"$TMP/err"; ok $? "report a b"
bars "$(chart "$TMP/ab" 'ranked-4k-randread-oio-64' tsv)" | same_bars a 64 a b; ok $? "their highest shared point is OIO 64"
"$HB" report a b c --db "$DB" --out "$TMP/at64" --at oio=64 >/dev/null 2>"$TMP/err"; ok $? "report a b c --at oio=64"
bars "$(chart "$TMP/at64" 'ranked-4k-randread-oio-64' tsv)" | same_bars a 64 a b; ok $? "OIO 64: the two runs that have it"

# --- a bad --at: exit 2, naming it, no report --------------------------------------
"$HB" report a b --db "$DB" --out "$TMP/bad1" --at oio=33 >/dev/null 2>"$TMP/err"; is $? 2 "--at oio=33 (no run has it): exit 2"
like "$(cat "$TMP/err")" "oio=33: no run has the point oio 33 \(its points: 2, 32, 64\)" "the message names it and the points there are"
"$HB" report a b --db "$DB" --out "$TMP/bad2" --at depth=32 >/dev/null 2>"$TMP/err"; is $? 2 "--at depth=32 (no such axis): exit 2"
like "$(cat "$TMP/err")" "depth=32: no step of these runs is swept over 'depth' \(their axes: oio, write_pct\)" "the message names it and the runs' axes"
! grep -q traceback "$TMP/err"; ok $? "(no traceback)"
[ ! -e "$TMP/bad1" ] && [ ! -e "$TMP/bad2" ]; ok $? "and no report is left"
"$HB" report a b --db "$DB" --out "$TMP/bad3" --at oio >/dev/null 2>"$TMP/err"; is $? 2 "--at oio (no value): exit 2"
"$HB" report a b --db "$DB" --out "$TMP/bad3" --at oio=2 --at oio=32 >/dev/null 2>"$TMP/err"; is $? 2 "--at twice for one axis: exit 2"

# --- the IOPS-latency curves ----------------------------------------------------------
lat=$(chart "$TMP/rep" 'iops-latency-4k-randread' tsv)
want=$("$HB" sql --db "$DB" --format tsv "SELECT s.iops, s.lat_mean_us, s.lat_p99_us, s.axis_value FROM steps s
	JOIN runs r ON r.id = s.run_id WHERE s.group_name = '4k randread' ORDER BY r.id DESC, s.oio" | tail -n +2)
got=$(awk -F'\t' -v OFS='\t' '!/^#/ && NF == 5 { print $1, $2, $3, $4 }' "$lat")	# (5: where the OIO label goes)
paste <(echo "$want") <(echo "$got") | awk -F'\t' '{ for (i = 1; i <= 4; i++) if (($i - $(i + 4)) ^ 2 > 1e-12 * $i ^ 2) bad = 1; n++ }
	END { exit bad || n != 8 }'
ok $? "the curves: each run's IOPS, mean and p99 latency by OIO (runs in the report's order: c b a), as the steps hold them" || paste <(echo "$want") <(echo "$got") | sed 's/^/#   /'
grep -q "note = 'lower and further right is better'" "${lat%.tsv}.gp"; ok $? "the curves say which way is better"
grep -Eq "^array xtl\[[0-9]+\] = \[.*'[0-9.]+k'" "${lat%.tsv}.gp"; ok $? "their IOPS tics read in k"

# --- preconditioning, every run on one chart ------------------------------------------
pre=$(chart "$TMP/rep" 'precondition-fill' tsv)
[ -n "$pre" ] && [ -n "$(chart "$TMP/rep" 'precondition-fill' gp)" ]; ok $? "NN-precondition-fill.tsv and .gp are written"
[ "$(grep -c '^# series' "$pre")" = 3 ]; ok $? "one series per run"
want=$("$HB" sql --db "$DB" --format tsv "SELECT t.t, t.iops FROM sample_total t JOIN steps s ON s.id = t.step_id
	JOIN runs r ON r.id = s.run_id WHERE s.kind = 'precondition' ORDER BY r.id DESC, t.t" | tail -n +2)
got=$(awk -F'\t' '!/^#/ && NF == 3 { print $1 "\t" $2 }' "$pre")
[ -n "$want" ] && [ "$want" = "$got" ]; ok $? "its dots: every second of each run, time in seconds (a step under two minutes)"
awk -F'\t' '/^# series/ { n = 0 } !/^#/ && NF == 3 { v[++n] = $2; s = 0; k = 0
	for (j = n; j > n - 5 && j > 0; j--) { s += v[j]; k++ } if (($3 - s / k) ^ 2 > 1e-9 * $3 ^ 2) bad = 1 }
	END { exit bad }' "$pre"; ok $? "its line: the rolling average of the last 5 seconds"
grep -q "xlabel = 'time (s)'" "${pre%.tsv}.gp"; ok $? "the time axis says its unit"

# --- a run equal to the baseline: no change has no direction, as on the page ----------
"$HB" run "$TMP/plan.lua" --db "$DB" --label a2 -q 2>>"$TMP/stderr"; ok $? "run a2, the same card as a"
"$HB" report a a2 --db "$DB" --out "$TMP/same" --no-charts >/dev/null 2>&1; ok $? "the report of a and a2"
like "$(cat "$(chart "$TMP/same" 'ranked-4k-randread-oio-64' tsv)")" $'IOPS  \xc2\xb10\\.0 %\ta2 \\[simulated\\]' \
	"an equal run's delta reads ±0.0 % (it read 0.0 %, with neither sign nor the page's ±)"

done_testing
