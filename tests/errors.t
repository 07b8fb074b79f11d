#!/usr/bin/env bash
# I/O that fails, from the fixture engine tests/fixtures/plugins/faulty.c: a
# virtual clock on which every request takes exactly lat_us (1 ms), EIO on
# every Nth request of a worker, short I/O in an offset range. Every figure is
# worked out by hand from those rules, not read back from the code: with one
# request in flight, request k completes at k ms, so second s holds requests
# 1000s..1000s+999 (second 0 from k=1: 999 of them), and the one due at the
# step's end exactly is drained, not counted.
. "$(dirname "$0")/lib.sh"

DB="$TMP/err.db"
PP="$ROOT/build/tests/plugins"
run() { "$HB" run "$@" --db "$DB" --plugin-path "$PP" -q 2>"$TMP/stderr"; }
last_run() { q "$DB" "SELECT max(id) FROM runs"; }
step_of() { q "$DB" "SELECT max(id) FROM steps WHERE run_id = $1"; }
[ -f "$PP/faulty.so" ]; ok $? "the fixture engine is built ($PP/faulty.so)"

# --- EIO on every 10th request, on_error = "continue" -----------------------
cat > "$TMP/eio.lua" <<'LUA'
hb.run{ name = "eio", engine = "faulty", faulty = { fail_every = 10 }, targets = "v",
        rw = "read", bs = "4k", oio = 1, duration = 3, on_error = "continue" }
hb.run{ name = "after", engine = "null", targets = "v", duration = 1 }
LUA
run "$TMP/eio.lua"; is $? 0 "on_error=continue: EIO on every 10th request, exit 0"
id=$(step_of "$(last_run)")
id=$((id - 1))
# second 0: k = 1..999, 99 of them multiples of 10; seconds 1, 2: 1000 and 100
is "$(q "$DB" "SELECT group_concat(t || ':' || read_ops || ':' || errors || ':' || write_ops, ' ') FROM samples WHERE step_id = $id")" \
	"0:900:99:0 1:900:100:0 2:900:100:0" \
	"each second holds exactly the requests that completed in it: 999-99, 1000-100, 1000-100"
is "$(q "$DB" "SELECT status || ' ' || read_ops || ' ' || read_bytes || ' ' || errors || ' ' || ifnull(error_text, '-') FROM steps WHERE id = $id")" \
	"done 2700 11059200 299 -" "the step: done, 2700 reads of 4 KiB, 299 errors (the one due at 3 s is drained)"
is "$(q "$DB" "SELECT read_ops || ' ' || write_ops || ' ' || read_bytes || ' ' || write_bytes || ' ' || errors FROM step_targets WHERE step_id = $id")" \
	"2700 0 11059200 0 299" "step_targets: the reads and errors by direction, no writes"
is "$(check_invariant "$DB" "$id")" 1 "the samples add up to the step (independent sources included)"
is "$(q "$DB" "SELECT st.lat_mean_us || ' ' || st.lat_max_us || ' ' || printf('%.3f', sa.occupancy) FROM steps st, samples sa WHERE st.id = $id AND sa.step_id = $id AND sa.t = 1")" \
	"1000.0 1000.0 1.000" "latency is the engine's 1 ms; occupancy is the 1 request always in flight: 900 reads and 100 errors x 1 ms"
like "$(q "$DB" "SELECT message FROM events WHERE run_id = $(last_run) AND level = 'warning'")" \
	"^299 I/O errors on 'v', first at offset 36864: Input/output error, and 1 more in the drain, after the window \(on_error=\"continue\"" \
	"a warning names the target and the first error's offset (request 10: 9 x 4096); it counts the step's 299, and the one drained apart"
is "$(q "$DB" "SELECT count(*) || ' ' || max(status) FROM steps WHERE run_id = $(last_run)") $(q "$DB" "SELECT status FROM runs WHERE id = $(last_run)")" \
	"2 done done" "the next step runs; the run is done"
"$HB" report "$(last_run)" --db "$DB" --out "$TMP/erep" >/dev/null 2>&1; ok $? "its report"
page=$(cat "$TMP/erep/index.html")
like "$page" '<td class="num">900<br><span class="warn errors"[^>]*>&#9888; 299 I/O errors \(10 % of its I/Os\)</span>' \
	"the summary marks the step's figure with its errors and their share of its I/Os (299 of 2,999)"
like "$page" 'class="sub errors-note">' "and says under it what the mark means"
like "$page" '<li>step 1 “eio” done, 299 I/O errors: <span class="errtext">299 I/O errors on &#39;v&#39;, first at offset 36864' \
	"the alert at the top gives the step's warning, not \"no error text recorded\""
if printf '%s' "$page" | grep -q 'step 2 “after”[^<]*I/O error'; then ok 1 "the step without errors is not listed"; else ok 0 "the step without errors is not listed"; fi

