#!/usr/bin/env bash
# runs.steps_planned (schema 5): the steps a run's plan will run, counted by
# the dry pass and stored with the run row, so `list` shows a run stopped at
# step 3 of 8 as "2/8", not "2/3" (done/started). --resume stores the count
# of the plan it replays; a plan that ran to its end stores the steps it ran.
# merge and export/import carry it; fio and Iometer imports set it; a schema-4
# database is migrated (NULL: not known) and lists as before.
. "$(dirname "$0")/lib.sh"
# V: this hbatest's schema version (db/schema.sql's last line)
V=$(sed -n 's/^PRAGMA user_version = \([0-9]*\);$/\1/p' "$ROOT/db/schema.sql")

cd "$TMP" || exit 1
TABLES="runs targets steps step_targets samples histograms steady_state probes events"
cat > plan.lua <<'LUA'
hb.plan{ name = "eight", defaults = { engine = "null", targets = "v", duration = 1,
                                      rw = "randread", bs = "4k", oio = 1 } }
for i = 1, 8 do hb.run{ name = "step " .. i } end
LUA
cp plan.lua plan.orig

# --- a run interrupted mid-plan ------------------------------------------------
"$HB" run plan.lua --db bench.db --label eight -q 2>bench.err &
pid=$!
for _ in $(seq 300); do	# until two of its steps are done
	n=$(q bench.db "SELECT count(*) FROM steps WHERE status = 'done'" 2>/dev/null)
	[ "${n:-0}" -ge 2 ] && break
	sleep 0.1
done
is "$(q bench.db 'SELECT status, steps_planned FROM runs')" "running|8" \
	"while it runs, the run row holds the 8 steps its dry pass counted"
kill -INT $pid
for _ in $(seq 600); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
kill -KILL $pid 2>/dev/null; wait $pid; is $? 130 "SIGINT mid-plan: exit 130"
k=$(q bench.db "SELECT count(*) FROM steps WHERE status = 'done'")
started=$(q bench.db "SELECT count(*) FROM steps")
[ "$k" -ge 2 ] && [ "$started" -gt "$k" ] && [ "$started" -lt 8 ]
ok $? "stopped mid-plan: $k steps done, $started started, of 8"
like "$("$HB" list --db bench.db)" "^ +1 +[0-9a-f]{8} +eight +aborted +[0-9T:-]+ +$k/8 +plan.lua$" \
	"list: $k/8, the steps done of the plan's 8 (not $k/$started)"
like "$("$HB" show 1 --db bench.db)" "^  steps +$k done, $started started, 8 planned$" \
	"show: done, started and planned"
cp bench.db bench-stopped.db

# --- merge and export/import carry it -------------------------------------------
"$HB" merge arch.db bench.db >/dev/null 2>>err; ok $? "merged into an archive"
is "$(q arch.db 'SELECT steps_planned FROM runs')" 8 "merge copies steps_planned"
like "$("$HB" list --db arch.db)" " eight +aborted +[0-9T:-]+ +$k/8 " "the archive lists $k/8"
"$HB" export 1 --db bench.db --format json --out run.json; ok $? "exported as JSON"
like "$(cat run.json)" '"steps_planned": 8' "the export holds steps_planned"
"$HB" import hbatest run.json --db imp.db >/dev/null 2>>err; ok $? "imported into a new database"
is "$(q imp.db 'SELECT steps_planned FROM runs')" 8 "import keeps steps_planned"
"$HB" export 1 --db imp.db --format json --out run2.json && cmp -s run.json run2.json
ok $? "export, import, export: the same document"
like "$("$HB" list --db imp.db)" " eight +aborted +[0-9T:-]+ +$k/8 " "the copy lists $k/8"
"$HB" export 1 --db bench.db --what runs --format csv | head -1 | tr , '\n' | grep -qx steps_planned
ok $? "the runs CSV has the column"
"$HB" import hbatest "$ROOT/tests/fixtures/export/run.json" --db old-export.db >/dev/null 2>>err
is "$(q old-export.db "SELECT group_concat(quote(steps_planned)) FROM runs")" NULL \
	"a schema-4 export imports with steps_planned NULL (not known)"

