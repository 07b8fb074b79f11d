#!/usr/bin/env bash
# The sim presets of reference 003's two cards (lsi3108-8sas: the MegaRAID
# 9361-8i; asr8885-8sas: the Adaptec ASR-8885) give every figure of the
# review's 4k sections within 15 % (the table in docs/engines.md,
# "Calibration of the presets"), and the shapes its text describes: where
# each card scales, peaks and falls.
. "$(dirname "$0")/lib.sh"

DB="$TMP/simcal.db"
# Drives shrunk to 4 GB: a 2x fill and 30 s of 4k random writes at OIO 256
# leave the wear of the review's 9,000 s on 400 GB drives (in capacities
# written); then the 4k OIO sweeps, 5 s a point.
cat > "$TMP/cal.lua" <<'LUA'
hb.plan{ name = "calibration", defaults = { engine = "sim", workers = 1, targets = { "vol" },
                                             duration = 5 } }
local card = hb.set("card", "lsi3108-8sas")
for _, layout in ipairs{ "raid0", "raid5" } do
  local sim = { preset = card, layout = layout, drive_capacity = "4g",
                ctrl_qd_knee = hb.set("knee", nil) }
  hb.precondition{ name = layout .. " fill", passes = 2, sim = sim }
  hb.precondition{ name = layout .. " 4k random write", duration = 30, rw = "randwrite",
                   bs = "4k", oio = 256, sim = sim }
  for _, rw in ipairs{ "randread", "randwrite" } do
    hb.sweep{ base = { rw = rw, bs = "4k", sim = sim }, group = layout .. " 4k " .. rw,
              oio = { 2, 4, 8, 16, 32, 64, 128, 256 } }
  end
end
-- the write mix at OIO 256: the review's latencies (under 6 ms, 15.43 ms) are
-- 256 over its IOPS, and its 9361-8i trails in pure reads only from OIO 128
hb.sweep{ base = { rw = "randrw", bs = "4k", oio = 256, sim = { preset = card, layout = "raid5",
                   drive_capacity = "4g", ctrl_qd_knee = hb.set("knee", nil) } },
          group = "raid5 4k write mix", write_pct = { 0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100 } }
LUA
for card in lsi3108-8sas asr8885-8sas; do
	"$HB" run "$TMP/cal.lua" --set card="$card" --label "$card" --db "$DB" -q 2>>"$TMP/stderr"
	ok $? "$card: the 4k OIO sweeps of reference 003, RAID0 and RAID5"
done

# value CARD GROUP OIO [COLUMN]
value() {
	q "$DB" "SELECT ${4:-iops} FROM steps s JOIN runs r ON r.id = s.run_id WHERE r.label = '$1' AND s.group_name = '$2' AND s.oio = $3"
}
# near CARD GROUP OIO REVIEW: within 15 % of the review's figure
near() {
	local v r
	v=$(value "$1" "$2" "$3")
	r=$(awk -v v="$v" -v w="$4" 'BEGIN { printf "%.3f", v / w }')
	awk -v r="$r" 'BEGIN { exit !(r >= 0.85 && r <= 1.15) }'
	ok $? "$1 $2 at OIO $3: $(printf '%.0f' "$v") IOPS, review $4 (ratio $r)"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }
within() { awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v >= lo && v <= hi) }'; }

LSI=lsi3108-8sas ASR=asr8885-8sas
# --- every figure of the 4k sections -----------------------------------------------
for layout in raid0 raid5; do
	near $LSI "$layout 4k randread" 256 557037
	near $ASR "$layout 4k randread" 256 685760
done
near $LSI "raid0 4k randwrite" 256 578287
near $ASR "raid0 4k randwrite" 256 535766
near $LSI "raid5 4k randwrite" 128 48554
near $LSI "raid5 4k randwrite" 256 45639
near $ASR "raid5 4k randwrite" 32 31057
near $ASR "raid5 4k randwrite" 256 22929