# --- the same with on_error = "fail" (the default) --------------------------
sed 's/, on_error = "continue"//' "$TMP/eio.lua" > "$TMP/eiofail.lua"
run "$TMP/eiofail.lua"; is $? 1 "on_error=fail: exit 1"
rid=$(last_run)
id=$(q "$DB" "SELECT min(id) FROM steps WHERE run_id = $rid")
is "$(q "$DB" "SELECT status || ' | ' || on_error || ' | ' || error_text FROM steps WHERE id = $id")" \
	"failed | fail | 1 I/O error on 'v', first at offset 36864: Input/output error" \
	"the step is failed at the first error (request 10, offset 9 x 4096), which it names"
is "$(q "$DB" "SELECT count(*) FROM steps WHERE run_id = $rid") $(q "$DB" "SELECT status FROM runs WHERE id = $rid")" \
	"1 failed" "no later step runs; the run is failed"
like "$(cat "$TMP/stderr")" "I/O error on 'v', first at offset 36864" "and says so on stderr"
# request 10 fails at 10 ms; request 11, resubmitted in the same pass before
# the worker sees the stop, completes at 11 ms: the step ends there, inside
# second 0, which is kept as 0.011 s holding 10 reads and the error
is "$(q "$DB" "SELECT group_concat(t || ':' || secs || ':' || read_ops || ':' || errors || ':' || printf('%.3f', occupancy), ' ') FROM samples WHERE step_id = $id")" \
	"0:0.011:10:1:1.000" "the second the error stopped the step in is kept: 0.011 s, 10 reads, the error; occupancy over its 11 ms (the error in flight too)"
is "$(q "$DB" "SELECT window_s || ' ' || read_ops || ' ' || errors || ' ' || printf('%.1f', iops) FROM steps WHERE id = $id") $(q "$DB" "SELECT errors FROM step_targets WHERE step_id = $id")" \
	"0.011 10 1 909.1 1" "the step: a window of 0.011 s, 10 reads, its 1 error (step_targets too), 909.1 IOPS over 11 ms"
is "$(check_invariant "$DB" "$id")" 1 "the kept second adds up to the step's totals"

# --- short reads in an offset range -----------------------------------------
# a 1 MiB target read sequentially wraps every 256 requests: request k reads
# block (k-1) mod 256, and block 10 (offset 40960) is short: k = 11, 267,
# 523, 779 in second 0, and 1035, 1291, 1547, 1803 in second 1
cat > "$TMP/short.lua" <<'LUA'
hb.run{ name = "short", engine = "faulty", targets = "v", rw = "read", bs = "4k", oio = 1,
        duration = 2, on_error = hb.set("on_error", "continue"),
        faulty = { short_at = 40960, short_len = 4096, capacity = "1m" } }
LUA
run "$TMP/short.lua"; is $? 0 "short reads, on_error=continue: exit 0"
id=$(step_of "$(last_run)")
is "$(q "$DB" "SELECT group_concat(t || ':' || read_ops || ':' || errors, ' ') FROM samples WHERE step_id = $id")" \
	"0:995:4 1:996:4" "a short read is an error, not a success: 4 a second"
is "$(q "$DB" "SELECT read_ops || ' ' || read_bytes || ' ' || errors FROM steps WHERE id = $id")" \
	"1991 8155136 8" "the step counts only whole reads (1991 x 4096 bytes) and 8 errors"
run "$TMP/short.lua" --set on_error=fail; is $? 1 "short reads, on_error=fail: exit 1"
is "$(q "$DB" "SELECT error_text FROM steps WHERE run_id = $(last_run)")" \
	"1 I/O error on 'v', first at offset 40960: short read (2048 of 4096 bytes)" \
	"error_text names the offset and what was short"

# --- writes fail on two targets: per target and direction -------------------
# one worker, QD 1 per target, a 50/50 sequential mix; every 10th write of the
# worker fails. Each target completes 2999 requests (3 s at 1 ms, the last
# drained), and the writes that failed are exactly a tenth of the writes
# completed, since requests complete in the order they were submitted.
cat > "$TMP/mix.lua" <<'LUA'
hb.targets = { "a", "b" }
hb.run{ name = "mix", engine = "faulty", faulty = { fail_every = 10, fail_op = "write" },
        rw = "rw", write_pct = 50, bs = "4k", oio = 2, duration = 3, on_error = "continue" }
LUA
run "$TMP/mix.lua"; is $? 0 "a read/write mix over two targets with failing writes runs"
id=$(step_of "$(last_run)")
is "$(q "$DB" "SELECT group_concat(path || ':' || (read_ops + write_ops + errors), ' ') FROM (SELECT * FROM step_targets WHERE step_id = $id ORDER BY path)")" \
	"a:2999 b:2999" "each target completes 2999 requests (reads + writes + errors)"
