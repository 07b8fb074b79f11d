#!/usr/bin/env bash
# hbatest report of runs that do not line up: a run without a chart's points
# (first, middle or last) never makes gnuplot fail, whatever the order; when
# gnuplot does fail the error says how and the rest of the report is written;
# failed and aborted steps show their error and their stored seconds, marked;
# sequential bars name the OIO they come from; the test bed names the
# targets; the same run twice is refused; an I/O error of the report's own
# files has no traceback; the wording of the counts, legend and summary; a
# fill shorter than a second gets a time axis from 0 to 1 s.
. "$(dirname "$0")/lib.sh"

command -v gnuplot >/dev/null || { skip "gnuplot is not installed (apt-get install gnuplot-nox)"; done_testing; exit 0; }

DB="$TMP/g.db"
rep() { "$HB" report "$@" --db "$DB" >"$TMP/out" 2>"$TMP/err"; }
# the page without its images (a failure quotes it)
page() { tr -d '\n' < "$1/index.html" | sed 's/src="data:[^"]*"/src=""/g; s/<style>.*<\/style>//'; }

# --- file runs, no PCIe ceiling: one with a sequential step, one without -----------
cat > "$TMP/quick.lua" <<LUA
hb.plan{ defaults = { size = "8m", ramp = 0, duration = 1, engine = "psync" } }
hb.targets = { "$TMP/q.dat" }
hb.run{ name = "4k random read QD1", rw = "randread", bs = "4k", oio = 1 }
hb.run{ name = "4k random read QD4", rw = "randread", bs = "4k", oio = 4, workers = 4 }
hb.run{ name = "128k sequential read", rw = "read", bs = "128k", oio = 1 }
LUA
printf 'hb.plan{ defaults = { size = "8m", ramp = 0, duration = 1, engine = "psync" } }\nhb.targets = { "%s" }\nhb.run{ rw = "randread", bs = "4k", oio = 1 }\n' \
	"$TMP/x.dat" > "$TMP/rnd.lua"
"$HB" run "$TMP/quick.lua" --db "$DB" --label q1 -q 2>>"$TMP/stderr"; ok $? "a run with a sequential step"
"$HB" run "$TMP/rnd.lua" --db "$DB" --label rndfile -q 2>>"$TMP/stderr"; ok $? "a run without one"
"$HB" run "$TMP/quick.lua" --db "$DB" --label ab -q 2>>"$TMP/stderr"; ok $? "a third run, to be made aborted"
is "$(q "$DB" "SELECT count(*) FROM run_pcie WHERE ceiling_bytes_per_s IS NOT NULL")" 0 "no run has a known PCIe ceiling"

for order in "q1 rndfile" "rndfile q1"; do
	rep $order --out "$TMP/o"; ok $? "report $order: exit 0"
	[ -s "$TMP/o/charts/01-sequential-bars.png" ] && [ -z "$(ls "$TMP/o/charts/"*.log 2>/dev/null)" ]
	ok $? "report $order: the bars drawn, no gnuplot failure"
	like "$(page "$TMP/o")" "no points from rndfile \(left out\) — <code>charts/01-sequential-bars.gp" \
		"report $order: the caption names the run left out of the bars"
	is "$(grep -c '^# series' "$TMP/o/charts/01-sequential-bars.tsv")" 1 "report $order: its data holds only q1"
done

# --- an aborted run: step 2 stopped after 2 whole seconds, step 3 not reached --------
q "$DB" "UPDATE runs SET status = 'aborted' WHERE label = 'ab';
	UPDATE steps SET status = 'aborted', window_s = 2, iops = 67000
		WHERE run_id = (SELECT id FROM runs WHERE label = 'ab') AND seq = 2;
	DELETE FROM steps WHERE run_id = (SELECT id FROM runs WHERE label = 'ab') AND seq = 3"
for order in "q1 ab" "ab q1"; do
	rep $order --out "$TMP/a"; ok $? "report $order (aborted): exit 0"
	like "$(page "$TMP/a")" '<td class="num partial">67,000<br><span class="note">aborted after 2 seconds</span></td>' \
		"report $order: the aborted step's stored value, marked"
	like "$(page "$TMP/a")" "<h3 id=\"grp-steps-not-in-every-run\">Steps not in every run</h3><ul><li>4k random read QD4 \(measure\): partial in ab \(aborted after 2 seconds\)</li><li>128k sequential read \(measure\): missing in ab</li></ul>" \
		"report $order: the list names the aborted step and the one not reached"
