#!/usr/bin/env bash
# hbatest report's chart kinds of the reference reviews (issue 35, item 2):
# per-second mean latency dots at each OIO point (reference 003: a mix's
# reads and writes weighted by their operations, ramp left out), beside the
# IOPS dots; ranked bars of each single-point random step per run (000,
# 001); --units MiB in the summary and the sequential bars; a fill pattern
# per run on every bar chart, so that a greyscale print tells runs apart.
. "$(dirname "$0")/lib.sh"

command -v gnuplot >/dev/null || { skip "gnuplot is not installed (apt-get install gnuplot-nox)"; done_testing; exit 0; }

DB="$TMP/k.db"
cat > "$TMP/plan.lua" <<'LUA'
local preset = hb.set("preset", "lsi3108-8sas")
hb.plan{ defaults = { engine = "sim", workers = 1, targets = { "v" }, duration = 3, ramp = 1,
                      sim = { preset = preset, link = "pcie3x8", drive_capacity = "8g" } } }
for _, oio in ipairs{ 2, 16, 128 } do
  hb.run{ rw = "randread", bs = "4k", oio = oio, axis = "oio", group = "4k randread" }
  hb.run{ rw = "randrw", bs = "4k", oio = oio, write_pct = 30, axis = "oio", group = "4k 70/30" }
end
hb.run{ name = "4k random read QD32", rw = "randread", bs = "4k", oio = 32 }
hb.run{ name = "4k random write QD32", rw = "randwrite", bs = "4k", oio = 32 }
hb.run{ name = "4k 70/30 QD32", group = "mixes", rw = "randrw", write_pct = 30, bs = "4k", oio = 32 }
hb.run{ name = "1M read", rw = "read", bs = "1m", oio = 8 }
hb.run{ name = "1M write", rw = "write", bs = "1m", oio = 8 }
for _, oio in ipairs{ 2, 16 } do hb.run{ rw = "read", bs = "128k", oio = oio, axis = "oio", group = "128k read" } end
LUA
for r in "a lsi3108-8sas" "b asr8885-8sas" "c sas2308-8ssd"; do
	set -- $r
	"$HB" run "$TMP/plan.lua" --db "$DB" --label "$1" --set preset="$2" -q 2>>"$TMP/stderr"
	ok $? "run $1 ($2)"
done
"$HB" report a b c --db "$DB" --out "$TMP/rep" >/dev/null 2>"$TMP/err"; ok $? "the report of a, b and c"
C="$TMP/rep/charts"
# file NAME-PATTERN of report DIR's charts with extension EXT (its path, or nothing)
chart() { ls "$1/charts/" | grep -E "^[0-9]{2}-$2\.$3\$" | sed "s|^|$1/charts/|"; }
# every text gnuplot wrote into an SVG, a line each
svg_text() { sed -n 's/.*<text[^>]*>[[:space:]]*\([^<]*\)<\/text>.*/\1/p' "$@"; }
# a number of five digits or more with no separator, no k/M after it
bare() { grep -E '(^|[^0-9.,])[0-9]{5,}([^0-9,]|$)'; }
alts=$(grep -o 'alt="[^"]*"' "$TMP/rep/index.html")

# --- per-second latency dots at each OIO point ------------------------------------------
for g in 4k-randread 4k-70-30; do
	for ext in gp tsv svg; do
		[ -n "$(chart "$TMP/rep" "oio-$g-latency-seconds" $ext)" ]; ok $? "NN-oio-$g-latency-seconds.$ext is written"
	done
done
lat=$(chart "$TMP/rep" 'oio-4k-70-30-latency-seconds' tsv)
gp=${lat%.tsv}.gp svg=${lat%.tsv}.svg
# the dots beside the IOPS dots: the chart after them
iops_n=$(basename "$(chart "$TMP/rep" 'oio-4k-70-30-seconds' gp)" | cut -c1-2)
is "$(basename "$gp" | cut -c1-2)" "$(printf '%02d' $((10#$iops_n + 1)))" "they follow the IOPS dots of the group"
# each run's dots in its own band of the point's slot: run i of 3 (the series)
# from slot + 0.05 + (i - 1) x 0.3 to 0.3 further; slots by OIO (2, 16, 128: 0, 1, 2)
awk -F'\t' 'BEGIN { slot[2] = 0; slot[16] = 1; slot[128] = 2 }
	/^# series/ { i++ } !/^#/ && NF == 4 { n++; lo = slot[$3] + 0.05 + (i - 1) * 0.3
		if ($1 < lo - 1e-9 || $1 > lo + 0.3 + 1e-9) bad = 1 }
	END { exit bad || n != 27 }' "$lat"
