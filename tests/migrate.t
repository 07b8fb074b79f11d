#!/usr/bin/env bash
# Schema migrations (db/migrations/): a database made by the first schema
# (tests/fixtures/report/schema-1.sql) holding a run opens with this binary;
# it is first copied to NAME.bak-v1 (byte-identical), then migrated in one
# transaction to the tables, columns and views of a new database, its rows
# intact. A copy that cannot be made (read-only, full disk) leaves the
# database untouched; a newer database is refused naming both versions.
# Every older version (2 to 11, tests/fixtures/report/schema-N.sql) migrates
# to the same tables, columns and views, its rows intact.
. "$(dirname "$0")/lib.sh"

is_root() { [ "$(id -u)" -eq 0 ]; }
# V: this hbatest's schema version (db/schema.sql's last line)
V=$(sed -n 's/^PRAGMA user_version = \([0-9]*\);$/\1/p' "$ROOT/db/schema.sql")
cd "$TMP" || exit 1
# on the simulator: its seconds take milliseconds, and no check here looks at
# the I/O (only at the rows a run stores and at how a database opens)
cat > plan.lua <<'LUA'
hb.plan{ name = "old", defaults = { engine = "sim", duration = 1 } }
hb.targets = { "a", "b" }
hb.run{ name = "one", rw = "randread", bs = "4k", oio = 2 }
hb.run{ name = "two", rw = "randwrite", bs = "4k", oio = 2 }
hb.log("a line of the run's log")
LUA
"$HB" run plan.lua --db fresh.db --label "old run" -q 2>>stderr; ok $? "a run in a new database"

TABLES="runs targets steps step_targets samples histograms steady_state probes events"
# Each helper below is one or two sqlite3 processes, not one a table: the
# loops over versions started over a thousand of them.
# cols_sql SQL: SQL run over c, every column (name) of every table of
# $TABLES (t, at place k), in the tables' order, then the columns'
cols_sql() {
	local i=0 t v=""
	for t in $TABLES; do i=$((i + 1)); v="$v${v:+, }('$t', $i)"; done
	echo "WITH tl(t, k) AS (VALUES $v), c AS (SELECT tl.t, tl.k, p.name FROM tl, pragma_table_info(tl.t) p ORDER BY tl.k, p.cid) $1"
}
# make_old FILE V: a database of schema version V holding the run of fresh.db
# (an INSERT a table, of the columns version V has; every table must be there)
make_old() {
	local sql
	sqlite3 "$1" < "$ROOT/tests/fixtures/report/schema-$2.sql" || return 1
	sql=$(q "$1" "$(cols_sql "SELECT 'INSERT INTO main.' || t || ' (' || group_concat(name, ', ') || ') SELECT ' ||
		group_concat(name, ', ') || ' FROM n.' || t || ';' FROM c GROUP BY t ORDER BY min(k)")") || return 1
	[ "$(grep -c '^INSERT' <<<"$sql")" -eq "$(wc -w <<<"$TABLES")" ] || return 1
	sqlite3 -bail "$1" "ATTACH 'fresh.db' AS n; $sql"
}
# rows FILE [OLD]: every row of the columns OLD (default v1-ref.db) has, one line each
rows() {
	q "$1" "$(q "${2:-v1-ref.db}" "$(cols_sql "SELECT 'SELECT ''' || t || '|'' || ' ||
		group_concat('quote(\"' || name || '\")', ' || ''|'' || ') || ' FROM ' || t || ' ORDER BY 1;'
		FROM c GROUP BY t ORDER BY min(k)")")"
}
# shape FILE: the tables, indexes and views, every column of every table
shape() {
	q "$1" "SELECT type, name, tbl_name FROM sqlite_master ORDER BY type, name;
		SELECT name, sql FROM sqlite_master WHERE type = 'view' ORDER BY name;
		SELECT m.name, p.cid, p.name, p.type, p.\"notnull\", p.dflt_value, p.pk
		FROM sqlite_master m, pragma_table_info(m.name) p WHERE m.type = 'table' ORDER BY m.name, p.cid"
}
fresh_shape=$(shape fresh.db)	# fresh.db is only read from here on

