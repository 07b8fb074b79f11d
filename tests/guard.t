#!/usr/bin/env bash
# The guard (docs/safety.md): what a write step never touches (the database,
# its journals, the plan, hbatest's own files, a mounted or held device), what
# needs --destroy-data, what the dry pass says it destroys, and the claim a
# run holds on the devices it writes. Block devices are loop devices this test
# creates and detaches (root only).
. "$(dirname "$0")/lib.sh"

DB="$TMP/guard.db"
cat > "$TMP/write.lua" <<'LUA'
hb.run{ engine = "psync", rw = "randwrite", bs = "4k", duration = 1, size = "1m" }
LUA
cat > "$TMP/read2.lua" <<'LUA'
hb.run{ engine = "psync", rw = "randread", bs = "4k", oio = 2, duration = 1 }
LUA
cat > "$TMP/twice.lua" <<'LUA'
hb.run{ engine = "psync", rw = "randread", bs = "4k", oio = 2, duration = 1,
        targets = { hb.set("a", ""), hb.set("b", "") } }
LUA

# ---- files no write step may touch ----------------------------------------
"$HB" run "$TMP/write.lua" --db "$DB" --target "$TMP/data.img" -q
ok $? "a write step to a scratch file runs"
db_sum=$(sha256sum < "$DB")
plan_sum=$(sha256sum < "$TMP/write.lua")
ln -s "$DB" "$TMP/alias.db"
ln "$DB" "$TMP/hardlink.db"
for t in "$DB" "$TMP/alias.db" "$TMP/hardlink.db" "$DB-wal" "$DB-shm" "$DB-journal"; do
	out=$("$HB" run "$TMP/write.lua" --db "$DB" --target "$t" 2>&1); rc=$?
	ok $((rc == 0)) "a write step to '${t#"$TMP"/}' fails"
	like "$out" "write.lua:1: .*refusing to write to '$t': it is (the results database|a journal of the results database)" \
		"and says it is the database or its journal"
done
out=$("$HB" run "$TMP/write.lua" --db "$TMP/plan.db" --target "$TMP/write.lua" 2>&1); rc=$?
ok $((rc == 0)) "a write step to the plan itself fails"
like "$out" "refusing to write to '$TMP/write.lua': it is the plan" "and says it is the plan"
is "$(sha256sum < "$DB")" "$db_sum" "the database is byte-identical"
is "$(sha256sum < "$TMP/write.lua")" "$plan_sum" "the plan is byte-identical"
mkdir "$TMP/mod"
echo 'return { n = 1 }' > "$TMP/mod/mine.lua"
printf 'local m = require("mine")\nhb.run{ engine = "psync", rw = "randwrite", size = "1m", duration = 1 }\n' > "$TMP/mod/w.lua"
out=$(cd "$TMP/mod" && "$HB" run w.lua --db "$TMP/mod.db" --target mine.lua 2>&1)
like "$? $out" "^1 .*w.lua:2: hb.run: refusing to write to 'mine.lua': it is a module the plan loads \\('./mine.lua'\\)" \
	"a module the plan loads from its folder is no target either"
is "$(cat "$TMP/mod/mine.lua")" "return { n = 1 }" "the module is unchanged"
[ ! -e "$DB-wal" ] && [ ! -e "$DB-journal" ]; ok $? "no journal file was laid out"

out=$("$HB" run "$TMP/write.lua" --db "$TMP/dd.db" --target "$TMP/data.img" --destroy-data "$TMP/data.ing" 2>&1)
like "$? $out" "^0 .*warning: --destroy-data $TMP/data.ing: no step the plan made in its dry pass writes that block device or file" \
	"--destroy-data naming nothing a step writes (a mistyped name): the run goes on, with a warning"
out=$("$HB" run "$TMP/write.lua" --db "$TMP/dd.db" --target "$TMP/data.img" --destroy-data "$TMP/data.img" 2>&1)
like "$? $out" "^0 " "--destroy-data naming a file the step writes: the run goes on"
if printf '%s' "$out" | grep -q "warning: --destroy-data"; then ok 1 "with no warning"; else ok 0 "with no warning"; fi
out=$("$HB" run "$TMP/write.lua" --db "$TMP/dd.db" --target "$TMP/dd.db" --destroy-data "$TMP/data.img" 2>&1)
like "$? $out" "^1 .*refusing to write to '$TMP/dd.db': it is the results database" \
	"a dry pass that a refusal stops (its steps after it never made)"
