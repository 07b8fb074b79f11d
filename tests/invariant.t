#!/usr/bin/env bash
# The measurement invariant on a real 10-second step: oio=32, ramp=2 gives
# 12 samples, 2 flagged ramp; the other 10 add up exactly to the step's
# totals; the step's percentiles come from its stored histogram.
. "$(dirname "$0")/lib.sh"

DB="$TMP/inv.db"
cat > "$TMP/inv.lua" <<'LUA'
hb.run{ engine = "io_uring", rw = "randread", bs = "4k", oio = 32, duration = 10, ramp = 2,
        size = "64m" }
LUA
"$HB" run "$TMP/inv.lua" --db "$DB" --target "$TMP/t.dat" -q; ok $? "the step runs"
is "$(q "$DB" "SELECT count(*) FROM samples WHERE step_id = 1")" 12 "12 samples"
is "$(q "$DB" "SELECT group_concat(t) FROM samples WHERE step_id = 1 AND ramp = 1")" "0,1" \
	"seconds 0 and 1 are flagged ramp"
is "$(q "$DB" "SELECT group_concat(t) FROM samples WHERE step_id = 1 AND ramp = 0")" "2,3,4,5,6,7,8,9,10,11" \
	"seconds 2..11 are the window"
is "$(check_invariant "$DB" 1)" 1 "the 10 window samples add up exactly to the step's totals"
is "$(q "$DB" "SELECT window_s FROM steps WHERE id = 1")" 10 "the window is 10 seconds"

# Percentiles against latencies known one by one, not against the code's own
# bucket formula: the fixture engine (tests/fixtures/plugins/faulty.c) runs a
# virtual clock on which the kth request takes 100 + (k - 1) mod 1000 us. With
# one request in flight request k completes at the sum of the first k; awk
# replays that to get each second's count and the window's exact percentiles.
cat > "$TMP/spread.lua" <<'LUA'
hb.run{ engine = "faulty", faulty = { lat_us = 100, lat_spread_us = 999 }, targets = "v",
        rw = "read", bs = "4k", oio = 1, duration = 3, ramp = 1 }
LUA
"$HB" run "$TMP/spread.lua" --db "$DB" --plugin-path "$ROOT/build/tests/plugins" -q
ok $? "a step of known latencies runs (fixture engine)"
# replay: each second's count ("t:count ...") into seconds.txt, the window's
# latencies (us) on stdout; then n mean p50 p99 p99.9 max of them, sorted
awk -v out="$TMP/seconds.txt" 'BEGIN {
	for (k = 1; ; k++) {
		lat = 100 + (k - 1) % 1000; c += lat
		if (c >= 4e6) break	# completes at the step end or later: drained
		sec = int(c / 1e6); cnt[sec]++
		if (sec >= 1) print lat
	}
	for (s = 0; s < 4; s++) printf "%s%d:%d", s ? " " : "", s, cnt[s] > out }' |
	sort -n | awk '{ v[NR] = $1; sum += $1 } END {
	printf "%d %.6f", NR, sum / NR
	split("50 99 99.9", ps, " ")
	for (i = 1; i <= 3; i++) { r = ps[i] / 100 * NR; r = r == int(r) ? r : int(r) + 1; printf " %d", v[r] }
	printf " %d\n", v[NR] }' > "$TMP/window.txt"
expect="$(cat "$TMP/seconds.txt")
$(cat "$TMP/window.txt")"
sid=$(q "$DB" "SELECT max(id) FROM steps")
is "$(q "$DB" "SELECT group_concat(t || ':' || read_ops, ' ') FROM samples WHERE step_id = $sid")" \
	"$(echo "$expect" | head -1)" "each second holds the requests that completed in it (replayed: $(echo "$expect" | head -1))"
read -r n mean p50 p99 p999 max <<<"$(echo "$expect" | tail -1)"
is "$(q "$DB" "SELECT read_ops || ' ' || printf('%.6f', lat_mean_us) || ' ' || lat_max_us FROM steps WHERE id = $sid")" \
	"$n $mean $max.0" "the window: $n reads, the exact mean ($mean us) and maximum ($max us)"
