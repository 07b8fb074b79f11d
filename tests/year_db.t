#!/usr/bin/env bash
# scripts/dev/gen-year-db (the database of tests/dev/bench-year.sh, issue 37)
# at 10 runs: a valid database at this hbatest's schema version, the same
# rows from the same seed, that list, show, report, sql side-by-side and
# merge accept; and the year's index (steps_run_status) is in a new
# database and in one migrated from the version before. A read-only open of
# a file over 256 MiB checks its runs table only.
. "$(dirname "$0")/lib.sh"

# V: this hbatest's schema version (db/schema.sql's last line)
V=$(sed -n 's/^PRAGMA user_version = \([0-9]*\);$/\1/p' "$ROOT/db/schema.sql")
GEN="$ROOT/scripts/dev/gen-year-db"
cd "$TMP" || exit 1

"$GEN" --runs 10 y.db > out 2> err; ok $? "gen-year-db makes 10 runs"
is "$(cat out err)" "" "and prints nothing"
is "$(q y.db 'PRAGMA user_version')" "$V" "at this hbatest's schema version ($V)"
is "$(q y.db 'PRAGMA integrity_check')" "ok" "integrity_check passes"
is "$(q y.db "SELECT (SELECT count(*) FROM runs) || ' ' || (SELECT count(*) FROM steps) || ' '
	|| (SELECT count(*) FROM samples) || ' ' || (SELECT count(DISTINCT label) FROM runs)")" \
	"10 1000 60000 4" "10 runs x 100 steps x 60 samples, the runs of 4 cards"
is "$(q y.db "SELECT count(*) FROM steps s WHERE (SELECT count(*) FROM histograms h WHERE h.step_id = s.id) = 0
	OR (SELECT count(*) FROM step_targets t WHERE t.step_id = s.id) = 0
	OR (SELECT sum(read_ops + write_ops) FROM samples x WHERE x.step_id = s.id AND ramp = 0)
	   <> s.read_ops + s.write_ops")" 0 "every step has a histogram, step targets and the totals of its samples"
is "$(q y.db "SELECT group_concat(DISTINCT axis) FROM steps WHERE axis IS NOT NULL")" "oio,write_pct" \
	"OIO and write-mix sweeps"
is "$(q y.db "SELECT count(DISTINCT run_id) FROM run_controller")" 10 "every run has its card's facts"

"$GEN" --runs 10 y2.db 2>/dev/null
is "$(q y2.db .dump | sha256sum)" "$(q y.db .dump | sha256sum)" "the same seed gives the same rows"
"$GEN" --runs 3 --steps 4 --samples 3 --seed 2 z.db 2>/dev/null; ok $? "smaller sizes"
is "$(q z.db "SELECT count(*) FROM runs") $(q z.db "SELECT count(*) FROM samples")" "3 36" "3 runs x 4 steps x 3 samples"
is "$(q z.db "SELECT count(*) FROM runs WHERE uuid IN (SELECT uuid FROM runs) AND uuid IN
	(SELECT uuid FROM runs WHERE id <= 3)") $(q y.db "ATTACH 'z.db' AS z;
	SELECT count(*) FROM runs JOIN z.runs zr USING (uuid)")" "3 0" "another seed, other runs"
"$GEN" --runs 1 y.db 2> err; is "$? $(cat err)" "1 gen-year-db: 'y.db' exists (--force replaces it)" \
	"an existing file is kept"

# --- the commands take it ----------------------------------------------------------
"$HB" list --db y.db > out 2> err; ok $? "list"
is "$(grep -c 'plans/raid5.lua' out) $(cat err)" "10 " "list: 10 runs, nothing on stderr (no migration)"
"$HB" show 5 --db y.db > out 2> err; ok $? "show"
like "$(cat out)" "steps +100 done, 100 started, 100 planned" "show: its 100 steps"
"$HB" report 5 6 --db y.db --out rep --no-charts > out 2> err; ok $? "report of two runs"
[ -s rep/index.html ]; ok $? "report: index.html"
"$HB" sql side-by-side --db y.db --param group='4k randread' --param runs=5,6 --param metric=iops \
	--format tsv > out 2> err; ok $? "sql side-by-side"
is "$(sed -n 2p out | cut -f1-3)" "$(printf "2\toio\tiops")" "side-by-side: a row per OIO"
is "$(grep -c . out) $(cut -f4,5 out | grep -c '^[0-9.]*	[0-9.]*$')" "9 8" "8 points, both runs' values"
cp y.db m.db
"$HB" merge m.db z.db > out 2> err; ok $? "merge of another seed's runs"
is "$(q m.db 'SELECT count(*) FROM runs')" 13 "merge: 13 runs"

# --- the index: a new database has it, a migrated one gets it ------------------------
is "$(q y.db "SELECT sql FROM sqlite_master WHERE name = 'steps_run_status'")" \
	"CREATE INDEX steps_run_status ON steps(run_id, status, group_name)" "a new database has steps_run_status"
like "$(q y.db "EXPLAIN QUERY PLAN SELECT count(*) FROM steps s WHERE s.run_id = 1 AND s.status = 'done'")" \
	"COVERING INDEX steps_run_status" "list's step count reads the index only"
like "$(q y.db "EXPLAIN QUERY PLAN SELECT DISTINCT group_name FROM steps WHERE group_name IS NOT NULL")" \
	"COVERING INDEX steps_run_status" "sql's group check reads the index only"
