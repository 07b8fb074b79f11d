#!/usr/bin/env bash
# A sim run records what it simulates: each distinct card its steps use as a
# controller c0, c1 ... behind the steps' targets (phase start, probe sim), in
# the controller probes' keys, with cN.simulated = yes.
. "$(dirname "$0")/lib.sh"

DB="$TMP/s.db"
fact() { q "$DB" "SELECT value FROM probes WHERE run_id = $1 AND phase = 'start' AND probe = 'sim' AND target = '$2' AND key = '$3'"; }

cat > "$TMP/one.lua" <<'LUA'
hb.run{ engine = "sim", duration = 1, rw = "randread", oio = 4, targets = { "vd0" },
        sim = { preset = "lsi3108-8sas" } }
LUA
"$HB" run "$TMP/one.lua" --db "$DB" -q 2>/dev/null; ok $? "a sim run with preset lsi3108-8sas"
is "$(fact 1 vd0 c0.model)" "LSI MegaRAID SAS 9361-8i (SAS3108)" "c0.model is the preset's card"
is "$(fact 1 vd0 c0.simulated)" yes "c0.simulated = yes"
is "$(fact 1 vd0 c0.v0.raid_level)/$(fact 1 vd0 c0.v0.strip_kb)/$(fact 1 vd0 c0.v0.write_policy_effective)" \
	"RAID5/256/WriteBack" "the volume: RAID level, strip, write policy in effect"
is "$(fact 1 vd0 c0.cache_mb)/$(fact 1 vd0 c0.cache_protection)" "1024/CacheVault" "the cache and its protection"
is "$(q "$DB" "SELECT count(*) || ' ' || group_concat(DISTINCT value) FROM probes WHERE run_id = 1 AND key GLOB 'c0.v0.d*.model'")" \
	"8 HGST Ultrastar SSD800MH" "one model fact per simulated drive"
is "$(q "$DB" "SELECT count(*) FROM probes WHERE run_id = 1 AND probe = 'sim' AND key GLOB 'c1.*'")" 0 \
	"one card, one controller"

# two presets: c0 and c1, in plan order; a preset's layout in force; no preset: a JBOD
cat > "$TMP/two.lua" <<'LUA'
hb.plan{ defaults = { engine = "sim", duration = 1, rw = "randread", oio = 4 } }
hb.run{ targets = { "vd0" }, sim = { preset = "asr8885-8sas" } }
hb.run{ targets = { "vd0" }, sim = { preset = "lsi3108-8sas" } }
hb.run{ targets = { "vd1" }, sim = { preset = "asr8885-8sas" } }
hb.run{ targets = { "vd2" }, sim = { preset = "lsi3108-8sas", layout = "raid0" } }
hb.run{ targets = { "j0", "j1" } }
LUA
"$HB" run "$TMP/two.lua" --db "$DB" -q 2>/dev/null; ok $? "a sim run over two presets"
is "$(fact 2 vd0 c0.model)" "Adaptec ASR-8885 (PM8063)" "the first preset used is c0"
is "$(fact 2 vd0 c1.model)" "LSI MegaRAID SAS 9361-8i (SAS3108)" "the second is c1, behind the same target"
is "$(fact 2 vd1 c0.model)" "Adaptec ASR-8885 (PM8063)" "a preset used again keeps its number"
is "$(fact 2 vd2 c1.v1.raid_level)/$(fact 2 vd2 c1.model)" "RAID0/LSI MegaRAID SAS 9361-8i (SAS3108)" \
	"layout = raid0 over the preset: the same card (c1), a second volume (v1), RAID0"
is "$(fact 2 vd2 c1.v0.raid_level)" "" "behind vd2 only the volume its step used"
is "$(fact 2 j1 c2.model)/$(fact 2 j1 c2.simulated)" "simulated JBOD/yes" "a step without a preset: a simulated JBOD"
is "$(q "$DB" "SELECT count(*) FROM probes WHERE run_id = 2 AND probe = 'sim' AND key = 'c0.simulated'")" 2 \
	"each card's facts once per target (vd0, vd1)"