is "$(q "$DB" "SELECT (SELECT sum(read_ops) || ' ' || sum(write_ops) || ' ' || sum(read_bytes) || ' ' || sum(write_bytes) || ' ' || sum(errors) FROM step_targets WHERE step_id = $id) = read_ops || ' ' || write_ops || ' ' || read_bytes || ' ' || write_bytes || ' ' || errors FROM steps WHERE id = $id")" \
	1 "the targets' reads, writes, bytes and errors add up to the step's, direction by direction"
is "$(q "$DB" "SELECT min(write_ops) > 1000 AND min(read_ops) > 1000 AND min(errors) > 100 FROM step_targets WHERE step_id = $id")" 1 \
	"both targets have reads, writes and errors"
is "$(q "$DB" "SELECT errors = (write_ops + errors) / 10 AND write_bytes = 4096 * write_ops FROM steps WHERE id = $id")" 1 \
	"the errors are a tenth of the writes issued, and no read failed"
is "$(check_invariant "$DB" "$id")" 1 "the samples add up to the step"

# --- a step that completed no I/O: show prints '-', not a latency of 0 -------
cat > "$TMP/none.lua" <<'LUA'
hb.run{ name = "all fail", engine = "faulty", faulty = { fail_every = 1 }, targets = "v",
        rw = "read", bs = "4k", oio = 1, duration = 2 }
LUA
run "$TMP/none.lua"; is $? 1 "every request fails: the step fails, exit 1"
# request 1 fails at 1 ms; request 2, resubmitted in the same pass, at 2 ms
like "$("$HB" show "$(last_run)" --db "$DB")" "all fail +failed +0 +0\.0 +0\.0 +- +- +- +2 " \
	"show: no latency measured is '-' in mean, p99 and max, not 0.0; the 2 errors are counted"
# a probe named numa is on the path (fixture numa_probe): the step's own
# numa = "none" is still the step's, not that probe's options
printf 'hb.run{ engine = "null", targets = "v", duration = 1, numa = "none" }\n' > "$TMP/numakey.lua"
run "$TMP/numakey.lua"; is $? 0 "numa = \"none\" with a probe named numa loaded: the step runs"
is "$(q "$DB" "SELECT placement FROM steps WHERE id = (SELECT max(id) FROM steps)")" none \
	"and its placement is the step's numa = none"
sed 's/duration = 2 }/duration = 2, on_error = "continue" }/' "$TMP/none.lua" > "$TMP/nonecont.lua"
"$HB" run "$TMP/nonecont.lua" --db "$DB" --plugin-path "$PP" 2>"$TMP/stderr"
like "$(cat "$TMP/stderr")" "step 1 all fail: done: 0 IOPS, 0\.0 MB/s, no I/O completed in the window, 1999 errors" \
	"the step's log line says no I/O completed, not 'mean 0.0 us, p99 0.0 us'"

# --- errors in the ramp: the message counts the step's errors, the ramp's apart
# ramp = 1, duration = 2: second 0 (the ramp) holds 99 errors, seconds 1 and 2
# (the window) 100 each, request 3000 (due at 3 s) is drained
sed 's/duration = 3/duration = 2, ramp = 1/' "$TMP/eio.lua" > "$TMP/eioramp.lua"
run "$TMP/eioramp.lua"; is $? 0 "on_error=continue with a ramp: exit 0"
rid=$(last_run)
id=$(q "$DB" "SELECT min(id) FROM steps WHERE run_id = $rid")
is "$(q "$DB" "SELECT errors FROM steps WHERE id = $id") $(q "$DB" "SELECT group_concat(ramp || ':' || errors, ' ') FROM samples WHERE step_id = $id")" \
	"200 1:99 0:100 0:100" "the step's errors are its window's 200; the ramp's 99 are in its sample only"
like "$(q "$DB" "SELECT message FROM events WHERE run_id = $rid AND level = 'warning'")" \
	"^200 I/O errors on 'v', first at offset 36864: Input/output error, and 99 more in the ramp, before the window, and 1 more in the drain, after the window \(" \
	"the warning counts the step's 200 errors, the ramp's 99 and the drained one apart"
sed 's/, on_error = "continue"//' "$TMP/eioramp.lua" > "$TMP/eiorampfail.lua"
run "$TMP/eiorampfail.lua"; is $? 1 "on_error=fail, the first error in the ramp: exit 1"
id=$(q "$DB" "SELECT min(id) FROM steps WHERE run_id = $(last_run)")
is "$(q "$DB" "SELECT errors || ' | ' || error_text FROM steps WHERE id = $id")" \
	"0 | 1 I/O error on 'v', first at offset 36864: Input/output error, in the ramp, before the window: not in the step's errors" \
	"a step failed in its ramp names its error as the ramp's, not in the step's errors (0)"
done_testing