ok $? "each run's 9 seconds sit in its own band of their OIO point's slot"
like "$alts" "4k 70/30: mean latency of every second of each OIO point \(27 in all;" \
	"the caption counts the seconds (3 runs x 3 points x 3 s)"
# each second of the window (ramp left out): its reads' and writes' means weighted by their ops
want=$("$HB" sql --db "$DB" --format tsv "SELECT (COALESCE(m.read_lat_mean_us, 0) * m.read_ops
	+ COALESCE(m.write_lat_mean_us, 0) * m.write_ops) / (m.read_ops + m.write_ops), s.axis_value
	FROM samples m JOIN steps s ON s.id = m.step_id JOIN runs r ON r.id = s.run_id
	WHERE s.group_name = '4k 70/30' AND m.ramp = 0 ORDER BY r.id, s.oio, m.t" | tail -n +2)
got=$(awk -F'\t' '!/^#/ && NF == 4 { print $2 "\t" $3 }' "$lat")
[ -n "$want" ] && paste <(echo "$want") <(echo "$got") | awk -F'\t' '{ n++; if ($2 != $4 || ($1 - $3) ^ 2 > 1e-12 * $1 ^ 2) bad = 1 }
	END { exit bad || n != 27 }'
ok $? "a dot per second of the window (27: 3 runs x 3 points x 3 s), its mean latency weighted by reads and writes" ||
	paste <(echo "$want") <(echo "$got") | sed 's/^/#   /'
