#!/usr/bin/env bash
# engine = "fio": a step fio runs, its per-second JSON status stored as the
# step's samples as it arrives, the totals their sum; fio --parse-only in
# the dry pass; Ctrl-C stops fio and keeps the seconds; hosts= drives two
# fio --server processes on loopback addresses, one killed midway.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_fio.sh"
DB="$TMP/fio.db"
truncate -s 64m "$TMP/t.dat"

# fio_sums DB STEP_ID: 1 when the totals are the sum of the window's samples
# (ops, bytes, secs), the stored histograms count each I/O once, the target's
# counters agree, and the IOPS is the ops over the window. fio's counters in a
# status are not taken at one instant: a second's ops (its latency bins) and
# its bytes may disagree by what completes between fio reading the two, which
# grows with how long its status thread is kept off a CPU (20 I/Os at OIO 4
# on a loaded host; 1 % of a short step's few hundred writes was exceeded
# once). So 10 %: loose for that skew, tight for a unit slip (a block counted
# as 512 bytes, a second's bytes counted twice).
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
	    AND abs(read_bytes - 4096 * read_ops) <= 0.1 * read_bytes
	    AND abs(write_bytes - 4096 * write_ops) <= 0.1 * write_bytes
	    AND read_ops > 0 AND write_ops > 0
	    FROM steps WHERE id=$id"
}

# run_done PLAN NAME WHAT: run the plan; its step NAME lands as 'done', its
# samples summing to its totals; the step's id in $id
run_done() {
	"$HB" run "$1" --db "$DB" -q 2>"$TMP/err"
	ok $? "$3 runs: $(head -c 300 "$TMP/err")"
	id=$(q "$DB" "SELECT id FROM steps WHERE name = '$2'")
	is "$(q "$DB" "SELECT status FROM steps WHERE id = $id")" done "it lands as 'done'"
	is "$(fio_sums "$DB" "$id")" 1 "its samples sum to its totals, its histograms to its ops"
}

# mix_plan FILE NAME FIO: a plan of one 2 s step (1 s ramp), 4k randrw with
# 30 % writes, OIO 4 over 2 workers, on t.dat, with fio = { FIO }
mix_plan() {
	cat > "$1" <<LUA
hb.run{ name = "$2", engine = "fio", rw = "randrw", write_pct = 30, bs = "4k", oio = 4,
        workers = 2, duration = 2, ramp = 1, targets = "$TMP/t.dat", fio = { $3 } }
LUA
}

mix_plan "$TMP/local.lua" mix 'ioengine = "psync", options = "norandommap=1"'
run_done "$TMP/local.lua" mix "a local fio step"
is "$(q "$DB" "SELECT count(*) >= 3 AND sum(ramp) >= 1 FROM samples WHERE step_id = $id")" 1 \
	"a sample a second, the ramp's marked"
is "$(q "$DB" "SELECT count(*) FROM samples WHERE step_id = $id AND (read_lat_mean_us <= 0 OR read_lat_p99_us < read_lat_mean_us / 10 OR write_lat_mean_us <= 0)")" 0 \
	"each second has its own mean and p99 latency"
is "$(q "$DB" "SELECT json_extract(params_json, '\$.engine') || ' ' || json_extract(params_json, '\$.fio.ioengine') FROM steps WHERE id = $id")" "fio psync" \
	"params_json names the engine and fio's options"
like "$(q "$DB" "SELECT replace(json_extract(params_json, '\$.fio_job'), char(10), ' ') FROM steps WHERE id = $id")" \
	"rwmixwrite=30.*iodepth=2.*numjobs=2.*norandommap=1" "and the job fio ran: the mix, OIO as iodepth x numjobs, the extra options"

# ramp_and_window WHAT: the step $id's ramp is its first second (ramp = 1)
# and no more, and its seconds add up to the 3 s (ramp and duration) each
# of fio's jobs ran: not 2 s (the ramp left out of the job's runtime), not
# 6 s (each job's runtime summed over numjobs = workers = 2, or over hosts).
# From fio's runtimes, not the wall clock: the same on a loaded machine
# (a host's second may be skewed against the other's; the sum of the
# longer of the two is a little over 3 s then).
ramp_and_window() {
	is "$(q "$DB" "SELECT sum(ramp) FROM samples WHERE step_id = $id")" 1 "$1: one ramp second, the first"
	local s
	s=$(q "$DB" "SELECT round(sum(secs), 3) FROM samples WHERE step_id = $id")
	is "$(q "$DB" "SELECT $s BETWEEN 2.6 AND 4.2")" 1 "$1: its seconds add up to fio's 3 s of runtime ($s s)"
}
ramp_and_window "a local fio step"

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

