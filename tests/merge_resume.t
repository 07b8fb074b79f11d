#!/usr/bin/env bash
# hbatest merge and resumed runs: a run the archive holds unfinished that an
# input holds further along (resumed since) is brought forward, in place and
# with every row; an input's older copy leaves the archive as it is; a copy
# that neither holds all of the other is still refused, naming the run.
. "$(dirname "$0")/lib.sh"

cd "$TMP" || exit 1
cat > s.lua <<'LUA'
hb.plan{ name = "s", defaults = { engine = "sim", duration = 3, ramp = 0 } }
hb.targets = { "v" }
hb.run{ name = "read", rw = "randread", bs = "4k", oio = 4 }
hb.run{ name = "write", rw = "randwrite", bs = "4k", oio = 4 }
LUA
# slow.lua: a pause between its steps, long while HB_TEST_PAUSE says so
sed 's/^hb.run{ name = "write"/hb.sleep(tonumber(os.getenv("HB_TEST_PAUSE") or "0"))\n&/' s.lua > slow.lua

TABLES="runs targets steps step_targets samples histograms steady_state probes events"
# every row of run uuid $2 in every table, ids replaced by step seqs, sorted
dump_run() {
	local db=$1 uuid=$2 t cols
	for t in $TABLES; do
		cols=$(q "$db" "SELECT group_concat('quote(x.\"' || name || '\")', ' || ''|'' || ')
			FROM pragma_table_info('$t') WHERE name NOT IN ('id', 'run_id', 'step_id', 'first_step_id', 'last_step_id')")
		case $t in
		runs) q "$db" "SELECT 'runs|' || $cols FROM runs x WHERE uuid = '$uuid'" ;;
		step_targets|samples|histograms)
			q "$db" "SELECT '$t|' || s.seq || '|' || $cols FROM $t x JOIN steps s ON s.id = x.step_id
				JOIN runs r ON r.id = s.run_id WHERE r.uuid = '$uuid'" ;;
		*) q "$db" "SELECT '$t|' || $cols FROM $t x JOIN runs r ON r.id = x.run_id WHERE r.uuid = '$uuid'" ;;
		esac
	done | LC_ALL=C sort
}

# --- the tester's sequence ------------------------------------------------------
"$HB" run s.lua --db bench.db --label first -q 2>>stderr
HB_TEST_PAUSE=60 "$HB" run slow.lua --db bench.db --label night1 -q 2>>stderr &
pid=$!
for _ in $(seq 300); do	# killed in its pause, step 1 done
	[ "$(q bench.db "SELECT count(*) FROM steps JOIN runs r ON r.id = run_id
		WHERE r.label = 'night1' AND steps.status = 'done'" 2>/dev/null)" = 1 ] && break
	sleep 0.1
done
kill -KILL $pid; wait $pid 2>/dev/null
uuid=$(q bench.db "SELECT uuid FROM runs WHERE label = 'night1'")
like "$("$HB" list --db bench.db)" "night1 +interrupted +.* 1/2 " "night1 killed between its steps: interrupted, step 1 done"
out=$("$HB" merge archive.db bench.db 2>&1); rc=$?
is "$rc $out" "0 'bench.db': 2 new runs copied, 0 already present" "merged with night1 interrupted"
cp archive.db early-archive.db; cp bench.db early-bench.db
"$HB" run slow.lua --resume --db bench.db -q 2>>stderr; ok $? "night1 resumed to the end"
"$HB" run s.lua --db bench.db --label night2 -q 2>>stderr; ok $? "then night2"
night1_id=$(q archive.db "SELECT id FROM runs WHERE uuid = '$uuid'")
out=$("$HB" merge archive.db bench.db 2>err); rc=$?
is "$rc" 0 "merging again: exit 0 (was 1: night1's runs rows differ)"
is "$out" "'bench.db': 1 new run copied, 1 already present, 1 run brought forward" \
	"it says night2 was copied and night1 brought forward"
like "$(cat err)" "run $uuid \('night1'\) brought forward in 'archive.db' \(interrupted -> done\)" \
	"naming the run and both states"
dump_run archive.db "$uuid" > got; dump_run bench.db "$uuid" > want
[ -s want ] && cmp -s got want; ok $? "night1's rows in the archive are the input's, every table"
[ $? -eq 0 ] || diff got want | head -5 | sed 's/^/#   /'
is "$(q archive.db "SELECT id FROM runs WHERE uuid = '$uuid'")" "$night1_id" "under the id it had in the archive"
is "$(q archive.db "SELECT group_concat(label || ':' || status, ' ') FROM runs ORDER BY id")" \
	"first:done night1:done night2:done" "night2 reached the archive"
is "$(q archive.db 'PRAGMA foreign_key_check')" "" "no row points at a missing run or step"
is "$(q archive.db "SELECT count(*) FROM steps") $(q archive.db "SELECT count(*) FROM samples")" \
	"$(q bench.db "SELECT count(*) FROM steps") $(q bench.db "SELECT count(*) FROM samples")" \
	"none of night1's old rows is left behind (as many steps and samples as the input)"