want=$("$HB" sql --db "$DB" --format tsv "SELECT s.lat_mean_us FROM steps s JOIN runs r ON r.id = s.run_id
	WHERE s.group_name = '4k 70/30' ORDER BY r.id, s.oio" | tail -n +2)
got=$(awk -F'\t' '!/^#/ && NF == 4 { print $4 }' "$lat" | uniq)
paste <(echo "$want") <(echo "$got") | awk -F'\t' '{ n++; if (($1 - $2) ^ 2 > 1e-12 * $1 ^ 2) bad = 1 } END { exit bad || n != 9 }'
ok $? "each point's line: the step's mean latency" || paste <(echo "$want") <(echo "$got") | sed 's/^/#   /'
grep -q "^chart_title = '4k 70/30: mean latency second by second'$" "$gp"; ok $? "its title"
grep -q "^note = 'lower is better'$" "$gp"; ok $? "lower is better"
svg_text "$svg" | grep -qx 'lower is better'; ok $? "and the SVG shows it"
grep -q "^ylabel = 'mean latency (µs, log scale)'$" "$gp" && grep -q '^ylog = 1$' "$gp"
ok $? "a log latency axis (the points span a decade), saying so"
grep -q "^array ytl\[[0-9]*\] = \[.*'1,000'" "$gp"; ok $? "its tics with thousands separators (1,000)"
is "$(svg_text "$svg" | bare)" "" "no bare number of five digits or more in it"
like "$(grep -o '<title>[^<]*</title>' "$svg" | head -1)" \
	"^<title>4k 70/30: mean latency second by second\. 4k 70/30: mean latency of every second of each OIO point" \
	"the SVG's title: its title and what it shows"
like "$alts" 'alt="4k 70/30: mean latency second by second\. [^"]*weighted by their operations' "and its alt text"

# --- bars of each single-point random step, per run ----------------------------------------
for f in 4k-random-read-qd32 4k-random-write-qd32 4k-70-30-qd32-mixes; do
	for ext in gp tsv svg; do
		[ -n "$(chart "$TMP/rep" "bars-$f" $ext)" ]; ok $? "NN-bars-$f.$ext is written"
	done
done
is "$(ls "$C" | grep -c -- '-bars-.*\.gp$')" 3 "no bars for the sequential steps nor the sweeps' points"
# the IOPS of run LABEL in step NAME
iops() { "$HB" sql --db "$DB" --format tsv "SELECT s.iops FROM steps s JOIN runs r ON r.id = s.run_id
	WHERE r.label = '$1' AND s.name = '$2'" | tail -n +2; }
# the bars of a chart's data, top first: "run<TAB>value<TAB>label"
bars() { awk -F'\t' '!/^#/ && NF == 4 { print $1 "\t" $4 "\t" $2 "\t" $3 }' "$1" | sort -rn | cut -f2-; }
# what they should be: runs by value, each labelled "value IOPS  delta" against a
expect() {
	for r in a b c; do printf '%s\t%s\n' "$r" "$(iops "$r" "$1")"; done | sort -t$'\t' -k2,2gr |
	awk -F'\t' -v bv="$(iops a "$1")" '{
		v = sprintf("%.0f", $2); s = ""; n = length(v)
		for (i = 1; i <= n; i++) { s = s substr(v, i, 1); if ((n - i) % 3 == 0 && i < n) s = s "," }
		d = $1 == "a" ? "(baseline)" : sprintf("%+.1f %%", ($2 - bv) / bv * 100)
		if (d ~ /^[-+]0\.0 %$/) d = "±0.0 %"
		sub(/^-/, "−", d); print $1 " [simulated]\t" $2 "\t" s " IOPS  " d }'
}
for step in "4k random read QD32" "4k random write QD32" "4k 70/30 QD32"; do
	f=$(chart "$TMP/rep" "bars-$(echo "$step" | tr 'A-Z /' 'a-z--')(-mixes)?" tsv)
	awk -F'\t' 'NR == FNR { want[FNR] = $0; n = FNR; next }
		{ split(want[FNR], w, "\t"); if ($1 != w[1] || ($2 - w[2]) ^ 2 > 1e-12 * w[2] ^ 2 || $3 != w[3]) bad = 1; m = FNR }
		END { exit bad || m != n || n != 3 }' <(expect "$step") <(bars "$f")
	ok $? "$step: the three runs, best on top, each labelled with its IOPS and delta against a" ||
		{ bars "$f" | sed 's/^/#   /'; expect "$step" | sed 's/^/#   want /'; }
done
gp=$(chart "$TMP/rep" 'bars-4k-random-read-qd32' gp) svg=${gp%.gp}.svg
grep -q "^chart_title = '4k random read QD32: IOPS per run'$" "$gp"; ok $? "the title names the step"
grep -q "^chart_title = '4k 70/30 QD32 (mixes): IOPS per run'$" "$(chart "$TMP/rep" bars-4k-70-30-qd32-mixes gp)"
ok $? "and its group, when that is another"
grep -q "^note = 'higher is better'$" "$gp"; ok $? "higher is better"
svg_text "$svg" | grep -qx 'higher is better'; ok $? "and the SVG shows it"
grep -Eq "^array xtl\[[0-9]+\] = \[.*'[0-9.]+k'" "$gp"; ok $? "its IOPS tics read in k"
is "$(svg_text "$svg" | bare)" "" "no bare number of five digits or more in it"
like "$(svg_text "$svg")" '^[0-9]{1,3},[0-9]{3} IOPS  (\(baseline\)|[+−][0-9.]+ %)$' "its labels: 288,838 IOPS and the delta"
like "$(grep -o '<title>[^<]*</title>' "$svg" | head -1)" \
	'^<title>4k random read QD32: IOPS per run\. 4k random read QD32: IOPS of each run \(randread 4k, OIO 32\), best on top' \
	"the SVG's title: its title and what it shows"
like "$alts" 'alt="4k random read QD32: IOPS per run\. [^"]*delta against a"' "and its alt text"

# --- a fill pattern per run on every bar chart ---------------------------------------------
# the pattern of each run in a chart's .gp: "run pattern" lines, by run
patterns() {
	paste <(grep '^# series' "${1%.gp}.tsv" | sed 's/^# series [0-9]*: \([a-z]\).*/\1/') \
	      <(sed -n 's/^array pattern\[[0-9]*\] = \[\(.*\)\]$/\1/p' "$1" | tr -d ' ' | tr , '\n') | sort
}
for f in bars-4k-random-read-qd32 bars-4k-70-30-qd32-mixes 'ranked-4k-randread-oio-128' sequential-bars; do
	gp=$(chart "$TMP/rep" "$f" gp)
	is "$(patterns "$gp" | tr '\t\n' ': ')" "a:0 b:4 c:5 " "$f: each run its pattern (a solid, b and c diagonals), whatever its place"
	grep -q 'fs pattern hatch(i) border lc rgb colors\[i\]' "$gp"; ok $? "$f: the bars are drawn with it, outlined in the run's colour"
	n=$(grep -A1 "<pattern id=" "${gp%.gp}.svg" | sed -n "s/.* d='\([^']*\)'.*/\1/p" | sort -u | wc -l)
	is "$n" 3 "$f: its SVG fills the runs' bars with three patterns"
done

# --- --units MiB: the summary and the sequential bars -----------------------------------------
"$HB" report a b c --db "$DB" --out "$TMP/mib" --units MiB >/dev/null 2>"$TMP/err"; ok $? "the report with --units MiB"
# the MB/s of run LABEL's step NAME, and as MiB/s
mbps() { "$HB" sql --db "$DB" --format tsv "SELECT s.mbps FROM steps s JOIN runs r ON r.id = s.run_id
	WHERE r.label = '$1' AND s.name = '$2'" | tail -n +2; }
mib() { awk -v v="$(mbps "$@")" 'BEGIN { printf "%.0f", v * 1e6 / 1048576 }' | sed -E ':a; s/^([0-9]+)([0-9]{3})/\1,\2/; ta'; }
want="1M read</td><td class=\"metric\">MiB/s</td><td class=\"num best\">$(mib a '1M read')</td>"
grep -qF "$want" "$TMP/mib/index.html"; ok $? "the summary's 1M read row: MiB/s, $(mib a '1M read') (MB/s $(mbps a '1M read'))"
grep -qF '1M read</td><td class="metric">MB/s</td>' "$TMP/rep/index.html"; ok $? "(without --units: MB/s)"
row=$(grep '^1M read,measure,' "$TMP/mib/data/summary.csv")
awk -F, -v a="$(mbps a '1M read')" -v c="$(mbps c '1M read')" '{ exit !($3 == "MiB/s" &&
	($4 - a * 1e6 / 1048576) ^ 2 < 1e-12 * $4 ^ 2 && ($6 - c * 1e6 / 1048576) ^ 2 < 1e-12 * $6 ^ 2) }' <<<"$row"