make_old v1-ref.db 1; ok $? "a schema-1 database (the fixture) holding the run"
is "$(q v1-ref.db 'PRAGMA user_version') $(q v1-ref.db 'SELECT count(*) FROM steps')" "1 2" "at version 1, with its steps"
old_rows=$(rows v1-ref.db)

# --- list, show, run: each migrates after a byte-identical copy ------------------
for cmd in list show run; do
	cp v1-ref.db "$cmd.db"
	sum=$(sha256sum < "$cmd.db")
	case $cmd in
	list) "$HB" list --db list.db > out 2> err ;;
	show) "$HB" show 1 --db show.db > out 2> err ;;
	run) "$HB" run plan.lua --db run.db --label "new run" > out 2> err ;;
	esac
	is "$?" 0 "$cmd opens the schema-1 database"
	like "$(cat err)" "database '$cmd.db' has schema version 1: copied it to '$cmd.db.bak-v1' before migrating it to version $V" \
		"$cmd says it copied it to $cmd.db.bak-v1"
	is "$(sha256sum < "$cmd.db.bak-v1")" "$sum" "$cmd: the copy is byte-identical to the original"
	is "$(q "$cmd.db" 'PRAGMA user_version')" "$V" "$cmd: the database is at version $V"
	is "$(shape "$cmd.db")" "$fresh_shape" "$cmd: every table, column, index and view of a new database"
	[ $cmd = run ] || is "$(rows "$cmd.db" | grep -c .)" "$(echo "$old_rows" | grep -c .)" "$cmd: as many rows"
	[ "$(rows "$cmd.db" | grep -Fvxf - <(echo "$old_rows") | wc -l)" -eq 0 ]
	ok $? "$cmd: every old row is there, unchanged"
done
is "$(q run.db "SELECT group_concat(label || ':' || source || ':' || status, ' ') FROM runs")" \
	"old run:hbatest:done new run:hbatest:done" "run: old and new runs side by side; the old one's source is 'hbatest'"
is "$(q run.db "SELECT count(*) FROM steps WHERE placement IS NOT NULL OR on_error IS NOT NULL GROUP BY run_id")" "2" \
	"run: only the new run's steps fill the new columns"
is "$(q run.db "SELECT group_concat(label || ':' || quote(steps_planned), ' ') FROM runs")" "old run:NULL new run:2" \
	"run: the old run's planned step count is not known (NULL); the new run's is its plan's 2"
"$HB" list --db list.db > out 2> err
is "$(cat err)$(ls | grep -c '^list.db.bak')" "1" "opened again: no message, no second copy"
like "$(head -c 15 list.db.bak-v1)" "SQLite format 3" "the copy is a database"

# --- report reads a migrated database -------------------------------------------
cp v1-ref.db report.db
"$HB" report 1 --db report.db --out rep --no-charts >/dev/null 2>err; ok $? "report opens a schema-1 database"
[ -s report.db.bak-v1 ] && [ "$(q report.db 'PRAGMA user_version')" = "$V" ]; ok $? "after the copy and the migration"

# --- WAL mode, as hbatest's databases are --------------------------------------
cp v1-ref.db wal.db
q wal.db "PRAGMA journal_mode = WAL" >/dev/null
sum=$(sha256sum < wal.db)
"$HB" list --db wal.db >/dev/null 2>err; ok $? "a schema-1 database in WAL mode"
is "$(sha256sum < wal.db.bak-v1)" "$sum" "its copy is byte-identical too"

# a WAL holding pages the file lacks (a writer that died): checkpointed first,
# so the copy holds them. The writer keeps its connection open (closing it
# would checkpoint the WAL) until the copy is made: it reads a pipe this test
# writes to then (a sleep there once ended first on a loaded machine).
cp v1-ref.db walc.db
q walc.db "PRAGMA journal_mode = WAL" >/dev/null
mkfifo walc.gate
{ echo "PRAGMA wal_autocheckpoint = 0; INSERT INTO events (run_id, at, level, message) VALUES (1, 'now', 'info', 'only in the WAL');"
  read -r _ < walc.gate; } | sqlite3 walc.db >/dev/null &
