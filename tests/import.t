#!/usr/bin/env bash
# hbatest import: fio JSON/json+ and interval logs, Iometer results.csv in its
# three layouts, hbatest's JSON export. Values are checked against the source
# files independently (python3); malformed files give FILE:LINE:COLUMN and
# leave the database byte-identical; a file imported twice is refused.
. "$(dirname "$0")/lib.sh"

DB="$TMP/imp.db"
FIX="$ROOT/tests/fixtures/iometer"
dbsum() { sha256sum < "$DB"; }

# bad KIND FILE PATTERN DESCRIPTION [more files]: refused with PATTERN
# (FILE:LINE:COLUMN: ...), exit 1, the database byte-identical.
bad() {
	local kind=$1 file=$2 pat=$3 what=$4 before out rc; shift 4
	before=$(dbsum)
	out=$("$HB" import "$kind" "$file" "$@" --db "$DB" 2>&1); rc=$?
	is "$rc" 1 "$what: exit 1"
	like "$out" "$pat" "$what: $(printf '%s' "$out" | head -1 | sed "s|$TMP/||g")"
	is "$(dbsum)" "$before" "$what: database byte-identical"
}

# (the first import below creates the database the failures must not touch)

# ---------------------------------------------------------------- fio
if ! command -v fio >/dev/null || ! command -v python3 >/dev/null; then
	skip "fio or python3 not installed"
else
	F="$TMP/f.dat"
	( cd "$TMP" && fio --output-format=json+ --ioengine=io_uring --filename="$F" --size=16m \
		--runtime=3 --time_based \
		--name=qd1 --rw=randread --bs=4k --iodepth=1 \
		--write_iops_log=qd1 --write_bw_log=qd1 --write_lat_log=qd1 --log_avg_msec=1000 \
		--name=qd4 --stonewall --rw=randread --bs=4k --iodepth=4 \
		--name=mix --stonewall --rw=randrw --rwmixread=70 --bs=8k --iodepth=2 \
		> "$TMP/fio.json" 2>"$TMP/fio.err" )
	ok $? "fio made a json+ result with three jobs"
	# fio's JSON may follow other lines: the importer skips them
	{ echo "note: both iodepth >= 1 and synchronous I/O engine are selected"; cat "$TMP/fio.json"; } \
		> "$TMP/fio-noted.json"
	out=$("$HB" import fio "$TMP/fio-noted.json" "$TMP"/qd1_*.log --db "$DB" --label fio-a 2>&1)
	ok $? "import fio json+ with its logs ($(echo $out | sed "s|$TMP/||g"))"
	printf '%s' "$out" | grep -q "latency entry"; ok $((! $?)) \
		"logs as fio wrote them: no warning of their last, partial second (fio's own way, not the user's mistake)"
	RUN=$(q "$DB" "SELECT id FROM runs WHERE label='fio-a'")
	python3 - "$TMP/fio.json" "$DB" "$RUN" "$TMP" > "$TMP/fio-check.txt" 2>&1 <<'PY'
import json, sqlite3, sys, glob
d = json.load(open(sys.argv[1])); db = sqlite3.connect(sys.argv[2]); run = int(sys.argv[3])
bad = []
def eq(what, got, want, tol=1e-9):
    if got is None or want is None:
        if got != want: bad.append(f"{what}: {got} != {want}")
    elif abs(got - want) > tol * max(1, abs(want)): bad.append(f"{what}: {got} != {want}")
steps = db.execute("SELECT id, seq, name, rw, bs, write_pct, oio, read_ops, write_ops, read_bytes, "
    "write_bytes, iops, read_iops, write_iops, mbps, lat_mean_us, lat_p50_us, lat_p99_us, lat_p999_us, "
    "lat_max_us, axis, axis_value, group_name, kind FROM steps WHERE run_id=? ORDER BY seq", (run,)).fetchall()
eq("steps", len(steps), len(d["jobs"]))
for s, j in zip(steps, d["jobs"]):
    sid, n = s[0], j["jobname"]
    if s[2] != n: bad.append(f"name {s[2]} != {n}")
    if s[23] != "measure": bad.append(f"{n}: kind {s[23]}")
    r, w = j["read"], j["write"]
    eq(n + " read_ops", s[7], r["total_ios"]); eq(n + " write_ops", s[8], w["total_ios"])
    eq(n + " read_bytes", s[9], r["io_bytes"]); eq(n + " write_bytes", s[10], w["io_bytes"])
    eq(n + " iops", s[11], r["iops"] + w["iops"]); eq(n + " read_iops", s[12], r["iops"])
    eq(n + " write_iops", s[13], w["iops"]); eq(n + " mbps", s[14], (r["bw_bytes"] + w["bw_bytes"]) / 1e6)
    N = r["clat_ns"]["N"] + w["clat_ns"]["N"]
    mean = (r["clat_ns"]["mean"] * r["clat_ns"]["N"] + w["clat_ns"]["mean"] * w["clat_ns"]["N"]) / N
    eq(n + " lat_mean_us", s[15], mean / 1000)
    eq(n + " lat_max_us", s[19], max(r["clat_ns"]["max"], w["clat_ns"]["max"]) / 1000)
    if w["clat_ns"]["N"] == 0:
        p = r["clat_ns"]["percentile"]
        eq(n + " p50", s[16], p["50.000000"] / 1000); eq(n + " p99", s[17], p["99.000000"] / 1000)
        eq(n + " p999", s[18], p["99.900000"] / 1000)
    for dname, dd in (("read", r), ("write", w)):
        bins = dd["clat_ns"].get("bins", {})
        want = {}
        for k, c in bins.items():
            v = int(k)
            b = v if v < 256 else (v.bit_length() - 7) * 128 + (v >> (v.bit_length() - 8)) - 128
            want[b] = want.get(b, 0) + c
        row = db.execute("SELECT counts FROM histograms WHERE step_id=? AND dir=?", (sid, dname)).fetchone()
        got = {b: c for b, c in json.loads(row[0])} if row else {}
        if got != want: bad.append(f"{n} {dname} histogram differs ({len(got)} vs {len(want)} buckets)")
        if bins and sum(got.values()) != dd["clat_ns"]["N"]: bad.append(f"{n} {dname} histogram total")
    opts = j["job options"]
    eq(n + " oio", s[6], int(opts["iodepth"]))
    if s[3] != opts["rw"] or s[4] != opts["bs"]: bad.append(f"{n}: rw/bs {s[3]} {s[4]}")
    eq(n + " write_pct", s[5], 100 - int(opts.get("rwmixread", 100)))
