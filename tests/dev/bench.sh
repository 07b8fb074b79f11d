#!/usr/bin/env bash
# make bench: hbatest against fio, side by side in one run, on the same
# target with the same workload, one worker/job, both timing every I/O.
# Each row runs fio with its defaults, fio tuned, and hbatest with its
# defaults, BENCH_ROUNDS times (5), the order rotated every round so that no
# tool always runs first or after the same one, and the rounds taken across
# every row in turn so that a row's rounds spread over the whole run; the
# table gives medians,
# hbatest/fio ratios against the better fio variant (higher median IOPS),
# each the median of the rounds' ratios (bench-summary.sh), the spread of
# both tools' IOPS, the queue each kept and which targets of issue 13 the
# row misses.
# Latency is fio's total latency (lat: from before the submitting call to the
# completion, --lat_percentiles=1), what hbatest's histogram times too; fio's
# clat leaves the submitting system call out (docs/benchmarks.md).
# Then the sampler's own cost (null engine, HBATEST_NO_SAMPLER=1), and
# telemetry's (telemetry = 1 against 0).
# Environment: BENCH_SECS (3 s a run), BENCH_ROUNDS (5), BENCH_ROWS (a regex
# of row names to run), BENCH_DIR (a folder on the file system to test;
# default /var/tmp, on the root file system), BENCH_SIZE_MB (the target
# file, 1024: a smaller one for a quick try), BENCH_CPUS (a CPU list: run
# both tools under taskset on it; default unpinned).
set -euo pipefail
shopt -s inherit_errexit	# a failed run inside $(...) stops the bench, not a line of stale figures
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
HB="$ROOT/hbatest"
SECS=${BENCH_SECS:-3}
ROUNDS=${BENCH_ROUNDS:-5}
SIZE_MB=${BENCH_SIZE_MB:-1024}
[[ "$SIZE_MB" =~ ^[1-9][0-9]*$ ]] || { echo "bench: BENCH_SIZE_MB is a whole number of at least 1 (got '$SIZE_MB')" >&2; exit 2; }
PIN=()
[ -n "${BENCH_CPUS:-}" ] && PIN=(taskset -c "$BENCH_CPUS")
ROWS=${BENCH_ROWS:-.}
[[ "$ROUNDS" =~ ^[1-9][0-9]*$ && "$SECS" =~ ^[1-9][0-9]*$ ]] ||
	{ echo "bench: BENCH_ROUNDS and BENCH_SECS are whole numbers of at least 1 (got '$ROUNDS' and '$SECS')" >&2; exit 2; }
if [[ "" =~ $ROWS ]]; then :; elif [ $? = 2 ]; then
	echo "bench: BENCH_ROWS '$ROWS' is not a regular expression (bash's =~)" >&2; exit 2
fi
for t in fio sqlite3 jq; do
	command -v $t >/dev/null || { echo "bench: $t is not installed (apt-get install $t)" >&2; exit 1; }
done
DIR=$(mktemp -d "${BENCH_DIR:-/var/tmp}/hbatest-bench.XXXXXX")
FILE="$DIR/file.dat"
LOOP=""
# on a failure or an interrupt the runs so far stay (not the 1 GiB file):
# the table comes only after the last round
cleanup() {
	local rc=$?
	[ -z "$LOOP" ] || losetup -d "$LOOP"
	if [ "$rc" != 0 ] && compgen -G "$DIR/rows.*" >/dev/null; then
		rm -f "$FILE"
		echo "bench: stopped (exit $rc) before the table; the runs so far are in $DIR/rows.N" \
			"(the table's rows in order from 0; a line per run: tool, IOPS, p50 us, p99 us, CPU s, I/Os, mean us)" >&2
	else
		rm -rf "$DIR"
	fi
}
trap cleanup EXIT
. "$ROOT/tests/dev/bench-summary.sh"

