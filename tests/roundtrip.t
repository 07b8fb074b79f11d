#!/usr/bin/env bash
# Export -> import -> export gives identical output (issue 10): a run's whole
# JSON document, and every table as CSV, read back from a second database that
# only ever saw the export; the imported run is refused a second time; a run
# exported from the copy imports back into a third database identically.
. "$(dirname "$0")/lib.sh"

PLAN="$ROOT/tests/fixtures/export/plan.lua"
A="$TMP/a.db" B="$TMP/b.db" C="$TMP/c.db"
TABLES="runs targets steps step_targets steady_state samples histograms probes events"
LABEL=$(printf 'card "A", <b>\xc3\xa9</b>\nline 2')

"$HB" run "$PLAN" --db "$A" --label "$LABEL" --set "name=a,\"b\" " -q 2>>"$TMP/stderr"
ok $? "a sim run with a label and step names that need quoting"
"$HB" export "$LABEL" --db "$A" --format json --out "$TMP/a.json"; ok $? "its whole-run JSON"
"$HB" import hbatest "$TMP/a.json" --db "$B" >/dev/null 2>>"$TMP/stderr"; ok $? "imported into a new database"
uuid=$(q "$A" "SELECT uuid FROM runs")
"$HB" export "$uuid" --db "$B" --format json --out "$TMP/b.json"; ok $? "exported again from there"
cmp -s "$TMP/a.json" "$TMP/b.json"; ok $? "the two JSON documents are identical"
[ "$(wc -c <"$TMP/a.json")" -gt 10000 ]; ok $? "and hold the run ($(wc -c <"$TMP/a.json") bytes)"

fail=""
for t in $TABLES; do
	"$HB" export "$uuid" --db "$A" --what "$t" --format csv --out "$TMP/a-$t.csv" &&
		"$HB" export "$uuid" --db "$B" --what "$t" --format csv --out "$TMP/b-$t.csv" &&
		cmp -s "$TMP/a-$t.csv" "$TMP/b-$t.csv" || fail="$fail $t"
done
is "${fail:-none}" none "every table as CSV is identical from both databases"
is "$(q "$B" "SELECT count(*) FROM samples")" "$(q "$A" "SELECT count(*) FROM samples")" \
	"the copy has every sample"
is "$(q "$B" "SELECT label FROM runs")" "$LABEL" "and the label, byte for byte"

hash=$(sha256sum "$B" | cut -d' ' -f1)
"$HB" import hbatest "$TMP/a.json" --db "$B" >/dev/null 2>"$TMP/err"; is $? 1 "importing it again fails"
like "$(cat "$TMP/err")" "$uuid|already" "naming the run already there"
is "$(sha256sum "$B" | cut -d' ' -f1)" "$hash" "and leaves the database as it was"

"$HB" import hbatest "$TMP/b.json" --db "$C" >/dev/null 2>>"$TMP/stderr" &&
	"$HB" export "$uuid" --db "$C" --format json --out "$TMP/c.json"
cmp -s "$TMP/a.json" "$TMP/c.json"; ok $? "a second generation (from the copy) is identical too"
"$HB" show "$uuid" --db "$C" >"$TMP/show" 2>&1; ok $? "show reads the imported run"
"$HB" list --db "$C" | grep -q "${uuid:0:8}"; ok $? "list shows it"

done_testing
