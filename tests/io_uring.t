#!/usr/bin/env bash
# What each io_uring option does, seen from outside the process while a step
# runs: sqpoll's kernel poll thread and fewer io_uring_enter calls (strace),
# registerfiles and fixedbufs in the ring's /proc fdinfo, the target closed
# at the step's end; then psync, libaio and io_uring write steps in a row on
# a loop device, the device's own counters showing the bytes written.
. "$(dirname "$0")/lib.sh"

F="$TMP/t.dat"
# start PLAN: run it in the background (database $UDB); its pid in $pid
runs=0
start() {
	runs=$((runs + 1)) UDB=$TMP/u$runs.db
	"$HB" run "$1" --db "$UDB" --target "$F" -q 2>>"$TMP/stderr" & pid=$!
}
# poll CMD...: until CMD succeeds while $pid runs (60 s at most: a hang guard)
poll() {
	for _ in $(seq 600); do
		"$@" && return 0
		kill -0 "$pid" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}
ring_fd() { ls -l /proc/"$pid"/fd 2>/dev/null | awk '/io_uring/ { print $9; exit }'; }
# ring_info: the ring's fdinfo. The kernel prints what is registered only when
# it gets the ring's lock at once, so this reads until one read has it all.
ring_info() {
	local fd out
	for _ in $(seq 500); do
		fd=$(ring_fd)
		out=$([ -n "$fd" ] && cat /proc/"$pid"/fdinfo/"$fd" 2>/dev/null)
		case $out in *UserFiles:*UserBufs:*) printf '%s\n' "$out"; return ;; esac
		sleep 0.05
	done
}
# fdinfo KEY...: the values of these lines of one read ("UserFiles", "UserBufs", "SqThread")
fdinfo() {
	local info k
	info=$(ring_info)
	for k; do printf '%s\n' "$info" | sed -n "s/^$k:[[:space:]]*//p"; done | paste -sd' '
}
# the step measures (a second is stored): its workers have set up their rings
measuring() { [ "$(sqlite3 "file:$UDB?mode=ro" "SELECT count(*) FROM samples" 2>/dev/null)" -ge 1 ] 2>/dev/null; }
has_ring() { measuring && [ -n "$(ring_fd)" ]; }
target_open() { ls -l /proc/"$pid"/fd 2>/dev/null | grep -q -- "-> $F\$"; }
step_done() { [ "$(sqlite3 "file:$UDB?mode=ro" "SELECT count(*) FROM steps WHERE status = 'done'" 2>/dev/null)" = 1 ]; }
# plan OPTIONS [SECONDS]: a read step with these io_uring options (600 s unless
# given), then a pause of 600 s. What is looked at while the step runs, or in
# the pause, is looked at before the test ends the run (stop): the times are
# no deadline for it (a 3 s step with a 2 s pause once ended before a loaded
# machine had looked).
plan() {
	printf 'hb.run{ engine = "io_uring", io_uring = { %s }, rw = "randread", oio = 8, duration = %s, size = "8m" }\nhb.sleep(600)\n' \
		"$1" "${2:-600}" > "$TMP/p.lua"
}
# stop: end the run (SIGINT); its exit status in $rc (130)
stop() { kill -INT "$pid"; wait "$pid"; rc=$?; }

# --- sqpoll: a kernel poll thread (iou-sqp-PID) in the process, none without ---
sqp_threads() { [ "$(cat /proc/"$pid"/task/*/comm 2>/dev/null | grep -c '^iou-sqp')" -gt 0 ]; }
plan "sqpoll = true"; start "$TMP/p.lua"
poll sqp_threads; ok $? "sqpoll=true: a kernel poll thread (iou-sqp) runs in the process"
poll has_ring; like "$(fdinfo SqThread)" '^[0-9]+$' "sqpoll=true: the ring names its poll thread's pid in fdinfo"
stop
plan "sqpoll = false"; start "$TMP/p.lua"
poll has_ring; is "$(fdinfo SqThread) $(sqp_threads && echo thread)" "-1 " "sqpoll=false: no poll thread"
stop

# the poll thread submits, so the worker enters the kernel only to wait
if command -v strace >/dev/null; then
	enters() {	# enters SQPOLL: io_uring_enter calls per I/O of a 2 s step, as "calls ops"
		printf 'hb.run{ engine = "io_uring", io_uring = { sqpoll = %s }, rw = "randread", oio = 8, duration = 2, size = "8m" }\n' \
			"$1" > "$TMP/s.lua"
		rm -f "$TMP/s.db"
		traced -f -c -e trace=io_uring_enter -o "$TMP/strace.$1" \
			"$HB" run "$TMP/s.lua" --db "$TMP/s.db" --target "$F" -q 2>>"$TMP/stderr"
		echo "$(awk '$NF == "io_uring_enter" { print $4 }' "$TMP/strace.$1") $(q "$TMP/s.db" "SELECT read_ops FROM steps")"
	}
	read -r on_calls on_ops <<<"$(enters true)"
	read -r off_calls off_ops <<<"$(enters false)"
	awk -v a="$on_calls" -v b="$on_ops" -v c="$off_calls" -v d="$off_ops" \
		'BEGIN { exit !(b > 0 && d > 0 && a / b < c / d) }'
	ok $? "sqpoll=true: fewer io_uring_enter calls per I/O ($on_calls for $on_ops) than without ($off_calls for $off_ops)"
