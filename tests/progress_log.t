#!/usr/bin/env bash
# Progress that tells the truth in a log: `hbatest run --status-interval S`
# writes a status line (an ordinary line on stderr) every S seconds, 60 by
# default when stderr is no terminal; a sim step's lines keep its own clock.
# A fill (passes=) shows its percent and bytes, and its ETA, from the rate it
# has measured, is right: the ETA printed about half way through is compared
# with the time the fill then really took (from the lines' time stamps, or on
# the sim from its stored seconds), within the issue's 20 %.
. "$(dirname "$0")/lib.sh"

PP="$ROOT/build/tests/plugins"
if [ ! -f "$PP/paced.so" ]; then
	skip "$PP/paced.so is not built (make build/tests/plugins/paced.so)"
	done_testing
	exit 0
fi

# secs TEXT: "1h02m03s", "6m08s", "8s" -> seconds
secs() { perl -e '$_ = shift; my $s = 0; $s += $1 * 3600 if /(\d+)h/; $s += $1 * 60 if /(\d+)m/;
	$s += $1 if /(\d+)s$/; print $s' "$1"; }
# within GOT WANT: GOT within 20 % of WANT
within() { perl -e 'exit(abs($ARGV[0] - $ARGV[1]) <= 0.2 * $ARGV[1] ? 0 : 1)' "$1" "$2"; }

# --- a fill of a file at a steady 2 MB/s (64k each 31.25 ms, in real time),
# its stderr a pipe into a log whose lines are time-stamped as they come
cat > "$TMP/fill.lua" <<'PLAN'
hb.run{ name = "paced fill", engine = "paced", paced = { lat_us = 31250 }, rw = "write",
	bs = "64k", passes = 1, size = "40m", oio = 1, workers = 1 }
PLAN
"$HB" run "$TMP/fill.lua" --target "$TMP/f.dat" --db "$TMP/f.db" --plugin-path "$PP" \
	--status-interval 1 2>&1 | perl -MTime::HiRes=time -ne 'printf "%.3f %s", time, $_' >"$TMP/f.log"
is "${PIPESTATUS[0]}" 0 "a 20 s fill of a file runs, its stderr into a log"
st=$(grep -a ' hbatest: step 1/1 paced fill | ' "$TMP/f.log")
n=$(grep -c . <<<"$st")
[ "$n" -ge 10 ]; ok $? "--status-interval 1: a status line about each second ($n lines, each a line of its own)"
like "$(grep -a ' MiB of ' <<<"$st" | head -1)" '\| [0-9]+%: [0-9.]+ MiB of 40\.0 MiB \| [0-9]+s, [0-9]+s left \| [0-9]+ IOPS [0-9.]+ MB/s p99 [0-9.]+ ms \| plan ETA [0-9]+s$' \
	"a status line: percent, bytes written of the fill's, elapsed, left, IOPS, MB/s, p99, plan ETA"
# (the fill's own lines: a layout that takes over a second has lines too)
els=$(grep -a ' MiB of ' <<<"$st" | sed -E 's/.* \| ([0-9]+)s, .*/\1/' | tr '\n' ' ')
# whole seconds: two lines late and early in one second may print the same
# (9 10 10 12 under load), so never down, and up over the fill
perl -e 'my @e = split " ", shift; for (1 .. $#e) { exit 1 if $e[$_] < $e[$_ - 1] }
	exit($e[-1] >= $e[0] + 10 ? 0 : 1)' "$els"
ok $? "the lines' elapsed seconds go up ($els)"
half=$(awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+%:$/ && $i + 0 >= 40) { print; exit } }' <<<"$st")
done_at=$(grep -a 'hbatest: step 1 paced fill: done' "$TMP/f.log" | cut -d' ' -f1)
if [ -n "$half" ] && [ -n "$done_at" ]; then
	left=$(secs "$(sed -E 's/.*, ([0-9hms]+) left .*/\1/' <<<"$half")")
	# the fill's seconds after the line, on the step's own clock (its samples'
	# end): the wall clock to the "done" line also holds the step's end (the
	# file's sync, the stores), seconds more under ASan on a loaded machine
	el0=$(sed -E 's/.* \| ([0-9]+)s, .*/\1/' <<<"$half")
	real=$(q "$TMP/f.db" "SELECT printf('%.1f', max(t + secs) - $el0) FROM samples")
	# judged against the wall clock only when the pace held: the whole
	# seconds before the line and after it wrote within 10 % of each other.
	# A worker starved of CPU falls behind the device's pace, then catches
	# up: any ETA from the rate so far is then rightly wrong (it was, by a
	# third, with a CPU hog on each core); the sim's fill below is judged
	# on its own clock whatever the load.
	el=$(sed -E 's/.* \| ([0-9]+)s, .*/\1/' <<<"$half")
	pace=$(q "$TMP/f.db" "SELECT printf('%.0f %.0f', a.r, b.r), abs(a.r - b.r) <= 0.1 * b.r FROM
		(SELECT avg(write_bytes) AS r FROM samples WHERE t < $el AND secs = 1) a,
		(SELECT avg(write_bytes) AS r FROM samples WHERE t >= $el AND secs = 1) b")
	if [ "${pace##*|}" = 1 ]; then
		within "$left" "$real"
		ok $? "the fill's ETA half way ($(sed -E 's/.*\| ([0-9]+%)[^|]*\|.*/\1/' <<<"$half"): ${left} s left) is within 20 % of the ${real} s it then took"
	else
		skip "the paced fill's pace did not hold on this loaded machine (bytes a second before ${el} s and after: ${pace%%|*}): its ETA is not judged against the wall clock"
	fi
else
	ok 1 "the fill's ETA half way: no status line past 40 % or no end ($half / $done_at)"
fi
is "$(q "$TMP/f.db" "SELECT sum(write_bytes) FROM samples")" $((40 << 20)) \
	"the database keeps the exact bytes (40 MiB)"

# --- a fill on the sim: 240 GiB at its pace, a status line a minute of its
# clock by default (stderr is no terminal), the lines deterministic
cat > "$TMP/sim.lua" <<'PLAN'
hb.run{ name = "sim fill", engine = "sim", sim = { drive_capacity = "240g" }, targets = "v",
	rw = "write", bs = "128k", passes = 1 }
PLAN
"$HB" run "$TMP/sim.lua" --db "$TMP/s.db" 2>"$TMP/s.log"
is $? 0 "a sim fill runs, stderr into a log"
st=$(grep -a '^hbatest: step 1/1 sim fill | ' "$TMP/s.log")
total=$(q "$TMP/s.db" "SELECT sum(secs) FROM samples")
mins=$(perl -e 'print int($ARGV[0] / 60)' "$total")
is "$(sed -E 's/.* \| ([0-9hms]+), .*/\1/' <<<"$st" | tr '\n' ' ')" \
	"$(for i in $(seq "$mins"); do printf '%dm00s ' "$i"; done)" \
	"no --status-interval, stderr a file: a line each minute of the sim's clock ($mins in its ${total%.*} s)"
like "$(head -1 <<<"$st")" '\| [0-9]+%: [0-9.]+ GiB of 240 GiB \| 1m00s, [0-9hms]+ left \(simulated\) \| [0-9.]+k IOPS [0-9]+ MB/s p99 [0-9]+ us \| plan ETA [0-9hms]+ simulated$' \
	"its status lines say the fill's percent, its bytes, and that its seconds are simulated"
half=$(awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+%:$/ && $i + 0 >= 45) { print; exit } }' <<<"$st")
el=$(secs "$(sed -E 's/.* \| ([0-9hms]+), .*/\1/' <<<"$half")")
left=$(secs "$(sed -E 's/.*, ([0-9hms]+) left .*/\1/' <<<"$half")")
real=$(perl -e 'printf "%.0f", $ARGV[0] - $ARGV[1]' "$total" "$el")
within "$left" "$real"
ok $? "the sim fill's ETA at $el s ($left s left) is within 20 % of the $real s it then took"
"$HB" run "$TMP/sim.lua" --db "$TMP/s0.db" --status-interval 0 2>"$TMP/s0.log"
is "$(grep -c '| plan ETA' "$TMP/s0.log")" 0 "--status-interval 0: no status line in the log"
"$HB" run "$TMP/sim.lua" --db "$TMP/s5.db" --status-interval 300 2>"$TMP/s5.log"
is "$(grep -a '^hbatest: step 1/1 sim fill | ' "$TMP/s5.log" | sed -E 's/.* \| ([0-9hms]+), .*/\1/' | tr '\n' ' ')" \
	"5m00s 10m00s " "--status-interval 300: a line each 5 minutes of the sim's clock"

