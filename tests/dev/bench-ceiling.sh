#!/usr/bin/env bash
# make bench, after bench.sh's table (issue 37 items 2 and 3): three kinds of
# rows, each BENCH_ROUNDS rounds with the order of the runs rotated every
# round, IOPS and CPU as medians, ratios as the median of the rounds' paired
# ratios (a run against the other tool's run of the same round):
#   fio profile ...: hbatest with the engine's preset "fio" (one worker)
#     against fio's defaults (one job), both unpinned: the preset's target is
#     IOPS within 3 % of fio's (docs/engines.md, "Cross-checking with fio")
#   ceiling ...: fio's best of its variants (numjobs 1, 2, 4 ... up to the
#     CPUs, iodepth 32 and 128 a job, fio's tuning options) against hbatest
#     with its defaults (OIO 128, one worker) and with 2 workers; IOPS and
#     CPU seconds: target IOPS at least 0.98x fio's best with no more CPU per
#     I/O
#   null per core: the null engine, one worker/job per CPU, hbatest against
#     fio's null ioengine (defaults and batched 16 a call), IOPS per core
# Environment: BENCH_SECS (every run's length; unset: 10 s a run of the rows
# that read the file, whose rounds spread too far at 3 s to tell 3 % apart
# on a VM's disk, and 3 s of the null rows), BENCH_ROUNDS (5), BENCH_ROWS (a regex
# of row names; none matching: nothing runs), BENCH_DIR (default /var/tmp),
# BENCH_SIZE_MB (the target file, 1024), BENCH_CPUS (taskset for every run),
# BENCH_CALLS=1 (perf stat counts each run's io_submit, io_getevents and
# io_uring_enter: the calls per I/O of each run, the mean of the rounds,
# after the table; needs perf and its syscall tracepoints, as root),
# BENCH_SCHED=1 (perf sched record around each run: where its I/O thread's
# time went per I/O, on a CPU, runnable but waiting for one, asleep, its
# switches, migrations and the CPUs it ran on, the medians of the rounds,
# after the table; needs perf sched, as root; perf's own CPU then counts in
# the runs' CPU s).
set -euo pipefail
shopt -s inherit_errexit
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
HB="$ROOT/hbatest"
. "$ROOT/tests/dev/bench-ceiling-summary.sh"
SECS=${BENCH_SECS:-10}
NULL_SECS=${BENCH_SECS:-3}
FILE_SECS=$SECS
ROUNDS=${BENCH_ROUNDS:-5}
SIZE_MB=${BENCH_SIZE_MB:-1024}
ROWS=${BENCH_ROWS:-.}
NCPU=$(nproc)
PIN=()
[ -n "${BENCH_CPUS:-}" ] && PIN=(taskset -c "$BENCH_CPUS")
for v in "$ROUNDS" "$SECS" "$SIZE_MB"; do
	[[ "$v" =~ ^[1-9][0-9]*$ ]] || { echo "bench-ceiling: BENCH_ROUNDS, BENCH_SECS and BENCH_SIZE_MB are whole numbers of at least 1 (got '$v')" >&2; exit 2; }
done
if [[ "" =~ $ROWS ]]; then :; elif [ $? = 2 ]; then
	echo "bench-ceiling: BENCH_ROWS '$ROWS' is not a regular expression (bash's =~)" >&2; exit 2
fi

# the rows: LABEL KIND ENGINE QD (fio profile rows), or LABEL KIND ENGINE
ALL=("fio profile io_uring QD1|profile|io_uring|1" "fio profile io_uring QD32|profile|io_uring|32"
	"fio profile libaio QD32|profile|libaio|32" "ceiling io_uring 4k rand|ceiling|io_uring|128"
	"null per core|null|null|32")
