#!/usr/bin/env bash
# Charts a site can print as drawn (docs/reports.md; session 29's review of
# every chart), checked from the scripts and data hbatest report writes, not
# from pixels: the per-target bars' names without the prefix they share
# (once in the x axis's title) and upright when still wider than their bar
# (reports/charts.lua target_labels, bars.gp rotate); the percentiles' key
# under the plot (percentiles.gp); the IOPS-latency curves' OIO labels beside
# a point where its curve climbs, not under it on the line (curves.lua
# label_sides); a bar's value over its ceiling's dashes, clear of them
# (charts.lua value_heights); the per-second dots' key naming the average
# lines (dots.gp); under --units MiB the bars' axis in MiB/s as the bars
# (charts.lua bar_axis); the key's margin at 800x450 (report_chart.c
# add_key_margin); the telemetry key without an empty entry (telemetry.gp).
# The host CPU chart's key and note: tests/hostcpu.t.
# Simulated: a second or two in all.
. "$(dirname "$0")/lib.sh"

command -v gnuplot >/dev/null || { skip "gnuplot is not installed (apt-get install gnuplot-nox)"; done_testing; exit 0; }

DB="$TMP/c.db"
cat >"$TMP/c.lua" <<'EOF'
hb.plan{ name = "print", defaults = { engine = "sim", workers = 1, duration = 2, ramp = 0,
         rw = "read", bs = "128k", oio = 16, sim = { drives = 16 } } }
local shared, long, short = {}, {}, {}
for k = 1, 16 do
  shared[k] = ("pcie1x8-sd%s"):format(string.char(97 + k))
  long[k] = ("%s-enclosure%02d-slot%02d"):format(k % 2 == 0 and "left" or "right", k, k)
end
for k = 1, 10 do short[k] = ("disk%d"):format(k) end
hb.run{ name = "shared prefix", targets = shared }
hb.run{ name = "long names", targets = long }
hb.run{ name = "ten short", targets = short, oio = 20 }
-- a card whose random writes level off and whose latency then climbs at one rate
hb.sweep{ base = { rw = "randwrite", bs = "4k", targets = { "sdb" }, sim = { preset = "lsi3108-8sas" } },
          group = "4k random write", oio = { 2, 4, 8, 16, 32, 64, 128, 256 } }
EOF
# bars just under their SAS lane (the sim preset's 6 Gb/s lane, 558 MB/s) and well under it
cat >"$TMP/lane.lua" <<'EOF'
hb.plan{ name = "lanes", defaults = { engine = "sim", workers = 1, duration = 2, ramp = 0,
         rw = "read", bs = "128k", oio = 32, targets = { "sdb" } } }
hb.run{ name = "near lane", sim = { preset = "sas2308-1sas", drive_read_mbps = 540 } }
hb.run{ name = "far lane", sim = { preset = "sas2308-1sas", drive_read_mbps = 300 } }
EOF
"$HB" run "$TMP/c.lua" --db "$DB" -q 2>>"$TMP/stderr"
ok $? "the plan on the simulated cards"
"$HB" run "$TMP/lane.lua" --db "$DB" -q 2>>"$TMP/stderr"
ok $? "and the bars by their lanes"
"$HB" report 2 --db "$DB" --format svg --out "$TMP/lane" >/dev/null 2>>"$TMP/stderr"
ok $? "hbatest report of the lanes"
"$HB" report 1 --db "$DB" --format svg --out "$TMP/r" >/dev/null 2>>"$TMP/stderr"
ok $? "hbatest report"
"$HB" report 1 --db "$DB" --format svg --units MiB --out "$TMP/mib" >/dev/null 2>>"$TMP/stderr"
ok $? "hbatest report --units MiB"
"$HB" report 1 --db "$DB" --format svg --size 800x450 --out "$TMP/small" >/dev/null 2>>"$TMP/stderr"
ok $? "hbatest report --size 800x450"
C=$TMP/r/charts

# var GP NAME: a variable's value as the script sets it (strings unquoted)
var() { sed -n "s/^$2 = '\\{0,1\\}\\([^']*\\)'\\{0,1\\}\$/\\1/p" "$1" | head -1; }
# names TSV: the per-target bars' names under them (column 3 of the first series)
names() { awk -F'\t' '/^#/ { if (n) exit; next } NF > 2 { n++; printf "%s ", $3 }' "$1"; }

