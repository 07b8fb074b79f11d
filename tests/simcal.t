#!/usr/bin/env bash
# Reference 003 (the LSI MegaRAID 9361-8i, preset lsi3108-8sas, against the
# Adaptec ASR-8885, asr8885-8sas, 8 HGST SSD800MH each): every figure its text
# publishes, run on the presets and compared, each with the step that
# reproduces it, its tolerance and what it sets in scripts/sim_presets.lua
# (or "-": a prediction, held to the issue's 15 %); and the shapes its text
# describes: who leads at a point, where a curve peaks or falls. Figures and
# shapes the model does not reproduce are TAP TODO lines with the reason.
# The table: docs/calibration.md.
. "$(dirname "$0")/lib.sh"

DB="$TMP/simcal.db"
# Drives shrunk to 4 GB: a 2x fill and 30 s of 4k random writes at OIO 256
# leave the wear of the review's 9,000 s on 400 GB drives (in capacities
# written); then the sweeps, 5 s a point.
cat > "$TMP/cal.lua" <<'LUA'
hb.plan{ name = "calibration", defaults = { engine = "sim", workers = 1, targets = { "vol" },
                                             duration = 5 } }
local card = hb.set("card", "lsi3108-8sas")
local function sim(layout)
  return { preset = card, layout = layout, drive_capacity = "4g", ctrl_qd_knee = hb.set("knee", nil) }
end
for _, layout in ipairs{ "raid0", "raid5" } do
  hb.precondition{ name = layout .. " fill", passes = 2, sim = sim(layout) }
  hb.precondition{ name = layout .. " 4k random write", duration = 30, rw = "randwrite",
                   bs = "4k", oio = 256, sim = sim(layout) }
  for _, bs in ipairs{ "4k", "8k" } do
    for _, rw in ipairs{ "randread", "randwrite" } do
      hb.sweep{ base = { rw = rw, bs = bs, sim = sim(layout) }, group = layout .. " " .. bs .. " " .. rw,
                oio = { 2, 4, 8, 16, 32, 64, 128, 256 } }
    end
  end
  for _, rw in ipairs{ "read", "write" } do
    hb.sweep{ base = { rw = rw, bs = "128k", sim = sim(layout) }, group = layout .. " 128k " .. rw,
              oio = { 8, 32, 256 } }
  end
  for _, profile in ipairs{ "oltp", "webserver", "email" } do
    local base = hb.profile(profile)
    base.sim = sim(layout)
    hb.sweep{ base = base, group = layout .. " " .. profile, oio = { 8, 16, 32, 64, 128, 256 } }
  end
end
-- the write mixes at OIO 256: the review's latencies (under 6 ms, 15.43 ms)
-- are 256 over its IOPS, and its 9361-8i trails in pure reads only from OIO 128
-- (128k: sequential, as the review's 128k page)
for _, mix in ipairs{ { "raid0", "4k" }, { "raid5", "4k" }, { "raid5", "8k" }, { "raid0", "128k" },
                      { "raid5", "128k" } } do
  hb.sweep{ base = { rw = mix[2] == "128k" and "rw" or "randrw", bs = mix[2], oio = 256, sim = sim(mix[1]) },
            group = mix[1] .. " " .. mix[2] .. " write mix",
            write_pct = { 0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100 } }
end
LUA
for card in lsi3108-8sas asr8885-8sas; do
	"$HB" run "$TMP/cal.lua" --set card="$card" --label "$card" --db "$DB" -q 2>>"$TMP/stderr"
	ok $? "$card: reference 003's tests, RAID0 and RAID5"
done

# todo OK DESCRIPTION REASON: a known failure, TAP TODO (an unexpected pass says so)
todo() {
	tap_n=$((tap_n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $tap_n - $2 # TODO $3"; else echo "not ok $tap_n - $2 # TODO $3"; fi
}
# value CARD GROUP KEY [COLUMN]: KEY is oio=N or write_pct=N (then OIO 256)
value() {
	local k=$3
	case $k in *=*) ;; *) k="oio=$k" ;; esac
	q "$DB" "SELECT ${4:-iops} FROM steps s JOIN runs r ON r.id = s.run_id WHERE r.label = '$1' AND s.group_name = '$2' AND s.${k%%=*} = ${k#*=}"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }
within() { awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v >= lo && v <= hi) }'; }
LSI=lsi3108-8sas ASR=asr8885-8sas

