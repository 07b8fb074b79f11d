#!/usr/bin/env bash
# The sim engine's controller cost grows with a request's size: its data path
# (ctrl_dma_*: a fixed part and a part per KiB, per direction) is a stage of
# its own beside the per-request work of ctrl_iops, so large requests are
# bound by it and small ones by ctrl_iops; with none of it set the model is
# what it was. Read-ahead (ctrl_readahead_mibps) stages sequential reads
# through the cache, a stage random reads skip.
. "$(dirname "$0")/lib.sh"

DB="$TMP/size.db"
# Fast drives and link, jitter off: the controller is the only bound.
cat > "$TMP/dma.lua" <<'LUA'
local sim = { layout = "raid0", drives = 8, drive_read_iops = 1e7, drive_write_iops = 1e7,
              drive_write_iops_steady = 1e7, drive_read_mbps = 1e5, drive_write_mbps = 1e5,
              drive_latency_us = 5, drive_write_latency_us = 5, ctrl_latency_us = 1,
              link = "pcie5x16", ctrl_iops = 1000000, jitter = 0, gc_factor = 1,
              ctrl_dma_read_us = hb.set("rus", 2), ctrl_dma_read_mibps = hb.set("rmibps", 2000),
              ctrl_dma_write_us = 3, ctrl_dma_write_mibps = 1000 }
local fast = {}
for k, v in pairs(sim) do fast[k] = v end
fast.ctrl_dma_read_us = 0.5
hb.plan{ defaults = { engine = "sim", targets = { "vol" }, oio = 64, duration = 5, sim = sim } }
for _, bs in ipairs{ "4k", "128k" } do
  hb.run{ name = "randread " .. bs, rw = "randread", bs = bs }
  hb.run{ name = "randwrite " .. bs, rw = "randwrite", bs = bs }
end
hb.run{ name = "read 512", rw = "randread", bs = "512" }
hb.run{ name = "read 512 fast", rw = "randread", bs = "512", sim = fast }
LUA
"$HB" run "$TMP/dma.lua" --db "$DB" --label dma -q 2>>"$TMP/stderr"; ok $? "reads and writes of 4k and 128k through a data path"
"$HB" run "$TMP/dma.lua" --db "$DB" --label off --set rus=0 --set rmibps=0 -q 2>>"$TMP/stderr"
ok $? "the same with the read side of the data path off"
iops() { q "$DB" "SELECT iops FROM steps s JOIN runs r ON r.id = s.run_id WHERE r.label = '$1' AND s.name = '$2'"; }
# near LABEL STEP EXPECTED WHY: within 1 %
near() {
	local v
	v=$(iops "$1" "$2")
	awk -v v="$v" -v e="$3" 'BEGIN { exit !(v >= 0.99 * e && v <= 1.01 * e) }'
	ok $? "$1 $2: $(printf '%.0f' "$v") IOPS, $4 ($(printf '%.0f' "$3"))"
}
per() { awk -v us="$1" -v kib="$2" -v mibps="$3" 'BEGIN { print 1e6 / (us + kib / 1024 / mibps * 1e6) }'; }
near dma "randread 4k" "$(per 2 4 2000)" "1 / (2 us + 4 KiB at 2,000 MiB/s)"
near dma "randread 128k" "$(per 2 128 2000)" "1 / (2 us + 128 KiB at 2,000 MiB/s)"
near dma "randwrite 4k" "$(per 3 4 1000)" "writes: 1 / (3 us + 4 KiB at 1,000 MiB/s)"
near dma "randwrite 128k" "$(per 3 128 1000)" "1 / (3 us + 128 KiB at 1,000 MiB/s)"
near dma "read 512" "$(per 2 0.5 2000)" "a 512-byte read: 2 us + 0.5 KiB"
near dma "read 512 fast" 1000000 "with 0.5 us fixed (0.74 us on the data path) ctrl_iops binds"
near off "randread 4k" 1000000 "the read side off: 4k reads at ctrl_iops, as before"
near off "randwrite 128k" "$(per 3 128 1000)" "and writes keep theirs"
mibps=$(q "$DB" "SELECT mbps / 1.048576 FROM steps s JOIN runs r ON r.id = s.run_id WHERE r.label = 'dma' AND s.name = 'randread 128k'")
awk -v m="$mibps" 'BEGIN { exit !(m < 2000) }'; ok $? "128k reads stay below the data path's rate ($(printf '%.0f' "$mibps") MiB/s)"

is "$(q "$DB" "SELECT count(*) FROM steps WHERE abs(iops * lat_mean_us / 1e6 - oio) <= 0.02 * oio")" 12 \
	"Little's law holds at every step (IOPS x mean latency = OIO within 2 %)"

# Read-ahead (ctrl_readahead_mibps): a read that continues its target's
# sequential stream is staged through the cache, a stage after the data path;
# random reads and writes skip it.
cat > "$TMP/ra.lua" <<'LUA'
local sim = { layout = "raid0", drives = 8, drive_read_iops = 1e7, drive_write_iops = 1e7,
              drive_write_iops_steady = 1e7, drive_read_mbps = 1e5, drive_write_mbps = 1e5,
              drive_latency_us = 5, drive_write_latency_us = 5, ctrl_latency_us = 1,
              link = "pcie5x16", ctrl_iops = 1000000, jitter = 0, gc_factor = 1,
              ctrl_dma_read_us = 1, ctrl_dma_read_mibps = 8000,
              ctrl_readahead_mibps = hb.set("ra", 3000) }
hb.plan{ defaults = { engine = "sim", targets = { "vol" }, oio = 64, duration = 5, sim = sim } }
hb.run{ name = "read 128k", rw = "read", bs = "128k" }
hb.run{ name = "randread 128k", rw = "randread", bs = "128k" }
hb.run{ name = "write 128k", rw = "write", bs = "128k" }
LUA
"$HB" run "$TMP/ra.lua" --db "$DB" --label ra -q 2>>"$TMP/stderr"; ok $? "128k reads and writes with read-ahead"
"$HB" run "$TMP/ra.lua" --db "$DB" --label nora --set ra=0 -q 2>>"$TMP/stderr"; ok $? "and without"
near ra "read 128k" "$(awk 'BEGIN { print 3000 * 8 }')" "sequential reads at the read-ahead stage's 3,000 MiB/s"
near ra "randread 128k" "$(per 1 128 8000)" "random reads skip it: 1 / (1 us + 128 KiB at 8,000 MiB/s)"
near nora "read 128k" "$(per 1 128 8000)" "with none, sequential reads take the data path alone"
near ra "write 128k" "$(iops nora "write 128k")" "sequential writes skip it: as fast as without read-ahead"

printf 'hb.run{ engine = "sim", sim = { ctrl_dma_read_mibps = -1 }, targets = "v", duration = 1 }\n' > "$TMP/bad.lua"
like "$("$HB" run "$TMP/bad.lua" --db "$DB" 2>&1)" "ctrl_dma_read_mibps -1 is out of range" "a negative data path rate fails"
printf 'hb.run{ engine = "sim", sim = { ctrl_readahead_mibps = -1 }, targets = "v", duration = 1 }\n' > "$TMP/bad.lua"
like "$("$HB" run "$TMP/bad.lua" --db "$DB" 2>&1)" "ctrl_readahead_mibps -1 is out of range" "and a negative read-ahead rate"
done_testing
