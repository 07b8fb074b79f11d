#!/usr/bin/env bash
# A database on a read-only file system (as root: a tmpfs remounted ro) or
# in a read-only folder (otherwise: chmod 555) is read by list, show, export,
# report and sql, as immutable, and left as it was; a -wal holding frames
# that cannot be replayed there is an error naming it; a file that is no
# database is still called so, and an older one is refused with the fix.
. "$(dirname "$0")/lib.sh"
# V: this hbatest's schema version (db/schema.sql's last line)
V=$(sed -n 's/^PRAGMA user_version = \([0-9]*\);$/\1/p' "$ROOT/db/schema.sql")

cd "$TMP" || exit 1
cat > plan.lua <<'LUA'
hb.plan{ name = "ro", defaults = { engine = "null", duration = 1 } }
hb.targets = { "a" }
hb.run{ name = "one", rw = "randread", bs = "4k", oio = 2 }
LUA
"$HB" run plan.lua --db r.db --label archived -q 2>>stderr; ok $? "a run in a new (WAL) database"
# a row the file lacks, in a -wal copied while its writer still holds it:
# wal.db without a -shm, shm.db with one
cp r.db w.db
sqlite3 w.db "PRAGMA wal_autocheckpoint = 0" \
	"INSERT INTO events (run_id, at, level, message) VALUES (1, 'now', 'info', 'only in the WAL')" \
	".shell cp w.db wal.db; cp w.db-wal wal.db-wal; cp w.db shm.db; cp w.db-wal shm.db-wal; cp w.db-shm shm.db-shm" \
	>/dev/null
[ "$(wc -c < wal.db-wal)" -gt 32 ]; ok $? "a copy whose -wal holds frames"
sqlite3 old.db < "$ROOT/tests/fixtures/report/schema-1.sql" && q old.db "PRAGMA journal_mode = WAL" >/dev/null
is "$(q old.db 'PRAGMA user_version')" 1 "a schema-1 database in WAL mode"

