#!/usr/bin/env bash
# How the io_uring engine waits for completions. No wait arms a timer of its
# own (IORING_ENTER_EXT_ARG with a timeout): at QD1 that was one kernel timer
# armed and cancelled for every I/O (docs/benchmarks.md, QD1). The ring's own
# tick, a multishot timeout every 50 ms, still ends a wait that no completion
# ends (a stalled device), so the worker keeps publishing its seconds: its
# CQEs show in the ring's fdinfo as completions beyond the requests submitted.
. "$(dirname "$0")/lib.sh"

F="$TMP/target.dat"
truncate -s 16M "$F"
if ! command -v strace >/dev/null; then
	skip "strace is not installed (apt-get install strace)"
else
	cat > "$TMP/qd1.lua" <<'LUA'
hb.run{ engine = "io_uring", rw = "randread", bs = "4k", oio = 1, duration = 2, size = "16m" }
LUA
	traced -f -qq -e trace=io_uring_enter -o "$TMP/qd1.trace" \
		"$HB" run "$TMP/qd1.lua" --db "$TMP/s.db" --target "$F" -q
	ok $? "a traced QD1 io_uring step runs"
	calls=$(grep -c 'io_uring_enter(' "$TMP/qd1.trace")
	ext=$(grep -c 'IORING_ENTER_EXT_ARG' "$TMP/qd1.trace")
	ops=$(q "$TMP/s.db" "SELECT read_ops FROM steps")
	is "$([ "$calls" -ge "$ops" ] && [ "$ops" -gt 0 ] && echo yes)" yes \
		"the worker entered the kernel for its I/Os ($calls calls, $ops reads)"
	is "$ext" 0 "no io_uring_enter waits with a timeout of its own (IORING_ENTER_EXT_ARG)"
fi

# the tick: while a QD1 step runs, the ring has posted more CQEs than it took
# SQEs (every I/O is one of each; the tick is one SQE and a CQE every 50 ms)
# The step lasts until this test has read the ring and stops it (SIGINT): a
# 3 s step once ended, its ring closed, before a loaded machine read it.
cat > "$TMP/long.lua" <<'LUA'
hb.run{ engine = "io_uring", rw = "randread", bs = "4k", oio = 1, duration = 600, size = "16m" }
LUA
"$HB" run "$TMP/long.lua" --db "$TMP/l.db" --target "$F" -q & pid=$!
ring=
for _ in $(seq 600); do	# until a second is stored: the ring is set up (60 s at most)
	[ "$(sqlite3 "file:$TMP/l.db?mode=ro" "SELECT count(*) FROM samples" 2>/dev/null)" -ge 1 ] 2>/dev/null &&
		ring=$(ls -l /proc/$pid/fd 2>/dev/null | awk '/io_uring/ { print $9; exit }') && [ -n "$ring" ] && break
	sleep 0.1
done
# the kernel prints the ring's state only when it gets the ring's lock at once
for _ in $(seq 500); do
	info=$([ -n "$ring" ] && cat /proc/$pid/fdinfo/"$ring" 2>/dev/null)
	case $info in *SqHead:*CqTail:*) break ;; esac
	sleep 0.02
done
sqes=$(printf '%s\n' "$info" | sed -n 's/^SqHead:[[:space:]]*//p')
cqes=$(printf '%s\n' "$info" | sed -n 's/^CqTail:[[:space:]]*//p')
kill -INT $pid; wait $pid
is $? 130 "a QD1 io_uring step runs until stopped (SIGINT: exit 130)"
is "$([ -n "$sqes" ] && [ -n "$cqes" ] && [ $((cqes - sqes)) -ge 1 ] && echo yes)" yes \
	"after a second the ring posted more CQEs ($cqes) than it took SQEs ($sqes): the tick's"
done_testing
