#!/usr/bin/env bash
# The probes' sample() op (telemetry) through `hbatest probe --sample`: only
# the facts that change during a run, keyed as collect() keys them, each by
# the tool's read-only verbs; the storcli stand-in that turns write-back into
# write-through midway (HBATEST_FIXTURE_STATE).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_probe.sh"

SYS="$ROOT/tests/fixtures/sysfs"
export HBATEST_TOOL_LOG="$TMP/tool.log"

# not_in_collect PROBE: the names sample gave ($smp) that collect ($col) did not
not_in_collect() { comm -23 <(keys "$smp" "$1" | sort -u) <(keys "$col" "$1" | sort -u); }

# --- megaraid: 9361-8i, RAID5 write-back, CacheVault --------------------------------
P=$(onpath mr storcli64/storcli64)
col=$(PATH=$P HBATEST_SYSFS_ROOT="$TMP/none" "$HB" probe 2>&1)
: > "$HBATEST_TOOL_LOG"
smp=$(PATH=$P HBATEST_SYSFS_ROOT="$TMP/none" "$HB" probe --sample 2>&1); ok $? "megaraid: probe --sample exits 0"
out=$smp
is "$(fact megaraid c0.temperature_c)|$(fact megaraid c0.cache_protection_state)|$(fact megaraid c0.v0.state)|$(fact megaraid c0.v0.write_policy_effective)|$(fact megaraid c0.v0.active_operations)" \
	"53|Optimal|Optl|WriteBack|None" "megaraid sample: ROC temperature, CacheVault state, volume state, write policy in effect, operations"
is "$(fact megaraid c0.v0.d3.temperature_c)|$(fact megaraid c0.v0.d3.state)|$(fact megaraid status)" "30|Onln|read" \
	"megaraid sample: a member drive's temperature and state"
is "$(fact megaraid c0.model)$(fact megaraid c0.v0.raid_level)$(fact megaraid c0.v0.write_policy)$(fact megaraid c0.v0.d3.model)$(fact megaraid tool)" "" \
	"megaraid sample: no fixed fact (model, RAID level, policy as set, drive model, tool)"
is "$(not_in_collect megaraid)" "" "megaraid sample: every key is one collect() gives"
is "$(keys "$smp" megaraid | wc -l)" 22 "megaraid sample: 22 facts (status, 5 of the card and volume, 8 drives x 2)"
is "$(wc -l < "$HBATEST_TOOL_LOG")|$(sort -u "$HBATEST_TOOL_LOG" | tr '\n' ';')" \
	"3|storcli64 /call show all J;storcli64 /call/eall/sall show all J;storcli64 /call/vall show all J;" \
	"megaraid sample: three tool calls, each a read-only verb"

# --- the stand-in that changes midway: write-back, then a learn cycle ------------
export HBATEST_FIXTURE_STATE="$TMP/card"
out=$(PATH=$P "$HB" probe --sample 2>&1)
is "$(fact megaraid c0.v0.write_policy_effective)|$(fact megaraid c0.cache_protection_state)" "WriteBack|Optimal" \
	"switch: no state file: write-back, CacheVault optimal"
echo wb > "$HBATEST_FIXTURE_STATE"
out=$(PATH=$P "$HB" probe --sample 2>&1)
is "$(fact megaraid c0.v0.write_policy_effective)|$(fact megaraid c0.cache_protection_state)" "WriteBack|Optimal" \
	"switch: wb: write-back, CacheVault optimal"
is "$(PATH=$P HBATEST_SYSFS_ROOT="$TMP/none" "$HB" probe 2>&1)" "$col" "switch: wb: collect() reads the recorded answers unchanged"
echo wt > "$HBATEST_FIXTURE_STATE"
out=$(PATH=$P "$HB" probe --sample 2>&1)
is "$(fact megaraid c0.v0.write_policy_effective)|$(fact megaraid c0.cache_protection_state)|$(fact megaraid c0.v0.state)" \
	"WriteThrough|Learning|Optl" "switch: wt: write-through in effect, CacheVault learning, volume still optimal"
out=$(PATH=$P "$HB" probe 2>&1)
is "$(fact megaraid c0.v0.write_policy)|$(fact megaraid c0.v0.write_policy_effective)|$(fact megaraid c0.v0.cache)|$(fact megaraid c0.v0.read_policy)" \
	"WriteBack|WriteThrough|RWTD|ReadAhead" "switch: wt: collect() sees write-back as set, write-through in effect (RWTD)"
