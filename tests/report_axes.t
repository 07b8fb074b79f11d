#!/usr/bin/env bash
# hbatest report, how charts are laid out: a log latency axis spans its
# points with at least four labelled tics, from a tic near below the lowest
# to one near above the highest (not whole decades); fonts follow --size (the square root of its scale
# against 1280x720); a PCIe ceiling that several runs share is labelled
# once, centred over their bars, and in its short form when the full one is
# wider than the bars it labels; per-target bars leave out a run without
# points rather than keep an empty slot for it; ten runs get ten colours,
# none of them the black of the average lines; the test bed gives each
# simulated array its volume; a scatter leaves out a last part-second of a
# few ms; a write-mix sweep charts its reads' and writes' p99 apart; the
# page ends with each run's steps as they ran.
. "$(dirname "$0")/lib.sh"

command -v gnuplot >/dev/null || { skip "gnuplot is not installed (apt-get install gnuplot-nox)"; done_testing; exit 0; }

DB="$TMP/a.db"
cat > "$TMP/plan.lua" <<'LUA'
local link = hb.set("link", "pcie3x8")
hb.plan{ defaults = { engine = "sim", workers = 1, targets = { "v" }, duration = 1, ramp = 0,
                      sim = { preset = "lsi3108-8sas", link = link, drive_capacity = "8g" } } }
for _, oio in ipairs{ 2, 64 } do
  hb.run{ rw = "randread", bs = "4k", oio = oio, axis = "oio", group = "4k randread" }
end
for i = 1, 6 do hb.run{ name = "1M read " .. i, rw = "read", bs = "1m", oio = 8 + i } end
LUA
for r in "a pcie3x8" "b pcie3x8" "c pcie3x4"; do
	set -- $r
	"$HB" run "$TMP/plan.lua" --db "$DB" --label "$1" --set link="$2" -q 2>>"$TMP/stderr"; ok $? "run $1 ($2)"
done
"$HB" report a b c --db "$DB" --out "$TMP/rep" >/dev/null 2>"$TMP/err"; ok $? "the report of a, b and c"
"$HB" report a b c --db "$DB" --out "$TMP/small" --size 640x360 >/dev/null 2>"$TMP/err"; ok $? "and at 640x360"

# --- the latency axis: the points' range to the nearest 1-2-5 tics -------------------
lat="$TMP/rep/charts/$(cd "$TMP/rep/charts" && ls | grep -- '-oio-4k-randread-latency\.gp$')"
lo=$(q "$DB" "SELECT min(min(lat_mean_us, lat_p99_us)) FROM steps WHERE group_name = '4k randread'")
hi=$(q "$DB" "SELECT max(max(lat_mean_us, lat_p99_us)) FROM steps WHERE group_name = '4k randread'")
# what gnuplot draws: the y range of the last plot of the script
range() {
	(cd "$(dirname "$1")" && gnuplot -e "load '$(basename "$1")'; set print '$TMP/range'; print GPVAL_Y_MIN, GPVAL_Y_MAX") 2>>"$TMP/stderr"
	cat "$TMP/range"
}
# the drawn range "L H" holds the points lo .. hi and ends within a 1-2-5 step
# of them (2.5 times), not at whole decades; and the script labels four tics or more
spans() { awk -v a="$1" -v lo="$2" -v hi="$3" 'BEGIN { split(a, x, " ")
	exit !(x[1] > 0 && x[1] <= lo && x[2] >= hi && x[1] >= lo / 2.5 && x[2] <= hi * 2.5) }'; }
ntics() { sed -n 's/^array ytv\[\([0-9]*\)\].*/\1/p' "$1"; }
got=$(range "$lat")
spans "$got" "$lo" "$hi"; ok $? "the latency axis spans its points, near them ($got for $lo .. $hi)"
[ "$(ntics "$lat")" -ge 4 ]; ok $? "with four labelled tics or more ($(ntics "$lat"))"
awk -v lo="$lo" -v hi="$hi" 'BEGIN { exit !(hi / lo < 100) }'; ok $? "(the points span less than two decades: $lo .. $hi us)"
pct="$TMP/rep/charts/$(cd "$TMP/rep/charts" && ls | grep -- '-oio-4k-randread-percentiles\.gp$')"
plo=$(awk -F'\t' '!/^#/ && NF > 1 && $2 != "NaN" { if (!n++ || $2 < m) m = $2 } END { print m }' "${pct%.gp}.tsv")
phi=$(awk -F'\t' '!/^#/ && NF > 1 && $2 != "NaN" { if (!n++ || $2 > m) m = $2 } END { print m }' "${pct%.gp}.tsv")
got=$(range "$pct")
spans "$got" "$plo" "$phi"; ok $? "the percentiles' axis too ($got for $plo .. $phi)"
[ "$(ntics "$pct")" -ge 4 ]; ok $? "with four labelled tics or more ($(ntics "$pct"))"
cp "$DB" "$TMP/flat.db"; q "$TMP/flat.db" "UPDATE steps SET lat_mean_us = 100, lat_p99_us = 100 WHERE group_name = '4k randread'"
"$HB" report a --db "$TMP/flat.db" --out "$TMP/flat" >/dev/null 2>"$TMP/err"
got=$(range "$(echo "$TMP/flat/charts/"*-oio-4k-randread-latency.gp)")
spans "$got" 99.9 100.1 && awk -v a="$got" 'BEGIN { split(a, x, " "); exit !(x[1] < 99 && x[2] > 101) }'
ok $? "every latency 100 us, a tic: the axis reaches below and above it ($got), not 100 .. 100"

