#!/usr/bin/env bash
# Hard drives in the sim engine (drive_rpm > 0): a request that is not
# sequential waits a seek (drive_seek_ms) and half a turn, then transfers at
# the drive's sequential rate; with NCQ the drive takes the nearest of the
# commands queued at it (up to drive_ncq), positioning falling as the fourth
# root of that queue. Sequential streams are bound by the drives in any slot
# (reference 002: a 5-drive scrub took as long in PCIe x8 as in x4).
. "$(dirname "$0")/lib.sh"

DB="$TMP/hdd.db"
cat > "$TMP/hdd.lua" <<'LUA'
local function sim(t)
  local s = { drives = 1, drive_rpm = 7200, drive_seek_ms = 8.5, drive_read_mbps = 150,
              drive_write_mbps = 150, drive_latency_us = 0, drive_write_latency_us = 0,
              ctrl_latency_us = 0, jitter = 0, drive_capacity = "2000g" }
  for k, v in pairs(t or {}) do s[k] = v end
  return s
end
hb.plan{ defaults = { engine = "sim", targets = { "d" }, bs = "4k", duration = 60 } }
hb.sweep{ base = { rw = "randread", sim = sim() }, group = "read", oio = { 1, 32, 64 } }
hb.run{ name = "write qd1", rw = "randwrite", oio = 1, sim = sim() }
hb.run{ name = "no ncq", rw = "randread", oio = 32, sim = sim{ drive_ncq = 1 } }
hb.run{ name = "sequential", rw = "read", bs = "1m", oio = 4, sim = sim() }
-- reference 002: 5 WD Red 2 TB (5,400 rpm class, 147 MB/s sustained) as
-- JBOD on a PCIe2 card (the 9240-8i), a stream of 1 MiB reads on each
for _, link in ipairs{ "pcie2x8", "pcie2x4" } do
  hb.run{ name = "5 hdd " .. link, rw = "read", bs = "1m", oio = 20, duration = 10,
          targets = { "a", "b", "c", "d", "e" },
          sim = sim{ drives = 5, link = link, drive_rpm = 5400, drive_read_mbps = 147,
                     drive_link_gbps = 6, sas_lane_gbps = 6 } }
end
LUA
"$HB" run "$TMP/hdd.lua" --db "$DB" -q 2>>"$TMP/stderr"; ok $? "hard drives: random reads at OIO 1..64, writes, sequential reads"
col() { q "$DB" "SELECT $2 FROM steps WHERE name = '$1'"; }
near() {	# STEP COLUMN EXPECTED TOLERANCE WHY
	local v
	v=$(col "$1" "$2")
	awk -v v="$v" -v e="$3" -v t="$4" 'BEGIN { exit !(v >= (1 - t) * e && v <= (1 + t) * e) }'
	ok $? "$1: $(printf '%.1f' "$v") $2, $5 ($(printf '%.1f' "$3"))"
}
qd1=$(awk 'BEGIN { print 1e3 / (8.5 + 30e3 / 7200 + 4096 / 150e3) }')
near "randread 4k oio1" iops "$qd1" 0.01 "1 / (8.5 ms seek + half a turn at 7,200 rpm + 4 KiB at 150 MB/s)"
near "write qd1" iops "$qd1" 0.01 "a random write positions as a read does"
near "randread 4k oio32" iops "$(awk -v q="$qd1" 'BEGIN { print 1e3 / ((8.5 + 30e3 / 7200) * 32 ^ -0.25 + 4096 / 150e3) }')" 0.02 \
	"NCQ at 32: positioning over the fourth root of 32 (2.4x)"
near "randread 4k oio64" iops "$(col "randread 4k oio32" iops)" 0.01 "OIO 64 no faster: the drive reorders 32"
near "no ncq" iops "$qd1" 0.01 "drive_ncq = 1: OIO 32 as OIO 1"
near sequential mbps 150 0.01 "a sequential stream at the drive's rate"
near "5 hdd pcie2x8" mbps 735 0.01 "5 WD Red, PCIe2 x8: drive-bound at 5 x 147 MB/s"
near "5 hdd pcie2x4" mbps "$(col "5 hdd pcie2x8" mbps)" 0.01 "and the same in x4 (reference 002: 1h14m and 1h15m)"
is "$(q "$DB" "SELECT count(*) FROM steps WHERE abs(iops * lat_mean_us / 1e6 - oio) <= 0.02 * oio")" 8 \
	"Little's law holds at every step (IOPS x mean latency = OIO within 2 %)"
done_testing