[[ $out != *"no step the plan made"* ]]
ok $? "does not warn that --destroy-data names a device no step writes: it cannot know"

mine="$ROOT/plugins/guard-test-$$.dat"
cleanup_hooks+=("rm -f '$mine'")
out=$("$HB" run "$TMP/write.lua" --db "$DB" --target "$mine" 2>&1); rc=$?
ok $((rc == 0)) "a write step to a file inside hbatest's tree fails"
like "$out" "refusing to write to '$mine': it is inside hbatest's own files" "and says so"
[ ! -e "$mine" ]; ok $? "the file was not created"

out=$("$HB" run "$TMP/write.lua" --db "$DB" --target "" 2>&1); rc=$?
is "$rc" 2 "--target \"\" is a usage error"
like "$out" "--target wants a path" "that says a path is wanted"
ln -s "$TMP/data.img" "$TMP/alias.img"
out=$("$HB" run "$TMP/read2.lua" --db "$DB" --target "$TMP/data.img" --target "$TMP/alias.img" 2>&1); rc=$?
is "$rc" 2 "the same --target twice (by another name) is a usage error"
like "$out" "--target '$TMP/alias.img' is given twice \\(first as '$TMP/data.img'\\)" "naming both"
out=$("$HB" run "$TMP/twice.lua" --db "$DB" --set a="$TMP/data.img" --set b="$TMP/alias.img" 2>&1); rc=$?
ok $((rc == 0)) "a step naming one target twice fails"
like "$out" "twice.lua:1: .*target '$TMP/alias.img' is given twice" "naming it"
ln "$TMP/data.img" "$TMP/hard.img"
out=$("$HB" run "$TMP/read2.lua" --db "$DB" --target "$TMP/data.img" --target "$TMP/hard.img" 2>&1)
like "$? $out" "^2 .*--target '$TMP/hard.img' is given twice \\(first as '$TMP/data.img'\\)" \
	"a hard link to a --target given before: the same file, a usage error"
out=$(cd "$TMP" && "$HB" run "$TMP/write.lua" --db "$DB" --target new.img --target ./new.img 2>&1)
like "$? $out" "^2 .*--target './new.img' is given twice \\(first as 'new.img'\\)" \
	"a file still to create, given as new.img and ./new.img: a usage error (both laid out as one, measured as two)"
[ ! -e "$TMP/new.img" ]; ok $? "and it is not laid out"
printf 'hb.run{ engine = "psync", rw = "randread", oio = 2, duration = 1, size = "1m",\n        targets = { "%s", "%s" } }\n' \
	"$TMP/new2.img" "$TMP/./new2.img" > "$TMP/twice-new.lua"
like "$("$HB" run "$TMP/twice-new.lua" --db "$DB" 2>&1)" "twice-new.lua:1: .*target '$TMP/./new2.img' is given twice" \
	"a step naming a file still to create twice: refused in the dry pass"
if is_root; then
	truncate -s 8m "$TMP/twin.img"
	if mkloop twin "$TMP/twin.img"; then
		set -- $(stat -c '%t %T' "$twin")
		mknod "$TMP/twin-node" b "$((16#$1))" "$((16#$2))"
		out=$("$HB" run "$TMP/read2.lua" --db "$DB" --target "$twin" --target "$TMP/twin-node" 2>&1)
		like "$? $out" "^2 .*--target '$TMP/twin-node' is given twice \\(first as '$twin'\\)" \
			"a second node of a --target's block device: the same device, a usage error"
	fi
else
	skip "a second node of a block device: needs root for a loop device"
fi
is "$(sha256sum < "$DB")" "$db_sum" "the database is still byte-identical"

# ---- a missing device is not a file to create --------------------------------
# (a name under /dev that no device has: size= would have made a regular file
# among the devices, and a later run would write to that instead)
nodev="/dev/hbatest-no-such-device-$$"
out=$("$HB" run "$TMP/write.lua" --db "$DB" --target "$nodev" 2>&1); rc=$?
like "$rc $out" "^1 .*target '$nodev': no such device \(lsblk lists the block devices\)" \
	"a missing /dev path with size= is an error naming it, exit 1"
