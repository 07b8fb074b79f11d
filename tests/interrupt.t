#!/usr/bin/env bash
# Ctrl-C, SIGTERM and SIGHUP: stop issuing, drain, keep every second (the
# one it stopped in as the part it covered), mark the step and the run 'aborted', exit 130. Seconds are stored as they
# complete. SIGHUP ignored at start (nohup) stays ignored; a closed log pipe
# does not stop the run; a signal stops Lua code that loops too.
. "$(dirname "$0")/lib.sh"

DB="$TMP/int.db"
cat > "$TMP/long.lua" <<'LUA'
hb.run{ name = "long", engine = "io_uring", rw = "randrw", oio = 8, duration = 600, ramp = 1,
        size = "32m" }
hb.run{ name = "never", engine = "null", duration = 600 }
LUA

# wait_samples RUN N: until the run's first step has N samples (at most 30 s)
wait_samples() {
	wait_count "$DB" "SELECT count(*) FROM samples s JOIN steps t ON t.id = s.step_id WHERE t.run_id = $1" "$2"
}

# wait_exit PID: wait for it; if it is still there after 60 s, SIGKILL it
# (a guard against hanging the suite, not a measurement). Its status in $rc.
wait_exit() {
	for _ in $(seq 600); do
		kill -0 "$1" 2>/dev/null || break
		sleep 0.1
	done
	kill -KILL "$1" 2>/dev/null
	wait "$1"; rc=$?
}

# SIGHUP ignored when this test started (run under nohup) cannot be undone by
# a shell: the run would rightly keep ignoring it, so that case is skipped
hup_ignored() { (( 0x$(sed -n 's/^SigIgn:\t//p' /proc/$$/status) & 1 )); }

run=0
for sig in INT TERM HUP; do
	if [ $sig = HUP ] && hup_ignored; then
		for _ in $(seq 10); do skip "SIGHUP is ignored in this environment (nohup): the run keeps ignoring it"; done
		continue
	fi
	run=$((run + 1))
	"$HB" run "$TMP/long.lua" --db "$DB" --target "$TMP/t.dat" -q 2>"$TMP/stderr" &
	pid=$!
	wait_samples $run 3; ok $? "SIG$sig: seconds reach the database while the step runs"
	is "$(q "$DB" "SELECT status FROM runs WHERE id = $run")" running "SIG$sig: the run reads 'running' meanwhile"
	kill -$sig $pid
	wait_exit $pid; is $rc 130 "SIG$sig: exit code 130"
	is "$(q "$DB" "SELECT status FROM runs WHERE id = $run")" aborted "SIG$sig: the run is 'aborted'"
	is "$(q "$DB" "SELECT group_concat(status) FROM steps WHERE run_id = $run")" aborted \
		"SIG$sig: the step is 'aborted' and no later step started"
	id=$(q "$DB" "SELECT id FROM steps WHERE run_id = $run")
	is "$(check_invariant "$DB" "$id")" 1 "SIG$sig: the kept samples add up to the step's totals"
	is "$(q "$DB" "SELECT count(*) = max(t) + 1 FROM samples WHERE step_id = $id")" 1 \
		"SIG$sig: the kept seconds are 0..n with no gap"
	is "$(q "$DB" "SELECT window_s >= 2 FROM steps WHERE id = $id")" 1 "SIG$sig: the whole seconds before the signal are kept"
	is "$(q "$DB" "SELECT group_concat(secs < 1) FROM (SELECT secs FROM samples WHERE step_id = $id ORDER BY t DESC LIMIT 2)")" "1,0" \
		"SIG$sig: and the second it stopped in, cut short (secs < 1), after whole ones"
	is "$(q "$DB" "SELECT count(*) FROM events WHERE run_id = $run AND message LIKE 'interrupted: every second so far is stored (the one it stopped in as the part it covered)'")" 1 \
		"SIG$sig: the interruption is in the run's events"
done

# a process that dies without cleaning up reads as 'interrupted'
run=$((run + 1))
"$HB" run "$TMP/long.lua" --db "$DB" --target "$TMP/t.dat" -q 2>"$TMP/stderr" &
pid=$!
wait_samples $run 2
kill -KILL $pid; wait $pid 2>/dev/null
out=$("$HB" list --db "$DB")
like "$out" "^ +$run +[0-9a-f]{8} +interrupted " "a SIGKILLed run reads as 'interrupted' in list"

# nohup: SIGHUP ignored at start stays ignored; the run goes on
run=$((run + 1))
(trap '' HUP; exec "$HB" run "$TMP/long.lua" --db "$DB" --target "$TMP/t.dat" -q 2>"$TMP/stderr") &
pid=$!
wait_samples $run 2
kill -HUP $pid
wait_samples $run 4
kill -0 $pid 2>/dev/null; ok $? "under nohup a SIGHUP leaves the run going"
kill -TERM $pid; wait_exit $pid
is "$rc:$(q "$DB" "SELECT status FROM runs WHERE id = $run")" 130:aborted "and SIGTERM still stops it"

# spin_in_stop LOOP: a sweep whose stop callback runs LOOP (Lua) forever, sent
# SIGTERM once its first step is done; the exit status in $rc, the run in $run
spin_in_stop() {
	printf 'hb.sweep{ base = { engine = "null", targets = "v", duration = 1 }, oio = { 1, 2 },\n  stop = function() %s end }\n' \
		"$1" > "$TMP/spin.lua"
	run=$((run + 1))
	"$HB" run "$TMP/spin.lua" --db "$DB" -q 2>"$TMP/stderr" &
	pid=$!
	for _ in $(seq 300); do
		[ "$(q "$DB" "SELECT count(*) FROM steps WHERE run_id = $run AND status = 'done'" 2>/dev/null)" = 1 ] && break
		sleep 0.1
	done
	kill -TERM $pid; wait_exit $pid
}