# --- every figure of the review's text ----------------------------------------------
# card group (_ for spaces) key review unit tolerance sets [TODO reason]
# The tolerance: 2 % for the 4k figures the presets were first tuned on (all
# within 1.3 %), 5 % for those that set a parameter since, 15 % for
# predictions (the issue's target).
figures=$(cat <<'TABLE'
LSI raid0_4k_randread    oio=256      557037 IOPS  0.02 ctrl_iops
ASR raid0_4k_randread    oio=256      685760 IOPS  0.02 ctrl_iops
LSI raid0_4k_randwrite   oio=256      578287 IOPS  0.02 drive_write_iops_steady,gc_*
ASR raid0_4k_randwrite   oio=256      535766 IOPS  0.02 ctrl_write_iops
LSI raid0_8k_randread    oio=256      511493 IOPS  0.05 ctrl_dma_read_us
ASR raid0_8k_randread    oio=256      535358 IOPS  0.05 ctrl_dma_read_us
LSI raid0_8k_randwrite   oio=256      445752 IOPS  0.05 ctrl_dma_write_us
ASR raid0_8k_randwrite   oio=256      401359 IOPS  0.05 ctrl_dma_write_us
LSI raid0_128k_read      oio=256      5041   MiB/s 0.05 ctrl_readahead_mibps
ASR raid0_128k_read      oio=256      4872   MiB/s 0.05 ctrl_dma_read_mibps
LSI raid0_128k_write     oio=256      4447   MiB/s 0.05 ctrl_dma_write_mibps
ASR raid0_128k_write     oio=256      4344   MiB/s 0.05 ctrl_dma_write_mibps
LSI raid0_oltp           oio=256      431423 IOPS  0.15 -
ASR raid0_oltp           oio=256      438908 IOPS  0.15 -
LSI raid0_webserver      oio=256      354078 IOPS  0.15 -
ASR raid0_webserver      oio=256      309421 IOPS  0.15 -
LSI raid0_email          oio=256      439322 IOPS  0.15 -
ASR raid0_email          oio=256      442410 IOPS  0.15 -
LSI raid5_4k_randread    oio=256      557037 IOPS  0.02 -
ASR raid5_4k_randread    oio=256      685760 IOPS  0.02 -
LSI raid5_4k_randwrite   oio=128      48554  IOPS  0.02 ctrl_parity_iops
LSI raid5_4k_randwrite   oio=256      45639  IOPS  0.02 ctrl_qd_penalty
ASR raid5_4k_randwrite   oio=32       31057  IOPS  0.02 ctrl_parity_iops,ctrl_qd_knee
ASR raid5_4k_randwrite   oio=256      22929  IOPS  0.02 ctrl_qd_penalty
LSI raid5_8k_randread    oio=256      508572 IOPS  0.15 -
ASR raid5_8k_randread    oio=256      538099 IOPS  0.15 -
LSI raid5_8k_randwrite   oio=128      41802  IOPS  0.05 ctrl_parity_us_per_kib
ASR raid5_8k_randwrite   oio=64       29490  IOPS  0.15 -
LSI raid5_128k_read      oio=256      5091   MiB/s 0.15 -
ASR raid5_128k_read      oio=256      4910   MiB/s 0.15 -
LSI raid5_128k_write     oio=256      772    MiB/s 0.05 ctrl_xor_mibps
ASR raid5_128k_write     oio=256      852    MiB/s 0.05 ctrl_xor_mibps
LSI raid5_oltp           oio=128      115916 IOPS  0.15 -
ASR raid5_oltp           oio=32       82492  IOPS  0.15 -
LSI raid5_webserver      oio=256      354291 IOPS  0.15 -
ASR raid5_webserver      oio=256      299309 IOPS  0.15 -
LSI raid5_email          oio=128      74450  IOPS  0.15 -
ASR raid5_email          oio=32       56228  IOPS  0.15 -
ASR raid5_4k_write_mix   write_pct=90 15.43  ms    0.02 ctrl_qd_penalty_mixed
ASR raid5_8k_write_mix   write_pct=90 16     ms    0.15 -
TABLE
)
n=0 n5=0 n15=0
while read -r card group key review unit tol sets rest; do
	case $card in LSI) label=$LSI ;; *) label=$ASR ;; esac
	case $unit in IOPS) col=iops ;; MiB/s) col="mbps / 1.048576" ;; *) col="lat_mean_us / 1000" ;; esac
	v=$(value "$label" "${group//_/ }" "$key" "$col")
	r=$(ratio "$v" "$review")
	n=$((n + 1))
	within "$r" 0.95 1.05 && n5=$((n5 + 1))
	within "$r" 0.85 1.15 && n15=$((n15 + 1))
	within "$r" "$(awk -v t="$tol" 'BEGIN { print 1 - t }')" "$(awk -v t="$tol" 'BEGIN { print 1 + t }')"
	rc=$?
	role="$sets sets it"
	[ "$sets" = - ] && role=predicted
	what="$card ${group//_/ } at $key: $(printf '%.1f' "$v") $unit, review $review (ratio $r, within $(awk -v t="$tol" 'BEGIN { print t * 100 }') %; $role)"
	if [ "${rest%% *}" = TODO ]; then todo "$rc" "$what" "${rest#TODO }"; else ok "$rc" "$what"; fi
