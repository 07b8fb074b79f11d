#!/usr/bin/env bash
# A group's single-point random steps side by side (reports/ranked.lua,
# charts/NN-steps-GROUP; docs/reports.md "Random steps of a group, side by
# side"), read from the chart's data file: a bar a step in the plan's order,
# each labelled with its IOPS and its delta against the group's first step
# of its own run (none on that first bar), one unit a chart (a 64k step in
# MB/s left out of a 4k group's IOPS), bars named by the step alone in a
# report of one run and "RUN: step" in one of two; no such chart for a sweep's
# points, for sequential steps, or for a group left with one bar.
# Simulated: seconds in all.
. "$(dirname "$0")/lib.sh"

DB="$TMP/d.db"
cat >"$TMP/d.lua" <<'EOF'
local plat = hb.set("platform", 1)
hb.plan{ name = "steps side by side", defaults = { engine = "sim", workers = 1, duration = 2, ramp = 0,
         targets = { "sdb", "sdc", "sdd", "sde" }, oio = 128 } }
local function sim(link) return { preset = "sas2308-8ssd", drives = 4, link = link, link_platform = plat } end
hb.run{ name = "4k x8", group = "4k rr", rw = "randread", bs = "4k", sim = sim("pcie3x8") }
hb.run{ name = "4k x1", group = "4k rr", rw = "randread", bs = "4k", sim = sim("pcie2x1") }
hb.run{ name = "4k gen1 x1", group = "4k rr", rw = "randread", bs = "4k", sim = sim("pcie1x1") }
hb.run{ name = "64k x8", group = "4k rr", rw = "randread", bs = "64k", sim = sim("pcie3x8") }
hb.sweep{ base = { name = "sweep rr", rw = "randread", bs = "4k", sim = sim("pcie3x8") }, group = "sweep rr",
          oio = { 4, 32 } }
hb.run{ name = "seq x8", group = "seq", rw = "read", bs = "128k", sim = sim("pcie3x8") }
hb.run{ name = "seq x1", group = "seq", rw = "read", bs = "128k", sim = sim("pcie2x1") }
hb.run{ name = "pair 4k", group = "pair", rw = "randread", bs = "4k", sim = sim("pcie3x8") }
hb.run{ name = "pair 64k", group = "pair", rw = "randread", bs = "64k", sim = sim("pcie3x8") }
EOF
"$HB" run "$TMP/d.lua" --db "$DB" --label one -q 2>>"$TMP/stderr"
ok $? "run one"
# the second run's narrow links at half the rate: its deltas are its own
"$HB" run "$TMP/d.lua" --db "$DB" --label two --set platform=0.5 -q 2>>"$TMP/stderr"
ok $? "run two"
"$HB" report one --format svg --out "$TMP/r1" --db "$DB" >/dev/null 2>>"$TMP/stderr"
ok $? "a report of run one"
"$HB" report one two --format svg --out "$TMP/r2" --db "$DB" >/dev/null 2>>"$TMP/stderr"
ok $? "a report of both"

# rows TSV: "run|value|label|tic" a bar, top to bottom (its series' run)
rows() {
	awk -F'\t' '/^# series / { r = $0; sub(/^# series [0-9]+: /, "", r); sub(/ \[simulated\]$/, "", r) }
	            /^[0-9]/ { print r "|" $2 "|" $3 "|" $4 }' "$1"
}
# check ROWS: each bar's label is its value in IOPS, then its delta against
# the first bar of its run ("+3.2 %", "−53.6 %", "±0.0 %"; none on the
# first): prints each bar whose label is not that
check() {
	perl -CSD -ne 'chomp; my ($r, $v, $l) = split /\|/; my $n = sprintf "%.0f", $v; 1 while $n =~ s/^(\d+)(\d{3})/$1,$2/;
		my $want = "$n IOPS";
		if (defined $first{$r}) { my $d = sprintf "%+.1f %%", ($v / $first{$r} - 1) * 100;
			$d =~ s/^[-+](0\.0 %)$/\x{b1}$1/; $d =~ s/^-/\x{2212}/; $want .= "  $d" }
		else { $first{$r} = $v }
		print "$l (want $want)\n" if $l ne $want' <<<"$1"
}
list() { (cd "$1/charts" && ls -- *.tsv) | sed 's/^[0-9]*-//; s/\.tsv$//' | grep '^steps-' | sort | tr '\n' ' '; }

is "$(list "$TMP/r1")" "steps-4k-rr " "one run: a chart for the 4k group alone (not the sweep, the sequential steps, a group of one bar)"
r1=$(rows "$TMP"/r1/charts/*-steps-4k-rr.tsv)
is "$(cut -d'|' -f4 <<<"$r1" | tr '\n' ';')" "4k x8;4k x1;4k gen1 x1;" \
	"its bars in the plan's order, named by the step, the 64k step's MB/s left out"
is "$(check "$r1")" "" "each labelled with its IOPS and its delta against the group's first step"

is "$(list "$TMP/r2")" "steps-4k-rr steps-pair " "two runs: the same chart, and the pair's 4k step run by run"
r2=$(rows "$TMP"/r2/charts/*-steps-4k-rr.tsv)
is "$(cut -d'|' -f4 <<<"$r2" | tr '\n' ';')" "one: 4k x8;two: 4k x8;one: 4k x1;two: 4k x1;one: 4k gen1 x1;two: 4k gen1 x1;" \
	"a bar a step and run, named 'RUN: step'"
is "$(check "$r2")" "" "each run's deltas against its own first step"
is "$(cut -d'|' -f1 <<<"$r2" | sort -u | tr '\n' ' ')" "one two " "both runs' bars"
done_testing
