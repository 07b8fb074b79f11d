#!/usr/bin/env bash
# RAID cards in SQL and in the report: runs made with stand-in storcli64 and
# arcconf (tests/fixtures/tools) on PATH give one run_controller row per run
# and controller and one run_volume row per volume (the host-wide and the
# per-target facts are not counted twice), an HBA in IT mode a controller
# and no volume; the saved query p99-by-card names the card with the best
# RAID5 p99 at OIO 32; the report's test bed has Controller and Volume rows
# (model, firmware, RAID level, strip, write policy, drives), those that
# differ highlighted.
. "$(dirname "$0")/lib.sh"

TOOLS="$ROOT/tests/fixtures/tools"
SYS="$ROOT/tests/fixtures/sysfs"
DB="$TMP/r.db"
cat > "$TMP/p.lua" <<'LUA'
hb.plan{ name = "cards", defaults = { engine = "null", duration = 1, ramp = 0, telemetry = 0 } }
hb.sweep{ base = { name = "RAID5 4k random read", rw = "randread", bs = "4k" },
          group = "RAID5 4k random read", oio = { 8, 32 } }
LUA
# onpath NAME FIXTURE-PROGRAM: a PATH folder holding just that stand-in
onpath() {
	local dir="$TMP/bin-$1"
	rm -rf "$dir"; mkdir -p "$dir"; ln -s "$TOOLS/$2" "$dir/"
	echo "$dir:/usr/bin:/bin"
}
# A sysfs tree whose /dev/sda is the arcconf fixture's logical device: its
# NAA id ends in the device's unique identifier
cp -a "$SYS/megaraid-pcie3-x8" "$TMP/sys-arc"
wwid=$(find "$TMP/sys-arc" -name wwid | head -1)
echo "naa.600508b1001c4d2a6a7c55f3" > "$wwid"

run() {	# run NAME TOOL SYSFS LABEL
	PATH=$(onpath "$1" "$2") HBATEST_SYSFS_ROOT="$3" "$HB" run "$TMP/p.lua" --db "$DB" -q \
		--target /dev/sda --label "$4" 2>>"$TMP/stderr"
}
run mr storcli64/storcli64 "$SYS/megaraid-pcie3-x8" "9361-8i"; ok $? "a run with the storcli64 stand-in"
run arc arcconf/arcconf "$TMP/sys-arc" "ASR-8885"; ok $? "a run with the arcconf stand-in"
run hba sas3ircu/sas3ircu "$SYS/megaraid-pcie3-x8" "SAS3008"; ok $? "a run with the sas3ircu stand-in (IT mode)"
# a PERC whose RAID1 volume is not the run's target (no /dev/sda in this tree)
run perc perccli64/perccli64 "$SYS/mpt3sas-pcie3-x4" "H730P"; ok $? "a run with the perccli64 stand-in, its volume behind no target"

# --- the views ---------------------------------------------------------------------
is "$(q "$DB" "SELECT count(*) FROM probes WHERE run_id = 1 AND phase = 'start' AND probe = 'megaraid' AND key = 'c0.model'")" 2 \
	"run 1 recorded its card twice: host-wide and for /dev/sda"
is "$(q "$DB" "SELECT count(*) FROM run_card_fact WHERE run_id = 1 AND controller = 'c0' AND volume IS NULL AND drive IS NULL AND field = 'model'")" 1 \
	"run_card_fact: each fact once"
is "$(q "$DB" "SELECT run_id, source, controller, count(*) FROM run_controller WHERE source <> 'mpt' OR run_id = 3 GROUP BY 1, 2, 3")" \
"1|megaraid|c0|1
2|adaptec|c1|1
3|mpt|c0|1
4|megaraid|c0|1" "run_controller: one row per run and controller"
is "$(q "$DB" "SELECT run_id, controller, volume, count(*) FROM run_volume GROUP BY 1, 2, 3")" \
"1|c0|v0|1
2|c1|v0|1
4|c0|v0|1" "run_volume: one row per run and volume; none for the HBA in IT mode"
is "$(q "$DB" "SELECT model, firmware, personality, cache_mb, cache_protection, cache_protection_state, temperature_c, target FROM run_controller WHERE run_id = 1")" \
	"AVAGO MegaRAID SAS 9361-8i|4.680.00-8417|RAID-Mode|1024|CacheVault|Optimal|53|/dev/sda" \
	"run_controller: card, firmware, personality, cache and protection, temperature, the target behind it"