# the two randread 4k jobs differ only in iodepth: an OIO sweep
ax = [(s[20], s[21], s[22]) for s in steps]
if ax[0] != ("oio", "1", "randread bs=4k") or ax[1] != ("oio", "4", "randread bs=4k") or ax[2][0] is not None:
    bad.append(f"axes {ax}")
# the interval logs: one sample per second, from the iops, bw and clat logs
# (the step's latency is clat); an entry in the second of the one before
# (fio's flush of a last, partial interval) counts as the next second
def log(kind):
    out, last = {}, -1
    for line in open(glob.glob(f"{sys.argv[4]}/qd1_{kind}.1.log")[0]):
        f = [int(x) for x in line.split(",")]
        if f[2] != 0: continue
        t = max(0, f[0] // 1000 - 1)
        t = last + 1 if t == last else t
        out[t], last = f[1], t
    return out
iops, bw, lat = log("iops"), log("bw"), log("clat")
rows = db.execute("SELECT t, read_ops, read_bytes, read_lat_mean_us FROM samples WHERE step_id=? ORDER BY t",
                  (steps[0][0],)).fetchall()
# a second with only a latency entry (fio's last, partial interval) is not a sample
if sorted(set(iops) | set(bw)) != [r[0] for r in rows]: bad.append(f"sample seconds {rows}")
for t, ops, byt, l in rows:
    eq(f"t={t} ops", ops, round(iops.get(t, 0))); eq(f"t={t} bytes", byt, round(bw.get(t, 0) * 1024))
    eq(f"t={t} lat", l, lat[t] / 1000 if t in lat else None)
if not rows: bad.append("no samples")
n2 = db.execute("SELECT count(*) FROM samples WHERE step_id IN (?, ?)", (steps[1][0], steps[2][0])).fetchone()[0]
if n2: bad.append("samples on jobs without logs")
src = db.execute("SELECT source, source_file, status, simulated, plan_path FROM runs WHERE id=?", (run,)).fetchone()
if src[0] != "fio" or src[2] != "done" or src[3] != 0: bad.append(f"run {src}")
v = db.execute("SELECT value FROM probes WHERE run_id=? AND probe='fio' AND key='version'", (run,)).fetchone()
if not v or v[0] != d["fio version"]: bad.append(f"version probe {v}")
print("\n".join(bad) if bad else "same")
PY
	is "$(cat "$TMP/fio-check.txt")" "same" "fio: steps, latencies, histograms, samples, axes and probes equal fio's JSON and logs"
	is "$(q "$DB" "SELECT source_sha256 FROM runs WHERE id=$RUN")" \
		"$(sha256sum < "$TMP/fio-noted.json" | cut -d' ' -f1)" "fio: the run keeps the file's sha256"

	# fio writes no IOPS or bandwidth entry for a last, partial interval, but
	# may write its latency: such a second is not a sample (0 I/Os would be
	# false). Made so here: the logs cut to their first second, but for lat.
	mkdir -p "$TMP/cut"
	for k in iops bw; do head -1 "$TMP"/qd1_$k.1.log > "$TMP/cut/qd1_$k.1.log"; done
	cp "$TMP"/qd1_clat.1.log "$TMP/cut/"
	{ echo "note: a copy"; cat "$TMP/fio.json"; } > "$TMP/cut/fio-cut.json"
	nlat=$(awk -F, '$3 == 0' "$TMP/cut/qd1_clat.1.log" | wc -l)
	out=$("$HB" import fio "$TMP/cut/fio-cut.json" "$TMP"/cut/qd1_*.log --db "$TMP/cut.db" --label cut 2>&1)
	ok $? "import fio with a latency log longer than its IOPS and bandwidth logs"
	like "$out" "warning: fio job 'qd1': [1-9][0-9]* seconds? before its end with a latency entry but no IOPS or bandwidth entry \(a rate log cut short\?\): not stored as samples" \
		"says which job and that seconds before its end have no rate ($nlat latency entries)"
	is "$(q "$TMP/cut.db" "SELECT count(*) || ' ' || min(read_ops) FROM samples")" "1 $(awk -F, 'NR == 1 { print $2 + 0 }' "$TMP/cut/qd1_iops.1.log")" \
		"only the second with an IOPS entry is a sample, never one of 0 I/Os"

	# plain json (no bins): no histogram, same totals
	( cd "$TMP" && fio --output-format=json --ioengine=io_uring --filename="$F" --size=16m \
		--runtime=1 --time_based --name=seq --rw=read --bs=128k --iodepth=8 > "$TMP/plain.json" 2>/dev/null )
	"$HB" import fio "$TMP/plain.json" --db "$DB" >/dev/null 2>&1; ok $? "import fio plain json"
	got=$(q "$DB" "SELECT s.read_ops || ' ' || s.bs || ' ' || s.oio || ' ' || (SELECT count(*) FROM histograms WHERE step_id=s.id) FROM steps s JOIN runs r ON r.id=s.run_id WHERE r.label='plain.json'")
	want=$(python3 -c "import json,sys; j=json.load(open(sys.argv[1]))['jobs'][0]; print(j['read']['total_ios'], '128k', 8, 0)" "$TMP/plain.json")
	is "$got" "$want" "plain json: read I/Os, bs, oio from fio; no histogram; label defaults to the file name"

	# twice: refused, naming the run
	before=$(dbsum)
	out=$("$HB" import fio "$TMP/fio-noted.json" --db "$DB" 2>&1); rc=$?
	is "$rc" 1 "the same fio file twice: exit 1"
	like "$out" "fio-noted.json: already imported as run $RUN 'fio-a'" "the same file twice names the run"
	is "$(dbsum)" "$before" "the same file twice: database byte-identical"

	# malformed
	head -c 3000 "$TMP/fio.json" > "$TMP/trunc.json"
	bad fio "$TMP/trunc.json" "trunc.json:[0-9]+:[0-9]+: (truncated JSON|unterminated string)" "truncated fio JSON"
	"$HB" import fio "$TMP/trunc.json" --db "$TMP/fresh.db" 2>/dev/null
	is "$?:$(ls "$TMP" | grep -c '^fresh\.db')" "1:0" "a failed import into a new database leaves no database behind"
	ln=$(grep -n '"iops" :' "$TMP/fio.json" | head -1 | cut -d: -f1)
	sed "${ln}s/\"iops\" : \([0-9.]*\)/\"iops\" : 1.2.3/" "$TMP/fio.json" > "$TMP/badnum.json"
	col=$(sed -n "${ln}p" "$TMP/badnum.json" | awk '{ print index($0, "1.2.3") + 3 }')
	bad fio "$TMP/badnum.json" "badnum.json:$ln:$col: " "a bad number in fio JSON"
	ln=$(grep -n '"total_ios" :' "$TMP/fio.json" | sed -n 2p | cut -d: -f1)
	sed "${ln}s/\"total_ios\" : [0-9]*/\"total_ios\" : \"many\"/" "$TMP/fio.json" > "$TMP/badtype.json"
	col=$(sed -n "${ln}p" "$TMP/badtype.json" | awk '{ print index($0, "\"many\"") }')
	bad fio "$TMP/badtype.json" "badtype.json:$ln:$col: total_ios: expected a number" "a string where fio has a number"
	python3 -c "
import json,sys; d=json.load(open(sys.argv[1])); del d['jobs'][1]['read']['io_bytes']
json.dump(d, open(sys.argv[2], 'w'), indent=2)" "$TMP/fio.json" "$TMP/missing.json"
	ln=$(python3 -c "
import sys; t=open(sys.argv[1]).read().split('\n'); print([i+1 for i,l in enumerate(t) if '\"read\"' in l][1])" "$TMP/missing.json")
	bad fio "$TMP/missing.json" "missing.json:$ln:[0-9]+: io_bytes: missing, expected a number" "a missing fio field"
	printf 'hello\n' > "$TMP/notjson.json"
	bad fio "$TMP/notjson.json" "notjson.json:1:1: no JSON object" "not fio JSON at all"
	cp "$TMP/qd1_iops.1.log" "$TMP/bad_iops.1.log"
	printf '3000, 17\n' >> "$TMP/bad_iops.1.log"
	python3 -c "
import json,sys; d=json.load(open(sys.argv[1])); d['jobs'][0]['job options']['write_iops_log']='bad'
json.dump(d, open(sys.argv[2], 'w'), indent=2)" "$TMP/fio.json" "$TMP/withbadlog.json"
	n=$(wc -l < "$TMP/bad_iops.1.log")
	bad fio "$TMP/withbadlog.json" "bad_iops.1.log:$n:9: missing columns" "a log line with a missing column" "$TMP/bad_iops.1.log"
	printf '1000, x, 0, 4096, 0\n' > "$TMP/bad_iops.1.log"
	bad fio "$TMP/withbadlog.json" "bad_iops.1.log:1:7: expected an integer" "a bad number in a log" "$TMP/bad_iops.1.log"

	# latency figures that disagree with each other are refused (a histogram
	# that does not count the job's I/Os makes the step's p99 wrong); the
	# expected place and figures come from fio's JSON (python3)
	fiobad() {	# NAME PYTHON-EDIT PATTERN-AFTER-"jobs[0] 'qd1' read: " WHAT
		python3 -c "
import json,sys; d=json.load(open(sys.argv[1])); r=d['jobs'][0]['read']; c=r['clat_ns']; b=c['bins']
$2
json.dump(d, open(sys.argv[2], 'w'), indent=2)" "$TMP/fio.json" "$TMP/$1.json"
		bad fio "$TMP/$1.json" "$1.json:[0-9]+:[0-9]+: jobs\[0\] 'qd1' read: $3" "$4"
	}
	N=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['jobs'][0]['read']['clat_ns']['N'])" "$TMP/fio.json")
	k1=$(python3 -c "import json,sys; print(list(json.load(open(sys.argv[1]))['jobs'][0]['read']['clat_ns']['bins'])[0])" "$TMP/fio.json")
	fiobad binsmore "k=list(b)[0]; b[k] += 100000" "the clat_ns bins count $((N + 100000)) I/Os, its N is $N \(fio writes both from one count\)" "fio bins counting more I/Os than N"
	fiobad iosfewer "r['total_ios'] = r['total_ios'] // 2" "clat_ns N is $N, total_ios $((N / 2)): more apart than the [0-9]+ I/Os \(twice the OIO, or 1%\)" "fio clat N far from total_ios"
	fiobad binneg "k=list(b)[0]; b[k] = -3; c['N'] = sum(b.values()); r['total_ios'] = c['N']" "bin $k1: a negative count" "a negative fio bin count"
	fiobad binorder "c['bins'] = dict(reversed(list(b.items())))" "bin [0-9]+: out of order \(fio writes its bins once each, in ascending nanoseconds\)" "fio bins out of order"
	fiobad pctdown "c['percentile']['99.000000'] = 1" "clat_ns percentile.\"99.000000\" is 1 ns, below clat_ns percentile.\"95.000000\"" "fio percentiles that descend"
	want=$(python3 -c "
import json,sys; c=json.load(open(sys.argv[1]))['jobs'][0]['read']['clat_ns']; b=sorted((int(k), v) for k, v in c['bins'].items())
s=0
for k, v in b:
    s += v
    if s >= c['N'] / 100: break
print(k, b[-1][0])" "$TMP/fio.json")
	if [ "${want% *}" = "${want#* }" ]; then
		skip "fio bins: the first percent of I/Os in the last bin, no wrong percentile to make"
	else
		fiobad pctbins "m=max(int(k) for k in b); c['percentile'] = {p: m for p in c['percentile']}" "clat_ns percentile.\"1.000000\" is ${want#* } ns, but its bins put it at ${want% *} ns" "a fio percentile its bins disagree with"
	fi

	# fio's histogram logs (write_hist_log) are not samples: named, not parsed as JSON
	printf '1000, 0, 4096, 0, 1, 2\n' > "$TMP/qd1_clat_hist.1.log"
	bad fio "$TMP/qd1_clat_hist.1.log" "'.*qd1_clat_hist.1.log' is a fio histogram log \(write_hist_log\), which hbatest does not import" "a fio histogram log"

	# the same run twice in one file: fio's output appended to twice, or a job
	# copied; jobs that only share a name (numjobs without group_reporting) stay
	n=$(wc -l < "$TMP/fio.json")
	cat "$TMP/fio.json" "$TMP/fio.json" > "$TMP/twice.json"
	bad fio "$TMP/twice.json" "twice.json:$((n + 1)):1: the fio result of lines 1-$n again: the file holds the same run twice \(import one copy\)" "a fio result twice in one file"
	{ cat "$TMP/fio.json"; echo "note: another run"; cat "$TMP/plain.json"; } > "$TMP/two.json"
	bad fio "$TMP/two.json" "two.json:$((n + 2)):1: a second fio result begins here \(the first is lines 1-$n\): give each its own file" "two fio results in one file"
	python3 -c "
import json,sys; d=json.load(open(sys.argv[1])); d['jobs'].append(d['jobs'][0])
json.dump(d, open(sys.argv[2], 'w'), indent=2)" "$TMP/fio.json" "$TMP/jobtwice.json"
	ln=$(grep -n '"jobname"' "$TMP/jobtwice.json" | head -1 | cut -d: -f1)
	bad fio "$TMP/jobtwice.json" ":[0-9]+:[0-9]+: jobs\[3\] 'qd1' is jobs\[0\] \(line $((ln - 1))\) again, every value the same: the file holds the same job twice" "a fio job twice"
	python3 -c "
import json,sys; d=json.load(open(sys.argv[1])); d['jobs'][1]['jobname'] = d['jobs'][0]['jobname']
json.dump(d, open(sys.argv[2], 'w'), indent=2)" "$TMP/fio.json" "$TMP/samename.json"
	out=$("$HB" import fio "$TMP/samename.json" --db "$DB" --label samename 2>&1)
	is "$?:$(q "$DB" "SELECT group_concat(s.name, ',') FROM steps s JOIN runs r ON r.id = s.run_id WHERE r.label = 'samename'")" \
		"0:qd1,qd1,mix" "fio jobs that share a name (as numjobs writes them) are imported, each a step"
fi

# ---------------------------------------------------------------- Iometer
out=$("$HB" import iometer "$FIX/results-2006.07.27.csv" "$FIX/results-1.1.0-multi.csv" \
	"$FIX/results-1.1.0-bins.csv" "$FIX/results-aborted.csv" --db "$DB" 2>&1)
ok $? "import iometer: the three layouts, a multi-test file, an aborted test ($(echo $out | sed "s|$FIX/||g"))"
python3 - "$DB" "$FIX" > "$TMP/iom-check.txt" 2>&1 <<'PY'
import sqlite3, sys, os
db = sqlite3.connect(sys.argv[1]); fix = sys.argv[2]; bad = []
def eq(what, got, want, tol=1e-9):
    if got is None or want is None or abs(got - want) > tol * max(1, abs(want)):
        bad.append(f"{what}: {got} != {want}")
def tests(path):
    """Iometer's results.csv as a list of tests: (description, version, aborted, results)."""
    out, cur, hdr, rows = [], None, None, None
    lines = open(path, newline="").read().replace("\r\n", "\n").split("\n")
    for i, line in enumerate(lines):
        f = line.split(",")
        if f[0] == "'Test Type":
            cur = {"desc": lines[i + 1].split(",", 1)[1], "results": [], "aborted": False, "version": lines[i + 3]}
            out.append(cur)
        elif f[0] == "'Target Type":
            hdr = [f[0][1:]] + f[1:]
            rows = []; cur["results"].append(rows)
        elif f[0] in ("ALL", "MANAGER", "WORKER", "DISK") and hdr:
            rows.append(dict(zip(hdr, f)))
        elif f[0] == "Aborted test":
            cur["aborted"] = True
    return out
files = ["results-2006.07.27.csv", "results-1.1.0-multi.csv", "results-1.1.0-bins.csv", "results-aborted.csv"]
for name in files:
    runs = db.execute("SELECT id, label, status, host, version FROM runs WHERE source='iometer' AND source_file LIKE ? ORDER BY id",
                      ("%/" + name,)).fetchall()
    ts = tests(os.path.join(fix, name))
    eq(name + " runs", len(runs), len(ts))
    for (rid, label, status, host, version), t in zip(runs, ts):
        if status != ("aborted" if t["aborted"] else "done"): bad.append(f"{name}: status {status}")
        if version != t["version"]: bad.append(f"{name}: version {version}")
        if t["desc"] and label != t["desc"]: bad.append(f"{name}: label {label}")
        steps = db.execute("SELECT id, name, iops, read_iops, write_iops, mbps, lat_mean_us, lat_max_us, errors, "
                           "read_ops, write_ops, read_bytes, write_bytes, duration_s, oio, workers, kind, axis "
                           "FROM steps WHERE run_id=? ORDER BY seq", (rid,)).fetchall()
        eq(name + " steps", len(steps), len(t["results"]))
        for s, rows in zip(steps, t["results"]):
            a = rows[0]; assert a["Target Type"] == "ALL"
            m = next(r for r in rows if r["Target Type"] == "MANAGER")
            w = f"{name} {s[1]}"
            if s[1] != a["Access Specification Name"] or s[16] != "measure": bad.append(w + " name/kind")
            eq(w + " iops", s[2], float(a["IOps"])); eq(w + " read iops", s[3], float(a["Read IOps"]))
            eq(w + " write iops", s[4], float(a["Write IOps"]))
            mb = float(a["MBps (Decimal)"]) if "MBps (Decimal)" in a else float(a["MBps"]) * 1048576 / 1e6
            eq(w + " mbps", s[5], mb)
            eq(w + " mean", s[6], float(a["Average Response Time"]) * 1000)
            eq(w + " max", s[7], float(a["Maximum Response Time"]) * 1000)
            for k, col in ((8, "Errors"), (9, "Read I/Os"), (10, "Write I/Os"), (11, "Bytes Read"), (12, "Bytes Written")):
                eq(w + " " + col, s[k], int(a[col]))
            eq(w + " duration", s[13], round(int(m["Total Raw Run Time"]) / int(m["Processor Speed"])))
            eq(w + " oio", s[14], int(a["Queue Depth"]) * int(a["# Disks"]))
            eq(w + " workers", s[15], int(a["# Workers"]))
            for r in rows[1:]:
                if r["Target Type"] == "MANAGER": continue
                path = r["Target Name"] if r["Target Type"] == "DISK" else f"worker:{m['Target Name']}/{r['Target Name']}"
                st = db.execute("SELECT read_ops, write_ops, read_bytes, write_bytes, errors FROM step_targets "
                                "WHERE step_id=? AND path=?", (s[0], path)).fetchone()
                want = tuple(int(r[c]) for c in ("Read I/Os", "Write I/Os", "Bytes Read", "Bytes Written", "Errors"))
                if st != want: bad.append(f"{w}: step_targets {path} {st} != {want}")
                if r["Target Type"] == "DISK" and not db.execute(
                        "SELECT 1 FROM targets WHERE run_id=? AND path=?", (rid, path)).fetchone():
                    bad.append(f"{w}: no target {path}")
            if not db.execute("SELECT 1 FROM probes WHERE run_id=? AND value=?", (rid, m["Target Name"])).fetchone():
                bad.append(f"{w}: no probe names the manager")
# the OIO sweep (one access specification at queue depth 1 and 4)
ax = db.execute("SELECT axis, axis_value FROM steps s JOIN runs r ON r.id=s.run_id WHERE r.label='OIO sweep' ORDER BY seq").fetchall()
if ax != [("oio", "1"), ("oio", "4")]: bad.append(f"sweep axes {ax}")
# the inst file's WORKER rows: one sample each
rows = [l.split(",") for l in open(os.path.join(fix, "instresults-1.1.0-bins.csv"), newline="").read().split("\r\n")]
hdr = next(r for r in rows if r[0] == "TimeStamp"); hdr = [hdr[0], hdr[1][1:]] + hdr[2:]
iv = [dict(zip(hdr, r)) for r in rows if len(r) > 3 and r[1] == "WORKER" and r[3] == ""]
got = db.execute("SELECT s.t, s.read_ops, s.write_ops, s.write_bytes, s.write_lat_mean_us, s.lat_max_us FROM samples s "
                 "JOIN steps p ON p.id=s.step_id JOIN runs r ON r.id=p.run_id WHERE r.label='Writes' ORDER BY s.t").fetchall()
want = [(i, int(r["Read I/Os"]), int(r["Write I/Os"]), int(r["Bytes Written"]),
         float(r["Average Write Response Time"]) * 1000, float(r["Maximum Response Time"]) * 1000) for i, r in enumerate(iv)]
if got != want: bad.append(f"inst samples {got} != {want}")
print("\n".join(bad) if bad else "same")
PY
is "$(cat "$TMP/iom-check.txt")" "same" "iometer: runs, steps, step targets, probes, sweep and inst samples equal the CSV files"
is "$(q "$DB" "SELECT count(*) FROM step_targets WHERE path = 'PHYSICALDRIVE:4 \"Samsung'")" 1 \
	"iometer: a disk name with a lone double quote is read as text"
is "$(q "$DB" "SELECT message FROM events e JOIN runs r ON r.id=e.run_id WHERE r.label='Stopped'")" \
	"Iometer: Aborted test" "iometer: the aborted test is recorded as an event"

before=$(dbsum)
out=$("$HB" import iometer "$FIX/results-aborted.csv" --db "$DB" 2>&1); rc=$?
is "$rc" 1 "the same Iometer file twice: exit 1"
like "$out" "results-aborted.csv: already imported as run [0-9]+ 'Stopped'" "the same Iometer file twice names the run"
is "$(dbsum)" "$before" "the same Iometer file twice: database byte-identical"

mkdir -p "$TMP/sub"
cp "$FIX/results-1.1.0-bins.csv" "$TMP/sub/r.csv"
"$HB" import iometer "$TMP/sub/r.csv" --db "$TMP/two.db" >/dev/null 2>&1
is "$(q "$TMP/two.db" "SELECT count(*) FROM samples")" 0 "iometer: no inst file beside it, no samples"
cp "$FIX/instresults-1.1.0-bins.csv" "$TMP/instr.csv"
"$HB" import iometer "$TMP/sub/r.csv" "$TMP/instr.csv" --db "$TMP/three.db" >/dev/null 2>&1
is "$(q "$TMP/three.db" "SELECT count(*) FROM samples")" 3 "iometer: the inst file given on the command line gives the samples"

M="$FIX/results-1.1.0-multi.csv"
ln=$(grep -n "^'Target Type" "$M" | head -1 | cut -d: -f1)
sed "${ln}s/,Read IOps,/,Read IOPS,/" "$M" > "$TMP/hdr.csv"
col=$(sed -n "${ln}p" "$TMP/hdr.csv" | awk '{ print index($0, "Read IOPS") }')
bad iometer "$TMP/hdr.csv" "hdr.csv:$ln:$col: unknown column 'Read IOPS' \(Iometer's results header has 'Read IOps' here\)" "a wrong Iometer header"
ln=$(grep -n "^DISK" "$M" | head -1 | cut -d: -f1)
sed "${ln}s/,[^,]*\$//" "$M" > "$TMP/short.csv"
col=$(( $(sed -n "${ln}p" "$TMP/short.csv" | wc -c) ))
bad iometer "$TMP/short.csv" "short.csv:$ln:$col: missing column 'Segments Retransmitted/Second'" "an Iometer row with a missing column"
ln=$(grep -n "^ALL" "$M" | sed -n 2p | cut -d: -f1)
sed "${ln}s/^\(ALL,All,[^,]*,1,1,1,\)[0-9.]*/\112x5/" "$M" > "$TMP/num.csv"
col=$(sed -n "${ln}p" "$TMP/num.csv" | awk '{ print index($0, "12x5") }')
bad iometer "$TMP/num.csv" "num.csv:$ln:$col: IOps: '12x5' is not a decimal number" "a bad number in Iometer's CSV"
n=$(grep -n "^'Results" "$M" | tail -1 | cut -d: -f1)
head -n "$((n + 3))" "$M" > "$TMP/trunc.csv"
bad iometer "$TMP/trunc.csv" "trunc.csv:$((n + 4)):1: truncated: test 2 has no \"'End Test\" or \"Aborted test\" line \(Iometer 1.1.0" "a truncated Iometer file (at a line end): the markers quoted whole"
head -c "$(( $(head -n "$((n + 3))" "$M" | wc -c) - 40 ))" "$M" > "$TMP/cut.csv"
bad iometer "$TMP/cut.csv" "cut.csv:$((n + 3)):[0-9]+: missing column" "a truncated Iometer file (inside a row)"
bad iometer "$TMP/fio.json" "fio.json:1:1: expected \"'Test Type,Test Description\" \(is this" "a file that is not Iometer's"
cat "$FIX/results-1.1.0-bins.csv" "$FIX/results-1.1.0-bins.csv" > "$TMP/itwice.csv"
n=$(wc -l < "$FIX/results-1.1.0-bins.csv")
bad iometer "$TMP/itwice.csv" "itwice.csv:$((n + 6)):1: test 2 starts at 2014-03-05 11:00:00:000, as test 1 does \(line 6\): the file holds the same test twice" "an Iometer test twice in one file"
sed '/^.End access specifications/,$d' "$FIX/results-1.1.0-bins.csv" > "$TMP/nospecend.csv"
bad iometer "$TMP/nospecend.csv" "nospecend.csv:12:1: truncated: no \"'End access specifications\" line\$" "Iometer specifications without their end"
# a dated Iometer (no 'End Test) file cut short: each result ends with its
# "'Time Stamp" (ManagerList::SaveResults), and a test holds a result
O="$FIX/results-2006.07.27.csv"
head -n 17 "$O" > "$TMP/t17.csv"
bad iometer "$TMP/t17.csv" "t17.csv:18:1: truncated: result 1 of test 1 \(\"'Results\" at line 13\) has no closing \"'Time Stamp\" line \(Iometer 2006.07.27" \
	"a 2006 Iometer file cut after its rows began (accepted as done before)"
head -n 20 "$O" > "$TMP/t20.csv"
bad iometer "$TMP/t20.csv" "t20.csv:21:1: truncated: result 1 of test 1 .* no closing \"'Time Stamp\"" \
	"a 2006 Iometer file cut after its last row"
head -n 12 "$O" > "$TMP/t12.csv"
bad iometer "$TMP/t12.csv" "t12.csv:13:1: truncated: test 1 has no result after its access specifications \(line 7\)" \
	"a 2006 Iometer file cut after its specifications"
head -n 6 "$O" > "$TMP/t6.csv"
bad iometer "$TMP/t6.csv" "t6.csv:7:1: truncated: test 1 has no result" "a 2006 Iometer file of its first lines"
{ head -n 17 "$O"; sed 's/14:03:11:250/15:00:00:000/' "$O"; } > "$TMP/tmid.csv"
bad iometer "$TMP/tmid.csv" "tmid.csv:18:1: truncated: result 1 of test 1 .* no closing" \
	"a cut 2006 Iometer test with a whole one after it"

# memory: a file that is not Iometer's is refused at its first line, not
# read whole; a large one of Iometer's splits into a few times its size (one
# field an allocation took 24 times it: 969 MB for 40 MB)
if sanitized; then
	skip "Iometer files under ulimit -v (ASan reserves more)"
else
	yes 1,2,3,4,5,6,7,8,9 | head -c 64M > "$TMP/notiom.csv"
	before=$(dbsum)
	out=$(ulimit -v 51200; "$HB" import iometer "$TMP/notiom.csv" --db "$DB" 2>&1); rc=$?
	is "$rc:$(dbsum)" "1:$before" "a 64 MiB file that is not Iometer's: exit 1, database byte-identical"
	like "$out" "notiom.csv:1:1: expected \"'Test Type,Test Description\"" \
		"a 64 MiB file that is not Iometer's: refused at line 1 in 50 MiB (it was read and split whole)"
	rm -f "$TMP/notiom.csv"
	python3 - "$O" "$TMP/many.csv" <<'PY'
import sys
# the 2006 test on a 64-CPU manager (a PROCESSOR row each), 16 MB of tests
t = open(sys.argv[1], newline="").read().split("\r\n")
cpu = next(l for l in t if l.startswith("PROCESSOR,CPU 0,"))
rows = []
for l in t:
    if l.startswith("PROCESSOR,CPU 0,"):
        rows += [cpu.replace("CPU 0,", "CPU %d," % c, 1) for c in range(64)]
    elif not l.startswith("PROCESSOR,"):
        rows.append(l)
test, n, k = "\r\n".join(rows), 0, 0
with open(sys.argv[2], "w", newline="") as f:
    while n < 16_000_000:
        f.write(test.replace("2006-10-02", "%04d-%02d-%02d" % (2007 + k // 336, 1 + k // 28 % 12, 1 + k % 28)))
        n, k = n + len(test), k + 1
PY
	out=$(ulimit -v 131072; "$HB" import iometer "$TMP/many.csv" --db "$TMP/many.db" 2>&1)
	is "$?:$(q "$TMP/many.db" "SELECT count(*) FROM probes WHERE key = 'processor'")" \
		"0:$(( $(grep -c '^PROCESSOR' "$TMP/many.csv") ))" \
		"a 16 MB Iometer file of 64-CPU results imports in 128 MiB ($(printf '%s' "$out" | sed "s|$TMP/||g"))"
	rm -f "$TMP/many.csv" "$TMP/many.db"
fi

# ---------------------------------------------------------------- hbatest JSON
X="$ROOT/tests/fixtures/export/run.json"
out=$("$HB" import hbatest "$X" --db "$DB" 2>&1)
ok $? "import hbatest: a hand-written export ($(echo $out | sed "s|$ROOT/||g"))"
python3 - "$X" "$DB" > "$TMP/hb-check.txt" 2>&1 <<'PY'
import json, sqlite3, sys
x = json.load(open(sys.argv[1])); db = sqlite3.connect(sys.argv[2]); bad = []
uuid = x["runs"][0]["uuid"]
run = db.execute("SELECT id FROM runs WHERE uuid=?", (uuid,)).fetchone()[0]
steps = {seq: sid for sid, seq in db.execute("SELECT id, seq FROM steps WHERE run_id=?", (run,))}
where = {"runs": ("id=?", lambda r: (run,)),
         "targets": ("run_id=? AND path=?", lambda r: (run, r["path"])),
         "steps": ("run_id=? AND seq=?", lambda r: (run, r["seq"])),
         "step_targets": ("step_id=? AND path=?", lambda r: (steps[r["step_seq"]], r["path"])),
         "steady_state": ("run_id=? AND name=?", lambda r: (run, r["name"])),
         "samples": ("step_id=? AND t=?", lambda r: (steps[r["step_seq"]], r["t"])),
         "histograms": ("step_id=? AND dir=?", lambda r: (steps[r["step_seq"]], r["dir"])),
         "probes": ("run_id=? AND probe=? AND key=?", lambda r: (run, r["probe"], r["key"])),
         "events": ("run_id=? AND message=?", lambda r: (run, r["message"]))}
for table, (w, args) in where.items():
    n = db.execute(f"SELECT count(*) FROM {table} WHERE " + w.split(" AND ")[0].replace("?", "?"),
                   args(x[table][0])[:1]).fetchone()[0] if x[table] else 0
    for r in x[table]:
        cols = [k for k in r if k not in ("run_uuid", "step_seq", "first_step_seq", "last_step_seq")]
        got = db.execute(f"SELECT {', '.join(cols)} FROM {table} WHERE {w}", args(r)).fetchall()
        want = [tuple(r[c] for c in cols)]
        if got != want: bad.append(f"{table}: {got} != {want}")
ss = db.execute("SELECT first_step_id, last_step_id FROM steady_state WHERE run_id=?", (run,)).fetchone()
if ss != (steps[1], steps[2]): bad.append(f"steady_state steps {ss}")
for t in where:
    if t == "runs": continue
    q = f"SELECT count(*) FROM {t} WHERE " + ("step_id IN (SELECT id FROM steps WHERE run_id=?)"
        if t in ("samples", "step_targets", "histograms") else "run_id=?")
    if db.execute(q, (run,)).fetchone()[0] != len(x[t]): bad.append(f"{t}: row count")
print("\n".join(bad) if bad else "same")
PY
is "$(cat "$TMP/hb-check.txt")" "same" "hbatest: every row of every table as the file has it (uuid, status, times kept)"
before=$(dbsum)
out=$("$HB" import hbatest "$X" --db "$DB" 2>&1); rc=$?
is "$rc" 1 "the same run twice: exit 1"
like "$out" "run.json:6:[0-9]+: run 0f3c2a8e-5d1b-4c77-9a0e-2b6d4e8f1a90 is in the database already, as run [0-9]+ 'LSI 9361-8i \(bench 2\)'" \
	"the same run twice: refused, naming the uuid and the run"
is "$(dbsum)" "$before" "the same run twice: database byte-identical"
# a copy with another uuid, then broken in four ways
sed 's/0f3c2a8e-5d1b-4c77-9a0e-2b6d4e8f1a90/11111111-2222-4333-8444-555555555555/' "$X" > "$TMP/x.json"
head -c 2000 "$TMP/x.json" > "$TMP/xtrunc.json"
bad hbatest "$TMP/xtrunc.json" "xtrunc.json:[0-9]+:[0-9]+: (truncated JSON|unterminated string)" "a truncated export"
ln=$(grep -n '"seq": 2' "$TMP/x.json" | cut -d: -f1)
sed "${ln}s/\"seq\": 2/\"seq\": 2x/" "$TMP/x.json" > "$TMP/xnum.json"
col=$(sed -n "${ln}p" "$TMP/xnum.json" | awk '{ print index($0, "2x") + 1 }')
bad hbatest "$TMP/xnum.json" "xnum.json:$ln:$col: expected ',' or '}'" "a bad number in an export"
sed "${ln}s/\"seq\": 2/\"seq\": \"2\"/" "$TMP/x.json" > "$TMP/xtype.json"
col=$(sed -n "${ln}p" "$TMP/xtype.json" | awk '{ print index($0, "\"2\"") }')
bad hbatest "$TMP/xtype.json" "xtype.json:$ln:$col: steps: 'seq' has the wrong type" "a string where an export has a number"
sed "${ln}s/\"kind\": \"measure\", //" "$TMP/x.json" > "$TMP/xmiss.json"
bad hbatest "$TMP/xmiss.json" "xmiss.json:$ln:5: steps: missing 'kind'" "an export row without a column"
sed 's/"format": "hbatest-export"/"format": "hbatest-csv"/' "$TMP/x.json" > "$TMP/xhead.json"
bad hbatest "$TMP/xhead.json" "xhead.json:2:13: format: expected \"hbatest-export\"" "a wrong export header"
ln=$(grep -n '"step_seq": 2, "t": 0' "$TMP/x.json" | cut -d: -f1)
sed "${ln}s/\"step_seq\": 2/\"step_seq\": 7/" "$TMP/x.json" > "$TMP/xref.json"
bad hbatest "$TMP/xref.json" "xref.json:$ln:[0-9]+: samples: step_seq names no step of its run" "a sample of a step the file lacks"
# histograms that disagree with the step's I/O count (or are not in order)
# are refused: the step's p99 in reports would be wrong
ln=$(grep -n '"counts": "\[\[1456,19000\],\[1800,1000\]\]"' "$TMP/x.json" | cut -d: -f1)
hist() {	# COUNTS PATTERN WHAT
	sed "${ln}s/\"counts\": \"[^\"]*\"/\"counts\": \"$1\"/" "$TMP/x.json" > "$TMP/xhist.json"
	bad hbatest "$TMP/xhist.json" "xhist.json:$ln:[0-9]+: histograms\[0\]: step 1 'randread oio=1' read: $2" "$3"
}
hist "[[1456,190000],[1800,1000]]" "the buckets count 191000 I/Os, the step's read_ops is 20000: one count per I/O" "a histogram counting more I/Os than its step"
hist "[[1456,1900],[1800,1000]]" "the buckets count 2900 I/Os, the step's read_ops is 20000" "a histogram counting fewer I/Os than its step"
hist "[[1800,1000],[1456,19000]]" "bucket 1456 after bucket 1800: buckets ascend, each once" "histogram buckets out of order"
hist "[[1456,21000],[1800,-1000]]" "bucket 1800 has a negative count \(-1000\)" "a negative histogram count"
hist "[[1456,19000],[99999,1000]]" "bucket 99999 is outside 0-4735 of its layout" "a histogram bucket past the layout"
hist "[[1456,19000],[1800]]" "pair 2 \(\[1800\]\) is not \[bucket, count\] in integers" "a histogram pair without its count"
hist "20000" "counts is not JSON \[\[bucket, count\], ...\]" "histogram counts that are not pairs"
sed "s/\"layout\": \"loglin-v1 unit=ns sub_bits=7 max_exp=42\"/\"layout\": \"hdr-v2\"/" "$TMP/x.json" > "$TMP/xlayout.json"
bad hbatest "$TMP/xlayout.json" "xlayout.json:$((ln)):[0-9]+: histograms\[0\]: step 1 'randread oio=1' read: layout 'hdr-v2': this hbatest reads 'loglin-v1 unit=ns sub_bits=7 max_exp=42'" "a histogram of another layout"

# the same run twice in one file: two exports joined, or one run listed twice
n=$(wc -l < "$X")
cat "$X" "$X" > "$TMP/xtwice.json"
bad hbatest "$TMP/xtwice.json" "xtwice.json:$((n + 1)):1: the export of lines 1-$n again: the file holds the same run twice \(import one copy\)" "an export twice in one file"
{ cat "$TMP/x.json"; sed 's/"status": "done"/"status":"done"/' "$TMP/x.json"; } > "$TMP/xjoined.json"
bad hbatest "$TMP/xjoined.json" "xjoined.json:$((n + 1)):1: a second export, with run 11111111-2222-4333-8444-555555555555 again \(the first is lines 1-$n\): the file holds the same run twice" "two exports of one run joined"
python3 -c "
import json,sys; d=json.load(open(sys.argv[1]))
for t in d:
    if isinstance(d[t], list): d[t] = d[t] + d[t]
json.dump(d, open(sys.argv[2], 'w'), indent=1)" "$TMP/x.json" "$TMP/xdup.json"
ln=$(grep -n '"uuid"' "$TMP/xdup.json" | head -1 | cut -d: -f1)
bad hbatest "$TMP/xdup.json" "xdup.json:[0-9]+:[0-9]+: run 11111111-2222-4333-8444-555555555555 is in the file twice \(as runs\[0\], line $ln\): the same run twice" "an export listing one run twice"

# ---------------------------------------------------------------- usage
"$HB" import --db "$DB" >/dev/null 2>&1; is $? 2 "import without a kind: exit 2"
"$HB" import nmon "$X" --db "$DB" >/dev/null 2>&1; is $? 2 "import of an unknown kind: exit 2"
"$HB" import fio --db "$DB" >/dev/null 2>&1; is $? 2 "import without a file: exit 2"
before=$(dbsum)
out=$("$HB" import fio "$TMP/nothere.json" --db "$DB" 2>&1); rc=$?
is "$rc" 1 "import of a missing file: exit 1"
like "$out" "cannot read '.*nothere.json'" "import of a missing file names it"
is "$(dbsum)" "$before" "import of a missing file: database byte-identical"

# a directory, an empty file, binary data, a large sparse file: each kind says
# what the file should have been, exits 1 as a missing file does, and leaves
# the database byte-identical; the sparse file is refused at its first NUL,
# not read whole (its 1 GiB would not fit under the 200 MiB limit)
mkdir -p "$TMP/adir"
: > "$TMP/empty"
printf '\n  \r\n\t\n' > "$TMP/blank"
printf '{"jobs": [\n' > "$TMP/binary"; printf 'ab\0cd' >> "$TMP/binary"
truncate -s 1G "$TMP/sparse"
for kind in fio iometer hbatest; do
	case $kind in
	fio) what="a fio JSON file" ;;
	iometer) what="an Iometer results file" ;;
	hbatest) what="an hbatest JSON export" ;;
	esac
	bad "$kind" "$TMP/adir" "^hbatest: error: '.*adir' is a directory, not $what\$" "$kind: a directory"
	bad "$kind" "$TMP/empty" "'.*empty' is empty, not $what\$" "$kind: an empty file"
	bad "$kind" "$TMP/blank" "'.*blank' holds only blanks, not $what\$" "$kind: a file of blanks"
	bad "$kind" "$TMP/binary" "binary:2:3: a NUL byte: binary data, not $what\$" "$kind: binary data"
	if sanitized; then
		skip "$kind: a 1 GiB sparse file under ulimit -v (ASan reserves more)"
	else
		before=$(dbsum)
		out=$(ulimit -v 204800; "$HB" import "$kind" "$TMP/sparse" --db "$DB" 2>&1); rc=$?
		is "$rc:$(dbsum)" "1:$before" "$kind: a 1 GiB sparse file: exit 1, database byte-identical"
		like "$out" "sparse:1:1: a NUL byte: binary data, not $what\$" "$kind: a 1 GiB sparse file refused at its first byte, in 200 MiB"
	fi
done

# ---------------------------------------------------------------- list, show, report
list=$("$HB" list --db "$DB")
like "$list" "fio-a +done .*fio-noted.json" "list shows the imported fio run"
like "$list" "OIO sweep +done .*results-1.1.0-multi.csv" "list shows the imported Iometer run"
like "$list" "Stopped +aborted" "list shows the aborted Iometer test as aborted"
like "$list" "LSI 9361-8i \(bench 2\) +done" "list shows the imported hbatest run"
like "$("$HB" show fio-a --db "$DB")" "qd4 +done +[0-9]+" "show lists the fio run's jobs as steps"
like "$("$HB" show 'OIO sweep' --db "$DB")" "8K; 70% Read; 100% random +done +2000 " "show lists the Iometer run's results as steps"
like "$("$HB" show 'OIO sweep' --db "$DB")" "imported +iometer results from '.*results-1.1.0-multi.csv'" "show says where an imported run came from"
like "$("$HB" show 'OIO sweep' --db "$DB")" "target +PHYSICALDRIVE:2 \(block\)"$'\n' "show: an Iometer disk, its size unknown"
rm -rf "$TMP/rep"
"$HB" report fio-a 'OIO sweep' "LSI 9361-8i (bench 2)" --db "$DB" --out "$TMP/rep" --no-charts >/dev/null 2>&1
ok $? "report over a fio, an Iometer and an hbatest run"
page=$(cat "$TMP/rep/index.html" 2>/dev/null)
like "$page" "randread bs=4k, oio 4" "report: the fio OIO sweep points labelled by group and axis"
like "$page" "8K; 70% Read; 100% random, oio 4" "report: the Iometer OIO sweep points labelled by group and axis"
like "$page" '<th>Imported from</th><td>fio-3\.[0-9]+ \(fio-noted\.json\)</td><td>iometer 1\.1\.0 \(results-1\.1\.0-multi\.csv\)</td><td>–</td>' \
	"report: an imported run's tool and file in a row of their own, not as hbatest's version"
like "$page" '<th>hbatest</th><td>[^<]*</td><td>[^<]*</td><td>[0-9]+\.[0-9]+\.[0-9]+</td>' \
	"and the hbatest run's version under hbatest"
like "$page" '<th>Latency</th><td>completion only \(fio clat: without the submission, so lower than submit to completion; fio --lat_percentiles=1 gives lat\)</td><td>submit to completion \(Iometer(&#39;|&#x27;|'"'"')s response time\)</td><td>submit to completion</td>' \
	"report: what each run's latency times, the fio run's clat told apart"

done_testing