writer=$!
for _ in $(seq 600); do	# until the row is committed (to the WAL); 60 s at most
	[ "$(q walc.db "SELECT count(*) FROM events WHERE message = 'only in the WAL'")" = 1 ] && break
	sleep 0.1
done
cp walc.db walx.db; cp walc.db-wal walx.db-wal; echo > walc.gate; wait $writer
[ -s walx.db-wal ] && [ "$(sqlite3 'file:walx.db?mode=ro&immutable=1' "SELECT count(*) FROM events WHERE message = 'only in the WAL'")" = 0 ]
ok $? "a schema-1 database whose last row is in its WAL only"
"$HB" run plan.lua --db walx.db -q >/dev/null 2>err; ok $? "a run opens it"
is "$(q walx.db.bak-v1 "SELECT count(*) FROM events WHERE message = 'only in the WAL'") $(q walx.db "SELECT count(*) FROM events WHERE message = 'only in the WAL'")" \
	"1 1" "the copy and the migrated database both hold that row"

# --- no copy of a database without runs; never over an older copy --------------
sqlite3 empty.db < "$ROOT/tests/fixtures/report/schema-1.sql"
"$HB" list --db empty.db >/dev/null 2>err
is "$(q empty.db 'PRAGMA user_version') $(ls | grep -c '^empty.db.bak')" "$V 0" "a schema-1 database without runs: migrated, no copy"
cp v1-ref.db again.db; echo "an older copy" > again.db.bak-v1
sum=$(sha256sum < again.db)
"$HB" list --db again.db >/dev/null 2>err
like "$(cat err)" "copied it to 'again.db.bak-v1.1'" "a NAME.bak-v1 already there: the copy is NAME.bak-v1.1"
is "$(cat again.db.bak-v1) $(sha256sum < again.db.bak-v1.1)" "an older copy $sum" "the older copy is kept as it was"

# --- one transaction: a migration that fails leaves version 1 ------------------
cp v1-ref.db clash.db
q clash.db "ALTER TABLE steps ADD COLUMN placement TEXT"	# what 0004 adds
sum=$(sha256sum < clash.db)
out=$("$HB" list --db clash.db 2>&1); rc=$?
like "$rc $(echo $out)" "^1 .*cannot migrate database 'clash.db' from schema version 1: duplicate column name: placement; it is unchanged" \
	"a migration that fails (the 3rd of 4): exit 1, named"
is "$(q clash.db 'PRAGMA user_version') $(q clash.db "SELECT count(*) FROM pragma_table_info('steps') WHERE name = 'on_error'") $(q clash.db "SELECT count(*) FROM sqlite_master WHERE type = 'view' AND name = 'run_pcie'")" \
	"1 0 0" "nothing of the first two migrations stays: version 1, no on_error, no report views"
is "$(sha256sum < clash.db)" "$sum" "the database is byte-identical"

# --- from every older version: 2 to 8 as well as 1 ------------------------------
# tests/fixtures/report/schema-N.sql: db/schema.sql as it last was at version N
# (git show, the commit before version N+1), filled with fresh.db's rows in
# the columns version N has; list migrates it, report reads it.
for v in 2 3 4 5 6 7 8 9 10 11; do
	make_old "v$v.db" $v
	is "$(q "v$v.db" 'PRAGMA user_version') $(q "v$v.db" 'SELECT count(*) FROM steps')" "$v 2" "a schema-$v database holding the run"
	old=$(rows "v$v.db" "v$v.db")
	cp "v$v.db" "m$v.db"; sum=$(sha256sum < "m$v.db")
	"$HB" list --db "m$v.db" >/dev/null 2>err; rc=$?
	like "$rc $(cat err)" "^0 .*database 'm$v.db' has schema version $v: copied it to 'm$v.db.bak-v$v' before migrating it to version $V" \
		"version $v: list migrates it, after a copy"
	is "$(sha256sum < "m$v.db.bak-v$v") $(q "m$v.db" 'PRAGMA user_version')" "$sum $V" "version $v: the copy byte-identical, the database at version $V"
	is "$(shape "m$v.db")" "$fresh_shape" "version $v: every table, column, index and view of a new database"
	new=$(rows "m$v.db" "v$v.db")
	is "$new" "$old" "version $v: every old row there, unchanged, no other"
	"$HB" report 1 --db "m$v.db" --out "rep$v" --no-charts >/dev/null 2>err; ok $? "version $v: report reads the migrated database"
