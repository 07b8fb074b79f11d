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
# the main thread's system calls while the step runs: the sampler's sleeps
traced -qq -e trace=nanosleep,clock_nanosleep -o "$TMP/on.trace" \
	"$HB" run "$TMP/null.lua" --db "$DB" --target null -q
ok $? "null step with the sampler runs"
HBATEST_NO_SAMPLER=1 traced -qq -e trace=nanosleep,clock_nanosleep -o "$TMP/off.trace" \
	"$HB" run "$TMP/null.lua" --db "$DB" --target null -q
ok $? "null step with HBATEST_NO_SAMPLER=1 runs"
is "$(q "$DB" "SELECT count(*) || ' ' || sum(ramp) FROM samples WHERE step_id = 2")" "4 1" \
	"without the sampler: every second is still stored"
is "$(check_invariant "$DB" 2)" 1 "without the sampler: the window adds up to the step's totals"
on=$(wc -l < "$TMP/on.trace"); off=$(wc -l < "$TMP/off.trace")
is "$([ "$on" -gt 100 ] && [ "$off" -lt 20 ] && echo yes)" yes \
	"the main thread polls with the sampler ($on sleeps) and not without ($off)"
done_testing