for pair in "p50:$p50" "p99:$p99" "p999:$p999"; do
	col=lat_${pair%%:*}_us want=${pair#*:}
	got=$(q "$DB" "SELECT $col FROM steps WHERE id = $sid")
	awk -v g="$got" -v w="$want" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(d <= 0.004 * w) }'
	ok $? "${pair%%:*} is $got us, within docs/measurement.md's 0.4 % of the exact $want us"
done
is "$(check_invariant "$DB" "$sid")" 1 "its samples, histogram and targets add up to the step"
is "$(q "$DB" "SELECT layout FROM histograms WHERE step_id = 1")" "loglin-v1 unit=ns sub_bits=7 max_exp=42" \
	"the histogram layout is recorded"
is "$(q "$DB" "SELECT lat_p50_us <= lat_p99_us AND lat_p99_us <= lat_p999_us AND lat_p999_us <= lat_max_us FROM steps WHERE id = 1")" 1 \
	"percentiles are ordered p50 <= p99 <= p99.9 <= max"
is "$(q "$DB" "SELECT max(lat_max_us) = (SELECT lat_max_us FROM steps WHERE id = 1) FROM samples WHERE step_id = 1 AND ramp = 0")" 1 \
	"the step's max latency is the largest of its window's seconds"
# Occupancy (the sum of the latencies of a second's completions over 1 s) is
# 32 while the queue stays full. A worker descheduled on a busy machine moves
# latency from one second into the next, so a second is checked loosely (a
# bucket index off by one leaves a second empty: 0) and the window exactly.
is "$(q "$DB" "SELECT count(*) FROM samples WHERE step_id = 1 AND occupancy BETWEEN 8 AND 64")" 12 \
	"the queue stays filled: every second shows 8..64 I/Os in flight (occupancy)"
# The window's mean occupancy on a real device depends on how promptly the
# worker refills the queue, which a busy machine slows (24..33 failed once
# under load): here it is checked against the step's own measured values
# (Little's law: its reads times their mean latency over its 10 s) and
# against what cannot be exceeded (32 in flight); that a full queue reads 32
# is checked below, on the fixture engine's virtual clock.
is "$(q "$DB" "SELECT abs(avg(o.occupancy) - s.read_ops * s.lat_mean_us / 1e6 / s.window_s)
	< 1e-6 * avg(o.occupancy) AND avg(o.occupancy) > 0 FROM samples o, steps s
	WHERE o.step_id = 1 AND o.ramp = 0 AND s.id = 1")" 1 \
	"over the window the mean occupancy is its reads times their mean latency over 10 s"
# (a second alone may: a worker descheduled moves latency into the next
# one; the window's mean at most by the I/Os its start cut, each its latency)
is "$(q "$DB" "SELECT avg(o.occupancy) <= 32 * (1 + s.lat_max_us / 1e6 / s.window_s) + 1e-9
	FROM samples o, steps s WHERE o.step_id = 1 AND o.ramp = 0 AND s.id = 1")" 1 \
	"the window's mean occupancy is no more than the 32 I/Os in flight"
is "$(q "$DB" "SELECT abs(mbps - (read_bytes + write_bytes) / 10.0 / 1e6) < 1e-9 FROM steps WHERE id = 1")" 1 \
	"MB/s is the window's bytes over its 10 seconds, in 10^6 bytes/s"
# a queue kept full: on the fixture engine's virtual clock every request of
# 32 in flight takes exactly 1 ms, whatever the machine does, so each second
# of the window holds 32,000 completions of 1 ms: occupancy 32
cat > "$TMP/full.lua" <<'LUA'
hb.run{ engine = "faulty", faulty = { lat_us = 1000 }, targets = "v", rw = "randread", bs = "4k",
        oio = 32, duration = 3, ramp = 1 }
LUA
"$HB" run "$TMP/full.lua" --db "$DB" --plugin-path "$ROOT/build/tests/plugins" -q
ok $? "a step of 32 in flight on a virtual clock runs (fixture engine)"
sid=$(q "$DB" "SELECT max(id) FROM steps")
is "$(q "$DB" "SELECT group_concat(read_ops || ':' || printf('%.3f', occupancy), ' ') FROM samples
	WHERE step_id = $sid AND ramp = 0")" "32000:32.000 32000:32.000 32000:32.000" \
	"over the window the mean occupancy is the 32 I/Os in flight (each second of a full queue: 32)"
done_testing
