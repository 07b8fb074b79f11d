#!/usr/bin/env bash
# The guard judges where a target leads, not its name (docs/safety.md): a
# symbolic link followed to its end, a dangling one by the file writing
# through it would create (the database's -wal exists only while a run
# writes), a loop device by the file it is backed by; and a file on a kernel
# pseudo file system (sysfs, procfs, cgroup ...) is never a target, read or
# write. Every refusal comes in the dry pass: the database stays
# byte-identical. Loop devices and mounts are made and undone here (root).
. "$(dirname "$0")/lib.sh"

mkdir -p "$TMP/sub" "$TMP/dbdir"
DB="$TMP/r.db"
cat > "$TMP/w.lua" <<'LUA'
hb.run{ engine = "psync", rw = "randwrite", bs = "4k", duration = 1, size = "8m" }
LUA
cat > "$TMP/w0.lua" <<'LUA'
hb.run{ engine = "psync", rw = "randwrite", bs = "4k", duration = 1 }
LUA
cat > "$TMP/r.lua" <<'LUA'
hb.run{ engine = "psync", rw = "randread", bs = "4k", duration = 1 }
LUA
cat > "$TMP/rlay.lua" <<'LUA'
hb.run{ engine = "psync", rw = "randread", bs = "4k", duration = 1, size = "8m" }
LUA
"$HB" run "$TMP/w.lua" --db "$DB" --target "$TMP/data.img" -q
ok $? "a write step to a scratch file runs (the database to protect)"
sum=$(sha256sum < "$DB")
intact() {	# the database byte-identical, one run, and sound
	is "$(sha256sum < "$DB")" "$sum" "$1: the database is byte-identical"
	out=$("$HB" list --db "$DB" 2>&1)
	is "$?" 0 "$1: list reads it (not corrupt: $(printf '%s' "$out" | head -1))"
	like "$out" "^ +1 .* done " "$1: its run is there, done"
}

# ---- dangling links: by the file they would create --------------------------
for j in wal shm journal; do
	ln -s "r.db-$j" "$TMP/vol-$j.dat"
	out=$(cd "$TMP" && "$HB" run w.lua --db r.db --target "vol-$j.dat" --dry-run 2>&1)
	like "$? $out" "^1 .*w\.lua:1: .*refusing to write to 'vol-$j\.dat': it is a journal of the results database \('r\.db-$j'\): a symbolic link to '$TMP/r\.db-$j', not there yet" \
		"--dry-run: a dangling link to the database's -$j is refused, naming where it leads"
	[ ! -e "$TMP/r.db-$j" ]; ok $? "and r.db-$j is not created"
done
out=$(cd "$TMP" && "$HB" run w.lua --db r.db --target vol-wal.dat 2>&1)
like "$? $out" "^1 .*refusing to write to 'vol-wal\.dat'" \
	"the issue's reproduction (a run, not a dry run): refused, exit 1"
intact "after the dangling -wal link"
out=$("$HB" run "$TMP/rlay.lua" --db "$DB" --target "$TMP/vol-shm.dat" 2>&1)
like "$? $out" "^1 .*refusing to write to '$TMP/vol-shm\.dat': it is a journal" \
	"a read step that would lay the file out through the link: refused too"

# a chain across folders, each link relative to its own folder
ln -s ../r.db-wal "$TMP/sub/hop2"
ln -s sub/hop2 "$TMP/hop1"
out=$("$HB" run "$TMP/w.lua" --db "$DB" --target "$TMP/hop1" 2>&1)
like "$? $out" "^1 .*refusing to write to '$TMP/hop1': it is a journal of the results database .*a symbolic link to '$TMP/r\.db-wal'" \
	"a chain of dangling links (each relative to its folder) is followed to its end"

# the database through a link: SQLite's journals sit beside the file it names
mv "$DB" "$TMP/dbdir/r.db"
ln -s dbdir/r.db "$DB"
out=$("$HB" run "$TMP/w.lua" --db "$DB" --target "$TMP/dbdir/r.db-wal" 2>&1)
like "$? $out" "^1 .*refusing to write to '$TMP/dbdir/r\.db-wal': it is a journal of the results database \('$TMP/dbdir/r\.db-wal'\)" \
	"a linked --db: the -wal beside the file it names is refused"
out=$("$HB" run "$TMP/w.lua" --db "$DB" --target "$TMP/vol-wal.dat" 2>&1)
like "$? $out" "^1 .*refusing to write to '$TMP/vol-wal\.dat'" \
	"and the link to the -wal beside the link (also refused)"
rm "$DB"
mv "$TMP/dbdir/r.db" "$DB"

