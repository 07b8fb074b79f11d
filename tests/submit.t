#!/usr/bin/env bash
# How the io_uring and libaio engines hand requests to the kernel: at most submit_batch
# per io_uring_enter or io_submit (default 4 at every depth), so a QD32 step
# reaches the device a few requests at a time as completions come back, not
# in bursts of every completion reaped (the cause of the old QD32 gap against
# fio, docs/benchmarks.md), and the queue stays full. wait_nr makes each wait
# reap at least that many, so the largest call is the batch itself.
. "$(dirname "$0")/lib.sh"

DB="$TMP/s.db"
F="$TMP/target.dat"
if ! command -v strace >/dev/null; then
	skip "strace is not installed"
	done_testing
	exit
fi
# max_submit LOG: the largest to_submit of the io_uring_enter calls in an strace log
max_submit() {
	sed -n 's/.*io_uring_enter([0-9]*, \([0-9]*\),.*/\1/p' "$1" | sort -n | tail -1
}
run_traced() {	# NAME OPTS [OIO]
	cat > "$TMP/$1.lua" <<LUA
hb.run{ engine = "io_uring", io_uring = { $2 }, rw = "randread", bs = "4k", oio = ${3:-32},
        duration = 2, size = "16m" }
LUA
	traced -f -qq -e trace=io_uring_enter -o "$TMP/$1.trace" \
		"$HB" run "$TMP/$1.lua" --db "$DB" --target "$F" -q
}

run_traced default ""
ok $? "a traced QD32 io_uring step runs"
n=$(max_submit "$TMP/default.trace")
is "$([ -n "$n" ] && [ "$n" -ge 1 ] && [ "$n" -le 4 ] && echo yes)" yes \
	"QD32: no io_uring_enter hands the kernel more than 4 requests (largest: ${n:-none})"
# occupancy (IOPS x mean latency, each request timed from the call that hands
# it to the kernel) counts the requests in the kernel: those reaped and not yet
# handed back are not. Untraced, as strace slows every call.
"$HB" run "$TMP/default.lua" --db "$DB" --target "$F" -q
occ=$(q "$DB" "SELECT min(occupancy) FROM samples WHERE step_id = 2")
is "$(q "$DB" "SELECT min(occupancy) > 16 FROM samples WHERE step_id = 2")" 1 \
	"the queue stays more than half full: occupancy above 16 of 32 every second (lowest $occ)"
# the default at three depths, each wait reaping at least wait_nr: 4 whatever
# the depth (it was a quarter of the depth, 4 to 16: slower at QD32 and QD128)
for c in "8 4" "32 16" "128 64"; do
	set -- $c
	run_traced "qd$1" "wait_nr = $2" "$1"
	is "$(max_submit "$TMP/qd$1.trace")" 4 \
		"QD$1, wait_nr=$2: the largest io_uring_enter submits 4 (the default)"
done

run_traced wide "submit_batch = 32"
ok $? "a traced step with submit_batch=32 runs"
n=$(max_submit "$TMP/wide.trace")
is "$([ -n "$n" ] && [ "$n" -gt 4 ] && echo yes)" yes \
	"submit_batch=32 lets one call submit more than 4 (largest: ${n:-none})"

# libaio: at most 4 iocbs per io_submit at QD32
cat > "$TMP/aio.lua" <<LUA
hb.run{ engine = "libaio", rw = "randread", bs = "4k", oio = 32, duration = 2, size = "16m" }
LUA
traced -f -qq -e trace=io_submit -o "$TMP/aio.trace" "$HB" run "$TMP/aio.lua" --db "$DB" --target "$F" -q
ok $? "a traced QD32 libaio step runs"
n=$(sed -n 's/.*io_submit([0-9a-fx]*, \([0-9]*\),.*/\1/p' "$TMP/aio.trace" | sort -n | tail -1)
is "$([ -n "$n" ] && [ "$n" -ge 1 ] && [ "$n" -le 4 ] && echo yes)" yes \
	"libaio: no io_submit takes more than 4 requests (largest: ${n:-none})"

# a depth in the thousands: the worker offers 1,024 requests, reaps, then
# offers the rest; offering all of them first stamps each remaining one at
# every call, which leaves the first seconds empty and inflates p99
# (core/measure/worker.c, SUBMIT_SLICE)
run_traced deep "" 4096
ok $? "a traced io_uring step at oio 4096 runs"
first=$(sed -n 's/.*io_uring_enter([0-9]*, \([0-9]*\), [0-9]*, \([A-Z_|0-9]*\),.*/\1 \2/p' "$TMP/deep.trace" |
	awk '/GETEVENTS/ { print n; exit } { n += $1 }')
is "$([ -n "$first" ] && [ "$first" -ge 1 ] && [ "$first" -le 1024 ] && echo yes)" yes \
	"oio 4096: the first io_uring_enter that reaps comes after at most 1,024 requests, not 4,096 (${first:-none})"

# the batch each step used is stored with it, given or not (params_json)
is "$(q "$DB" "SELECT group_concat(coalesce(json_extract(params_json, '\$.io_uring.submit_batch'),
		json_extract(params_json, '\$.libaio.submit_batch')), ' ') FROM steps ORDER BY id")" \
	"4 4 4 4 4 32 4 4" "params_json holds submit_batch: 4 by default (io_uring and libaio), 32 where given"

done_testing
