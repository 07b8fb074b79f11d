#!/usr/bin/env bash
# End to end with every engine on a temporary file: the run and step end
# 'done', each second is stored, and the window's samples add up exactly.
. "$(dirname "$0")/lib.sh"

DB="$TMP/e.db"
F="$TMP/target.dat"
step=0
for e in null psync libaio io_uring; do
	oio=8; workers=2
	[ "$e" = psync ] && oio=2
	cat > "$TMP/$e.lua" <<LUA
hb.run{ engine = "$e", rw = "randrw", write_pct = 30, bs = { ["4k"] = 3, ["16k"] = 1 },
        oio = $oio, workers = $workers, duration = 2, ramp = 1, size = "32m" }
LUA
	"$HB" run "$TMP/$e.lua" --db "$DB" --target "$F" --label "$e" -q
	ok $? "$e: the run exits 0"
	step=$((step + 1))
	is "$(q "$DB" "SELECT r.status || ' ' || s.status FROM steps s JOIN runs r ON r.id = s.run_id WHERE s.id = $step")" \
		"done done" "$e: run and step are done"
	is "$(q "$DB" "SELECT count(*) || ' ' || sum(ramp) FROM samples WHERE step_id = $step")" "3 1" \
		"$e: 3 samples, the first flagged ramp"
	is "$(check_invariant "$DB" $step)" 1 "$e: non-ramp samples add up to the step totals"
	is "$(q "$DB" "SELECT read_ops > 0 AND write_ops > 0 AND errors = 0 FROM steps WHERE id = $step")" 1 \
		"$e: reads and writes, no errors"
	is "$(q "$DB" "SELECT abs(iops - (read_ops + write_ops) / CAST(window_s AS REAL)) < 1e-6 FROM steps WHERE id = $step")" 1 \
		"$e: IOPS is the window's operations over its seconds"
	is "$(q "$DB" "SELECT group_concat(dir) FROM (SELECT dir FROM histograms WHERE step_id = $step ORDER BY dir)")" \
		"read,write" "$e: a histogram per direction is stored"
	is "$(q "$DB" "SELECT (SELECT sum(json_extract(value, '\$[1]')) FROM histograms h, json_each(h.counts) WHERE h.step_id = $step) = read_ops + write_ops FROM steps WHERE id = $step")" 1 \
		"$e: the histograms count every I/O of the window"
done
is "$(q "$DB" "SELECT kind || ' ' || size_bytes FROM targets WHERE path = '$F' LIMIT 1")" "virtual 33554432" \
	"the null engine records its target as virtual"
is "$(q "$DB" "SELECT kind || ' ' || size_bytes FROM targets WHERE path = '$F' AND run_id = 2")" "file 33554432" \
	"a created file target is recorded with its size"
is "$(stat -c %s "$F")" 33554432 "the file target was created at size="

# several targets and workers
cat > "$TMP/multi.lua" <<LUA
hb.targets = { "$TMP/a.dat", "$TMP/b.dat" }
hb.run{ engine = "io_uring", rw = "randread", oio = 16, workers = 2, duration = 2, size = "16m" }
LUA
"$HB" run "$TMP/multi.lua" --db "$DB" -q; ok $? "2 targets x 2 workers runs"
is "$(q "$DB" "SELECT count(*) FROM targets WHERE run_id = 5")" 2 "both targets are recorded"
is "$(check_invariant "$DB" 5)" 1 "2 targets x 2 workers: samples add up"
is "$(q "$DB" "SELECT json_extract(params_json, '\$.qd') FROM steps WHERE id = 5")" 4 \
	"oio 16 over 2 workers x 2 targets is QD 4 per queue"

# buffered I/O
cat > "$TMP/buffered.lua" <<LUA
hb.run{ engine = "psync", rw = "write", bs = "64k", direct = false, duration = 1 }
LUA
"$HB" run "$TMP/buffered.lua" --db "$DB" --target "$F" -q; ok $? "buffered sequential writes with psync run"
is "$(check_invariant "$DB" 6)" 1 "buffered: samples add up"
# a later step may use the file an earlier step lays out
cat > "$TMP/later.lua" <<LUA
hb.run{ engine = "io_uring", rw = "randread", duration = 1, size = "8m" }
hb.run{ engine = "io_uring", io_uring = { sqpoll = true }, rw = "randwrite", duration = 1 }
LUA
"$HB" run "$TMP/later.lua" --db "$DB" --target "$TMP/later.dat" -q
ok $? "a step without size= uses the file an earlier step creates (and sqpoll runs)"

# what each io_uring option does: tests/io_uring.t
done_testing