# loops, the tree, and what stays allowed
ln -s loopB "$TMP/loopA"
ln -s loopA "$TMP/loopB"
out=$("$HB" run "$TMP/w.lua" --db "$DB" --target "$TMP/loopA" 2>&1)
like "$? $out" "^1 .*target '$TMP/loopA' is a loop of symbolic links" "a loop of links is refused as that"
mine="$ROOT/plugins/guard-resolve-$$.dat"
cleanup_hooks+=("rm -f '$mine'")
ln -s "$mine" "$TMP/intree"
out=$("$HB" run "$TMP/w.lua" --db "$DB" --target "$TMP/intree" 2>&1)
like "$? $out" "^1 .*refusing to write to '$TMP/intree': it is inside hbatest's own files .*a symbolic link to '$mine'" \
	"a dangling link into hbatest's tree is refused"
[ ! -e "$mine" ]; ok $? "and nothing is created there"
ln -s fresh.img "$TMP/fresh-link"
out=$("$HB" run "$TMP/w.lua" --db "$DB" --target "$TMP/fresh-link" --dry-run 2>&1)
ok $? "a dangling link to an ordinary new file is still a target ($(printf '%s' "$out" | tail -1))"
out=$("$HB" run "$TMP/w.lua" --db "$DB" --target "$TMP/fresh.img" --target "$TMP/fresh-link" 2>&1)
like "$? $out" "^2 .*--target '$TMP/fresh-link' is given twice \\(first as '$TMP/fresh.img'\\)" \
	"a file still to create and a dangling link to it: one target given twice"
intact "after the links"

# ---- pseudo file systems: never a target, read or write (dry runs only) -----
pseudo() {	# PATH FS: refused for a read, a write and a write laying out
	local p
	for p in r w0 w; do
		out=$("$HB" run "$TMP/$p.lua" --db "$TMP/pseudo.db" --target "$1" --dry-run 2>&1)
		like "$? $out" "^1 .*$p\.lua:1: .*target '$1'.* is on $2, a kernel pseudo file system" \
			"$p.lua on $1: refused in the dry pass"
	done
}
first() { for f in "$@"; do [ -e "$f" ] && { echo "$f"; return; }; done; }
ra=$(first /sys/block/*/queue/read_ahead_kb)
thp=$(first /sys/kernel/mm/transparent_hugepage/enabled /sys/kernel/mm/ksm/run /sys/power/state)
for f in "$ra" "$thp"; do
	if [ -n "$f" ]; then pseudo "$f" sysfs; else skip "no such sysfs attribute here"; fi
done
pseudo /proc/self/status procfs
pseudo /proc/sys/vm/drop_caches procfs
cg=$(first /sys/fs/cgroup/cgroup.procs /sys/fs/cgroup/*/cgroup.procs /sys/fs/cgroup/unified/cgroup.procs)
if [ -n "$cg" ] && [ "$(stat -f -c %T "$cg")" != sysfs ]; then
	pseudo "$cg" "cgroup2?"
else
	skip "no cgroup file system here"
fi
if [ -n "$thp" ]; then
	ln -s "$thp" "$TMP/thp"
	out=$("$HB" run "$TMP/w0.lua" --db "$TMP/pseudo.db" --target "$TMP/thp" --dry-run 2>&1)
	like "$? $out" "^1 .*target '$TMP/thp' \\(a symbolic link to '$thp'\\) is on sysfs" \
		"a link to a sysfs file: refused, naming where it leads"
fi
out=$("$HB" run "$TMP/w.lua" --db "$TMP/pseudo.db" --target /sys/kernel/hbatest-$$.dat --dry-run 2>&1)
like "$? $out" "^1 .*target '/sys/kernel/hbatest-$$\\.dat' is on sysfs" \
	"a file to lay out in a sysfs folder: refused by its folder"