done
like "$(page "$TMP/a")" 'class="alert"><b>ab</b> is <b>aborted</b>.*<li>step 2 “4k random read QD4” aborted after 2 seconds' \
	"the alert names the aborted step"
like "$(page "$TMP/a")" 'class="alert"><b>ab</b> is <b>aborted</b>: its results stop where it stopped; steps it did not reach are listed as not in every run below\. It ran 2 of its plan’s 3 steps\.<ul>' \
	"the alert counts the steps it ran against its plan's"
rep ab --out "$TMP/a1"
like "$(page "$TMP/a1")" 'is <b>aborted</b>: its results stop where it stopped\. It ran 2 of its plan’s 3 steps; the rest are not in this report\.<ul>' \
	"alone in a report: the steps it did not reach are said to be missing (they are in no list)"
# a run still under way: its results so far, said on the page and on stderr
sleep 0 & dead=$!; wait $dead
q "$DB" "UPDATE runs SET status = 'running', finished_at = NULL, pid = $$, host = '$(hostname)', heartbeat_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE label = 'ab';
	UPDATE steps SET status = 'running' WHERE run_id = (SELECT id FROM runs WHERE label = 'ab') AND seq = 2"
rep ab --out "$TMP/live"; ok $? "a report of a run still running"
like "$(page "$TMP/live")" 'class="alert"><b>ab</b> is still <b>running</b>: these are its results so far \(a step under way is marked “running”\); report again when it ends\. It has started 2 of its plan’s 3 steps\.<ul><li>step 2 “4k random read QD4” running after [0-9]+ seconds?: under way</li>' \
	"the page says the results are so far, and the step is under way (not 'no error text recorded')"
like "$(cat "$TMP/err")" "run ab is still running: the report shows its results so far" "and stderr says so"
q "$DB" "UPDATE runs SET status = 'aborted', pid = $dead WHERE label = 'ab';
	UPDATE steps SET status = 'aborted' WHERE run_id = (SELECT id FROM runs WHERE label = 'ab') AND seq = 2"
is "$(head -1 "$TMP/a/data/summary.csv")" "step,kind,metric,ab,q1,delta % q1,partial ab,partial q1,partial note ab,partial note q1" \
	"summary.csv: a value per run, the deltas, then a partial value and a note per run"
is "$(grep '^4k random read QD4,measure,IOPS,' "$TMP/a/data/summary.csv" | cut -d, -f4,7-)" ",67000,,aborted after 2 seconds," \
	"summary.csv: the aborted step's value is not in its run's value column but beside it, with its note"
is "$(grep -c '^128k sequential read,.*,,,,$' "$TMP/a/data/summary.csv")" 2 \
	"summary.csv: the step not reached has neither a partial value nor a note (two rows: IOPS or MB/s, p99)"

# --- a failed step: its message and error count near the top -------------------------
cp "$DB" "$TMP/f.db"
q "$TMP/f.db" "UPDATE runs SET status = 'failed' WHERE label = 'rndfile';
	UPDATE steps SET status = 'failed', window_s = 4, iops = 40830, errors = 3,
		error_text = '3 I/O errors on ''/dev/x'', first at offset 4096: short read'
		WHERE run_id = (SELECT id FROM runs WHERE label = 'rndfile')"
"$HB" report q1 rndfile --db "$TMP/f.db" --out "$TMP/f" >/dev/null 2>"$TMP/err"; ok $? "report of a failed run"
like "$(page "$TMP/f")" '<div class="alert"><b>rndfile</b> is <b>failed</b>.*<li>step 1 “[^”]*” failed after 4 seconds, 3 I/O errors: <span class="errtext">3 I/O errors on &#39;/dev/x&#39;, first at offset 4096: short read</span></li>' \
	"the alert names run, step, error count and message"
like "$(page "$TMP/f")" '<td class="num partial">40,830<br><span class="note">failed after 4 seconds</span></td>' \
	"the failed step's stored value, marked"