# an endless loop in Lua (a sweep's stop callback) stops at the first SIGTERM
spin_in_stop "while true do end"
is "$rc" 130 "a loop in a stop callback ends at the first SIGTERM, exit 130"
is "$(q "$DB" "SELECT status FROM runs WHERE id = $run")" aborted "and the run is 'aborted'"

# catching PID: until PID catches SIGTERM (its SigCgt has bit 15), which
# hbatest run sets up just before its dry pass (at most 60 s: a hang guard).
# (A fixed sleep here let a slow start under load take the signal before
# the handler, exit 143.)
catching() {
	local mask
	for _ in $(seq 600); do
		mask=$(sed -n 's/^SigCgt:\t//p' /proc/"$1"/status 2>/dev/null)
		[ -n "$mask" ] && (( 0x$mask & (1 << 14) )) && return 0
		kill -0 "$1" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}

# a loop of pcalls: each call catches the hook's error (raised inside it), so
# the stop is raised again when the call returns; in the dry pass and after
printf 'while true do pcall(function() while true do end end) end\n' > "$TMP/pcall.lua"
"$HB" run "$TMP/pcall.lua" --db "$TMP/pcall.db" 2>"$TMP/stderr" &
pid=$!
catching $pid
kill -TERM $pid; wait_exit $pid
is "$rc:$([ -e "$TMP/pcall.db" ] && echo db)" "130:" "a pcall loop in the dry pass stops at SIGTERM, exit 130, no database"
like "$(cat "$TMP/stderr")" "interrupted in the dry pass \(signal\): nothing was run or written" "and says so"
spin_in_stop "while true do pcall(function() while true do end end) end"
is "$rc:$(q "$DB" "SELECT status FROM runs WHERE id = $run")" "130:aborted" \
	"a pcall loop in a stop callback ends at the first SIGTERM too, the run 'aborted'"

# a second signal while the drain waits for a request the device dropped:
# the stall fixture's 5th request never completes and each empty wait also
# sleeps 20 ms of wall time, so the drain would take 1200 waits, 24 s, before
# giving up on it. The first SIGINT waits and says so; the second ends the
# process at once, the run left interrupted with its seconds stored.
cat > "$TMP/hang.lua" <<'LUA'
hb.run{ engine = "stall", stall = { hang_at = 5, hang_sleep_us = 20000 }, targets = "v",
        rw = "randread", bs = "4k", oio = 4, duration = 2 }
LUA
"$HB" run "$TMP/hang.lua" --db "$TMP/hang.db" --plugin-path "$ROOT/build/tests/plugins" 2>"$TMP/stderr" &
pid=$!
DB="$TMP/hang.db" wait_samples 1 2; ok $? "the step's two seconds are stored, the drain begins"
kill -INT $pid
for _ in $(seq 600); do	# until it says so (60 s at most: a hang guard)
	grep -q "still in flight" "$TMP/stderr" && break
	kill -0 $pid 2>/dev/null || break
	sleep 0.1
done
kill -0 $pid 2>/dev/null; ok $? "the first SIGINT waits for the request in flight"
like "$(cat "$TMP/stderr")" "warning: interrupted: waiting for 1 request still in flight \(for up to 60 s, or the step's longest I/O if longer\); interrupt again to stop at once" \
	"and says what it waits for and how to stop at once"
kill -INT $pid; wait_exit $pid
is "$rc" 130 "a second SIGINT ends the process by the signal (exit 130)"
like "$(cat "$TMP/stderr")" "a second interrupt: stopping at once, without waiting for the requests in flight; the seconds stored so far are kept and run 1 is left interrupted \(continue it with: hbatest run --resume 1 --db $TMP/hang.db\)" \
	"and says so"
unlike_drained=$(grep -c "never completed" "$TMP/stderr")
is "$unlike_drained" 0 "at once: the drain did not run out (no 'never completed' failure)"
is "$(q "$TMP/hang.db" "PRAGMA integrity_check; SELECT count(*) FROM samples")" "ok
2" "the database is whole, both seconds in it"
like "$("$HB" list --db "$TMP/hang.db")" "^ +1 +[0-9a-f]{8} +interrupted +[-0-9T:]+ +0/1 " \
	"the run lists as interrupted, to be resumed"

# a closed log pipe (| head) does not kill the run: stderr stops, events go on
cat > "$TMP/chatty.lua" <<'LUA'
for i = 1, 3 do
  hb.run{ name = "s" .. i, engine = "null", targets = "v", duration = 1 }
  for j = 1, 50 do hb.log("line " .. j .. " of step " .. i) end
end
LUA
run=$((run + 1))
"$HB" run "$TMP/chatty.lua" --db "$DB" 2>&1 | head -1 >/dev/null
is "${PIPESTATUS[0]}" 0 "a run logging into '| head -1' exits 0"
is "$(q "$DB" "SELECT status || ':' || (SELECT count(*) FROM steps WHERE run_id = $run) FROM runs WHERE id = $run")" done:3 \
	"the run is 'done' with every step"
is "$(q "$DB" "SELECT count(*) FROM events WHERE run_id = $run AND message LIKE 'plan: line 50 of step 3'")" 1 \
	"what was logged after the pipe closed is in the events"
done_testing