# a schema-8 database (the version before the index; later migrations add
# columns, so it is made from that version's schema, not from a new one)
sqlite3 old.db < "$ROOT/tests/fixtures/report/schema-8.sql"
"$HB" list --db old.db > out 2> err; ok $? "list opens a database of version 8"
like "$(cat err)" "from schema version 8 to 9 \\(0009-year-indexes.sql\\)" "and migrates it through the index's migration"
is "$(q old.db 'PRAGMA user_version')" "$V" "it is at version $V"
is "$(q old.db "SELECT name FROM sqlite_master WHERE name = 'steps_run_status'")" "steps_run_status" \
	"the migrated database has the index"
is "$(q old.db "SELECT type, name FROM sqlite_master WHERE type = 'index' ORDER BY name")" \
	"$(q z.db "SELECT type, name FROM sqlite_master WHERE type = 'index' ORDER BY name")" \
	"the same indexes as a new database"
# --- the card views: a run's rows read probes through its index --------------------
# (schema 12: the report reads run_controller and run_volume once a run; a
# view SQLite cannot push `run_id = ?` into scans every run's probes)
for view in run_controller run_volume run_drive; do
	plan=$(q y.db "EXPLAIN QUERY PLAN SELECT * FROM $view WHERE run_id = 5")
	like "$plan" "SEARCH probes USING (COVERING )?INDEX probes_run \\(run_id=\\?\\)" \
		"$view WHERE run_id = ?: probes searched by run_id"
	is "$(printf '%s\n' "$plan" | grep -c 'SCAN probes')" 0 "$view WHERE run_id = ?: no scan of probes"
	is "$(q y.db "SELECT * FROM $view WHERE run_id = 5 ORDER BY ord")" \
		"$(q y.db "SELECT * FROM $view ORDER BY ord" | grep '^5|')" \
		"$view WHERE run_id = ?: the run's rows, as the whole view has them"
done

# a made-up card on a run of a copy: two volumes of drives alike, a drive in
# none, a fact recorded twice (host-wide and for a target), a card not read
cp z.db cards.db
q cards.db "INSERT INTO probes (run_id, phase, target, probe, key, value) VALUES
	(1, 'start', '/dev/sdb', 'testcard', 'c0.model', 'X'), (1, 'start', NULL, 'testcard', 'c0.model', 'X'),
	(1, 'start', NULL, 'testcard', 'c0.v0.raid_level', 'RAID1'), (1, 'start', NULL, 'testcard', 'c0.v1.raid_level', 'RAID5'),
	(1, 'start', NULL, 'testcard', 'c0.v0.d0.model', 'A'), (1, 'start', NULL, 'testcard', 'c0.v0.d1.model', 'A'),
	(1, 'start', NULL, 'testcard', 'c0.v1.d2.model', 'A'), (1, 'start', NULL, 'testcard', 'c0.v1.d3.model', 'A'),
	(1, 'start', NULL, 'testcard', 'c0.v1.d4.model', 'B'), (1, 'start', NULL, 'testcard', 'c0.d5.model', 'A'),
	(1, 'start', NULL, 'testcard', 'c1.status', 'cannot read')"
is "$(q cards.db "SELECT volume, raid_level, drives, drive_summary FROM run_volume
	WHERE run_id = 1 AND source = 'testcard' ORDER BY volume")" "v0|RAID1|2|2 x A
v1|RAID5|3|2 x A; 1 x B" "run_volume: each volume counts its own drives"
is "$(q cards.db "SELECT controller, target, model, volumes, drives, drive_summary, status FROM run_controller
	WHERE run_id = 1 AND source = 'testcard' ORDER BY controller")" "c0|/dev/sdb|X|2|6|5 x A; 1 x B|
c1|||0|0||cannot read" "run_controller: volumes, every drive behind it, a card not read"

# --- a file over 256 MiB: read-only commands check the runs table only -------------
# z.db grown to 300 MiB, sparse (SQLite goes by the size its header gives);
# damage PAGE FILE: garbage over that page of FILE
damage() { printf 'not a b-tree page%.0s' $(seq 200) | dd of="$2" bs=4096 seek=$(($1 - 1)) conv=notrunc 2>/dev/null; }
page=$(q z.db "SELECT min(pageno) FROM dbstat WHERE name = 'samples'")
runs_page=$(q z.db "SELECT min(pageno) FROM dbstat WHERE name = 'runs'")
q z.db "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null
cp z.db small.db && cp z.db big.db && truncate -s 300M big.db
damage "$page" small.db; damage "$page" big.db
"$HB" list --db small.db > out 2> err
like "$? $(cat err)" "^1 .*'small.db' is corrupt: .*quick_check" "a small file with a damaged samples page: list says corrupt"
"$HB" list --db big.db > out 2> err
is "$? $(grep -c raid5 out) $(cat err)" "0 3 " "a file over 256 MiB: list checks the runs table only, and lists"
"$HB" list --db big.db --check > out 2> err
like "$? $(cat err)" "^1 .*'big.db' is corrupt: .*integrity_check" "list --check checks it all"
damage "$runs_page" big.db
"$HB" show 1 --db big.db > out 2> err
like "$? $(cat err)" "^1 .*'big.db' is corrupt: .*quick_check" "a damaged runs page: show says corrupt"
done_testing
