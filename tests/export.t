#!/usr/bin/env bash
# hbatest export: every table of a run, as CSV (parsed back by Python's csv
# module) and JSON (Python's json), equals the database's rows read by Python's
# sqlite3: the columns of the table in order, id and run_id dropped, run_uuid
# first, step ids as step seqs, rows in the documented order, numbers exact,
# NULL as null; the whole-run JSON document; errors naming the run or folder.
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null || { skip "python3 is not installed"; done_testing; exit 0; }

DB="$TMP/e.db"
PLAN="$ROOT/tests/fixtures/export/plan.lua"
NASTY_LABEL=$(printf 'x4, "quoted" ""twice"" <script>alert(1)</script>\nline 2\r\n\xc3\xa9\xe6\xbc\xa2 back\\slash')
NASTY_NAME=$(printf 'a,b "c" <b>\xc3\xbc\ttab\n')
TABLES="runs targets steps step_targets steady_state samples histograms probes events telemetry resumes"
ex() { "$HB" export --db "$DB" "$@"; }

"$HB" run "$PLAN" --db "$DB" --label "$NASTY_LABEL" --set "name=$NASTY_NAME" -q 2>>"$TMP/stderr"
ok $? "a sim run: its label and step names hold commas, quotes, markup, CR/LF, tabs, non-ASCII"
"$HB" run "$PLAN" --db "$DB" --label "null, \"run\"" --set engine=null --set seconds=1 --set ramp=0 \
	--set "name=<script>é, " -q 2>>"$TMP/stderr"
ok $? "a null-engine run (real time, about 9 s)"
# hand-made rows whose order the export must get right: facts of a probe
# named before "host" on a target, one with no value, twice the same key
q "$DB" "INSERT INTO probes (run_id, phase, target, probe, key, value) VALUES
	(1, 'start', 'a', 'aaa', 'k', 'second'), (1, 'start', 'a', 'aaa', 'k', NULL),
	(1, 'start', 'a', 'aaa', 'j', 'first')"
# telemetry of each run (no probe here has sample()): one between steps
# (step NULL), a value with a comma and quotes, a host fact (target NULL)
for r in 1 2; do
	q "$DB" "INSERT INTO telemetry (run_id, step_id, t, at, source, key, value, target) VALUES
	($r, (SELECT min(id) FROM steps WHERE run_id = $r), 0, '2026-12-05T01:00:00.000Z', 'megaraid',
	 'c0.v0.write_policy_effective', 'WriteBack', '/dev/sdb'),
	($r, NULL, 12.5, '2026-12-05T01:00:12.500Z', 'megaraid', 'c0.temperature_c', '5\"1, C', NULL)"
done
# resumes (run --resume records them): two of run 1, a quote in the host, NULLs
q "$DB" "INSERT INTO resumes (run_id, at, last_seen_at, idle_s, was_status, steps_kept, rerun_from,
	forced, host, pid) VALUES (1, '2026-12-05T02:00:00.000Z', '2026-12-05T01:00:00.000Z', 3600.25,
	'running', 3, 4, 0, 'h\"1, x', 42), (1, '2026-12-05T01:30:00.000Z', NULL, NULL, 'aborted', 0, NULL, 1, NULL, NULL),
	(2, '2026-12-05T03:00:00.000Z', '2026-12-05T02:59:00.000Z', 60, 'failed', 1, 2, 0, 'h', 7)"
sqlite3 "$DB" 'PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null
hash=$(sha256sum "$DB" | cut -d' ' -f1)

# check.py DB RUN TABLE FORMAT FILE: FILE (csv, json rows, or the json document
# when TABLE is "all") holds exactly RUN's rows of TABLE, computed here
cat >"$TMP/check.py" <<'EOF'
import csv, json, re, sqlite3, sys
db, run, table, fmt, path = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
con = sqlite3.connect("file:%s?immutable=1" % db, uri=True)
uuid = con.execute("SELECT uuid FROM runs WHERE id = ?", (run,)).fetchone()[0]
seq = dict(con.execute("SELECT id, seq FROM steps WHERE run_id = ?", (run,)))
iso = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$")
ORDER = {  # the documented order, on the raw columns (NULL first, as SQLite)
    "runs": lambda r: 0, "targets": lambda r: r["id"], "steps": lambda r: r["seq"],
    "step_targets": lambda r: (seq[r["step_id"]], r["path"]),
    "steady_state": lambda r: r["id"],
    "samples": lambda r: (seq[r["step_id"]], r["t"]),
    "histograms": lambda r: (seq[r["step_id"]], r["dir"]),
    "probes": lambda r: (r["phase"], r["target"] is not None, r["target"] or "", r["probe"],
                         r["key"], r["rowid"]),
    "events": lambda r: (r["at"], r["id"]),
    "telemetry": lambda r: r["rowid"],
    "resumes": lambda r: (r["at"], r["rowid"]),
}