# --dry-run stores nothing; a null run records no simulated card
sum=$(sha256sum "$DB")
"$HB" run "$TMP/two.lua" --db "$DB" --dry-run >/dev/null; ok $? "--dry-run"
is "$(sha256sum "$DB")" "$sum" "stores no facts"
printf 'hb.run{ engine = "null", duration = 1, targets = { "v" } }\n' > "$TMP/null.lua"
"$HB" run "$TMP/null.lua" --db "$DB" -q 2>/dev/null; ok $? "a null-engine run"
is "$(q "$DB" "SELECT count(*) FROM probes WHERE run_id = 3 AND probe = 'sim'")" 0 "records no simulated card"

# the example comparing the cards, shortened
"$HB" run "$ROOT/examples/compare-cards.lua" --db "$DB" -q --set card=asr8885-8sas --set seconds=1 \
	--set ramp=0 --set precondition=1 2>/dev/null; ok $? "examples/compare-cards.lua, shortened"
is "$(q "$DB" "SELECT group_concat(key || '=' || value, ' ') FROM (SELECT key, value FROM probes WHERE run_id = 4 AND probe = 'sim' AND key GLOB 'c?.v?.raid_level' ORDER BY key)")" \
	"c0.v0.raid_level=RAID0 c0.v1.raid_level=RAID5" "its RAID0 and RAID5 halves are two volumes of the one card"
is "$(q "$DB" "SELECT count(DISTINCT value) || ' ' || value FROM probes WHERE run_id = 4 AND key GLOB 'c?.model'")" \
	"1 Adaptec ASR-8885 (PM8063)" "both of the card chosen"

# the other card, then SQL and the report by card (issue 34: the RAID5 p99 by
# card from the views; Controller and Volume rows for two simulated cards)
"$HB" run "$ROOT/examples/compare-cards.lua" --db "$DB" -q --set card=lsi3108-8sas --set seconds=1 \
	--set ramp=0 --set precondition=1 2>/dev/null; ok $? "and with the other card"
is "$(q "$DB" "SELECT group_concat(run_id || ':' || controller || ':' || raid_level || ':' || simulated, ' ') FROM (SELECT * FROM run_volume WHERE run_id IN (4, 5) ORDER BY run_id, controller, volume)")" \
	"4:c0:RAID0:1 4:c0:RAID5:1 5:c0:RAID0:1 5:c0:RAID5:1" "run_volume: each run's card has a RAID0 and a RAID5 volume, simulated"
out=$("$HB" sql p99-by-card --param level=RAID5 --param oio=32 --db "$DB" --format csv 2>&1)
is "$(cut -d, -f1,3,6,7,8 <<< "$out" | grep randwrite | tr -d '"')" \
"LSI MegaRAID SAS 9361-8i (SAS3108),RAID5,randwrite,4k,RAID5 4k random write
Adaptec ASR-8885 (PM8063),RAID5,randwrite,4k,RAID5 4k random write" \
	"p99-by-card: RAID5 4k random write at OIO 32, the two cards best first, from RAID5 steps only"
is "$(cut -d, -f8 <<< "$out" | grep -c RAID0)" 0 "no RAID0 step counted as RAID5"
is "$(cut -d, -f1,6,7,8 <<< "$out" | tr -d '"' | grep ',randrw,' | LC_ALL=C sort)" \
"Adaptec ASR-8885 (PM8063),randrw,8k,RAID5 email
Adaptec ASR-8885 (PM8063),randrw,8k,RAID5 oltp
LSI MegaRAID SAS 9361-8i (SAS3108),randrw,8k,RAID5 email
LSI MegaRAID SAS 9361-8i (SAS3108),randrw,8k,RAID5 oltp" \
	"p99-by-card: a row per write mix of one rw and bs (OLTP's 33 % and e-mail's 50 % randrw 8k)"
if command -v gnuplot >/dev/null; then
	"$HB" report 4 5 --db "$DB" --out "$TMP/rep" --no-charts >/dev/null 2>&1; ok $? "a report of the two cards"
	html=$(sed 's/<tr/\n<tr/g' "$TMP/rep/index.html")
	like "$(grep -F '<th>Controller</th>' <<< "$html")" "Adaptec ASR-8885 \(PM8063\).*simulated.*LSI MegaRAID SAS 9361-8i \(SAS3108\).*simulated" \
		"its Controller row names both simulated cards"
	like "$(grep -F '<th>RAID level</th>' <<< "$html")" "RAID0.*RAID5.*RAID0.*RAID5" "its Volume rows: each card's RAID0 and RAID5"
else
	skip "gnuplot is not installed: no report" 3
fi

done_testing