# hipri (polled completions) needs poll queues on the device under the file
DEV=$(basename "$(df --output=source "$DIR" | tail -1)")
POLL=$(cat "/sys/class/block/$DEV/queue/io_poll" 2>/dev/null || echo 0)

# cpu_of CMD...: run it; print the user + system seconds of it and its children
cpu_of() {
	local TIMEFORMAT='%U %S' t
	t=$( { time "${PIN[@]}" "$@" >/dev/null 2>"$DIR/err"; } 2>&1 ) ||
		{ cat "$DIR/err" >&2; return 1; }
	awk -v u="${t% *}" -v s="${t#* }" 'BEGIN { printf "%.3f", u + s }'
}

# fio_tuned ENGINE QD: what fio's documentation offers to go faster; the
# io_uring and libaio rows submit 4 requests a call, as hbatest does by
# default (fio with 4 ran 1.03x its IOPS with 16 at QD128 and 0.98x at QD32,
# 18 alternating rounds each: docs/benchmarks.md, "Requests per call"); the
# null row 16, at which fio's null engine runs twice as fast as at 4
fio_tuned() {
	local b=$(( $2 < 4 ? $2 : 4 )) nb=$(( $2 < 16 ? $2 : 16 ))
	case $1 in
	io_uring) echo "--fixedbufs=1 --registerfiles=1 --iodepth_batch_submit=$b" \
		"--iodepth_batch_complete_min=1 --iodepth_batch_complete_max=$2" \
		"$([ "$POLL" = 1 ] && echo --hipri=1)" ;;
	libaio) echo "--iodepth_batch_submit=$b --iodepth_batch_complete_min=1" \
		"--iodepth_batch_complete_max=$2 --userspace_reap=1" ;;
	null) echo "--iodepth_batch_submit=$nb --iodepth_batch_complete_max=$2" ;;
	esac
}

# hb_cpus TARGET: the CPUs hbatest's numa="auto" pins one worker to for this
# target ("" when it does not pin): fio tuned runs there too
declare -A TUNED_CPUS=()
hb_cpus() {
	SECS=1 run_hb io_uring "$1" randread 4k 1 >/dev/null
	sed -n 's/^cpus=\([^ ]*\).*/\1/p' "$DIR/placement"
}

