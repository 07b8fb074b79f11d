#!/usr/bin/env bash
# The simulated examples reproduce what they promise: slot-width.lua the
# published shape of an 8-SSD HBA in three slots, raid-suite.lua a RAID0 vs
# RAID5 suite that reaches steady state with every second stored,
# compare-cards.lua reference 003's two cards, one run each, step for step.
. "$(dirname "$0")/lib.sh"

DB="$TMP/ex.db"
"$HB" run "$ROOT/examples/slot-width.lua" --db "$DB" -q 2>/dev/null; ok $? "examples/slot-width.lua runs"
gbs() { q "$DB" "SELECT mbps / 1000 FROM steps WHERE name = '1M sequential read, $1'"; }
iops() { q "$DB" "SELECT iops FROM steps WHERE name = '4k random read, $1'"; }
within() { awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v >= lo && v <= hi) }'; }
within "$(gbs pcie3x8)" 4.1 4.4; ok $? "PCIe3 x8: $(gbs pcie3x8) GB/s, drive-bound (published 4.1-4.4)"
within "$(gbs pcie3x4)" 2.8 3.1; ok $? "PCIe3 x4: $(gbs pcie3x4) GB/s, bus-bound (published near 3.0)"
within "$(gbs pcie2x8)" 2.6 2.9; ok $? "PCIe2 x8: $(gbs pcie2x8) GB/s, bus-bound (published 2.58-2.9)"
within "$(awk -v a="$(iops pcie3x8)" -v b="$(iops pcie3x4)" 'BEGIN { print b / a }')" 0.99 1.01
ok $? "4k IOPS unchanged between x8 ($(iops pcie3x8)) and x4 ($(iops pcie3x4))"
within "$(iops pcie3x8)" 340000 380000; ok $? "4k IOPS near the published 361,000-364,000"
is "$(q "$DB" "SELECT count(*) FROM samples")" 900 "6 steps x 150 s: every second stored"

"$HB" run "$ROOT/examples/raid-suite.lua" --db "$DB" -q 2>/dev/null; ok $? "examples/raid-suite.lua runs"
run=$(q "$DB" "SELECT max(id) FROM runs")
is "$(q "$DB" "SELECT group_concat(name || ':' || attained, ' ') FROM steady_state WHERE run_id = $run")" \
	"raid0 4k random write:1 raid5 4k random write:1" "steady state is attained for both layouts"
is "$(q "$DB" "SELECT count(*) FROM steps s WHERE run_id = $run AND kind != 'exec' AND abs(window_s - (SELECT sum(secs) FROM samples WHERE step_id = s.id AND ramp = 0)) > 1e-9")" 0 \
	"every second of every step is stored (the window is their secs, summed)"
is "$(q "$DB" "SELECT sum(duration_s) = (SELECT count(*) FROM samples sa JOIN steps st ON st.id = sa.step_id WHERE st.run_id = $run AND st.passes IS NULL) FROM steps WHERE run_id = $run AND passes IS NULL")" 1 \
	"the timed steps stored exactly their durations in samples"
ratio=$(q "$DB" "SELECT (SELECT mean FROM steady_state WHERE run_id = $run AND name LIKE 'raid5%') / (SELECT mean FROM steady_state WHERE run_id = $run AND name LIKE 'raid0%')")
within "$ratio" 0.06 0.1
ok $? "RAID5 steady 4k writes are bound by the card's parity path: $ratio of RAID0's (reference 003: 45,639 / 578,287 = 0.079)"

for c in lsi3108-8sas:9361-8i asr8885-8sas:ASR-8885; do
	"$HB" run "$ROOT/examples/compare-cards.lua" --set card="${c%%:*}" --label "${c#*:}" --db "$DB" -q 2>/dev/null
	ok $? "examples/compare-cards.lua runs the ${c#*:} (${c%%:*})"
done
lsi=$(q "$DB" "SELECT id FROM runs WHERE label = '9361-8i'") asr=$(q "$DB" "SELECT id FROM runs WHERE label = 'ASR-8885'")
is "$(q "$DB" "SELECT group_concat(n) FROM (SELECT count(*) AS n FROM steps WHERE run_id IN ($lsi, $asr) GROUP BY run_id)")" "106,106" \
	"106 steps a card: per layout a preconditioning, 16 OIO points, 11 mixes, 24 profile points, 1M reads"
key="kind || '|' || ifnull(group_name, '') || '|' || ifnull(axis, '') || '|' || ifnull(axis_value, '')"
is "$(q "$DB" "SELECT count(DISTINCT $key) FROM steps WHERE run_id = $lsi")" 106 "no two steps of a run share kind, group, axis and value"
is "$(q "$DB" "SELECT count(*) FROM steps a WHERE a.run_id = $lsi AND ($key) NOT IN (SELECT $key FROM steps WHERE run_id = $asr)")" 0 \
	"so every step of one card pairs with the other's"
is "$(q "$DB" "SELECT group_concat(group_name || ' ' || axis || ' ' || v, ', ') FROM (SELECT group_name, axis, group_concat(CAST(axis_value AS INT), '/') AS v FROM steps WHERE run_id = $asr AND group_name LIKE 'RAID5 4k%' GROUP BY group_name ORDER BY min(id))")" \
	"RAID5 4k random read oio 2/4/8/16/32/64/128/256, RAID5 4k random write oio 2/4/8/16/32/64/128/256, RAID5 4k write mix write_pct 0/10/20/30/40/50/60/70/80/90/100" \
	"the sweep groups name their axis and values, not the card"
is "$(q "$DB" "SELECT group_concat(n) FROM (SELECT count(*) AS n FROM samples sa JOIN steps s ON s.id = sa.step_id WHERE s.run_id = $lsi AND s.kind = 'precondition' GROUP BY s.id)")" "60,60" \
	"each preconditioning stores its 60 seconds"
first=$(q "$DB" "SELECT avg(sa.write_ops) FROM samples sa JOIN steps s ON s.id = sa.step_id WHERE s.run_id = $lsi AND s.name LIKE 'RAID0 4k random write precond%' AND t < 5")
last=$(q "$DB" "SELECT avg(sa.write_ops) FROM samples sa JOIN steps s ON s.id = sa.step_id WHERE s.run_id = $lsi AND s.name LIKE 'RAID0 4k random write precond%' AND t >= 55")
within "$(awk -v f="$first" -v l="$last" 'BEGIN { print f / l }')" 1.1 9
ok $? "the 9361-8i's RAID0 preconditioning descends to steady state ($(printf '%.0f' "$first") -> $(printf '%.0f' "$last") IOPS)"
at256() { q "$DB" "SELECT s.iops FROM steps s JOIN runs r ON r.id = s.run_id WHERE r.label = '$1' AND s.group_name = '$2' AND s.axis_value = 256"; }
for f in "9361-8i:RAID0 4k random read:557037" "ASR-8885:RAID0 4k random read:685760" \
	 "9361-8i:RAID0 4k random write:578287" "ASR-8885:RAID0 4k random write:535766" \
	 "9361-8i:RAID5 4k random write:45639" "ASR-8885:RAID5 4k random write:22929"; do
	IFS=: read -r label group want <<<"$f"
	got=$(at256 "$label" "$group")
	within "$(awk -v g="$got" -v w="$want" 'BEGIN { print g / w }')" 0.85 1.15
	ok $? "$label, $group at OIO 256: $(printf '%.0f' "$got") IOPS, reference 003: $want"
done
done_testing
