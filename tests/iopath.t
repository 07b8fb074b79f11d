#!/usr/bin/env bash
# The I/O path when the device misbehaves or the workload is uneven, on the
# fixture engines (tests/fixtures/plugins/stall.c, faulty.c: virtual clocks,
# so every figure is exact) and psync on files: an I/O slower than the
# workers' ring of seconds, a request that never completes, an engine that
# takes no request for a while, a fill over targets of different sizes, and
# write data no deduplication can shrink.
. "$(dirname "$0")/lib.sh"

DB="$TMP/io.db"
PP="$ROOT/build/tests/plugins"
run() { timeout -k 5 60 "$HB" run "$@" --db "$DB" --plugin-path "$PP" -q 2>"$TMP/stderr"; }
last_step() { q "$DB" "SELECT max(id) FROM steps"; }
[ -f "$PP/stall.so" ]; ok $? "the fixture engine is built ($PP/stall.so)"

# --- an I/O slower than the ring of seconds (worker.h WORKER_RING) ---------
# one request in flight, each 10 s on the virtual clock: the kth completes at
# 10k s, so seconds 10 and 20 hold one each and the one at 30 s is drained.
cat > "$TMP/slow.lua" <<'LUA'
hb.run{ engine = "faulty", faulty = { lat_us = 10000000 }, targets = "v",
        rw = "randwrite", bs = "4k", oio = 1, duration = 30 }
LUA
run "$TMP/slow.lua"; is $? 0 "a 10 s I/O (longer than the ring of seconds) does not stall its worker"
id=$(last_step)
is "$(q "$DB" "SELECT group_concat(t || ':' || write_ops, ' ') FROM samples WHERE step_id = $id AND write_ops > 0")" \
	"10:1 20:1" "each slow completion is in the second it completed in"
is "$(q "$DB" "SELECT count(*) || ' ' || sum(secs) FROM samples WHERE step_id = $id")" "30 30.0" \
	"all 30 seconds stored, each whole"

# --- a request that never completes ----------------------------------------
# the 5th request of the worker hangs: the drain gives up after 60 s (virtual)
cat > "$TMP/hang.lua" <<'LUA'
hb.run{ engine = "stall", stall = { hang_at = 5 }, targets = "v", rw = "randread",
        bs = "4k", oio = 4, duration = 2 }
LUA
# the engine is left open on purpose (its buffer may still be written into):
# LeakSanitizer, in a SANITIZE=1 build, would count that as a leak
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" run "$TMP/hang.lua"; rc=$?
[ "$rc" = 1 ]; ok $? "a request that never completes fails the step, no hang (exit $rc)"
like "$(cat "$TMP/stderr")" "1 request to 'v' never completed: worker 0 gave up on it after 60 s of draining" \
	"the error names the target and how many never completed"
id=$(last_step)
is "$(q "$DB" "SELECT status || ' ' || count(s.t) FROM steps JOIN samples s ON s.step_id = steps.id WHERE steps.id = $id")" \
	"failed 2" "the step is failed, its two seconds stored"

# --- an engine that takes no request for a while (plugin.h: 0 = retry) -------
# submit calls 3 to 5 take none while requests are in flight: the worker reaps
# and offers them again (no virtual time passes meanwhile); a 4 ms request at
# oio 4 completes 4 x 499 times before the step's end
cat > "$TMP/busy.lua" <<'LUA'
hb.run{ engine = "stall", stall = { lat_us = 4000, refuse_from = 3, refuse_to = 5 },
        targets = "v", rw = "randread", bs = "4k", oio = 4, duration = 2 }
LUA
run "$TMP/busy.lua"; is $? 0 "submit taking none for a while (transient EAGAIN) does not fail the step"
id=$(last_step)
is "$(q "$DB" "SELECT read_ops FROM steps WHERE id = $id")" 1996 \
	"and no request is lost: 4 x 499 (the 500th of each, due at 2 s, is drained)"
cat > "$TMP/never.lua" <<'LUA'
hb.run{ engine = "stall", stall = { refuse_from = 1, refuse_to = 100000000 },
        targets = "v", rw = "randread", bs = "4k", oio = 4, duration = 2 }
LUA
run "$TMP/never.lua"; rc=$?
[ "$rc" = 1 ]; ok $? "an engine that never takes a request fails the step (exit $rc)"
like "$(cat "$TMP/stderr")" "engine 'stall' took no request in worker 0, with none in flight, 1000 times in a row" \
	"and says so"