# --- the shapes its text describes ---------------------------------------------------
r=$(ratio "$(value $LSI "raid0 4k randread" 64)" "$(value $ASR "raid0 4k randread" 64)")
within "$r" 1.7 2.1; ok $? "RAID0 4k read at OIO 64: the 9361-8i does $r x the ASR-8885 (\"nearly doubling\")"
lat=$(value $LSI "raid0 4k randread" 64 lat_mean_us)
within "$lat" 0 150; ok $? "the 9361-8i's read latency is below 0.15 ms up to OIO 64 ($(printf "%.0f" "$lat") us)"
a=$(value $ASR "raid0 4k randread" 128 lat_mean_us) l=$(value $LSI "raid0 4k randread" 128 lat_mean_us)
within "$(ratio "$a" "$l")" 0 0.999; ok $? "the ASR-8885 has the lower read latency at OIO 128 ($(printf "%.0f vs %.0f" "$a" "$l") us)"
best() { q "$DB" "SELECT s.oio FROM steps s JOIN runs r ON r.id = s.run_id WHERE r.label = '$1' AND s.group_name = '$2' ORDER BY s.iops DESC, s.oio DESC LIMIT 1"; }
peak() { q "$DB" "SELECT max(s.iops) FROM steps s JOIN runs r ON r.id = s.run_id WHERE r.label = '$1' AND s.group_name = '$2'"; }
within "$(ratio "$(value $LSI "raid0 4k randwrite" 256)" "$(peak $LSI "raid0 4k randwrite")")" 0.99 1.01
ok $? "the 9361-8i's RAID0 4k writes peak at OIO 256 (\"a maximum speed of 578,287\")"
within "$(ratio "$(value $ASR "raid5 4k randwrite" 32)" "$(peak $ASR "raid5 4k randwrite")")" 0.999 1.001
ok $? "the ASR-8885's RAID5 4k writes peak at OIO 32 (best at OIO $(best $ASR "raid5 4k randwrite"))"
r=$(ratio "$(value $ASR "raid5 4k randwrite" 256)" "$(value $ASR "raid5 4k randwrite" 32)")
within "$r" 0 0.8; ok $? "and fall past it, to $r of the peak at OIO 256"
r=$(ratio "$(value $LSI "raid5 4k randwrite" 256)" "$(value $LSI "raid5 4k randwrite" 128)")
within "$r" 0.9 0.98; ok $? "the 9361-8i's fall past OIO 128 is slight ($r)"
r=$(ratio "$(value $ASR "raid5 4k randwrite" 256 lat_mean_us)" "$(value $LSI "raid5 4k randwrite" 256 lat_mean_us)")
within "$r" 1.8 2.2; ok $? "RAID5 4k write latency at OIO 256: the ASR-8885's is $r x the 9361-8i's (\"nearly 2X\")"

# mix CARD PCT [COLUMN]
mix() { q "$DB" "SELECT ${3:-iops} FROM steps s JOIN runs r ON r.id = s.run_id WHERE r.label = '$1' AND s.group_name = 'raid5 4k write mix' AND s.write_pct = $2"; }
ms=$(awk -v l="$(mix $ASR 90 lat_mean_us)" 'BEGIN { printf "%.2f", l / 1000 }')
within "$ms" 13.12 17.74; ok $? "RAID5 4k write mix at OIO 256: the ASR-8885's latency at 90 % writes is $ms ms (review 15.43)"
within "$(ratio "$(mix $ASR 100 lat_mean_us)" "$(mix $ASR 90 lat_mean_us)")" 0 0.95
ok $? "and it tops out there: lower at 100 % writes"
ms=$(q "$DB" "SELECT max(s.lat_mean_us) / 1000 FROM steps s JOIN runs r ON r.id = s.run_id WHERE r.label = '$LSI' AND s.group_name = 'raid5 4k write mix'")
within "$ms" 0 6; ok $? "the 9361-8i's stays under 6 ms at every mix (at most $(printf '%.2f' "$ms") ms)"
wins=$(for p in 10 20 30 40 50 60 70 80 90 100; do ratio "$(mix $LSI $p)" "$(mix $ASR $p)"; echo; done | awk '$1 > 1' | wc -l)
within "$(ratio "$(mix $ASR 0)" "$(mix $LSI 0)")" 1.001 9; ok $? "the ASR-8885 leads the pure reads of the RAID5 mix"
is "$wins" 10 "and the 9361-8i wins the other 10 of 11 mixes"
r=$(ratio "$(mix $ASR 10)" "$(mix $ASR 0)")
within "$r" 0 0.3; ok $? "the ASR-8885's cliff at 10 % writes: $r of its pure-read IOPS"
within "$(ratio "$(value $LSI "raid0 4k randread" 256)" "$(value $ASR "raid0 4k randread" 256)")" 0 0.999
ok $? "RAID0 at OIO 256: the 9361-8i trails in pure reads"
within "$(ratio "$(value $LSI "raid0 4k randwrite" 256)" "$(value $ASR "raid0 4k randwrite" 256)")" 1.001 9
ok $? "and leads in pure writes"

# --- the fall is the controller's queue-depth knee ----------------------------------
"$HB" run "$TMP/cal.lua" --set card=$ASR --set knee=0 --label noknee --db "$DB" -q 2>>"$TMP/stderr"
r=$(ratio "$(value noknee "raid5 4k randwrite" 256)" "$(value noknee "raid5 4k randwrite" 32)")
within "$r" 0.98 1.02; ok $? "with ctrl_qd_knee = 0 the ASR-8885's RAID5 writes stay level past OIO 32 ($r)"
done_testing
