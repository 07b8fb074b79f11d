#!/usr/bin/env bash
# On a loop device this test creates and detaches itself (root only): reads
# run, writes are refused unless --destroy-data names the device, the samples
# invariant holds on a real block device, write steps follow one another with
# every engine, and the RAID suite runs end to end (a short rehearsal, with
# tests/plans.t's checks of it: as root that runs it here only).
. "$(dirname "$0")/lib.sh"

if [ "$(id -u)" != 0 ]; then
	skip "loop devices need root"
	done_testing; exit
fi
truncate -s 64M "$TMP/backing.img"
mkloop LOOP "$TMP/backing.img" || { done_testing; exit; }
DB="$TMP/loop.db"

cat > "$TMP/read.lua" <<'LUA'
hb.run{ engine = "io_uring", rw = "randread", bs = "4k", oio = 16, duration = 2, ramp = 1 }
LUA
cat > "$TMP/write.lua" <<'LUA'
hb.run{ engine = "libaio", rw = "randrw", write_pct = 50, bs = "4k", oio = 16, duration = 2, ramp = 1 }
LUA

"$HB" run "$TMP/read.lua" --db "$DB" --target "$LOOP" -q; ok $? "a read-only plan runs on $LOOP without --destroy-data"
is "$(q "$DB" "SELECT kind || ' ' || size_bytes FROM targets WHERE run_id = 1")" "block 67108864" \
	"the target is recorded as a 64 MiB block device"
is "$(check_invariant "$DB" 1)" 1 "block device reads: samples add up"
# a loop device without direct I/O (losetup's default) measures the page cache
is "$(cat "/sys/block/${LOOP#/dev/}/loop/dio")" 0 "the loop device goes through the page cache (loop/dio 0)"
like "$(q "$DB" "SELECT group_concat(message, '|') FROM events WHERE run_id = 1 AND level = 'warning'")" \
	"$LOOP: a loop device over '$TMP/backing\.img' without direct I/O \(its loop/dio is 0\): .*measure memory, not a disk" \
	"the run warns that its figures measure memory, naming the backing file"
is "$(q "$DB" "SELECT count(*) FROM events WHERE run_id = 1 AND message LIKE '%without direct I/O%'")" 1 \
	"once, at the start (not again at the end's snapshot)"
truncate -s 64M "$TMP/direct.img"
mkloop DLOOP "$TMP/direct.img" --direct-io=on || { done_testing; exit; }
if [ "$(cat "/sys/block/${DLOOP#/dev/}/loop/dio" 2>/dev/null)" = 1 ]; then
	out=$("$HB" run "$TMP/read.lua" --db "$TMP/direct.db" --target "$DLOOP" 2>&1)
	like "$? $out" "^0 " "a read plan on a loop device with direct I/O runs"
	printf '%s' "$out" | grep -q "without direct I/O"; ok $((! $?)) "with no page-cache warning"
else
	skip "losetup --direct-io=on did not take on $TMP's file system"
fi

# range= past the device's end: refused in the dry pass (the step measured
# the 64 MiB there while its params said 1 GiB); size= lays out files and
# leaves a device as it is (examples/quick.lua's defaults give size=256m)
printf 'hb.run{ engine = "psync", rw = "randread", range = "1g", duration = 1 }\n' > "$TMP/big.lua"
out=$("$HB" run "$TMP/big.lua" --db "$DB" --target "$LOOP" 2>&1)
like "$? $out" "^1 .*big\.lua:1: hb\.run: range=1073741824 is more than target '$LOOP' holds \(67108864 bytes\)" \
	"range=1g on a 64 MiB device: refused, naming both sizes"
is "$(q "$DB" "SELECT count(*) FROM runs")" 1 "it made no run"
out=$("$HB" run "$ROOT/examples/quick.lua" --db "$DB" --target "$LOOP" --destroy-data "$LOOP" --dry-run 2>&1)
is "$?" 0 "examples/quick.lua (defaults size=256m) on the 64 MiB device: its dry run passes"
before=$(sqlite3 "$DB" .dump | sha256sum)
sum_before=$(sha256sum < "$LOOP")
out=$("$HB" run "$TMP/write.lua" --db "$DB" --target "$LOOP" 2>&1); rc=$?
ok $((rc == 0)) "a write plan on $LOOP without --destroy-data fails"
like "$out" "write.lua:1: .*refusing to write to block device '$LOOP'.*--destroy-data $LOOP" \
	"and says how to allow it"
is "$(sha256sum < "$LOOP")" "$sum_before" "the device is untouched"
is "$(sqlite3 "$DB" .dump | sha256sum)" "$before" "the database is unchanged"

out=$("$HB" run "$TMP/write.lua" --db "$DB" --target "$LOOP" --destroy-data /dev/loop-other 2>&1); rc=$?
ok $((rc == 0)) "--destroy-data naming another device does not allow it"
like "$out" "refusing to write to block device '$LOOP'" "and names the device it refuses"
is "$(sha256sum < "$LOOP")" "$sum_before" "another device named: the device is untouched"
is "$(sqlite3 "$DB" .dump | sha256sum)" "$before" "another device named: the database is unchanged"

"$HB" run "$TMP/write.lua" --db "$DB" --target "$LOOP" --destroy-data "$LOOP" -q
ok $? "with --destroy-data $LOOP the write plan runs"
is "$(q "$DB" "SELECT status FROM runs WHERE id = 2")" done "the run is done"
is "$(check_invariant "$DB" 2)" 1 "block device writes: samples add up"
[ "$(sha256sum < "$LOOP")" != "$sum_before" ]; ok $? "the offered device was written"

# Write steps in a row: each opens the device while the last one's engine may
# still hold it (io_uring tears its ring down asynchronously).
for engine in io_uring psync libaio; do
	oio=16
	[ $engine = psync ] && oio=1	# one I/O in flight per worker
	cat > "$TMP/writes.lua" <<LUA
for _ = 1, 3 do
	hb.run{ engine = "$engine", rw = "randwrite", bs = "4k", oio = $oio, duration = 1 }
end
LUA
	"$HB" run "$TMP/writes.lua" --db "$TMP/$engine.db" --target "$LOOP" --destroy-data "$LOOP" -q
	ok $? "three write steps in a row with $engine"
	is "$(q "$TMP/$engine.db" "SELECT group_concat(status) FROM steps")" "done,done,done" \
		"$engine: every step is done"
done

# The RAID suite shortened by --set: its fill, descent, sweeps and profiles.
"$HB" run "$ROOT/plans/raid5.lua" --db "$TMP/raid5.db" --target "$LOOP" --destroy-data "$LOOP" \
	--set size=64m --set seconds=1 --set ramp=0 --set precondition=1 -q
ok $? "plans/raid5.lua runs on $LOOP"
is "$(q "$TMP/raid5.db" "SELECT status FROM runs")" done "the run is done"
is "$(q "$TMP/raid5.db" "SELECT count(*) FROM steps WHERE status <> 'done'")" 0 "every step is done"
is "$(q "$TMP/raid5.db" "SELECT count(*) > 90 FROM steps")" 1 "all of its steps ran"
# tests/plans.t's checks of the rehearsal: as root it leaves its run on a
# file to this one (one real run of the 96 steps a suite)
raid5_checks "$TMP/raid5.db"
done_testing
