#!/usr/bin/env bash
# HBATEST_NO_SAMPLER=1 (make bench: the sampler's own cost): the main thread
# merges nothing while the workers run, yet every second is stored at the
# end and the window still adds up.
. "$(dirname "$0")/lib.sh"

DB="$TMP/n.db"
if ! command -v strace >/dev/null; then
	skip "strace is not installed"
	done_testing
	exit
fi
cat > "$TMP/null.lua" <<'LUA'
hb.run{ engine = "null", rw = "randrw", write_pct = 30, oio = 8, workers = 2, duration = 3, ramp = 1 }
LUA
# the main thread's system calls while the step runs: the sampler sleeps on a
# futex with a timeout until a worker has news (pthread_join's wait has none)
trace=trace=futex,nanosleep,clock_nanosleep
traced -qq -e "$trace" -o "$TMP/on.trace" \
	"$HB" run "$TMP/null.lua" --db "$DB" --target null -q
ok $? "null step with the sampler runs"
HBATEST_NO_SAMPLER=1 traced -qq -e "$trace" -o "$TMP/off.trace" \
	"$HB" run "$TMP/null.lua" --db "$DB" --target null -q
ok $? "null step with HBATEST_NO_SAMPLER=1 runs"
is "$(q "$DB" "SELECT count(*) || ' ' || sum(ramp) FROM samples WHERE step_id = 2")" "4 1" \
	"without the sampler: every second is still stored"
is "$(check_invariant "$DB" 2)" 1 "without the sampler: the window adds up to the step's totals"
waits() { grep -cE 'FUTEX_WAIT_PRIVATE, [0-9]+, \{' "$1"; }
# the sampler's sleeps: not the 100 us naps of the main thread while the
# workers open their engines (workers_ready, before the step starts), which
# a busy machine multiplies (79 under load, so 74 and more failed a bound
# meant for the sampler alone)
sleeps() { grep -E 'nanosleep\(' "$1" | grep -vc 'tv_sec=0, tv_nsec=100000}'; }
on=$(waits "$TMP/on.trace"); off=$(waits "$TMP/off.trace")
is "$([ "$on" -ge 4 ] && [ "$off" = 0 ] && echo yes)" yes \
	"the main thread waits for the workers' seconds with the sampler ($on waits) and not without ($off)"
# 2 workers x 4 seconds of news, their finish and a live line twice a
# second: about 20 wake-ups whatever the load (news and ticks, not the
# clock, end each wait), where polling every 10 ms makes 400
n=$(( on + $(sleeps "$TMP/on.trace") ))
is "$([ "$n" -lt 60 ] && echo yes)" yes "the sampler is woken, it does not poll ($n sleeps and waits in 4 s)"
# the worker wakes the sampler when it closes a second: its FUTEX_WAKEs on
# the word the sampler waits on, about one a second of a 6 s step (6) and
# its finish, where a worker that did not wake it would leave only its
# finish (1). Counted on the worker's side: the sampler's waits that ended
# so (0, EAGAIN) depend on timing, as a wake that comes while strace holds
# the sampler between two waits on a busy machine ends none of them.
printf 'hb.run{ engine = "null", rw = "randread", oio = 8, workers = 1, duration = 6, ramp = 0 }\n' > "$TMP/one.lua"
traced -f -qq -e trace=futex -o "$TMP/one.trace" "$HB" run "$TMP/one.lua" --db "$DB" --target null -q
main=$(awk 'NR == 1 { print $1 }' "$TMP/one.trace")
word=$(awk -v m="$main" '$1 == m && /FUTEX_WAIT_PRIVATE, [0-9]+, \{/ {
	sub(/.*futex\(/, ""); sub(/,.*/, ""); print; exit }' "$TMP/one.trace")
wakes=$(awk -v m="$main" -v w="futex($word, FUTEX_WAKE_PRIVATE" '$1 != m && index($0, w)' \
	"$TMP/one.trace" | grep -c .)
is "$([ -n "$word" ] && [ "$wakes" -ge 3 ] && echo yes)" yes \
	"the worker wakes the sampler when a second is final ($wakes wakes in 6 s)"
done_testing
