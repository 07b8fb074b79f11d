#!/usr/bin/env bash
# engine = "fio": a step fio runs, its per-second JSON status stored as the
# step's samples as it arrives, the totals their sum; fio --parse-only in
# the dry pass; Ctrl-C stops fio and keeps the seconds.
. "$(dirname "$0")/lib.sh"

if ! command -v fio >/dev/null; then
	skip "fio is not installed"
	done_testing
	exit
fi
DB="$TMP/fio.db"
truncate -s 64m "$TMP/t.dat"

# fio_sums DB STEP_ID: 1 when the totals are the sum of the window's samples
# (ops, bytes, secs), the stored histograms count each I/O once, the target's
# counters agree, and the IOPS is the ops over the window. fio's counters in a
# status are not taken at one instant: a second's ops (its latency bins) and
# its bytes may disagree by the I/Os in flight, hence 1 %.
fio_sums() {
	local db=$1 id=$2 hcount="(SELECT COALESCE(sum(json_extract(e.value, '\$[1]')), 0)
		FROM histograms h, json_each(h.counts) e WHERE h.step_id=$id AND h.dir="
	q "$db" "SELECT (SELECT sum(read_ops) FROM samples WHERE step_id=$id AND ramp=0) = read_ops
	    AND (SELECT sum(write_ops) FROM samples WHERE step_id=$id AND ramp=0) = write_ops
	    AND (SELECT sum(read_bytes) FROM samples WHERE step_id=$id AND ramp=0) = read_bytes
	    AND (SELECT sum(write_bytes) FROM samples WHERE step_id=$id AND ramp=0) = write_bytes
	    AND abs((SELECT sum(secs) FROM samples WHERE step_id=$id AND ramp=0) - window_s) < 1e-9
	    AND (SELECT count(*) FROM samples WHERE step_id=$id AND secs <= 0) = 0
	    AND abs(iops * window_s - (read_ops + write_ops)) <= 1e-9 * (read_ops + write_ops)
	    AND $hcount'read') = read_ops AND $hcount'write') = write_ops
	    AND (SELECT sum(read_ops) FROM step_targets WHERE step_id=$id) = read_ops
	    AND (SELECT sum(write_ops) FROM step_targets WHERE step_id=$id) = write_ops
	    AND abs(read_bytes - 4096 * read_ops) <= 0.01 * read_bytes
	    AND abs(write_bytes - 4096 * write_ops) <= 0.01 * write_bytes
	    AND read_ops > 0 AND write_ops > 0
	    FROM steps WHERE id=$id"
}

cat > "$TMP/local.lua" <<LUA
hb.run{ name = "mix", engine = "fio", rw = "randrw", write_pct = 30, bs = "4k", oio = 4,
        workers = 2, duration = 2, ramp = 1, targets = "$TMP/t.dat",
        fio = { ioengine = "psync", options = "norandommap=1" } }
LUA
"$HB" run "$TMP/local.lua" --db "$DB" -q 2>"$TMP/err"
ok $? "a local fio step runs: $(head -c 300 "$TMP/err")"
id=$(q "$DB" "SELECT id FROM steps WHERE name = 'mix'")
is "$(q "$DB" "SELECT status FROM steps WHERE id = $id")" done "it lands as 'done'"
is "$(fio_sums "$DB" "$id")" 1 "its samples sum to its totals, its histograms to its ops"
is "$(q "$DB" "SELECT count(*) >= 3 AND sum(ramp) >= 1 FROM samples WHERE step_id = $id")" 1 \
	"a sample a second, the ramp's marked"
is "$(q "$DB" "SELECT count(*) FROM samples WHERE step_id = $id AND (read_lat_mean_us <= 0 OR read_lat_p99_us < read_lat_mean_us / 10 OR write_lat_mean_us <= 0)")" 0 \
	"each second has its own mean and p99 latency"
is "$(q "$DB" "SELECT json_extract(params_json, '\$.engine') || ' ' || json_extract(params_json, '\$.fio.ioengine') FROM steps WHERE id = $id")" "fio psync" \
	"params_json names the engine and fio's options"
like "$(q "$DB" "SELECT replace(json_extract(params_json, '\$.fio_job'), char(10), ' ') FROM steps WHERE id = $id")" \
	"rwmixwrite=30.*iodepth=2.*numjobs=2.*norandommap=1" "and the job fio ran: the mix, OIO as iodepth x numjobs, the extra options"

# the dry pass: fio --parse-only on each fio step's job
cat > "$TMP/bad.lua" <<LUA
hb.run{ name = "fine", engine = "fio", duration = 2, targets = "$TMP/t.dat" }
hb.run{ name = "typo", engine = "fio", duration = 2, targets = "$TMP/t.dat",
        fio = { options = "iodepht=3" } }
LUA
out=$("$HB" run --dry-run "$TMP/bad.lua" --db "$TMP/dry.db" 2>&1)
ok $((! $?)) "a job fio refuses fails the dry pass"
like "$out" "step 'typo' \(line 2\): fio --parse-only refused its job: .*iodepht" \
	"naming the step, its line and fio's message"
out=$("$HB" run --dry-run "$TMP/local.lua" --db "$TMP/dry.db" 2>&1)
ok $? "a good job passes it: $(printf '%s' "$out" | tail -1)"
cat > "$TMP/key.lua" <<LUA
hb.run{ name = "k", engine = "fio", duration = 2, targets = "$TMP/t.dat", fio = { iodepth = 3 } }
LUA
like "$("$HB" run --dry-run "$TMP/key.lua" --db "$TMP/dry.db" 2>&1)" \
	"fio: unknown option 'iodepth' \(it takes: .*options" "fio = {...} takes ioengine, options and hosts"

# Ctrl-C: fio stops, the step is 'aborted' with its seconds kept
cat > "$TMP/long.lua" <<LUA
hb.run{ name = "long", engine = "fio", rw = "randread", duration = 600, targets = "$TMP/t.dat",
        fio = { ioengine = "psync" } }
hb.run{ name = "never", engine = "null", duration = 600, targets = "$TMP/t.dat" }
LUA
"$HB" run "$TMP/long.lua" --db "$DB" -q 2>"$TMP/err" &
pid=$!
wait_count "$DB" "SELECT count(*) FROM samples s JOIN steps t ON t.id = s.step_id WHERE t.name = 'long'" 2
kill -INT $pid
for _ in $(seq 300); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
kill -KILL $pid 2>/dev/null
wait $pid
is $? 130 "SIGINT: exit code 130"
id=$(q "$DB" "SELECT id FROM steps WHERE name = 'long'")
is "$(q "$DB" "SELECT group_concat(status) FROM steps WHERE run_id = (SELECT run_id FROM steps WHERE id = $id)")" aborted \
	"the step is 'aborted' and no later step started"
is "$(q "$DB" "SELECT count(*) >= 2 FROM samples WHERE step_id = $id")" 1 "its seconds are kept"
is "$(q "$DB" "SELECT (SELECT sum(read_ops) FROM samples WHERE step_id = $id) = read_ops AND read_ops > 0 FROM steps WHERE id = $id")" 1 \
	"and they sum to its totals"
done_testing