def expected(table):
    cols = [c[1] for c in con.execute("PRAGMA table_info(%s)" % table)]
    where = ("id = ?" if table == "runs" else "run_id = ?" if "run_id" in cols
             else "step_id IN (SELECT id FROM steps WHERE run_id = ?)")
    cur = con.execute("SELECT %s, * FROM %s WHERE %s" % ("rowid" if table in ("probes", "telemetry", "resumes") else "NULL",
                                                          table, where), (run,))
    raw = sorted((dict(zip(["rowid"] + cols, r)) for r in cur), key=ORDER[table])
    out = []
    for r in raw:
        d = {} if table == "runs" else {"run_uuid": uuid}
        for c in cols:
            if c in ("id", "run_id"):
                continue
            if c == "step_id":
                d["step_seq"] = seq.get(r[c])  # telemetry: NULL between steps
            elif c in ("first_step_id", "last_step_id"):
                d[c[:-3] + "_seq"] = seq.get(r[c])
            else:
                d[c] = r[c]
        out.append(d)
    names = ([] if table == "runs" else ["run_uuid"]) + [
        "step_seq" if c == "step_id" else c[:-3] + "_seq" if c in ("first_step_id", "last_step_id")
        else c for c in cols if c not in ("id", "run_id")]
    return names, out

bad = []
def same(got, exp, where, text):
    if exp is None:
        ok = got == "" if text else got is None
    elif isinstance(exp, str):
        ok = got == exp
        if where.endswith("_at") and not iso.match(got or ""):
            bad.append("%s: %r is not UTC ISO 8601" % (where, got))
    elif isinstance(exp, int):
        ok = got == str(exp) if text else (type(got) is int and got == exp)
    else:
        v = float(got) if text else got
        ok = type(v) in (int, float) and v == exp
    if not ok:
        bad.append("%s: got %r, want %r" % (where, got, exp))

def compare(table, got_names, rows, text):
    names, want = expected(table)
    if got_names != names:
        bad.append("%s columns %r, want %r" % (table, got_names, names))
    if len(rows) != len(want):
        bad.append("%s: %d rows, want %d" % (table, len(rows), len(want)))
    for i, (g, w) in enumerate(zip(rows, want)):
        if not text and list(g.keys()) != names:
            bad.append("%s row %d keys %r" % (table, i, list(g.keys())))
        for c in names:
            same(g.get(c), w[c], "%s row %d %s" % (table, i, c), text)
    return len(want)

if fmt == "csv":
    rd = list(csv.reader(open(path, newline="", encoding="utf-8")))
    n = compare(table, rd[0], [dict(zip(rd[0], r)) for r in rd[1:]], True)
elif table == "all":
    doc = json.load(open(path, encoding="utf-8"))
    keys = ["format", "version", "schema_version", "runs", "targets", "steps", "step_targets",
            "steady_state", "samples", "histograms", "probes", "events", "telemetry", "resumes"]
    if list(doc.keys()) != keys:
        bad.append("document keys %r" % list(doc.keys()))
    ver = con.execute("PRAGMA user_version").fetchone()[0]
    if [doc.get("format"), doc.get("version"), doc.get("schema_version")] != ["hbatest-export", 1, ver]:
        bad.append("header %r" % [doc.get(k) for k in keys[:3]])
    n = min(compare(t, list(doc[t][0].keys()) if doc.get(t) else expected(t)[0], doc.get(t, []), False)
            for t in keys[3:])
else:
    rows = json.load(open(path, encoding="utf-8"))
    n = compare(table, list(rows[0].keys()) if rows else expected(table)[0], rows, False)