# --- fonts follow --size ------------------------------------------------------------
like "$(cat "$lat")" "pngcairo size 1280,720 .* font 'Helvetica,13\.0'" "1280x720: the PNG's font is 13 pt"
small="$TMP/small/charts/$(basename "$lat")"
like "$(cat "$small")" "pngcairo size 640,360 .* font 'Helvetica,9\.2'" "640x360: 9.2 pt (13 x sqrt(0.5))"
like "$(cat "$small")" "svg size 640,360 .* font 'Helvetica,12\.0'" "and the SVG's 12 (17 x sqrt(0.5))"

# --- the PCIe ceilings over the bars -------------------------------------------------
bars="$TMP/rep/charts/$(cd "$TMP/rep/charts" && ls | grep -- '-sequential-bars\.tsv$')"
# series N's first row: its ceiling label and where it is centred
row() { awk -F'\t' -v n="$1" '/^# series/ { s++ } s == n && !/^#/ && NF > 1 { print $5 "|" $7; exit }' "$bars"; }
is "$(row 1)" "PCIe3 x8 7,877|1.5" "a and b share PCIe3 x8: one label, centred between their bars, shortest (six clusters of three bars)"
is "$(row 2)" "|NaN" "b's bar carries no label of its own"
is "$(row 3)" "PCIe3 x4 3,938|3" "c's own ceiling over its own bar, in the chart's one form"
is "$(awk -F'\t' '!/^#/ && NF > 1 && $5 != "" { n++ } END { print n }' "$bars")" 12 "two labels in each of the six clusters"

# --- per-target bars: a run without points is left out, not an empty slot ---------
cat > "$TMP/jbod.lua" <<'LUA'
hb.targets = hb.set("two", "yes") == "yes" and { "sdb", "sdc" } or { "sdb" }
hb.run{ name = "jbod", engine = "sim", sim = { preset = "sas2308-8ssd", drives = 2 }, rw = "randread",
        bs = "4k", oio = 8, workers = 2, duration = 1, ramp = 0 }
hb.run{ name = "jbod seq", engine = "sim", sim = { preset = "sas2308-8ssd", drives = 2 }, rw = "read",
        bs = "128k", oio = 8, workers = 2, duration = 1, ramp = 0 }
LUA
"$HB" run "$TMP/jbod.lua" --db "$TMP/j.db" --label one --set two=no -q 2>>"$TMP/stderr"; ok $? "a run on one target"
"$HB" run "$TMP/jbod.lua" --db "$TMP/j.db" --label two -q 2>>"$TMP/stderr"; ok $? "and one on two"
"$HB" report one two --db "$TMP/j.db" --out "$TMP/jb" >/dev/null 2>"$TMP/err"; ok $? "their report"
tg=$(echo "$TMP/jb/charts/"*-targets-jbod.gp)
is "$(grep -c '^# series' "${tg%.gp}.tsv") $(grep '^nseries' "$tg")" "1 nseries = 1" "the per-target bars hold run two only"
is "$(grep '^array titles' "$tg")" "array titles[1] = ['two [simulated]']" "under its own title"
is "$(grep '^ylabel' "$tg")" "ylabel = 'IOPS'" "4k per-target bars: IOPS on the y axis"
is "$(grep '^ylabel' "$TMP/jb/charts/"*-targets-jbod-seq.gp)" "ylabel = 'MB/s (1 MB = 1,000,000 bytes)'" \
	"128k per-target bars: MB/s, saying what a MB is (as the sequential bars do)"