is "$(q "$DB" "SELECT name, raid_level, state, strip_kb, write_policy, write_policy_effective, read_policy, io_policy, drive_cache, os_device, drives, drive_summary, simulated FROM run_volume WHERE run_id = 1")" \
	"bench5|RAID5|Optl|256|WriteBack|WriteBack|ReadAhead|Direct|Disk's Default|/dev/sda|8|8 x HUSMM8040ASS200 A204, SAS 12.0Gb/s SSD|0" \
	"run_volume: RAID level, strip, policies, OS device, 8 drives summarised"
is "$(q "$DB" "SELECT model, v.target, raid_level, strip_kb, v.drives, v.drive_summary FROM run_volume v JOIN run_controller c USING (run_id, source, controller) WHERE run_id = 2")" \
	"Adaptec ASR8885|/dev/sda|RAID5|256|8|8 x HUSMM8040ASS200 A204, SAS 12.0 Gb/s SSD" \
	"arcconf: the logical device behind /dev/sda, its drives summarised"
is "$(q "$DB" "SELECT personality, volumes, drives, drive_summary FROM run_controller WHERE run_id = 3 AND source = 'mpt'")" \
	"IT|0|8|8 x Samsung SSD 850 2B6Q, SATA SSD" "an HBA in IT mode: its drives counted on the controller"
is "$(q "$DB" "SELECT count(*), count(volume) FROM run_drive WHERE run_id = 3")" "8|0" \
	"run_drive: the HBA's drives, in no volume"
is "$(q "$DB" "SELECT count(*) FROM run_drive WHERE run_id = 1")" 8 "run_drive: 8 drives, not 16"

# --- the saved query ---------------------------------------------------------------
# the p99 of each point set by hand: the ASR-8885's OIO 32 is the best
q "$DB" "UPDATE steps SET lat_p99_us = CASE run_id WHEN 1 THEN 900 WHEN 2 THEN 700 ELSE 100 END + oio"
"$HB" sql --db "$DB" p99-by-card --param level=RAID5 --param oio=32 --format tsv >"$TMP/q" 2>"$TMP/qerr"
ok $? "hbatest sql p99-by-card exits 0"
is "$(cut -f1-4,9 "$TMP/q" | tr '\t' '|')" "card|firmware|raid_level|best_p99_us|run_id
Adaptec ASR8885|7.5-0 (32033)|RAID5|732|2
AVAGO MegaRAID SAS 9361-8i|4.680.00-8417|RAID5|932|1" \
	"the best RAID5 p99 at OIO 32 by card, best first; the HBA has no RAID5 volume"
"$HB" sql --db "$DB" p99-by-card --param level=raid1 --param oio=32 --format tsv >"$TMP/q" 2>"$TMP/qerr"
is "$(wc -l < "$TMP/q")" 1 "RAID1: the PERC's volume is not the one its run measured: no row"
is "$(q "$DB" "SELECT raid_level, target IS NULL FROM run_volume WHERE run_id = 4")" "RAID1|1" "(the PERC's RAID1 volume, behind no target)"

# --- the report's test bed -----------------------------------------------------------
command -v gnuplot >/dev/null || { skip "gnuplot is not installed: no report"; done_testing; exit 0; }
q "$DB" "UPDATE runs SET notes = 'CacheVault replaced' || char(10) || 'fans at 100 %', plan_name = 'cards',
	build_commit = '0123abc' WHERE id = 1"
