#!/usr/bin/env bash
# A file target read where nothing has written it: holes (truncate -s) or
# space fallocate() reserved return zeros from the file system, never from the
# disk, so a read step there measures the page cache. hbatest says so at the
# step's start, in the console and in the run's events, and stays quiet once
# a step has written the file, for files it laid out, and for write steps.
. "$(dirname "$0")/lib.sh"

cd "$TMP" || exit 1

# a read, a fill of the same file, the read again, and a write-only step
cat > plan.lua <<'LUA'
local t = { engine = "psync", direct = false, bs = "64k", oio = 1, duration = 1 }
local function step(name, more)
  local s = {}
  for k, v in pairs(t) do s[k] = v end
  for k, v in pairs(more) do s[k] = v end
  s.name = name
  hb.run(s)
end
step("read before", { rw = "randread" })
step("fill", { rw = "write", passes = 1, duration = 60 })
step("read after", { rw = "randread" })
step("mixed after", { rw = "randrw", write_pct = 30 })
LUA
warned() {	# warned DB: the steps the run's events warn about, in order
	q "$1" "SELECT group_concat(substr(message, 7, instr(substr(message, 7), '''') - 1), ', ')
		FROM (SELECT message FROM events WHERE level = 'warning' AND message LIKE
		'step ''%holds no data yet%' ORDER BY id)"
}

truncate -s 8M holes.dat
if [ "$(du -k holes.dat | cut -f1)" != 0 ]; then	# a file system without sparse files
	skip "$TMP's file system stores a truncate -s file whole: no holes to find"
	done_testing
	exit
fi
out=$("$HB" run plan.lua --db h.db --target holes.dat -q 2>&1); rc=$?
is "$rc" 0 "a plan on a file of holes runs (a warning, not an error)"
like "$out" "warning: step 'read before': 100 % of target 'holes.dat' \(8\.0 of its 8\.0 MiB read\) holds no data yet .*not the device's; write the file first" \
	"its first read step is warned about, naming the step, the file and how much of it"
is "$(warned h.db)" "read before" \
	"only the step before the fill: after it the file holds data; the events keep the warning"

# half written: the share is of the range read (data hbatest did not lay
# out, so its fill needs --destroy-data)
head -c 4194304 /dev/urandom > half.dat && truncate -s 8M half.dat
out=$("$HB" run plan.lua --db half.db --target half.dat --destroy-data half.dat -q 2>&1)
like "$out" "step 'read before': 50 % of target 'half.dat' \(4\.0 of its 8\.0 MiB read\)" \
	"a file half written: 50 %, 4 of 8 MiB"

# the range alone: the written first half read, nothing said (the plan
# above filled half.dat: half written again); as a share and in bytes
head -c 4194304 /dev/urandom > half.dat && truncate -s 8M half.dat
cat > range.lua <<'LUA'
hb.run{ name = "first half", engine = "psync", direct = false, bs = "64k", oio = 1,
        duration = 1, rw = "randread", range = 0.5 }
hb.run{ name = "first 4m", engine = "psync", direct = false, bs = "64k", oio = 1,
        duration = 1, rw = "randread", range = "4m" }
hb.run{ name = "first 6m", engine = "psync", direct = false, bs = "64k", oio = 1,
        duration = 1, rw = "randread", range = "6m" }
LUA
out=$("$HB" run range.lua --db r.db --target half.dat -q 2>&1)
is "$?:$(warned r.db)" "0:first 6m" \
	"ranges of 0.5 and 4m stop where the holes begin: no warning (the step's range, not the file); 6m: warned"
like "$out" "step 'first 6m': 33 % of target 'half.dat' \(2\.0 of its 6\.0 MiB read\)" "6m: a third of it, 2 of 6 MiB"

# a hole under 1 % of the range is below the warning
head -c 8388608 /dev/urandom > most.dat && truncate -s $((8388608 + 65536)) most.dat
cat > whole.lua <<'LUA'
hb.run{ name = "whole", engine = "psync", direct = false, bs = "64k", oio = 1,
        duration = 1, rw = "randread" }
LUA
"$HB" run whole.lua --db m.db --target most.dat -q 2>/dev/null
is "$(warned m.db)" "" "64 KiB of holes in 8.06 MiB (0.8 %): no warning"
truncate -s $((8388608 + 131072)) most.dat
"$HB" run whole.lua --db m2.db --target most.dat -q 2>/dev/null
is "$(warned m2.db)" "whole" "128 KiB of holes in 8.1 MiB (1.5 %): warned"

# a file hbatest lays out (size=) is written whole: nothing to say
sed 's/duration = 1,/duration = 1, size = "8m",/' whole.lua > laid.lua
"$HB" run laid.lua --db l.db --target laid.dat -q 2>/dev/null
is "$(q l.db "SELECT count(*) FROM steps WHERE status = 'done'"):$(warned l.db)" "1:" \
	"a file laid out by size=: its step done, no warning"

# fallocate()'s reserved space: on ext4 and XFS SEEK_DATA passes over it
fs=$(stat -f -c %T .)
if fallocate -l 8M reserved.dat 2>/dev/null && [[ "$fs" =~ ^(ext2/ext3|ext4|xfs)$ ]]; then
	out=$("$HB" run whole.lua --db f.db --target reserved.dat -q 2>&1)
	like "$out" "step 'whole': 100 % of target 'reserved.dat'" \
		"space fallocate() reserved but nothing wrote ($fs): warned as holes are"
else
	skip "fallocate'd space: $TMP is on $fs (ext4 or XFS report it as no data)"
fi

# a write-only step on a file of holes reads nothing: nothing to say
truncate -s 8M wo.dat
sed 's/"randread"/"randwrite"/' whole.lua > wo.lua
"$HB" run wo.lua --db w.db --target wo.dat -q 2>/dev/null
is "$(warned w.db)" "" "a write-only step on holes: no warning"

done_testing