is "$(grep '^randread 4k oio1,measure,IOPS,' "$TMP/f/data/summary.csv")" "randread 4k oio1,measure,IOPS,,,,,40830,,failed after 4 seconds" \
	"summary.csv: the failed step (in rndfile only): no value to compare, its stored IOPS and note in rndfile's partial columns"

# --- every chart kind with a run lacking points, rendered by real gnuplot -------------
rep q1 --template "$ROOT/tests/fixtures/report/fuzz-charts.lua" --out "$TMP/fz"; ok $? "fuzz: every chart template, a run without points first/middle/last: exit 0"
n=$(wc -l < "$TMP/fz/index.html")
is "$(ls "$TMP/fz/charts/"*.png | wc -l)" "$n" "fuzz: all $n charts drawn"
is "$(ls "$TMP/fz/charts/"*.log 2>/dev/null | tr '\n' ' ')" "" "fuzz: gnuplot failed on none"

# --- the default report over sim runs lacking sweeps or sequential steps, all orders ---
SIM='hb.plan{ defaults = { engine = "sim", workers = 1, targets = { "v" }, duration = 2, ramp = 0, sim = { preset = "lsi3108-8sas", drive_capacity = "8g" } } }'
SWEEP='for _, oio in ipairs{ 2, 8 } do hb.run{ rw = "randread", bs = "4k", oio = oio, axis = "oio", group = "4k randread" } end
for _, oio in ipairs{ 8, 32 } do hb.run{ rw = "read", bs = "128k", oio = oio, axis = "oio", group = "128k read" } end'
SEQ='hb.run{ name = "1M read", rw = "read", bs = "1m", oio = 16 }'
printf '%s\n%s\n%s\n' "$SIM" "$SWEEP" "$SEQ" > "$TMP/all.lua"
printf '%s\n%s\n' "$SIM" "$SWEEP" > "$TMP/noseq.lua"
printf '%s\n%s\n' "$SIM" "$SEQ" > "$TMP/nosweep.lua"
for p in all noseq nosweep; do
	"$HB" run "$TMP/$p.lua" --db "$TMP/sim.db" --label $p -q 2>>"$TMP/stderr" || echo "# run $p failed"
done
bad=""
for o in "all noseq" "noseq all" "all nosweep" "nosweep all" "noseq nosweep" "nosweep noseq" \
	"all noseq nosweep" "all nosweep noseq" "noseq all nosweep" "noseq nosweep all" \
	"nosweep all noseq" "nosweep noseq all"; do
	rm -rf "$TMP/s"
	"$HB" report $o --db "$TMP/sim.db" --out "$TMP/s" >/dev/null 2>"$TMP/err" || bad="$bad [$o: $(cat "$TMP/err")]"
done
is "$bad" "" "sim runs without sweeps or sequential steps, every order of 2 and 3: every report drawn"

# --- sequential bars say which OIO each sweep's best point is at ----------------------
"$HB" report all noseq --db "$TMP/sim.db" --out "$TMP/s" >/dev/null 2>"$TMP/err"
bars=$(echo "$TMP/s/charts/"*-sequential-bars.tsv)
is "$(awk -F'\t' '$3 == "128k read (best OIO)" { print $6 }' "$bars" | sort -u)" \
	"OIO $(q "$TMP/sim.db" "SELECT oio FROM steps WHERE run_id = 1 AND group_name = '128k read' ORDER BY mbps DESC LIMIT 1")" \
	"each best-OIO bar carries the OIO it comes from"
like "$(page "$TMP/s")" "best OIO of the sweep 128k read: all at OIO [0-9]+, noseq at OIO [0-9]+" \
	"and the caption names each run's OIO"

# --- the test bed names the targets ----------------------------------------------------
like "$(page "$TMP/f")" "<th>Targets</th><td>$TMP/q.dat \(file, 8.0 MiB\)</td>" "the test bed: path, kind and size of each target"