echo wb > "$HBATEST_FIXTURE_STATE"
out=$(PATH=$P "$HB" probe --sample 2>&1)
is "$(fact megaraid c0.v0.write_policy_effective)" "WriteBack" "switch: back to wb: write-back again"
unset HBATEST_FIXTURE_STATE

# per target: the volume behind it and its link as trained now
smp=$(PATH=$P HBATEST_SYSFS_ROOT="$SYS/megaraid-pcie3-x8" "$HB" probe --sample /dev/sda 2>&1)
out=$(awk '/^\/dev\/sda$/ { on = 1 } on' <<< "$smp")
is "$(fact megaraid c0.v0.write_policy_effective)|$(fact pcie current_link_speed)|$(fact pcie current_link_width)" \
	"WriteBack|8.0 GT/s PCIe|8" "probe --sample /dev/sda: the volume behind it, the PCIe link now"
is "$(keys "$out" pcie | tr '\n' ' ')" "current_link_speed current_link_width " "pcie sample: the current link alone"
col=$(PATH=$P HBATEST_SYSFS_ROOT="$SYS/megaraid-pcie3-x8" "$HB" probe /dev/sda 2>&1)
is "$(not_in_collect pcie)" "" "pcie sample: keys as collect() names them"
smp=$(HBATEST_SYSFS_ROOT="$SYS/mpt3sas-pcie3-x4" "$HB" probe --sample /dev/sdb 2>&1); out=$smp
is "$(fact pcie current_link_width)" 4 "pcie sample: a link trained x4"

# --- PERC H730P: BBU ---------------------------------------------------------------
out=$(PATH=$(onpath perc perccli64/perccli64) "$HB" probe --sample 2>&1)
is "$(fact megaraid c0.temperature_c)|$(fact megaraid c0.cache_protection_state)|$(fact megaraid c0.v0.write_policy_effective)" \
	"61|$(PATH=$(onpath perc2 perccli64/perccli64) "$HB" probe 2>&1 | awk '$1 == "c0.cache_protection_state" { $1 = ""; sub(/^ +/, ""); print }')|WriteThrough" \
	"perc sample: temperature, the BBU's state, write-through"

# --- mpt: IR RAID1 (sas2ircu), IT (sas3ircu) ---------------------------------------
P=$(onpath ir sas2ircu/sas2ircu)
col=$(PATH=$P "$HB" probe 2>&1)
: > "$HBATEST_TOOL_LOG"
smp=$(PATH=$P "$HB" probe --sample 2>&1); out=$smp
is "$(fact mpt c0.v0.state)|$(fact mpt c0.v0.d1.state)|$(fact mpt c0.v0.raid_level)$(fact mpt c0.model)" \
	"Okay (OKY)|$(out=$col; fact mpt c0.v0.d1.state)|" "mpt sample: the IR volume's and a drive's state, no fixed fact"
is "$(not_in_collect mpt)" "" "mpt sample: keys as collect() names them"
is "$(sort -u "$HBATEST_TOOL_LOG" | tr '\n' ';')" "sas2ircu 0 DISPLAY;sas2ircu LIST;" "mpt sample: LIST and 0 DISPLAY"
out=$(PATH=$(onpath it sas3ircu/sas3ircu) HBATEST_SYSFS_ROOT="$TMP/none" "$HB" probe --sample 2>&1)
is "$(keys "$out" mpt | grep -c '^c0\.d[0-7]\.state$')|$(keys "$out" mpt | grep -vc '^c0\.d[0-7]\.state$\|^status$')" "8|0" \
	"mpt sample IT: the 8 drives' state and nothing else"

# --- adaptec: ASR-8885 ------------------------------------------------------------
P=$(onpath arc arcconf/arcconf)
col=$(PATH=$P "$HB" probe 2>&1)
smp=$(PATH=$P "$HB" probe --sample 2>&1); out=$smp
is "$(fact adaptec c1.temperature_c)|$(fact adaptec c1.cache_protection_state)|$(fact adaptec c1.v0.state)|$(fact adaptec c1.v0.write_policy_effective)|$(fact adaptec c1.v0.d5.temperature_c)" \
	"42|Ready|Optimal|On|34" "adaptec sample: temperature, supercap, volume state, write-cache status, a drive's temperature"