[ ! -e "$nodev" ]; ok $? "and nothing is created under /dev"

# ---- block devices ----------------------------------------------------------
if [ "$(id -u)" != 0 ]; then
	skip "loop devices need root"
	done_testing; exit
fi
# mountit DEV [mount options]: mount it on $TMP/mnt, unmount at exit (before the detach)
mountit() {
	mkdir -p "$TMP/mnt"
	mount "${@:2}" "$1" "$TMP/mnt"
	ok $? "$1 mounted on $TMP/mnt"
	cleanup_hooks=("umount '$TMP/mnt'" "${cleanup_hooks[@]}")
}
unmount() {
	umount "$TMP/mnt"
	ok $? "unmounted"
	cleanup_hooks=("${cleanup_hooks[@]:1}")
}
# dos PATH: a dos partition table with two 16 MiB partitions at 1 and 17 MiB
dos() {
	printf '\000\000\000\000\203\000\000\000\000\010\000\000\000\200\000\000' |
		dd of="$1" bs=1 seek=446 conv=notrunc status=none
	printf '\000\000\000\000\203\000\000\000\000\210\000\000\000\200\000\000' |
		dd of="$1" bs=1 seek=462 conv=notrunc status=none
	printf '\125\252' | dd of="$1" bs=1 seek=510 conv=notrunc status=none
}
runs() { [ -e "$1" ] && q "$1" "SELECT count(*) FROM runs" || echo 0; }

truncate -s 64M "$TMP/fs.img" "$TMP/parts.img" "$TMP/blank.img"
mkloop FS "$TMP/fs.img" || { done_testing; exit; }
UUID=0b5c4a1e-7d7f-4c35-9d3e-8a1f2b3c4d5e
if command -v mkfs.ext4 >/dev/null && mkfs.ext4 -q -F -U "$UUID" "$FS"; then
	out=$("$HB" run "$TMP/write.lua" --db "$TMP/none.db" --target "$FS" 2>&1); rc=$?
	ok $((rc == 0)) "an ext4 device is not written without --destroy-data"
	like "$out" "write.lua:1: .*refusing to write to block device '$FS'.*--destroy-data $FS" \
		"and the message names the flag"
	printf '%s' "$out" | grep -q "destroy-data names"; ok $((! $?)) "and, with no --destroy-data, no list of its names"
	out=$("$HB" run "$TMP/write.lua" --db "$TMP/none.db" --target "$FS" --destroy-data "${FS}9" --destroy-data "$TMP/x.img" 2>&1); rc=$?
	ok $((rc == 0)) "--destroy-data naming another device (${FS}9, a typo) does not cover $FS"
	like "$out" "refusing to write to block device '$FS'.*\\(--destroy-data names ${FS}9, $TMP/x.img, not this one: a mistyped name\\?\\)" \
		"and the refusal lists the names it was given"
	out=$("$HB" run "$TMP/write.lua" --target "$FS" --destroy-data "$FS" --dry-run 2>"$TMP/err")
	ok $? "with --destroy-data the dry run passes"
	like "$out" "destroys $FS: ext4 \\(UUID $UUID\\)" "the listing says an ext4 is destroyed"
	like "$(cat "$TMP/err")" "will destroy $FS: ext4 \\(UUID $UUID\\)" "and so does the log"
	grep -q 'no step the plan made' "$TMP/err"; ok $((! $?)) "and no warning that --destroy-data names nothing"

	sum=$(sha256sum < "$TMP/fs.img")
	mountit "$FS" -o ro,noload	# read-only: the mount itself writes nothing
	out=$("$HB" run "$TMP/write.lua" --db "$TMP/none.db" --target "$FS" --destroy-data "$FS" 2>&1); rc=$?
	ok $((rc == 0)) "a mounted device is refused even with --destroy-data"
	like "$out" "write.lua:1: .*refusing to write to '$FS': it is mounted on $TMP/mnt .*always refused" \
		"naming the mount point"
	is "$(runs "$TMP/none.db")" 0 "no run was written"
	unmount
	is "$(sha256sum < "$TMP/fs.img")" "$sum" "the file system was not written"
