#!/usr/bin/env bash
# The simulated examples reproduce what they promise: slot-width.lua the
# published shape of an 8-SSD HBA in three slots, raid-suite.lua a RAID0 vs
# RAID5 suite that reaches steady state with every second stored.
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
is "$(q "$DB" "SELECT count(*) FROM steps s WHERE run_id = $run AND kind != 'exec' AND window_s != (SELECT count(*) FROM samples WHERE step_id = s.id AND ramp = 0)")" 0 \
	"every second of every step is stored"
is "$(q "$DB" "SELECT sum(duration_s) = (SELECT count(*) FROM samples sa JOIN steps st ON st.id = sa.step_id WHERE st.run_id = $run AND st.passes IS NULL) FROM steps WHERE run_id = $run AND passes IS NULL")" 1 \
	"the timed steps stored exactly their durations in samples"
ratio=$(q "$DB" "SELECT (SELECT mean FROM steady_state WHERE run_id = $run AND name LIKE 'raid5%') / (SELECT mean FROM steady_state WHERE run_id = $run AND name LIKE 'raid0%')")
within "$ratio" 0.06 0.1
ok $? "RAID5 steady 4k writes are bound by the card's parity path: $ratio of RAID0's (reference 003: 45,639 / 578,287 = 0.079)"
done_testing