"$HB" report 1 2 --db "$DB" --out "$TMP/rep" --no-charts >"$TMP/out" 2>"$TMP/err"; ok $? "hbatest report 1 2 exits 0"
html=$(sed 's/<tr/\n<tr/g' "$TMP/rep/index.html")
row() { grep -F "<tr$1><th>$2</th>" <<< "$html" | head -1; }
like "$html" '<tr class="section"><th colspan="3">Controller</th></tr>' "a Controller section"
like "$html" '<tr class="section"><th colspan="3">Volume</th></tr>' "a Volume section"
is "$(row ' class="diff"' Controller)" '<tr class="diff"><th>Controller</th><td>AVAGO MegaRAID SAS 9361-8i</td><td>Adaptec ASR8885</td></tr>' \
	"Controller: each run's card, highlighted (they differ)"
is "$(row ' class="diff"' 'Controller firmware')" '<tr class="diff"><th>Controller firmware</th><td>4.680.00-8417 (package 24.21.0-0097)</td><td>7.5-0 (32033)</td></tr>' \
	"Controller firmware"
is "$(row ' class="diff"' Cache)" '<tr class="diff"><th>Cache</th><td>1024 MB, CacheVault Optimal</td><td>1024 MB, Supercap Ready</td></tr>' \
	"Cache: size, protection and its state"
is "$(row '' 'RAID level')" '<tr><th>RAID level</th><td>RAID5</td><td>RAID5</td></tr>' "RAID level: alike, not highlighted"
is "$(row '' Strip)" '<tr><th>Strip</th><td>256 KiB</td><td>256 KiB</td></tr>' "Strip"
like "$(row ' class="diff"' 'Write policy')" '<td>WriteBack \(in effect: WriteBack\)</td><td>Enabled \(write-back\) when protected by battery/ZMM \(in effect: On\)</td>' \
	"Write policy: as set and in effect"
like "$(row ' class="diff"' 'Member drives')" '<td>8 x HUSMM8040ASS200 A204, SAS 12.0Gb/s SSD</td><td>8 x HUSMM8040ASS200 A204, SAS 12.0 Gb/s SSD</td>' \
	"Member drives summarised"
is "$(row '' 'Controller temperature')" '<tr><th>Controller temperature</th><td>53 °C at the start</td><td>42 °C at the start</td></tr>' \
	"a temperature is measured, not set: not highlighted"
like "$(row ' class="diff"' Notes)" '<td>CacheVault replaced<br>fans at 100 %</td><td>–</td>' "Notes in the test bed, one per line"
is "$(row '' 'Plan name')" '<tr><th>Plan name</th><td>cards</td><td>cards</td></tr>' "the plan's name, stored by each run (alike: not highlighted)"
like "$(row ' class="diff"' 'Build commit')" '<td>0123abc</td>' "the build's commit"
like "$html" '<div class="notes">.*<b>9361-8i</b>: CacheVault replaced<br>fans at 100 %</div>' "the notes at the top"
like "$html" '9361-8i.*plan “cards”' "the plan's name at the top"

# a write-back volume running write-through is a warning in its cell
q "$DB" "UPDATE probes SET value = 'WriteThrough' WHERE run_id = 1 AND key = 'c0.v0.write_policy_effective'"
"$HB" report 1 --db "$DB" --out "$TMP/rep1" --no-charts >"$TMP/out" 2>"$TMP/err"; ok $? "report 1 exits 0"
like "$(cat "$TMP/rep1/index.html")" '<th>Write policy</th><td>WriteBack \(in effect: WriteThrough\)<br><span class="warn">&#9888; c0/v0 runs WriteThrough, not WriteBack</span>' \
	"write-back set, write-through in effect: a warning"

# the HBA: the controller and its drives, no volume section; the PERC behind no target: shown, marked
"$HB" report 3 4 --db "$DB" --out "$TMP/rep34" --no-charts >"$TMP/out" 2>"$TMP/err"; ok $? "report 3 4 exits 0"
html=$(sed 's/<tr/\n<tr/g' "$TMP/rep34/index.html")
like "$(row ' class="diff"' 'Drives on it')" '<td>8 x Samsung SSD 850 2B6Q, SATA SSD</td>' "an HBA's drives on its controller"
like "$(row ' class="diff"' Controller)" 'PERC H730P Mini \(on the host, behind no target\)' \
	"a card behind no target: shown, said so"

