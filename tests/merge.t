#!/usr/bin/env bash
# hbatest merge OUT.db IN.db...: runs copied by uuid with every row that
# hangs off them (compared by uuid and step seq, never by id), idempotent,
# inputs never changed, conflicts refused with nothing written, an older
# input read as it is, and list and report over the archive.
. "$(dirname "$0")/lib.sh"
# V: this hbatest's schema version (db/schema.sql's last line)
V=$(sed -n 's/^PRAGMA user_version = \([0-9]*\);$/\1/p' "$ROOT/db/schema.sql")

cd "$TMP" || exit 1
cat > plan.lua <<'LUA'
hb.plan{ name = "bench", defaults = { engine = "sim", workers = 1, duration = 2, ramp = 1 } }
hb.targets = { "a", "b" }
hb.run{ name = "4k read", rw = "randread", bs = "4k", oio = 8 }
hb.run{ name = "4k write", rw = "randwrite", bs = "4k", oio = 8 }
local ss = hb.steady{ name = "ss", workload = { rw = "randwrite", bs = "4k", oio = 8 },
                      round = 1, max_rounds = 6 }
hb.log("steady state: " .. tostring(ss.attained))
LUA
"$HB" run plan.lua --db bench1.db --label "bench 1" -q 2>>stderr &&
"$HB" run plan.lua --db bench2.db --label "bench 2a" -q 2>>stderr &&
"$HB" run plan.lua --db bench2.db --label "bench 2b" -q 2>>stderr
ok $? "two benches' databases (three sim runs)"

TABLES="runs targets steps step_targets samples histograms steady_state probes events"
# every row of every table, ids replaced by the run's uuid and the step's seq,
# one line a row (newlines in values escaped), sorted
dump() {
	local db=$1 t cols
	for t in $TABLES; do
		cols=$(q "$db" "SELECT group_concat('replace(quote(x.\"' || name || '\"), char(10), ''\\n'')', ' || ''|'' || ')
			FROM pragma_table_info('$t') WHERE name NOT IN ('id', 'run_id', 'step_id', 'first_step_id', 'last_step_id')")
		case $t in
		runs) q "$db" "SELECT 'runs|' || $cols FROM runs x" ;;
		step_targets|samples|histograms)
			q "$db" "SELECT '$t|' || r.uuid || '|' || s.seq || '|' || $cols FROM $t x
				JOIN steps s ON s.id = x.step_id JOIN runs r ON r.id = s.run_id" ;;
		steady_state)
			q "$db" "SELECT '$t|' || r.uuid || '|' || (SELECT seq FROM steps WHERE id = x.first_step_id)
				|| '|' || (SELECT seq FROM steps WHERE id = x.last_step_id) || '|' || $cols
				FROM $t x JOIN runs r ON r.id = x.run_id" ;;
		*) q "$db" "SELECT '$t|' || r.uuid || '|' || $cols FROM $t x JOIN runs r ON r.id = x.run_id" ;;
		esac
	done | LC_ALL=C sort
}
counts() { for t in $TABLES; do printf '%s=%s ' "$t" "$(q "$1" "SELECT count(*) FROM $t")"; done; }

for t in $TABLES; do
	[ "$(q bench2.db "SELECT count(*) FROM $t")" -gt 0 ] || echo "$t"
done > empty
is "$(cat empty)" "" "the inputs have rows in every table (targets, step_targets, steady_state, probes...)"
sum1=$(sha256sum < bench1.db); sum2=$(sha256sum < bench2.db)

# --- merge ------------------------------------------------------------------------
out=$("$HB" merge archive.db bench1.db bench2.db 2>err); rc=$?
is "$rc" 0 "merge into a new archive: exit 0"
is "$out" "'bench1.db': 1 new run copied, 0 already present
'bench2.db': 2 new runs copied, 0 already present" "it says what each input gave"
is "$(q archive.db 'PRAGMA user_version')" "$V" "the archive is created at the current schema version"
is "$(sha256sum < bench1.db) $(sha256sum < bench2.db)" "$sum1 $sum2" "the inputs are byte-identical"
is "$(ls | grep -c -- '-wal$\|-shm$')" 0 "and no -wal or -shm file is left beside them"
dump archive.db > got; { dump bench1.db; dump bench2.db; } | LC_ALL=C sort > want
[ -s want ] && cmp -s got want; ok $? "every table's rows are the inputs', matched by uuid and step seq"
[ $? -eq 0 ] || diff got want | head -5 | sed 's/^/#   /'
is "$(q archive.db "SELECT count(*) FROM steady_state x JOIN steps f ON f.id = x.first_step_id
	JOIN steps l ON l.id = x.last_step_id WHERE f.run_id = x.run_id AND l.run_id = x.run_id")" 3 \
	"steady_state's first and last step ids point at steps of their own run"