ok $? "summary.csv: its metric MiB/s, the values in MiB/s" || echo "#   $row"
gp=$(chart "$TMP/mib" sequential-bars gp) tsv=${gp%.gp}.tsv svg=${gp%.gp}.svg
# (run c's 8 SATA SSDs on 6 Gb/s lanes carry less than its PCIe3 x8: its
# bars stand under the lanes, and the title names both kinds of ceiling)
grep -q "^chart_title = 'Sequential throughput (MiB/s) against each run''s ceiling, its PCIe link or its drives'' SAS lanes'$" \
	"$gp"; ok $? "the bars' title says MiB/s"
want=$(for r in a b c; do for st in '1M read' '1M write'; do mbps $r "$st"; done; done)
got=$(awk -F'\t' '!/^#/ && NF == 8 && $1 < 2 { print $2 }' "$tsv")
paste <(echo "$want") <(echo "$got") | awk -F'\t' '{ n++; if (($1 * 1e6 / 1048576 - $2) ^ 2 > 1e-12 * $2 ^ 2) bad = 1 } END { exit bad || n != 6 }'
ok $? "the bars: each run's MB/s as MiB/s" || paste <(echo "$want") <(echo "$got") | sed 's/^/#   /'
# (without their unit, the axis's, when the chart's widest label is wider than its bars)
like "$(svg_text "$svg")" '^PCIe3 x8 (ceiling )?7,512( MiB/s)?$' "the ceiling in MiB/s (7,877 MB/s)"
like "$(svg_text "$svg")" '^(8 x 6 Gb/s|8x6G) lanes (ceiling )?4,257( MiB/s)?$' "and the lanes' in MiB/s (4,464 MB/s)"
like "$(svg_text "$svg")" '^(2,500|5,000|7,500)$' "an axis past 1 GiB/s ticks in MiB/s, as its bars (one unit a chart)"
grep -q "^ylabel = 'MiB/s (1 MiB = 1,048,576 bytes)'$" "$gp"; ok $? "and its label says so"
svg_text "$svg" | grep -q 'MB/s'; ok $((!$?)) "no MB/s in it"
is "$(svg_text "$svg" | bare)" "" "no bare number of five digits or more in it"

# a sweep of 128k reads: its seconds in MiB/s too
dots=$(chart "$TMP/mib" 'oio-128k-read-seconds' tsv)
grep -q "^chart_title = '128k read: MiB/s second by second'$" "${dots%.tsv}.gp"; ok $? "the 128k sweep's dots are in MiB/s"
want=$("$HB" sql --db "$DB" --format tsv "SELECT m.mbps FROM sample_total m JOIN steps s ON s.id = m.step_id
	JOIN runs r ON r.id = s.run_id WHERE s.group_name = '128k read' AND m.ramp = 0 ORDER BY r.id, s.oio, m.t" | tail -n +2)
got=$(awk -F'\t' '!/^#/ && NF == 4 { print $2 }' "$dots")
[ -n "$want" ] && paste <(echo "$want") <(echo "$got") | awk -F'\t' '{ n++; if (($1 * 1e6 / 1048576 - $2) ^ 2 > 1e-12 * $2 ^ 2) bad = 1 }
	END { exit bad || n != 18 }'
ok $? "each second's MB/s as MiB/s (18: 3 runs x 2 points x 3 s)" || paste <(echo "$want") <(echo "$got") | sed 's/^/#   /'

done_testing
