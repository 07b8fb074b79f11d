#!/usr/bin/env bash
# On a loop device this test creates and detaches itself (root only): reads
# run, writes are refused unless --destroy-data names the device, and the
# samples invariant holds on a real block device.
. "$(dirname "$0")/lib.sh"

if [ "$(id -u)" != 0 ] || ! command -v losetup >/dev/null; then
	skip "loop devices need root and losetup"
	done_testing; exit
fi
truncate -s 64M "$TMP/backing.img"
LOOP=$(losetup --find --show "$TMP/backing.img" 2>/dev/null)
if [ -z "$LOOP" ]; then
	skip "cannot create a loop device here"
	done_testing; exit
fi
cleanup_hooks+=("losetup -d '$LOOP'")
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

"$HB" run "$TMP/write.lua" --db "$DB" --target "$LOOP" --destroy-data "$LOOP" -q
ok $? "with --destroy-data $LOOP the write plan runs"
is "$(q "$DB" "SELECT status FROM runs WHERE id = 2")" done "the run is done"
is "$(check_invariant "$DB" 2)" 1 "block device writes: samples add up"
[ "$(sha256sum < "$LOOP")" != "$sum_before" ]; ok $? "the offered device was written"
done_testing
