#!/usr/bin/env bash
# The ready plans rehearse the card they name on the sim: --set sim=PRESET
# with the plan's layout and the simulated volume (or drives) as targets, a
# default card with a note for --set engine=sim alone, the plan's own words
# when it has no target, and a warning when a sim step's layout contradicts
# the plan's name.
. "$(dirname "$0")/lib.sh"

P="$ROOT/plans"
within() { awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v >= lo && v <= hi) }'; }
sql() { "$HB" sql --db "$1" --format tsv "$2" | tail -n +2; }

# raid5.lua on the simulated 9361-8i: reference 003's RAID5 in seconds
DB="$TMP/r5.db"
out=$("$HB" run "$P/raid5.lua" --db "$DB" --set engine=sim --set sim=lsi3108-8sas \
	--set seconds=1 --set ramp=0 2>&1); rc=$?
is "$rc" 0 "raid5.lua --set engine=sim --set sim=lsi3108-8sas runs"
is "$(sql "$DB" "SELECT status || ':' || (SELECT count(*) FROM steps WHERE status = 'done' AND engine = 'sim') FROM runs")" \
	"done:96" "all 96 steps ran on the sim"
peak=$(sql "$DB" "SELECT round(max(iops)) FROM oio_sweep WHERE group_name = '4k randwrite'")
# reference 003: 48,554 IOPS at OIO 128, the 9361-8i's RAID5 4k random write peak
within "$peak" 47583 49525; ok $? "its 4k random write peak, $peak IOPS, is within 2 % of the review's 48,554"
at256=$(sql "$DB" "SELECT round(iops) FROM oio_sweep WHERE group_name = '4k randwrite' AND oio = 256")
within "$at256" 44726 46552; ok $? "and falls past the knee to $at256 IOPS at OIO 256 (review 45,639, within 2 %)"
is "$(sql "$DB" "SELECT value FROM probes WHERE key = 'c0.v0.raid_level'")" RAID5 "the simulated volume is RAID5, as the plan's name says"
like "$(sql "$DB" "SELECT value FROM probes WHERE key = 'c0.model'")" "9361-8i" "on the card named by sim="
is "$(sql "$DB" "SELECT group_concat(DISTINCT path) FROM step_targets")" volume "the target is the simulated volume"
like "$(sql "$DB" "SELECT notes FROM runs")" "^rehearsal on the sim engine: card lsi3108-8sas as RAID5, 1 target \(volume\)$" \
	"a note says what the run rehearsed"
printf '%s\n' "$out" | grep -q "warning:"; is $? 1 "no warning: the layout is the plan's"

# raid0.lua: the layout from the plan, over a RAID5 card's preset
DB="$TMP/r0.db"
"$HB" run "$P/raid0.lua" --db "$DB" --set sim=asr8885-8sas --set seconds=1 --set ramp=0 \
	--set passes=0 --set precondition=1 -q >/dev/null 2>&1
is "$?" 0 "raid0.lua --set sim=asr8885-8sas (sim= alone: the sim engine) runs"
is "$(sql "$DB" "SELECT value FROM probes WHERE key = 'c0.v0.raid_level'")" RAID0 "a RAID0 volume, as the plan says"
r=$(sql "$DB" "SELECT round(iops) FROM oio_sweep WHERE group_name = '4k randread' AND oio = 256")
within "$r" 672045 699475; ok $? "ASR-8885 RAID0 4k random read at OIO 256: $r IOPS (review 685,760, within 2 %)"

# --set engine=sim alone: the plan's default card, and a note that says so
out=$("$HB" run "$P/raid5.lua" --dry-run --set engine=sim 2>&1); rc=$?
is "$rc" 0 "raid5.lua --set engine=sim with no sim=: a dry run"
like "$out" "note  rehearsal on the sim engine: card lsi3108-8sas as RAID5, 1 target \(volume\); --set engine=sim names no card, so this plan's default; --set sim=PRESET picks another of adaptec5808-8x25e, asr8885-8sas, lsi3108-8sas, lsi3108-8sas-pcie2, lsi9210-8x25e, lsi9260-8x25e, sas2008-5hdd, sas2308-1sas, sas2308-8ssd, sas3008-1sas$" \
	"takes the review's card and says so, naming the others"
like "$out" "^ +3  measure +randread 4k oio2 .* engine=sim targets=1 " "its steps are the sim's, on one target"
out=$("$HB" run "$P/jbod-hba.lua" --dry-run --set engine=sim 2>&1)
like "$out" "card sas2308-8ssd as JBOD, 8 targets \(drive1, drive2, .*drive8\)" "jbod-hba.lua: the 9207-8e, one target per drive"
like "$out" "4k random read, 32 workers .* oio=8192 workers=32 .*engine=sim targets=8 " "32 workers x 8 drives x QD 32"
DB="$TMP/j.db"
"$HB" run "$P/jbod-hba.lua" --db "$DB" --set sim=sas2308-8ssd --set seconds=2 --set ramp=0 -q >/dev/null 2>&1
is "$?" 0 "jbod-hba.lua runs on the simulated 9207-8e"
r=$(sql "$DB" "SELECT round(iops) FROM steps WHERE seq = 1")
within "$r" 350000 380000; ok $? "4k random read over 8 drives: $r IOPS (reference 000: 361,000-364,000)"
is "$(sql "$DB" "SELECT count(*) FROM step_targets WHERE step_id = (SELECT id FROM steps WHERE seq = 1)")" 8 "per-drive totals for 8 drives"