out=$("$HB" merge archive.db bench.db 2>&1); rc=$?
is "$rc $out" "0 'bench.db': 0 new runs copied, 3 already present" "merging the same input again: nothing to do"

# --- an older copy: the archive keeps its own --------------------------------------
sum=$(sha256sum < archive.db)
out=$("$HB" merge archive.db early-bench.db 2>err); rc=$?
is "$rc $out" "0 'early-bench.db': 0 new runs copied, 1 already present, 1 older than the archive's copy (kept)" \
	"an input holding night1 interrupted, the archive done: exit 0, kept"
like "$(cat err)" "run $uuid \('night1'\) is further along in 'archive.db' \(done, here interrupted\): kept" "and says so"
is "$(sha256sum < archive.db)" "$sum" "the archive is byte-identical (never a done run replaced by an unfinished one)"

# --- aborted and failed runs move forward too; a resume --force's plan comes along -
for st in aborted failed; do
	cp early-archive.db "$st.db"
	q "$st.db" "UPDATE runs SET status = '$st', finished_at = heartbeat_at WHERE uuid = '$uuid'"
	out=$("$HB" merge "$st.db" bench.db 2>err); rc=$?
	like "$rc $out $(cat err)" "^0 .*1 run brought forward.*\($st -> done\)" "an archived $st run is brought forward"
done
cp bench.db forced.db
q forced.db "UPDATE runs SET plan_text = plan_text || '-- edited', plan_sha256 = 'f00d' WHERE uuid = '$uuid'"
cp early-archive.db forced-archive.db
out=$("$HB" merge forced-archive.db forced.db 2>&1); rc=$?
is "$rc $(q forced-archive.db "SELECT plan_sha256 FROM runs WHERE uuid = '$uuid'")" "0 f00d" \
	"a run resumed with --force (another plan hash): brought forward with its new plan"

# --- resumed and killed again, before any new step: still unfinished, but further -
cp early-bench.db again.db
HB_TEST_PAUSE=60 "$HB" run slow.lua --resume --db again.db -q 2>>stderr &
pid=$!
for _ in $(seq 300); do	# in its pause again
	[ "$(q again.db "SELECT count(*) FROM events WHERE message LIKE '%done earlier%'" 2>/dev/null)" = 1 ] && break
	sleep 0.1
done
kill -KILL $pid; wait $pid 2>/dev/null
cp early-archive.db again-archive.db
out=$("$HB" merge again-archive.db again.db 2>err); rc=$?
like "$rc $out $(cat err)" "^0 .*1 run brought forward.*\(interrupted -> interrupted\)" \
	"an input that resumed night1 and was killed again (its log longer): brought forward"
out=$("$HB" merge again-archive.db early-bench.db 2>/dev/null); rc=$?
like "$rc $out" "^0 .*1 older than the archive's copy \(kept\)" "and the copy before that resume is older"

: refused, nothing written -----------------------
cp bench.db contra.db
q contra.db "UPDATE steps SET iops = iops + 1 WHERE seq = 1 AND run_id = (SELECT id FROM runs WHERE uuid = '$uuid')"
cp early-archive.db c1.db; sum=$(sha256sum < c1.db)
out=$("$HB" merge c1.db contra.db 2>&1); rc=$?
like "$rc $out" "^1 .*error: run $uuid \('night1'\) of 'contra.db' is in 'c1.db' too, with other content \(its runs rows differ\): nothing of 'contra.db' was merged" \
	"an input whose step 1 (done in the archive) has other results: refused, naming the run"
is "$(sha256sum < c1.db)" "$sum" "the archive is byte-identical (night2 not copied either)"
cp early-archive.db c2.db
q c2.db "INSERT INTO events (run_id, at, level, message) SELECT id, '2000-01-01T00:00:00Z', 'info', 'only here' FROM runs WHERE uuid = '$uuid'"
sum=$(sha256sum < c2.db)
out=$("$HB" merge c2.db bench.db 2>&1); rc=$?
like "$rc $out" "^1 .*run $uuid \('night1'\) .*with other content" "an archived copy with an event the input lacks: refused"
is "$(sha256sum < c2.db)" "$sum" "and nothing written"
cp early-archive.db c3.db
q c3.db "UPDATE runs SET label = 'renamed' WHERE uuid = '$uuid'"
out=$("$HB" merge c3.db bench.db 2>&1); rc=$?
like "$rc $out" "^1 .*run $uuid \('night1'\) .*with other content \(its runs rows differ\)" \
	"a copy whose label (a column no resume changes) differs: refused"
cp early-archive.db c4.db	# an event twice in the archive, once in the input: rows as a multiset
q c4.db "INSERT INTO events (run_id, at, level, message) SELECT run_id, at, level, message FROM events
	WHERE id = (SELECT min(e.id) FROM events e JOIN runs r ON r.id = e.run_id WHERE r.uuid = '$uuid')"
sum=$(sha256sum < c4.db)
out=$("$HB" merge c4.db bench.db 2>&1); rc=$?
like "$rc $out" "^1 .*run $uuid \('night1'\) .*with other content" "an archived copy with an event twice that the input has once: refused (its second is not the input's)"
is "$(sha256sum < c4.db)" "$sum" "and nothing written"

done_testing
