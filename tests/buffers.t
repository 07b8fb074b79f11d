#!/usr/bin/env bash
# The workers' I/O buffers: a request larger than a page gets its buffer in a
# 2 MiB-aligned mapping advised for transparent huge pages (MADV_HUGEPAGE:
# "hg" in smaps' VmFlags), so a 128 KiB read is one contiguous segment
# instead of 32 (docs/benchmarks.md, "128k sequential"); 4 KiB requests keep
# an ordinary mapping. Reads and writes through such buffers still check out.
. "$(dirname "$0")/lib.sh"

DB="$TMP/b.db"
F="$TMP/target.dat"
plan() {	# NAME BS RW: a 3 s io_uring step, two workers
	cat > "$TMP/$1.lua" <<LUA
hb.plan{ name = "$1" }
hb.run{ engine = "io_uring", rw = "$3", bs = "$2", oio = 4, workers = 2, duration = 3,
        size = "16m" }
LUA
}
# hg_maps PID: "start size_kb" of each mapping advised for huge pages
hg_maps() {
	awk '/^[0-9a-f]+-[0-9a-f]+ / { split($1, r, "-"); start = r[1] }
	     /^Size:/ { size = $2 }
	     /^VmFlags:/ && / hg( |$)/ { print start, size }' "/proc/$1/smaps" 2>/dev/null
}
# run_watched NAME: run the plan; print the hg mappings seen while it ran
# (polled until two show up or the run ends)
run_watched() {
	"$HB" run "$TMP/$1.lua" --db "$DB" --target "$F" -q &
	local pid=$!
	: > "$TMP/$1.hg"
	while kill -0 $pid 2>/dev/null; do
		hg_maps $pid > "$TMP/$1.new" && mv "$TMP/$1.new" "$TMP/$1.hg"
		[ "$(wc -l < "$TMP/$1.hg")" -ge 2 ] && break
		sleep 0.1
	done
	wait $pid
}

plan big 128k read
run_watched big
ok $? "a 128k sequential read step with two workers runs"
is "$(wc -l < "$TMP/big.hg")" 2 "each worker's buffer is a mapping advised for huge pages"
aligned=0
while read -r start size; do
	[ $((16#$start % 2097152)) = 0 ] && [ $((size % 2048)) = 0 ] && aligned=$((aligned + 1))
done < "$TMP/big.hg"
is "$aligned" 2 "both start on a 2 MiB boundary and span whole 2 MiB pages"

plan small 4k randread
run_watched small
ok $? "a 4k random read step runs"
is "$(wc -l < "$TMP/small.hg")" 0 "4 KiB requests: no mapping advised for huge pages"

plan mixed 64k randrw
run_watched mixed
ok $? "a 64k 50/50 random step through huge-page buffers runs"
is "$(q "$DB" "SELECT status, errors, read_ops > 0, write_ops > 0 FROM steps ORDER BY id DESC LIMIT 1")" \
	"done|0|1|1" "it reads and writes without errors"
is "$(check_invariant "$DB" 3)" 1 "its totals agree with its samples, histograms and per-target rows"


# buffers the machine has not got: refused in the dry pass, naming the step,
# what they take and why (oio 65536 x 1 MiB, twice for a read/write mix: 128
# GiB, more than any machine this runs on has available), before a target
# file or the database is made; the null engine moves no data: no buffers
cat > "$TMP/huge.lua" <<'LUA'
hb.run{ engine = "io_uring", rw = "randrw", write_pct = 50, bs = "1m", oio = 65536, duration = 1,
        size = "16m" }
LUA
AVAIL="more than the [0-9.]+ [KMGT]iB this process has available \\((MemAvailable in /proc/meminfo|its cgroup's memory\\.max less memory\\.current)\\): lower oio or bs"
out=$("$HB" run "$TMP/huge.lua" --db "$TMP/huge.db" --target "$TMP/huge.dat" 2>&1)
like "$? $out" "^1 .*huge\\.lua:1: hb\\.run: its I/O buffers take 128 GiB \\(oio=65536 x bs=1m x 2, a read and a write buffer, in 1 worker\\), $AVAIL" \
	"I/O buffers over the memory available: refused in the dry pass, exit 1, with the sum and the fix"
[ ! -e "$TMP/huge.db" ] && [ ! -e "$TMP/huge.dat" ]; ok $? "and neither the database nor the target file is made"
# each worker's buffer in whole 2 MiB pages (worker.c's buf_map, its fill
# touches them all): 1024 workers x 64 x 1028 KiB = 64.25 MiB each, 66 MiB
printf 'hb.run{ name = "wide", engine = "io_uring", rw = "randread", bs = "1028k", oio = 65536, workers = 1024, duration = 1, size = "16m" }\n' > "$TMP/wide.lua"
out=$("$HB" run "$TMP/wide.lua" --db "$TMP/huge.db" --target "$TMP/huge.dat" 2>&1)
like "$? $out" "^1 .*hb\\.run: step 'wide': its I/O buffers take 66\\.0 GiB \\(oio=65536 x bs=1028k, in 1024 workers\\), $AVAIL" \
	"each worker's buffer counted in whole 2 MiB pages (66 GiB, not 64.25), the step named"
sed -e 's/engine = "io_uring"/engine = "fio"/' "$TMP/huge.lua" > "$TMP/hugelocal.lua"
out=$("$HB" run "$TMP/hugelocal.lua" --db "$TMP/huge.db" --target "$TMP/huge.dat" 2>&1)
like "$? $out" "^1 .*its I/O buffers take 128 GiB" "a fio step on this machine (no hosts=): refused alike, fio's buffers being here"
sed -e 's/engine = "io_uring"/engine = "null"/' -e 's/size = "16m"/targets = "v"/' "$TMP/huge.lua" > "$TMP/hugenull.lua"
"$HB" run "$TMP/hugenull.lua" --db "$TMP/huge2.db" --dry-run >/dev/null 2>&1
ok $? "the null engine at the same oio and bs: no buffers, no refusal"
printf 'hb.run{ engine = "fio", fio = { hosts = "host1:8765" }, rw = "randrw", write_pct = 50, bs = "1m", oio = 65536, duration = 1, size = "16m", targets = "'"$TMP/fiohost.dat"'" }\n' > "$TMP/hugefio.lua"
out=$("$HB" run "$TMP/hugefio.lua" --db "$TMP/huge.db" --dry-run 2>&1)
printf '%s' "$out" | grep -q "I/O buffers take"; ok $((! $?)) "a fio step over hosts=: fio's buffers are the hosts', not refused for this machine's memory"
like "$out" "fio host 'host1:8765'" "(its dry pass goes on to ask for the host)"

done_testing