done <<<"$figures"
echo "# reference 003: $n figures, $n5 within 5 %, $n15 within 15 %"
within "$n5" "$(awk -v n="$n" 'BEGIN { print 0.8 * n }')" "$n"
ok $? "at least 80 % of them within 5 % ($n5 of $n)"
[ "$n15" -eq "$n" ]; ok $? "all of them within 15 % ($n15 of $n)"
# Which read path: at the profile's mean transfer (as the sim ran it) the
# 9361-8i's web figure moves more bytes than its own 128k sequential reads,
# in the review and in the model (its sequential reads take the read-ahead
# stage, ctrl_readahead_mibps; its random ones the direct path); the
# ASR-8885's moves fewer (one path for both).
for c in "LSI 354078 5041" "ASR 309421 4872"; do
	read -r card web seq <<<"$c"
	case $card in LSI) label=$LSI ;; *) label=$ASR ;; esac
	mean=$(value "$label" "raid0 webserver" 256 "mbps * 1e6 / iops")
	r=$(awk -v w="$web" -v m="$mean" -v s="$seq" 'BEGIN { printf "%.3f", w * m / (s * 1048576) }')
	m=$(ratio "$(value "$label" "raid0 webserver" 256 mbps)" "$(value "$label" "raid0 128k read" 256 mbps)")
	if [ $card = LSI ]; then within "$r" 1.05 9 && within "$m" 1.03 9; else within "$r" 0 0.999 && within "$m" 0 0.999; fi
	ok $? "$card's web server figure at the profile's $(printf '%.0f' "$mean") B a request: $r x its 128k sequential read bytes (the model's: $m)"
done

# --- the shapes its text describes ---------------------------------------------------
# lead WHO GROUP KEY WHY: WHO (LSI or ASR) leads the other there
lead() {
	local a b
	a=$(value $LSI "$2" "$3") b=$(value $ASR "$2" "$3")
	if [ "$1" = LSI ]; then within "$(ratio "$a" "$b")" 1.0005 99; else within "$(ratio "$b" "$a")" 1.0005 99; fi
}
best() { q "$DB" "SELECT s.oio FROM steps s JOIN runs r ON r.id = s.run_id WHERE r.label = '$1' AND s.group_name = '$2' ORDER BY s.iops DESC, s.oio DESC LIMIT 1"; }
peak() { q "$DB" "SELECT max(s.iops) FROM steps s JOIN runs r ON r.id = s.run_id WHERE r.label = '$1' AND s.group_name = '$2'"; }