# --- the same run twice ------------------------------------------------------------------
rep q1 q1 --out "$TMP/twice"; is $? 2 "the same run twice: exit 2"
like "$(cat "$TMP/err")" "run 1 is given twice \('q1' and 'q1'\)" "the error names the run"
rep q1 1 --out "$TMP/twice"; is $? 2 "the same run by label and id: exit 2"
[ ! -e "$TMP/twice" ]; ok $? "nothing written"
rep q1 --baseline 1000 --out "$TMP/twice"; is $? 1 "a --baseline that is no run: exit 1, as any missing RUN"
rep 1 --baseline 2 --out "$TMP/twice"; is $? 2 "a --baseline not among the report's runs: a usage error, exit 2"
like "$(cat "$TMP/err")" "--baseline '2' is not one of the runs of the report" "naming it"

# --- gnuplot that crashes on one chart -----------------------------------------------------
mkdir -p "$TMP/gpbin"
printf '#!/bin/sh\ncase "$1" in *sequential-bars*) echo "first line" >&2; echo "last words" >&2; kill -SEGV $$;; esac\nexec %s "$@"\n' \
	"$(command -v gnuplot)" > "$TMP/gpbin/gnuplot"
chmod +x "$TMP/gpbin/gnuplot"
PATH="$TMP/gpbin:$PATH" "$HB" report all --db "$TMP/sim.db" --out "$TMP/crash" >/dev/null 2>"$TMP/err"
is $? 1 "gnuplot killed on one chart: exit 1"
like "$(cat "$TMP/err")" "gnuplot failed on 'charts/[0-9]+-sequential-bars.gp' \(killed by signal 11, Segmentation fault\): first line / last words; the rest of the report is written" \
	"the error says how gnuplot ended and quotes its last lines"
like "$(page "$TMP/crash")" '<img class="chart".*chart not drawn: gnuplot failed on <code>charts/[0-9]+-sequential-bars.gp</code>' \
	"the page is written: a note for that chart, the others drawn"

# --- a full filesystem: the error, no traceback -------------------------------------------
if [ "$(id -u)" = 0 ]; then
	mkdir -p "$TMP/full"
	mount -t tmpfs -o size=64k tmpfs "$TMP/full"; ok $? "a 64k tmpfs"
	printf 'report.write("big.txt", string.rep("x", 1000000))\n' > "$TMP/big.lua"
	rep q1 --template "$TMP/big.lua" --out "$TMP/full/r"; is $? 1 "a report into a full filesystem: exit 1"
	like "$(cat "$TMP/err")" "^hbatest: error: cannot write '.*/big.txt': No space left on device$" \
		"the error names the file and the cause, no traceback"
	umount "$TMP/full"
else
	skip "not root: no tmpfs for a full filesystem"
fi
printf 'local x\nreport.write("a", x.y)\n' > "$TMP/bug.lua"
rep q1 --template "$TMP/bug.lua" --out "$TMP/bug"; is $? 1 "a bug in a template: exit 1"
like "$(cat "$TMP/err")" "stack traceback:" "a bug keeps its traceback"