else
	skip "no mkfs.ext4"
fi

# A partition table: the kernel finds the partitions (or partx adds them).
dos "$TMP/parts.img"
mkloop PARTS "$TMP/parts.img" -P || { done_testing; exit; }
[ -b "${PARTS}p1" ] || partx -a "$PARTS" 2>/dev/null
if [ -b "${PARTS}p2" ] && command -v mkfs.ext4 >/dev/null && mkfs.ext4 -q -F "${PARTS}p2"; then
	out=$("$HB" run "$TMP/write.lua" --target "$PARTS" --destroy-data "$PARTS" --dry-run 2>&1)
	ok $? "a partitioned device is written with --destroy-data"
	like "$out" "destroys $PARTS: dos partition table with 2 partitions" \
		"the listing says a partition table with 2 partitions is destroyed"
	out=$("$HB" run "$TMP/write.lua" --target "${PARTS}p2" --destroy-data "$PARTS" --dry-run 2>&1); rc=$?
	ok $((rc == 0)) "--destroy-data naming the disk does not cover its partition"
	like "$out" "refusing to write to block device '${PARTS}p2'.*--destroy-data ${PARTS}p2" "the partition must be named"

	mountit "${PARTS}p2"
	out=$("$HB" run "$TMP/write.lua" --db "$TMP/none.db" --target "$PARTS" --destroy-data "$PARTS" 2>&1); rc=$?
	ok $((rc == 0)) "a disk with a mounted partition is refused even with --destroy-data"
	like "$out" "refusing to write to '$PARTS': ${PARTS}p2 is mounted on $TMP/mnt" \
		"naming the partition and its mount point"
	"$HB" run "$TMP/write.lua" --target "${PARTS}p1" --destroy-data "${PARTS}p1" --dry-run >/dev/null 2>&1
	ok $? "another partition of that disk may be written"
	is "$(runs "$TMP/none.db")" 0 "no run was written"
	unmount

	# A partition, then its disk, then another partition: one claim covers them.
	cat > "$TMP/kin.lua" <<'LUA'
for _, t in ipairs{ hb.set("p1", ""), hb.set("disk", ""), hb.set("p2", "") } do
	hb.run{ engine = "io_uring", rw = "randwrite", bs = "4k", oio = 4, duration = 1, targets = t }
end
LUA
	"$HB" run "$TMP/kin.lua" --db "$TMP/kin.db" --set p1="${PARTS}p1" --set disk="$PARTS" \
		--set p2="${PARTS}p2" --destroy-data "${PARTS}p1" --destroy-data "$PARTS" \
		--destroy-data "${PARTS}p2" -q
	ok $? "a run writes a partition, its disk and another partition"
	is "$(q "$TMP/kin.db" "SELECT group_concat(status) FROM steps")" "done,done,done" "every step is done"
else
	skip "no partitions on a loop device here (kernel without partition tables, or no mkfs.ext4)"
fi

# The run's claim: one O_EXCL open of each written device for the whole run.
mkloop BLANK "$TMP/blank.img" || { done_testing; exit; }
cat > "$TMP/long.lua" <<'LUA'
hb.run{ engine = "io_uring", rw = "randwrite", bs = "4k", oio = 4, duration = 1 }
hb.run{ engine = "psync", rw = "randwrite", bs = "4k", duration = 600 }
LUA
"$HB" run "$TMP/long.lua" --db "$TMP/long.db" --target "$BLANK" --destroy-data "$BLANK" -q \
	2>"$TMP/long.err" &
pid=$!
cleanup_hooks=("kill $pid 2>/dev/null; wait $pid" "${cleanup_hooks[@]}")
for _ in $(seq 300); do	# until the second step runs
	[ "$(q "$TMP/long.db" "SELECT count(*) FROM steps" 2>/dev/null)" = 2 ] && break
	sleep 0.1
