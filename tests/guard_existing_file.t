#!/usr/bin/env bash
# An existing file that holds data is written, laid out or grown only when
# hbatest laid it out or wrote it before (its mark, the extended attribute
# user.hbatest holding a run's uuid) or --destroy-data names it
# (docs/safety.md, "Needs --destroy-data"): a file named by mistake (notes,
# a VM image, a database) is refused in the dry pass, byte-identical, with
# no run row. A file with no data (empty, all holes) needs nothing; a read
# step that does not grow it is not affected.
. "$(dirname "$0")/lib.sh"

DB="$TMP/r.db"
cat > "$TMP/w.lua" <<'LUA'
hb.run{ engine = "psync", rw = "randwrite", bs = "4k", duration = 1, size = "8m", direct = false }
LUA
cat > "$TMP/r.lua" <<'LUA'
hb.run{ engine = "psync", rw = "randread", bs = "4k", duration = 1, direct = false }
LUA
cat > "$TMP/rgrow.lua" <<'LUA'
hb.run{ engine = "psync", rw = "randread", bs = "4k", duration = 1, size = "8m", direct = false }
LUA
mark() { python3 -c 'import os, sys
try: print(os.getxattr(sys.argv[1], "user.hbatest").decode())
except OSError as e: print("none:", e.strerror)' "$1"; }
last_uuid() { q "$DB" "SELECT uuid FROM runs ORDER BY id DESC LIMIT 1"; }

"$HB" run "$TMP/w.lua" --db "$DB" --target "$TMP/fresh.dat" -q 2>/dev/null
ok $? "a write step lays out a file that does not exist yet"
is "$(mark "$TMP/fresh.dat")" "$(last_uuid)" "the file it laid out carries the mark: the run's uuid"
"$HB" run "$TMP/w.lua" --db "$DB" --target "$TMP/fresh.dat" -q 2>/dev/null
ok $? "a second run writes it without --destroy-data"
sum=$(sha256sum < "$DB")
runs=$(q "$DB" "SELECT count(*) FROM runs")

# ---- the reviewer's reproduction --------------------------------------------
printf 'notes\n' > "$TMP/precious.txt"
psum=$(sha256sum < "$TMP/precious.txt")
out=$("$HB" --db "$DB" run "$ROOT/examples/quick.lua" --target "$TMP/precious.txt" --set seconds=1 2>&1)
like "$? $out" "^1 .*quick\.lua:[0-9]+: .*refusing to write to '$TMP/precious\.txt': it is an existing file of 6 B with data that hbatest did not lay out; name it with --destroy-data $TMP/precious\.txt to overwrite it, or give a path that does not exist yet" \
	"examples/quick.lua on a file of notes: refused (exit 1), naming the plan's line, the size and the flag"
is "$(sha256sum < "$TMP/precious.txt")" "$psum" "the file is byte-identical"
is "$(sha256sum < "$DB")" "$sum" "the database is byte-identical (no run row)"
out=$("$HB" --db "$DB" run "$ROOT/examples/quick.lua" --target "$TMP/precious.txt" --set seconds=1 --dry-run 2>&1)
like "$? $out" "^1 .*refusing to write to '$TMP/precious\.txt': it is an existing file of 6 B with data" \
	"--dry-run says why, exit 1"
if printf '%s' "$out" | grep -q "estimated time"; then ok 1 "and lists no plan"; else ok 0 "and lists no plan"; fi
is "$(mark "$TMP/precious.txt")" "none: No data available" "the refused file gets no mark"
out=$("$HB" --db "$DB" run "$ROOT/examples/quick.lua" --target "$TMP/precious.txt" --set seconds=1 --destroy-data "$TMP/precious.tx" --dry-run 2>&1)
like "$? $out" "^1 .*refusing to write to '$TMP/precious\.txt': .* does not exist yet \(--destroy-data names $TMP/precious\.tx, not this one: a mistyped name\?\)" \
	"--destroy-data naming a mistyped file: refused, the refusal naming what the flag was given"

# ---- --destroy-data FILE ----------------------------------------------------
out=$("$HB" run "$TMP/w.lua" --db "$DB" --target "$TMP/precious.txt" \
	--destroy-data "$TMP/precious.txt" --dry-run 2>&1)
is "$?" 0 "--dry-run with --destroy-data FILE passes"
like "$out" "^destroys $TMP/precious\.txt: an existing file of 6 B that hbatest did not lay out$" \
	"and its listing says what the run destroys"
is "$(sha256sum < "$TMP/precious.txt")" "$psum" "and writes nothing"
out=$("$HB" run "$TMP/w.lua" --db "$DB" --target "$TMP/precious.txt" \
	--destroy-data "$TMP/precious.txt" 2>&1)
like "$? $out" "^0 .*will destroy $TMP/precious\.txt: an existing file of 6 B" \
	"a run with --destroy-data FILE writes it, the log saying what it destroys"
is "$(q "$DB" "SELECT count(*) FROM events e JOIN runs r ON r.id = e.run_id
	WHERE r.uuid = '$(last_uuid)' AND e.message = 'will destroy $TMP/precious.txt: an existing file of 6 B that hbatest did not lay out'")" 1 \
	"and the run's events"
is "$(mark "$TMP/precious.txt")" "$(last_uuid)" "the file it was offered carries that run's mark"
"$HB" run "$TMP/w.lua" --db "$DB" --target "$TMP/precious.txt" -q 2>/dev/null
ok $? "the next run writes it without the flag"

# ---- files with no data ------------------------------------------------------
truncate -s 8M "$TMP/holes.dat"
"$HB" run "$TMP/w.lua" --db "$DB" --target "$TMP/holes.dat" -q 2>/dev/null
ok $? "a file of holes needs no flag"
is "$(mark "$TMP/holes.dat")" "$(last_uuid)" "and is marked once written"
: > "$TMP/empty.dat"
"$HB" run "$TMP/w.lua" --db "$DB" --target "$TMP/empty.dat" -q 2>/dev/null
ok $? "nor does an empty file that size= lays out"

# ---- through a symbolic link -------------------------------------------------
head -c 65536 /dev/urandom > "$TMP/image.img"
isum=$(sha256sum < "$TMP/image.img")
ln -s image.img "$TMP/img-link"
out=$("$HB" run "$TMP/w.lua" --db "$DB" --target "$TMP/img-link" 2>&1)
like "$? $out" "^1 .*refusing to write to '$TMP/img-link' \(a symbolic link to '$TMP/image\.img'\): it is an existing file of 64\.0 KiB with data" \
	"a symbolic link to a file with data: refused, naming where it leads"
out=$("$HB" run "$TMP/w.lua" --db "$DB" --target "$TMP/img-link" --destroy-data "$TMP/image.img" --dry-run 2>&1)
like "$? $(printf '%s' "$out" | grep '^destroys')" "^0 destroys $TMP/img-link \(a symbolic link to '$TMP/image\.img'\): an existing file of 64\.0 KiB" \
	"--destroy-data naming the file it leads to lets the link be written"
out=$("$HB" run "$TMP/w.lua" --db "$DB" --target "$TMP/image.img" --destroy-data "$TMP/img-link" --dry-run 2>&1)
like "$? $(printf '%s' "$out" | grep '^destroys')" "^0 destroys $TMP/image\.img: an existing file of 64\.0 KiB" \
	"and --destroy-data naming the link lets the file be written"

# ---- read steps ----------------------------------------------------------------
out=$("$HB" run "$TMP/r.lua" --db "$DB" --target "$TMP/image.img" -q 2>&1)
ok $? "a read step on a file with data runs without the flag: $(printf '%s' "$out" | unbound | head -1)"
is "$(sha256sum < "$TMP/image.img")" "$isum" "and leaves it byte-identical"
is "$(mark "$TMP/image.img")" "none: No data available" "and unmarked"
out=$("$HB" run "$TMP/rgrow.lua" --db "$DB" --target "$TMP/image.img" 2>&1)
like "$? $out" "^1 .*refusing to write to '$TMP/image\.img': it is an existing file of 64\.0 KiB with data" \
	"a read step whose size= would grow the file: refused (growing rewrites its end)"
is "$(sha256sum < "$TMP/image.img")" "$isum" "and the file is byte-identical"

# ---- fio steps ---------------------------------------------------------------
if command -v fio >/dev/null 2>&1; then
	cat > "$TMP/fio.lua" <<'LUA'
hb.run{ engine = "fio", rw = "randwrite", bs = "4k", duration = 1, size = "4m", range = "4m", direct = false }
LUA
	out=$("$HB" run "$TMP/fio.lua" --db "$DB" --target "$TMP/image.img" 2>&1)
	like "$? $out" "^1 .*refusing to write to '$TMP/image\.img': it is an existing file" \
		"a fio step writing a file with data: refused alike"
	"$HB" run "$TMP/fio.lua" --db "$DB" --target "$TMP/byfio.dat" -q 2>/dev/null
	ok $? "a fio step lays out a new file"
	is "$(mark "$TMP/byfio.dat")" "$(last_uuid)" "which carries the mark (fio makes its file anew)"
else
	skip "no fio here"
fi

# ---- --destroy-data for a file no step writes --------------------------------
out=$("$HB" run "$TMP/r.lua" --db "$DB" --target "$TMP/image.img" --destroy-data "$TMP/image.img" --dry-run 2>&1)
like "$out" "warning: --destroy-data $TMP/image\.img: no step the plan made in its dry pass writes that block device or file" \
	"--destroy-data naming a file only read: a warning (a mistyped name?)"

# ---- a file system without user extended attributes ---------------------------
# ramfs keeps none (and says it has no free space: no size= to lay out there)
cat > "$TMP/w0.lua" <<'LUA'
hb.run{ engine = "psync", rw = "randwrite", bs = "4k", duration = 1, direct = false }
LUA
if is_root && mkdir "$TMP/ram" && mount -t ramfs ramfs "$TMP/ram" 2>/dev/null; then
	cleanup_hooks=("umount -l '$TMP/ram'" "${cleanup_hooks[@]}")
	head -c 1048576 /dev/urandom > "$TMP/ram/vm.img"
	out=$("$HB" run "$TMP/w0.lua" --db "$DB" --target "$TMP/ram/vm.img" 2>&1)
	like "$? $out" "^1 .*refusing to write to '$TMP/ram/vm\.img': it is an existing file of 1\.00 MiB with data that hbatest did not lay out; its file system keeps no extended attributes, so hbatest cannot mark files it lays out: name it with --destroy-data $TMP/ram/vm\.img each run" \
		"ramfs (no user xattrs): the refusal says the flag is needed each run"
	"$HB" run "$TMP/w0.lua" --db "$DB" --target "$TMP/ram/vm.img" --destroy-data "$TMP/ram/vm.img" -q 2>/dev/null
	ok $? "with --destroy-data it runs"
	out=$("$HB" run "$TMP/w0.lua" --db "$DB" --target "$TMP/ram/vm.img" --dry-run 2>&1)
	like "$? $out" "^1 .*refusing to write to '$TMP/ram/vm\.img': it is an existing file of 1\.00 MiB with data" \
		"and the next run needs it again (no mark)"
else
	skip "ramfs: needs root and a mount"
fi
is "$(q "$DB" "SELECT count(*) FROM runs WHERE status <> 'done'")" 0 "every run stored is done (the refusals stored none)"
done_testing