done

# --- a development build's schema 5: samples.secs missing ----------------------
# samples.secs joined migration 0005 after 0005 had shipped: a database made
# between the two says version 5 (or 6, migrated since) without the column.
# Opening it for writing adds the column (1 s a second) and the view's rates
# (list, which only reads a current file, leaves it).
for v in 5 6; do
	make_old "dev$v.db" 5
	q "dev$v.db" "DROP VIEW sample_total; ALTER TABLE samples DROP COLUMN secs;
		CREATE VIEW sample_total AS SELECT step_id, t, ramp, read_ops + write_ops AS ops,
		read_bytes + write_bytes AS bytes, NULL AS lat_mean_us FROM samples;
		PRAGMA user_version = $v" || fail=1
	[ $v = 6 ] && q "dev$v.db" "ALTER TABLE runs ADD COLUMN cwd TEXT"
	n=$(q "dev$v.db" 'SELECT count(*) FROM samples')
	"$HB" run plan.lua --db "dev$v.db" -q 2>err; rc=$?
	like "$rc $(echo $(cat err))" "^0 .*database 'dev$v.db' has no samples.secs .*adding it" \
		"version $v without samples.secs: a run adds it, saying so, and stores"
	is "$(q "dev$v.db" "SELECT count(*) FROM sample_total WHERE secs = 1 AND iops = ops AND step_id IN (SELECT id FROM steps WHERE run_id = 1)")" \
		"$n" "version $v: samples.secs there, 1 s each old second, sample_total's rates over it"
	"$HB" list --db "dev$v.db" >/dev/null 2>err; ok $? "version $v: list reads it"
done

# --- concurrent first opens agree -----------------------------------------------
cp v1-ref.db many.db
pids=""
for i in 1 2 3 4; do
	case $i in
	1|2) "$HB" list --db many.db >/dev/null 2>"many$i.err" & ;;
	*) "$HB" run plan.lua --db many.db -q >/dev/null 2>"many$i.err" & ;;
	esac
	pids="$pids $!"
done
fails=0
for p in $pids; do wait "$p" || fails=$((fails + 1)); done
is "$fails $(ls | grep -c '^many.db.bak')" "0 1" "two lists and two runs at once on a schema-1 database: all succeed, one copy"
is "$(q many.db 'PRAGMA user_version') $(q many.db 'SELECT count(*) FROM runs')" "$V 3" "migrated once, the two runs stored"
is "$(cat many?.err | grep -c 'copied it to')" 1 "one of them made the copy"

# --- the switch to WAL waits for another writer ----------------------------------
# A file in rollback mode (one just migrated, or one a user set back with
# journal_mode=DELETE) is switched to WAL on open; SQLite's busy handler does
# not cover that switch, so hbatest waits itself (this failed at once, with
# "database is locked", when two processes migrated one file).
cp fresh.db held.db; q held.db "PRAGMA journal_mode=DELETE" >/dev/null
sqlite3 held.db "BEGIN IMMEDIATE; INSERT INTO events (run_id, at, level, message) SELECT id, '2026-01-01T00:00:00Z', 'info', 'held' FROM runs;" \
	".shell touch held.locked" ".shell sleep 1" "COMMIT;" & holder=$!
