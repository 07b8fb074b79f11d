#!/usr/bin/env bash
# hbatest sql: a statement that would write (or several statements) is refused
# with exit 2 before any output, naming what it would do (a function that
# loads a library, a pragma that acts read as a table, ANALYZE), and the
# database stays byte-identical; Ctrl-C, SIGTERM and | head leave no -wal or
# -shm; parameters are named and
# checked; CSV, TSV and JSON carry every value exactly (parsed back by Python's
# csv and json and compared with the database read by Python's sqlite3); the
# table is aligned; each saved query returns the rows computed here from the
# raw tables, on a database with two runs.
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null || { skip "python3 is not installed"; done_testing; exit 0; }

DB="$TMP/s.db"
PLAN="$ROOT/tests/fixtures/export/plan.lua"
NASTY_LABEL=$(printf 'x4, "quoted" <script>alert(1)</script>\nline 2 \xc3\xa9\xe6\xbc\xa2 back\\slash')
NASTY_NAME=$(printf 'a,b "c" <b>\xc3\xbc\ttab\n')
sql() { "$HB" sql --db "$DB" "$@" >"$TMP/out" 2>"$TMP/err"; }

"$HB" run "$PLAN" --db "$DB" --label "LSI 9361-8i" -q 2>>"$TMP/stderr"; ok $? "first sim run"
"$HB" run "$PLAN" --db "$DB" --label "$NASTY_LABEL" --set "name=$NASTY_NAME" --set link=pcie3x4 \
	-q 2>>"$TMP/stderr"; ok $? "second sim run: a label and step names with commas, quotes, markup, newlines, non-ASCII"
# hand edits so the saved queries' filters matter: a failed OIO point, a fact
# that changed during the run, one of another phase
q "$DB" "UPDATE steps SET status = 'failed' WHERE run_id = 2 AND seq = 2;
	UPDATE probes SET value = 'after' WHERE run_id = 2 AND phase = 'end' AND key = 'kernel';
	INSERT INTO probes (run_id, phase, target, probe, key, value) VALUES (2, 'mid', NULL, 'host', 'mid_only', 'mid')"
sqlite3 "$DB" 'PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null
hash=$(sha256sum "$DB" | cut -d' ' -f1)

# --- read-only -------------------------------------------------------------------
refused=0 n=0
while IFS= read -r stmt; do
	n=$((n + 1))
	sql "$stmt"; rc=$?
	if [ $rc -ne 2 ] || ! grep -q 'refused' "$TMP/err"; then
		echo "# not refused (exit $rc): $stmt"; sed 's/^/#   /' "$TMP/err"; refused=1
	fi
	[ "$(sha256sum "$DB" | cut -d' ' -f1)" = "$hash" ] || { echo "# changed by: $stmt"; refused=1; }
done <<'EOF'
UPDATE runs SET label = 'x'
DELETE FROM steps
INSERT INTO events (run_id, at, level, message) VALUES (1, 'now', 'info', 'x')
REPLACE INTO probes (run_id, phase, probe, key) VALUES (1, 'start', 'x', 'y')
ATTACH DATABASE 'other.db' AS other
PRAGMA user_version = 9
PRAGMA query_only = 0
PRAGMA journal_mode = DELETE
PRAGMA wal_checkpoint(TRUNCATE)
CREATE TABLE t (a)
CREATE TEMP TABLE t (a)
DROP VIEW step_summary
ALTER TABLE runs ADD COLUMN x
VACUUM INTO 'copy.db'
BEGIN IMMEDIATE
VACUUM
BEGIN
ROLLBACK
SELECT 1; DELETE FROM runs
SELECT 1; SELECT 2
WITH x AS (SELECT 1) UPDATE runs SET label = 'y'
EOF
ok $refused "$n writing statements (UPDATE, DELETE, INSERT, ATTACH, PRAGMA that sets, DDL, VACUUM INTO, one word VACUUM, BEGIN or ROLLBACK (not a saved query's name), two statements) exit 2, 'refused', database byte-identical"
sql "UPDATE runs SET label = 'x'"
like "$(cat "$TMP/err")" "refused: UPDATE of 'runs': hbatest sql only reads" "the refusal names what the statement would do"
sql "SELECT 1; SELECT 2"
like "$(cat "$TMP/err")" "one statement at a time \(another starts at 'SELECT 2'\)" "two statements: refused, naming the second"
[ ! -e "$DB-wal" ] && [ ! -e "$DB-shm" ] && [ ! -e "$TMP/copy.db" ] && [ ! -e "other.db" ]
ok $? "no -wal, -shm, copy or attached file left behind"
sql "PRAGMA table_info(runs)"; ok $? "a PRAGMA that reads is allowed"
# refused when prepared, before any output, exit 2, naming what it is: a
# function that loads code, a pragma that acts read as a table-valued
# function (it would run when the statement starts), ANALYZE (whose first
# action is creating sqlite_stat1: not a CREATE the user wrote)
bad=""
while IFS='|' read -r stmt want; do
	sql "$stmt"; rc=$?
	if [ $rc != 2 ] || [ -s "$TMP/out" ] || ! grep -qF "refused: $want" "$TMP/err"; then
		bad="$bad [$stmt: exit $rc, $(wc -c <"$TMP/out") bytes out, $(cat "$TMP/err")]"
	fi
