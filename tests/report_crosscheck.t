#!/usr/bin/env bash
# hbatest report, a native run beside one imported from fio: the delta of a
# step that did not run as the fio job did carries a note saying how
# (reports/crosscheck.lua): no preset "fio", another engine, placed workers,
# a fio job with tuning options; a step with io_uring = { preset = "fio" }
# against fio's defaults has none, and two native runs never do.
. "$(dirname "$0")/lib.sh"

command -v gnuplot >/dev/null || { skip "gnuplot is not installed (apt-get install gnuplot-nox)"; done_testing; exit 0; }

DB="$TMP/r.db"
F="$TMP/t.dat"
dd if=/dev/zero of="$F" bs=1M count=16 status=none
# the fixture: fio's io_uring with its defaults, randrw 70/30, 8k, iodepth 4, 1 job
"$HB" import fio "$(dirname "$0")/fixtures/fio/mix.json" --db "$DB" --label fio >/dev/null
ok $? "import fio's mix.json (io_uring, iodepth 4)"
# the same job as if run with --fixedbufs=1
python3 - "$(dirname "$0")/fixtures/fio/mix.json" "$TMP/tuned.json" "$TMP/reap.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["jobs"][0]["job options"]["fixedbufs"] = "1"
json.dump(d, open(sys.argv[2], "w"))
del d["jobs"][0]["job options"]["fixedbufs"]
d["jobs"][0]["job options"]["iodepth_batch_complete_max"] = "4"
json.dump(d, open(sys.argv[3], "w"))
PY
"$HB" import fio "$TMP/tuned.json" --db "$DB" --label fio-tuned >/dev/null
ok $? "import it again as if run with fixedbufs=1"
"$HB" import fio "$TMP/reap.json" --db "$DB" --label fio-reap >/dev/null
ok $? "and as if run reaping up to 4 a call (iodepth_batch_complete_max=4)"
python3 - "$(dirname "$0")/fixtures/fio/mix.json" "$TMP/pinned.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["jobs"][0]["job options"]["cpus_allowed"] = "0"
json.dump(d, open(sys.argv[2], "w"))
PY
"$HB" import fio "$TMP/pinned.json" --db "$DB" --label fio-pinned >/dev/null
ok $? "and as if pinned to CPU 0 (cpus_allowed=0)"
# the same job as two threads of iodepth 2 (numjobs=2, grouped: oio 4 over 2
# workers), and as one with iodepth=8 in its global options, 4 in its own
python3 - "$(dirname "$0")/fixtures/fio/mix.json" "$TMP/jobs.json" "$TMP/global.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
o = d["jobs"][0]["job options"]
for k in ("write_iops_log", "write_bw_log", "write_lat_log", "log_avg_msec"):
    o.pop(k)
o["numjobs"], o["iodepth"] = "2", "2"
d["global options"]["group_reporting"] = ""
json.dump(d, open(sys.argv[2], "w"))
d = json.load(open(sys.argv[1]))
d["global options"]["iodepth"] = "8"
json.dump(d, open(sys.argv[3], "w"))
PY
"$HB" import fio "$TMP/jobs.json" --db "$DB" --label fio-jobs >/dev/null
ok $? "import it as numjobs=2, iodepth=2"
"$HB" import fio "$TMP/global.json" --db "$DB" --label fio-global >/dev/null
ok $? "import it with iodepth=8 in the global options, the job's own 4"

# native LABEL ENGINE-KEYS: the fixture's step, 1 s
native() {
	printf 'hb.run{ name = "mix", group = "mix", %s, rw = "randrw", write_pct = 30, bs = "8k", oio = 4, duration = 1, size = "8m" }\n' \
		"$2" > "$TMP/$1.lua"
	# (dd wrote $F, not hbatest: --destroy-data offers it)
	"$HB" run "$TMP/$1.lua" --db "$DB" --target "$F" --destroy-data "$F" --label "$1" -q 2>>"$TMP/stderr"
	ok $? "run $1 ($2)"
}
native native 'engine = "io_uring"'
native like 'engine = "io_uring", io_uring = { preset = "fio" }'
native placed 'engine = "io_uring", io_uring = { preset = "fio" }, numa = "auto"'
native aio 'engine = "libaio", libaio = { preset = "fio" }'
native jobs 'engine = "io_uring", io_uring = { preset = "fio" }, workers = 2'
native pinned 'engine = "io_uring", io_uring = { preset = "fio" }, cpus = "0"'

# notes RUN...: the report of the runs (the first the baseline); per run after
# it, the note of its IOPS delta ("-" for none), one a line
notes() {
	rm -rf "$TMP/rep"
	"$HB" report "$@" --db "$DB" --out "$TMP/rep" >/dev/null 2>"$TMP/err" || { cat "$TMP/err"; return 1; }
	python3 - "$TMP/rep/index.html" $(($# - 1)) <<'PY'
import html, re, sys
page = open(sys.argv[1]).read()
cells = re.findall(r'<td class="num (?:better|worse|noise)" title="[^"]*">(.*?)</td>', page)
for c in cells[:int(sys.argv[2])]:
    m = re.search(r'<span class="note crosscheck">(.*?)</span>', c)
    print(html.unescape(m.group(1)) if m else "-")
PY
}
out=$(notes fio native like placed aio)
ok $? "the report of fio's run against four native runs"
is "$(sed -n 1p <<<"$out")" 'not like for like: hbatest io_uring without preset = "fio" (its own batching, registered buffers and files)' \
	"io_uring with its own defaults against fio's: the delta says so"
is "$(sed -n 2p <<<"$out")" "-" "io_uring with preset fio against fio's defaults: no note"
is "$(sed -n 3p <<<"$out")" 'not like for like: hbatest placed its workers (numa = "auto"), fio pinned nothing' \
	"preset fio but numa = auto given: the placement is named"
is "$(sed -n 4p <<<"$out")" "not like for like: fio ioengine=io_uring, hbatest engine libaio" \
	"another engine: named, fio's and hbatest's"
is "$(grep -o 'note crosscheck' "$TMP/rep/index.html" | wc -l)" 6 "the p99 deltas carry the same notes (3 + 3)"

out=$(notes native fio like)
is "$out" 'not like for like: hbatest io_uring without preset = "fio" (its own batching, registered buffers and files)
-' "with the native run as the baseline: the note on fio's delta; none between two native runs"

out=$(notes fio-tuned like)
is "$out" "not like for like: fio not at its defaults (fixedbufs=1)" \
	"a fio job with fixedbufs=1 against the preset: fio's tuning is named"
out=$(notes fio-reap like)
is "$out" "not like for like: fio not at its defaults (iodepth_batch_complete_max=4)" \
	"a fio job that reaps several a call against the preset, which reaps one as fio's defaults do"

out=$(notes fio-jobs jobs)
is "$out" "-" "fio's iodepth=2 x numjobs=2 against oio 4 over 2 workers: like for like, no note"
out=$(notes fio-global like)
is "$out" "-" "a job's own iodepth=4 wins over the global iodepth=8: like the native oio 4, no note"
out=$(notes fio pinned)
is "$out" 'not like for like: hbatest pinned its workers (cpus = "0"), fio pinned nothing' \
	"preset fio but cpus given: the pinning is named, not as numa placement"
out=$(notes fio-pinned pinned)
is "$out" "not like for like: fio not at its defaults (cpus_allowed=0)" \
	"a fio job pinned with cpus_allowed against a step pinned with cpus: fio's pinning is seen (no 'fio pinned nothing') and named"
done_testing
