#!/usr/bin/env bash
# A night on a MegaRAID card whose CacheVault starts a learn cycle between
# two steps (issue 34's "Done when"): the storcli64 stand-in on PATH turns the
# volume behind the target from write-back to write-through in effect and the
# CacheVault to Learning (tests/fixtures/tools/storcli64: $HBATEST_FIXTURE_STATE).
# The telemetry table holds one row per source, key, target and sampled
# second; the change is a warning event naming the step; the report shows it
# under that step and draws the run's telemetry; with on_telemetry = "fail"
# the step fails instead, naming the change.
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/lib_probe.sh"

cd "$TMP" || exit 1
export HBATEST_SYSFS_ROOT="$ROOT/tests/fixtures/sysfs/megaraid-pcie3-x8"
export HBATEST_FIXTURE_STATE="$TMP/card"
echo wb > card
P=$(onpath mr storcli64/storcli64)
# the sim engine's clock paces the samples: every second of a 4 s step is
# sampled, whatever the load on this machine
plan() {
	cat <<EOF
hb.plan{ name = "night", defaults = { engine = "sim", rw = "randread", bs = "4k", oio = 32,
	duration = 4, ramp = 0, telemetry = 1, on_telemetry = "$1", targets = { "/dev/sda" },
	sim = { preset = "lsi3108-8sas", layout = "raid5" } } }
hb.run{ name = "before" }
hb.exec{ name = "learn cycle", cmd = "echo wt > '$TMP/card'" }
hb.run{ name = "after" }
hb.run{ name = "later" }
EOF
}
plan warn > warn.lua
PATH=$P "$HB" run warn.lua --db n.db --allow-exec --label night -q 2>err; rc=$?
is "$rc" 0 "a night whose card turns write-through midway: exit 0 (a warning)"
S1=$(q n.db "SELECT id FROM steps WHERE seq = 1"); S3=$(q n.db "SELECT id FROM steps WHERE seq = 3")
wp() { q n.db "SELECT group_concat(value, ',') FROM (SELECT value FROM telemetry WHERE step_id = $1
	AND source = 'megaraid' AND key = 'c0.v0.write_policy_effective' AND target IS NULL ORDER BY t)"; }
is "$(wp "$S1")|$(wp "$S3")" "WriteBack,WriteBack,WriteBack,WriteBack|WriteThrough,WriteThrough,WriteThrough,WriteThrough" \
	"the write policy in effect every second: write-back before, write-through after"
is "$(q n.db "SELECT group_concat(t, ',') FROM (SELECT DISTINCT t FROM telemetry WHERE step_id = $S1 AND source = 'megaraid' ORDER BY t)")" \
	"0.0,1.0,2.0,3.0" "a megaraid sample at each second of the step"
is "$(q n.db "SELECT count(*) FROM (SELECT 1 FROM telemetry GROUP BY step_id, t, source, key, target HAVING count(*) > 1)")" \
	0 "one row per source, key, target and second"
is "$(q n.db "SELECT count(DISTINCT key) FROM telemetry WHERE step_id = $S1 AND t = 0 AND source = 'megaraid' AND target IS NULL AND key GLOB 'c0.v0.d*.temperature_c'")" \
	8 "the eight drives' temperatures in every sample"
is "$(q n.db "SELECT value FROM telemetry WHERE step_id = $S3 AND t = 0 AND source = 'megaraid' AND key = 'c0.cache_protection_state' AND target IS NULL")" \
	"Learning" "the CacheVault's state: Learning"
is "$(q n.db "SELECT count(*) FROM telemetry WHERE step_id = $S1 AND target = '/dev/sda' AND key = 'c0.v0.write_policy_effective'")" \
	4 "the volume behind the target sampled as behind it (target marked)"
ev=$(q n.db "SELECT message FROM events WHERE level = 'warning' AND message LIKE '%telemetry:%' ORDER BY id")
like "$ev" "step 3 'after': telemetry: megaraid c0\\.v0\\.write_policy_effective changed from 'WriteBack' to 'WriteThrough'" \
	"the change is a warning event naming the step it hit"
like "$ev" "step 3 'after': telemetry: megaraid c0\\.cache_protection_state changed from 'Optimal' to 'Learning'" \
	"and the CacheVault's"
is "$(grep -c "step 4\|step 1" <<< "$ev")" 0 "no event in the steps before and after: nothing changed there"
like "$(cat err)" "telemetry: megaraid c0\\.v0\\.write_policy_effective changed" "the warning on the console"
is "$(q n.db "SELECT group_concat(status) FROM steps ORDER BY seq")" "done,done,done,done" "every step done"

command -v gnuplot >/dev/null || { skip "gnuplot is not installed: no report" 4; done_testing; exit 0; }
"$HB" report night --db n.db --out rep >out 2>rerr; ok $? "its report ($(head -c 300 rerr))"
html=$(cat rep/index.html)
like "$html" "telemetry: megaraid c0\\.v0\\.write_policy_effective changed from &#39;WriteBack&#39; to &#39;WriteThrough&#39;|telemetry: megaraid c0\\.v0\\.write_policy_effective changed from 'WriteBack' to 'WriteThrough'" \
	"the report shows the change"
like "$(sed 's/<tr/\n<tr/g' rep/index.html | grep -A1 '>after<' | tr '\n' ' ')" "class=\"events\".*write_policy_effective" \
	"beside the step it hit"
ls rep/charts/*telemetry*.svg >/dev/null 2>&1; ok $? "and draws the run's telemetry over time"

echo wb > card
plan fail > fail.lua
PATH=$P "$HB" run fail.lua --db f.db --allow-exec -q 2>err; rc=$?
is "$rc" 1 "on_telemetry = \"fail\": the run fails (exit 1)"
is "$(q f.db "SELECT group_concat(seq || ':' || status, ',') FROM steps ORDER BY seq")" "1:done,2:done,3:failed" \
	"the step the change hit fails; no later step runs"
like "$(q f.db "SELECT error_text FROM steps WHERE seq = 3")" \
	"telemetry: megaraid c0\\.(v0\\.write_policy_effective|cache_protection_state) changed .*on_telemetry=\"fail\"" \
	"its error names the change"
done_testing