# sim= that cannot be
out=$("$HB" run "$P/raid5.lua" --dry-run --set sim=nope 2>&1); rc=$?
like "$rc $out" "^1 .*plans/raid5\.lua:[0-9]+: --set sim=nope: no such card in scripts/sim_presets\.lua \(it has adaptec5808-8x25e, asr8885-8sas, lsi3108-8sas, lsi3108-8sas-pcie2, lsi9210-8x25e, lsi9260-8x25e, sas2008-5hdd, sas2308-1sas, sas2308-8ssd, sas3008-1sas\)$" \
	"an unknown card: the cards there are"
out=$("$HB" run "$P/raid0.lua" --dry-run --set sim=lsi3108-8sas --set engine=psync --target "$TMP/x" 2>&1); rc=$?
like "$rc $out" "^1 .*--set sim=lsi3108-8sas is a card of the sim engine, not of engine=psync" "sim= with another engine"

# no target: the plan's own words, whatever --set values are given
for sets in "" "--set passes=0" "--set engine=io_uring" "--set seconds=1 --set ramp=0 --set passes=0" \
	"--set workers=4 --set mix_oio=32" "--set engine=null --set precondition=0"; do
	for plan in raid5 raid0; do
		L=${plan^^}
		# shellcheck disable=SC2086
		out=$("$HB" run "$P/$plan.lua" --db "$TMP/none.db" $sets 2>&1); rc=$?
		like "$rc $out" "^1 hbatest: error: [^ ]*plans/$plan\.lua:[0-9]+: no target: give the $L volume with --target /dev/sdX \(and --destroy-data /dev/sdX: the suite writes\), or rehearse the plan on a simulated card with --set engine=sim" \
			"$plan.lua ${sets:-(no --set)} and no target: says so in its own words"
	done
done
out=$("$HB" run "$P/jbod-hba.lua" --db "$TMP/none.db" --set qd=4 2>&1); rc=$?
like "$rc $out" "^1 .*plans/jbod-hba\.lua:[0-9]+: no target: give the drives with --target, one per drive" "jbod-hba.lua too"
[ -e "$TMP/none.db" ]; is $? 1 "no database made for a plan with no target"

# a sim step whose layout contradicts the plan's name warns, once, at its line
cat > "$TMP/raid5-mine.lua" <<'LUA'
hb.plan{ name = "RAID5 on the sim", defaults = { engine = "sim", targets = "v", duration = 1 } }
hb.run{ sim = { preset = "sas2308-8ssd" } }
hb.run{ sim = { layout = "raid0" } }
hb.run{ sim = { layout = "raid5" } }
LUA
out=$("$HB" run "$TMP/raid5-mine.lua" --db "$TMP/w.db" 2>&1); rc=$?
is "$rc" 0 "a plan whose sim steps contradict its name still runs"
like "$out" "warning: $TMP/raid5-mine\.lua:2: step 'randread 4k oio1' simulates layout jbod \(sim option layout\), but the plan is named for RAID5: check its sim options \(warned once a run\)$" \
	"a JBOD step in a plan named RAID5 warns, naming the line"
is "$(printf '%s\n' "$out" | grep -c 'warning: .*simulates layout')" 1 "once a run, not once a step or a pass"
out=$("$HB" run "$TMP/raid5-mine.lua" --dry-run 2>&1)
like "$out" "raid5-mine\.lua:2: step .* simulates layout jbod" "--dry-run warns too"
printf 'hb.plan{ defaults = { engine = "sim", targets = "v", duration = 1 } }\nhb.run{ sim = { layout = "raid10", drives = 4 } }\n' > "$TMP/jbod-rig.lua"
like "$("$HB" run "$TMP/jbod-rig.lua" --dry-run 2>&1)" "jbod-rig\.lua:2: step .* simulates layout raid10 .* named for JBOD" \
	"an unnamed plan: its file name counts"
printf 'hb.plan{ name = "RAID0 vs RAID5", defaults = { engine = "sim", targets = "v", duration = 1 } }\nhb.run{ }\n' > "$TMP/raid5-vs.lua"
printf '%s\n' "$("$HB" run "$TMP/raid5-vs.lua" --dry-run 2>&1)" | grep -q warning; is $? 1 \
	"a name that names two layouts: no warning (either may be meant)"
printf 'hb.plan{ name = "RAID-5", defaults = { engine = "sim", targets = "v", duration = 1 } }\nhb.run{ sim = { layout = "raid5" } }\nhb.run{ engine = "null" }\n' > "$TMP/dash.lua"
printf '%s\n' "$("$HB" run "$TMP/dash.lua" --dry-run 2>&1)" | grep -q warning; is $? 1 \
	"RAID-5 names raid5, and a step of another engine has no layout"
printf 'return { go = function() hb.run{ engine = "sim", targets = "v", duration = 1 } end }\n' > "$TMP/rig.lua"
printf 'hb.plan{ name = "RAID0 suite" }\n\nrequire("rig").go()\n' > "$TMP/usesrig.lua"
like "$("$HB" run "$TMP/usesrig.lua" --dry-run 2>&1)" "usesrig\.lua:3: step .* simulates layout jbod .* \(at $TMP/rig\.lua:1\)$" \
	"a step a module made: the plan's line and the module's"
done_testing
