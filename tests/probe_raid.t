#!/usr/bin/env bash
# RAID card probes (megaraid, mpt, adaptec) with stand-in tools on PATH
# (tests/fixtures/tools: recorded answers, each read-only verb by its
# arguments): controller, volume and drive facts, host-level and per target,
# stored by a run; a missing tool, a hung one, garbage, too much output.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_probe.sh"

SYS="$ROOT/tests/fixtures/sysfs"
DB="$TMP/r.db"
export HBATEST_TOOL_LOG="$TMP/tool.log"
printf 'hb.run{ engine = "null", duration = 1, oio = 1 }\n' > "$TMP/p.lua"

run_fact() { q "$DB" "SELECT value FROM probes WHERE run_id = (SELECT max(id) FROM runs) AND phase = 'start' AND COALESCE(target, 'host') = '$1' AND probe = '$2' AND key = '$3'"; }

# --- MegaRAID 9361-8i: RAID5 write-back of 8 SAS SSDs, CacheVault ---------------
P=$(onpath mr storcli64/storcli64)
out=$(PATH=$P HBATEST_SYSFS_ROOT="$TMP/none" "$HB" probe 2>&1); ok $? "megaraid: hbatest probe exits 0"
is "$(fact megaraid c0.model)|$(fact megaraid c0.firmware)|$(fact megaraid c0.temperature_c)" \
	"AVAGO MegaRAID SAS 9361-8i|4.680.00-8417|53" "megaraid: controller model, firmware, ROC temperature"
is "$(fact megaraid c0.cache_mb)|$(fact megaraid c0.cache_protection)|$(fact megaraid c0.cache_protection_state)|$(fact megaraid c0.personality)" \
	"1024|CacheVault|Optimal|RAID-Mode" "megaraid: cache size, CacheVault and its state, personality"
is "$(fact megaraid c0.v0.raid_level)|$(fact megaraid c0.v0.strip_kb)|$(fact megaraid c0.v0.write_policy)|$(fact megaraid c0.v0.write_policy_effective)" \
	"RAID5|256|WriteBack|WriteBack" "megaraid: volume RAID5, strip 256 KB, write-back set and in effect"
is "$(fact megaraid c0.v0.read_policy)|$(fact megaraid c0.v0.io_policy)|$(fact megaraid c0.v0.drive_cache)|$(fact megaraid c0.v0.os_device)" \
	"ReadAhead|Direct|Disk's Default|/dev/sda" "megaraid: the RWBD code read: read-ahead, direct I/O; drive cache; OS device"
is "$(grep -c '^ *c0\.v0\.d[0-9]\.model  *HUSMM8040ASS200$' <<< "$out")" 8 "megaraid: 8 member drives, model trimmed of its trailing space"
is "$(fact megaraid c0.v0.d7.firmware)|$(fact megaraid c0.v0.d7.interface)|$(fact megaraid c0.v0.d7.media)|$(fact megaraid c0.v0.d7.speed)|$(fact megaraid c0.v0.d7.temperature_c)" \
	"A204|SAS|SSD|12.0Gb/s|31" "megaraid: a drive's firmware, interface, media, link speed, temperature"
is "$(sort -u "$HBATEST_TOOL_LOG")" "storcli64 /call show all J
storcli64 /call/eall/sall show all J
storcli64 /call/vall show all J" "megaraid: only the three read-only verbs were run"

out=$(PATH=$P HBATEST_SYSFS_ROOT="$SYS/megaraid-pcie3-x8" "$HB" probe /dev/sda 2>&1)
sec=$(awk '/^\/dev\/sda$/ { on = 1 } on' <<< "$out")
like "$sec" 'megaraid +c0\.model +AVAGO MegaRAID SAS 9361-8i' "megaraid: probe /dev/sda names the controller behind it"
like "$sec" 'c0\.v0\.raid_level +RAID5' "and the volume that is /dev/sda"
like "$sec" 'c0\.v0\.d7\.model +HUSMM8040ASS200' "and its drives"
PATH=$P HBATEST_SYSFS_ROOT="$SYS/megaraid-pcie3-x8" "$HB" run "$TMP/p.lua" --db "$DB" -q --target /dev/sda 2>"$TMP/err"
ok $? "megaraid: a run on the fixture"
is "$(run_fact host megaraid c0.model)|$(run_fact host megaraid c0.v0.write_policy_effective)|$(run_fact /dev/sda megaraid c0.v0.strip_kb)" \
	"AVAGO MegaRAID SAS 9361-8i|WriteBack|256" "megaraid: the run stores the facts, host-level and for its target"

