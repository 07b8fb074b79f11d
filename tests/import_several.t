#!/usr/bin/env bash
# import of several files is all or nothing: every file is checked (read,
# written and rolled back) before any is kept, so one bad file, one imported
# already or one given twice leaves the database as it was, naming each.
. "$(dirname "$0")/lib.sh"

DB=$TMP/i.db
F=$ROOT/tests/fixtures
cp "$F/fio/qd1.json" "$TMP/good.json"
cp "$F/fio/mix.json" "$TMP/good2.json"
printf '{ "fio version": \n' > "$TMP/bad.json"
runs() { sqlite3 "$1" "SELECT count(*) FROM runs" 2>/dev/null || echo none; }

out=$("$HB" import fio "$TMP/good.json" "$TMP/bad.json" --db "$DB" 2>&1); rc=$?
is "$rc" 1 "a good and a bad file: exit 1"
like "$out" "bad\.json:2:1: truncated JSON" "the bad one named, with its error"
like "$out" "nothing imported: 1 of the 2 files given is refused" "and that nothing was imported"
! grep -q "^imported" <<<"$out"; ok $? "no 'imported' line for the good one"
[ ! -e "$DB" ]; ok $? "no database left behind"

"$HB" import fio "$TMP/good.json" --db "$DB" >/dev/null; ok $? "the good one alone"
sum=$(sha256sum "$DB")
out=$("$HB" import fio "$TMP/good2.json" "$TMP/good.json" --db "$DB" 2>&1); rc=$?
is "$rc" 1 "a new file and one imported already: exit 1"
like "$out" "good\.json: already imported as run 1" "the one imported already named"
is "$(runs "$DB")" 1 "the new one is not imported either"
is "$(sha256sum "$DB")" "$sum" "the database is byte-identical"

out=$("$HB" import fio "$TMP/good2.json" "$TMP/good2.json" --db "$DB" 2>&1); rc=$?
like "$rc $out" "^1 .*'$TMP/good2\.json' holds what '$TMP/good2\.json' does: give it once" \
	"a file given twice: refused before either is imported"
is "$(runs "$DB")" 1 "nothing imported"

cp "$F/iometer/results-2006.07.27.csv" "$TMP/a.csv"
out=$("$HB" import iometer "$TMP/a.csv" "$TMP/good.json" --db "$TMP/m.db" 2>&1); rc=$?
is "$rc $(runs "$TMP/m.db")" "1 none" "iometer: a good CSV and a file that is not one: nothing imported"

out=$("$HB" import fio "$TMP/good2.json" "$TMP/good.json" --db "$TMP/two.db" 2>&1); rc=$?
is "$rc $(runs "$TMP/two.db")" "0 2" "two good files: both imported"
is "$(grep -c '^imported ' <<<"$out")" 2 "each said once (the check pass says nothing)"
done_testing
