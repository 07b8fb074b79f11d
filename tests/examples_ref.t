#!/usr/bin/env bash
# The reference examples run their review's tests on its presets and land
# done, and their reports have the review's chart kinds: reference-003.lua
# (per card OIO curves of IOPS and latency, write-mix sweeps, 128k sequential
# bars, server profiles, the preconditioning), reference-000.lua (the slot
# and link bars, each under its slot's link or its drives' lanes),
# reference-001.lua (the two cards over one SAS SSD: each bar under its
# card's lane), reference-004.lua (two cards a step: the bars' ceiling is
# both links'). Shortened with --set; the figures are tests/simcal.t's.
. "$(dirname "$0")/lib.sh"

DB="$TMP/ref.db"
# charts DIR: the report's chart names, numbers left off, one a line
charts() { (cd "$1/charts" && ls -- *.svg) | sed 's/^[0-9]*-//; s/\.svg$//' | sort; }
# has LIST NAME...: every NAME is a chart of LIST
has() {
	local list=$1 missing=
	shift
	for c in "$@"; do grep -qx -- "$c" <<<"$list" || missing="$missing $c"; done
	[ -z "$missing" ] || diag "missing:$missing"
	[ -z "$missing" ]
}
status() { q "$DB" "SELECT status || ' ' || (SELECT count(*) FROM steps WHERE run_id = r.id) || '/' || steps_planned FROM runs r WHERE label = '$1'"; }

# --- reference 003: one run a card, RAID5 only, 2 s a point (at 1 s the 40 ms of
# a RAID5 128k write at OIO 256 are 4 % of the window: Little's law needs more) ---
short="--set layouts=raid5 --set seconds=2 --set precondition=5"
for c in lsi3108-8sas:9361-8i asr8885-8sas:ASR-8885; do
	# shellcheck disable=SC2086
	"$HB" run "$ROOT/examples/reference-003.lua" --set card="${c%%:*}" $short --label "${c#*:}" \
		--db "$DB" -q 2>>"$TMP/stderr"
	ok $? "examples/reference-003.lua runs the ${c#*:} (${c%%:*})"
	# 1 preconditioning, 4 random and 2 sequential sweeps of 8, 3 mixes of 11, 3 profiles of 6
	is "$(status "${c#*:}")" "done 100/100" "it lands done with every step of its plan"
done
"$HB" report 9361-8i ASR-8885 --format svg --out "$TMP/r003" --db "$DB" >/dev/null 2>>"$TMP/stderr"
ok $? "hbatest report 9361-8i ASR-8885"
list=$(charts "$TMP/r003")
for rw in "4k random read" "4k random write" "8k random read" "8k random write"; do
	g="raid5-${rw// /-}"
	has "$list" "oio-$g" "oio-$g-latency" "iops-latency-$g"
	ok $? "RAID5 $rw: IOPS and latency over OIO, one line a card"
done
for g in 128k-sequential-read 128k-sequential-write; do
	has "$list" "oio-raid5-$g" "oio-raid5-$g-latency"; ok $? "RAID5 ${g//-/ }: its OIO curves"
done
has "$list" sequential-bars; ok $? "the 128k sequential bars"
is "$(grep -c 'RAID5 128k sequential' "$TMP"/r003/charts/*-sequential-bars.tsv)" 4 \
	"with a bar a card for 128k reads and writes"
for bs in 4k 8k 128k; do
	has "$list" "write-pct-raid5-$bs-write-mix" "write-pct-raid5-$bs-write-mix-latency"
	ok $? "the RAID5 $bs write-mix sweep, IOPS and latency over write %"
done
for p in oltp webserver email; do
	has "$list" "oio-raid5-$p" "oio-raid5-$p-latency"; ok $? "the $p server profile over OIO"
done
has "$list" precondition-raid5-4k-random-write-preconditioning
ok $? "the preconditioning, both cards on one chart"
# headline GROUP RUN: the page's headline for GROUP names RUN as the leader at OIO 256
headline() { grep -Eq "$1</a>: <span class=\"who\"><span [^>]*></span><b>$2</b></span> leads at OIO 256" "$TMP/r003/index.html"; }
headline "RAID5 4k random read" ASR-8885; ok $? "the headlines name the leader at a point: the ASR-8885's 4k reads"
headline "RAID5 4k random write" 9361-8i; ok $? "and the 9361-8i's 4k writes"

# Little's law at every step of both cards: mixes, size mixes, RAID5 writes
little="abs(iops * lat_mean_us / 1e6 - oio) <= 0.02 * oio"
is "$(q "$DB" "SELECT sum($little) || ' of ' || count(*) FROM steps s JOIN runs r ON r.id = s.run_id WHERE r.label IN ('9361-8i', 'ASR-8885')")" \
	"200 of 200" "IOPS x mean latency = OIO within 2 % at every step of both cards (Little's law)"

# --- raid-suite.lua, the sim's speed benchmark (docs/benchmarks.md): -------------
# deterministic and Little's law at every step (its speed is measured there,
# not tested: no timing thresholds)
for i in 1 2; do
	"$HB" run "$ROOT/examples/raid-suite.lua" --db "$TMP/suite$i.db" -q 2>>"$TMP/stderr"
	ok $? "examples/raid-suite.lua runs (run $i)"
done
every="SELECT group_concat(s.name || ':' || sa.t || ':' || sa.read_ops || ':' || sa.write_ops || ':' || sa.read_bytes || ':' ||
	ifnull(sa.read_lat_p99_us, '') || ':' || ifnull(sa.write_lat_mean_us, ''), ' ') FROM samples sa JOIN steps s ON s.id = sa.step_id"
