#!/usr/bin/env bash
# hbatest report's pairing key and metric, as tables. Pairing: two runs of one
# plan that differ only in one step parameter (workers, rw, bs, write_pct,
# oio) measured two workloads: the step is two rows, each with one run's
# value and no delta, and both are listed as "not in every run"; a step
# whose parameters are equal in both is one row with a delta. Metric: a step
# of 64k blocks or more is judged by MB/s, a smaller one by IOPS (the
# metric column, the delta and the star follow it): here the second run
# has twice the MB/s and half the IOPS of the first, so the metric decides
# the sign of the delta and which run is starred.
. "$(dirname "$0")/lib.sh"

command -v gnuplot >/dev/null || { skip "gnuplot is not installed (apt-get install gnuplot-nox)"; done_testing; exit 0; }

DB="$TMP/p.db"
cat > "$TMP/pair.lua" <<'LUA'
hb.plan{ defaults = { engine = "sim", targets = { "v" }, duration = 2, ramp = 0,
  sim = { preset = "lsi3108-8sas", drive_capacity = "8g" } } }
hb.run{ name = "step", rw = hb.set("rw", "randrw"), bs = hb.set("bs", "4k"),
        write_pct = hb.set("write_pct", 30), oio = hb.set("oio", 4), workers = hb.set("workers", 1) }
hb.run{ name = "same", rw = "read", bs = "16k", oio = 2 }
LUA
run() { "$HB" run "$TMP/pair.lua" --db "$DB" -q "$@" 2>>"$TMP/stderr"; }
page() { tr -d '\n' < "$1/index.html" | sed 's/src="data:[^"]*"/src=""/g; s/<style>.*<\/style>//'; }
run --label base; ok $? "the base run"

# PARAM|VALUE|the other run's step label (the workload the two rows are told apart by)
while IFS='|' read -r p v other; do
	run --label "$p" --set "$p=$v"
	"$HB" report base "$p" --db "$DB" --out "$TMP/$p" >/dev/null 2>"$TMP/err"
	# the rows without their quoted label (it holds a comma): ,kind,metric,base,$p,delta,...
	csv="$TMP/$p.csv"
	sed 's/^"\([^"]*\)"/\1|/' "$TMP/$p/data/summary.csv" > "$csv"
	is "$(grep -c '^step (' "$csv")" 4 "$p=$v: the step is two rows (IOPS and p99 each), not paired"
	is "$(grep '^step (randrw 4k write 30 %, OIO 4)|,measure,IOPS,' "$csv" | sed "s/^[^|]*|//" | cut -d, -f5-6)" "," \
		"$p=$v: the base run's row has no value of run $p and no delta"
	is "$(grep -F "step ($other)|,measure," "$csv" | head -1 | sed "s/^[^|]*|//" | cut -d, -f4,6)" "," \
		"$p=$v: run $p's row ($other) has no base value and no delta"
	like "$(page "$TMP/$p")" "<h3 id=\"grp-steps-not-in-every-run\">Steps not in every run</h3><ul><li>step \(randrw 4k write 30 %, OIO 4\) \(measure\): missing in $p</li><li>step \($other\) \(measure\): missing in base</li></ul>" \
		"$p=$v: both rows listed as not in every run"
	like "$(grep '^same,measure,IOPS,' "$csv")" "^same,measure,IOPS,[0-9.]+,[0-9.]+,-?[0-9]+\.[0-9][0-9]," \
		"$p=$v: the step that is the same in both is one row, with a delta"
done <<'EOF_TABLE'
workers|2|randrw 4k write 30 %, OIO 4, 2 workers
rw|rw|rw 4k write 30 %, OIO 4
bs|8k|randrw 8k write 30 %, OIO 4
write_pct|50|randrw 4k write 50 %, OIO 4
oio|8|randrw 4k write 30 %, OIO 8
EOF_TABLE

# --- the metric: BS|METRIC|the other run's delta|the starred run ------------------
cat > "$TMP/bs.lua" <<'LUA'
hb.plan{ defaults = { engine = "sim", targets = { "v" }, duration = 2, ramp = 0,
  sim = { preset = "lsi3108-8sas", drive_capacity = "8g" } } }
for _, bs in ipairs{ "4k", "32k", "60k", "64k", "68k", "128k", "1m" } do
  hb.run{ name = "bs " .. bs, rw = "read", bs = bs, oio = 4 }
end
LUA
"$HB" run "$TMP/bs.lua" --db "$DB" --label slow -q 2>>"$TMP/stderr"; ok $? "run slow"
"$HB" run "$TMP/bs.lua" --db "$DB" --label fast -q 2>>"$TMP/stderr"; ok $? "run fast"
# fast: twice the MB/s, half the IOPS (figures no device gives, so that only the metric decides)
q "$DB" "UPDATE steps SET mbps = mbps * 2, iops = iops / 2 WHERE run_id = (SELECT id FROM runs WHERE label = 'fast')"
"$HB" report slow fast --db "$DB" --out "$TMP/m" >/dev/null 2>"$TMP/err"; ok $? "report slow fast"
csv="$TMP/m/data/summary.csv"
# the summary's cells of one step's first row: <td>NAME</td><td class="metric">M</td><td class=...>
cells() { page "$TMP/m" | grep -o "<tr><td>bs $1</td><td class=\"metric\">[^<]*</td><td class=\"[^\"]*\">[^<]*</td><td class=\"[^\"]*\">"; }
while IFS='|' read -r bs metric delta star; do
	is "$(grep -F "bs $bs,measure," "$csv" | head -1 | cut -d, -f3,6)" "$metric,$delta" \
		"bs $bs: judged by $metric, fast's delta $delta %"
	if [ "$star" = fast ]; then want='"num">[^<]*</td><td class="num best">'; else want='"num best">[^<]*</td><td class="num">'; fi
	like "$(cells "$bs")" "$want\$" "bs $bs: the star on $star"
done <<'EOF_TABLE'
4k|IOPS|-50.00|slow
32k|IOPS|-50.00|slow
60k|IOPS|-50.00|slow
64k|MB/s|100.00|fast
68k|MB/s|100.00|fast
128k|MB/s|100.00|fast
1m|MB/s|100.00|fast
EOF_TABLE

done_testing
