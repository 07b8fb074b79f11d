#!/usr/bin/env bash
# Probes on fixture sysfs trees (tests/fixtures/sysfs, the kernel's layout):
# every parsed value, the computed link ceilings, the downtrained-link
# warning, absent attributes left absent; and on this machine.
. "$(dirname "$0")/lib.sh"

FIX="$ROOT/tests/fixtures/sysfs"
DB="$TMP/p.db"
printf 'hb.run{ engine = "null", duration = 1, oio = #hb.targets }\nhb.probe("mid")\n' > "$TMP/p.lua"

# snapshot FIXTURE TARGET...: a null run whose probes read the fixture
snapshot() {
	local fix=$1; shift
	local args=()
	for t in "$@"; do args+=(--target "$t"); done
	HBATEST_SYSFS_ROOT="$FIX/$fix" "$HB" run "$TMP/p.lua" --db "$DB" -q "${args[@]}" 2>"$TMP/stderr"
}
run_id() { q "$DB" "SELECT max(id) FROM runs"; }
fact() { q "$DB" "SELECT value FROM probes WHERE run_id = $(run_id) AND phase = 'start' AND COALESCE(target, 'host') = '$1' AND probe = '$2' AND key = '$3'"; }
facts_of() { q "$DB" "SELECT group_concat(key || '=' || value, '; ') FROM (SELECT key, value FROM probes WHERE run_id = $(run_id) AND phase = 'start' AND COALESCE(target, 'host') = '$1' AND probe = '$2' ORDER BY rowid)"; }

# --- mpt3sas HBA, 8 SATA SSDs, PCIe3 trained x4 of x8 ---------------------------
snapshot mpt3sas-pcie3-x4 /dev/sdb /dev/sdc /dev/sdd /dev/sde /dev/sdf /dev/sdg /dev/sdh /dev/sdi
ok $? "mpt3sas fixture: a run with 8 targets probes them"
is "$(facts_of host host)" "hostname=bench1; kernel=5.15.0-91-generic; cpu_model=Intel(R) Xeon(R) CPU E5-2620 v3 @ 2.40GHz; sockets=2; cores=4; threads=8; memory_bytes=135056732160; numa_nodes=2" \
	"host: kernel, CPU, 2 sockets x 2 cores, 8 threads, memory, NUMA nodes"
is "$(facts_of /dev/sdb block)" "device=sdb; size_bytes=512110190592; model=Samsung SSD 850; vendor=ATA; revision=2B6Q; wwid=$(cat "$FIX/mpt3sas-pcie3-x4/sys/class/block/sdb/device/wwid"); logical_block_size=512; physical_block_size=4096; rotational=0; nr_requests=256; queue_depth=32; write_cache=write back; max_sectors_kb=512; scheduler=mq-deadline" \
	"block: every attribute of sdb"
is "$(q "$DB" "SELECT count(DISTINCT target) FROM probes WHERE run_id = $(run_id) AND probe = 'block'")" 8 "block facts for all 8 drives"
is "$(fact /dev/sdb pcie address):$(fact /dev/sdb pcie vendor_id):$(fact /dev/sdb pcie device_id):$(fact /dev/sdb pcie driver):$(fact /dev/sdb pcie numa_node)" \
	"0000:03:00.0:0x1000:0x0097:mpt3sas:0" "pcie: the HBA's address, IDs, driver and NUMA node"
like "$(fact /dev/sdb pcie vendor_name) / $(fact /dev/sdb pcie device_name)" 'LSI.* / SAS3008' "pcie: names from the PCI ID database"
is "$(fact /dev/sdb pcie current_link_width)/$(fact /dev/sdb pcie max_link_width)" "4/8" "pcie: trained x4 of x8"
is "$(fact /dev/sdb pcie ceiling_current_bytes_per_s)" 3938461538 "ceiling of PCIe3 x4: 8 GT/s x 4 x 128/130 / 8 = 3.94 GB/s"
is "$(fact /dev/sdb pcie ceiling_max_bytes_per_s)" 7876923077 "ceiling of PCIe3 x8: 7.88 GB/s"
is "$(fact /dev/sdb pcie link_downtrained)" "link trained x4 of x8: ceiling 3.94 GB/s (x8: 7.88 GB/s)" "the downtrained link is a fact"
is "$(q "$DB" "SELECT count(*) FROM events WHERE run_id = $(run_id) AND level = 'warning' AND message = '/dev/sdb: link trained x4 of x8: ceiling 3.94 GB/s (x8: 7.88 GB/s)'")" 1 \
	"and a warning event of the run, once"
