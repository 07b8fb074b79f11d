#!/usr/bin/env bash
# SAS/SATA lanes in the sim engine: each drive's lane (the lower of
# drive_link_gbps and the controller's sas_lane_gbps; 8b/10b and framing:
# 0.93 of the encoded rate, 558 MB/s at 6 Gb/s) caps its transfer, wide ports
# shared through an expander (sas_ports x sas_port_lanes) cap the drives
# behind them, each beside the PCIe link; and the link's efficiency takes a
# platform's factor (link_platform).
. "$(dirname "$0")/lib.sh"

DB="$TMP/lanes.db"
# 1 MiB sequential reads from 8 drives of 2,000 MB/s, JBOD, behind a PCIe4 x16
# link: only the lanes can bind.
cat > "$TMP/lanes.lua" <<'LUA'
local function sim(t)
  local s = { drives = 8, drive_read_mbps = 2000, drive_write_mbps = 2000, link = "pcie4x16",
              jitter = 0, ctrl_iops = 1000000 }
  for k, v in pairs(t) do s[k] = v end
  return s
end
hb.plan{ defaults = { engine = "sim", targets = { "a", "b", "c", "d", "e", "f", "g", "h" },
                      rw = "read", bs = "1m", oio = 64, duration = 5 } }
hb.run{ name = "none", sim = sim{} }
hb.run{ name = "sata 6", sim = sim{ drive_link_gbps = 6 } }
hb.run{ name = "sata 6 on sas 12", sim = sim{ drive_link_gbps = 6, sas_lane_gbps = 12 } }
hb.run{ name = "sas 12 on sas 6", sim = sim{ drive_link_gbps = 12, sas_lane_gbps = 6 } }
hb.run{ name = "sas 12", sim = sim{ drive_link_gbps = 12, sas_lane_gbps = 12 } }
hb.run{ name = "one x4 port, 6", sim = sim{ sas_lane_gbps = 6, sas_ports = 1 } }
hb.run{ name = "two x4 ports, 6", sim = sim{ sas_lane_gbps = 6, sas_ports = 2 } }
hb.run{ name = "one x4 port, 6, writes", rw = "write", sim = sim{ sas_lane_gbps = 6, sas_ports = 1 } }
hb.run{ name = "one x2 port, 12", sim = sim{ sas_lane_gbps = 12, sas_ports = 1, sas_port_lanes = 2 } }
hb.run{ name = "pcie2x8", sim = sim{ link = "pcie2x8" } }
hb.run{ name = "pcie2x8 amd", sim = sim{ link = "pcie2x8", link_platform = 0.9214 } }
hb.run{ name = "pcie2x8 xeon", sim = sim{ link = "pcie2x8", link_platform = 1.0357 } }
LUA
"$HB" run "$TMP/lanes.lua" --db "$DB" -q 2>>"$TMP/stderr"; ok $? "sequential reads through lanes, ports and links"
mbps() { q "$DB" "SELECT mbps FROM steps WHERE name = '$1'"; }
lane6=$(awk 'BEGIN { print 6e9 * 0.8 / 8 * 0.93 / 1e6 }')	# 558 MB/s
# near STEP EXPECTED WHY: within 1 %
near() {
	local v
	v=$(mbps "$1")
	awk -v v="$v" -v e="$2" 'BEGIN { exit !(v >= 0.99 * e && v <= 1.01 * e) }'
	ok $? "$1: $(printf '%.0f' "$v") MB/s, $3 ($(printf '%.0f' "$2"))"
}
near none 16000 "no lanes: 8 drives x 2,000 MB/s"
near "sata 6" "$(awk -v l="$lane6" 'BEGIN { print 8 * l }')" "8 SATA 6 Gb/s lanes of 558 MB/s"
near "sata 6 on sas 12" "$(awk -v l="$lane6" 'BEGIN { print 8 * l }')" "a 6 Gb/s drive on a 12 Gb/s controller: its own lane's rate"
near "sas 12 on sas 6" "$(awk -v l="$lane6" 'BEGIN { print 8 * l }')" "a 12 Gb/s drive on a 6 Gb/s controller: the controller's"
near "sas 12" "$(awk -v l="$lane6" 'BEGIN { print 16 * l }')" "12 Gb/s on both sides: twice (reference 001's 9300 against the 9207, \"almost 2x\" sequential reads)"
near "one x4 port, 6" "$(awk -v l="$lane6" 'BEGIN { print 4 * l }')" "8 drives behind one x4 wide port at 6 Gb/s"
near "two x4 ports, 6" "$(awk -v l="$lane6" 'BEGIN { print 8 * l }')" "behind two"
near "one x4 port, 6, writes" "$(awk -v l="$lane6" 'BEGIN { print 4 * l }')" "writes: the port's other direction, the same rate"
near "one x2 port, 12" "$(awk -v l="$lane6" 'BEGIN { print 4 * l }')" "an x2 port at 12 Gb/s carries what an x4 at 6 does"
near pcie2x8 2800 "PCIe2 x8 at the generation's efficiency, 0.70"
near "pcie2x8 amd" 2580 "with the Opteron 6172's platform factor: reference 000's 2,580 MB/s"
near "pcie2x8 xeon" 2900 "with the Xeon E5's: its 2,900 MB/s"

is "$(q "$DB" "SELECT count(*) FROM steps WHERE abs(iops * lat_mean_us / 1e6 - oio) <= 0.02 * oio")" 12 \
	"Little's law holds at every step (IOPS x mean latency = OIO within 2 %)"
printf 'hb.run{ engine = "sim", sim = { drive_link_gbps = 5 }, targets = "v", duration = 1 }\n' > "$TMP/bad.lua"
like "$("$HB" run "$TMP/bad.lua" --db "$DB" 2>&1)" "drive_link_gbps 5 is not a SAS/SATA lane rate: 1.5, 3, 6 or 12" \
	"a lane rate no SAS or SATA generation has fails, naming those that exist"
printf 'hb.run{ engine = "sim", sim = { link_platform = 0 }, targets = "v", duration = 1 }\n' > "$TMP/bad.lua"
like "$("$HB" run "$TMP/bad.lua" --db "$DB" 2>&1)" "link_platform 0 is out of range" "a platform factor of 0 fails"
done_testing