# RAID0 4k
r=$(ratio "$(value $LSI "raid0 4k randread" 64)" "$(value $ASR "raid0 4k randread" 64)")
within "$r" 1.7 2.1; ok $? "RAID0 4k read at OIO 64: the 9361-8i does $r x the ASR-8885 (\"nearly doubling\")"
lat=$(value $LSI "raid0 4k randread" 64 lat_mean_us)
within "$lat" 0 150; ok $? "the 9361-8i's read latency is below 0.15 ms up to OIO 64 ($(printf "%.0f" "$lat") us)"
a=$(value $ASR "raid0 4k randread" 128 lat_mean_us) l=$(value $LSI "raid0 4k randread" 128 lat_mean_us)
within "$(ratio "$a" "$l")" 0 0.999; ok $? "the ASR-8885 has the lower read latency at OIO 128 ($(printf "%.0f vs %.0f" "$a" "$l") us)"
within "$(ratio "$(value $LSI "raid0 4k randwrite" 256)" "$(peak $LSI "raid0 4k randwrite")")" 0.99 1.01
ok $? "the 9361-8i's RAID0 4k writes peak at OIO 256 (\"a maximum speed of 578,287\")"
lead ASR "raid0 4k write mix" write_pct=0; ok $? "RAID0 4k write mix: the 9361-8i trails in pure reads"
lead LSI "raid0 4k write mix" write_pct=100; ok $? "and leads in pure writes"
# "It trails in pure read workloads but takes the lead in heavier write
# environments": the mixes that are mostly writes, not only the pure ones
for p in 60 70 80 90; do lead LSI "raid0 4k write mix" write_pct=$p; ok $? "and leads the mix of $p % writes (\"heavier write environments\")"; done
# RAID0 8k, 128k
lead ASR "raid0 8k randread" 256; ok $? "RAID0 8k reads at OIO 256: the ASR-8885 \"beats it slightly\""
lead LSI "raid0 8k randwrite" 256; ok $? "RAID0 8k writes at OIO 256: the 9361-8i leads"
lead LSI "raid0 128k read" 256; ok $? "RAID0 128k sequential reads: the 9361-8i \"takes the lead\""
lead LSI "raid0 128k write" 256; ok $? "RAID0 128k sequential writes: the 9361-8i takes \"the slightest of leads\" at OIO 256"
lead LSI "raid0 128k write" 8; ok $? "and \"maintains an advantage at lower OIO\" (8)"
# RAID0 server profiles
# The review's OLTP (67 % reads) runs below its e-mail (50 %) on both cards
# though both read 8k faster than they write it: no controller cost per
# request (the pure costs weighted, plus any cost of switching direction,
# which e-mail pays more often) gives that order; a resource that reads cost
# more on under a mix does, the drives (an SSD's reads wait behind its
# programs), which no published figure sizes, and with the same drives
# behind both cards the four figures (all within 2 % of 437,000) are a tie.
lead ASR "raid0 oltp" 256; todo $? "RAID0 OLTP at OIO 256: the ASR-8885 leads slightly (438,908 vs 431,423)" \
	"the model's mixes are its pure costs weighted (OLTP 1.13x and 1.10x the review); the review's OLTP below its e-mail on both cards is no controller cost: the drives' mixed reads, unpublished, and then a tie"
for o in 8 32 128; do lead LSI "raid0 oltp" $o; ok $? "RAID0 OLTP at OIO $o: the 9361-8i wins (8-128)"; done
r=$(ratio "$(value $LSI "raid0 webserver" 256)" "$(value $ASR "raid0 webserver" 256)")
within "$r" 1.08 9; ok $? "RAID0 web server: the 9361-8i \"leads convincingly\" ($r x the ASR-8885; review 1.144)"
lead ASR "raid0 email" 256; todo $? "RAID0 e-mail at OIO 256: the ASR-8885 \"squeaks past\" (442,410 vs 439,322)" \
	"as OLTP: a 0.7 % lead among four figures within 2 % of each other, drive-bound in the review"
