#!/usr/bin/env bash
# hbatest import fio by direction mix, as a table (tests/fixtures/fio/mixes.json,
# json+ as fio 3.33 wrote it): read-only, write-only, a 70/30 random mix and a
# 30/70 sequential mix. Each job's rw, bs and write % are its options'; the
# percentiles of a one-direction job are fio's own, of a mixed job those of
# its read and write bins merged (nearest rank over the merged histogram,
# computed here from fio's bins); each direction's bins are stored as its
# histogram. The mixed job's interval logs (both directions in one file, as
# fio writes them) give each second's reads and writes.
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null || { skip "python3 is not installed"; done_testing; exit 0; }
FIX="$ROOT/tests/fixtures/fio"
DB="$TMP/m.db"
"$HB" import fio "$FIX/mixes.json" "$FIX"/mix70_*.3.log --db "$DB" --label mixes >"$TMP/out" 2>"$TMP/err"
ok $? "import the four jobs with the mixed job's logs"

python3 - "$FIX/mixes.json" "$DB" > "$TMP/check" 2>&1 <<'PY'
import json, math, sqlite3, sys
d = json.load(open(sys.argv[1])); db = sqlite3.connect(sys.argv[2])
SUB = 128
def index(v):	# core/base/hist.h hist_index
    if v < SUB: return v
    e = v.bit_length() - 1
    return (e - 7) * SUB + (v >> (e - 7))
def low(i): return i if i < SUB else (i % SUB + SUB) << (i // SUB - 1)
def width(i): return 1 if i < 2 * SUB else 1 << (i // SUB - 1)
def percentile(bins, p):	# core/base/hist.c hist_percentile, on fio's bins
    h, total = {}, 0
    for k, c in bins.items():
        h[index(int(k))] = h.get(index(int(k)), 0) + c; total += c
    lo, hi = min(int(k) for k in bins), max(int(k) for k in bins)
    rank = max(1, math.ceil(p / 100 * total))
    seen = 0
    for i in sorted(h):
        seen += h[i]
        if seen >= rank:
            return min(max(low(i) + (width(i) - 1) / 2, lo), hi)
def close(a, b): return a is not None and b is not None and abs(a - b) <= 1e-9 * max(1, abs(b))
for j in d["jobs"]:
    n, o = j["jobname"], j["job options"]
    s = db.execute("SELECT id, rw, bs, write_pct, lat_p50_us, lat_p99_us, lat_p999_us FROM steps WHERE name = ?",
                   (n,)).fetchone()
    r, w = j["read"]["clat_ns"], j["write"]["clat_ns"]
    mix = "mixed" if r["N"] and w["N"] else "one direction"
    row = [n, mix, s[1] == o["rw"], s[2] == o["bs"], s[3] == 100 - int(o.get("rwmixread", 100 if r["N"] else 0))]
    if mix == "mixed":
        both = dict(r["bins"])
        for k, c in w["bins"].items(): both[k] = both.get(k, 0) + c
        want = [percentile(both, p) / 1000 for p in (50, 99, 99.9)]
        # the bug this table is for: the read bins alone give another p99
        row.append(percentile(r["bins"], 99) != percentile(both, 99))
    else:
        p = (r if r["N"] else w)["percentile"]
        want = [p[k] / 1000 for k in ("50.000000", "99.000000", "99.900000")]
    row += [close(s[4 + k], want[k]) for k in range(3)]
    for dn, dd in (("read", r), ("write", w)):
        h = db.execute("SELECT counts FROM histograms WHERE step_id = ? AND dir = ?", (s[0], dn)).fetchone()
        row.append(sum(c for _, c in json.loads(h[0])) == dd["N"] if dd["N"] else h is None)
    print(" ".join(str(x) for x in row))
PY
# JOB MIX rw bs write% [read bins alone differ] p50 p99 p99.9 read-hist write-hist
while read -r job want; do
	is "$(grep "^$job " "$TMP/check")" "$job $want" "$job: rw, bs, write %, p50, p99, p99.9 and each direction's histogram as fio wrote them"
done <<'EOF_TABLE'
read one direction True True True True True True True True
write one direction True True True True True True True True
mix70 mixed True True True True True True True True True
mix30 mixed True True True True True True True True True
EOF_TABLE
is "$(q "$DB" "SELECT rw || ' ' || write_pct FROM steps ORDER BY seq" | tr '\n' ' ')" \
	"randread 0 randwrite 100 randrw 30 rw 70 " "rw and write % of each job, in job order"

# the mixed job's iops log: one line per direction and second (ms, count, dir, bs, offset)
want=$(awk -F', ' '{ n[$1] = n[$1] " " $2 } END { for (t in n) print t n[t] }' "$FIX/mix70_iops.3.log" |
	sort -n | awk '{ print NR - 1, $2, $3 }' | tr '\n' ';')
got=$(q "$DB" "SELECT t, samples.read_ops, samples.write_ops FROM samples JOIN steps ON steps.id = step_id WHERE name = 'mix70' ORDER BY t" |
	tr '|' ' ' | tr '\n' ';')
is "$got" "$want" "mix70's samples: each second's reads and writes from its one iops log (direction 0 and 1)"
grep -q "latency entry" "$TMP/err"; ok $((! $?)) \
	"its latency log's last, partial interval (fio writes no rate for it) is not stored, and not warned of"

# a trim job (fio on a loop device): refused, naming the job, nothing written,
# not stored as a step of 0 IOPS
"$HB" import fio "$FIX/trim.json" --db "$TMP/trim.db" 2>"$TMP/trim.err"
is $? 1 "a trim job: exit 1"
like "$(cat "$TMP/trim.err")" "trim.json:[0-9]+:[0-9]+: jobs\[0\] 'trim4k': a trim job \(hbatest stores reads and writes only\)" \
	"the error names the file, line, job and why"
ok $([ ! -e "$TMP/trim.db" ]; echo $?) "no database is made for it"

done_testing