# --- a schema-4 database: migrated, its runs list as before --------------------
# make_v4 FILE: schema 1 and the migrations to 4, as an older hbatest made
# it, holding the rows of bench-stopped.db that schema 4 has
make_v4() {
	sqlite3 "$1" < "$ROOT/tests/fixtures/report/schema-1.sql" || return 1
	for v in 0002 0003 0004; do sqlite3 "$1" < "$(echo "$ROOT"/db/migrations/$v-*.sql)" || return 1; done
	q "$1" "PRAGMA user_version = 4"
	for t in $TABLES; do
		cols=$(q "$1" "SELECT group_concat(name, ', ') FROM pragma_table_info('$t')")
		q "$1" "ATTACH 'bench-stopped.db' AS n; INSERT INTO main.$t ($cols) SELECT $cols FROM n.$t" || return 1
	done
	q "$1" "UPDATE runs SET uuid = 'v4-run-0000', label = 'old bench'"
}
make_v4 v4.db; ok $? "a schema-4 database holding the stopped run"
is "$(q v4.db 'PRAGMA user_version') $(q v4.db "SELECT count(*) FROM pragma_table_info('runs') WHERE name = 'steps_planned'")" \
	"4 0" "at version 4, without the column"
cp v4.db v4-input.db
sum=$(sha256sum < v4.db)
out=$("$HB" list --db v4.db 2>err); rc=$?
like "$rc $(cat err)" "^0 .*database 'v4.db' has schema version 4: copied it to 'v4.db.bak-v4' before migrating it to version $V" \
	"list migrates it, after a copy to v4.db.bak-v4"
is "$(sha256sum < v4.db.bak-v4) $(q v4.db 'PRAGMA user_version')" "$sum $V" "the copy is byte-identical; the file is at version $V"
is "$(q v4.db 'SELECT quote(steps_planned) FROM runs')" NULL "the old run's steps_planned is NULL (not known)"
like "$out" "^ +1 +v4-run-0 +old bench +aborted +[0-9T:-]+ +$k/$started +plan.lua$" \
	"it lists as before: $k/$started, done of started"
like "$("$HB" show 1 --db v4.db)" "^  steps +$k done, $started started$" \
	"show: done and started, no planned count"
"$HB" merge arch.db v4-input.db >/dev/null 2>>err; ok $? "a schema-4 input merges"
is "$(q arch.db "SELECT quote(steps_planned) FROM runs WHERE uuid = 'v4-run-0000'")" NULL \
	"its run has no planned count in the archive"
like "$("$HB" list --db arch.db)" "v4-run-0 +old bench +aborted +[0-9T:-]+ +$k/$started " "and lists as before there"

# --- resume ---------------------------------------------------------------------
# a changed plan (10 steps, step 1 different) with --force: the replay stops
# at step 1, and the run keeps the plan it was measured with and its count
sed -e 's/for i = 1, 8/for i = 1, 10/' -e 's/name = "step " .. i/name = "step " .. i, oio = 2/' plan.orig > plan.lua
out=$("$HB" run --resume --force --db bench.db 2>&1); is $? 1 "--resume --force of a plan whose step 1 changed: exit 1"
like "$out" "step 1 'step 1' is not the step run 1 did there" "the replay stops at step 1"
is "$(q bench.db 'SELECT status, steps_planned FROM runs')" "failed|8" \
	"the run keeps the plan it ran and its count, 8 (a replay that failed stores nothing of the new plan)"
like "$("$HB" list --db bench.db)" " eight +failed +[0-9T:-]+ +$k/8 " "list: $k/8"
cp plan.orig plan.lua
"$HB" run --resume --db bench.db -q 2>>err; ok $? "resumed with the plan of 8 steps again, without --force: it finishes"
is "$(q bench.db 'SELECT status, steps_planned FROM runs') $(q bench.db 'SELECT count(*) FROM steps')" "done|8 8" \
	"done, 8 planned, 8 steps"