# storcli's cache code, every read-ahead, write and I/O policy it combines (a
# copy of the recorded answers with the volume's code replaced): a table
mkdir -p "$TMP/codes"; cp "$TOOLS/storcli64/"* "$TMP/codes/"
while read -r code want; do
	sed "s/\"Cache\" : \"RWBD\"/\"Cache\" : \"$code\"/" "$TOOLS/storcli64/vall.json" > "$TMP/codes/vall.json"
	out=$(PATH="$TMP/codes:/usr/bin:/bin" HBATEST_SYSFS_ROOT="$TMP/none" "$HB" probe 2>&1 </dev/null)
	is "$(fact megaraid c0.v0.cache) $(fact megaraid c0.v0.read_policy)|$(fact megaraid c0.v0.write_policy_effective)|$(fact megaraid c0.v0.io_policy)" \
		"$code $want" "megaraid: cache code $code"
done <<'EOF'
RWBD ReadAhead|WriteBack|Direct
RWBC ReadAhead|WriteBack|Cached
RWTD ReadAhead|WriteThrough|Direct
RAWBD ReadAhead|AlwaysWriteBack|Direct
RAWBC ReadAhead|AlwaysWriteBack|Cached
NRWBD NoReadAhead|WriteBack|Direct
NRWTD NoReadAhead|WriteThrough|Direct
NRWTC NoReadAhead|WriteThrough|Cached
NRAWBD NoReadAhead|AlwaysWriteBack|Direct
NRAWBC NoReadAhead|AlwaysWriteBack|Cached
RWBX ||
XWBD ||
EOF

# --- Dell PERC H730P: RAID1 write-through, BBU ------------------------------------
out=$(PATH=$(onpath perc perccli64/perccli64) "$HB" probe 2>&1)
is "$(fact megaraid tool)|$(fact megaraid c0.model)|$(fact megaraid c0.firmware)|$(fact megaraid c0.temperature_c)" \
	"perccli64|PERC H730P Mini|4.300.00-8366|61" "perc: perccli64 found, model, firmware, temperature"
is "$(fact megaraid c0.v0.raid_level)|$(fact megaraid c0.v0.strip_kb)|$(fact megaraid c0.v0.write_policy_effective)|$(fact megaraid c0.v0.read_policy)|$(fact megaraid c0.cache_protection)" \
	"RAID1|64|WriteThrough|NoReadAhead|BBU" "perc: NRWTD: no read-ahead, write-through; a BBU"
is "$(fact megaraid c0.v0.d1.model)" "MZ7KM480HMHQ0D3" "perc: member drive model"

# --- a missing tool, a hung one, garbage, too much --------------------------------
out=$(PATH="$TMP/empty" "$HB" probe 2>&1)
is "$(fact megaraid status)" "skipped: no storcli64, storcli, perccli64 or perccli on PATH" "megaraid: a missing tool is one fact"
mkdir -p "$TMP/odd"
# (the hung tools sleep a time of this test's own, 30.PID and 31.PID s, so that
# pgrep finds no other test's: two suites on one machine once met so)
printf '#!/bin/sh\nexec sleep 30.%s\n' $$ > "$TMP/odd/storcli64"; chmod +x "$TMP/odd/storcli64"
out=$(PATH="$TMP/odd:/usr/bin:/bin" HBATEST_TOOL_TIMEOUT=1 "$HB" probe 2>&1); ok $? "a hung tool: probe still exits 0"
is "$(fact megaraid status)" "unavailable: storcli64 did not finish in 1 s (killed)" "a hung tool: cut at the time limit, a fact"
is "$(pgrep -fx "sleep 30\\.$$")" "" "a hung tool: killed at the limit, not left running"
# one that closes its output and hangs: cut at the same limit, not waited for
printf '#!/bin/sh\nexec >&-\nexec sleep 31.%s\n' $$ > "$TMP/odd/storcli64"
out=$(PATH="$TMP/odd:/usr/bin:/bin" HBATEST_TOOL_TIMEOUT=1 "$HB" probe 2>&1); ok $? "a tool hung after closing its output: probe exits 0"
is "$(fact megaraid status)" "unavailable: storcli64 did not finish in 1 s (killed)" \
	"a tool hung after closing its output: cut at the time limit, a fact"