for o in 8 32 128; do lead LSI "raid0 email" $o; ok $? "RAID0 e-mail at OIO $o: the 9361-8i leads (8-128)"; done
# RAID5 4k
within "$(ratio "$(value $ASR "raid5 4k randwrite" 32)" "$(peak $ASR "raid5 4k randwrite")")" 0.999 1.001
ok $? "the ASR-8885's RAID5 4k writes peak at OIO 32 (best at OIO $(best $ASR "raid5 4k randwrite"))"
r=$(ratio "$(value $ASR "raid5 4k randwrite" 256)" "$(value $ASR "raid5 4k randwrite" 32)")
within "$r" 0 0.8; ok $? "and fall past it, to $r of the peak at OIO 256"
r=$(ratio "$(value $LSI "raid5 4k randwrite" 256)" "$(value $LSI "raid5 4k randwrite" 128)")
within "$r" 0.9 0.98; ok $? "the 9361-8i's fall past OIO 128 is slight ($r)"
r=$(ratio "$(value $ASR "raid5 4k randwrite" 256 lat_mean_us)" "$(value $LSI "raid5 4k randwrite" 256 lat_mean_us)")
within "$r" 1.8 2.2; ok $? "RAID5 4k write latency at OIO 256: the ASR-8885's is $r x the 9361-8i's (\"nearly 2X\")"
mix() { value "$1" "raid5 ${3:-4k} write mix" "write_pct=$2" "${4:-iops}"; }
within "$(ratio "$(mix $ASR 100 4k lat_mean_us)" "$(mix $ASR 90 4k lat_mean_us)")" 0 0.95
ok $? "RAID5 4k write mix: the ASR-8885's latency tops out at 90 % writes: lower at 100 %"
ms=$(q "$DB" "SELECT max(s.lat_mean_us) / 1000 FROM steps s JOIN runs r ON r.id = s.run_id WHERE r.label = '$LSI' AND s.group_name = 'raid5 4k write mix'")
within "$ms" 0 6; ok $? "the 9361-8i's stays under 6 ms at every mix (at most $(printf '%.2f' "$ms") ms)"
wins=$(for p in 10 20 30 40 50 60 70 80 90 100; do ratio "$(mix $LSI $p)" "$(mix $ASR $p)"; echo; done | awk '$1 > 1' | wc -l)
lead ASR "raid5 4k write mix" write_pct=0; ok $? "the ASR-8885 leads the pure reads of the RAID5 mix"
is "$wins" 10 "and the 9361-8i wins the other 10 of 11 mixes"
r=$(ratio "$(mix $ASR 10)" "$(mix $ASR 0)")
within "$r" 0 0.3; ok $? "the ASR-8885's \"massive cliff\" at 10 % writes: $r of its pure-read IOPS"
# RAID5 8k
lead ASR "raid5 8k randread" 256; ok $? "RAID5 8k reads at OIO 256: the ASR-8885 leads (538,099 vs 508,572)"
lead LSI "raid5 8k randwrite" 128; ok $? "RAID5 8k writes: the 9361-8i leads at OIO 128"
[ "$(best $ASR "raid5 8k randwrite")" = 64 ]
todo $? "the ASR-8885's RAID5 8k writes peak at OIO 64 (the model's at $(best $ASR "raid5 8k randwrite"))" \
	"its knee (ctrl_qd_knee 32) is in I/Os, set by the 4k writes' peak at 32, and its 8k writes cost what its 4k ones do; by Little's law the review's peaks put a write's time at saturation at 32 / 31,057 = 1.03 ms for 4k and 64 / 29,490 = 2.17 ms for 8k: a latency that doubles with the size while the IOPS fall 5 %, which no published figure sizes (the 8k peak is the only one). A knee in bytes outstanding would put the 8k peak at 16, the other way; one that moves with the size would put the ASR-8885's 8k OLTP and e-mail peaks at 64 too, where the review has both at 32 (as the model does). What would set it: the 8k curve's IOPS at OIO 32 and 128, which the review charts but does not print"
r=$(ratio "$(value $ASR "raid5 8k randwrite" 256)" "$(peak $ASR "raid5 8k randwrite")")
within "$r" 0 0.85; ok $? "and fall \"significantly\" past it ($r of the peak at OIO 256)"
for card in $LSI $ASR; do
	r=$(ratio "$(mix $card 10 8k)" "$(mix $card 0 8k)")
	within "$r" 0 0.5; ok $? "RAID5 8k write mix: $card's cliff at 10 % writes ($r of its pure reads)"