# --- numbers scaled for people: the null engine's millions of IOPS
cat > "$TMP/null.lua" <<'PLAN'
hb.run{ name = "fast", engine = "null", targets = "v", duration = 3 }
PLAN
"$HB" run "$TMP/null.lua" --db "$TMP/n.db" --status-interval 1 2>"$TMP/n.log"
line=$(grep -a '^hbatest: step 1/1 fast | ' "$TMP/n.log" | tail -1)
like "$line" '\| [0-9.]{1,4}[kMG]? IOPS [0-9.]{1,4} [MGT]B/s p99 [0-9.]{1,4} (us|ms|s) \|' \
	"the null engine's rates read in three figures and a unit (k/M IOPS, MB/s to TB/s, us to s)"
line=$(grep -a '^hbatest: step 1 fast: done: ' "$TMP/n.log")
like "$line" 'done: [0-9.]{1,4}[kMG]? IOPS, [0-9.]{1,4} [MGT]B/s, mean [0-9.]{1,4} (us|ms|s), p99 [0-9.]{1,4} (us|ms|s), max [0-9.]{1,4} (us|ms|s), 0 errors$' \
	"the step's result line is scaled too ($line)"
is "$(sqlite3 "$TMP/n.db" "SELECT iops > 100000 AND iops <> round(iops / 10000) * 10000 FROM steps WHERE seq = 1")" 1 \
	"the database keeps the exact IOPS, not the three figures printed"