# --- colours: ten runs, ten colours, none the black of the average lines -----------
printf 'for i = 1, 3 do hb.run{ name = "r" .. i, engine = "sim", targets = { "v" }, rw = "read", bs = "1m", oio = 8, duration = 1, ramp = 0, sim = { preset = "lsi3108-8sas", drive_capacity = "8g" } } end\n' > "$TMP/one.lua"
for i in $(seq 1 11); do "$HB" run "$TMP/one.lua" --db "$TMP/c.db" --label "c$i" -q 2>>"$TMP/stderr" || echo "# run c$i failed"; done
"$HB" report $(seq -f 'c%g' 1 11) --db "$TMP/c.db" --out "$TMP/col" >/dev/null 2>"$TMP/err"; ok $? "a report of 11 runs"
cols=$(grep -h '^array colors' "$TMP/col/charts/"*-sequential-bars.gp | grep -o "#[0-9A-Fa-f]*")
is "$(head -10 <<<"$cols" | sort -u | wc -l) $(grep -ci '#000000' <<<"$cols")" "10 0" "runs 1-10: ten colours, none black"
is "$(sed -n 11p <<<"$cols")" "$(sed -n 1p <<<"$cols")" "run 11 takes run 1's"
like "$(cat "$TMP/err")" "11 runs: the charts have 10 colours, so from run 11 on colours repeat" "and stderr says so"
# values too wide for their bars stand upright: 3 clusters of 11 bars (3.6 characters a bar for "5984"), not 6 of 3 (6.7)
is "$(grep -h '^vertical = [01]$' "$TMP/col/charts/"*-sequential-bars.gp "$TMP/rep/charts/"*-sequential-bars.gp | tr '\n' ' ')" \
	"vertical = 1 vertical = 0 " "bar values upright with 11 runs, level with 3"
[ -s "$(ls "$TMP/col/charts/"*-sequential-bars.png)" ] && ! ls "$TMP/col/charts/"*.log >/dev/null 2>&1; ok $? "and gnuplot draws them"
"$HB" report a b c --db "$DB" --out "$TMP/narrow" --size 640x720 >/dev/null 2>"$TMP/err"
is "$(grep -h '^vertical = [01]$' "$TMP/narrow/charts/"*-sequential-bars.gp)" "vertical = 1" \
	"at 640x720 the 3 runs' values stand upright: the width is the image's, not 1280's (4.7 characters a bar)"

# --- the test bed of a run on two arrays: each array's volume, no one size for the target
printf 'for _, l in ipairs{ "raid0", "raid5" } do hb.run{ name = l, engine = "sim", targets = { "vol" }, rw = "read", bs = "1m", oio = 8, duration = 1, ramp = 0, sim = { preset = "lsi3108-8sas", layout = l, drives = 4, drive_capacity = "2g" } } end\n' > "$TMP/arrays.lua"
"$HB" run "$TMP/arrays.lua" --db "$TMP/ar.db" --label ar -q 2>>"$TMP/stderr"; ok $? "a run on a RAID0 and a RAID5 of 4 drives"
"$HB" report ar --db "$TMP/ar.db" --out "$TMP/ar" --no-charts >/dev/null 2>"$TMP/err"
page=$(tr -d '\n' < "$TMP/ar/index.html")
like "$page" "<th>Simulated array</th><td>RAID0 of 4 x 2.0 GiB drives, strip [0-9.]+ KiB: a 8.0 GiB volume; RAID5 of 4 x 2.0 GiB drives, strip [0-9.]+ KiB: a 6.0 GiB volume</td>" \
	"the test bed gives each array its volume (RAID0 8 GiB, RAID5 6 GiB)"
like "$page" "<th>Targets</th><td>vol \(virtual\)</td>" "and the virtual target no size (the first step's was RAID0's for both)"

# --- a scatter's last second, when the step covered only ms of it: no dot --------
printf 'hb.precondition{ name = "pre", engine = "sim", targets = { "v" }, rw = "randwrite", bs = "4k", oio = 32, duration = 5, ramp = 0, sim = { preset = "lsi3108-8sas", drive_capacity = "8g" } }\n' > "$TMP/pre.lua"
"$HB" run "$TMP/pre.lua" --db "$TMP/pre.db" --label pre -q 2>>"$TMP/stderr"; ok $? "a 5 s preconditioning"
cp "$TMP/pre.db" "$TMP/frag.db"
q "$TMP/frag.db" "UPDATE samples SET secs = 0.009 WHERE t = (SELECT max(t) FROM samples)"
for d in pre frag; do "$HB" report pre --db "$TMP/$d.db" --out "$TMP/r-$d" >/dev/null 2>"$TMP/err"; done
n() { grep -v '^#' "$TMP/r-$1/charts/"*-scatter-run1-step1.tsv | grep -c .; }
is "$(n pre) $(n frag)" "5 4" "a last second of 9 ms is no dot (5 seconds, then 4)"
like "$(cat "$TMP/r-frag/index.html")" "pre: 4 seconds, IOPS dots \(left\), mean latency \(right, log\); the last 9 ms, part of a second, left out" \
	"and the caption says so"