is "$(fact adaptec c1.model)$(fact adaptec c1.v0.write_policy)$(fact adaptec c1.v0.d5.model)" "" "adaptec sample: no fixed fact"
is "$(not_in_collect adaptec)" "" "adaptec sample: keys as collect() names them"

# --- smart: the temperature, by smartctl -j -n standby -A ---------------------------
mkdir -p "$TMP/sm"
cat > "$TMP/sm/smartctl" <<'SH'
#!/bin/sh
printf 'smartctl %s\n' "$*" >> "$HBATEST_TOOL_LOG"
cat <<'JSON'
{ "smartctl": { "version": [7, 3], "exit_status": 0 },
  "smart_status": { "passed": true },
  "temperature": { "current": 44 },
  "power_on_time": { "hours": 1234 } }
JSON
SH
chmod +x "$TMP/sm/smartctl"
: > "$TMP/local.dat"
: > "$HBATEST_TOOL_LOG"
out=$(PATH="$TMP/sm:$PATH" "$HB" probe --sample "$TMP/local.dat" 2>&1)
is "$(fact smart temperature_c)|$(fact smart status)|$(keys "$out" smart | tr '\n' ' ')" "44|read|status temperature_c " \
	"smart sample: the temperature alone"
like "$(cat "$HBATEST_TOOL_LOG")" '^smartctl -j -n standby -A /dev/[a-z0-9]+$' "smart sample: one smartctl -j -n standby -A"
printf '#!/bin/sh\necho "{ \\"smartctl\\": { \\"messages\\": [ { \\"string\\": \\"Device is in STANDBY mode, exit(2)\\" } ], \\"exit_status\\": 2 } }"\nexit 2\n' > "$TMP/sm/smartctl"
out=$(PATH="$TMP/sm:$PATH" "$HB" probe --sample "$TMP/local.dat" 2>&1)
is "$(fact smart status)|$(fact smart temperature_c)" "unavailable: Device is in STANDBY mode, exit(2)|" "smart sample: a drive asleep is left asleep, said"

# --- block: the drive's hwmon temperature (NVMe beside its namespaces, drivetemp
# under a SATA/SCSI disk's device), in collect and in sample; a value that is no
# temperature is left out
cp -a "$ROOT/tests/fixtures/sysfs/nvme-pcie4-x4" "$TMP/hwn"
ctl="$TMP/hwn/sys/devices/pci0000:00/0000:00:01.1/0000:01:00.0/nvme/nvme0"
mkdir -p "$ctl/hwmon3"; echo 41850 > "$ctl/hwmon3/temp1_input"
out=$(HBATEST_SYSFS_ROOT="$TMP/hwn" "$HB" probe --sample /dev/nvme0n1 2>&1)
is "$(keys "$out" block | tr '\n' ' ')|$(fact block temperature_c)" "temperature_c |41" \
	"block sample: an NVMe drive's hwmon temperature (41.85 C), and nothing else"
out=$(HBATEST_SYSFS_ROOT="$TMP/hwn" "$HB" probe /dev/nvme0n1 2>&1)
is "$(fact block temperature_c)|$(fact block device)" "41|nvme0n1" "block collect: the temperature beside the other facts"
cp -a "$ROOT/tests/fixtures/sysfs/megaraid-pcie3-x8" "$TMP/hws"
dev=$(readlink -f "$TMP/hws/sys/class/block/sda/device")
mkdir -p "$dev/hwmon/hwmon1"; echo 36000 > "$dev/hwmon/hwmon1/temp1_input"
out=$(HBATEST_SYSFS_ROOT="$TMP/hws" "$HB" probe --sample /dev/sda 2>&1)
is "$(fact block temperature_c)" 36 "block sample: a SATA/SCSI disk's drivetemp hwmon temperature"
echo "N/A" > "$dev/hwmon/hwmon1/temp1_input"
out=$(HBATEST_SYSFS_ROOT="$TMP/hws" "$HB" probe --sample /dev/sda 2>&1)
is "$(keys "$out" block | tr '\n' ' ')" "" "block sample: a temp1_input that is no number: no temperature"
out=$(HBATEST_SYSFS_ROOT="$ROOT/tests/fixtures/sysfs/megaraid-pcie3-x8" "$HB" probe --sample /dev/sda 2>&1)
is "$(keys "$out" block | tr '\n' ' ')" "" "block sample: no hwmon: nothing"

# --- usage ---------------------------------------------------------------------------
"$HB" probe --samples >/dev/null 2>&1; is $? 2 "probe --samples (a typo) is a usage error"

done_testing
