#!/usr/bin/env bash
# Ctrl-C and SIGTERM: stop issuing, drain, keep every whole second, mark the
# step and the run 'aborted', exit 130. Seconds are stored as they complete.
. "$(dirname "$0")/lib.sh"

DB="$TMP/int.db"
cat > "$TMP/long.lua" <<'LUA'
hb.run{ name = "long", engine = "io_uring", rw = "randrw", oio = 8, duration = 600, ramp = 1,
        size = "32m" }
hb.run{ name = "never", engine = "null", duration = 600 }
LUA

# wait_samples RUN N: until the run's first step has N samples (at most 30 s)
wait_samples() {
	for _ in $(seq 300); do
		n=$(q "$DB" "SELECT count(*) FROM samples s JOIN steps t ON t.id = s.step_id WHERE t.run_id = $1" 2>/dev/null)
		[ "${n:-0}" -ge "$2" ] && return 0
		sleep 0.1
	done
	return 1
}

run=0
for sig in INT TERM; do
	run=$((run + 1))
	"$HB" run "$TMP/long.lua" --db "$DB" --target "$TMP/t.dat" -q 2>"$TMP/stderr" &
	pid=$!
	wait_samples $run 3; ok $? "SIG$sig: seconds reach the database while the step runs"
	is "$(q "$DB" "SELECT status FROM runs WHERE id = $run")" running "SIG$sig: the run reads 'running' meanwhile"
	kill -$sig $pid
	wait $pid; is $? 130 "SIG$sig: exit code 130"
	is "$(q "$DB" "SELECT status FROM runs WHERE id = $run")" aborted "SIG$sig: the run is 'aborted'"
	is "$(q "$DB" "SELECT group_concat(status) FROM steps WHERE run_id = $run")" aborted \
		"SIG$sig: the step is 'aborted' and no later step started"
	id=$(q "$DB" "SELECT id FROM steps WHERE run_id = $run")
	is "$(check_invariant "$DB" "$id")" 1 "SIG$sig: the kept samples add up to the step's totals"
	is "$(q "$DB" "SELECT count(*) = max(t) + 1 FROM samples WHERE step_id = $id")" 1 \
		"SIG$sig: the kept seconds are 0..n with no gap"
	is "$(q "$DB" "SELECT window_s >= 2 FROM steps WHERE id = $id")" 1 "SIG$sig: the whole seconds before the signal are kept"
	is "$(q "$DB" "SELECT count(*) FROM events WHERE run_id = $run AND message LIKE 'interrupted%'")" 1 \
		"SIG$sig: the interruption is in the run's events"
done

# a process that dies without cleaning up reads as 'interrupted'
"$HB" run "$TMP/long.lua" --db "$DB" --target "$TMP/t.dat" -q 2>"$TMP/stderr" &
pid=$!
wait_samples 3 2
kill -KILL $pid; wait $pid 2>/dev/null
out=$("$HB" list --db "$DB")
like "$out" '^ +3 +[0-9a-f]{8} +interrupted ' "a SIGKILLed run reads as 'interrupted' in list"
done_testing
