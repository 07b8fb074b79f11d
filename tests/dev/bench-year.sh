#!/usr/bin/env bash
# make bench-year (and make bench): hbatest on a year of nights (issue 37).
# Makes a database of 1,000 runs x 100 steps x 60 samples (6 M samples) with
# scripts/dev/gen-year-db once, cached under build/year/ (made again when the
# generator or db/schema.sql changes), and a second one of 100 runs; then
# times list, show, a report of two runs, the side-by-side saved query and a
# merge of the 100 runs into a copy of the year, each against its target,
# and prints the database's size per run-hour. Times are wall seconds of one
# try, from the page cache (the files are read once first), and CPU seconds.
#   BENCH_YEAR_RUNS=100 bash tests/dev/bench-year.sh    a smaller year
set -euo pipefail
cd "$(dirname "$0")/../.."
HB=./hbatest
runs=${BENCH_YEAR_RUNS:-1000} steps=${BENCH_YEAR_STEPS:-100} samples=${BENCH_YEAR_SAMPLES:-60}
V=$(sed -n 's/^PRAGMA user_version = \([0-9]*\);$/\1/p' db/schema.sql)
dir=build/year
mkdir -p "$dir"
year=$dir/year-v$V-${runs}x${steps}x$samples.db
more=$dir/more-v$V-100x${steps}x$samples.db

# make DB RUNS SEED: DB, unless it is there and newer than its makers
make_db() {
	if [ -s "$1" ] && [ "$1" -nt scripts/dev/gen-year-db ] && [ "$1" -nt db/schema.sql ]; then
		return
	fi
	echo "making $1 ($2 runs x $steps steps x $samples samples)..."
	local start=$(date +%s%N)
	scripts/dev/gen-year-db --runs "$2" --steps "$steps" --samples "$samples" --seed "$3" \
		--force "$1"
	printf '  made in %.0f s\n' "$(awk -v a="$start" -v b="$(date +%s%N)" 'BEGIN { print (b - a) / 1e9 }')"
}
make_db "$year" "$runs" 1
make_db "$more" 100 2
cat "$year" "$more" >/dev/null

out=$(mktemp -d "${TMPDIR:-/tmp}/hbatest-bench-year.XXXXXX")
trap 'rm -rf "$out"; rm -f "$dir/merged.db" "$dir/merged.db-wal" "$dir/merged.db-shm"' EXIT
# timed WHAT TARGET COMMAND...: its wall time against the target and its CPU
# seconds (user + system: what the machine's other work does not inflate as
# much), or its error
timed() {
	local what=$1 target=$2
	shift 2
	local TIMEFORMAT='%R %U %S' rc=0
	{ time "$@" >"$out/stdout" 2>"$out/stderr" || rc=$?; } 2>"$out/time"
	if [ "$rc" != 0 ]; then
		echo "$what: FAILED: $(head -c 300 "$out/stderr")"
		return 0
	fi
	awk -v w="$what" -v t="$target" '{
		printf "%-42s %7.2f s  CPU %6.2f s  (target < %s s%s)\n", w, $1, $2 + $3, t,
			$1 < t ? "" : ": MISSED" }' "$out/time"
}
a=$((runs / 2)) b=$((runs / 2 + 1))
charts=() note=
command -v gnuplot >/dev/null || { charts=(--no-charts); note=", no gnuplot: --no-charts"; }
echo "a year of nights: $(sqlite3 "$year" "SELECT count(*) || ' runs, ' || (SELECT count(*) FROM steps) \
	|| ' steps, ' || (SELECT count(*) FROM samples) || ' samples' FROM runs"), schema $V"
timed "list" 0.5 "$HB" list --db "$year"
timed "show $a" 0.2 "$HB" show "$a" --db "$year"
timed "report $a $b$note" 10 "$HB" report "$a" "$b" --db "$year" --out "$out/report" "${charts[@]}"
timed "sql side-by-side (2 runs, 4k randread)" 1 "$HB" sql side-by-side --db "$year" \
	--param group='4k randread' --param runs="$a,$b" --param metric=iops
cp "$year" "$dir/merged.db"
timed "merge of 100 runs into it" 30 "$HB" merge "$dir/merged.db" "$more"
sqlite3 "$year" "SELECT sum(julianday(finished_at) - julianday(started_at)) * 24 FROM runs" |
	awk -v bytes="$(stat -c %s "$year")" -v n="$runs" '{
		printf "size: %.0f MB for %d runs, %.1f run-hours: %.0f KB per run-hour\n",
			bytes / 1e6, n, $1, bytes / 1e3 / $1 }'