done
within "$(ratio "$(mix $ASR 10 8k)" "$(mix $LSI 10 8k)")" 0 0.999; ok $? "the ASR-8885 falls lower"
wins=$(for p in 10 20 30 40 50 60 70 80 90 100; do ratio "$(mix $LSI $p 8k)" "$(mix $ASR $p 8k)"; echo; done | awk '$1 > 1' | wc -l)
is "$wins" 10 "the 9361-8i leads the RAID5 8k mix but for pure reads"
# RAID0 and RAID5 128k write mixes (sequential, OIO 256)
wins=$(for p in 0 10 20 30 40 50 60 70 80 90 100; do ratio "$(value $LSI "raid0 128k write mix" write_pct=$p)" "$(value $ASR "raid0 128k write mix" write_pct=$p)"; echo; done | awk '$1 > 1' | wc -l)
is "$wins" 11 "RAID0 128k write mix: \"closely matched, though the 9361-8i maintains the lead across the board\""
for p in 0 10; do lead LSI "raid5 128k write mix" write_pct=$p; ok $? "RAID5 128k write mix: the 9361-8i leads at $p % writes"; done
lead LSI "raid5 128k write mix" write_pct=20
todo $? "and at 20 % (\"taking the lead in read workloads until we mix in a 30 percent write workload\")" \
	"at 20 % writes both cards are bound by their parity engines (the 9361-8i's 772 MiB/s of writes carry 3,860 MiB/s in all, the ASR-8885's 852 carry 4,260): the 100 % figures' ratio, 1.10, holds at every mix its writes bind, so the 9361-8i could lead at 20 % only if a write in a mix cost it 10 % less than a pure one, relative to the ASR-8885; no figure of the review gives a mixed write's cost. What would set it: either card's MiB/s at 20 % or 30 % writes, which the review charts but does not print"
wins=$(for p in 10 20 30 40 50 60 70 80 90 100; do ratio "$(value $ASR "raid5 128k write mix" write_pct=$p)" "$(value $LSI "raid5 128k write mix" write_pct=$p)"; echo; done | awk '$1 > 1' | wc -l)
within "$wins" 6 10; ok $? "the ASR-8885 \"takes the win for the majority of the write workloads\" ($wins of 10)"
# RAID5 128k, server profiles. The 9361-8i's RAID5 OLTP and e-mail are flat
# within 0.1 % from OIO 32 to its knee at 128 (its parity path saturated):
# its peak is held as the ASR-8885's 4k one above, within 0.1 % of the best.
lead LSI "raid5 128k read" 256; ok $? "RAID5 128k sequential reads: the 9361-8i leads (5,091 vs 4,910 MiB/s)"
lead ASR "raid5 128k write" 256; ok $? "RAID5 128k sequential writes: the ASR-8885 \"bests it\" (852 vs 772 MiB/s)"
within "$(ratio "$(value $LSI "raid5 oltp" 128)" "$(peak $LSI "raid5 oltp")")" 0.999 1.001
ok $? "RAID5 OLTP: the 9361-8i tops out at OIO 128 (its plateau from OIO 32, within 0.1 %: best at OIO $(best $LSI "raid5 oltp"))"
r=$(ratio "$(value $LSI "raid5 oltp" 256)" "$(value $LSI "raid5 oltp" 128)")
within "$r" 0.85 0.999; ok $? "and \"drops slightly\" at 256 ($r)"
is "$(best $ASR "raid5 oltp")" 32 "the ASR-8885's peak is at OIO 32"
r=$(ratio "$(value $ASR "raid5 oltp" 256)" "$(value $ASR "raid5 oltp" 32)")
within "$r" 0 0.8; ok $? "and it degrades \"more significantly\" ($r at OIO 256)"
for card in $LSI $ASR; do
	r=$(ratio "$(value $card "raid5 webserver" 256)" "$(value $card "raid5 webserver" 128)")
	within "$r" 0.98 9; ok $? "RAID5 web server: no degradation at OIO 256 for $card ($r of OIO 128)"
done
lead LSI "raid5 webserver" 256; ok $? "RAID5 web server: the 9361-8i takes the lead (354,291 vs 299,309)"
within "$(ratio "$(value $LSI "raid5 email" 128)" "$(peak $LSI "raid5 email")")" 0.999 1.001
ok $? "RAID5 e-mail: the 9361-8i tops out at OIO 128 (its plateau from OIO 32, within 0.1 %: best at OIO $(best $LSI "raid5 email"))"
r=$(ratio "$(value $LSI "raid5 email" 256)" "$(value $LSI "raid5 email" 128)")
within "$r" 0.85 0.999; ok $? "with a slight degradation at 256 ($r)"
is "$(best $ASR "raid5 email")" 32 "the ASR-8885's e-mail tops out at OIO 32"

