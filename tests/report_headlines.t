#!/usr/bin/env bash
# A headline names the step it judges, and a preconditioning step makes none
# (reports/page.lua point_row, point_words; docs/reports.md "Headlines"):
# "RAID5: 9361-8i leads: 45,636 IOPS" was the preconditioning step of group
# RAID5 read as a verdict on RAID5. Two simulated runs on two cards' presets.
. "$(dirname "$0")/lib.sh"

DB="$TMP/h.db"
cat > "$TMP/hl.lua" <<'EOF2'
local card = hb.set("card", "lsi3108-8sas")
local sim = { preset = card, layout = "raid5", drive_capacity = "4g" }
hb.plan{ name = "hl", defaults = { engine = "sim", ramp = 0, duration = 1, targets = { "v1" } } }
hb.precondition{ name = "warm-up writes", group = "Warm", duration = 1, rw = "randwrite", bs = "4k",
                 oio = 32, sim = sim }
hb.run{ name = "reads first", group = "Pair", rw = "randread", bs = "4k", oio = 32, sim = sim }
hb.run{ name = "writes second", group = "Pair", rw = "randwrite", bs = "4k", oio = 32, sim = sim }
EOF2
for c in lsi3108-8sas asr8885-8sas; do
	"$HB" run "$TMP/hl.lua" --set card=$c --db "$DB" --label $c -q 2>>"$TMP/stderr"
	ok $? "run hl on $c (simulated)"
done
"$HB" report lsi3108-8sas asr8885-8sas --db "$DB" --out "$TMP/r" >/dev/null 2>>"$TMP/stderr"
ok $? "report the two runs"
# the headlines as text, one a line
HL=$(tr -d '\n' < "$TMP/r/index.html" | grep -o '<ul class="headlines">.*' | sed 's#</ul>.*##; s#<li>#\n#g; s/<[^>]*>//g')
is "$(grep -c '^Warm' <<<"$HL")" 0 "a group of a preconditioning step alone: no headline"
like "$HL" '^Pair: [a-z0-9-]+ leads in “reads first”: ' "a group's headline names the step it judges"
FOLD=$(tr -d '\n' < "$TMP/r/index.html" | grep -o 'id="sum-warm"><summary>.*' | sed 's#</summary>.*##')
like "$FOLD" 'Warm' "the preconditioning's fold in the summary"
is "$(grep -c 'class="headline"' <<<"$FOLD")" 0 "has no headline either"
done_testing
