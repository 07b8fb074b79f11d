#!/usr/bin/env bash
# "Steps as run" puts each warning under exactly one step (reports/telemetry.lua
# step_events; docs/reports.md "Steps as run"): the runner logs a step's
# warning at its end, often the millisecond the next step starts, or a few
# milliseconds after its end. An event naming its step ("step 2 NAME: ...")
# is that step's; any other is the first step's whose window, both ends
# included, holds it. The events are written into a simulated run's
# database at set times, so nothing depends on the host's speed.
. "$(dirname "$0")/lib.sh"

DB="$TMP/e.db"
cat > "$TMP/ev.lua" <<'EOF2'
hb.plan{ name = "ev", defaults = { engine = "sim", rw = "randread", bs = "4k", ramp = 0, duration = 1,
                                   targets = { "e1" }, sim = { preset = "sas2308-8ssd", drives = 1 } } }
hb.run{ name = "first", oio = 1 }
hb.run{ name = "second", oio = 2 }
hb.run{ name = "third", oio = 4 }
EOF2
"$HB" run "$TMP/ev.lua" --db "$DB" --label ev -q 2>>"$TMP/stderr"
ok $? "run ev (simulated)"
q "$DB" "DELETE FROM events WHERE level IN ('warning', 'error')"
# five seconds a step; step 2 starts the millisecond step 1 ends, step 3
# 10 ms after step 2's end
D=2026-12-06T10:00
q "$DB" "UPDATE steps SET started_at = CASE seq WHEN 1 THEN '$D:00.000Z' WHEN 2 THEN '$D:05.000Z'
  ELSE '$D:10.010Z' END, finished_at = CASE seq WHEN 1 THEN '$D:05.000Z' WHEN 2 THEN '$D:10.000Z'
  ELSE '$D:15.000Z' END"
ev() {	# ev MESSAGE AT: a warning of run 1 at that time
	q "$DB" "INSERT INTO events (run_id, at, level, message) VALUES (1, '$D:$2Z', 'warning', '$1')"
}
ev "plain warning at the end of step 1" 05.000
ev "step 2 second: host-bound after its end" 10.006
ev "step 1 first: named, logged in step 2" 07.500
ev "plain warning at the start of step 3" 10.010
ev "plain warning before any step" 00.000
q "$DB" "UPDATE events SET at = '2026-12-06T09:59:59.000Z' WHERE message = 'plain warning before any step'"
ev "plain warning between steps 2 and 3" 10.005
"$HB" report ev --db "$DB" --out "$TMP/r" >/dev/null 2>>"$TMP/stderr"
ok $? "report ev"
# the Steps as run rows: "STEP-SEQ|event text" for each warning, in order
STEPS=$(sed -n 's/.*<h2 id="steps">//p' "$TMP/r/index.html" | sed 's#<tr#\n<tr#g' |
	awk '/<tr class="events">/ { n = split($0, w, "<br>"); for (i = 1; i <= n; i++) {
		m = w[i]; sub(/.*&#9888; /, "", m); sub(/<.*/, "", m); print seq "|" m } next }
	/<td class="num">/ { s = $0; sub(/^<tr><td class="num">/, "", s); sub(/<.*/, "", s); seq = s }')
is "$(grep -c 'plain warning at the end of step 1' <<<"$STEPS")" 1 \
	"a warning at step 1's end, the millisecond step 2 starts: listed once"
like "$STEPS" '^1\|at second 5: plain warning at the end of step 1$' "under step 1, at its end"
is "$(grep -c 'host-bound after its end' <<<"$STEPS")" 1 "step 2's warning logged 6 ms after its end: listed once"
like "$STEPS" '^2\|at second 5: step 2 second: host-bound after its end' "under step 2, not lost between the steps"
like "$STEPS" '^1\|at second 7: step 1 first: named, logged in step 2' "a warning naming step 1 is step 1's, wherever its time"
is "$(grep -c '^2|.*step 1 first' <<<"$STEPS")" 0 "and not step 2's"
like "$STEPS" '^3\|at second 0: plain warning at the start of step 3' "a warning at a step's start, no step ending there: that step's"
is "$(grep -c 'before any step\|between steps' <<<"$STEPS")" 0 "a warning in no step's time, naming none: under no step"
is "$(wc -l <<<"$STEPS")" 4 "four warnings of steps, four lines"
done_testing