like "$("$HB" list --db bench.db)" " eight +done +[0-9T:-]+ +8/8 " "list: 8/8"

# --- a plan that branches on results: the count of what ran ---------------------
cat > branch.lua <<'LUA'
hb.plan{ defaults = { engine = "null", targets = "v", duration = 1, rw = "randread", bs = "4k", oio = 1 } }
local r = hb.run{ name = "first" }
if r.dry then	-- the dry pass's zero figures take this branch, the real pass not
  hb.run{ name = "only in the dry pass" }
  hb.run{ name = "and this one" }
end
LUA
"$HB" run branch.lua --db br.db -q 2>>err; ok $? "a plan whose dry pass counts 3 steps and runs 1"
is "$(q br.db 'SELECT status, steps_planned FROM runs')" "done|1" "at its end the run stores the 1 step it ran"
like "$("$HB" list --db br.db)" " done +[0-9T:-]+ +1/1 " "list: 1/1, not 1/3"
q br.db "UPDATE runs SET status = 'aborted', steps_planned = 0"
like "$("$HB" list --db br.db)" " aborted +[0-9T:-]+ +1/1 " "fewer planned than started (a branch ran more): done/started"

# --- the steps column is as wide as its widest value ----------------------------
cp bench.db wide.db
for n in 1234 12345; do
	q wide.db "INSERT INTO runs (uuid, plan_path, plan_sha256, plan_text, started_at, status, steps_planned)
		VALUES ('wide-$n', 'big.lua', 'x', 'x', '2026-01-01T00:00:00Z', 'done', $n);
		WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < $n)
		INSERT INTO steps (run_id, seq, kind, name, params_json, status)
		SELECT (SELECT id FROM runs WHERE uuid = 'wide-$n'), i, 'measure', 'x', '{}', 'done' FROM s"
done
"$HB" list --db wide.db > wide.out
like "$(cat wide.out)" " 1234/1234 " "list: 1234/1234"
like "$(cat wide.out)" " 12345/12345 " "list: 12345/12345"
is "$(awk 'NR == 1 { col = index($0, "plan") } NR > 1 { match($0, /[^ ]+$/); if (RSTART != col) bad++ }
	END { print bad ? "misaligned" : "aligned" }' wide.out)" aligned "every row's plan starts under the header's"

# --- imports set it: the steps of a file that ran to its end --------------------
if command -v fio >/dev/null; then
	fio --output-format=json --ioengine=null --size=4m --name=a --rw=randread --bs=4k \
		--name=b --stonewall --rw=read --bs=64k > fio.json 2>fio.err
	"$HB" import fio fio.json --db fio.db --label fio >/dev/null 2>>err; ok $? "import fio: two jobs"
	is "$(q fio.db 'SELECT steps_planned, (SELECT count(*) FROM steps) FROM runs')" "2|2" \
		"fio: steps_planned is its 2 jobs"
else
	skip "fio not installed"; skip "fio not installed"
fi
FIX="$ROOT/tests/fixtures/iometer"
"$HB" import iometer "$FIX/results-1.1.0-multi.csv" "$FIX/results-aborted.csv" --db iom.db >/dev/null 2>>err
ok $? "import iometer: a multi-test file and an aborted test"
is "$(q iom.db "SELECT count(*) > 1, sum(steps_planned IS NOT (SELECT count(*) FROM steps WHERE run_id = runs.id)) FROM runs WHERE status = 'done'")" \
	"1|0" "iometer: each finished test plans the steps it holds"
is "$(q iom.db "SELECT group_concat(quote(steps_planned)) FROM runs WHERE status = 'aborted'")" NULL \
	"iometer: an aborted test's plan is not known (NULL)"

done_testing