# --- wording -------------------------------------------------------------------------------
printf 'local f = require("format")\nreport.write("index.html", f.plural(1, "second") .. "|" .. f.plural(4, "second") .. "|" .. f.plural(1200, "second"))\n' > "$TMP/pl.lua"
rep q1 --template "$TMP/pl.lua" --out "$TMP/pl"; is "$(cat "$TMP/pl/index.html")" "1 second|4 seconds|1,200 seconds" "counts: 1 second, 4 seconds"
grep -q '%d seconds\|%d rounds\|%d targets' "$ROOT"/reports/*.lua; is $? 1 "no count printed without its plural in reports/"
like "$(page "$TMP/o")" "grey: a change under 2 %\." "the summary says what grey is, claims no noise level"
like "$(cat "$ROOT/reports/gnuplot/steady.gp")" "title sprintf\('±%.0f %% of the window mean \(%.0f %% band\)', band \* 100, band \* 200\)" \
	"steady state: the band's legend says what it is"
printf 'hb.plan{ defaults = { engine = "sim", targets = { "v" }, workers = 1 } }\nhb.steady{ name = "ss", workload = { rw = "randwrite", bs = "4k", oio = 32, sim = { preset = "lsi3108-8sas", drive_capacity = "4g" } }, round = 3 }\n' > "$TMP/ss.lua"
"$HB" run "$TMP/ss.lua" --db "$TMP/ss.db" --label ss -q 2>>"$TMP/stderr"
"$HB" report ss --db "$TMP/ss.db" --out "$TMP/ss" >/dev/null 2>"$TMP/err"; ok $? "a steady-state report"
is "$(grep '^ylabel = ' "$TMP/ss/charts/"*steady*.gp)" "ylabel = 'IOPS'" "steady state: the y label is IOPS"

# --- a fill shorter than a second: no scatter (one dot is no chart), a line says so --
printf 'hb.plan{ defaults = { engine = "psync" } }\nhb.precondition{ name = "fill", targets = { "%s" }, size = "4m", passes = 1, oio = 1 }\n' \
	"$TMP/f.dat" > "$TMP/fill.lua"
"$HB" run "$TMP/fill.lua" --db "$TMP/fill.db" --label fill -q 2>"$TMP/err"; ok $? "a fill of 4 MiB runs"
is "$(q "$TMP/fill.db" "SELECT count(*) || ' ' || (elapsed_s < 1) FROM samples JOIN steps ON steps.id = step_id")" "1 1" \
	"a fill of 4 MiB: one stored second, cut short"
"$HB" report fill --db "$TMP/fill.db" --out "$TMP/fill" >/dev/null 2>"$TMP/err"; ok $? "its report"
# (issue 35: it had a scatter of one dot, on an axis from 0 to 1 s)
is "$(ls "$TMP/fill/charts/" | grep -c scatter)" 0 "its fill has no scatter"
like "$(cat "$TMP/fill/index.html")" 'fill: [0-9.]+ seconds?, too short for a chart of its seconds' "the page says why"
# --- a run whose process died (kill -9) in its second step ---------------------------
# the step is still 'running' in the database, its totals never written: the
# report sums the whole seconds it stored, marks them interrupted, and leaves
# its p99 unknown (step 2 lasts until it is killed: a 3 s one once ended first
# on a loaded machine)
printf 'hb.plan{ defaults = { engine = "null", targets = { "v" }, duration = 3, ramp = 0 } }\nfor _, oio in ipairs{1,2,4} do hb.run{ name = "null oio " .. oio, group = "null", axis = "oio", oio = oio, duration = oio == 2 and 600 or nil } end\n' > "$TMP/kill.lua"
"$HB" run "$TMP/kill.lua" --db "$TMP/k.db" --label killed -q 2>>"$TMP/stderr" & pid=$!
samples_of_seq "$TMP/k.db" 2 1
kill -KILL $pid; wait $pid 2>/dev/null
ops=$(q "$TMP/k.db" "SELECT sum(s.read_ops + s.write_ops) FROM samples s JOIN steps t ON t.id = s.step_id WHERE t.seq = 2")
secs=$(q "$TMP/k.db" "SELECT sum(s.secs) FROM samples s JOIN steps t ON t.id = s.step_id WHERE t.seq = 2")
is "$(q "$TMP/k.db" "SELECT status || ' ' || (window_s IS NULL) FROM steps WHERE seq = 2")" "running 1" \
	"killed in step 2 (${secs} s stored): the step is 'running', no totals"
"$HB" report killed --db "$TMP/k.db" --out "$TMP/k" --no-charts >/dev/null 2>"$TMP/err"; ok $? "its report"
row=$(grep '^"null, oio 2",measure,IOPS' "$TMP/k/data/summary.csv" | cut -d, -f5-)
# ",VALUE,interrupted after N second(s)": VALUE is ops / secs, N the seconds
echo "$row" | awk -F, -v o="$ops" -v s="$secs" '{
	n = $3; sub(/^interrupted after /, "", n); sub(/ seconds?$/, "", n)
	d = $2 - o / s; if (d < 0) d = -d
	exit !($1 == "" && d <= 1e-9 * o / s && $3 ~ /^interrupted after [0-9.]+ seconds?$/ && n + 0 == s + 0)
}'
ok $? "summary.csv: the step's stored seconds as its partial IOPS ($ops I/Os in $secs s: '$row'), marked interrupted"
is "$(grep '^"null, oio 2",measure,p99' "$TMP/k/data/summary.csv" | cut -d, -f5-)" ",," "its p99: unknown, left empty"
like "$(page "$TMP/k")" "step 2 “null oio 2” interrupted after [0-9]+ seconds?: <span class=\"errtext\">its process ended during it \(killed, or the machine went down\); the seconds it stored are kept</span>" \
	"the alert says the process ended in step 2"

# --- five sequential steps with long names: the bars' names wrap, never collide ----------
cat > "$TMP/seq5.lua" <<'LUA'
hb.plan{ defaults = { engine = "sim", targets = { "v" }, duration = 1, ramp = 0, rw = "read", bs = "128k", oio = 8,
                      sim = { preset = "sas2308-8ssd" } } }
for i = 1, 5 do hb.run{ name = "a long sequential read " .. (i == 3 and "'hot' " or "") .. "step, number " .. i } end
LUA
"$HB" run "$TMP/seq5.lua" --db "$TMP/s5.db" --label s5 -q 2>>"$TMP/stderr"; ok $? "a run of five sequential steps with long names"
"$HB" report s5 --db "$TMP/s5.db" --out "$TMP/s5" --format svg >/dev/null 2>"$TMP/err"; ok $? "its report"
svg=$(echo "$TMP/s5/charts/"*-sequential-bars.svg)
# the tick labels: the <text> lines in the groups right under the x axis
ticks=$(grep -o '<text>[^<]*</text>' "$svg" | sed 's/<[^>]*>//g; s/&#39;/'"'"'/g; s/&apos;/'"'"'/g' | grep -E "^(a long|sequential|read|'hot'|step|number|[1-9]$)" )	# (not the y axis's 0)
is "$(printf '%s\n' "$ticks" | awk '{ print (length($0) > 24) }' | sort -u | tr -d '\n')" 0 \
	"each line of a step's name under the bars fits a fifth of the chart (24 characters: $(printf '%s\n' "$ticks" | head -3 | tr '\n' '|'))"
is "$(printf '%s\n' "$ticks" | tr '\n' ' ' | sed 's/ $//')" \
	"$(for i in 1 2 3 4 5; do printf 'a long sequential read %sstep, number %s ' "$([ $i = 3 ] && echo "'hot' ")" $i; done | sed 's/ $//')" \
	"and the lines read the names whole, in order (a quote kept)"

# PCIe 6's ceiling: FLIT mode (242/256), as the sim and the pcie probe count it
printf 'hb.run{ engine = "sim", targets = "v", rw = "read", bs = "1m", oio = 64, duration = 2,\n  sim = { link = "pcie6x4", drives = 64, layout = "raid0", link_efficiency = 1 } }\n' > "$TMP/p6.lua"
"$HB" run "$TMP/p6.lua" --db "$TMP/p6.db" --label p6 -q 2>>"$TMP/stderr"; ok $? "a sim run on pcie6x4"
"$HB" report p6 --db "$TMP/p6.db" --out "$TMP/p6" --no-charts >/dev/null 2>"$TMP/err"
like "$(cat "$TMP/p6/index.html")" "PCIe6 x4, 30.25 GB/s" "the report names PCIe6 x4 at 64 GT/s x 4 x 242/256 / 8 = 30.25 GB/s"

# steps of one name pair up only with the same workload: a run whose plan took
# its two OIO points in the other order compares OIO 4 with OIO 4
cat > "$TMP/ord.lua" <<'LUA'
local oios = hb.set("rev", false) and { 256, 4 } or { 4, 256 }
for _, o in ipairs(oios) do
  hb.run{ name = "4k read", engine = "sim", targets = "v", rw = "randread", bs = "4k", oio = o,
          duration = 2, ramp = 0, sim = { preset = "lsi3108-8sas" } }
end
LUA
"$HB" run "$TMP/ord.lua" --db "$TMP/ord.db" --label ordA -q 2>>"$TMP/stderr" &&
	"$HB" run "$TMP/ord.lua" --db "$TMP/ord.db" --label ordB --set rev=true -q 2>>"$TMP/stderr"
ok $? "two runs of one plan, the OIO points in the other order"
"$HB" report ordA ordB --db "$TMP/ord.db" --out "$TMP/ord" --no-charts >/dev/null 2>"$TMP/err"
want=$(q "$TMP/ord.db" "SELECT group_concat(printf('%.2f', iops), ',') FROM (SELECT iops FROM steps WHERE oio = 4 ORDER BY run_id)")
is "$(grep '^"4k read (randread 4k, OIO 4)",measure,IOPS' "$TMP/ord/data/summary.csv" | cut -d, -f5,6 |
	awk -F, '{ printf "%.2f,%.2f", $1, $2 }')" "$want" \
	"the OIO 4 row holds each run's OIO 4 step (not ordB's OIO 256), its label naming the workload"
is "$(grep -c '^"4k read (randread 4k, OIO 256)",measure,' "$TMP/ord/data/summary.csv")" 2 \
	"and the OIO 256 row its own (IOPS and p99)"
like "$(page "$TMP/ord")" '<tr><td>4k read \(randread 4k, OIO 4\)</td><td class="metric">IOPS</td><td class="num best">([0-9,]+)</td><td class="num best">\1</td>' \
	"equal values (the simulator is deterministic): both starred, not only the first"

# chart keys: four runs of 50-character labels and one of 135 under a chart
# of two key lines a run (mean, p99): the key sits under the x label, never
# on it, and a label too long for the chart is cut, not the key dropped
printf 'hb.sweep{ base = { engine = "sim", targets = "v", rw = "randread", duration = 1, ramp = 0,\n  sim = { preset = "lsi3108-8sas" } }, bs = { "4k" }, oio = { 2, 4 } }\n' > "$TMP/key.lua"
long=$(printf 'card %s' "$(printf 'x%.0s' $(seq 130))")
for i in 1 2 3 4; do
	"$HB" run "$TMP/key.lua" --db "$TMP/key.db" --label "LSI MegaRAID 9361-8i FW 4.680.00-8290 8x SSD, run $i" -q 2>>"$TMP/stderr"
done
"$HB" run "$TMP/key.lua" --db "$TMP/key.db" --label "$long" -q 2>>"$TMP/stderr"
"$HB" report 1 2 3 4 5 --db "$TMP/key.db" --out "$TMP/key" --format svg >/dev/null 2>"$TMP/err"; ok $? "a report of five runs with long labels"
svg=$(ls "$TMP"/key/charts/*-latency.svg | head -1)
# each text's y (from the group's translate) and its text
texts() { awk '/translate\(/ { match($0, /translate\([0-9.]+,[0-9.]+\)/); split(substr($0, RSTART + 10, RLENGTH - 11), p, ","); y = p[2] }
	/<text>/ { t = $0; gsub(/.*<text>|<\/text>.*/, "", t); print y "\t" t }' "$1"; }
