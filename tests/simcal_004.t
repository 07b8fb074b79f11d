#!/usr/bin/env bash
# Reference 004 (Tom's Hardware: 16 Intel X25-E on two cards, 8 drives each;
# a pair of Adaptec 5808, preset adaptec5808-8x25e, at 2.2 GB/s, a pair of
# the new LSI cards, the 9210-8i and the 9260-8i, presets lsi9210-8x25e and
# lsi9260-8x25e, at 3.4 GB/s): every figure its text publishes, run on the
# presets and compared, each with the step that reproduces it, its tolerance
# and what it sets in scripts/sim_presets.lua (or "-": a prediction, held to
# the issue's 15 %; a ratio to its 10 %); and the claims its text makes about
# where each pair's bottleneck is. The table: docs/calibration.md.
. "$(dirname "$0")/lib.sh"

DB="$TMP/ref004.db"
# The text's figures are sequential reads (16 X25-E write at most 16 x 170
# MB/s = 2.7 GB/s, below its 3.4); it gives no block size or queue depth:
# 128k, 16 a drive. Each pair: both cards in one step (sim = { cards = ... }),
# the RAID cards a RAID0 volume each, the 9210-8i its 8 drives as JBOD.
cat > "$TMP/ref004.lua" <<'LUA'
hb.plan{ name = "reference 004", defaults = { engine = "sim", rw = "read", bs = "128k", ramp = 0,
                                               telemetry = 0, duration = 5, oio = 16 * 16 } }