for b in bad[:8]:
    print("#  ", b)
sys.exit(1 if bad or n == 0 else 0)
EOF

for r in 1 2; do
	for t in $TABLES; do
		ex "$r" --what "$t" >"$TMP/$t.csv" 2>"$TMP/err" || { echo "# export $r $t failed"; cat "$TMP/err"; }
		python3 "$TMP/check.py" "$DB" "$r" "$t" csv "$TMP/$t.csv"
		ok $? "run $r --what $t as CSV: Python's csv reads back every row and value of the database"
		ex "$r" --what "$t" --format json >"$TMP/$t.json" 2>"$TMP/err" || cat "$TMP/err"
		python3 "$TMP/check.py" "$DB" "$r" "$t" json "$TMP/$t.json"
		ok $? "run $r --what $t as JSON: every row, keys in column order, numbers as numbers, nulls"
	done
	ex "$r" --format json >"$TMP/all.json"
	python3 "$TMP/check.py" "$DB" "$r" all json "$TMP/all.json"
	ok $? "run $r as one JSON document: format, version, schema_version, every table"
done

# the CSV rules and the defaults
ex 1 >"$TMP/default.csv"; ex 1 --what steps >"$TMP/steps.csv"
cmp -s "$TMP/default.csv" "$TMP/steps.csv"; ok $? "CSV without --what is the steps"
is "$(head -1 "$TMP/steps.csv" | cut -d, -f1-4)" "run_uuid,seq,kind,name" "steps: run_uuid, then the columns of steps without id and run_id"
like "$(head -1 "$TMP/steps.csv")" ",mbps,lat_mean_us,lat_p50_us,lat_p99_us," "units in the column names (mbps, lat_p99_us)"
head -1 "$(echo "$TMP/samples.csv")" | grep -q '^run_uuid,step_seq,t,ramp,'; ok $? "samples: run_uuid, step_seq, t, ..."
grep -q '^"[^"]*","end",,"host","' "$TMP/probes.csv"; ok $? "CSV: NULL is an empty field, text quoted (a host fact has no target)"
uuid1=$(q "$DB" "SELECT uuid FROM runs WHERE id = 1")
ex "${uuid1:0:8}" --what runs >"$TMP/a"; ex "$NASTY_LABEL" --what runs >"$TMP/b"; ex 1 --what runs >"$TMP/c"
cmp -s "$TMP/a" "$TMP/c" && cmp -s "$TMP/b" "$TMP/c"; ok $? "RUN as a uuid prefix, a label (with a newline) or an id"
ex 2 --format json >"$TMP/again.json"
cmp -s "$TMP/all.json" "$TMP/again.json"; ok $? "an export twice is byte-identical"

