#!/usr/bin/env bash
# hbatest report's charts as a site prints them (issue 35, item 1): counts
# with k/M and thousands separators, never a bare number of five digits or
# more on an axis or in a legend; no "10^6"; PCIe ceilings in the MB/s of the
# axis; a "higher/lower is better" note on every chart; each run its own
# point type and dash besides its colour; log axes with at least four
# labelled tics; a write-mix axis that starts near its points; each SVG
# titled with the chart's title and what it shows, and so each image's alt
# text; no scatter for a step of under 5 s (a line says why); at 800x450 too.
. "$(dirname "$0")/lib.sh"

command -v gnuplot >/dev/null || { skip "gnuplot is not installed (apt-get install gnuplot-nox)"; done_testing; exit 0; }

DB="$TMP/c.db"
cat > "$TMP/plan.lua" <<'LUA'
hb.plan{ defaults = { engine = "sim", workers = 1, targets = { "v" }, duration = 1, ramp = 0,
                      sim = { preset = "lsi3108-8sas", link = "pcie3x8", drive_capacity = "8g" } } }
hb.precondition{ name = "long fill", rw = "randwrite", bs = "4k", oio = 64, duration = 6 }
hb.precondition{ name = "short fill", rw = "randwrite", bs = "4k", oio = 64, duration = 2 }
for _, oio in ipairs{ 8, 64 } do
  hb.run{ rw = "randread", bs = "4k", oio = oio, axis = "oio", group = "4k randread" }
end
for _, w in ipairs{ 0, 50, 100 } do
  hb.run{ rw = "randrw", bs = "4k", oio = 64, write_pct = w, axis = "write_pct", group = "4k mix" }
end
hb.run{ name = "1M read", rw = "read", bs = "1m", oio = 8 }
LUA
for l in a b; do "$HB" run "$TMP/plan.lua" --db "$DB" --label "$l" -q 2>>"$TMP/stderr"; ok $? "run $l"; done
"$HB" report a b --db "$DB" --out "$TMP/rep" >/dev/null 2>"$TMP/err"; ok $? "the report of a and b"
"$HB" report a b --db "$DB" --out "$TMP/small" --size 800x450 >/dev/null 2>"$TMP/err"; ok $? "and at 800x450"
C="$TMP/rep/charts"
ls "$C"/*.gp >/dev/null 2>&1; ok $? "it has charts"

# every text gnuplot wrote into each SVG, a line each
svg_text() { sed -n 's/.*<text[^>]*>[[:space:]]*\([^<]*\)<\/text>.*/\1/p' "$@"; }
# a number of five digits or more with no separator, no k/M after it
bare() { grep -E '(^|[^0-9.,])[0-9]{5,}([^0-9,]|$)'; }