SPECS=()
for s in "${ALL[@]}"; do [[ "${s%%|*}" =~ $ROWS ]] && SPECS+=("$s"); done
[ ${#SPECS[@]} -gt 0 ] || { echo "bench-ceiling: no row matches BENCH_ROWS '$ROWS' (rows: fio profile io_uring QD1, fio profile io_uring QD32, fio profile libaio QD32, ceiling io_uring 4k rand, null per core)" >&2; exit 0; }
for t in fio sqlite3 jq; do
	command -v $t >/dev/null || { echo "bench-ceiling: $t is not installed (apt-get install $t)" >&2; exit 1; }
done
DIR=$(mktemp -d "${BENCH_DIR:-/var/tmp}/hbatest-ceiling.XXXXXX")
FILE="$DIR/file.dat"
trap 'rm -rf "$DIR"' EXIT
CALLS=()
if [ "${BENCH_CALLS:-0}" = 1 ]; then
	EV=syscalls:sys_enter_io_submit,syscalls:sys_enter_io_getevents,syscalls:sys_enter_io_uring_enter
	perf stat -e "$EV" -o /dev/null -- true 2>/dev/null ||
		{ echo "bench-ceiling: BENCH_CALLS=1 needs perf and the syscall tracepoints (root)" >&2; exit 1; }
	CALLS=(perf stat -x, -o "$DIR/calls" -e "$EV" --)
fi

SCHED=()
if [ "${BENCH_SCHED:-0}" = 1 ]; then
	perf sched record -q -o "$DIR/sched" -- true 2>/dev/null ||
		{ echo "bench-ceiling: BENCH_SCHED=1 needs perf sched record (root)" >&2; exit 1; }
	# the tool's pid in $DIR/pid (sh's $0), then the tool in its place
	SCHED=(perf sched record -q -o "$DIR/sched" -- sh -c 'echo $$ > "$0"; exec "$@"' "$DIR/pid")
fi

# sched_of RUN IOS: sched_split of the run just recorded, its I/O thread
# among the tool's pid and the processes it forked
sched_of() {
	local pids
	pids=$(perf script -i "$DIR/sched" -F trace 2>/dev/null | awk -v p="$(cat "$DIR/pid")" '
		BEGIN { s[p] = 1 }
		/child_pid=/ { for (i = 1; i <= NF; i++) {
				if ($i ~ /^pid=/) pp = substr($i, 5)
				if ($i ~ /^child_pid=/) c = substr($i, 11) }
			if (pp in s) s[c] = 1 }
		END { printf "%s", p; for (x in s) if (x != p) printf " %s", x }')
	perf sched timehist -i "$DIR/sched" --state 2>/dev/null | sched_split "$1" "${2:-0}" "$SECS" "$NCPU" "$pids"
}

# calls_per_io RUN IOS: the run's counted calls (perf stat's CSV) per I/O
calls_per_io() {
	awk -F, -v run="$1" -v ios="$2" '!/^#/ && NF > 2 { split($3, e, "sys_enter_"); c[e[2]] = $1 }
		END { if (ios < 1) ios = 1
		      printf "%s\t%.3f\t%.3f\t%.3f\n", run, c["io_submit"] / ios,
			     c["io_getevents"] / ios, c["io_uring_enter"] / ios }' "$DIR/calls"
}

# cpu_of CMD...: run it; print the user + system seconds of it and its
# children (the builtin times, in the subshell of $(cpu_of ...): only what it ran)
cpu_of() {
	"${PIN[@]}" "${CALLS[@]}" "${SCHED[@]}" "$@" >/dev/null 2>"$DIR/err" || { cat "$DIR/err" >&2; return 1; }
	times > "$DIR/times"
	awk 'NR == 2 { split($1, u, /[ms]/); split($2, k, /[ms]/)
		printf "%.3f", u[1] * 60 + u[2] + k[1] * 60 + k[2] }' "$DIR/times"
}

# run_fio ENGINE TARGET QD JOBS [OPTION...] -> "iops p50_us p99_us cpu_s ios"
run_fio() {
	local e=$1 t=$2 qd=$3 jobs=$4 cpu extra=()
	shift 4
	[ "$e" = null ] && extra=(--size=1g) || extra=(--direct=1)
	cpu=$(cpu_of fio --name=bench --ioengine="$e" --filename="$t" --rw=randread --bs=4k \
		--iodepth="$qd" --numjobs="$jobs" --group_reporting --time_based --runtime="$SECS" \
		--norandommap --randrepeat=0 --unified_rw_reporting=mixed --lat_percentiles=1 \
		--output-format=json --output="$DIR/fio.json" "${extra[@]}" "$@")
	jq -r --arg cpu "$cpu" '.jobs[0].mixed | [.iops, .lat_ns.percentile["50.000000"] / 1000,
		.lat_ns.percentile["99.000000"] / 1000, ($cpu | tonumber), .total_ios] | @tsv' "$DIR/fio.json"
}

cat > "$DIR/plan.lua" <<'LUA'
local engine = hb.set("engine", "io_uring")
local preset = hb.set("preset", "")
hb.run{ name = "ceiling", engine = engine, rw = "randread", bs = "4k",
  oio = tonumber(hb.set("oio", 32)), workers = tonumber(hb.set("workers", 1)),
  duration = tonumber(hb.set("secs", 3)), direct = engine ~= "null", telemetry = 60,
  [engine] = preset ~= "" and { preset = preset } or nil }
LUA
# run_hb ENGINE TARGET OIO WORKERS [PRESET] -> "iops p50_us p99_us cpu_s ios"
run_hb() {
	local cpu db="$DIR/hb.db"
	rm -f "$db" "$db"-wal "$db"-shm
	cpu=$(cpu_of "$HB" run "$DIR/plan.lua" --db "$db" --target "$2" -q --set engine="$1" \
		--set oio="$3" --set workers="$4" --set preset="${5:-}" --set secs="$SECS")
	sqlite3 -separator '	' "$db" "SELECT iops, lat_p50_us, lat_p99_us, $cpu, read_ops + write_ops FROM steps"
}

# the variants of a row: NAME|command (run by eval in round order)
variants() {
	local kind=$1 e=$2 qd=$3 j
	case $kind in
	profile)
		echo "fio dflt|run_fio $e \"\$FILE\" $qd 1"
		echo "hb preset fio|run_hb $e \"\$FILE\" $qd 1 fio" ;;
	ceiling)
		for ((j = 1; j <= NCPU; j *= 2)); do
			for d in 32 128; do
				echo "fio ${j}x$d|run_fio $e \"\$FILE\" $d $j --fixedbufs=1 --registerfiles=1 --iodepth_batch_submit=4 --iodepth_batch_complete_min=1 --iodepth_batch_complete_max=$d"
			done
		done
		echo "hb default|run_hb $e \"\$FILE\" $qd 1"
		echo "hb 2 workers|run_hb $e \"\$FILE\" $qd 2" ;;
	null)
		echo "fio dflt|run_fio null \"\$DIR/null\" $qd $NCPU"
		echo "fio tuned|run_fio null \"\$DIR/null\" $qd $NCPU --iodepth_batch_submit=16 --iodepth_batch_complete_max=$qd"
		echo "hb|run_hb null \"\$DIR/null\" $((qd * NCPU)) $NCPU" ;;
	esac
}

