#!/usr/bin/env bash
# A full file system holding the database: ext4 with 1 KiB blocks, where
# SQLite's -shm pages were part holes and its first store into one was a
# SIGBUS for every command. Now the read-only commands (list, show, sql,
# export, report, a merge input) read it without a -shm, the writing ones
# (run, a merge OUT) refuse with "the file system holding 'X' is full",
# exit 1; none dies of a signal, the database stays byte-identical and
# nothing is left beside it. Root only: a loop device and a mount.
. "$(dirname "$0")/lib.sh"

if ! is_root; then
	skip "not root: the test mounts an ext4 image on a loop device"
	done_testing
	exit 0
fi
M="$TMP/mnt" DB="$TMP/mnt/r.db"
truncate -s 8M "$TMP/img" && mkfs.ext4 -q -F -b 1024 "$TMP/img"
ok $? "an 8 MiB ext4 image with 1 KiB blocks"
mkloop loopdev "$TMP/img" || { done_testing; exit 1; }
mkdir "$M" && mount "$loopdev" "$M" && mountpoint -q "$M"; mounted=$?
ok $mounted "mounted on a loop device"
if [ $mounted != 0 ]; then
	done_testing	# nothing below may fill the file system the test runs on
	exit 1
fi
cleanup_hooks=("umount '$M'" "${cleanup_hooks[@]}")	# before the loop device goes
printf 'hb.run{ name = "n", engine = "null", targets = "v", duration = 1 }\n' > "$TMP/tiny.lua"
"$HB" run "$TMP/tiny.lua" --db "$DB" --label tiny -q; ok $? "a run stored there"
"$HB" run "$TMP/tiny.lua" --db "$TMP/other.db" --label other -q; ok $? "and one elsewhere"
hash=$(sha256sum "$DB" | cut -d' ' -f1)

# fill FREE: the file system filled to ENOSPC, then FREE KiB given back (a
# few blocks free made the SIGBUS: the -shm's one-byte writes fit, its holes
# did not)
fill() {
	mountpoint -q "$M" || return 1
	rm -f "$M/fill"
	dd if=/dev/zero of="$M/fill" bs=1k count=8192 status=none 2>/dev/null	# 8 MiB: the image
	truncate -s $(($(stat -c %s "$M/fill") - $1 * 1024)) "$M/fill" && sync
}

# hb NAME ARGS...: run hbatest, its exit status in $rc, out and err in $TMP
hb() { "$HB" "$@" >"$TMP/out" 2>"$TMP/err"; rc=$?; }

for free in 0 9 10 12 16; do
	fill $free; ok $? "filled to ENOSPC, $free KiB given back"
	sig="" bad=""
	hb list --db "$DB"; [ $rc -ge 128 ] && sig="$sig list:$rc"
	[ $rc = 0 ] && grep -q tiny "$TMP/out" || bad="$bad [list: $rc $(cat "$TMP/err")]"
	said=$(cat "$TMP/err")
	hb show 1 --db "$DB"; [ $rc -ge 128 ] && sig="$sig show:$rc"
	[ $rc = 0 ] && grep -q tiny "$TMP/out" || bad="$bad [show: $rc $(cat "$TMP/err")]"
	hb sql "SELECT label FROM runs" --db "$DB"; [ $rc -ge 128 ] && sig="$sig sql:$rc"
	[ "$rc$(tail -1 "$TMP/out")" = 0tiny ] || bad="$bad [sql: $rc $(cat "$TMP/err")]"
	hb export 1 --db "$DB" --out "$TMP/e.csv"; [ $rc -ge 128 ] && sig="$sig export:$rc"
	[ $rc = 0 ] && [ -s "$TMP/e.csv" ] || bad="$bad [export: $rc $(cat "$TMP/err")]"
	rm -rf "$TMP/rep"
	hb report 1 --db "$DB" --out "$TMP/rep" --no-charts; [ $rc -ge 128 ] && sig="$sig report:$rc"
	[ $rc = 0 ] && [ -s "$TMP/rep/index.html" ] || bad="$bad [report: $rc $(cat "$TMP/err")]"
	hb merge "$TMP/arch.db" "$DB"; [ $rc -ge 128 ] && sig="$sig merge-input:$rc"
	[ $rc = 0 ] || bad="$bad [merge input: $rc $(cat "$TMP/err")]"
	is "$sig" "" "$free KiB free: no command dies of a signal (SIGBUS)"
	is "$bad" "" "$free KiB free: list, show, sql, export, report and a merge from it read the database"
	like "$said" "the file system holding '$DB' is full: read without its shared memory" \
		"$free KiB free: a read says the file system is full"

	hb run "$TMP/tiny.lua" --db "$DB" -q
	[ $rc = 1 ] && grep -q "the file system holding '$DB' is full" "$TMP/err"
	ok $? "$free KiB free: run refuses, exit 1: the file system holding the database is full"
	hb merge "$M/out.db" "$TMP/other.db"
	[ $rc = 1 ] && grep -q "the file system holding '$M/out.db' is full" "$TMP/err" && [ ! -e "$M/out.db" ]
	ok $? "$free KiB free: merge into an OUT there refuses, exit 1, and leaves no OUT"
	hb run "$TMP/tiny.lua" --db "$M/new.db" -q
	[ $rc = 1 ] && grep -q "the file system holding '$M/new.db' is full" "$TMP/err" && [ ! -e "$M/new.db" ]
	ok $? "$free KiB free: a run into a new database there refuses, exit 1, says the file system is full and leaves no stub ($(cat "$TMP/err"))"
	is "$(sha256sum "$DB" | cut -d' ' -f1)" "$hash" "$free KiB free: the database byte-identical"
	is "$(ls "$M" | grep -v '^fill$\|^lost+found$' | tr '\n' ' ')" "r.db " "$free KiB free: nothing left beside it"
done
is "$(q "$TMP/arch.db" "SELECT label FROM runs")" tiny "the merge copied the run once, from the full file system"

# room for the file but not for its schema: a 40 KiB tmpfs (SQLite's full
# code, cleared by the rollback, once made the error "database or disk is
# full" and left a 4 KiB stub that a later run took as a database)
mkdir "$TMP/t40" && mount -t tmpfs -o size=40k tmpfs "$TMP/t40"
ok $? "a 40 KiB tmpfs"
cleanup_hooks=("umount '$TMP/t40'" "${cleanup_hooks[@]}")
hb run "$TMP/tiny.lua" --db "$TMP/t40/t.db" -q
like "$rc $(cat "$TMP/err")" "^1 .*the file system holding '$TMP/t40/t\.db' is full" \
	"a new database with no room for its schema: refused, exit 1, naming the file system"
is "$(ls -A "$TMP/t40" | tr '\n' ' ')" "" "and no stub is left"

done_testing
