#!/usr/bin/env bash
# hbatest report on values a run never stores but a database may hold (an
# import of before the importers refused them, an old database, a hand edit
# with sqlite3): Inf where IOPS belong, text in a column of numbers, an OIO
# that is no number, histograms and parameters that are not JSON. The report
# ends with exit 0, says once per column what it read as missing, shows it
# as missing ("–", no point) and its charts render. Then every column of
# every table in turn, and random cells, set to such values: no report ends
# in a Lua error.
. "$(dirname "$0")/lib.sh"

command -v gnuplot >/dev/null || { skip "gnuplot is not installed (apt-get install gnuplot-nox)"; done_testing; exit 0; }

DB="$TMP/base.db"
for label in one two; do
	"$HB" run "$ROOT/tests/fixtures/report/every-chart-plan.lua" --db "$DB" --label "$label" \
		--allow-exec -q 2>>"$TMP/stderr" || echo "# run $label failed"
done
q "$DB" 'PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null
is "$(q "$DB" 'SELECT count(*) FROM runs WHERE status = "done"')" 2 "two runs of every chart kind"

# report FILE.db OUT [OPTIONS]: exit status; stderr in $TMP/err
report() {
	local db=$1 out=$2
	shift 2
	"$HB" report 1 2 --db "$db" --out "$out" "$@" >/dev/null 2>"$TMP/err"
}
# hostile NAME SQL: a copy of the database with SQL applied, as $TMP/NAME.db
hostile() {
	cp "$DB" "$TMP/$1.db"
	q "$TMP/$1.db" "$2"
}
no_lua_error() { ! grep -qE 'stack traceback|attempt to|bad argument' "$TMP/err"; }
well_formed() {	# every SVG of a report parses as XML
	local f
	for f in "$1"/charts/*.svg; do
		python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' "$f" 2>/dev/null ||
			xmllint --noout "$f" 2>/dev/null || { echo "# not XML: $f"; return 1; }
	done
}
xml_ok=0
command -v python3 >/dev/null || command -v xmllint >/dev/null || xml_ok=1

# --- Inf IOPS (a fio JSON with "iops" : 1e400 imported so) --------------------------
step=$(q "$DB" "SELECT id FROM steps WHERE run_id = 1 AND name = 'rr2'")
hostile inf "UPDATE steps SET iops = 1e999, lat_p99_us = -1e999 WHERE id = $step"
report "$TMP/inf.db" "$TMP/inf"; ok $? "Inf IOPS and -Inf p99: report exits 0"
no_lua_error; ok $? "and no Lua error"
like "$(cat "$TMP/err")" "warning: the database holds Inf in column 'iops': the report reads it as missing" \
	"it says Inf is read as missing, naming the column"
is "$(grep -c "holds Inf in column 'iops'" "$TMP/err")" 1 "once a column"
like "$(tr -d '\n' < "$TMP/inf/index.html")" '<td>4k randread, oio 2</td><td class="metric">IOPS</td><td class="num">–</td>' \
	"the summary shows the value as missing"
is "$(awk '/^# series 1/ { s = 1; next } /^# series/ { s = 0 } s && $1 == 2' "$TMP/inf/charts/"*-oio-4k-randread.tsv | cut -f2)" "NaN" \
	"the OIO chart has no point for it (NaN, which gnuplot skips)"
[ -z "$(ls "$TMP/inf/charts/"*.log 2>/dev/null)" ]; ok $? "gnuplot draws every chart"
if [ $xml_ok = 0 ]; then well_formed "$TMP/inf"; ok $? "every SVG is XML"; else skip "no python3 or xmllint"; fi

# --- an OIO that is no number (import hbatest took axis_value "abc") ---------------
hostile axis "UPDATE steps SET axis_value = 'abc' WHERE id = $step"
report "$TMP/axis.db" "$TMP/axis"; ok $? "a non-numeric OIO axis value: report exits 0"
no_lua_error; ok $? "and no Lua error"
like "$(cat "$TMP/err")" "run one, step 2: oio value 'abc' is not one of that axis: shown as a step, not as a point of the sweep" \
	"it says the step is shown apart from the sweep"
like "$(tr -d '\n' < "$TMP/axis/index.html")" '<td>4k randread: rr2</td>' "the step has a row of its own"
[ -z "$(ls "$TMP/axis/charts/"*.log 2>/dev/null)" ]; ok $? "gnuplot draws every chart"

# --- text where numbers belong, JSON that is not ------------------------------------
hostile text "UPDATE steps SET mbps = 'fast', oio = 'deep' WHERE run_id = 2;
	UPDATE histograms SET counts = 'not json' WHERE step_id IN (SELECT id FROM steps WHERE run_id = 1);
	UPDATE steps SET params_json = '{' WHERE run_id = 1"
report "$TMP/text.db" "$TMP/text"; ok $? "text in numeric columns, histograms and params that are not JSON: exit 0"
no_lua_error; ok $? "and no Lua error"
like "$(cat "$TMP/err")" "holds text where a number belongs in column 'mbps'" "it names the column with text"
[ -z "$(ls "$TMP/text/charts/"*.log 2>/dev/null)" ]; ok $? "gnuplot draws every chart"

# --- every column of every table, then random cells -----------------------------------
# Each value in every row of every column of a kind (a table's numbers or its
# texts, each column that takes it), then random cells, with --no-charts (the scripts and data
# are still written): whatever the report reads, it ends without a Lua
# error.
NUMS=("1e999" "-1e999" "'abc'" "X'FF'" "-1" "1.5" "1e300" "NULL")
TEXTS=("X'FFFE41'" "'abc'" "''" "1e999" "NULL" "'1.5'" "'99999999999999999999'")
tables=$(q "$DB" "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%' ORDER BY name")
# columns TABLE num|text [VALUE]: its columns of that kind (no ids; NOT NULL ones left out for NULL)
columns() {
	local null=0
	[ "${3:-}" = NULL ] && null=1
	q "$DB" "SELECT name FROM pragma_table_info('$1') WHERE name NOT IN ('id', 'run_id', 'step_id',
		'first_step_id', 'last_step_id') AND ((upper(type) GLOB '*INT*' OR upper(type) GLOB '*REAL*')
		= ('$2' = 'num')) AND NOT ($null AND \"notnull\")"
}
bad=() n=0
try() {	# NAME SQL: what of SQL the database takes (a CHECK constraint refuses a
	# statement: the others still apply), and the report ends well
	cp "$DB" "$TMP/f.db"
	printf '%s\n' "$2" | sqlite3 "$TMP/f.db" >/dev/null 2>&1	# (on stdin, sqlite3 goes on after an error)
	n=$((n + 1))
	rm -rf "$TMP/f"
	if ! report "$TMP/f.db" "$TMP/f" --no-charts || ! no_lua_error; then
		bad+=("$1: $(grep -m1 . "$TMP/err")")
	fi
}
for t in $tables; do
	for kind in num text; do
		if [ $kind = num ]; then vals=("${NUMS[@]}"); else vals=("${TEXTS[@]}"); fi
		for v in "${vals[@]}"; do
			sql=$(columns "$t" $kind "$v" | sed "s/.*/UPDATE $t SET \"&\" = $v;/")
			[ -n "$sql" ] && try "$t $kind = $v" "$sql"
		done
	done
done
RANDOM=32	# the same cells each time
cells=()
for t in $tables; do
	for c in $(columns "$t" num) $(columns "$t" text); do cells+=("$t $c"); done
done
for k in $(seq 30); do
	sql=""
	for j in 1 2 3 4 5; do
		read -r t c <<< "${cells[RANDOM % ${#cells[@]}]}"
		all=("${NUMS[@]}" "${TEXTS[@]}")
		# samples has no rowid: its key is (step_id, t)
		key=rowid
		[ "$t" = samples ] && key="step_id * 100000 + t"
		sql="$sql UPDATE $t SET \"$c\" = ${all[RANDOM % ${#all[@]}]}
			WHERE $key IN (SELECT $key FROM $t ORDER BY $key LIMIT 1 OFFSET $((RANDOM % 40)));"
	done
	try "random $k: $sql" "$sql"
done
is "${#bad[@]}" 0 "$n databases of hostile values: every report ends with exit 0 and no Lua error"
for b in "${bad[@]}"; do echo "#   $b" | head -c 400; echo; done

done_testing