# --- telemetry: a chart per run, events beside their step and on its chart ------------
cat > "$TMP/tp.lua" <<'LUA'
hb.plan{ name = "telemetry", defaults = { engine = "null", ramp = 0, telemetry = 0 } }
hb.precondition{ name = "precondition", duration = 5, rw = "randwrite", bs = "4k", oio = 4 }
hb.run{ name = "4k read", rw = "randread", bs = "4k", oio = 32, duration = 2 }
hb.run{ name = "4k write", rw = "randwrite", bs = "4k", oio = 32, duration = 2 }
LUA
PATH=$(onpath tel storcli64/storcli64) HBATEST_SYSFS_ROOT="$SYS/megaraid-pcie3-x8" "$HB" run "$TMP/tp.lua" \
	--db "$DB" -q --target /dev/sda --label tel 2>>"$TMP/stderr"; ok $? "a run of three steps (the fifth)"
"$HB" report 5 --db "$DB" --out "$TMP/rt0" >"$TMP/out" 2>"$TMP/err"; ok $? "its report without telemetry exits 0"
is "$(ls "$TMP/rt0/charts" | grep -c telemetry)|$(grep -c '<h2 id="sec-telemetry">Telemetry</h2>' "$TMP/rt0/index.html")" "0|0" \
	"no telemetry rows: no telemetry chart, no section"
# telemetry every 0.5 s of the run's first 8 s: two temperatures and a write policy (text: no
# line), and two warning events: 2.2 s into step 1, 1.4 s into step 3 (the null steps'
# host-bound warnings, logged at each step's end, left out: these are telemetry's)
q "$DB" "DELETE FROM events WHERE run_id = 5 AND message LIKE '%: host-bound: %';
	WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 15),
	r AS (SELECT id, started_at FROM runs WHERE id = 5)
	INSERT INTO telemetry (run_id, step_id, t, at, source, key, value, target)
	SELECT r.id, NULL, n.i * 0.5, strftime('%Y-%m-%dT%H:%M:%fZ', julianday(r.started_at) + n.i * 0.5 / 86400.0),
	       'megaraid', k.key, CASE k.key WHEN 'c0.temperature_c' THEN 53 + n.i / 4
	         WHEN 'c0.v0.d0.temperature_c' THEN 30 + n.i / 7
	         ELSE CASE WHEN n.i < 12 THEN 'WriteBack' ELSE 'WriteThrough' END END, '/dev/sda'
	FROM n, r, (SELECT 'c0.temperature_c' AS key UNION ALL SELECT 'c0.v0.d0.temperature_c'
	            UNION ALL SELECT 'c0.v0.write_policy_effective') k;
	INSERT INTO events (run_id, at, level, message)
	SELECT 5, strftime('%Y-%m-%dT%H:%M:%fZ', julianday(started_at) + 2.2 / 86400.0), 'warning',
	       'telemetry: megaraid c0.cache_protection_state Optimal -> Learning in step 1'
	FROM steps WHERE run_id = 5 AND seq = 1;
	INSERT INTO events (run_id, at, level, message)
	SELECT 5, strftime('%Y-%m-%dT%H:%M:%fZ', julianday(started_at) + 1.4 / 86400.0), 'warning',
	       'telemetry: megaraid c0.v0.write_policy_effective WriteBack -> WriteThrough in step 3'
	FROM steps WHERE run_id = 5 AND seq = 3"