is "$(facts_of /dev/sdb scsi_host)" "host=host0; driver=mpt3sas; board_name=SAS9300-8i; board_assembly=H3-25573-00H; firmware=16.00.01.00; bios=08.37.00.00; nvdata=0e.01.00.07; can_queue=8056; cmd_per_lun=7; sg_tablesize=128" \
	"scsi_host: driver, board, firmware, BIOS, can_queue"
is "$(fact /dev/sdb smart status)" "skipped: not a live system (HBATEST_SYSFS_ROOT is set)" "smart: one clear skipped fact"
is "$(q "$DB" "SELECT group_concat(phase) FROM (SELECT DISTINCT phase FROM probes WHERE run_id = $(run_id) ORDER BY rowid)")" "start,mid,end" \
	"snapshots at start, from hb.probe, and at end"

# --- MegaRAID RAID volume, PCIe3 x8 ----------------------------------------------
snapshot megaraid-pcie3-x8 /dev/sda; ok $? "megaraid fixture"
is "$(fact /dev/sda block model):$(fact /dev/sda block vendor):$(fact /dev/sda block size_bytes)" "MR9361-8i:AVAGO:7000259821568" \
	"block: the RAID volume's model and size"
is "$(fact /dev/sda pcie driver):$(fact /dev/sda pcie ceiling_current_bytes_per_s)" "megaraid_sas:7876923077" "pcie: megaraid_sas at PCIe3 x8, 7.88 GB/s"
like "$(fact /dev/sda pcie device_name)" 'MegaRAID SAS-3 3108' "pcie: the 3108 by name"
is "$(fact /dev/sda pcie link_downtrained)" "" "a link at its maximum is not flagged"
is "$(q "$DB" "SELECT count(*) FROM events WHERE run_id = $(run_id) AND level = 'warning' AND message NOT LIKE '%host-bound%'")" 0 "and no warning (but host-bound: a null step is)"
is "$(fact /dev/sda scsi_host driver):$(fact /dev/sda scsi_host can_queue)" "megaraid_sas:928" "scsi_host: megaraid_sas, can_queue 928"
is "$(q "$DB" "SELECT count(*) FROM probes WHERE run_id = $(run_id) AND probe = 'scsi_host' AND key IN ('firmware', 'bios', 'board_name')")" 0 \
	"firmware, BIOS and board the driver does not expose are absent, not invented"

# --- SAS2008 HBA, PCIe2 x8 ----------------------------------------------------------
snapshot hba-pcie2-x8 /dev/sdb; ok $? "PCIe2 fixture"
is "$(fact /dev/sdb pcie ceiling_current_bytes_per_s)" 4000000000 "ceiling of PCIe2 x8: 5 GT/s x 8 x 8/10 / 8 = 4.00 GB/s"
is "$(fact /dev/sdb scsi_host driver):$(fact /dev/sdb scsi_host firmware)" "mpt2sas:20.00.07.00" "scsi_host: mpt2sas and its firmware"

# --- NVMe, PCIe4 x4 -------------------------------------------------------------------
snapshot nvme-pcie4-x4 /dev/nvme0n1; ok $? "NVMe fixture"
is "$(facts_of /dev/nvme0n1 nvme)" "controller=nvme0; model=Samsung SSD 980 PRO 1TB; serial=S5GXNF0R123456A; firmware=5B2QGXA7; transport=pcie; queue_count=17" \
	"nvme: model, serial, firmware, transport"
is "$(fact /dev/nvme0n1 pcie ceiling_current_bytes_per_s):$(fact /dev/nvme0n1 pcie driver)" "7876923077:nvme" "ceiling of PCIe4 x4: 7.88 GB/s"
is "$(fact /dev/nvme0n1 block model)$(fact /dev/nvme0n1 block vendor)" "" "block: no model or vendor file for NVMe namespaces, so none reported"
is "$(fact /dev/nvme0n1 scsi_host host)" "" "no SCSI host behind an NVMe drive"