is "$(pgrep -fx "sleep 31\\.$$")" "" "a tool hung after closing its output: killed, not left running"
# a tool whose child hangs (a shell script waiting for its own command): the
# limit kills its process group, the child with it
printf '#!/bin/sh\nsleep 32.%s\nexit 0\n' $$ > "$TMP/odd/storcli64"
out=$(PATH="$TMP/odd:/usr/bin:/bin" HBATEST_TOOL_TIMEOUT=1 "$HB" probe 2>&1)
is "$(fact megaraid status)" "unavailable: storcli64 did not finish in 1 s (killed)" \
	"a tool whose child hangs: cut at the time limit, a fact"
for _ in $(seq 50); do pgrep -fx "sleep 32\\.$$" >/dev/null || break; sleep 0.1; done
left=$(pgrep -fx "sleep 32\\.$$")
is "$left" "" "a tool whose child hangs: the child is killed too (the tool's process group)"
[ -z "$left" ] || kill $left
# a tool's own messages on stderr: discarded, never on hbatest's output
printf '#!/bin/sh\necho "storcli64: a word on stderr" >&2\nexec "%s" "$@"\n' "$TOOLS/storcli64/storcli64" > "$TMP/odd/storcli64"
out=$(PATH="$TMP/odd:/usr/bin:/bin" HBATEST_SYSFS_ROOT="$TMP/none" "$HB" probe 2>&1)
is "$(fact megaraid c0.model)|$(grep -c 'a word on stderr' <<< "$out")" "AVAGO MegaRAID SAS 9361-8i|0" \
	"a tool's stderr: its facts read, its messages not shown"
printf '#!/bin/sh\necho "{ this is not json"\n' > "$TMP/odd/storcli64"
out=$(PATH="$TMP/odd:/usr/bin:/bin" "$HB" probe 2>&1); ok $? "garbage output: probe exits 0"
is "$(fact megaraid status)" "unavailable: storcli64 /call show all J: not the JSON expected" "garbage output: a fact"
printf '#!/bin/sh\nexit 3\n' > "$TMP/odd/storcli64"
out=$(PATH="$TMP/odd:/usr/bin:/bin" "$HB" probe 2>&1)
is "$(fact megaraid status)" "unavailable: storcli64 exited with status 3" "a failing tool: its exit status a fact"
printf '#!/bin/sh\nhead -c 5000000 /dev/zero | tr "\\\\0" x\n' > "$TMP/odd/storcli64"
out=$(PATH="$TMP/odd:/usr/bin:/bin" "$HB" probe 2>&1)
is "$(fact megaraid status)" "unavailable: storcli64 /call show all J: output cut at 4194304 bytes" "too much output: cut at the cap, a fact"

# --- LSI SAS 9300-8i in IT mode (sas3ircu): 8 SATA SSDs, no volume ---------------
P=$(onpath it sas3ircu/sas3ircu)
: > "$HBATEST_TOOL_LOG"
out=$(PATH=$P HBATEST_SYSFS_ROOT="$TMP/none" "$HB" probe 2>&1)
is "$(fact mpt tool)|$(fact mpt c0.model)|$(fact mpt c0.firmware)|$(fact mpt c0.bios)|$(fact mpt c0.personality)" \
	"sas3ircu|SAS3008|16.00.01.00|8.37.00.00|IT" "mpt IT: controller, firmware, BIOS, IT personality"