"$HB" report 5 --db "$DB" --out "$TMP/rt" --format svg >"$TMP/out" 2>"$TMP/err"; ok $? "its report with telemetry exits 0"
tsv=$(ls "$TMP"/rt/charts/*-telemetry-run1.tsv 2>/dev/null)
[ -s "$tsv" ] && [ -s "${tsv%.tsv}.svg" ]; ok $? "a telemetry chart: its data and image"
is "$(grep '^# series' "$tsv")" "# series 1: megaraid c0.temperature_c
# series 2: megaraid c0.v0.d0.temperature_c" "a line per numeric key; the write policy (text) is none"
is "$(grep -vc '^#\|^$' "$tsv")" 32 "every sample of each, 16 a key"
like "$(sed -n 3p "$tsv")" '^0	53$' "its first: 53 °C at the run's start"
gp=${tsv%.tsv}.gp
like "$(cat "$gp")" "array step_label\[3\] = \['step 1', 'step 2', 'step 3'\]" "the three steps marked"
like "$(cat "$gp")" "nevents = 2" "and the two events"
like "$(cat "$TMP/rt/index.html")" '<tr class="events"><td></td><td colspan="12"><span class="warn">&#9888; at second 2: telemetry: megaraid c0.cache_protection_state Optimal -&gt; Learning in step 1</span>' \
	"an event listed under the step it hit"
like "$(cat "$TMP/rt/index.html")" '&#9888; at second 1: telemetry: megaraid c0.v0.write_policy_effective WriteBack -&gt; WriteThrough in step 3' \
	"the other under its step"
is "$(grep -o '<tr class="events">' "$TMP/rt/index.html" | wc -l)" 2 "two events rows: step 2, which none fell in, has none"
sgp=$(ls "$TMP"/rt/charts/*-scatter-run1-step1.gp)
like "$(cat "$sgp")" 'array event_t\[1\] = \[2\.2\]' "the event on its step's per-second chart, at its second"
like "$(grep -o 'dashed red: 2 warning events' "$TMP/rt/index.html")" 'dashed red: 2 warning events' "the caption counts them"

# --- a simulated card (probe 'sim', as a sim run records it) ---------------------------
q "$DB" "INSERT INTO probes (run_id, phase, target, probe, key, value) VALUES
	(3, 'start', NULL, 'sim', 'c0.model', 'LSI MegaRAID 9361-8i'), (3, 'start', NULL, 'sim', 'c0.simulated', 'yes'),
	(3, 'start', NULL, 'sim', 'c0.v0.raid_level', 'RAID5'), (3, 'start', NULL, 'sim', 'c0.v0.strip_kb', '256'),
	(3, 'start', NULL, 'sim', 'c0.v0.write_policy', 'WriteBack'),
	(3, 'start', NULL, 'sim', 'c0.v0.d0.model', 'HUSMM8040ASS200'), (3, 'start', NULL, 'sim', 'c0.v0.d1.model', 'HUSMM8040ASS200');
	UPDATE steps SET params_json = json_set(params_json, '$.sim.layout', 'raid5') WHERE run_id = 3"
is "$(q "$DB" "SELECT c.simulated, v.simulated, v.drive_summary FROM run_controller c JOIN run_volume v USING (run_id, source, controller) WHERE run_id = 3")" \
	"1|1|2 x HUSMM8040ASS200" "a simulated card and volume: marked simulated"
"$HB" sql --db "$DB" p99-by-card --param level=RAID5 --param oio=32 --format tsv >"$TMP/q" 2>"$TMP/qerr"
is "$(sed -n 2p "$TMP/q" | cut -f1,4,9,15 | tr '\t' '|')" "LSI MegaRAID 9361-8i|132|3|1" "p99-by-card counts a simulated card's volume"
"$HB" report 3 --db "$DB" --out "$TMP/rsim" --no-charts >"$TMP/out" 2>"$TMP/err"; ok $? "report 3 exits 0"
html=$(sed 's/<tr/\n<tr/g' "$TMP/rsim/index.html")
is "$(row '' Controller)" '<tr><th>Controller</th><td>LSI MegaRAID 9361-8i (simulated)</td></tr>' \
	"the simulated card is the one shown (the host's HBA, behind no target, is not)"
is "$(row '' 'RAID level')" '<tr><th>RAID level</th><td>RAID5</td></tr>' "its volume's RAID level"

done_testing