[ ! -e "$TMP/pseudo.db" ]; ok $? "no database was made by the refused runs"
# by the file system, wherever it is mounted
if is_root && mkdir "$TMP/sysfs" "$TMP/proc" && mount -t sysfs sysfs "$TMP/sysfs" 2>/dev/null; then
	cleanup_hooks=("umount -l '$TMP/sysfs'" "${cleanup_hooks[@]}")
	f=$(cd "$TMP/sysfs" && first kernel/mm/transparent_hugepage/enabled kernel/uevent_seqnum block/*/queue/read_ahead_kb)
	pseudo "$TMP/sysfs/$f" sysfs
	if mount -t proc proc "$TMP/proc" 2>/dev/null; then
		cleanup_hooks=("umount -l '$TMP/proc'" "${cleanup_hooks[@]}")
		pseudo "$TMP/proc/self/status" procfs
	else
		skip "cannot mount procfs here"
	fi
else
	skip "sysfs mounted elsewhere: needs root and a mount"
fi

# ---- loop devices: by the file behind them -----------------------------------
if ! is_root; then
	skip "loop devices need root"
	done_testing; exit
fi
mkloop OVERDB "$DB" || { done_testing; exit; }
out=$("$HB" run "$TMP/w.lua" --db "$DB" --target "$OVERDB" --destroy-data "$OVERDB" --dry-run 2>&1)
like "$? $out" "^1 .*refusing to write to '$OVERDB': its data is the results database \\('$DB'\\): ${OVERDB#/dev/} is a loop device backed by '$DB'" \
	"--dry-run: a loop device backed by the database is refused even with --destroy-data"
if printf '%s' "$out" | grep -q "destroys\|no partition table"; then ok 1 "and destroys nothing"; else ok 0 "and destroys nothing"; fi
out=$("$HB" run "$TMP/w.lua" --db "$DB" --target "$OVERDB" --destroy-data "$OVERDB" 2>&1)
like "$? $out" "^1 .*refusing to write to '$OVERDB': its data is the results database" "and in a run"
mkloop ONLOOP "$OVERDB" || { done_testing; exit; }
out=$("$HB" run "$TMP/w.lua" --db "$DB" --target "$ONLOOP" --destroy-data "$ONLOOP" 2>&1)
like "$? $out" "^1 .*refusing to write to '$ONLOOP': its data is the results database \\('$DB'\\): ${OVERDB#/dev/} is a loop device backed by '$DB'" \
	"a loop device on that loop device: refused, naming the loop that holds the database"
out=$("$HB" run "$TMP/r.lua" --db "$TMP/read.db" --target "$OVERDB" --dry-run 2>&1)
ok $? "a read step on it is allowed (reads change nothing)"
intact "after the loop devices"

# a disk image mounted through a loop device: writing the file writes under
# that file system (mount -o loop), so it is refused while mounted
fsimg="$TMP/fs.img"
truncate -s 64M "$fsimg" && mkfs.ext4 -q -F "$fsimg" >/dev/null 2>&1
mkloop FSLOOP "$fsimg" || { done_testing; exit; }
mkdir -p "$TMP/fsmnt"
if mount "$FSLOOP" "$TMP/fsmnt" 2>/dev/null; then
	cleanup_hooks=("umount -l '$TMP/fsmnt' 2>/dev/null" "${cleanup_hooks[@]}")
	out=$("$HB" run "$TMP/w.lua" --db "$DB" --target "$fsimg" --dry-run 2>&1)
	like "$? $out" "^1 .*refusing to write to '$fsimg': it backs the loop device $FSLOOP, mounted on $TMP/fsmnt" \
		"a file backing a mounted loop device: refused (it would corrupt that file system)"
	ln -s "$fsimg" "$TMP/fslink"
	like "$("$HB" run "$TMP/w.lua" --db "$DB" --target "$TMP/fslink" --dry-run 2>&1)" \
		"refusing to write to '$TMP/fslink': it backs the loop device $FSLOOP, mounted" "and through a symbolic link to it"
	umount "$TMP/fsmnt"
	"$HB" run "$TMP/w.lua" --db "$DB" --target "$fsimg" --destroy-data "$fsimg" --dry-run >/dev/null 2>&1
	ok $? "once unmounted, the file is a target again (with --destroy-data: mkfs wrote it, not hbatest)"
else
	ok 1 "as root, a loop device with ext4 can be mounted"
fi
intact "after the mounted image"

# a partition of a loop device whose file is inside hbatest's tree
img="$ROOT/plugins/guard-resolve-$$.img"
cleanup_hooks+=("rm -f '$img'")
truncate -s 64M "$img"
printf '\000\000\000\000\203\000\000\000\000\010\000\000\000\200\000\000' |
	dd of="$img" bs=1 seek=446 conv=notrunc status=none
printf '\125\252' | dd of="$img" bs=1 seek=510 conv=notrunc status=none
mkloop PARTS "$img" -P || { done_testing; exit; }
[ -b "${PARTS}p1" ] || partx -a "$PARTS" 2>/dev/null
if [ -b "${PARTS}p1" ]; then
	out=$("$HB" run "$TMP/w.lua" --db "$DB" --target "${PARTS}p1" --destroy-data "${PARTS}p1" --dry-run 2>&1)
	like "$? $out" "^1 .*refusing to write to '${PARTS}p1': its data is inside hbatest's own files .*${PARTS#/dev/} is a loop device backed by '$img'" \
		"a partition of a loop device backed by a file in hbatest's tree: refused"
else
	skip "no partitions on a loop device here"
fi
done_testing