# --- 1. per-target names: the shared part once in the axis title; upright when too wide
gp=$(ls "$C"/*-targets-shared-prefix.gp)
is "$(names "${gp%.gp}.tsv")" "sdb sdc sdd sde sdf sdg sdh sdi sdj sdk sdl sdm sdn sdo sdp sdq " \
	"16 targets sharing 'pcie1x8-': each bar named by the rest"
is "$(var "$gp" xlabel)" "target (pcie1x8-…)" "the shared part said once, in the x axis's title"
is "$(var "$gp" rotate)" 0 "short names stay level"
gp=$(ls "$C"/*-targets-long-names.gp)
like "$(names "${gp%.gp}.tsv")" "^left-enclosure02-slot02 " "names sharing no prefix are kept whole"
is "$(var "$gp" rotate)" 1 "16 names of 23-24 characters, wider than their bars: upright"
is "$(var "$gp" label_chars)" 24 "and the room under the axis is for the longest"
gp=$(ls "$C"/*-targets-ten-short.gp)
is "$(var "$gp" rotate)" 0 "10 short names: level"
is "$(names "${gp%.gp}.tsv")" "disk1 disk2 disk3 disk4 disk5 disk6 disk7 disk8 disk9 disk10 " \
	"in their numbers' order (the database's puts disk10 second)"

# --- 3. the percentiles' key under the plot, where no point is
gp=$(ls "$C"/*-percentiles.gp)
like "$(grep '^set key' "$gp")" "^set key at screen 0.5, screen 0.01 center bottom" "the percentiles' key is under the plot"
! grep -q '^[^#]*set key .*inside' "$gp"; ok $? "never inside it, over a run's p99.9 and p99.99"

# --- 4. the OIO labels: beside a point where its curve climbs at one rate
tsv=$(ls "$C"/*-iops-latency-4k-random-write.tsv)
# rows x, side; a point whose neighbours both lie within 2 % of the axis's
# width of its rate is on a climb: its label may not be under it, on the line
xmax=$(var "${tsv%.tsv}.gp" xmax)
climb=$(awk -F'\t' -v w="$xmax" '!/^#/ && NF >= 5 { x[++n] = $1; s[n] = $5 }
	END { for (k = 2; k < n; k++) if ((x[k] - x[k-1]) ^ 2 < (0.02 * w) ^ 2 && (x[k+1] - x[k]) ^ 2 < (0.02 * w) ^ 2)
		printf "%s ", s[k] }' "$tsv")
like "$climb" "^(right|left)" "the curve climbs at one rate (points at OIO 32 and on: $climb)"
unlike=$(printf '%s' "$climb" | grep -c below)
is "$unlike" 0 "no label of a climbing point under it, where the line to the next OIO runs"
like "$(awk -F'\t' '!/^#/ && NF >= 5 { print $4, $5; exit }' "$tsv")" "^2 below$" \
	"a point where the curve runs level (OIO 2) has its label under it"
like "$(grep '^set key' "${tsv%.tsv}.gp")" "^set key at screen 0.5, screen 0.01 center bottom" \
	"the curves' key under the plot, not top left over a curve turning back at its highest OIO"

# --- 4. a bar's value over its ceiling's dashes, clear of them
gp=$(ls "$TMP"/lane/charts/*-sequential-bars.gp)
ch=$(awk -v l="$(var "$gp" line)" -v m="$(var "$gp" ymax)" 'BEGIN { print l * m }')
# bar STEP: value ceiling value_y of the step's bar
bar() { awk -F'\t' -v s="$1" '!/^#/ && $3 == s { print $2, $4, $8 }' "${gp%.gp}.tsv"; }
read -r v c y <<<"$(bar "near lane")"
awk -v v="$v" -v c="$c" -v y="$y" -v ch="$ch" 'BEGIN { exit !(c > v && c - v < 1.5 * ch && y >= c + 0.4 * ch) }'
ok $? "a bar just under its lane ($v under $c MB/s): its value at $y, at least 0.4 line ($ch) over the dashes"
read -r v c y <<<"$(bar "far lane")"
is "$y" "$v" "a bar well under its lane ($v of $c MB/s): its value on the bar"

# --- 5. the dots' key names the averages' lines
gp=$(ls "$C"/*-oio-4k-random-write-latency-seconds.gp)
like "$(grep 'keyentry' "$gp")" "title \"each point's average\"" "the per-second dots' key names the average lines"

# --- 5b. the per-second dots' key under the plot, never inside it over the first OIO's dots
for gp in "$C"/*-oio-4k-random-write-seconds.gp "$C"/*-oio-4k-random-write-latency-seconds.gp; do
	like "$(grep '^set key' "$gp")" "^set key at screen 0.5, screen 0.01 center bottom" "$(basename "$gp"): the dots' key is under the plot"
	! grep -q '^[^#]*set key .*inside' "$gp"; ok $? "$(basename "$gp"): and never inside it"
done

# --- 5c. the key's margin at 800x450: the rows the key takes, no more (an
# empty band squeezed the plot): a run's mean and p99 side by side in one
# row, as the percentiles' one entry; one row 5.75 lines (the tic labels, the
# x label, a gap and the row)
S=$TMP/small/charts
is "$(var "$(ls "$S"/*-iops-latency-4k-random-write.gp)" key_margin)" \
	"$(var "$(ls "$S"/*-oio-4k-random-write-percentiles.gp)" key_margin)" \
	"800x450: the key of a run's mean and p99 is one row, as the percentiles' key"
is "$(var "$(ls "$S"/*-oio-4k-random-write-percentiles.gp)" key_margin)" 5.75 "and one row's margin is 5.75 lines"
is "$(var "$(ls "$C"/*-iops-latency-4k-random-write.gp)" key_margin)" 5.75 "as at the default size"

# --- 5d. upright names at 800x450 leave the plot 11 lines: the y axis says
# the unit alone, its definition (14 lines upright) in the caption, not run
# past the plot into the title; at the default size the axis says both
gp=$(ls "$S"/*-targets-long-names.gp)
is "$(var "$gp" ylabel)" "MB/s" "800x450, upright names: the y axis's title is the unit"
is "$(grep -c 'long names: MB/s (1 MB = 1,000,000 bytes) of each of its 16 targets' "$TMP/small/index.html")" 1 \
	"its definition in the caption"
is "$(var "$(ls "$C"/*-targets-long-names.gp)" ylabel)" "MB/s (1 MB = 1,000,000 bytes)" "at 1280x720 the axis says both"
is "$(var "$(ls "$S"/*-targets-shared-prefix.gp)" ylabel)" "MB/s (1 MB = 1,000,000 bytes)" \
	"and so at 800x450 under level names"

# --- 6. --units MiB: one unit on the bars' chart
gp=$(ls "$TMP"/mib/charts/*-sequential-bars.gp)
like "$(var "$gp" ylabel)" "^MiB/s \(1 MiB = 1,048,576 bytes\)$" "the MiB/s bars' axis says MiB/s"
like "$(grep '^array ytl' "$gp")" "'[0-9]{1,3},[0-9]{3}'" "ticked past 1,024 MiB/s (the lsi3108's sweep)"
like "$(grep '^array ytl' "$gp")" "^array ytl\[[0-9]+\] = \['0'(, '[0-9,.]+')+\]$" \
	"in plain MiB/s figures, as the bars: no GiB/s, no k"
like "$(sed -n 's/.*\t\(PCIe[^\t]*\)\t.*/\1/p' "${gp%.gp}.tsv" | head -1)" "MiB/s$" "and its ceilings in MiB/s"
gp=$(ls "$TMP"/mib/charts/*-targets-shared-prefix.gp)
is "$(var "$gp" ylabel)" "MiB/s (1 MiB = 1,048,576 bytes)" "the per-target bars' axis in MiB/s"
is "$(head -1 "${gp%.gp}.tsv" | cut -f2)" "MiB/s" "their values in MiB/s"
like "$(grep '^array ytl' "$gp")" "^array ytl\[[0-9]+\] = \['0'(, '[0-9,]+')+\]$" "ticked in plain MiB/s figures"
# --- 7. the telemetry key (the host CPU chart's) holds the entries it draws
# and no empty one: its "warning event" entry was plotted under an empty
# iteration when a run had none, and gnuplot 5.4 kept room for it: at
# 800x450 the host CPU chart's two entries stood in two rows of a key of
# three. Read from the SVG, where each key title is a text at its position.
cat > "$TMP/k.lua" <<'LUA'
local nev = tonumber(os.getenv("NEVENTS") or "0")
local c = report.chart{ name = "k", template = "telemetry", title = "t", columns = { "t_s", "busy_pct" },
  series = { { title = "host CPUs busy (%)", color = "#D55E00", rows = { { 0, 99 }, { 1, 100 }, { 2, 100 } } },
             { title = "busiest worker on CPU (%)", color = "#0072B2", rows = { { 0, 45 }, { 1, 43 }, { 2, 49 } } } },
  args = { ylabel = "busy (% of the second)", tmax = 2, ymax = 100, nsteps = 1, nevents = nev,
           step_from = { 0 }, step_to = { 2 }, step_label = { "step 1" }, event_t = { 1 } } }
report.write("index.html", c.img)
LUA
# key_y SVG TITLE: the y of the text TITLE (its translate)
key_y() { grep -B1 "<text>$2</text>" "$1" | sed -n 's/.*translate([0-9.]*,\([0-9.]*\)).*/\1/p' | head -1; }
"$HB" report 1 --db "$DB" --out "$TMP/k" --template "$TMP/k.lua" --format svg --size 800x450 >/dev/null 2>>"$TMP/stderr"
ok $? "a report program draws the host CPU chart's two series at 800x450"
a=$(key_y "$TMP/k/charts/01-k.svg" "host CPUs busy (%)"); b=$(key_y "$TMP/k/charts/01-k.svg" "busiest worker on CPU (%)")
[ -n "$a" ] && [ "$a" = "$b" ]; ok $? "no warning event: its two entries in one row (at y $a and $b)"
! grep -q "warning event" "$TMP/k/charts/01-k.svg"; ok $? "and no warning event entry"
NEVENTS=1 "$HB" report 1 --db "$DB" --out "$TMP/ev" --template "$TMP/k.lua" --format svg --size 800x450 >/dev/null 2>>"$TMP/stderr"
grep -q "<text>warning event</text>" "$TMP/ev/charts/01-k.svg"; ok $? "with a warning event, its entry in the key"
done_testing