# --- reference 000: the LSI 9207-8e (sas2308-8ssd), 8 Samsung 830, JBOD ------------
# Iometer: 4 workers, QD 32 a drive; 1 MB sequential and 4k random reads in
# PCIe3 x8 and x4 (its Xeon E5) and PCIe2 x8 (its Opteron 6172: link_platform
# 0.92; a Xeon E5 forced to PCIe2: 1.04).
cat > "$TMP/ref000.lua" <<'LUA'
hb.plan{ defaults = { engine = "sim", workers = 4, oio = 4 * 8 * 32, duration = 20,
                      targets = { "a", "b", "c", "d", "e", "f", "g", "h" } } }
local slots = { { "pcie3x8", 1 }, { "pcie3x4", 1 }, { "pcie2x8", 0.9214 }, { "pcie2x8", 1.0357 },
                { "pcie2x8", 1 } }
for _, s in ipairs(slots) do
  local sim = { preset = "sas2308-8ssd", link = s[1], link_platform = s[2] }
  local at = s[1] .. "@" .. s[2]
  hb.run{ name = "1m " .. at, rw = "read", bs = "1m", sim = sim }
  hb.run{ name = "4k " .. at, rw = "randread", bs = "4k", sim = sim }
end
hb.run{ name = "1m pcie2x4@1", rw = "read", bs = "1m", sim = { preset = "sas2308-8ssd", link = "pcie2x4" } }
LUA
"$HB" run "$TMP/ref000.lua" --label ref000 --db "$DB" -q 2>>"$TMP/stderr"; ok $? "reference 000: the 9207-8e in four slots"
# step review unit tolerance sets [TODO reason]
figures=$(cat <<'TABLE'
1m_pcie3x8@1      4100   MB/s 0.15 - (steady drives "over 4.1 GB/s"; fresh 4,400: the preset's 540 MB/s a drive is between)
1m_pcie3x4@1      3000   MB/s 0.05 link_efficiency(PCIe3) ("near 3,000")
1m_pcie2x8@0.9214 2580   MB/s 0.02 link_platform (the Opteron 6172)
1m_pcie2x8@1.0357 2900   MB/s 0.02 link_platform (a Xeon E5 forced to PCIe2)
1m_pcie2x8@1      2600   MB/s 0.15 - (the 9200 and 9205, "about 2,600MB/Second on most server platforms")
4k_pcie3x8@1      361000 IOPS 0.05 drive_read_iops ("just over 361,000" on the Xeon)
4k_pcie3x4@1      364000 IOPS 0.05 - (x4: "essentially unchanged at 364,000")
4k_pcie2x8@0.9214 343000 IOPS 0.15 - (343,000 on the Opteron: the model's platform factor is the link's only)
TABLE
)
while read -r step review unit tol sets rest; do
	case $unit in IOPS) col=iops ;; *) col=mbps ;; esac
	v=$(q "$DB" "SELECT s.$col FROM steps s JOIN runs r ON r.id = s.run_id WHERE r.label = 'ref000' AND s.name = '${step//_/ }'")
	r=$(ratio "$v" "$review")
	lo=$(awk -v t="$tol" 'BEGIN { print 1 - t }') hi=$(awk -v t="$tol" 'BEGIN { print 1 + t }')
	within "$r" "$lo" "$hi"
	rc=$?
	role="$sets sets it"
	[ "$sets" = - ] && role=predicted
	ok "$rc" "reference 000 ${step//_/ }: $(printf '%.0f' "$v") $unit, review $review (ratio $r, within $(awk -v t="$tol" 'BEGIN { print t * 100 }') %; $role) $rest"
done <<<"$figures"
v=$(q "$DB" "SELECT s.mbps FROM steps s JOIN runs r ON r.id = s.run_id WHERE r.label = 'ref000' AND s.name = '1m pcie2x4@1'")
within "$v" 0 1500; ok $? "a PCIe2 card in a PCIe2 x4 slot: $(printf '%.0f' "$v") MB/s, \"less than 1,500MB/Second\""

# --- the fall is the controller's queue-depth knee ----------------------------------
"$HB" run "$TMP/cal.lua" --set card=$ASR --set knee=0 --label noknee --db "$DB" -q 2>>"$TMP/stderr"
r=$(ratio "$(value noknee "raid5 4k randwrite" 256)" "$(value noknee "raid5 4k randwrite" 32)")
within "$r" 0.98 1.02; ok $? "with ctrl_qd_knee = 0 the ASR-8885's RAID5 writes stay level past OIO 32 ($r)"
done_testing