# flat TEXT: on one line, for like's ^
flat() { printf '%s' "$1" | tr '\n' ' '; }
# files DIR: the names, sizes, modes and contents of the files in DIR
files() { (cd "$1" && ls -l --time-style=+ && sha256sum ./*); }

# reads DIR: every read-only command on DIR/r.db exits 0 and shows the run
reads() {
	local d=$1 out
	out=$("$HB" list --db "$d/r.db" 2>&1)
	like "$(flat "$? $out")" "^0 .*archived +done" "$d: list reads it"
	out=$("$HB" show archived --db "$d/r.db" 2>&1)
	like "$(flat "$? $out")" "^0 .*label +archived" "$d: show reads it"
	out=$("$HB" export archived --what steps --format csv --db "$d/r.db" 2>&1)
	like "$(flat "$? $out")" '^0 .*,1,"measure","one",' "$d: export reads it"
	out=$("$HB" sql "SELECT label FROM runs" --format tsv --db "$d/r.db" 2>&1)
	is "$? $out" "0 label
archived" "$d: sql reads it"
	if command -v gnuplot >/dev/null; then
		out=$("$HB" report archived --out "rep-$d" --db "$d/r.db" 2>&1)
		like "$? $out" "^0 .*rep-$d/index.html" "$d: report reads it"
	else
		skip "gnuplot is not installed: report"
	fi
	out=$("$HB" list --db "$d/junk.db" 2>&1)
	like "$? $out" "^1 .*'$d/junk.db' is not an SQLite database: file is not a database" \
		"$d: a file that is no database is still called so"
}

if is_root; then
	mkdir ro
	mount -t tmpfs -o size=4m tmpfs ro && cleanup_hooks=("umount '$TMP/ro'" "${cleanup_hooks[@]}")
	cp r.db old.db ro/; cp r.db ro/e.db; : > ro/e.db-wal; cp wal.db wal.db-wal shm.db shm.db-wal shm.db-shm ro/
	echo "not a database" > ro/junk.db
	mount -o remount,ro ro; ok $? "a read-only file system holding the databases"
	before=$(files ro)
	reads ro
	out=$("$HB" list --db ro/e.db 2>&1)
	like "$(flat "$? $out")" "^0 .*archived +done" "a database with an empty -wal is read too"
	out=$("$HB" sql "SELECT count(*) FROM events" --db ro/wal.db 2>&1)
	like "$? $out" "^1 .*cannot read database 'ro/wal.db': its write-ahead log 'ro/wal.db-wal' holds changes the file may lack, and they cannot be replayed where no 'ro/wal.db-shm' can be made" \
		"sql: a -wal with frames is an error naming it, not read without them"
	out=$("$HB" list --db ro/wal.db 2>&1)
	like "$? $out" "^1 .*its write-ahead log 'ro/wal.db-wal' holds changes" "list: the same"
	out=$("$HB" sql "SELECT message FROM events WHERE message = 'only in the WAL'" --format tsv --db ro/shm.db 2>&1)
	is "$? $out" "0 message
only in the WAL" "with its -shm beside it, the -wal's frames are read"
	out=$("$HB" list --db ro/old.db 2>&1)
	like "$? $out" "^1 .*database 'ro/old.db' has schema version 1 and this hbatest uses $V: it must be migrated, after a copy to 'ro/old.db.bak-v1', but it is read-only here; it is unchanged: make the file and its folder writable, or copy it to a writable folder" \
		"an older WAL database: both versions and the fix named"
	is "$(files ro)" "$before" "every file as it was, none added"
	for _ in $(seq 7); do skip "a read-only folder (chmod 555): root may write in it"; done
else
	for _ in $(seq 13); do skip "a read-only file system: needs root for a tmpfs"; done
	mkdir rodir && cp r.db rodir/ && echo "not a database" > rodir/junk.db && chmod 555 rodir &&
		cleanup_hooks=("chmod 755 '$TMP/rodir'" "${cleanup_hooks[@]}")
	before=$(files rodir)
	reads rodir
	is "$(files rodir)" "$before" "every file as it was, none added"
fi

# A database read while it was read-only keeps the -shm and -wal SQLite made
# with its mode (0444); made writable again, a run's first write failed with
# "attempt to write a readonly database", naming neither. As another user
# (root writes any file): the run is refused before it writes, naming the file.
# hbatest copied where that user can run it (the tree may sit in a folder of
# mode 0700, as mktemp makes: make mutate's copy, a CI clone)
chmod o+x "$TMP"; mkdir -m 777 "$TMP/side" && cp plan.lua "$TMP/side/" && chmod 644 "$TMP/side/plan.lua"
mkdir -p "$TMP/hb/plugins" && cp "$HB" "$TMP/hb/" && cp "$ROOT"/plugins/*.so "$TMP/hb/plugins/" &&
	cp -r "$ROOT/scripts" "$ROOT/db" "$TMP/hb/" && chmod -R a+rX "$TMP/hb"
as() { (cd "$TMP/side" && runuser -u nobody -- "$@"); }
HBX="$TMP/hb/$(basename "$HB")"
if is_root && command -v runuser >/dev/null && as "$HBX" --version >/dev/null 2>&1; then
	HB=$HBX
	as "$HB" run plan.lua --db s.db -q 2>/dev/null; ok $? "a run as another user (nobody)"
	as chmod 444 s.db; as "$HB" list --db s.db >/dev/null 2>&1; as chmod 644 s.db
	is "$(stat -c %a "$TMP/side/s.db-shm")" 444 "a read while read-only left a -shm of mode 0444"
	out=$(as "$HB" run plan.lua --db s.db -q 2>&1); rc=$?
	is "$rc $(as "$HB" sql --db s.db 'SELECT count(*) FROM runs' --format csv 2>/dev/null | tail -1)" "1 1" \
		"the database writable again: a run is refused (exit 1), nothing added"
	is "$out" "hbatest: error: cannot write database 's.db': its 's.db-wal' and 's.db-shm' are read-only here (mode 0444, owner uid $(id -u nobody)), as SQLite makes them when the database is read while read-only; make them writable: chmod u+w 's.db-wal' 's.db-shm' (as their owner)" \
		"naming the files and the fix"
	as chmod u+w s.db-shm s.db-wal; as "$HB" run plan.lua --db s.db -q 2>/dev/null; ok $? "made writable, the run goes"
else
	for i in 1 2 3 4 5; do skip "a database's read-only -shm needs another user who can run $HB (runuser, as root)"; done
fi

done_testing