done
is "$(q "$TMP/long.db" "SELECT count(*) FROM steps")" 2 "a run writing $BLANK is in its second step"
out=$("$HB" run "$TMP/write.lua" --db "$TMP/second.db" --target "$BLANK" --destroy-data "$BLANK" 2>&1); rc=$?
ok $((rc == 0)) "a second run writing that device is refused"
like "$out" "write.lua:1: .*cannot claim '$BLANK' for the run: device is busy" "in its dry pass"
is "$(runs "$TMP/second.db")" 0 "before it wrote a run"
if command -v mkfs.ext4 >/dev/null; then
	mkfs.ext4 -q -F "$BLANK" >/dev/null 2>&1; rc=$?
	ok $((rc == 0)) "mkfs cannot claim the device mid-run"
fi
kill -INT $pid
wait $pid
is "$?" 130 "the run stops on SIGINT"
cleanup_hooks=("${cleanup_hooks[@]:1}")
is "$(q "$TMP/long.db" "SELECT status FROM runs")" aborted "and is recorded aborted"
like "$(q "$TMP/long.db" "SELECT message FROM events")" "will destroy $BLANK: no partition table or signature found" \
	"the run's events say what it destroys"
"$HB" run "$TMP/write.lua" --target "$BLANK" --destroy-data "$BLANK" --dry-run >/dev/null 2>&1
ok $? "the claim ends with the run"

# Held by md, dm or LVM: a stand-in sysfs (as the probes' tests use) gives the
# loop device a holder, then the kernel's own device-mapper when it has one.
mm=$(cat "/sys/class/block/${BLANK#/dev/}/dev")
dev="$TMP/sysfs/sys/devices/virtual/block/${BLANK#/dev/}"
mkdir -p "$dev/holders/dm-7" "$TMP/sysfs/sys/dev/block" "$TMP/sysfs/sys/class/block/dm-7/dm"
echo "$mm" > "$dev/dev"
ln -s "../../devices/virtual/block/${BLANK#/dev/}" "$TMP/sysfs/sys/dev/block/$mm"
ln -s "../../devices/virtual/block/${BLANK#/dev/}" "$TMP/sysfs/sys/class/block/${BLANK#/dev/}"
echo vg-data > "$TMP/sysfs/sys/class/block/dm-7/dm/name"
out=$(HBATEST_SYSFS_ROOT="$TMP/sysfs" "$HB" run "$TMP/write.lua" --target "$BLANK" \
	--destroy-data "$BLANK" 2>&1); rc=$?
ok $((rc == 0)) "a held device is refused even with --destroy-data"
like "$out" "write.lua:1: .*refusing to write to '$BLANK': it is held by dm-7 \(vg-data\), a device-mapper, LVM or md RAID device" \
	"naming the holder"

# In use as swap.
truncate -s 64M "$TMP/swap.img"
mkloop SWAP "$TMP/swap.img" || { done_testing; exit; }
if command -v mkswap >/dev/null && mkswap -q "$SWAP" >/dev/null 2>&1 && swapon "$SWAP" 2>/dev/null; then
	cleanup_hooks=("swapoff '$SWAP'" "${cleanup_hooks[@]}")
	out=$("$HB" run "$TMP/write.lua" --target "$SWAP" --destroy-data "$SWAP" 2>&1); rc=$?
	ok $((rc == 0)) "a swap device is refused even with --destroy-data"
	like "$out" "refusing to write to '$SWAP': it is in use as swap" "saying so"
	swapoff "$SWAP"
	cleanup_hooks=("${cleanup_hooks[@]:1}")
else
	skip "cannot swap on a loop device here"
fi

name="hbatest-guard-$$"
if command -v dmsetup >/dev/null &&
   dmsetup create "$name" --table "0 $((64 * 2048)) linear $BLANK 0" >/dev/null 2>&1; then
	cleanup_hooks=("dmsetup remove '$name'" "${cleanup_hooks[@]}")
	out=$("$HB" run "$TMP/write.lua" --target "$BLANK" --destroy-data "$BLANK" 2>&1); rc=$?
	ok $((rc == 0)) "a device held by device-mapper is refused even with --destroy-data"
	like "$out" "refusing to write to '$BLANK': it is held by dm-[0-9]+ \\($name\\)" "naming the holder"
else
	skip "no device-mapper here"
fi
done_testing
