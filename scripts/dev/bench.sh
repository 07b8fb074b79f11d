#!/usr/bin/env bash
# hbatest against fio, side by side in one run: same workload (4k random
# read, OIO 32, one worker/job, per-I/O latency recorded by both), same
# target. Prints IOPS, CPU seconds per million I/Os and the hbatest/fio ratios.
#   (a) null engine (the harness itself)
#   (b) io_uring, O_DIRECT, 1 GiB temporary file
#   (c) io_uring, O_DIRECT, loop device over a 1 GiB file (root only)
# Environment: BENCH_SECS (10), BENCH_ROUNDS (3: alternating, median kept),
# BENCH_DIR (a temporary folder on the file system to test).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
HB="$ROOT/hbatest"
SECS=${BENCH_SECS:-10}
FIO_EXTRA=
ROUNDS=${BENCH_ROUNDS:-3}
command -v fio >/dev/null || { echo "bench: fio is not installed (apt-get install fio)" >&2; exit 1; }
command -v sqlite3 >/dev/null || { echo "bench: sqlite3 is not installed" >&2; exit 1; }
DIR=$(mktemp -d "${BENCH_DIR:-${TMPDIR:-/tmp}}/hbatest-bench.XXXXXX")
LOOP=""
cleanup() {
	[ -n "$LOOP" ] && losetup -d "$LOOP"
	rm -rf "$DIR"
}
trap cleanup EXIT

# cpu_of CMD...: run it, print "user+sys seconds" of it and its children
cpu_of() {
	local TIMEFORMAT='%U %S' t
	t=$( { time "$@" >/dev/null 2>"$DIR/err"; } 2>&1 ) || { cat "$DIR/err" >&2; return 1; }
	awk -v u="${t% *}" -v s="${t#* }" 'BEGIN { printf "%.3f", u + s }'
}

# run_fio ENGINE TARGET -> "iops cpu_s"
run_fio() {
	local extra=()
	[ "$1" = null ] && extra=(--size=1g --direct=0) || extra=(--direct=1)
	[ "$1" = io_uring ] && extra+=(--fixedbufs=1 --registerfiles=1 $FIO_EXTRA)
	local cpu
	cpu=$(cpu_of fio --name=bench --ioengine="$1" --filename="$2" --rw=randread --bs=4k \
		--iodepth=32 --numjobs=1 --time_based --runtime="$SECS" --norandommap \
		--randrepeat=0 --output-format=json --output="$DIR/fio.json" "${extra[@]}")
	echo "$(sqlite3 :memory: "SELECT json_extract(readfile('$DIR/fio.json'), '\$.jobs[0].read.iops')") $cpu"
}

# run_hb ENGINE TARGET -> "iops cpu_s"
run_hb() {
	local cpu db="$DIR/hb.db"
	rm -f "$db" "$db"-wal "$db"-shm
	cpu=$(cpu_of "$HB" run "$ROOT/scripts/dev/bench.lua" --db "$db" --target "$2" \
		--set engine="$1" --set secs="$SECS" -q)
	echo "$(sqlite3 "$db" "SELECT iops FROM steps") $cpu"
}

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# compare LABEL ENGINE TARGET  (FIO_EXTRA: more fio options for this row)
compare() {
	local label=$1 engine=$2 target=$3 f h
	: > "$DIR/f"; : > "$DIR/h"
	for _ in $(seq "$ROUNDS"); do
		f=$(run_fio "$engine" "$target"); echo "$f" >> "$DIR/f"
		h=$(run_hb "$engine" "$target"); echo "$h" >> "$DIR/h"
	done
	awk -v label="$label" -v secs="$SECS" '
		FNR == 1 { file++ }
		{ iops[file, FNR] = $1; cpu[file, FNR] = $2 / ($1 * secs / 1e6); n[file] = FNR }
		function med(f, a,   i, j, t, v) {
			for (i = 1; i <= n[f]; i++) v[i] = a[f, i]
			for (i = 1; i <= n[f]; i++) for (j = i + 1; j <= n[f]; j++)
				if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
			return v[int((n[f] + 1) / 2)]
		}
		END {
			fi = med(1, iops); hi = med(2, iops); fc = med(1, cpu); hc = med(2, cpu)
			printf "%-34s %12.0f %12.0f %7.3f   %9.3f %9.3f %7.3f\n", label, fi, hi, hi / fi, fc, hc, hc / fc
		}' "$DIR/f" "$DIR/h"
}

echo "hbatest $("$HB" --version | cut -d' ' -f2) vs $(fio --version); ${SECS}s per run, median of $ROUNDS alternating rounds"
echo "host: $(nproc) CPUs, kernel $(uname -r); target folder $(df --output=source,fstype "$DIR" | tail -1)"
printf "%-34s %12s %12s %7s   %9s %9s %7s\n" "workload (4k randread, OIO 32)" "fio IOPS" "hbatest IOPS" "ratio" \
	"fio CPU" "hb CPU" "ratio"
printf "%-34s %12s %12s %7s   %9s %9s %7s\n" "" "" "" "hb/fio" "s/M I/O" "s/M I/O" "hb/fio"
compare "(a) null engine" null "$DIR/null-target"
dd if=/dev/urandom of="$DIR/file.dat" bs=1M count=1024 status=none conv=fsync
compare "(b) io_uring, O_DIRECT, 1 GiB file" io_uring "$DIR/file.dat"
FIO_EXTRA="--iodepth_batch_submit=16 --iodepth_batch_complete_max=32" \
	compare "(b) same, fio batching submissions" io_uring "$DIR/file.dat"
if [ "$(id -u)" = 0 ] && LOOP=$(losetup --find --show --direct-io=on "$DIR/file.dat" 2>/dev/null); then
	compare "(c) io_uring, O_DIRECT, loop device" io_uring "$LOOP"
else
	echo "(c) loop device: skipped (needs root and losetup)"
fi