# --- an exec step: its command may run for hours, and the log says so
cat > "$TMP/exec.lua" <<'PLAN'
hb.exec{ cmd = "sleep 3", name = "nap", estimate = 100 }
PLAN
"$HB" run "$TMP/exec.lua" --db "$TMP/e.db" --allow-exec --status-interval 1 2>"$TMP/e.log"
st=$(grep -a '^hbatest: step 1/1 nap | ' "$TMP/e.log")
like "$(head -1 <<<"$st")" '^hbatest: step 1/1 nap \| [0-9]s, its command running \| plan ETA 1m3[0-9]s$' \
	"an exec step: status lines while its command runs, the plan ETA counting its estimate= ($(grep -c . <<<"$st") lines)"

# --- the option's values
"$HB" run "$TMP/null.lua" --db "$TMP/bad.db" --status-interval soon 2>"$TMP/bad.err"
is $? 2 "--status-interval soon: a usage error"
like "$(cat "$TMP/bad.err")" "--status-interval soon: expected whole seconds" "which says what it takes"
"$HB" run "$TMP/null.lua" --db "$TMP/bad.db" --status-interval -5 2>/dev/null
is $? 2 "--status-interval -5: a usage error"

# --- on a terminal: the live line, and full lines only when asked
if command -v script >/dev/null; then
	script -qec "'$HB' run '$TMP/null.lua' --db '$TMP/t.db'" /dev/null >"$TMP/tty" 2>&1
	tr '\r' '\n' <"$TMP/tty" | sed 's/\x1b\[K//g' >"$TMP/tty.lines"
	is "$(grep -ac '^step 1/1 fast | ' "$TMP/tty.lines") $(grep -ac '^hbatest: step 1/1 fast | ' "$TMP/tty.lines")" \
		"$(grep -ac '^step 1/1 fast | ' "$TMP/tty.lines") 0" "a terminal: the live line, no status line by default"
	script -qec "'$HB' run '$TMP/null.lua' --db '$TMP/t2.db' --status-interval 1" /dev/null >"$TMP/tty2" 2>&1
	tr '\r' '\n' <"$TMP/tty2" | sed 's/\x1b\[K//g' | grep -aq '^hbatest: step 1/1 fast | .*plan ETA [0-9]*s$'
	ok $? "a terminal with --status-interval 1: full status lines besides the live line"
else
	skip "script (util-linux) is not installed: no terminal"
	skip "script (util-linux) is not installed: no terminal"
fi
done_testing