# --- a write-mix sweep: the reads' and the writes' p99 apart, each from its histogram
printf 'for _, w in ipairs{ 0, 50, 100 } do hb.run{ engine = "sim", targets = { "v" }, rw = "randrw", bs = "4k", write_pct = w, oio = 32, duration = 1, ramp = 0, axis = "write_pct", group = "mix", sim = { preset = "lsi3108-8sas", drive_capacity = "8g" } } end\n' > "$TMP/mix.lua"
"$HB" run "$TMP/mix.lua" --db "$TMP/mix.db" --label mix -q 2>>"$TMP/stderr"; ok $? "a write-mix sweep of 0, 50 and 100 % writes"
"$HB" report mix --db "$TMP/mix.db" --out "$TMP/mix" >/dev/null 2>"$TMP/err"; ok $? "its report"
rw=$(echo "$TMP/mix/charts/"*-write-pct-mix-rw-latency.tsv)
# p99 of one direction's histogram: the middle of the bucket holding rank ceil(0.99 n), in us (docs/measurement.md, Histograms)
p99() { q "$TMP/mix.db" "WITH h AS (SELECT json_extract(value, '\$[0]') AS b, json_extract(value, '\$[1]') AS c
	FROM histograms, json_each(counts) WHERE step_id = (SELECT id FROM steps WHERE write_pct = $1) AND dir = '$2'),
	cum AS (SELECT b, sum(c) OVER (ORDER BY b) AS cc FROM h), tot AS (SELECT sum(c) AS n FROM h)
	SELECT min(b) FROM cum, tot WHERE cc >= (99 * n + 99) / 100" | awk '$1 != "" { b = $1
	if (b < 256) m = b; else { e = int(b / 128) + 6; m = (b % 128 + 128) * 2 ^ (e - 7) + (2 ^ (int(b / 128) - 1) - 1) / 2 }
	printf "%.4f", m / 1000 } $1 == "" { printf "NaN" }'; }
got=$(awk -F'\t' '!/^#/ && NF > 1 { printf "%s %s %s\n", $1, ($3 == "NaN" ? "NaN" : sprintf("%.4f", $3)), ($4 == "NaN" ? "NaN" : sprintf("%.4f", $4)) }' "$rw")
is "$got" "$(printf '0 %s NaN\n50 %s %s\n100 NaN %s' "$(p99 0 read)" "$(p99 50 read)" "$(p99 50 write)" "$(p99 100 write)")" \
	"the reads' and the writes' p99 at 0, 50 and 100 % writes, each its own histogram's (none of writes at 0 %, of reads at 100 %)"
like "$(grep '^key[34] = ' "${rw%.tsv}.gp" | tr '\n' ' ')" "key3 = ' reads p99' key4 = ' writes p99'" "keyed reads and writes"

# --- "Steps as run": every step of each run with the workload it ran ----------
page=$(tr -d '\n' < "$TMP/mix/index.html")
rows=$(grep -o '<h2 id="steps">Steps as run</h2>.*' <<<"$page" | grep -o '<tr><td class="num">[^/]*</td><td>[^<]*</td><td>[^<]*</td><td>[^<]*</td><td>[^<]*</td><td class="num">[^<]*</td><td class="num">[^<]*</td><td class="num">[^<]*</td><td class="num">[^<]*</td><td class="num">[^<]*</td><td>[^<]*</td>' |
	sed 's/<[^>]*>/|/g; s/||*/|/g; s/^|//; s/|$//')
is "$rows" "$(q "$TMP/mix.db" "SELECT seq || '|' || name || '|' || kind || '|' || rw || '|' || bs || '|' || write_pct || '|' || oio || '|' || workers || '|' || duration_s || '|' || ramp_s || '|' || engine FROM steps ORDER BY seq")" \
	"Steps as run: each step's seq, name, kind, rw, bs, write %, OIO, workers, seconds, ramp and engine, as stored"
like "$page" '<details open><summary>.*mix: 3 steps</summary>' "unfolded for a run of 3 steps"

done_testing
