#!/usr/bin/env bash
# The sequential bars' ceilings where a bar meets its SAS/SATA lanes
# (reports/charts.lua lane_ceiling, reports/gnuplot/bars.gp; docs/reports.md
# "Sequential throughput"), measured on the chart's SVG: a bar at its ceiling
# and one just under it have their value on the dashed line, at one height;
# a bar well under it has its value on the bar; a sweep's bar at its ceiling
# has its ceiling's label two lines above its value (its "OIO 32" between),
# a plain bar's one line; a simulated card that gives only its own lane rate
# (no drive link) stands under its lanes. Simulated: seconds in all.
. "$(dirname "$0")/lib.sh"

DB="$TMP/c.db"
cat >"$TMP/c.lua" <<'EOF'
hb.plan{ name = "ceiling labels", defaults = { engine = "sim", workers = 1, duration = 2, ramp = 0,
         rw = "read", bs = "128k", oio = 32, targets = { "sdb" } } }
local function card(mbps) return { preset = "sas2308-1sas", drive_read_mbps = mbps } end
hb.run{ name = "at lane", sim = card(1200) }
hb.run{ name = "near lane", sim = card(540) }
hb.run{ name = "far lane", sim = card(300) }
hb.sweep{ base = { name = "sweep at lane", sim = card(1200) }, group = "sweep at lane", oio = { 1, 32 } }
EOF
cat >"$TMP/only.lua" <<'EOF'
hb.run{ name = "card lanes only", engine = "sim", duration = 2, rw = "read", bs = "128k", oio = 32,
        targets = { "sdb", "sdc" }, sim = { drives = 2, sas_lane_gbps = 3, drive_read_mbps = 1000 } }
EOF
"$HB" run "$TMP/c.lua" --db "$DB" -q 2>>"$TMP/stderr"
ok $? "four sequential steps on the simulated card"
"$HB" run "$TMP/only.lua" --db "$DB" -q 2>>"$TMP/stderr"
ok $? "and one on a card that gives only its lane rate"
for r in 1 2; do
	"$HB" report "$r" --format svg --out "$TMP/r$r" --db "$DB" >/dev/null 2>>"$TMP/stderr"
	ok $? "hbatest report $r"
done
svg=$(ls "$TMP"/r1/charts/*-sequential-bars.svg)

# texts: "x y text" for every text of the SVG at its position
texts() {
	perl -0777 -ne 'print "$1 $2 $3\n" while /<g transform="translate\(([\d.]+),([\d.]+)\)[^>]*>\s*<text[^>]*>(.*?)<\/text>/sg' "$svg"
}
# x STEP: the x of a step's name under its bar (a sweep's: "NAME (best OIO)");
# value_y, ceiling_y X: the y of the text at x X that is a value (digits)
# or a ceiling ("... MB/s"); ceiling X: that ceiling's text
x() { texts | awk -v n="$1" '{ x = $1; $1 = $2 = ""; sub(/^ +/, "") } index($0, n) == 1 { print x; exit }'; }
value_y() { texts | awk -v x="$1" '$1 == x && $3 ~ /^[0-9][0-9,]*$/ && NF == 3 { print $2; exit }'; }
ceiling_y() { texts | awk -v x="$1" '$1 == x && / MB\/s$/ { print $2; exit }'; }
ceiling() { texts | awk -v x="$1" '$1 == x && / MB\/s$/ { $1 = $2 = ""; sub(/^ +/, ""); print; exit }'; }
# float FORMULA: awk's verdict on it (exit 0 when true)
float() { awk "BEGIN { exit !($1) }"; }
at=$(x "at lane") near=$(x "near lane") far=$(x "far lane") sweep=$(x "sweep at lane")
ok $([ -n "$at" ] && [ -n "$near" ] && [ -n "$far" ] && [ -n "$sweep" ]; echo $?) \
	"a bar a step ($at $near $far $sweep)"
like "$(ceiling "$at")" '^1 x 6 Gb/s lane (ceiling )?558 MB/s$' "a 12 Gb/s drive on a 6 Gb/s card under its lane"
# the same ceiling, so the same dashed line: the value of a bar at it and of
# a bar within a line and a half under it stand on it, at one height
float "$(value_y "$near") - $(value_y "$at") < 2 && $(value_y "$at") - $(value_y "$near") < 2"
ok $? "a bar just under its ceiling has its value on the line, as a bar at it ($(value_y "$near") vs $(value_y "$at"))"
float "$(value_y "$far") > $(value_y "$at") + 13"
ok $? "a bar well under its ceiling has its value on the bar, below the line ($(value_y "$far") vs $(value_y "$at"))"
gap_at=$(awk -v v="$(value_y "$at")" -v c="$(ceiling_y "$at")" 'BEGIN { print v - c }')
gap_sweep=$(awk -v v="$(value_y "$sweep")" -v c="$(ceiling_y "$sweep")" 'BEGIN { print v - c }')
float "$gap_at > 6 && $gap_sweep > 1.5 * $gap_at"
ok $? "a sweep's bar at its ceiling: the label two lines above its value, past its OIO ($gap_sweep px; a plain bar's $gap_at)"
texts | grep -q "^$sweep [0-9.]* OIO 32$"; ok $? "the sweep's bar says its OIO"
svg=$(ls "$TMP"/r2/charts/*-sequential-bars.svg)
like "$(ceiling "$(x "card lanes only")")" '^2 x 3 Gb/s lanes (ceiling )?558 MB/s$' \
	"a card that gives only its own lane rate (3 Gb/s, no drive link) stands under its lanes"
done_testing