echo "bench-ceiling: hbatest $("$HB" --version | head -1 | cut -d" " -f2) vs $(fio --version); $NCPU CPUs; $FILE_SECS s a run ($NULL_SECS s of the null rows), $ROUNDS rounds, the order rotated every round; load average $(cut -d' ' -f1-3 /proc/loadavg)"
if printf '%s\n' "${SPECS[@]}" | grep -qv '|null|'; then
	dd if=/dev/urandom of="$FILE" bs=1M count="$SIZE_MB" status=none oflag=direct conv=fsync
	dd if="$FILE" of=/dev/null bs=1M iflag=direct status=none
fi
for r in $(seq 0 $((ROUNDS - 1))); do
	echo "bench-ceiling: round $((r + 1)) of $ROUNDS ($(date -u +%T))" >&2
	for i in "${!SPECS[@]}"; do
		IFS='|' read -r _ kind e qd <<< "${SPECS[$i]}"
		[ "$kind" = null ] && SECS=$NULL_SECS || SECS=$FILE_SECS
		mapfile -t vs < <(variants "$kind" "$e" "$qd")
		for k in "${!vs[@]}"; do
			v=${vs[$(((k + r) % ${#vs[@]}))]}
			out=$(eval "${v#*|}") || :	# a failed run: its line as before, empty
			printf '%s\t%s\t%s\n' "$r" "${v%%|*}" "$out" >> "$DIR/rows.$i"
			[ ${#CALLS[@]} = 0 ] || calls_per_io "${v%%|*}" "${out##*	}" >> "$DIR/calls.$i"
			[ ${#SCHED[@]} = 0 ] || sched_of "${v%%|*}" "${out##*	}" >> "$DIR/sched.$i"
		done
	done
done

printf '%-28s %-14s %10s %7s %7s %8s %8s %6s  %s\n' "row" "run" "IOPS" "p50 us" "p99 us" \
	"CPU s" "s/M I/O" "±%" "against fio (paired median ratio)"
for i in "${!SPECS[@]}"; do
	IFS='|' read -r label kind _ <<< "${SPECS[$i]}"
	ceiling_summary "$label" "$kind" "$NCPU" "$DIR/rows.$i"
done
if [ ${#SCHED[@]} -gt 0 ]; then
	printf '\n%-28s %-14s %8s %9s %8s %10s %8s  %s\n' "I/O thread, us per I/O" "run" "on CPU" \
		"runnable" "asleep" "sw-in/kIO" "migr/s" "its CPU time on each CPU"
	for i in "${!SPECS[@]}"; do sched_table "${SPECS[$i]%%|*}" "$DIR/sched.$i"; done
fi
[ ${#CALLS[@]} -gt 0 ] || exit 0
printf '\n%-28s %-14s %10s %12s %14s\n' "calls per I/O" "run" "io_submit" "io_getevents" "io_uring_enter"
for i in "${!SPECS[@]}"; do
	awk -F'\t' -v label="${SPECS[$i]%%|*}" '!($1 in n) { order[++k] = $1 }
		{ n[$1]++; s[$1] += $2; g[$1] += $3; u[$1] += $4 }
		END { for (j = 1; j <= k; j++) { r = order[j]
			printf "%-28s %-14s %10.3f %12.3f %14.3f\n", j == 1 ? label : "", r,
			       s[r] / n[r], g[r] / n[r], u[r] / n[r] } }' "$DIR/calls.$i"
done
