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

# refused PLAN DB WHAT MESSAGE [ARGS]: run PLAN into DB: exit 1 and stderr matching MESSAGE
refused() {
	out=$("$HB" run "$1" --db "$2" "${@:5}" 2>&1)
	is "$?" 1 "$3: the run fails (exit 1)"
	like "$out" "$4" "$3: refused, saying why"
}
unseen='.*\(step [12] of the real pass, which the dry pass did not make on these targets\)'

# ---- the results database ----------------------------------------------------
only_real "$TMP/db.lua" "$DB"
refused "$TMP/db.lua" "$DB" "a step only the real pass makes, writing the database" \
	"db.lua:3: hb.run: refusing to write to '$DB': it is the results database $unseen"
is "$(q "$DB" "SELECT count(*) FROM samples WHERE step_id IN (SELECT s.id FROM steps s JOIN runs r ON r.id = s.run_id WHERE r.label = 'first')")" \
	"$runs1" "the first run's samples are all there"
like "$(q "$DB" "SELECT status || ': ' || error_text FROM steps WHERE name = 'write'")" \
	"^failed: refusing to write to '$DB'" "the refused step is stored failed with the refusal"
[ ! -e "$DB-journal" ]; ok $? "no journal laid out"
swapped "$TMP/sw.lua" "$DB"
refused "$TMP/sw.lua" "$DB" "the dry pass's step on a scratch file, the real pass's on the database" \
	"refusing to write to '$DB': it is the results database $unseen"
is "$(q "$DB" "PRAGMA integrity_check")" ok "the database is intact"

# ---- the plan, hbatest's own files ---------------------------------------------
only_real "$TMP/self.lua" "$TMP/self.lua"
sum=$(sha256sum < "$TMP/self.lua")
refused "$TMP/self.lua" "$TMP/s.db" "a real-pass step writing the plan itself" \
	"refusing to write to '$TMP/self.lua': it is the plan $unseen"
is "$(sha256sum < "$TMP/self.lua")" "$sum" "the plan is byte-identical"

mine="$ROOT/plugins/guard-real-$$.dat"
cleanup_hooks+=("rm -f '$mine'")
swapped "$TMP/tree.lua" "$mine"
refused "$TMP/tree.lua" "$TMP/t.db" "a real-pass step writing into hbatest's tree" \
	"refusing to write to '$mine': it is inside hbatest's own files $unseen"
[ ! -e "$mine" ]; ok $? "the file was not created"

# ---- which steps the dry pass made: the note and the step count --------------------
# the note names the step by its number in the real pass (the dry pass made
# one step, the real pass refuses its second), and the log counts the real
# pass's steps past the dry pass's ("step 2/2", not "2/1")
only_real "$TMP/n.lua" "$DB"
out=$("$HB" run "$TMP/n.lua" --db "$DB" 2>&1)
like "$out" "refusing to write to '$DB': it is the results database .*\(step 2 of the real pass, which" \
	"a real-pass step 2 the dry pass did not make: the note names step 2 (the dry pass made 1)"
like "$out" "step 2/2 measure: write" "and the log counts it as step 2 of 2, not of the dry pass's 1"
# a step the dry pass made on the same targets, but reading (hb.dry and
# randread): judged again, refused as it writes, and no note (the dry pass
# made it; its targets were judged for a read); a step the dry pass made
# on the same first target and another: a step it did not make
on_db() {
	cat > "$1" <<LUA
hb.plan{ name = "on db", defaults = { engine = "psync", duration = 1, ramp = 0 } }
hb.run{ rw = "randread", name = "read", targets = { "$TMP/scratch.dat" } }
local t = $2
hb.run{ rw = hb.dry and "randread" or "randwrite", name = "db", targets = t, oio = #t }
LUA
}
first_samples() { q "$DB" "SELECT count(*) FROM samples WHERE step_id IN (SELECT s.id FROM steps s JOIN runs r ON r.id = s.run_id WHERE r.label = 'first')"; }
samples=$(first_samples)
on_db "$TMP/same.lua" "{ '$DB' }"
refused "$TMP/same.lua" "$DB" "the dry pass's last step read the database, the real pass's writes it" \
	"same.lua:4: hb.run: refusing to write to '$DB': it is the results database \('$DB'\)$"
[[ $out != *"of the real pass"* ]]; ok $? "no note that the dry pass did not make it: it made it on these targets"
is "$(q "$DB" "PRAGMA integrity_check") $(first_samples)" "ok $samples" \
	"the database is intact, the first run's samples all there"
on_db "$TMP/fewer.lua" "hb.dry and { '$DB', '$TMP/scratch.dat' } or { '$DB' }"
refused "$TMP/fewer.lua" "$DB" "the dry pass's step read the database and a scratch file, the real pass's writes the database alone" \
	"fewer.lua:4: hb.run: refusing to write to '$DB': it is the results database .*\(step 2 of the real pass, which the dry pass did not make on these targets\)"

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
refused "$TMP/dev.lua" "$TMP/d.db" "a real-pass step writing a mounted device, even with --destroy-data" \
	"refusing to write to '$FS': it is mounted on $TMP/mnt .*always refused$unseen" --destroy-data "$FS"
umount "$TMP/mnt"; cleanup_hooks=("${cleanup_hooks[@]:1}")
is "$(sha256sum < "$TMP/fs.img")" "$sum" "the file system was not written"

done_testing