# --- numbers --------------------------------------------------------------------------
for dir in rep small; do
	got=$(svg_text "$TMP/$dir"/charts/*.svg | bare)
	is "$got" "" "$dir: no bare number of five digits or more in any chart's text"
done
like "$(svg_text "$C"/*-oio-4k-randread.svg)" '^[0-9.]+k$' "the IOPS axis counts in k (200k)"
like "$(svg_text "$C"/*scatter*.svg)" '^average [0-9]{1,3}(,[0-9]{3})+$' "the scatter's legend: 'average 123,456'"
got=$(grep -l "sprintf('%.0f'\|format y '%.0f'" "$C"/*.gp)
is "$got" "" "no chart prints a count with %.0f"
grep -q '^array ytl\[[0-9]*\] = \[.*k' "$C"/*-oio-4k-randread.gp; ok $? "the sweep's .gp sets its y tics' labels in k"
# an OIO axis from 8: its ticks are the swept points (gnuplot's own log2 ticks
# start where the padded range does: 12, 24, 48)
is "$(svg_text "$C"/*-oio-4k-randread.svg | grep -xE '[0-9]+' | grep -vx 0 | sort -n | tr '\n' ' ')" "8 64 " \
	"the x axis labels OIO 8 and 64, the points swept"
grep -qx 'array xpts\[2\] = \[8, 64\]' "$C"/*-oio-4k-randread-latency.gp; ok $? "and so does the latency chart's"
got=$(grep -l '10^6' "$C"/*.gp "$C"/*.svg)
is "$got" "" "no literal 10^6 in a chart"
bars=$(ls "$C"/*-sequential-bars.svg)
like "$(svg_text "$bars")" '^PCIe3 x8 ceiling 7,877 MB/s$' "the ceiling on the MB/s axis is in MB/s"
grep -q 'GB/s' "$bars"; ok $((!$?)) "and no GB/s on it"

# --- the direction note ----------------------------------------------------------------
n=$(ls "$C"/*.gp | wc -l)
is "$(grep -l "^note = '.*is better" "$C"/*.gp | wc -l)" "$n" "every chart's .gp has its 'is better' note"
is "$(grep -l '>[^<]*is better</text>' "$C"/*.svg | wc -l)" "$n" "and every SVG shows it"
grep -q '^note = .lower is better.$' "$C"/*-oio-4k-randread-latency.gp; ok $? "latency: lower is better"
grep -q '^note = .higher is better.$' "$C"/*-oio-4k-randread.gp; ok $? "IOPS: higher is better"

# --- series apart: point type and dash -------------------------------------------------
gp=$(ls "$C"/*-oio-4k-randread.gp)
grep -q 'pt ptype\[i\].*dt dtype\[i\]' "$gp"; ok $? "a sweep's lines take their point type and dash per series"
pts=$(sed -n 's/^array ptype\[[0-9]*\] = \[\([0-9]*\), \([0-9]*\),.*/\1 \2/p' "$gp")
dts=$(sed -n 's/^array dtype\[[0-9]*\] = \[\([0-9]*\), \([0-9]*\),.*/\1 \2/p' "$gp")
set -- $pts; [ -n "$2" ] && [ "$1" != "$2" ]; ok $? "runs 1 and 2 get different point types ($pts)"
set -- $dts; [ -n "$2" ] && [ "$1" != "$2" ]; ok $? "and different dashes ($dts)"
svg=${gp%.gp}.svg
is "$(grep -o "href='#gpPt[0-9]*' transform" "$svg" | sort -u | wc -l)" 2 "the SVG draws two point shapes, one per run"
grep -q 'stroke-dasharray' "$svg"; ok $? "and a dashed line"
grep -q '^key_inside = 1$' "$gp" && grep -q '^if (key_inside) { set key inside' "$gp"
ok $? "the key (two runs) is inside the plot, not under it"

# --- axes ------------------------------------------------------------------------------
for f in "$C"/*-latency.gp "$C"/*-percentiles.gp; do
	k=$(sed -n 's/^array ytv\[\([0-9]*\)\].*/\1/p' "$f")
	[ "${k:-0}" -ge 4 ]; ok $? "$(basename "$f"): a log axis with at least four tics (${k:-none})"
done
mix=$(ls "$C"/*-write-pct-4k-mix.gp)
lo=$(sed -n 's/^ylo = //p' "$mix")
log=$(sed -n 's/^ylog = //p' "$mix")
min=$(awk -F'\t' '!/^#/ && NF > 1 && $2 != "NaN" { if (!n++ || $2 < m) m = $2 } END { print m }' "${mix%.gp}.tsv")
# (linear from near the lowest, or log from the tic below it when the points span a decade)
awk -v lo="${lo:-0}" -v m="$min" -v lg="${log:-0}" 'BEGIN { exit !(lo > 0 && lo <= m && lo >= m / (lg ? 5 : 2)) }'
ok $? "the write mix's IOPS axis starts near its lowest point ($lo, points from $min, log ${log:-0})"

# --- titles and alt text ---------------------------------------------------------------
is "$(grep -l '<title>Gnuplot</title>' "$C"/*.svg "$TMP/small/charts"/*.svg)" "" "no SVG is titled Gnuplot"
t=$(sed -n "s/^chart_title = '\(.*\)'$/\1/p" "$gp")
like "$(grep -o '<title>[^<]*</title>' "$svg" | head -1)" "^<title>$t over outstanding I/O" \
	"the sweep's SVG title: its title and what it shows"
alts=$(grep -o 'alt="[^"]*"' "$TMP/rep/index.html")
is "$(printf '%s\n' "$alts" | wc -l)" "$n" "an alt text per chart"
is "$(printf '%s\n' "$alts" | grep -E '\.(svg|png)"$')" "" "none of them a file name"
like "$alts" "^alt=\"$t over outstanding I/O" "the sweep's alt text: its title and what it shows"

# --- no scatter for a step of under 5 s ------------------------------------------------
short=$(q "$DB" "SELECT seq FROM steps WHERE run_id = 1 AND name = 'short fill'")
long=$(q "$DB" "SELECT seq FROM steps WHERE run_id = 1 AND name = 'long fill'")
ls "$C" | grep -q -- "-scatter-run1-step$long\.gp$"; ok $? "the 6 s fill has its scatter"
ls "$C" | grep -q -- "-scatter-run1-step$short\.gp$"; ok $((!$?)) "the 2 s fill has none"
grep -q 'short fill: 2 seconds, too short for a chart' "$TMP/rep/index.html"; ok $? "and the page says why"

done_testing
