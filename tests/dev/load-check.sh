#!/usr/bin/env bash
# load-check.sh [-n N] [MAKE ARGS...]: `make check` N times in a row (10 unless
# given) with every CPU kept busy by a CPU hog (a shell loop per CPU, nice 0),
# as a loaded CI machine has them: no test's verdict may depend on timing or
# load (docs/HACKING.md, Tests and timing). Stops at the first failure; prints
# how many runs passed, and exits 0 only when all N did. Each run's output is
# kept in build/load-check/N.log. MAKE ARGS go to make, e.g. SANITIZE=1.
# Takes hours (a run of make check is 10-20 minutes on two loaded CPUs).
set -u
cd "$(dirname "$0")/../.." || exit 2

n=10
if [ "${1:-}" = -n ]; then
	n=${2:-}
	shift 2 || { echo "usage: $0 [-n N] [MAKE ARGS...]" >&2; exit 2; }
fi
case $n in '' | *[!0-9]* | 0) echo "load-check: -n takes a whole number from 1" >&2; exit 2 ;; esac

hogs=()
stop_hogs() {
	local p
	for p in "${hogs[@]}"; do kill "$p" 2>/dev/null; done
	for p in "${hogs[@]}"; do wait "$p" 2>/dev/null; done
	hogs=()
}
trap stop_hogs EXIT
trap 'exit 130' INT TERM

cpus=$(getconf _NPROCESSORS_ONLN 2>/dev/null || nproc)
for _ in $(seq "$cpus"); do
	nice -n 0 sh -c 'while :; do :; done' &
	hogs+=($!)
done
echo "load-check: $cpus CPU hogs (pids ${hogs[*]}); make check $* up to $n times"

mkdir -p build/load-check
passed=0
for i in $(seq "$n"); do
	start=$SECONDS
	if make check "$@" > "build/load-check/$i.log" 2>&1; then
		passed=$((passed + 1))
		echo "load-check: run $i passed ($((SECONDS - start)) s)"
	else
		echo "load-check: run $i FAILED ($((SECONDS - start)) s); its output: build/load-check/$i.log"
		grep -E '^(not ok|Failed|Dubious|tests/.*(Wstat|Failed))|Failed tests?:' "build/load-check/$i.log" | head -20
		break
	fi
done
echo "load-check: $passed of $n runs of make check passed under load"
[ "$passed" = "$n" ]