# --- each submit call's requests timed from that call ------------------------
# an engine that takes 2 requests per call, each call 100 us of virtual time,
# each request 1000 us: every latency is 1100 us, the first fill of 8 (four
# calls) too. Stamped once before the calls, the last pair of that fill
# would read 1400 us.
cat > "$TMP/calls.lua" <<'LUA'
hb.run{ engine = "stall", stall = { lat_us = 1000, take = 2, submit_us = 100 },
        targets = "v", rw = "randread", bs = "4k", oio = 8, duration = 1 }
LUA
run "$TMP/calls.lua"; is $? 0 "an engine taking 2 requests per call runs"
id=$(last_step)
is "$(q "$DB" "SELECT lat_max_us < 1110 AND lat_p50_us > 1090 FROM steps WHERE id = $id")" 1 \
	"each request is timed from its own submit call: 1100 us, the first fill too (max $(q "$DB" "SELECT lat_max_us FROM steps WHERE id = $id") us)"

# --- a psync fill over targets of different sizes ----------------------------
truncate -s 4M "$TMP/t4.dat"	# holes: no data to lose, no --destroy-data
truncate -s 16M "$TMP/t16.dat"
cat > "$TMP/fill.lua" <<LUA
hb.run{ engine = "psync", targets = { "$TMP/t4.dat", "$TMP/t16.dat" }, direct = false,
        rw = "write", bs = "64k", oio = 2, passes = 1, duration = 120 }
LUA
run "$TMP/fill.lua"; is $? 0 "psync fill of a 4 MiB and a 16 MiB file"
id=$(last_step)
is "$(q "$DB" "SELECT write_bytes FROM steps WHERE id = $id")" 20971520 \
	"every byte of both targets written once (the larger goes on after the smaller is full)"

# --- write data: every 4 KiB block unique ------------------------------------
blocks() { split -b 4096 -d -a 6 "$1" "$TMP/blk/b" && md5sum "$TMP"/blk/b* | awk '{print $1}' | sort -u | wc -l; rm -rf "$TMP/blk"; mkdir "$TMP/blk"; }
mkdir "$TMP/blk"
for bs in 128k 4k; do
	truncate -s 8M "$TMP/d$bs.dat"
	cat > "$TMP/d.lua" <<LUA
hb.run{ engine = "psync", targets = "$TMP/d$bs.dat", direct = false, rw = "write",
        bs = "$bs", oio = 1, passes = 1, duration = 120 }
LUA
	run "$TMP/d.lua"; is $? 0 "fill 8 MiB with bs=$bs"
	is "$(blocks "$TMP/d$bs.dat")" 2048 "bs=$bs: all 2048 blocks of 4 KiB distinct (nothing to deduplicate)"
done

# --- a fill with a ramp ---------------------------------------------------
# 1 ms a 4k write on the virtual clock: 4 MiB take 1.024 s, 64 MiB 16.384 s
cat > "$TMP/ramp.lua" <<'LUA'
hb.run{ engine = "faulty", targets = "v", faulty = { capacity = "4m" }, rw = "write",
        bs = "4k", oio = 1, passes = 1, ramp = 5, duration = 10 }
hb.run{ engine = "faulty", targets = "v", faulty = { capacity = "64m" }, rw = "write",
        bs = "4k", oio = 1, passes = 1, ramp = 5, duration = 100 }
LUA
run "$TMP/ramp.lua"; is $? 0 "fills with a ramp"
like "$(cat "$TMP/stderr")" "the fill ended at 1.02 s, inside its 5 s ramp: no second after the ramp" \
	"a fill that ends inside its ramp says so"
id=$(last_step)
is "$(q "$DB" "SELECT window_s || ' ' || write_bytes || ' ' || quote(iops) || ' ' || quote(write_iops) || ' ' || quote(mbps) FROM steps WHERE id = $((id - 1))")" \
	"0 0 NULL NULL NULL" "a fill that ends inside its ramp has no window and no rates: IOPS and MB/s NULL, not 0"
like "$("$HB" show "$(q "$DB" "SELECT run_id FROM steps WHERE id = $id")" --db "$DB")" \
	"^ +1 +measure .* done +- +- +- +- +- +- +0 " "show prints '-' for its IOPS and MB/s, not 0"
is "$(q "$DB" "SELECT write_bytes || ' ' || window_s || ' ' || round(mbps, 3) FROM steps WHERE id = $id")" \
	"46632960 11.384 4.096" "a fill past its ramp: MB/s over the seconds after it, bytes of those seconds"

done_testing