# hosts=: fio as the client of two fio --server processes on loopback
# addresses, standing in for two initiators (started and killed by pid here)
P1=$((20000 + $$ % 20000)); P2=$((P1 + 1)); P3=$((P1 + 2))
start_server 127.0.0.2 $P1 && start_server 127.0.0.3 $P2
ok $? "two fio servers listen on 127.0.0.2:$P1 and 127.0.0.3:$P2"
H="127.0.0.2:$P1,127.0.0.3:$P2"
mix_plan "$TMP/hosts.lua" two "hosts = \"$H\", ioengine = \"psync\""
run_done "$TMP/hosts.lua" two "a step over both hosts"
is "$(q "$DB" "SELECT count(*) >= 3 FROM samples WHERE step_id = $id")" 1 "a sample a second"
is "$(q "$DB" "SELECT group_concat(DISTINCT h.key) FROM (SELECT e.key FROM samples s, json_each(s.hosts_json) e WHERE s.step_id = $id ORDER BY e.key) h")" \
	"127.0.0.2:$P1,127.0.0.3:$P2" "both hosts are recorded in its seconds"
is "$(q "$DB" "SELECT count(*) FROM samples s WHERE s.step_id = $id AND (read_ops, write_ops, read_bytes, write_bytes) IS NOT
	(SELECT sum(json_extract(e.value, '\$.read_ops')), sum(json_extract(e.value, '\$.write_ops')),
	        sum(json_extract(e.value, '\$.read_bytes')), sum(json_extract(e.value, '\$.write_bytes'))
	 FROM json_each(s.hosts_json) e)")" 0 "each second is the sum of the hosts' parts"
is "$(q "$DB" "SELECT count(*) FROM samples WHERE step_id = $id AND json_type(hosts_json) IS NOT 'object'")" 0 \
	"hosts_json is an object by host"
ramp_and_window "a step over both hosts"
is "$(q "$DB" "SELECT count(*) FROM samples s WHERE s.step_id = $id AND abs(s.secs -
	(SELECT max(json_extract(e.value, '\$.secs')) FROM json_each(s.hosts_json) e)) > 1e-3")" 0 \
	"a second's secs is its longest host's (they run side by side), not their sum"

# a host that is not there fails the dry pass naming it
sed "s/$H/127.0.0.2:$P1,127.0.0.3:$P3/" "$TMP/hosts.lua" > "$TMP/gone.lua"
out=$("$HB" run --dry-run "$TMP/gone.lua" --db "$TMP/dry.db" 2>&1)
ok $((! $?)) "a host not listening fails the dry pass"
like "$out" "step 'two' \(line 1\): fio host '127.0.0.3:$P3' is not reachable" "naming the step and the host"

# Ctrl-C on a hosts step: fio stops on every host (no job process left under
# either server), the step is 'aborted' with its seconds kept
sed "s/duration = 2, ramp = 1/duration = 600, ramp = 0/" "$TMP/hosts.lua" > "$TMP/hlong.lua"
"$HB" run "$TMP/hlong.lua" --db "$TMP/hlong.db" -q 2>"$TMP/err" &
pid=$!
for _ in $(seq 600); do [ -n "$(tree_pids "${servers[0]}" "")" ] && [ -n "$(tree_pids "${servers[1]}" "")" ] && break; sleep 0.1; done
sleep 2
kill -INT $pid
for _ in $(seq 300); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
kill -KILL $pid 2>/dev/null
wait $pid
is $? 130 "SIGINT during a step on two hosts: exit code 130"
is "$(q "$TMP/hlong.db" "SELECT status FROM steps")" aborted "the step is 'aborted'"
left=x
for _ in $(seq 300); do
	left=$(tree_pids "${servers[0]}" ""; tree_pids "${servers[1]}" "")
	[ -z "$left" ] && break
	sleep 0.1
done
is "$left" "" "fio stopped on both hosts: no job process left under either server"
kill -0 "${servers[0]}" && kill -0 "${servers[1]}"; ok $? "and both servers still listen"

# a server killed midway fails the step naming its host
sed "s/duration = 2, ramp = 1/duration = 6, ramp = 0/" "$TMP/hosts.lua" > "$TMP/kill.lua"
run_killing "$TMP/kill.lua" "$DB" 1.5
ok $((! $?)) "the run fails"
id=$(q "$DB" "SELECT max(id) FROM steps")
is "$(q "$DB" "SELECT status FROM steps WHERE id = $id")" failed "the step is 'failed'"
like "$(q "$DB" "SELECT error_text FROM steps WHERE id = $id") $(cat "$TMP/err")" "fio host '127.0.0.3:$P2' \([0-9]+ of [0-9]+ s\) dropped out midway" \
	"naming the host that dropped out"
done_testing
