#!/usr/bin/env bash
# The guard judges every step as it runs, not only the steps the dry pass
# made (docs/safety.md): a plan that makes another step in the real pass
# (`if not r.dry then`, `hb.dry and A or B`) cannot write the results
# database, the plan, hbatest's own files or a mounted device through it.
# Each target's bytes are compared before and after.
. "$(dirname "$0")/lib.sh"

DB="$TMP/r.db"
"$HB" run "$ROOT/examples/quick.lua" --db "$DB" --target "$TMP/q.dat" --set seconds=1 --label first -q 2>/dev/null
ok $? "a first run to lose"
runs1=$(q "$DB" "SELECT count(*) FROM samples")

# only in the real pass: a write step to TARGET (PLAN's second step)
only_real() {
	cat > "$1" <<LUA
hb.plan{ name = "real only", defaults = { engine = "psync", duration = 1, size = "1m" } }
local r = hb.run{ rw = "randread", name = "read", targets = { "$TMP/scratch.dat" } }
if not r.dry then hb.run{ rw = "randwrite", name = "write", targets = { "$2" } } end
LUA
}
# the real pass's step writes TARGET, the dry pass's a scratch file
swapped() {
	cat > "$1" <<LUA
hb.run{ engine = "psync", rw = "randwrite", duration = 1, size = "1m",
        targets = { hb.dry and "$TMP/scratch2.dat" or "$2" } }
LUA
}

# ---- the results database ----------------------------------------------------
only_real "$TMP/db.lua" "$DB"
out=$("$HB" run "$TMP/db.lua" --db "$DB" 2>&1); rc=$?
is "$rc" 1 "a step only the real pass makes, writing the database: the run fails (exit 1)"
like "$out" "db.lua:3: hb.run: refusing to write to '$DB': it is the results database .*\\(step 2 of the real pass, which the dry pass did not make on these targets\\)" \
	"naming the plan's line, the database and why the dry pass did not refuse it"
is "$(q "$DB" "PRAGMA integrity_check")" ok "the database is intact"
is "$(q "$DB" "SELECT count(*) FROM samples WHERE step_id IN (SELECT s.id FROM steps s JOIN runs r ON r.id = s.run_id WHERE r.label = 'first')")" \
	"$runs1" "the first run's samples are all there"
like "$(q "$DB" "SELECT status || ': ' || error_text FROM steps WHERE name = 'write'")" \
	"^failed: refusing to write to '$DB'" "the refused step is stored failed with the refusal"
[ ! -e "$DB-journal" ]; ok $? "no journal laid out"

swapped "$TMP/sw.lua" "$DB"
out2=$("$HB" run "$TMP/sw.lua" --db "$DB" 2>&1); rc2=$?
is "$rc2" 1 "the dry pass's step on a scratch file, the real pass's on the database: refused"
like "$out2" "refusing to write to '$DB': it is the results database .*\\(step 1 of the real pass, which the dry pass did not make on these targets\\)" \
	"as the database, a step the dry pass made on another target"
is "$(q "$DB" "PRAGMA integrity_check")" ok "the database is intact"

# ---- the plan, hbatest's own files ---------------------------------------------
only_real "$TMP/self.lua" "$TMP/self.lua"
sum=$(sha256sum < "$TMP/self.lua")
out=$("$HB" run "$TMP/self.lua" --db "$TMP/s.db" 2>&1); rc=$?
is "$rc" 1 "a real-pass step writing the plan itself: refused"
like "$out" "refusing to write to '$TMP/self.lua': it is the plan" "as the plan"
is "$(sha256sum < "$TMP/self.lua")" "$sum" "the plan is byte-identical"

mine="$ROOT/plugins/guard-real-$$.dat"
cleanup_hooks+=("rm -f '$mine'")
swapped "$TMP/tree.lua" "$mine"
out=$("$HB" run "$TMP/tree.lua" --db "$TMP/t.db" 2>&1); rc=$?
is "$rc" 1 "a real-pass step writing into hbatest's tree: refused"
like "$out" "refusing to write to '$mine': it is inside hbatest's own files" "as hbatest's own files"
[ ! -e "$mine" ]; ok $? "the file was not created"

# ---- a mounted device ----------------------------------------------------------
if ! is_root; then
	skip "loop devices need root"
	done_testing; exit
fi
truncate -s 64M "$TMP/fs.img"
mkloop FS "$TMP/fs.img" || { done_testing; exit; }
mkfs.ext4 -q -F "$FS"; ok $? "an ext4 on $FS"
mkdir -p "$TMP/mnt"
mount -o ro,noload "$FS" "$TMP/mnt"; ok $? "mounted read-only on $TMP/mnt"
cleanup_hooks=("umount '$TMP/mnt'" "${cleanup_hooks[@]}")
sum=$(sha256sum < "$TMP/fs.img")
swapped "$TMP/dev.lua" "$FS"
out=$("$HB" run "$TMP/dev.lua" --db "$TMP/d.db" --destroy-data "$FS" 2>&1); rc=$?
is "$rc" 1 "a real-pass step writing a mounted device, even with --destroy-data: refused"
like "$out" "refusing to write to '$FS': it is mounted on $TMP/mnt .*always refused" "naming the mount point"
umount "$TMP/mnt"; cleanup_hooks=("${cleanup_hooks[@]:1}")
is "$(sha256sum < "$TMP/fs.img")" "$sum" "the file system was not written"

done_testing