done <<'EOF'
SELECT load_extension('x')|the function load_extension (it loads a library into hbatest)
SELECT load_extension('/nonexistent.so', 'init')|the function load_extension
SELECT * FROM pragma_optimize|PRAGMA optimize (as the table-valued function pragma_optimize)
SELECT count(*) FROM pragma_optimize(0x10002)|PRAGMA optimize (as the table-valued function
SELECT * FROM main.pragma_writable_schema|PRAGMA writable_schema (as the table-valued function pragma_writable_schema)
SELECT 1 FROM runs WHERE EXISTS (SELECT 1 FROM pragma_locking_mode)|PRAGMA locking_mode (as
ANALYZE|ANALYZE (it writes statistics into the database)
ANALYZE runs|ANALYZE (it writes statistics
REINDEX|REINDEX (it rebuilds indexes)
CREATE TABLE t (a)|CREATE (it adds to the schema)
EOF
is "$bad" "" "load_extension(), pragma_optimize, pragma_writable_schema, pragma_locking_mode in a subquery, ANALYZE, REINDEX: refused before any output, exit 2, named as what they are"
sql "SELECT journal_mode FROM pragma_journal_mode"; is "$?$(tail -1 "$TMP/out")" 0wal "a pragma that reads, as a table-valued function, is allowed"
sql "SELECT name FROM pragma_table_info('runs') WHERE cid = 0"; is "$?$(tail -1 "$TMP/out")" 0id "pragma_table_info('runs') too"
sql "WITH pragma_optimize AS (SELECT 1 AS x) SELECT x FROM pragma_optimize"; is "$?$(tail -1 "$TMP/out")" 01 \
	"a CTE named like a pragma's function is a CTE"
[ "$(sha256sum "$DB" | cut -d' ' -f1)" = "$hash" ] && [ ! -e "$DB-wal" ] && [ ! -e "$DB-shm" ]
ok $? "the database byte-identical after them, no -wal or -shm left"
sql "SELECT 1 AS x; -- a comment"; ok $? "a comment after the statement is not a second one"
bad=""
for stmt in "" "   " "-- only a comment" "/* only a comment */" " ; ;" "/* not closed"; do
	sql "$stmt"; rc=$?
	[ $rc = 2 ] && grep -q "empty SQL statement" "$TMP/err" || bad="$bad [$stmt]: exit $rc"
done
is "$bad" "" "an empty statement (blanks, ';', comments only) is a usage error, exit 2, 'empty SQL statement'"
"$HB" sql --db "$TMP/none.db" "" 2>/dev/null; is $? 2 "an empty statement is refused before the database is looked for"
sql "-- the run count
SELECT count(*) AS n FROM runs"; is "$?$(tail -1 "$TMP/out")" 02 "a statement that starts with a -- comment is a statement, not an option"
sql "SELECT * FROM no_such_table"; is $? 1 "an SQL error (no such table) exits 1"
like "$(cat "$TMP/err")" "no such table: no_such_table" "and says SQLite's reason"
sqlite3 "$TMP/v1.db" <"$ROOT/tests/fixtures/report/schema-1.sql"
"$HB" sql --db "$TMP/v1.db" runs 2>"$TMP/err"; is $? 1 "a saved query on a database of schema version 1 exits 1"
like "$(cat "$TMP/err")" "no such column: r.source \(its schema is version 1, older than this hbatest's [0-9]+" "saying the schema is older"
"$HB" sql --db "$TMP/none.db" "SELECT 1" 2>"$TMP/err"; is $? 1 "a missing database exits 1"
like "$(cat "$TMP/err")" "no database '$TMP/none.db'" "naming it"
[ ! -e "$TMP/none.db" ]; ok $? "and is not created"

# --- parameters ------------------------------------------------------------------
sql "SELECT :a AS a, \$b AS b, @c AS c, :a + 1 AS d" --param a=41 --param b=x --param c=007
is "$(cat "$TMP/out")" "$(printf 'a\tb\tc\td\n41\tx\t007\t42')" ":name, \$name and @name bound; 41 as an integer, 007 as text"
sql "SELECT :run AS r" --param run=1 --param nope=3; is $? 2 "a --param the query does not have: exit 2"
like "$(cat "$TMP/err")" "--param nope: the query has no parameter 'nope' \(it has: :run\)" "naming it and the parameters it has"
sql "SELECT :run AS r, :step AS s" --param run=1; is $? 2 "a parameter without a value: exit 2"
like "$(cat "$TMP/err")" "no value for parameter ':step': give --param step=VALUE" "naming it"
sql "SELECT ?1"; is $? 2 "a parameter without a name: exit 2"
sql "SELECT :run AS r" --param run=LSI; is $? 1 "run=RUN that matches no run: exit 1"
like "$(cat "$TMP/err")" "no run 'LSI'" "naming it"
sql "SELECT :run AS r" --param run=; is $? 1 "an empty run= is an error (not the only run, nor every run)"
like "$(cat "$TMP/err")" "--param run: give a run" "saying what to give"
uuid2=$(q "$DB" "SELECT uuid FROM runs WHERE id = 2")
sql "SELECT :run AS a, :runs AS b" --param "run=${uuid2:0:8}" --param "runs=LSI 9361-8i,2"
is "$(tail -1 "$TMP/out")" "$(printf '2\t1,2')" "run= takes a uuid prefix, runs= a list of RUNs, bound as ids"
sql "SELECT :runs AS b" --param "runs=2,,1"; is $? 1 "runs= with an empty item (runs=\"\$A,,\$B\") is an error"
like "$(cat "$TMP/err")" "--param runs: '2,,1' has an empty run" "naming the list"
sql "SELECT :runs AS b" --param "runs=2,"; is $? 1 "and so is one with a comma at its end"
sql "PRAGMA journal_mode"; is "$? $(tail -1 "$TMP/out")" "0 wal" "PRAGMA journal_mode, the reading form, reads"
sql "PRAGMA journal_mode = delete"; is $? 2 "the setting form is refused"
sql "SELECT fts3_tokenizer('simple')"; is $? 2 "fts3_tokenizer (it registers a tokenizer by pointer) is refused"
like "$(cat "$TMP/err")" "refused: the function fts3_tokenizer \(it changes the connection\)" "and named"

# --- formats ---------------------------------------------------------------------
sql "SELECT NULL AS n, '' AS e, 'a,\"b\"' AS q, 1.5 AS r, 3 AS i" --format csv
is "$(cat "$TMP/out")" "$(printf 'n,e,q,r,i\n,"","a,""b""",1.5,3')" "CSV: NULL bare and empty, empty text \"\", quotes doubled, numbers bare"
sql "SELECT 'a	b' || char(10) || 'c\\d' AS t, NULL AS n"
is "$(cat "$TMP/out")" "$(printf 't\tn\na\\tb\\nc\\\\d\t')" "TSV (the default off a terminal): tab, newline, backslash escaped; NULL empty"

cat >"$TMP/cmp.py" <<'EOF'
# cmp.py DB FORMAT FILE SQL: the rows in FILE (csv or json) equal SQL's rows in DB
import csv, json, sqlite3, sys
db, fmt, path, query = sys.argv[1:5]
con = sqlite3.connect("file:%s?immutable=1" % db, uri=True)
cur = con.execute(query)
cols = [d[0] for d in cur.description]
want = [dict(zip(cols, r)) for r in cur]
bad = []
def same(got, exp, where):
    if exp is None:
        ok = got is None if fmt == "json" else got == ""
    elif isinstance(exp, str):
        ok = got == exp
    elif isinstance(exp, int):
        ok = (type(got) is int and got == exp) if fmt == "json" else got == str(exp)
    else:
        v = got if fmt == "json" else float(got)
        ok = type(v) in (int, float) and v == exp
    if not ok:
        bad.append("%s: got %r, want %r" % (where, got, exp))
if fmt == "json":
    rows = json.load(open(path, encoding="utf-8"))
    got_cols = list(rows[0].keys()) if rows else cols
else:
    rd = list(csv.reader(open(path, newline="", encoding="utf-8")))
    got_cols, rows = rd[0], [dict(zip(rd[0], r)) for r in rd[1:]]
if got_cols != cols:
    bad.append("columns %r, want %r" % (got_cols, cols))
if len(rows) != len(want):
    bad.append("%d rows, want %d" % (len(rows), len(want)))
for i, (g, w) in enumerate(zip(rows, want)):
    if fmt == "json" and list(g.keys()) != cols:
        bad.append("row %d keys %r" % (i, list(g.keys())))
    for c in cols:
        same(g.get(c), w[c], "row %d %s" % (i, c))
for b in bad[:10]:
    print("#  ", b)
sys.exit(1 if bad or not want else 0)
EOF
Q="SELECT r.id, r.label, s.seq, s.name, s.iops, s.lat_mean_us, s.lat_p99_us, s.mbps, s.error_text,
   s.params_json, s.write_pct FROM steps s JOIN runs r ON r.id = s.run_id ORDER BY r.id, s.seq"
sql "$Q" --format csv; python3 "$TMP/cmp.py" "$DB" csv "$TMP/out" "$Q"
ok $? "CSV parsed by Python's csv module: every value equals the database's (labels and names with commas, quotes, newlines)"
sql "$Q" --format json; python3 "$TMP/cmp.py" "$DB" json "$TMP/out" "$Q"
ok $? "JSON parsed by Python's json: integers, reals (exactly, %.17g) and nulls as such, text as stored"
sql "SELECT 1e999 AS inf, -1e999 AS minf, 0.1 + 0.2 AS tenth, 9007199254740993 AS big, char(1, 0x263a) AS ctl,
	CAST(x'ff41c3' AS TEXT) AS bad" --format json
python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))[0]
sys.exit(not (r["inf"] == float("inf") and r["minf"] == -float("inf") and r["tenth"] == 0.1 + 0.2
              and r["big"] == 9007199254740993 and r["ctl"] == "\x01\u263a" and r["bad"] == "\ufffdA\ufffd"))' "$TMP/out"
ok $? "JSON: infinities, 0.1 + 0.2, a 54-bit integer and a control character read back exactly; bytes not UTF-8 as U+FFFD"
is "$(sed -n 2p "$TMP/out" | grep -o '"ctl": [^,]*')" '"ctl": "\u0001☺"' "non-ASCII passed as UTF-8, control characters as \\u escapes"

# the table: columns found from the dashes line hold each value, aligned in
# terminal cells (not bytes or characters), numbers to 6 significant digits
TQ="SELECT r.label, s.seq, s.name, s.iops FROM steps s JOIN runs r ON r.id = s.run_id ORDER BY r.id, s.seq"
sql "$TQ" --format table
python3 - "$DB" "$TMP/out" "$TQ" <<'EOF'
import re, sqlite3, sys, unicodedata
db, path, query = sys.argv[1:4]
# each line as its terminal cells: a wide character (CJK, emoji) fills two
def cells(s):
    out = []
    for ch in s:
        if unicodedata.combining(ch) and out:
            out[-1] += ch
        else:
            out += [ch, ""] if unicodedata.east_asian_width(ch) in "WF" else [ch]
    return out
lines = [cells(l) for l in open(path, encoding="utf-8").read().split("\n")[:-1]]
spans = [m.span() for m in re.finditer(r"-+", "".join(lines[1]))]
rows = sqlite3.connect("file:%s?immutable=1" % db, uri=True).execute(query).fetchall()
show = lambda v: v.replace("\n", "\\n").replace("\t", "\\t")
bad = [] if len(lines) == len(rows) + 2 else ["%d lines" % len(lines)]
if ["".join(lines[0][a:b]).strip() for a, b in spans] != ["label", "seq", "name", "iops"]:
    bad.append("header " + "".join(lines[0]))
for line, r in zip(lines[2:], rows):
    cols = ["".join(line[a:b]).strip() for a, b in spans]
    if cols[:3] != [show(r[0]), str(r[1]), show(r[2])] or float(cols[3]) != float("%.6g" % r[3]):
        bad.append("%r != %r" % (cols, r))
    if len(line) != len(lines[1]):
        bad.append("width %d, want %d: %r" % (len(line), len(lines[1]), "".join(line)))
print("\n".join("#   " + b for b in bad[:5]))
sys.exit(1 if bad else 0)
EOF
ok $? "table: a header, a dashes line, values in their columns, every line as wide (terminal cells: a CJK character or emoji takes two), numbers right-aligned"
if command -v script >/dev/null; then
	script -qec "'$HB' sql --db '$DB' 'SELECT id, label FROM runs'" /dev/null >"$TMP/tty" 2>&1
	like "$(sed -n 2p "$TMP/tty")" '^--  -+' "on a terminal the default is the table"
else
	skip "script (util-linux) is not installed: no terminal to test the default table"
fi
sql "SELECT 1" --format xml; is $? 2 "--format xml: exit 2"

# --- saved queries ---------------------------------------------------------------
sql --list
names=$(sed -n 's/^  \([a-z0-9-]\+\) .*/\1/p' "$TMP/out" | tr '\n' ' ')
is "$names" "compare oio-sweep p99-by-card runs samples side-by-side steady-state testbed write-mix " "sql --list: the saved queries, by name"
like "$(cat "$TMP/out")" "oio-sweep +IOPS, MB/s and latency over OIO" "each with its description"
like "$(cat "$TMP/out")" "params: run \(RUN" "and its parameters"
"$HB" sql --db "$DB" >"$TMP/out2" 2>&1; cmp -s "$TMP/out" "$TMP/out2"; ok $? "sql without an argument lists them too"
sql no-such-query; is $? 2 "an unknown saved query: exit 2"
like "$(cat "$TMP/err")" "no saved query 'no-such-query'" "naming it"

# saved NAME PARAMS...: its JSON rows equal those computed by expect.py NAME
cat >"$TMP/expect.py" <<'EOF'
# expect.py DB NAME GOT.json [ARG...]: the rows saved query NAME should give,
# computed from the raw tables, equal GOT (floats to 1e-12 where computed)
import json, sqlite3, sys
db, name, got_path = sys.argv[1:4]
args = sys.argv[4:]
con = sqlite3.connect("file:%s?immutable=1" % db, uri=True)
con.row_factory = sqlite3.Row
steps = [dict(r) for r in con.execute("SELECT * FROM steps ORDER BY run_id, seq")]
runs = {r["id"]: dict(r) for r in con.execute("SELECT * FROM runs")}

def sweep(run, axis, cols, key):
    pts = [s for s in steps if s["run_id"] == run and s["axis"] == axis and s["status"] == "done"]
    first = {}
    for s in pts:
        first.setdefault(s["group_name"], s["seq"])
    pts.sort(key=lambda s: (first[s["group_name"]], s[key], s["seq"]))
    return [{c: f(s) for c, f in cols} for s in pts]

col = lambda k: (k, lambda s: s[k])
if name == "runs":
    want = [{"id": i, "uuid": r["uuid"][:8], "label": r["label"], "state": r["status"],
             "source": r["source"], "simulated": r["simulated"], "host": r["host"],
             "started_at": r["started_at"], "finished_at": r["finished_at"],
             "steps_done": sum(1 for s in steps if s["run_id"] == i and s["status"] == "done"),
             "steps": sum(1 for s in steps if s["run_id"] == i),
             "steps_planned": r["steps_planned"]} for i, r in sorted(runs.items())]
elif name == "oio-sweep":
    want = sweep(int(args[0]), "oio", [col("group_name"), col("rw"), col("bs"), col("write_pct"),
                 col("oio"), col("iops"), col("mbps"), ("mibps", lambda s: s["mbps"] * 1e6 / 1048576),
                 col("lat_mean_us"), col("lat_p99_us"), col("lat_p999_us"), ("step", lambda s: s["seq"])], "oio")
elif name == "write-mix":
    want = sweep(int(args[0]), "write_pct", [col("group_name"), col("rw"), col("bs"), col("oio"),
                 col("write_pct"), col("iops"), col("read_iops"), col("write_iops"), col("mbps"),
                 col("lat_mean_us"), col("lat_p99_us"), ("step", lambda s: s["seq"])], "write_pct")
elif name == "samples":
    run, step = int(args[0]), args[1]
    sid = [s["id"] for s in steps if s["run_id"] == run and (str(s["seq"]) == step or s["name"] == step)][0]
    want = [{"t": m["t"], "ramp": m["ramp"], "secs": m["secs"],
             "iops": (m["read_ops"] + m["write_ops"]) / m["secs"],
             "read_iops": m["read_ops"] / m["secs"], "write_iops": m["write_ops"] / m["secs"],
             "mbps": (m["read_bytes"] + m["write_bytes"]) / 1e6 / m["secs"],
             "read_lat_mean_us": m["read_lat_mean_us"], "read_lat_p99_us": m["read_lat_p99_us"],
             "write_lat_mean_us": m["write_lat_mean_us"], "write_lat_p99_us": m["write_lat_p99_us"],
             "lat_max_us": m["lat_max_us"], "occupancy": m["occupancy"], "errors": m["errors"]}
            for m in con.execute("SELECT * FROM samples WHERE step_id = ? ORDER BY t", (sid,))]
elif name == "testbed":
    want, where = [], {}
    for p in con.execute("SELECT * FROM probes WHERE run_id = ? ORDER BY rowid", (int(args[0]),)):
        if p["phase"] not in ("start", "end"):
            continue
        k = (p["target"] or "", p["probe"], p["key"])
        if k not in where:
            where[k] = {"target": k[0], "probe": k[1], "key": k[2], "at_start": None, "at_end": None}
            want.append(where[k])
        where[k]["at_start" if p["phase"] == "start" else "at_end"] = p["value"]
elif name == "steady-state":
    seq = {s["id"]: s["seq"] for s in steps}
    want = [{"run_id": r["run_id"], "label": runs[r["run_id"]]["label"], "name": r["name"],
             "attained": r["attained"], "rounds": r["rounds"], "window_first": r["window_first"],
             "window_last": r["window_last"], "track": r["track"], "mean": r["mean"], "slope": r["slope"],
             "data_excursion_pct": r["data_excursion"] / r["mean"] * 100,
             "max_data_excursion_pct": r["max_data_excursion"] * 100,
             "slope_excursion_pct": r["slope_excursion"] / r["mean"] * 100,
             "max_slope_excursion_pct": r["max_slope_excursion"] * 100,
             "first_step": seq[r["first_step_id"]], "last_step": seq[r["last_step_id"]]}
            for r in con.execute("SELECT * FROM steady_state ORDER BY run_id, id")]
elif name == "compare":
    group, order = args[0], [int(x) for x in args[1].split(",")]
    want = []
    for run in order:
        pts = [s for s in steps if s["run_id"] == run and s["group_name"] == group]
        for i, s in enumerate(pts):
            want.append({"point": i + 1, "axis": s["axis"], "axis_value": s["axis_value"],
                         "run_id": run, "label": runs[run]["label"], "step": s["seq"],
                         "name": s["name"], "status": s["status"], "iops": s["iops"], "mbps": s["mbps"],
                         "lat_mean_us": s["lat_mean_us"], "lat_p99_us": s["lat_p99_us"],
                         "lat_p999_us": s["lat_p999_us"], "_order": order.index(run)})
    want.sort(key=lambda w: (w["point"], w["_order"]))
    for w in want:
        del w["_order"]
got = json.load(open(got_path, encoding="utf-8"))
def close(a, b):
    if isinstance(b, float) and type(a) in (int, float):
        return abs(a - b) <= 1e-12 * abs(b)
    return a == b and type(a) == type(b)
bad = [] if len(got) == len(want) else ["%d rows, want %d" % (len(got), len(want))]
for g, w in zip(got, want):
    if list(g.keys()) != list(w.keys()) or not all(close(g[k], w[k]) for k in w):
        bad.append("got %r\n#   want %r" % (g, w))
print("\n".join("#   " + b for b in bad[:3]))
sys.exit(1 if bad or not want else 0)
EOF
# exp NAME ARGS...: the last saved query's rows ($TMP/got.json) are expect.py's
exp() { local name=$1; shift; python3 "$TMP/expect.py" "$DB" "$name" "$TMP/got.json" "$@"; }

"$HB" sql --db "$DB" runs --format json >"$TMP/got.json"; exp runs
ok $? "runs: every run, its state, source, host, times, steps done"
for r in 1 2; do
	"$HB" sql --db "$DB" oio-sweep --param "run=$(q "$DB" "SELECT label FROM runs WHERE id = $r")" \
		--format json >"$TMP/got.json"; exp oio-sweep $r
	ok $? "oio-sweep, run $r by its label: the done OIO points, groups in plan order, by OIO"
	"$HB" sql --db "$DB" write-mix --param "run=$r" --format json >"$TMP/got.json"; exp write-mix $r
	ok $? "write-mix, run $r: the done write-% points, by write %"
	"$HB" sql --db "$DB" testbed --param "run=$r" --format json >"$TMP/got.json"; exp testbed $r
	ok $? "testbed, run $r: one row per (target, probe, key), its start and end values"
done
"$HB" sql --db "$DB" samples --param run=2 --param step=3 --format json >"$TMP/got.json"; exp samples 2 3
ok $? "samples by step seq: every second of the step"
name=$(q "$DB" "SELECT name FROM steps WHERE run_id = 2 AND seq = 4")
"$HB" sql --db "$DB" samples --param run=2 --param "step=$name" --format json >"$TMP/got.json"; exp samples 2 "$name"
ok $? "samples by step name (one with a comma, quotes, a tab and a newline)"
"$HB" sql --db "$DB" steady-state --format json >"$TMP/got.json"; exp steady-state
ok $? "steady-state: every outcome, excursions in % of the mean, first and last step"
"$HB" sql --db "$DB" compare --param "group=4k randread" --param runs=2,1 --format json >"$TMP/got.json"
exp compare "4k randread" 2,1
ok $? "compare: a row per point and run, runs in the order given"
"$HB" sql --db "$DB" compare --param group=nosuch --param "runs=LSI 9361-8i,2" >"$TMP/out" 2>"$TMP/err"
is "$?$(cat "$TMP/out")" 2 "compare with a group no run has: exit 2, no header alone"
groups=$(q "$DB" "SELECT group_concat(quote(g), ', ') FROM (SELECT DISTINCT group_name AS g FROM steps ORDER BY g)")
like "$(cat "$TMP/err")" "--param group=nosuch: no step group 'nosuch' in runs LSI 9361-8i,2 \\(groups: $groups\\)" \
	"naming the value, the runs and their groups"
sql "SELECT :group AS g" --param "group=4k randread"; is "$?$(tail -1 "$TMP/out")" "04k randread" "group= that a run has is bound as given"
"$HB" sql --db "$DB" oio-sweep --format json >/dev/null 2>"$TMP/err"; is $? 2 "a saved query without its parameter: exit 2"
like "$(cat "$TMP/err")" "no value for parameter ':run'" "naming it"
# --- Ctrl-C, SIGTERM, | head: the query stops, the database is closed, and
# the -wal and -shm its read-only connection made are removed
endless="WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c"
# wait_exit PID: its status in $rc; SIGKILL after 60 s (a guard, not a measure)
wait_exit() {
	for _ in $(seq 600); do kill -0 "$1" 2>/dev/null || break; sleep 0.1; done
	kill -KILL "$1" 2>/dev/null
	wait "$1"; rc=$?
}
for sig in INT TERM; do
	rm -f "$TMP/endless"
	"$HB" sql --db "$DB" "$endless" >"$TMP/endless" 2>"$TMP/err" &
	pid=$!
	for _ in $(seq 300); do [ -s "$TMP/endless" ] && break; sleep 0.1; done
	[ -s "$TMP/endless" ] && [ -e "$DB-shm" ]; ok $? "SIG$sig: while the query runs, rows come and its -shm is there"
	kill -$sig $pid; wait_exit $pid
	is "$rc" 130 "SIG$sig: exit 130"
	like "$(cat "$TMP/err")" "interrupted \(signal\): the query on '.*' stopped" "SIG$sig: said on stderr"
	[ ! -e "$DB-wal" ] && [ ! -e "$DB-shm" ]; ok $? "SIG$sig: no -wal or -shm left"
done
timeout -k 5 60 "$HB" sql --db "$DB" "$endless" 2>"$TMP/err" | head -1 >/dev/null	# a guard
is "${PIPESTATUS[0]}" 141 "| head: the query ends with the status of a closed pipe (141)"
is "$(cat "$TMP/err")" "" "| head: nothing said on stderr"
[ ! -e "$DB-wal" ] && [ ! -e "$DB-shm" ]; ok $? "| head: no -wal or -shm left"
is "$(sha256sum "$DB" | cut -d' ' -f1)" "$hash" "the database is byte-identical after every query"

done_testing