is "$(q archive.db 'PRAGMA foreign_key_check')" "" "no row points at a missing run or step"

# --- idempotent -------------------------------------------------------------------
before=$(counts archive.db)
out=$("$HB" merge archive.db bench1.db bench2.db bench2.db 2>err); rc=$?
is "$rc" 0 "merging the same inputs again (bench2.db twice): exit 0"
like "$out" "^'bench1.db': 0 new runs copied, 1 already present" "it says 0 new runs"
is "$(echo "$out" | grep -c "'bench2.db': 0 new runs copied, 2 already present")" 2 \
	"an input given twice on one command line adds nothing the second time"
is "$(counts archive.db)" "$before" "no table gained a row"

# --- conflicts --------------------------------------------------------------------
cp bench1.db changed.db
q changed.db "UPDATE steps SET iops = iops + 1 WHERE seq = 2"
uuid=$(q bench1.db "SELECT uuid FROM runs")
"$HB" run plan.lua --db bench3.db --label "bench 3" -q 2>>stderr
"$HB" merge mixed.db bench3.db changed.db >/dev/null 2>&1
is "$(q mixed.db 'SELECT count(*) FROM runs')" 2 "an input holding a new run and a changed copy of bench 1"
sum=$(sha256sum < archive.db)
out=$("$HB" merge archive.db mixed.db 2>&1); rc=$?
is "$rc" 1 "a uuid in both with other content: exit 1"
like "$out" "error: run $uuid \('bench 1'\) of 'mixed.db' is in 'archive.db' too, with other content \(its steps rows differ\)" \
	"the error names the run's uuid and label"
is "$(sha256sum < archive.db)" "$sum" "the archive is byte-identical: not even the new run of that input is written"
cp bench1.db relabelled.db; q relabelled.db "UPDATE runs SET label = 'other'"
out=$("$HB" merge archive.db relabelled.db 2>&1); rc=$?
like "$rc $out" "^1 .*run $uuid \('other'\) .*\(its runs rows differ\)" "a changed runs row is a conflict too"
cp bench1.db fewer.db; q fewer.db "DELETE FROM samples WHERE t = 1"
out=$("$HB" merge archive.db fewer.db 2>&1); rc=$?
like "$rc $out" "^1 .*\(its samples rows differ\)" "so are missing samples"
out=$("$HB" merge archive.db changed.db bench3.db 2>&1); rc=$?
like "$rc $(echo $out)" "^1 .*'changed.db' .* 'bench3.db': 1 new run copied" \
	"one input in conflict: the others are still merged, exit 1"