is "$(grep -c 'c0\.v[0-9]' <<< "$out")|$(grep -c '^ *c0\.d[0-9]\.model  *Samsung SSD 850$' <<< "$out")" "0|8" "mpt IT: no volume, 8 drives, models trimmed"
is "$(sort -u "$HBATEST_TOOL_LOG")" "sas3ircu 0 DISPLAY
sas3ircu LIST" "mpt: only LIST and N DISPLAY were run"
out=$(PATH=$P HBATEST_SYSFS_ROOT="$SYS/mpt3sas-pcie3-x4" "$HB" probe /dev/sdc 2>&1)
sec=$(awk '/^\/dev\/sdc$/ { on = 1 } on' <<< "$out")
like "$sec" 'c0\.model +SAS3008' "mpt IT: probe /dev/sdc names its controller"
like "$sec" 'c0\.d1\.guid +5002538d40002499' "and the drive that is sdc (its GUID, sdc's WWN)"
is "$(grep -c 'c0\.d[02-7]\.' <<< "$sec")" 0 "and no other drive"

# --- SAS2008 in IR firmware (sas2ircu): a RAID1 -----------------------------------
out=$(PATH=$(onpath ir sas2ircu/sas2ircu) "$HB" probe 2>&1)
is "$(fact mpt c0.model)|$(fact mpt c0.firmware)|$(fact mpt c0.personality)|$(fact mpt c0.v0.raid_level)|$(fact mpt c0.v0.state)" \
	"SAS2008|20.00.07.00|IR|RAID1|Okay (OKY)" "mpt IR: controller, IR personality, a RAID1 volume and its state"
is "$(fact mpt c0.v0.d0.model)|$(fact mpt c0.v0.d1.model)|$(fact mpt c0.v0.d1.firmware)|$(fact mpt c0.v0.d1.interface)" \
	"ST300MM0006|ST300MM0006|LS08|SAS" "mpt IR: the two member drives"
# per target: the RAID1 whose Volume wwid ends the disk's NAA id (the
# megaraid fixture's sda given such an id), and nothing for another disk
cp -a "$SYS/megaraid-pcie3-x8" "$TMP/irsys"
echo "naa.600508e0000000000d40034d51a2b3c4" > "$TMP/irsys/sys/class/block/sda/device/wwid"
out=$(PATH=$(onpath ir sas2ircu/sas2ircu) HBATEST_SYSFS_ROOT="$TMP/irsys" "$HB" probe /dev/sda 2>&1)
out=$(awk '/^\/dev\/sda$/ { on = 1 } on' <<< "$out")
is "$(fact mpt c0.model)|$(fact mpt c0.v0.name)|$(fact mpt c0.v0.raid_level)|$(fact mpt c0.v0.d0.model)|$(fact mpt c0.v0.d1.model)" \
	"SAS2008|system|RAID1|ST300MM0006|ST300MM0006" "mpt IR: probe /dev/sda names the controller, the RAID1 that is sda and its drives"
out=$(PATH=$(onpath ir sas2ircu/sas2ircu) HBATEST_SYSFS_ROOT="$SYS/megaraid-pcie3-x8" "$HB" probe /dev/sda 2>&1)
is "$(awk '/^\/dev\/sda$/ { on = 1 } on' <<< "$out" | grep -c 'c0\.v0\.')" 0 \
	"mpt IR: a disk whose NAA id does not end so: no volume"
out=$(PATH="$TMP/empty" HBATEST_SYSFS_ROOT="$SYS/mpt3sas-pcie3-x4" "$HB" probe 2>&1)
is "$(fact mpt status)|$(fact mpt c0.model)|$(fact mpt c0.firmware)|$(fact mpt c0.nvdata)" \
	"driver attributes only: no sas3ircu or sas2ircu on PATH|SAS9300-8i|16.00.01.00|0e.01.00.07" \
	"mpt without the tool: the mpt3sas driver's board, firmware, NVDATA"