else
	skip "strace is not installed (apt-get install strace)"
fi

# --- registerfiles, fixedbufs: what the ring holds ------------------------------
plan "registerfiles = true, fixedbufs = true"; start "$TMP/p.lua"
poll has_ring
is "$(fdinfo UserFiles UserBufs)" "1 1" "registerfiles=true, fixedbufs=true: the ring holds the target file and a buffer"
like "$(ring_info | sed -n '/^UserFiles/,/^UserBufs/p')" "0: $F" "the registered file is the target"
target_open; ok $? "the target is open while the step runs"
stop
# the step's end: a 1 s step, then looked at in the pause after it
plan "registerfiles = true, fixedbufs = true" 1; start "$TMP/p.lua"
poll step_done && poll eval '! target_open && [ -z "$(ring_fd)" ]'
ok $? "registerfiles=true: the target and the ring are closed at the step's end (during the pause after it)"
stop
plan "registerfiles = false, fixedbufs = false"; start "$TMP/p.lua"
poll has_ring
is "$(fdinfo UserFiles UserBufs)" "0 0" "registerfiles=false, fixedbufs=false: the ring holds neither"
stop
plan "registerfiles = false, fixedbufs = false" 1; start "$TMP/p.lua"
poll step_done && poll eval '! target_open && [ -z "$(ring_fd)" ]'
ok $? "registerfiles=false: the target is closed at the step's end"
stop; is "$rc" 130 "and the run ends when stopped in its pause (SIGINT: exit 130)"

# oio up to the plan's 65536 in one worker: more than the kernel's 32768 SQEs
# a ring may have (it failed at the step's start, after the dry pass passed);
# 3 s, since under ASan on a loaded machine a 1 s step once counted no read
printf 'hb.run{ engine = "io_uring", rw = "randread", bs = "4k", oio = %s, duration = 3 }\n' \
	32768 65536 > "$TMP/deep.lua"
out=$("$HB" run "$TMP/deep.lua" --db "$TMP/deep.db" --target "$F" -q 2>&1); rc=$?
is "$rc $(printf '%s' "$out" | unbound)" "0 " "io_uring at oio 32768 and 65536 in one worker: the ring is clamped, the run ends well"
is "$(q "$TMP/deep.db" "SELECT group_concat(oio || ' ' || status || ' ' || (read_ops > 0), ', ') FROM steps")" \
	"32768 done 1, 65536 done 1" "both steps done, with reads"

# --- psync, libaio, io_uring write steps in a row on a loop device ---------------
if [ "$(id -u)" != 0 ]; then
	skip "loop devices need root"
	done_testing; exit
fi
truncate -s 64M "$TMP/backing.img"
mkloop LOOP "$TMP/backing.img" || { done_testing; exit; }
stat_file=/sys/block/$(basename "$LOOP")/stat
cat > "$TMP/writes.lua" <<'LUA'
for _, e in ipairs{ "psync", "libaio", "io_uring", "psync", "io_uring", "libaio" } do
  hb.run{ name = e, engine = e, rw = "write", bs = "64k", oio = e == "psync" and 1 or 4,
          duration = 1 }
end
LUA
written0=$(awk '{ print $7 }' "$stat_file")
"$HB" run "$TMP/writes.lua" --db "$TMP/w.db" --target "$LOOP" --destroy-data "$LOOP" -q 2>>"$TMP/stderr"
ok $? "psync, libaio, io_uring, psync, io_uring, libaio: write steps in a row on $LOOP"
is "$(q "$TMP/w.db" "SELECT group_concat(name || ':' || status || ':' || (write_ops > 0), ' ') FROM steps")" \
	"psync:done:1 libaio:done:1 io_uring:done:1 psync:done:1 io_uring:done:1 libaio:done:1" \
	"every step is done and wrote"
written=$(( ($(awk '{ print $7 }' "$stat_file") - written0) * 512 ))
counted=$(q "$TMP/w.db" "SELECT sum(write_bytes) FROM steps")
# the device saw every counted write, plus at most the requests in flight at
# each step's end (completed in the drain, not counted): 1 + 4 + 4 + 1 + 4 + 4 of 64k
awk -v w="$written" -v c="$counted" 'BEGIN { exit !(c > 0 && w >= c && w <= c + 18 * 65536) }'
ok $? "the device's own counter (/sys/block/.../stat) shows the bytes the steps wrote ($written vs $counted)"
done_testing