# --- bad arguments ----------------------------------------------------------------
out=$("$HB" merge new.db bench1.db missing.db 2>&1); rc=$?
like "$rc $out" "^1 .*cannot read database 'missing.db': No such file" "a missing input: exit 1, named"
[ ! -e new.db ]; ok $? "and nothing is created"
out=$("$HB" merge archive.db ./archive.db 2>&1); rc=$?
like "$rc $out" "^2 .*'./archive.db' is the output" "OUT as an input: refused (exit 2)"
ln -s archive.db link.db
out=$("$HB" merge link.db bench1.db archive.db 2>&1); rc=$?
like "$rc $out" "^2 .*'archive.db' is the output" "also through a symlink"
out=$("$HB" merge archive.db 2>&1); rc=$?
like "$rc $out" "^2 .*at least one input" "no input: usage, exit 2"
cp bench1.db newer.db; q newer.db "PRAGMA user_version = 99"
out=$("$HB" merge archive.db newer.db 2>&1); rc=$?
like "$rc $out" "^1 .*'newer.db' has schema version 99; this hbatest knows up to $V" "a newer input: refused naming both versions"
printf 'not a database at all, not at all, really not' > junk.db
out=$("$HB" merge archive.db junk.db 2>&1); rc=$?
like "$rc $out" "^1 .*cannot open database 'junk.db': file is not a database" "a file that is not a database: named"
out=$("$HB" merge fresh.db junk.db 2>&1); rc=$?
like "$rc $(tail -1 <<<"$out")" "^1 .*nothing merged: 'fresh.db' is not created" "into a new OUT, only inputs that fail: says nothing was merged"
[ -z "$(ls fresh.db* 2>/dev/null)" ]; ok $? "and leaves no empty OUT behind (nor its -wal or -shm)"
out=$("$HB" merge fresh.db junk.db bench1.db 2>&1); rc=$?
[ "$rc" = 1 ] && [ "$(q fresh.db "SELECT count(*) FROM runs")" -ge 1 ]; ok $? "one input failing of two: exit 1, OUT kept with what merged"
mkdir arch; ln -s arch/real.db linked.db
"$HB" merge linked.db junk.db >/dev/null 2>&1
[ -L linked.db ]; ok $? "OUT a link to nothing, nothing merged: the link is not removed (it was not made here)"

# --- running and interrupted runs ------------------------------------------------
cp bench1.db live.db
q live.db "UPDATE runs SET uuid = 'live-0000', status = 'running', finished_at = NULL, pid = $$"
out=$("$HB" merge archive.db live.db 2>&1); rc=$?
like "$rc $out" "^0 .*warning: 'live.db': run live-0000 \('bench 1'\) is still running: skipped" \
	"a run whose process is alive is skipped with a warning"
like "$out" "0 new runs copied, 0 already present, 1 still running \(skipped\)" "and counted as such"
sleep 0 & gone=$!; wait $gone
q live.db "UPDATE runs SET pid = $gone"
out=$("$HB" merge archive.db live.db 2>&1); rc=$?
like "$rc $out" "^0 'live.db': 1 new run copied" "once its process is gone (interrupted), it is copied"
like "$("$HB" list --db archive.db)" "live-000 +bench 1 +interrupted" "and reads as interrupted"

# --- an input of the first schema version, read as it is ------------------------
sqlite3 v1.db < "$ROOT/tests/fixtures/report/schema-1.sql"
for t in $TABLES; do
	cols=$(q v1.db "SELECT group_concat(name, ', ') FROM pragma_table_info('$t')")
	q v1.db "ATTACH 'bench3.db' AS n; INSERT INTO main.$t ($cols) SELECT $cols FROM n.$t"
done
q v1.db "UPDATE runs SET uuid = 'v1-run', label = 'old bench'"
sum=$(sha256sum < v1.db)
out=$("$HB" merge fromv1.db v1.db 2>&1); rc=$?
like "$rc $out" "^0 'v1.db': 1 new run copied" "a schema-1 input is merged"
is "$(sha256sum < v1.db) $(q v1.db 'PRAGMA user_version')" "$sum 1" "and left as it was (version 1, byte-identical)"
is "$(q fromv1.db "SELECT source || ' ' || count(*) FROM runs JOIN steps ON steps.run_id = runs.id WHERE uuid = 'v1-run'")" \
	"hbatest 7" "its run and steps are in the archive; columns it lacks take their defaults"
is "$(q fromv1.db "SELECT count(*) FROM samples") $(q fromv1.db "SELECT count(*) FROM probes")" \
	"$(q bench3.db "SELECT count(*) FROM samples") $(q bench3.db "SELECT count(*) FROM probes")" "with its samples and probes"

# --- the archive is an ordinary database ----------------------------------------
like "$(echo $("$HB" list --db archive.db))" "bench 1.*bench 2a.*bench 2b.*bench 3" "list over the archive shows every bench's run"
[ "$("$HB" list --db archive.db | grep -c simulated)" -eq 5 ]; ok $? "five runs"
"$HB" report "bench 1" "bench 2a" --db archive.db --out report --no-charts >/dev/null 2>&1; ok $? "a report over the archive"
like "$(cat report/index.html 2>/dev/null)" "bench 2a" "compares runs of two benches"

done_testing