# --- hbatest probe, on a fixture and on this machine -------------------------------
out=$(HBATEST_SYSFS_ROOT="$FIX/hba-pcie2-x8" "$HB" probe /dev/sdb); ok $? "hbatest probe on a fixture"
like "$out" '^/dev/sdb$' "groups facts by target"
like "$out" '^  pcie +address +0000:01:00\.0$' "and by probe"
out=$(HBATEST_SYSFS_ROOT="$TMP/none" "$HB" probe x 2>&1)
like "$out" '^\(no facts: [0-9]+ probe plugins found nothing under .*/none\)$' \
	"an empty sysfs tree: the probes found nothing there (not 'no probe plugins found')"
out=$("$HB" probe --bogus 2>&1); is "$?" 2 "probe --bogus: exit 2, not a target named --bogus"
like "$out" "hbatest probe: unknown option '--bogus'" "which names the option"
dd if=/dev/zero of="$TMP/local.dat" bs=1M count=1 status=none
out=$("$HB" probe "$TMP/local.dat" /no/such/file 2>"$TMP/probe.err"); ok $? "hbatest probe on this machine exits 0"
like "$(cat "$TMP/probe.err")" "^hbatest: warning: '/no/such/file' does not exist: its facts, if any, are those of the device that holds its folder" \
	"a path that does not exist is warned about (its folder's device stands in)"
like "$out" '^ +kernel +[0-9]' "it reports this host's kernel"
# the device holding the file, found independently: stat's device number in /sys/dev/block
dev=$(readlink -f "/sys/dev/block/$(stat -c '%Hd:%Ld' "$TMP/local.dat")" 2>/dev/null)
if [ -n "$dev" ] && [ -e "$dev/dev" ]; then
	got=$(printf '%s\n' "$out" | sed -n "\|^$TMP/local.dat\$|,/^\$/p" | sed -n 's/^  block  *device  *\([^ ]*\)$/\1/p')
	# a partition may be reported as its disk
	[ -n "$got" ] && { [ "$got" = "$(basename "$dev")" ] || [ "$got" = "$(basename "$(dirname "$dev")")" ]; }
	ok $? \
		"a file target resolves to the device holding it ($got; stat says $(basename "$dev"))"
else
	skip "the file's filesystem has no block device ($(stat -c '%Hd:%Ld' "$TMP/local.dat"))"
