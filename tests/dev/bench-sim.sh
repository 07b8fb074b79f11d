#!/usr/bin/env bash
# bench-sim: how much faster than real time the sim engine runs, as simulated
# seconds over wall (and CPU) seconds, for examples/slot-width.lua,
# examples/raid-suite.lua and one 4k random read step at OIO 256 on the
# lsi3108-8sas preset (557,000 simulated IOPS), sampled (the default) and
# with every request simulated (sample_ios = 0).
#   bash tests/dev/bench-sim.sh [SECONDS of the 4k step, default 600]
set -euo pipefail
cd "$(dirname "$0")/../.."
HB=./hbatest
secs=${1:-600}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat > "$tmp/4k.lua" <<'LUA'
hb.run{ name = "4k random read", engine = "sim", targets = { "vol" }, rw = "randread",
        bs = "4k", oio = 256, duration = hb.set("secs", 600), seed = 1,
        sim = { preset = "lsi3108-8sas", sample_ios = hb.set("sample", nil) } }
LUA

# row NAME PLAN [ARGS...]: run it into its own database, print its factors:
# simulated seconds per wall second, and per CPU second (user + system, which
# other jobs on the machine do not change)
row() {
	local name=$1 plan=$2 db="$tmp/$RANDOM.db" times sim iops
	shift 2
	times=$( { TIMEFORMAT='%R %U %S'; time "$HB" run "$plan" --db "$db" -q "$@" 2>"$tmp/err"; } 2>&1 ) ||
		{ cat "$tmp/err" >&2; exit 1; }
	# a fill's simulated time is what it took; any other step's its ramp + duration
	sim=$(sqlite3 "$db" "SELECT sum(coalesce(elapsed_s, ramp_s + duration_s)) FROM steps")
	iops=$(sqlite3 "$db" "SELECT sum(read_ops + write_ops) / sum(coalesce(elapsed_s, window_s)) FROM steps")
	echo "$times" | awk -v n="$name" -v s="$sim" -v i="$iops" '{
		printf "%-42s %7.0f %7.2f %7.0fx %7.2f %7.0fx %8.0f\n", n, s, $1, s / $1, $2 + $3,
		       s / ($2 + $3), i }'
}

printf '%-42s %7s %7s %8s %7s %8s %8s\n' "sim engine" "sim s" "wall s" "factor" "cpu s" \
	"per cpu" "sim IOPS"
row "examples/slot-width.lua" examples/slot-width.lua
row "examples/raid-suite.lua" examples/raid-suite.lua
row "4k random read OIO 256, lsi3108-8sas" "$tmp/4k.lua" --set secs="$secs"
row "the same, every request (sample_ios = 0)" "$tmp/4k.lua" --set secs=30 --set sample=0
