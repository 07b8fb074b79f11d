#!/usr/bin/env bash
# A database busy twice during one step (docs/measurement.md): each lock
# period gives one warning ("kept in memory") when it starts and one "stored
# N seconds kept while the database was busy" when it ends, two of each,
# and no "stored ... kept" after a store that did not wait. Driven by events,
# not by time: the lock is taken when a second is stored, given back when
# the warning is printed, taken again when the kept seconds are stored; the
# run is stopped (SIGINT) once the second wait has ended.
. "$(dirname "$0")/lib.sh"

# wait_for WHAT PID: until stderr holds WHAT's Nth line (grep -c) or PID is gone (0: seen)
wait_for() {
	while [ "$(grep -c -- "$1" "$TMP/err")" -lt "$2" ]; do
		kill -0 "$3" 2>/dev/null || return 1
		sleep 0.1
	done
}
DB="$TMP/busy.db"
echo 'hb.run{ name = "busy twice", engine = "null", oio = 2, duration = 600 }' > "$TMP/busy.lua"
"$HB" run "$TMP/busy.lua" --db "$DB" --target v1 2>"$TMP/err" >/dev/null &
pid=$!
while [ "$(sqlite3 "file:$DB?mode=ro" "SELECT count(*) FROM samples" 2>/dev/null || echo 0)" -lt 1 ]; do
	kill -0 $pid 2>/dev/null || break
	sleep 0.1
done
WARN='kept in memory until it is free'
KEPT='seconds kept while the database was busy'
samples() { sqlite3 "file:$DB?mode=ro" "SELECT count(*) FROM samples" 2>/dev/null || echo 0; }
for n in 1 2; do
	lock_db "$DB"
	wait_for "$WARN" $n $pid; ok $? "lock $n: the warning is printed"
	unlock_db
	wait_for "$KEPT" $n $pid; ok $? "lock $n: its kept seconds are stored, and said so"
	# the next store that does not wait: no "stored ... kept" for it (without
	# this check a lost reset would leave the second lock without a warning,
	# and the wait above would last as long as the step)
	have=$(samples)
	while [ "$(samples)" -le "$have" ] && kill -0 $pid 2>/dev/null; do sleep 0.1; done
	is "$(grep -c -- "$KEPT" "$TMP/err")" $n "lock $n: a store after it that did not wait says nothing"
	[ "$(grep -c -- "$KEPT" "$TMP/err")" = $n ] || break	# (the next lock would find no warning)
done
kill -INT $pid; wait $pid; is $? 130 "the run stopped by SIGINT after the second wait"
is "$(grep -c -- "$WARN" "$TMP/err") $(grep -c -- "$KEPT" "$TMP/err")" "2 2" \
	"two warnings and two 'stored ... kept' on stderr, one of each per lock"
is "$(q "$DB" "SELECT count(*) FROM events WHERE level = 'warning' AND message LIKE '%$WARN%'") $(q "$DB" "SELECT count(*) FROM events WHERE message LIKE '%$KEPT%'")" \
	"2 2" "and in the run's events"
is "$(q "$DB" "SELECT count(*) = max(t) + 1 FROM samples")" 1 "no second dropped by either wait"

done_testing