local function drives(prefix, n)
  local t = {}
  for i = 0, n - 1 do t[#t + 1] = prefix .. i end
  return t
end
local function pair(preset, extra)
  local card = { preset = preset }
  for k, v in pairs(extra or {}) do card[k] = v end
  return { cards = { card, card } }
end
hb.run{ name = "one X25-E", oio = 16, targets = { "x0" }, sim = { preset = "lsi9210-8x25e", drives = 1 } }
hb.run{ name = "5808 pair", targets = { "a0", "a1" }, sim = pair("adaptec5808-8x25e") }
hb.run{ name = "9210-8i pair", targets = drives("b", 16), sim = pair("lsi9210-8x25e") }
hb.run{ name = "9260-8i pair", targets = { "c0", "c1" }, sim = pair("lsi9260-8x25e") }
-- the platform's x16 slots, first generation and PCIe 2.0 (its link
-- arithmetic; a step on several cards records each card's link)
hb.run{ name = "x16 pcie1", oio = 32, targets = { "s1", "t1" }, sim = pair("lsi9210-8x25e", { drives = 1, link = "pcie1x16" }) }
hb.run{ name = "x16 pcie2", oio = 32, targets = { "s2", "t2" }, sim = pair("lsi9210-8x25e", { drives = 1, link = "pcie2x16" }) }
-- the 5808 pair in PCIe 2.0 x8 slots: is its bottleneck the bus?
hb.run{ name = "5808 pair pcie2", targets = { "d0", "d1" }, sim = pair("adaptec5808-8x25e", { link = "pcie2x8" }) }
LUA
"$HB" run "$TMP/ref004.lua" --label ref004 --db "$DB" -q 2>>"$TMP/stderr"
ok $? "reference 004's tests: one X25-E, and 16 on a pair of each card"

todo() {
	tap_n=$((tap_n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $tap_n - $2 # TODO $3"; else echo "not ok $tap_n - $2 # TODO $3"; fi
}
mbps() { q "$DB" "SELECT mbps FROM steps WHERE name = '${1//_/ }'"; }
# ceiling STEP TARGET: the pcie probe's raw link rate of the target's card, MB/s
ceiling() { q "$DB" "SELECT ceiling_bytes_per_s / 1e6 FROM run_pcie WHERE target = '$2'"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }
within() { awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v >= lo && v <= hi) }'; }
lo() { awk -v t="$1" 'BEGIN { print 1 - t }'; }
hi() { awk -v t="$1" 'BEGIN { print 1 + t }'; }
n=0 n5=0 n15=0
# check WHAT VALUE REVIEW UNIT TOL SETS [TODO reason]
check() {
	local r role rc
	r=$(ratio "$2" "$3")
	n=$((n + 1))
	within "$r" 0.95 1.05 && n5=$((n5 + 1))
	within "$r" 0.85 1.15 && n15=$((n15 + 1))
	within "$r" "$(lo "$5")" "$(hi "$5")"
	rc=$?
	role="$6 sets it"
	[ "$6" = - ] && role=predicted
	[ "$6" = link ] && role="the link's arithmetic, as the text's"
	local what="$1: $(printf '%.0f' "$2") $4, review $3 (ratio $r, within $(awk -v t="$5" 'BEGIN { print t * 100 }') %; $role)"
	if [ -n "$7" ]; then todo "$rc" "$what" "$7"; else ok "$rc" "$what"; fi
}

# --- every figure of the review's text ----------------------------------------------
# The 5 % figures set a parameter; the others are predictions (15 %) or the
# text's own link arithmetic (the pcie probe's raw rate for the sim's link:
# lanes x 250 MB/s for PCIe 1, 500 for PCIe 2). The text
# credits 3.4 GB/s to "the new LSI controllers" without saying which pair:
# both are held to it.
one=$(mbps one_X25-E) aac=$(mbps 5808_pair) b9210=$(mbps 9210-8i_pair) b9260=$(mbps 9260-8i_pair)
check "one X25-E, 128k reads (\"more than 220 MB/s\")" "$one" 220 MB/s 0.05 drive_read_mbps
within "$one" 220 999; ok $? "and not less than 220 MB/s"
check "16 X25-E, each alone, summed (\"the theoretical maximum ... around 3.5 GB/s\")" \
	"$(awk -v o="$one" 'BEGIN { print 16 * o }')" 3500 MB/s 0.05 drive_read_mbps
check "a pair of Adaptec 5808, 16 X25-E (2.2 GB/s)" "$aac" 2200 MB/s 0.05 ctrl_dma_read_mibps
check "a pair of LSI 9210-8i, 16 X25-E (3.4 GB/s)" "$b9210" 3400 MB/s 0.15 -
check "a pair of LSI 9260-8i, 16 X25-E (3.4 GB/s)" "$b9260" 3400 MB/s 0.15 -
check "an x16 slot of the first generation (\"16 lanes ... 250 MB/s ... up to 4 GB/s each way\")" "$(ceiling x16_pcie1 s1)" 4000 MB/s 0.15 link
check "an x16 slot of the X58's PCIe 2.0 (\"doubled to 8 GB/s\")" "$(ceiling x16_pcie2 s2)" 8000 MB/s 0.15 link
check "a 5808's link, PCIe 1.1 x8 (\"eight times 250 MB/s ... 2 GB/s each\")" "$(ceiling 5808_pair a0)" 2000 MB/s 0.15 link
check "the 5808 pair's links (\"or 4 GB/s total\")" \
	"$(awk -v a="$(ceiling 5808_pair a0)" -v b="$(ceiling 5808_pair a1)" 'BEGIN { print a + b }')" 4000 MB/s 0.15 link
check "a 9210-8i's link, PCIe 2.0 x8 (\"effectively doubles the interface bandwidth\": 4 GB/s)" \
	"$(ceiling 9210-8i_pair b0)" 4000 MB/s 0.15 link
check "a 9260-8i's link, PCIe 2.0 x8 (4 GB/s)" "$(ceiling 9260-8i_pair c1)" 4000 MB/s 0.15 link
echo "# reference 004: $n figures, $n5 within 5 %, $n15 within 15 %"
is "$n15" "$n" "every figure within 15 % (the issue's target)"

# --- every stated ratio (10 %) ------------------------------------------------------
nr=0 nr10=0
rcheck() {
	local r
	r=$(ratio "$(ratio "$2" "$3")" "$4")
	nr=$((nr + 1))
	within "$r" 0.9 1.1 && nr10=$((nr10 + 1))
	within "$r" 0.9 1.1; ok $? "$1: $(ratio "$2" "$3") x, review $4 (ratio $r, within 10 %; predicted)"
}
rcheck "the 9210-8i pair against the 5808 pair (3.4 against 2.2 GB/s)" "$b9210" "$aac" 1.545
rcheck "the 9260-8i pair against the 5808 pair (3.4 against 2.2 GB/s)" "$b9260" "$aac" 1.545
rcheck "16 X25-E's sum against the 5808 pair (\"60 % more than what we've reached so far\")" \
	"$(awk -v o="$one" 'BEGIN { print 16 * o }')" "$aac" 1.60
echo "# reference 004: $nr ratios, $nr10 within 10 %"
is "$nr10" "$nr" "every ratio within 10 % (the issue's target)"

# --- where the bottlenecks are ------------------------------------------------------
rate() { q "$DB" "SELECT sum(r.mbps) FROM step_target_rate r JOIN steps s ON s.id = r.step_id WHERE s.name = '$1' AND $2"; }
# the model's PCIe 1 x8: 2,000 MB/s raw at 0.70
a0=$(rate "5808 pair" "r.path = 'a0'")
within "$a0" 0 "$(awk 'BEGIN { print 0.85 * 0.70 * 2000 }')"
ok $? "a 5808 is not bound by its link: $(printf '%.0f' "$a0") MB/s of its PCIe 1.1 x8's 1,400 (\"we should have had enough available bandwidth. But it turns out that we didn't\")"
r=$(ratio "$(mbps 5808_pair_pcie2)" "$aac")
within "$r" 0.98 1.02; ok $? "the 5808 pair in PCIe 2.0 slots: $r x, the same: the cards are the bottleneck"
for s in 9210-8i 9260-8i; do
	r=$(ratio "$(mbps "${s}_pair")" "$(awk -v o="$one" 'BEGIN { print 16 * o }')")
	within "$r" 0.97 1.01; ok $? "the $s pair is drive-bound: $r of 16 X25-E alone (\"3.4 GB/s ... around 3.5\")"
done
b0=$(rate "9210-8i pair" "CAST(substr(r.path, 2) AS INT) < 8")
within "$b0" 0 "$(awk 'BEGIN { print 0.7 * 0.70 * 4000 }')"
ok $? "a 9210-8i's 8 drives fill its PCIe 2.0 x8 link less than 70 % ($(printf '%.0f' "$b0") of 2,800 MB/s): \"the platform wasn't the issue\""
# fact TARGET KEY: the sim probe's cN.KEY of the target's card (the run numbers its cards)
fact() { q "$DB" "SELECT value FROM probes WHERE probe = 'sim' AND target = '$1' AND key GLOB 'c[0-9]*' AND substr(key, instr(key, '.') + 1) = '$2'"; }
is "$(fact a1 model)|$(fact b15 model)|$(fact c0 model)" \
	"Adaptec RAID 5808 (IOP348)|LSI SAS 9210-8i (SAS2008)|LSI MegaRAID SAS 9260-8i (SAS2108)" \
	"the run records each pair's cards"
is "$(fact b0 cache_mb)|$(fact c0 cache_mb)" "|512" "the 9210-8i without a cache (\"they don't come with ... cache\"), the 9260-8i with one"
is "$(fact c0 v0.d7.model)|$(fact b0 d7.model)" "Intel X25-E|Intel X25-E" "on X25-E drives"

# the example runs, shortened
"$HB" run "$ROOT/examples/reference-004.lua" --db "$TMP/ex.db" -q --label ex --set seconds=1 2>>"$TMP/stderr"
ok $? "examples/reference-004.lua, shortened"
command -v gnuplot >/dev/null || { skip "gnuplot is not installed (apt-get install gnuplot-nox)"; done_testing; exit 0; }
"$HB" report ex --db "$TMP/ex.db" --out "$TMP/ex" 2>>"$TMP/stderr" >/dev/null; ok $? "and its report"
tsv=$(ls "$TMP"/ex/charts/*-controllers-16-x25-e-on-two-cards.tsv 2>/dev/null)
is "$(grep -o 'sum of links [0-9,]* MB/s' "$tsv" | tr '\n' '|')" \
	"sum of links 4,000 MB/s|sum of links 8,000 MB/s|sum of links 8,000 MB/s|" \
	"its controllers chart: the 5808 pair under 4,000 MB/s of links, each LSI pair under 8,000"
totals=$(awk -F'\t' '/^[0-9]/ && $7 != "NaN" { printf "%s ", $7 }' "$tsv")
awk -v t="$totals" 'BEGIN { split(t, v, " "); exit !(v[1] > 0.97 * 2200 && v[1] < 1.03 * 2200 &&
	v[2] > 0.97 * 3520 && v[2] < 1.03 * 3520 && v[3] > 0.97 * 3520 && v[3] < 1.03 * 3520) }'
ok $? "at 2,200 and 3,520 MB/s twice within 3 % (1 s a step): $totals"
# each pair is two other cards: the key names a stack by its position, not
# every model in it joined ("Adaptec RAID 5808 ... / LSI SAS 9210-8i ...")
is "$(grep '^# series' "$tsv" | tr '\n' '|')" "# series 1: controller 1|# series 2: controller 2|" \
	"the key names the first and second controller, not each bar's models joined"
done_testing