fi
like "$out" "/no/such/file
  \\(not a block device" "a path that is no device is said so, not an error"
printf 'hb.run{ engine = "psync", duration = 1 }\n' > "$TMP/local.lua"
"$HB" run "$TMP/local.lua" --db "$DB" --target "$TMP/local.dat" -q 2>/dev/null
ok $? "a run on a file here stores its probes and does not fail on missing attributes"
is "$(q "$DB" "SELECT count(*) > 0 FROM probes WHERE run_id = $(run_id) AND probe = 'block' AND phase = 'end'")" 1 \
	"the end snapshot has the file's block device"
# smartctl: a stand-in on PATH prints what smartctl -j prints for an NVMe drive
mkdir -p "$TMP/bin"
cat > "$TMP/bin/smartctl" <<'SH'
#!/bin/sh
cat <<'JSON'
{ "smartctl": { "version": [7, 3], "exit_status": 0 },
  "smart_status": { "passed": true },
  "nvme_smart_health_information_log": { "critical_warning": 0, "temperature": 41,
    "available_spare": 100, "percentage_used": 3, "media_errors": 0 },
  "temperature": { "current": 41 },
  "power_on_time": { "hours": 1234 } }
JSON
SH
chmod +x "$TMP/bin/smartctl"
out=$(PATH="$TMP/bin:$PATH" "$HB" probe "$TMP/local.dat")
like "$out" ' smart +status +read' "smart: smartctl's JSON is read"
for kv in "temperature_c +41" "power_on_hours +1234" "smart_passed +true" "percentage_used +3" "media_errors +0" "available_spare +100"; do
	like "$out" "^ +$kv\$" "smart: $(printf '%s' "$kv" | tr -s ' +' ' ')"
done
printf '#!/bin/sh\necho "{ \\"smartctl\\": { \\"messages\\": [ { \\"string\\": \\"/dev/x: Unable to detect device type\\" } ], \\"exit_status\\": 1 } }"\n' > "$TMP/bin/smartctl"
out=$(PATH="$TMP/bin:$PATH" "$HB" probe "$TMP/local.dat")
like "$out" ' smart +status +unavailable: /dev/x: Unable to detect device type' "smart: a device smartctl cannot read says why"

# --- NVMe native multipath (the default of most distributions): the disk is a
# virtual head under nvme-subsystem, its path nvme0c0n1 under the controller
M="$TMP/nvme-mp"; cp -a "$FIX/nvme-pcie4-x4" "$M"
C="$M/sys/devices/pci0000:00/0000:00:01.1/0000:01:00.0/nvme/nvme0"
S="$M/sys/devices/virtual/nvme-subsystem/nvme-subsys0"
mkdir -p "$S" "$C/nvme0c0n1"; mv "$C/nvme0n1" "$S/nvme0n1"; mkdir -p "$S/nvme0n1/multipath"
ln -s "$(realpath --relative-to="$S" "$C")" "$S/nvme0"
ln -s "$(realpath --relative-to="$S/nvme0n1/multipath" "$C/nvme0c0n1")" "$S/nvme0n1/multipath/nvme0c0n1"
ln -sfn "$(realpath --relative-to="$M/sys/class/block" "$S/nvme0n1")" "$M/sys/class/block/nvme0n1"
out=$(HBATEST_SYSFS_ROOT="$M" "$HB" probe /dev/nvme0n1 2>&1)
like "$out" '^  block +device +nvme0n1$' "NVMe multipath: block reads the head"
like "$out" '^  nvme +controller +nvme0$' "NVMe multipath: nvme finds the controller through the head's path"
like "$out" '^  pcie +address +0000:01:00\.0$' "NVMe multipath: pcie finds the drive's PCI function"
like "$out" '^ +ceiling_current_bytes_per_s +7876923077$' "NVMe multipath: and its link's ceiling"

# --- values that are not numbers: left out, not stored as 0 ------------------
G="$TMP/garbled"; cp -a "$FIX/nvme-pcie4-x4" "$G"
echo "unknown" > "$G/sys/devices/pci0000:00/0000:00:01.1/0000:01:00.0/nvme/nvme0/nvme0n1/size"
printf 'MemTotal:       unknown kB\n' > "$G/proc/meminfo"
out=$(HBATEST_SYSFS_ROOT="$G" "$HB" probe /dev/nvme0n1 2>&1)
like "$out" '^  block +device +nvme0n1$' "a garbled size: the block probe still reports the disk"
is "$(printf '%s\n' "$out" | grep -cE '^ +(size_bytes|memory_bytes) ')" 0 \
	"a non-numeric size or MemTotal is left out, not stored as 0"
echo "36028797018963968" > "$G/sys/devices/pci0000:00/0000:00:01.1/0000:01:00.0/nvme/nvme0/nvme0n1/size"
out=$(HBATEST_SYSFS_ROOT="$G" "$HB" probe /dev/nvme0n1 2>&1)
is "$(printf '%s\n' "$out" | grep -cE '^ +size_bytes ')" 0 "a size of 2^55 sectors (2^64 bytes) is left out, not wrapped to 0"

# --- a partition: its disk's facts, and its own name and size ------------------
P="$TMP/part"; cp -a "$FIX/mpt3sas-pcie3-x4" "$P"
sdb=$(readlink -f "$P/sys/class/block/sdb")
mkdir -p "$sdb/sdb1"; echo 1 > "$sdb/sdb1/partition"; echo 2048 > "$sdb/sdb1/size"
ln -s "$(realpath --relative-to="$P/sys/class/block" "$sdb/sdb1")" "$P/sys/class/block/sdb1"
out=$(HBATEST_SYSFS_ROOT="$P" "$HB" probe /dev/sdb1 2>&1)
like "$out" '^  block +device +sdb$' "a partition is probed as its disk"
like "$out" '^ +partition +sdb1$' "and says which partition it is"
like "$out" '^ +partition_size_bytes +1048576$' "and its own size (2048 sectors), beside the disk's"
out=$(HBATEST_SYSFS_ROOT="$P" "$HB" probe /dev/sdb 2>&1)
is "$(printf '%s\n' "$out" | grep -c partition)" 0 "the disk itself has no partition facts"

# --- a third-party probe that gives facts without a name (fixtures/plugins/nameless.c)
out=$(HB_FIXTURE_NAMELESS=1 "$HB" probe --plugin-path "$ROOT/build/tests/plugins" 2>"$TMP/stderr"); rc=$?
is "$rc" 0 "a probe giving a fact with a NULL or empty name: no crash"
like "$out" '^  nameless +kept +yes$' "its named fact is kept"
is "$(grep -c 'probe .nameless. gave a fact without a name' "$TMP/stderr")" 2 \
	"the two without a name are left out, each with a warning"
done_testing