a=$(q "$TMP/suite1.db" "$every") b=$(q "$TMP/suite2.db" "$every")
[ -n "$a" ] && [ "$a" = "$b" ]; ok $? "two runs store the same seconds, to the last figure ($(wc -w <<<"$a") of them)"
totals="SELECT group_concat(name || ':' || iops || ':' || lat_mean_us || ':' || lat_p99_us, ' ') FROM steps"
is "$(q "$TMP/suite2.db" "$totals")" "$(q "$TMP/suite1.db" "$totals")" "and the same step totals"
is "$(q "$TMP/suite1.db" "SELECT sum($little) || ' of ' || count(*) FROM steps")" "20 of 20" \
	"IOPS x mean latency = OIO within 2 % at every step (Little's law)"

# --- reference 000: one run, five slots, 5 s a test -------------------------------
"$HB" run "$ROOT/examples/reference-000.lua" --set seconds=5 --set ramp=1 --label ref000 --db "$DB" -q \
	2>>"$TMP/stderr"
ok $? "examples/reference-000.lua runs"
is "$(status ref000)" "done 9/9" "it lands done: 6 sequential and 3 random steps"
"$HB" report ref000 --format svg --out "$TMP/r000" --db "$DB" >/dev/null 2>>"$TMP/stderr"
ok $? "hbatest report ref000"
list=$(charts "$TMP/r000")
has "$list" sequential-bars; ok $? "the slot and link bars"
tsv=$(ls "$TMP"/r000/charts/*-sequential-bars.tsv)
# columns: cluster, MB/s, step, ceiling MB/s, its label
ceiling() { awk -F'\t' -v s="$1" '$3 ~ s { print $4 "|" $5 }' "$tsv"; }
like "$(ceiling 'PCIe3 x8, Xeon E5$')" '^4464\|8 x 6 Gb/s lanes (ceiling )?4,464( MB/s)?$' \
	"PCIe3 x8: the 8 SATA drives' 6 Gb/s lanes carry less than the link (the review's 550 MB/s a drive)"
like "$(ceiling 'PCIe3 x4')" '^3938\.[0-9]*\|PCIe3 x4 (ceiling )?3,938( MB/s)?$' "PCIe3 x4: the link carries less"
# overlaps SVG: each ceiling label ("PCIe3 x4 3,938 MB/s", "6 Gb/s lane 558"; "no
# ceiling label" when it finds none) within a line (PX, 13 px by default: the
# labels' font at 1280x720) of a bar's value ("4,321") at the same x, one a line
overlaps() {
	awk -v px="${2:-13}" '/<g transform="translate\(/ { split($0, a, /[(,)]/); x = a[2]; y = a[3] }
	     /<text>/ { t = $0; sub(/.*<text>/, "", t); sub(/<\/text>.*/, "", t)
	                if (t ~ /^([0-9]+ x )?(PCIe|[0-9.]+ Gb\/s lane)|^[0-9]+x[0-9.]+G lane/) { cx[++nc] = x; cy[nc] = y; ct[nc] = t }
	                else if (t ~ /^[0-9][0-9,.]*$/) { vx[++nv] = x; vy[nv] = y } }
	     END { if (nc == 0) print "no ceiling label"
	           for (i = 1; i <= nc; i++) for (j = 1; j <= nv; j++)
	             if (cx[i] == vx[j] && cy[i] - vy[j] < px && vy[j] - cy[i] < px) print ct[i] }' "$1"
}
is "$(overlaps "$(ls "$TMP"/r000/charts/*-sequential-bars.svg)")" "" \
	"a ceiling's label stands clear of the value of a bar that nearly reaches it"
# the lanes' label (27 characters) is wider than a bar of six (25): it and, so that the
# chart reads as one, every other label drop their unit
is "$(awk -F'\t' '!/^#/ && NF > 4 && $5 != "" { print $5 }' "$tsv" | sort -u | tr '\n' '|')" \
	"8 x 6 Gb/s lanes 4,464|PCIe2 x4 2,000|PCIe2 x8 4,000|PCIe3 x4 3,938|" \
	"every ceiling label of ref000's bars in the form its widest needs"
"$HB" report ref000 --size 800x450 --format svg --out "$TMP/r000s" --db "$DB" >/dev/null 2>>"$TMP/stderr"
is "$(awk -F'\t' '!/^#/ && NF > 4 && $5 != "" { print $5 }' "$TMP"/r000s/charts/*-sequential-bars.tsv | sort -u | tr '\n' '|')" \
	"8x6G lanes 4,464|PCIe2 x4 2,000|PCIe2 x8 4,000|PCIe3 x4 3,938|" \
	"at 800x450 (a bar 20 characters wide) the lanes' label in its compact form, 16 characters"
# (its font 13 x sqrt(0.625) = 10.3 px: a line's share of a 450 px axis is not 720's)
is "$(overlaps "$(ls "$TMP"/r000s/charts/*-sequential-bars.svg)" 10)" "" "and a line above the bars' values"
for slot in "PCIe3 x8, Xeon E5" "PCIe3 x4" "PCIe2 x8, Opteron 6172" "PCIe2 x8, Xeon E5 forced" "PCIe2 x4"; do
	grep -q "1M sequential read, $slot" "$tsv"; ok $? "a bar for $slot"
done
mbps() { q "$DB" "SELECT round(s.mbps) FROM steps s JOIN runs r ON r.id = s.run_id WHERE r.label = 'ref000' AND s.name = '1M sequential read, $1'"; }
a=$(mbps "PCIe2 x8, Opteron 6172") b=$(mbps "PCIe2 x8, Xeon E5 forced to PCIe2")
within() { awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v >= lo && v <= hi) }'; }
within "$a" 2450 2710; ok $? "the Opteron's PCIe2 x8: $a MB/s (the review's 2,580)"
within "$b" 2750 3050; ok $? "a Xeon E5 forced to PCIe2: $b MB/s (the review's 2,900)"
r=$(awk -v a="$(mbps "PCIe3 x8, Xeon E5, 32 workers")" -v b="$(mbps "PCIe3 x8, Xeon E5")" 'BEGIN { print a / b }')
within "$r" 0.97 1.03; ok $? "32 workers read as fast as 4 ($r x; the review's torture test)"
is "$(grep -c 'targets-4k-random-read' <<<"$list")" 3 "the 4k random reads' per-drive bars, one a slot"
# the review's 4k IOPS per slot (361,000, 364,000, 343,000): the group's steps side by side
tsv=$(ls "$TMP"/r000/charts/*-steps-4k-random-read.tsv 2>/dev/null)
is "$(awk -F'\t' '!/^#/ && NF == 4 { print $1 ": " $4 }' "${tsv:-/dev/null}")" \
	"$(printf '3: 4k random read, PCIe3 x8, Xeon E5\n2: 4k random read, PCIe3 x4, Xeon E5\n1: 4k random read, PCIe2 x8, Opteron 6172')" \
	"the 4k random reads of the three slots side by side, a bar a slot in the plan's order"

# --- reference 001: one SAS SSD on two cards; each bar under its card's lane -----
for c in sas3008-1sas:9300-4i4e sas2308-1sas:9207-8i; do
	"$HB" run "$ROOT/examples/reference-001.lua" --set card="${c%%:*}" --set seconds=2 --label "${c#*:}" \
		--db "$DB" -q 2>>"$TMP/stderr"
	ok $? "examples/reference-001.lua runs the ${c#*:} (${c%%:*})"
done
"$HB" report 9300-4i4e 9207-8i --format svg --out "$TMP/r001" --db "$DB" >/dev/null 2>>"$TMP/stderr"
ok $? "hbatest report 9300-4i4e 9207-8i"
tsv=$(ls "$TMP"/r001/charts/*-sequential-bars.tsv)
is "$(awk -F'\t' '$3 == "128k sequential read" { print $4 "|" $5 }' "$tsv")" \
	"$(printf '1116|1 x 12 Gb/s lane 1,116 MB/s\n558|1 x 6 Gb/s lane 558 MB/s')" \
	"the 9300-4i4e's bar under its 12 Gb/s lane, the 9207-8i's under its 6 Gb/s one (not both under PCIe3 x8)"
grep -q "ceiling, its PCIe link or its drives" "$TMP"/r001/charts/*-sequential-bars.gp
ok $? "and its title says so"
is "$(overlaps "$(ls "$TMP"/r001/charts/*-sequential-bars.svg)")" "" \
	"the lanes' labels stand clear of the values of the bars at them (1,116 and 558)"
# at 800 px a bar is 17 of the labels' characters wide: a lane's label drops "ceiling",
# then its unit (the axis's) and a single lane's "1 x", so it stays over its own bar
"$HB" report 9300-4i4e 9207-8i --size 800x450 --format svg --out "$TMP/r001s" --db "$DB" >/dev/null 2>>"$TMP/stderr"
is "$(awk -F'\t' '$3 ~ /^128k sequential/ && $5 != "" { print $5 }' "$TMP"/r001s/charts/*-sequential-bars.tsv | sort -u | tr '\n' '|')" \
	"12 Gb/s lane 1,116|6 Gb/s lane 558|" "at 800x450 the lanes' labels in their shortest form, no wider than their bars"

# --- reference 004: two cards a step; a pair's bar stands under both links -------
"$HB" run "$ROOT/examples/reference-004.lua" --set seconds=2 --label ref004 --db "$DB" -q 2>>"$TMP/stderr"
ok $? "examples/reference-004.lua runs"
"$HB" report ref004 --format svg --out "$TMP/r004" --db "$DB" >/dev/null 2>>"$TMP/stderr"
ok $? "hbatest report ref004"
tsv=$(ls "$TMP"/r004/charts/*-sequential-bars.tsv)
like "$(ceiling 'one X25-E')" '^279\|1 x 3 Gb/s lane (ceiling )?279 MB/s$' \
	"one drive on one card: its 3 Gb/s lane, which carries less than the card's PCIe2 x8"
# (a label wider than its bar leaves out the word "ceiling")
like "$(ceiling 'Adaptec 5808 pair')" '^4000\|2 x PCIe1 x8 (ceiling )?4,000 MB/s$' \
	"two cards on PCIe1 x8: the sum of both links (2 x 2,000 MB/s), named so"
like "$(ceiling 'LSI 9260-8i pair')" '^4464\|16 x 3 Gb/s lanes (ceiling )?4,464 MB/s$' \
	"two cards on PCIe2 x8 (8,000 MB/s) with 8 X25-E each on 3 Gb/s lanes: the 16 lanes, 2 x 2,232 MB/s"
# bar|ceiling of a step: the bar under it
under() { awk -F'\t' -v s="$1" '$3 ~ s && $2 != "NaN" { print ($2 <= $4) ? "under" : $2 " over " $4 }' "$tsv"; }
is "$(under 'LSI 9210-8i pair') $(under 'LSI 9260-8i pair') $(under 'Adaptec 5808 pair')" "under under under" \
	"each pair's bar stands under its ceiling (the review's 3,400 and 2,200 MB/s)"
# seq_step LABEL DRIVES SIM DESCRIPTION: one 128k sequential read step ("step LABEL")
# on DRIVES simulated drives with sim options SIM, run and reported; tsv its bars
seq_step() {
	printf 'local t = {}\nfor i = 1, %d do t[i] = "d" .. i end\nhb.run{ name = "step %s", engine = "sim", rw = "read", bs = "128k", oio = 64, targets = t, duration = 1, ramp = 0, sim = %s }\n' \
		"$2" "$1" "$3" > "$TMP/$1.lua"
	"$HB" run "$TMP/$1.lua" --label "$1" --db "$DB" -q 2>>"$TMP/stderr" &&
		"$HB" report "$1" --format svg --out "$TMP/$1" --db "$DB" >/dev/null 2>>"$TMP/stderr"
	ok $? "$4, and its report"
	tsv=$(ls "$TMP/$1"/charts/*-sequential-bars.tsv)
}
# cards on different links (docs/engines.md's example): each named, summed
seq_step two 16 '{ cards = { "sas2308-8ssd", { preset = "sas2308-8ssd", link = "pcie2x4" } } }' \
	"a step on cards with PCIe3 x8 and PCIe2 x4 links"
like "$(ceiling 'step two')" '^6464\|8 x 6 Gb/s lanes \+ PCIe2 x4 (ceiling )?6,464 MB/s$' \
	"its ceiling: the first card's 8 SATA lanes (4,464 MB/s, under its PCIe3 x8) + the second's PCIe2 x4 (2,000), each named"
is "$(under 'step two')" under "and its bar under it"
# wide ports behind an expander carry less than the drives' lanes: 8 drives on 1 x 2-lane 6 Gb/s port
seq_step port 8 '{ preset = "sas2308-8ssd", sas_ports = 1, sas_port_lanes = 2 }' \
	"a step on 8 drives behind one 2-lane wide port"
like "$(ceiling 'step port')" '^1116\|1 x 2-lane 6 Gb/s port (ceiling )?1,116 MB/s$' \
	"its ceiling: the port's 2 x 558 MB/s, not the drives' 8 lanes (4,464) nor the link"
is "$(under 'step port')" under "and its bar under it"
done_testing