# run_fio VARIANT ENGINE TARGET RW BS QD -> "iops p50_us p99_us cpu_s ios mean_us"
# (fio tuned on the CPUs hbatest places itself on, unless BENCH_CPUS pins both)
run_fio() {
	local v=$1 e=$2 t=$3 rw=$4 bs=$5 qd=$6 cpu extra=()
	[ "$v" = tuned ] && [ ${#PIN[@]} = 0 ] && [ -n "${TUNED_CPUS[$t]:-}" ] &&
		local PIN=(taskset -c "${TUNED_CPUS[$t]}")
	[ "$e" = null ] && extra=(--size=1g) || extra=(--direct=1)
	[ "$rw" = randrw ] && extra+=(--rwmixread=70)
	[ "$v" = tuned ] && read -ra more <<< "$(fio_tuned "$e" "$qd")" && extra+=("${more[@]}")
	cpu=$(cpu_of fio --name=bench --ioengine="$e" --filename="$t" --rw="$rw" --bs="$bs" \
		--iodepth="$qd" --numjobs=1 --time_based --runtime="$SECS" --norandommap \
		--randrepeat=0 --unified_rw_reporting=mixed --lat_percentiles=1 --output-format=json \
		--output="$DIR/fio.json" "${extra[@]}")
	jq -r --arg cpu "$cpu" '.jobs[0].mixed | [.iops, .lat_ns.percentile["50.000000"] / 1000,
		.lat_ns.percentile["99.000000"] / 1000, ($cpu | tonumber), .total_ios,
		.lat_ns.mean / 1000] | @tsv' "$DIR/fio.json"
}

# run_hb ENGINE TARGET RW BS QD -> "iops p50_us p99_us cpu_s ios mean_us"
run_hb() {
	local cpu db="$DIR/hb.db" offer=()
	rm -f "$db" "$db"-wal "$db"-shm
	# the file dd filled: data hbatest did not lay out, which a write step
	# may overwrite only when offered (docs/safety.md)
	[[ "$3" == *write* || "$3" == *rw ]] && offer=(--destroy-data "$2")
	cpu=$(cpu_of "$HB" run "$ROOT/tests/dev/bench.lua" --db "$db" --target "$2" -q \
		"${offer[@]}" --set engine="$1" --set rw="$3" --set bs="$4" --set oio="$5" \
		--set secs="$SECS" --set telemetry="${TELEMETRY:-60}")
	sqlite3 "$db" "SELECT placement FROM steps" > "$DIR/placement"
	sqlite3 -separator '	' "$db" "SELECT iops, lat_p50_us, lat_p99_us, $cpu,
		read_ops + write_ops, lat_mean_us, cpu_busy FROM steps"
}


# add_row LABEL ENGINE TARGET RW BS QD: a row of the table, unless
# BENCH_ROWS leaves it out (its fields kept apart by a byte no path has)
SPECS=()
US=$'\x1f'
add_row() {
	[[ "$1" =~ $ROWS ]] || return 0
	SPECS+=("$1$US$2$US$3$US$4$US$5$US$6")
}

# round I R: row I's runs of round R (from 0): the three tools, the order
# rotated every round (d t h, t h d, h d t, ...); fio tuned only where it
# differs from the defaults (its options, or hbatest's CPUs: psync has only those)
round() {
	local label e t rw bs qd i tools=(d h) line
	IFS=$US read -r label e t rw bs qd <<< "${SPECS[$1]}"
	[ -n "$(fio_tuned "$e" "$qd")" ] || { [ ${#PIN[@]} = 0 ] && [ -n "${TUNED_CPUS[$t]:-}" ]; } &&
		tools=(d t h)
	for i in "${!tools[@]}"; do
		case ${tools[(i + $2) % ${#tools[@]}]} in
		d) line="d	$(run_fio default "$e" "$t" "$rw" "$bs" "$qd")" ;;
		t) line="t	$(run_fio tuned "$e" "$t" "$rw" "$bs" "$qd")" ;;
		h) line="h	$(run_hb "$e" "$t" "$rw" "$bs" "$qd")" ;;
		esac
		echo "$line" >> "$DIR/rows.$1"
	done
	cp "$DIR/placement" "$DIR/placement.$1"
}

# the version and, when built from git, the commit: --version's two lines as one
echo "hbatest $("$HB" --version | awk 'NR == 1 { v = $2 } $1 == "commit" { c = " (" $2 ")" } END { print v c }') vs $(fio --version); $(date -u +%F)"
echo "host: $(nproc) CPUs, kernel $(uname -r); target folder on /dev/$DEV ($(df --output=fstype "$DIR" | tail -1)), poll queues: $([ "$POLL" = 1 ] && echo yes || echo "no (fio --hipri left out)")"
echo "${SECS} s a run, $ROUNDS rounds, each round across every row in turn, the order of the tools rotated every round; IOPS and CPU columns: medians; ratios: hbatest/fio against the better fio (higher median IOPS), the median of the rounds' ratios (hbatest's run against that fio's run of the same round)"
echo "latency: submit to completion (fio: lat, not clat); CPU: user + system seconds of the whole process per million I/Os"
echo "placement: $([ ${#PIN[@]} -gt 0 ] && echo "both tools under taskset -c $BENCH_CPUS" || echo "hbatest its numa=\"auto\" (below the table), fio tuned under taskset on the same CPUs, fio defaults unpinned; BENCH_CPUS pins all")"
echo "spread: (max - min) / 2 of a tool's IOPS over its rounds, % of its median; queue: I/Os outstanding on average (IOPS x mean latency), median; hb busy: hbatest's cpu_busy, median (its worker's share of the window on, or waiting for, a CPU: from 0.90 the host's CPU, not the device, set the pace; docs/measurement.md)"
echo "targets: IOPS >= 1.00x (null 1.50x), p50 and p99 <= 1.05x, CPU <= 1.00x; a missed target: its ratio (in how many of the ${ROUNDS} rounds hbatest missed it)"
LOOP_ROW="loop io_uring QD32"
add_row "null 4k QD32" null "$DIR/null-target" randread 4k 32
for qd in 1 4 32 128; do
	add_row "io_uring 4k rand QD$qd" io_uring "$FILE" randread 4k "$qd"
done
add_row "io_uring randwrite QD32" io_uring "$FILE" randwrite 4k 32
add_row "io_uring 70/30 QD32" io_uring "$FILE" randrw 4k 32
add_row "io_uring 128k seq QD8" io_uring "$FILE" read 128k 8
add_row "libaio 4k rand QD32" libaio "$FILE" randread 4k 32
add_row "psync 4k rand QD1" psync "$FILE" randread 4k 1
want_loop=0
[[ "$LOOP_ROW" =~ $ROWS ]] && want_loop=1
# rows of tests/dev/bench-ceiling.sh, which make bench runs next
OTHER_ROWS=("fio profile io_uring QD1" "fio profile io_uring QD32" "fio profile libaio QD32"
	"ceiling io_uring 4k rand" "null per core")
other=0
for r in "${OTHER_ROWS[@]}"; do [[ "$r" =~ $ROWS ]] && other=1; done
if [ ${#SPECS[@]} = 0 ] && [ $want_loop = 0 ] && ! [[ "sampler" =~ $ROWS ]] &&
	! [[ "telemetry" =~ $ROWS ]] && [ $other = 1 ]; then
	echo "bench: BENCH_ROWS '$ROWS' matches rows of tests/dev/bench-ceiling.sh only" >&2
	exit 0
fi
if [ ${#SPECS[@]} = 0 ] && [ $want_loop = 0 ] && ! [[ "sampler" =~ $ROWS ]] &&
	! [[ "telemetry" =~ $ROWS ]]; then
	echo "bench: BENCH_ROWS '$ROWS' matches no row (the rows: the table's first column; 'sampler' for the sampler's cost, 'telemetry' for telemetry's)" >&2
	exit 2
fi
# the target file, when a row reads it: written, then read once so that no
# tool's first run brings it into the caches under the disk (this virtual
# disk's host: a cold file read at 5k IOPS where a warm one gives 200k)
if [ $want_loop = 1 ] || [[ " ${SPECS[*]} " == *"$US$FILE$US"* ]]; then
	dd if=/dev/urandom of="$FILE" bs=1M count="$SIZE_MB" status=none conv=fsync
	dd if="$FILE" of=/dev/null bs=1M iflag=direct status=none
	[ ${#PIN[@]} = 0 ] && TUNED_CPUS[$FILE]=$(hb_cpus "$FILE")
fi
skipped=""
if [ $want_loop = 0 ]; then
	:
elif [ "$(id -u)" = 0 ] && LOOP=$(losetup --find --show --direct-io=on "$FILE" 2>/dev/null); then
	[ ${#PIN[@]} = 0 ] && TUNED_CPUS[$LOOP]=$(hb_cpus "$LOOP")
	add_row "$LOOP_ROW" io_uring "$LOOP" randread 4k 32
else
	skipped="loop device: skipped (needs root and losetup)"
fi
# round by round across the rows (every row's round 1, then every row's
# round 2, ...): a row's rounds spread over the whole run, so that a minute
# in which the disk is slow for one tool moves one round of each row, not
# every round of one row (docs/benchmarks.md)
for r in $(seq 0 $((ROUNDS - 1))); do
	[ ${#SPECS[@]} = 0 ] && break
	echo "bench: round $((r + 1)) of $ROUNDS across the rows: ${#SPECS[@]} ($(date -u +%T))" >&2
	for i in "${!SPECS[@]}"; do
		round "$i" "$r"
	done
done
[ ${#SPECS[@]} = 0 ] || printf "%-22s %9s %9s %9s %-5s %6s %6s %6s %6s %7s %7s %4s %4s %5s %5s %5s  %s\n" "row (1 worker/job)" "fio dflt" \
	"fio tuned" "hbatest" "best" "IOPS" "p50" "p99" "CPU" "fio CPU" "hb CPU" "fio" "hb" "fio" "hb" "hb" "targets"
[ ${#SPECS[@]} = 0 ] || printf "%-22s %9s %9s %9s %-5s %6s %6s %6s %6s %7s %7s %4s %4s %5s %5s %5s\n" "" "IOPS" "IOPS" "IOPS" "fio" \
	"hb/fio" "hb/fio" "hb/fio" "hb/fio" "s/M I/O" "s/M I/O" "±%" "±%" "queue" "queue" "busy"
: > "$DIR/table"
: > "$DIR/placements"
for i in "${!SPECS[@]}"; do
	IFS=$US read -r label e _ <<< "${SPECS[$i]}"
	summary "$label" "$e" "$DIR/rows.$i" | tee -a "$DIR/table"
	printf '%s\t%s\n' "$(cat "$DIR/placement.$i")" "$label" >> "$DIR/placements"
done
[ -z "$skipped" ] || echo "$skipped"
closing "$DIR/table"
awk -F'\t' '{ if (!($1 in rows)) { order[++n] = $1; rows[$1] = $2 } else rows[$1] = rows[$1] "; " $2 }
	END { for (i = 1; i <= n; i++) printf "hbatest placement %s: %s\n", order[i], rows[order[i]] }' \
	"$DIR/placements"

# the sampler's own cost: null engine with and without it (HBATEST_NO_SAMPLER=1:
# the main thread sleeps in pthread_join and merges the seconds at the end),
# 3 x BENCH_ROUNDS rounds (15: rounds 4 and 12 in order bound the median by
# 96.5 %), the order swapped every round, paired (bench-summary.sh)
if [[ "sampler" =~ $ROWS ]]; then
	: > "$DIR/sampler"
	for r in $(seq $((3 * ROUNDS))); do
		if [ $((r % 2)) = 1 ]; then
			on=$(run_hb null "$DIR/null-target" randread 4k 32)
			off=$(HBATEST_NO_SAMPLER=1 run_hb null "$DIR/null-target" randread 4k 32)
		else
			off=$(HBATEST_NO_SAMPLER=1 run_hb null "$DIR/null-target" randread 4k 32)
			on=$(run_hb null "$DIR/null-target" randread 4k 32)
		fi
		printf 'on\t%s\noff\t%s\n' "$on" "$off" >> "$DIR/sampler"
	done
	sampler_summary "$DIR/sampler"
fi

# telemetry's cost: the same, with the probes on the plugin path sampled
# every second (telemetry = 1; the null target is virtual: host-wide samples)
# against telemetry = 0
if [[ "telemetry" =~ $ROWS ]]; then
	: > "$DIR/telemetry"
	for r in $(seq $((3 * ROUNDS))); do
		if [ $((r % 2)) = 1 ]; then
			on=$(TELEMETRY=1 run_hb null "$DIR/null-target" randread 4k 32)
			off=$(TELEMETRY=0 run_hb null "$DIR/null-target" randread 4k 32)
		else
			off=$(TELEMETRY=0 run_hb null "$DIR/null-target" randread 4k 32)
			on=$(TELEMETRY=1 run_hb null "$DIR/null-target" randread 4k 32)
		fi
		printf 'on\t%s\noff\t%s\n' "$on" "$off" >> "$DIR/telemetry"
	done
	sampler_summary "$DIR/telemetry" "telemetry cost" "telemetry = 0"
fi