xl=$(texts "$svg" | awk -F'\t' '$2 ~ /^outstanding I\/O/ { print $1 }')
top=$(texts "$svg" | awk -F'\t' '$2 ~ / (mean|p99)$/ { if (min == "" || $1 < min) min = $1 } END { print min }')
is "$(texts "$svg" | grep -c ' \(mean\|p99\)$')" 10 "the latency key lists mean and p99 of the five runs"
ok $(awk -v a="$xl" -v b="$top" 'BEGIN { exit !(b - a >= 17) }'; echo $?) \
	"its first line (y $top) is a line of text (17) below the x label (y $xl), not over it"
like "$(texts "$svg" | cut -f2)" "^card x{42}… \[simulated\] mean$" \
	"the 135-character label is cut to 60 characters in the key, ' [simulated]' kept whole"
is "$(texts "$svg" | cut -f2 | grep ' mean$' | sort -u | wc -l)" 5 \
	"five runs, five key titles: labels alike in their first 60 characters get their uuid's 8 ($(texts "$svg" | cut -f2 | grep ' mean$' | head -1))"

# --out "$DIR" with DIR unset: a usage error, not "cannot rename ... to ''"
"$HB" report 1 --db "$TMP/key.db" --out "" >/dev/null 2>"$TMP/err"
like "$? $(cat "$TMP/err")" "^2 hbatest report: option '--out' is empty \(an unset variable\?\)" "report --out '': a usage error"
"$HB" export 1 --db "$TMP/key.db" --out "" >/dev/null 2>"$TMP/err"
like "$? $(cat "$TMP/err")" "^2 hbatest export: option '--out' is empty \(an unset variable\?\)" "export --out '': a usage error"

