#!/usr/bin/env bash
# A step whose own end cannot be stored (the database locked past the busy
# wait, a full disk) does not stay 'running' once the run's end is stored:
# the run's end ends it in the same transaction, failed, with the error it
# could not store. The store's failure is
# made at will by a trigger that refuses the step's end (its totals) and
# nothing else, so no lock has to outlast a minute of busy wait.
. "$(dirname "$0")/lib.sh"

# refuse DB: a trigger makes the end of every step named 'lost' fail, as a
# full disk would
refuse() {
	sqlite3 "$1" "CREATE TRIGGER refuse_step_end BEFORE UPDATE OF window_s ON steps
		WHEN OLD.name = 'lost'
		BEGIN SELECT RAISE(ABORT, 'disk is full (the test''s trigger)'); END;"
}

DB="$TMP/fail.db"
printf 'hb.run{ name = "kept", engine = "null", targets = "v", duration = 1 }\nhb.run{ name = "lost", engine = "null", targets = "v", duration = 1 }\nhb.run{ name = "never", engine = "null", targets = "v", duration = 1 }\n' > "$TMP/three.lua"
"$HB" run "$TMP/three.lua" --db "$DB" -q 2>/dev/null; ok $? "a first run is stored whole (the database to break)"
refuse "$DB"
"$HB" run "$TMP/three.lua" --db "$DB" -q 2>"$TMP/fail.err"; rc=$?
is "$rc" 1 "a step whose end cannot be stored: exit 1"
like "$(cat "$TMP/fail.err")" "cannot record the results of step 2 in '.*fail.db': disk is full" \
	"and the error says why"
is "$(q "$DB" "SELECT status FROM runs WHERE id = 2")" failed "the run is stored failed"
is "$(q "$DB" "SELECT group_concat(seq || ':' || status || ':' || (finished_at IS NOT NULL) || ':' || COALESCE(error_text, '-'), ' | ') FROM steps WHERE run_id = 2")" \
	"1:done:1:- | 2:failed:1:its end (done) could not be stored: disk is full (the test's trigger)" \
	"its lost step is failed too, with an end and the error it could not store (not 'running'); the step before stays done"
is "$(q "$DB" "SELECT group_concat(status) FROM step_summary WHERE run_id = 2")" done,failed \
	"step_summary says failed"
like "$("$HB" show 2 --db "$DB")" "   2  measure +lost +failed " "show says the step failed"
is "$(q "$DB" "SELECT group_concat(status) FROM steps WHERE run_id = 1")" done,done,done \
	"the first run's steps are left as they were"

# a step that failed on its own (a command's exit status) and whose end
# cannot be stored: stored failed with its own failure, which says more
# than the store's error
DB="$TMP/own.db"
"$HB" run "$TMP/three.lua" --db "$DB" -q 2>/dev/null
refuse "$DB"
printf 'hb.exec{ name = "lost", cmd = "exit 3" }\n' > "$TMP/exit3.lua"
"$HB" run "$TMP/exit3.lua" --db "$DB" --allow-exec -q 2>/dev/null
like "$? $(q "$DB" "SELECT status || ': ' || error_text FROM steps WHERE run_id = 2")" \
	"^1 failed: 'exit 3' exited with status 3 after [0-9.]+ s$" \
	"a failed step whose end cannot be stored keeps its own error ('exit 3' exited with status 3), not the store's"

# a step interrupted (SIGINT) whose end cannot be stored: the run fails
# (its last step's results are lost), and the step is failed with the
# error; the step lasts until the signal (duration 600), which is sent once
# a second of it is stored
DB="$TMP/abort.db"
"$HB" run "$TMP/three.lua" --db "$DB" -q 2>/dev/null
refuse "$DB"
printf 'hb.run{ name = "lost", engine = "null", targets = "v", duration = 600 }\n' > "$TMP/long.lua"
"$HB" run "$TMP/long.lua" --db "$DB" -q 2>"$TMP/abort.err" &
pid=$!
for _ in $(seq 1200); do
	[ "$(q "$DB" "SELECT count(*) FROM samples s JOIN steps t ON t.id = s.step_id WHERE t.run_id = 2" 2>/dev/null)" -gt 0 ] 2>/dev/null && break
	sleep 0.1
done
kill -INT $pid; wait $pid; rc=$?
is "$rc" 1 "a step interrupted whose end cannot be stored: exit 1"
is "$(q "$DB" "SELECT status FROM runs WHERE id = 2") $(q "$DB" "SELECT status || ': ' || error_text FROM steps WHERE run_id = 2")" \
	"failed failed: its end (aborted) could not be stored: disk is full (the test's trigger)" \
	"the run and its step are failed, the step with the error it could not store"
done_testing