for i in $(seq 1200); do [ -e held.locked ] && break; sleep 0.05; done	# up to 60 s: a loaded host
"$HB" run plan.lua --db held.db -q >/dev/null 2>held.err; rc=$?; wait $holder
is "$rc $(q held.db 'PRAGMA journal_mode') $(q held.db 'SELECT count(*) FROM runs') $(q held.db "SELECT count(*) FROM events WHERE message = 'held'")" \
	"0 wal 2 1" "a run on a rollback-mode file whose write lock another process holds waits, then switches it to WAL: both writes kept"

# --- newer than this binary: refused, both versions named -----------------------
cp fresh.db newer.db; q newer.db "PRAGMA user_version = $((V + 1))"
sum=$(sha256sum < newer.db)
for cmd in list run; do
	if [ $cmd = list ]; then out=$("$HB" list --db newer.db 2>&1); else out=$("$HB" run plan.lua --db newer.db -q 2>&1); fi
	like "$? $out" "^1 .*database 'newer.db' has schema version $((V + 1)); this hbatest knows up to $V: upgrade hbatest" \
		"$cmd refuses a newer database, naming both versions"
done
is "$(sha256sum < newer.db) $(ls | grep -c '^newer.db.bak')" "$sum 0" "and leaves it as it was"

# --- a copy that cannot be made: the database untouched ------------------------
if is_root; then
	mkdir ro full
	mount -t tmpfs -o size=4m tmpfs ro && cleanup_hooks+=("umount '$TMP/ro'")
	cp v1-ref.db ro/old.db; sum=$(sha256sum < ro/old.db)
	mount -o remount,ro "$TMP/ro"; ok $? "a read-only file system holding a schema-1 database"
	for cmd in list run; do
		if [ $cmd = list ]; then out=$("$HB" list --db ro/old.db 2>&1); else out=$("$HB" run plan.lua --db ro/old.db -q 2>&1); fi
		like "$? $out" "^1 .*database 'ro/old.db' has schema version 1 and this hbatest uses $V: it must be migrated, after a copy to 'ro/old.db.bak-v1', but it is read-only here; it is unchanged: make the file and its folder writable, or copy it to a writable folder and give --db COPY" \
			"$cmd: exit 1, both versions and the fix named"
	done
	is "$(sha256sum < ro/old.db) $(ls ro)" "$sum old.db" "the database untouched, no file beside it"

	mount -t tmpfs -o size=1m tmpfs full && cleanup_hooks+=("umount '$TMP/full'")
	cp v1-ref.db full/old.db; sum=$(sha256sum < full/old.db)
	dd if=/dev/zero of=full/filler bs=4k 2>/dev/null
	out=$("$HB" list --db full/old.db 2>&1); rc=$?
	like "$rc $out" "^1 .*database 'full/old.db' has schema version 1 and this hbatest uses $V: it must be migrated, after a copy to 'full/old.db.bak-v1', but the copy failed: No space left on device; it is unchanged: free some space" \
		"a full disk: exit 1, the copy's failure and the fix named"
	is "$(sha256sum < full/old.db) $(ls full | tr '\n' ' ')" "$sum filler old.db " "the database untouched, no partial copy left"
	rm full/filler
	"$HB" list --db full/old.db >/dev/null 2>&1; ok $? "with space again, it opens"
	is "$(sha256sum < full/old.db.bak-v1) $(q full/old.db 'PRAGMA user_version')" "$sum $V" "copied, then migrated"
else
	mkdir ro; cp v1-ref.db ro/old.db; sum=$(sha256sum < ro/old.db); chmod 555 ro
	out=$("$HB" list --db ro/old.db 2>&1); rc=$?
	like "$rc $out" "^1 .*schema version 1 and this hbatest uses $V: it must be migrated, after a copy to 'ro/old.db.bak-v1', but the copy failed: Permission denied" \
		"a read-only folder: exit 1, both versions and the fix named"
	is "$(sha256sum < ro/old.db) $(ls ro)" "$sum old.db" "the database untouched, no file beside it"
	chmod 755 ro
	for i in 1 2 3 4 5 6; do skip "read-only and full file systems: needs root for a tmpfs"; done
fi

done_testing