# a block-size sweep: a chart of MB/s over the block size (it had none)
printf 'hb.sweep{ base = { engine = "sim", targets = "v", rw = "randread", oio = 8, duration = 1, ramp = 0,\n  sim = { preset = "lsi3108-8sas" } }, group = "bs sweep", bs = { "4k", "64k", "1m" } }\n' > "$TMP/bs.lua"
"$HB" run "$TMP/bs.lua" --db "$TMP/bs.db" --label bs -q 2>>"$TMP/stderr"
"$HB" report bs --db "$TMP/bs.db" --out "$TMP/bs" --format svg >/dev/null 2>"$TMP/err"; ok $? "a report of a block-size sweep"
like "$(page "$TMP/bs")" "<h2 id=\"sec-block-size-sweeps\">Block-size sweeps</h2><h3 id=\"grp-bs-sweep\">bs sweep</h3>" "it has a section of its own"
tsv=$(ls "$TMP"/bs/charts/*-bs-bs-sweep.tsv)
is "$(grep -v '^#' "$tsv" | awk 'NF { print $1 }' | tr '\n' ' ')" "4 64 1024 " "its x: the block sizes in KiB, in order"
is "$(grep -v '^#' "$tsv" | awk 'NF { printf "%.1f ", $2 }')" \
	"$(q "$TMP/bs.db" "SELECT group_concat(printf('%.1f', mbps), ' ') || ' ' FROM (SELECT mbps FROM steps ORDER BY seq)")" \
	"its y: each step's MB/s"

# the test bed's plan: a path given relative is shown from the folder the run
# started in (runs.cwd), and its sha256 whole
(cd "$TMP" && "$HB" run ./bs.lua --db "$TMP/rel.db" --label rel -q 2>>"$TMP/stderr")
"$HB" report rel --db "$TMP/rel.db" --out "$TMP/relr" --no-charts >/dev/null 2>"$TMP/err"
like "$(page "$TMP/relr")" "<th>Plan</th><td>$TMP/bs.lua</td></tr><tr><th>Plan sha256</th><td>$(sha256sum < "$TMP/bs.lua" | cut -c1-64)</td>" \
	"the plan ./bs.lua reads $TMP/bs.lua, its sha256 in full (64 digits)"

vol="[0-9.]+ [GT]iB"
like "$(page "$TMP/relr")" "<th>Simulated array</th><td>RAID5 of 8 x [0-9.]+ [GT]iB drives, strip [0-9.]+ KiB: a $vol volume</td>" \
	"a simulated run's test bed names its array: layout, drives and their size, strip, the volume"

# a long step's scatter: the average lines (which leave the ramp out) start
# where the shaded ramp ends, and the time axis ends at the last second
printf 'hb.run{ name = "long", engine = "sim", targets = "v", rw = "randread", oio = 32, duration = 600, ramp = 60,\n  sim = { preset = "lsi3108-8sas" } }\n' > "$TMP/long.lua"
"$HB" run "$TMP/long.lua" --db "$TMP/long.db" --label long -q 2>>"$TMP/stderr"
"$HB" report long --db "$TMP/long.db" --out "$TMP/long" --format svg >/dev/null 2>"$TMP/err"; ok $? "a report of a 600 s step after a 60 s ramp"
svg=$(ls "$TMP"/long/charts/*scatter*.svg)
ramp_end=$(grep -o "polygon fill = 'rgb(238, 238, 238)' points = '[0-9.]*,[0-9.]* [0-9.]*" "$svg" | head -1 | awk '{ split($NF, p, ","); print p[1] }')
avg_start=$(grep -o "<path stroke='rgb(  0,   0,   0)'  d='M[0-9.]*" "$svg" | head -1 | sed 's/.*M//')
ok $(awk -v r="$ramp_end" -v a="$avg_start" 'BEGIN { exit !(r > 0 && a >= r - 2 && a <= r + 4) }'; echo $?) \
	"the average line starts at the ramp's end (x $avg_start, the ramp's edge $ramp_end), not across the ramp"

done_testing