out=$(PATH="$TMP/empty" "$HB" probe 2>&1)
is "$(fact mpt status)" "skipped: no sas3ircu or sas2ircu on PATH" "mpt: a missing tool (and no mpt host) is one fact"
printf '#!/bin/sh\necho "LSI Corporation SAS2 IR Configuration Utility."\necho "SAS2IRCU: No Controllers Found."\n' > "$TMP/odd2"
mkdir -p "$TMP/odd3"; mv "$TMP/odd2" "$TMP/odd3/sas2ircu"; chmod +x "$TMP/odd3/sas2ircu"
out=$(PATH="$TMP/odd3:/usr/bin:/bin" "$HB" probe 2>&1)
is "$(fact mpt status)" "unavailable: sas2ircu LIST: no controller in its answer" "mpt: an answer without a controller is a fact"

# --- Adaptec ASR-8885 (arcconf): a RAID5 logical device of 8 SAS SSDs, supercap ------
: > "$HBATEST_TOOL_LOG"
out=$(PATH=$(onpath arc arcconf/arcconf) "$HB" probe 2>&1)
is "$(fact adaptec c1.model)|$(fact adaptec c1.firmware)|$(fact adaptec c1.temperature_c)|$(fact adaptec c1.personality)" \
	"Adaptec ASR8885|7.5-0 (32033)|42|RAID (Expose RAW)" "adaptec: controller model, firmware, temperature, mode"
is "$(fact adaptec c1.cache_protection)|$(fact adaptec c1.cache_protection_state)|$(fact adaptec c1.pcie_type)|$(fact adaptec c1.pcie_width)" \
	"Supercap|Ready|PCIe 3.0|8" "adaptec: the supercap and its state, the PCIe link"
is "$(fact adaptec c1.v0.raid_level)|$(fact adaptec c1.v0.strip_kb)|$(fact adaptec c1.v0.write_policy)|$(fact adaptec c1.v0.write_policy_effective)" \
	"RAID5|256|Enabled (write-back) when protected by battery/ZMM|On" "adaptec: RAID5, strip 256 KB, write-back as set and in effect"
is "$(grep -c '^ *c1\.v0\.d[0-7]\.model  *HUSMM8040ASS200$' <<< "$out")|$(fact adaptec c1.v0.d5.temperature_c)|$(fact adaptec c1.v0.d5.speed)" \
	"8|34|SAS 12.0 Gb/s" "adaptec: 8 member drives by serial, models trimmed, temperature, speed"
is "$(sort -u "$HBATEST_TOOL_LOG")" "arcconf GETCONFIG 1 AL
arcconf GETVERSION" "adaptec: only GETVERSION and GETCONFIG N AL were run"
# per target: the logical device whose Unique Identifier (8 hex digits) ends
# the disk's NAA id (the megaraid fixture's sda given such an id)
cp -a "$SYS/megaraid-pcie3-x8" "$TMP/arcsys"
echo "naa.6001b4d0a1b2c3d46a7c55f3" > "$TMP/arcsys/sys/class/block/sda/device/wwid"
out=$(PATH=$(onpath arc arcconf/arcconf) HBATEST_SYSFS_ROOT="$TMP/arcsys" "$HB" probe /dev/sda 2>&1)
out=$(awk '/^\/dev\/sda$/ { on = 1 } on' <<< "$out")
is "$(fact adaptec c1.model)|$(fact adaptec c1.v0.name)|$(fact adaptec c1.v0.raid_level)|$(fact adaptec c1.v0.strip_kb)|$(fact adaptec c1.v0.write_policy_effective)" \
	"Adaptec ASR8885|bench5|RAID5|256|On" "adaptec: probe /dev/sda names the controller and the logical device that is sda"
is "$(grep -c '^ *c1\.v0\.d[0-7]\.model  *HUSMM8040ASS200$' <<< "$out")" 8 "and its 8 drives"
out=$(PATH=$(onpath arc arcconf/arcconf) HBATEST_SYSFS_ROOT="$SYS/megaraid-pcie3-x8" "$HB" probe /dev/sda 2>&1)
is "$(awk '/^\/dev\/sda$/ { on = 1 } on' <<< "$out" | grep -c 'c1\.')" 0 \
	"adaptec: a disk whose NAA id does not end so: none of the card's facts"
out=$(PATH="$TMP/empty" "$HB" probe 2>&1)
is "$(fact adaptec status)" "skipped: no arcconf on PATH" "adaptec: a missing tool is one fact"

done_testing
