#!/usr/bin/env bash
# hbatest report, an hbatest run beside a run imported from fio of the same
# workload (reports/compare.lua, pair_loose): a lone fio job (the importer's
# group: its name) pairs with a plan's hb.run of no group, and fio's OIO
# sweep (group "randread bs=4k", steps named after the jobs) with a plan's
# sweep (group "4k randread"): a delta in the summary, one chart per sweep
# with a line per run. Steps that must stay apart do: two hbatest runs of
# plans that group a step apart, a fio job beside two groups of one plan
# alike (RAID0 and RAID5), and beside a step its plan runs twice.
. "$(dirname "$0")/lib.sh"

command -v gnuplot >/dev/null || { skip "gnuplot is not installed (apt-get install gnuplot-nox)"; done_testing; exit 0; }

DB="$TMP/p.db"
# fio FILE JOB:IODEPTH...: fio's JSON of those randread 4k jobs (the fixture's job, renamed)
fio() {
	local out="$1"; shift
	python3 - "$(dirname "$0")/fixtures/fio/qd1.json" "$out" "$@" <<'PY'
import copy, json, sys
d = json.load(open(sys.argv[1]))
job, jobs = d["jobs"][0], []
for spec in sys.argv[3:]:
    name, depth = spec.split(":")
    j = copy.deepcopy(job)
    for k in ("write_iops_log", "write_bw_log", "write_lat_log", "log_avg_msec"):
        j["job options"].pop(k, None)
    j["jobname"], j["job options"]["name"], j["job options"]["iodepth"] = name, name, depth
    jobs.append(j)
d["jobs"] = jobs
json.dump(d, open(sys.argv[2], "w"))
PY
}
# plan LABEL LUA: run those steps on the simulator under LABEL
plan() {
	printf 'hb.plan{ defaults = { engine = "sim", targets = { "v" }, duration = 1, ramp = 0,\n  sim = { preset = "lsi3108-8sas", drive_capacity = "8g" } } }\n%s\n' "$2" > "$TMP/$1.lua"
	"$HB" run "$TMP/$1.lua" --db "$DB" --label "$1" -q 2>>"$TMP/stderr"
	ok $? "run $1"
}
# report DIR RUN...: the report of the runs into $TMP/DIR, its log in $TMP/DIR.err
report() {
	local dir="$TMP/$1"; shift
	rm -rf "$dir"
	"$HB" report "$@" --db "$DB" --out "$dir" >/dev/null 2>"$dir.err" || cat "$dir.err"
}
# iops DIR: the summary's IOPS rows, the step's label cut to its first field
iops() { grep ',measure,IOPS,' "$TMP/$1/data/summary.csv" | sed 's/^"\([^"]*\)"/\1/'; }
num='[0-9.]+'
delta='-?[0-9]+\.[0-9][0-9]'

fio "$TMP/qd32.json" qd32:32
"$HB" import fio "$TMP/qd32.json" --db "$DB" --label "fio qd32" >/dev/null
ok $? "import a lone fio job qd32 (randread 4k, iodepth 32)"
plan "hb qd32" 'hb.run{ name = "qd32", rw = "randread", bs = "4k", oio = 32 }'

# --- a lone fio job and an hb.run of no group -------------------------------
for order in "fio qd32|hb qd32" "hb qd32|fio qd32"; do
	IFS='|' read -r first second <<<"$order"
	report lone "$first" "$second"
	like "$(iops lone)" "^qd32,measure,IOPS,$num,$num,$delta,,,,\$" \
		"$first then $second: qd32 is one row, with a delta"
	is "$(grep -c 'Steps not in every run</h3>' "$TMP/lone/index.html")" 0 "$first then $second: no step is missing"
	said=$(grep 'paired by workload across groups (randread 4k, OIO 32): ' "$TMP/lone.err")
	like "$said" "fio qd32: group “qd32”, step “qd32”" "$first then $second: the log says fio's group and step"
	like "$said" "hb qd32: no group, step “qd32”" "$first then $second: and hbatest's"
	note=$(grep -o '<td>qd32<br><span class="note paired">paired by workload ([^<]*)</span>' "$TMP/lone/index.html")
	like "$note" "fio qd32: group “qd32”, step “qd32”" "$first then $second: the page says under the row's label how fio calls it"
	like "$note" "hb qd32: no group, step “qd32”" "$first then $second: and how hbatest does"
done

# --- fio's OIO sweep and a plan's sweep ---------------------------------------
fio "$TMP/sweep.json" qd2:2 qd4:4
"$HB" import fio "$TMP/sweep.json" --db "$DB" --label fiosweep >/dev/null
ok $? "import fio jobs qd2 and qd4 (an OIO sweep, group randread bs=4k)"
plan r5a 'hb.sweep{ base = { rw = "randread", bs = "4k" }, oio = { 2, 4 }, group = "4k randread" }'
for order in "fiosweep r5a" "r5a fiosweep"; do
	report sweep $order
	is "$(iops sweep | grep -cE "^4k randread, oio [24],measure,IOPS,$num,$num,$delta,")" 2 \
		"$order: each point of the sweep is one row, with a delta, named as the plan names it"
	charts=$(cd "$TMP/sweep/charts" && ls | grep -E '^[0-9]+-oio-.*randread\.tsv$')
	is "$charts" "01-oio-4k-randread.tsv" "$order: one OIO chart, of the plan's group"
	# its series: "title:points" per run
	is "$(awk '/^# series/ { if (t) print t ":" n; t = $4; n = 0; next } /^[0-9]/ { n++ } END { print t ":" n }' \
		"$TMP/sweep/charts/$charts" | tr '\n' ' ')" "${order% *}:2 ${order#* }:2 " "$order: the chart has a line of two points per run"
done

# --- steps that stay apart ----------------------------------------------------
# two hbatest runs of plans that group one workload apart
plan raid0 'hb.run{ name = "qd32", group = "raid0", rw = "randread", bs = "4k", oio = 32 }'
plan raid5 'hb.run{ name = "qd32", group = "raid5", rw = "randread", bs = "4k", oio = 32 }'
report plans raid0 raid5
like "$(iops plans | tr '\n' ' ')" "^raid0: qd32,measure,IOPS,$num,,,,,, raid5: qd32,measure,IOPS,,$num,,,,, \$" \
	"two hbatest runs of a step in groups raid0 and raid5: two rows, no delta"
# a fio job beside two groups of one plan alike (the fio run the baseline)
plan both 'for _, g in ipairs{ "raid0", "raid5" } do
  hb.run{ name = "qd32", group = g, rw = "randread", bs = "4k", oio = 32 } end'
report groups "fio qd32" both
is "$(iops groups | grep -cE "^(raid[05]: )?qd32,measure,IOPS,")" 3 "a fio job beside groups raid0 and raid5 alike: three rows"
is "$(iops groups | grep -cE "^(raid[05]: )?qd32,measure,IOPS,$num,$num,")" 0 "and none has both runs' values"
# a fio job beside a step its plan runs twice
plan twice 'for _ = 1, 2 do hb.run{ name = "qd32", rw = "randread", bs = "4k", oio = 32 } end'
report twice "fio qd32" twice
is "$(iops twice | grep -cE "^qd32,measure,IOPS,$num,$num,")" 0 "a fio job beside a step run twice: none pairs"
is "$(grep -c 'paired by workload' "$TMP/twice.err" "$TMP/groups.err" "$TMP/plans.err" | grep -vc ':0$')" 0 \
	"and no report logs a pairing"

done_testing