# --out, errors
ex 1 --what samples --out "$TMP/out.csv"; ok $? "--out FILE"
ex 1 --what samples >"$TMP/stdout.csv"
cmp -s "$TMP/out.csv" "$TMP/stdout.csv"; ok $? "writes what stdout gets"
is "$(ls "$TMP" | grep -c '\.tmp-')" 0 "and no temporary file is left"
ex 1 --out "$TMP/no/such/dir/x.csv" 2>"$TMP/err"; is $? 1 "--out into a missing folder exits 1"
like "$(cat "$TMP/err")" "cannot write '$TMP/no/such/dir/x.csv': no folder '$TMP/no/such/dir'" "naming the folder"
ex "no such run" --out "$TMP/x.csv" 2>"$TMP/err"; is $? 1 "a run that does not exist exits 1"
like "$(cat "$TMP/err")" "no run 'no such run' in '$DB'" "naming it"
[ ! -e "$TMP/x.csv" ] && [ -z "$(ls "$TMP" | grep '\.tmp-')" ]; ok $? "and leaves no file"
# --out what is not a regular file: written as it is, never replaced by one
ex 1 --what samples --out - >"$TMP/dash.csv"; cmp -s "$TMP/dash.csv" "$TMP/stdout.csv"; ok $? "--out - is stdout"
[ ! -e ./- ]; ok $? "and no file named '-'"
echo old > "$TMP/target.csv"; ln -s target.csv "$TMP/link.csv"
ex 1 --what samples --out "$TMP/link.csv"; ok $? "--out a symbolic link"
[ -L "$TMP/link.csv" ] && cmp -s "$TMP/target.csv" "$TMP/stdout.csv"; ok $? "its target replaced, the link kept"
mkfifo "$TMP/fifo"; timeout 10 cat "$TMP/fifo" >"$TMP/fromfifo.csv" & cpid=$!	# a guard, not a measurement
ex 1 --what samples --out "$TMP/fifo"; ok $? "--out a named pipe"
wait $cpid; cmp -s "$TMP/fromfifo.csv" "$TMP/stdout.csv" && [ -p "$TMP/fifo" ]; ok $? "written into, still a pipe"
echo kept > "$TMP/devout.csv"
ex 1 --what samples --out /dev/stdout >>"$TMP/devout.csv"
cmp -s "$TMP/devout.csv" <(echo kept; cat "$TMP/stdout.csv"); ok $? "--out /dev/stdout under >> FILE: appended to FILE, as stdout (not FILE rewritten)"
ln -s "$TMP/nowhere/x.csv" "$TMP/dangling.csv"
ex 1 --out "$TMP/dangling.csv" 2>"$TMP/err"; is $? 1 "--out a symbolic link to nothing exits 1"
like "$(cat "$TMP/err")" "cannot write '$TMP/dangling.csv': a symbolic link to nothing \(No such file or directory\); give a file name" "and says so"
[ -L "$TMP/dangling.csv" ]; ok $? "the link is left as it was"
ex 1 --out "$TMP" 2>"$TMP/err"; is $? 1 "--out a folder exits 1"
like "$(cat "$TMP/err")" "cannot write '$TMP': it is a folder; give a file name" "and says so"
if is_root; then
	mknod -m 666 "$TMP/null" c 1 3
	ex 1 --out "$TMP/null"; ok $? "--out a character device (a /dev/null of our own)"
	[ -c "$TMP/null" ]; ok $? "written into, still the device"
	mknod "$TMP/blk" b 7 1048575	# a loop device no one has: nothing behind it
	ex 1 --out "$TMP/blk" 2>"$TMP/err"; is $? 1 "--out a block device exits 1"
	like "$(cat "$TMP/err")" "cannot write '$TMP/blk': it is a block device \(export never writes to a device\)" "and says so"
	[ -b "$TMP/blk" ]; ok $? "and leaves it"
else
	for _ in 1 2 3 4 5; do skip "mknod needs root"; done
fi
# --out the database read, or one of its journals: refused before it is opened
ln -s "$DB" "$TMP/db-link"
for o in "$DB" "$TMP/db-link" "$TMP/./e.db-wal" "$DB-journal"; do
	ex 1 --format json --out "$o" 2>"$TMP/err"; is $? 2 "--out $o: exit 2"
done
like "$(cat "$TMP/err")" "--out '$DB-journal' is '$DB-journal', a journal of the database the export reads; give another file" "and says which file it is"
ex 1 --out "$TMP/db-link" 2>"$TMP/err"
like "$(cat "$TMP/err")" "--out '$TMP/db-link' is '$DB', the database the export reads" "a link to the database is named"
[ -L "$TMP/db-link" ] && [ ! -e "$DB-journal" ]; ok $? "the link stays a link, no journal is made"
"$HB" export 1 --db "$TMP/db-link" --out "$DB-wal" 2>"$TMP/err"; is $? 2 "--db a link, --out the journal beside the file it names: exit 2"
is "$("$HB" list --db "$DB" | grep -c done)" "$(q "$DB" "SELECT count(*) FROM runs")" "every run is still listed"
ex 1 --what nothing 2>"$TMP/err"; is $? 2 "--what nothing: exit 2"
like "$(cat "$TMP/err")" "--what 'nothing': give one of runs, targets, steps" "listing the tables"
ex 1 --format tsv 2>/dev/null; is $? 2 "--format tsv: exit 2 (csv or json)"
ex 2>/dev/null; is $? 2 "no RUN: exit 2"
"$HB" export 1 --db "$TMP/none.db" 2>"$TMP/err"; is $? 1 "a missing database exits 1"
is "$(sha256sum "$DB" | cut -d' ' -f1)" "$hash" "the database is byte-identical after every export"

done_testing
