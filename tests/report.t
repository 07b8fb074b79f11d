#!/usr/bin/env bash
# hbatest report: two simulated runs -> one page and its charts. The chart list
# follows the steps, each chart's data holds one series per run with the
# database's values, the summary's deltas are right on a hand-made case, user
# text is escaped in HTML and gnuplot, interrupted runs are reported as such,
# the report program reads and writes only what it may, a run with no points in a
# chart does not lend its title to the next run's data, and without gnuplot
# the command says what to install and writes nothing.
. "$(dirname "$0")/lib.sh"
# V: this hbatest's schema version (db/schema.sql's last line)
V=$(sed -n 's/^PRAGMA user_version = \([0-9]*\);$/\1/p' "$ROOT/db/schema.sql")

command -v gnuplot >/dev/null || { skip "gnuplot is not installed (apt-get install gnuplot-nox)"; done_testing; exit 0; }

DB="$TMP/r.db"
PLAN="$ROOT/tests/fixtures/report/review-plan.lua"
rep() { "$HB" report "$@" --db "$DB" >"$TMP/out" 2>"$TMP/err"; }
NASTY_LABEL=$(printf 'x4 <script>alert("x")</script> & '"'"'q'"'"'\nsecond line')
NASTY_NAME=$(printf '<b>"n" & '"'"'m'"'"'\n</b> ')

"$HB" run "$PLAN" --db "$DB" --label "LSI 9361-8i" -q 2>>"$TMP/stderr"; ok $? "first sim run"
"$HB" run "$PLAN" --db "$DB" --label "$NASTY_LABEL" --set link=pcie3x4 --set "name=$NASTY_NAME" \
	-q 2>>"$TMP/stderr"; ok $? "second sim run: x4 link, a label and step names full of markup"
sqlite3 "$DB" 'PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null
db_hash=$(sha256sum "$DB" | cut -d' ' -f1)

# --- the report of two runs ---------------------------------------------------------
rep 1 2 --out "$TMP/rep"; ok $? "hbatest report 1 2 exits 0"
is "$(cat "$TMP/out")" "$TMP/rep/index.html" "it prints the path of index.html"
[ -s "$TMP/rep/index.html" ] && [ -s "$TMP/rep/data/summary.csv" ]; ok $? "index.html and data/summary.csv written"
is "$(sha256sum "$DB" | cut -d' ' -f1)" "$db_hash" "the database is not changed by a report"
is "$(ls -a "$TMP" | grep -c '^\.hbatest-report-')" 0 "no temporary folder left beside DIR"

# charts: one scatter per run and preconditioning step, five per OIO sweep
# group (value, its seconds, their mean latency, latency, percentiles), four per write-mix
# group, one for sequential bars (and the ranked bars, latency curves and
# preconditioning of every run, drawn after them: tests/report_ranked.t)
older() { grep -Ev '^[0-9]+-(ranked|iops-latency|precondition)-'; }
ngp=$(ls "$TMP/rep/charts" | grep '\.gp$' | older | wc -l)
nall=$(ls "$TMP/rep/charts"/*.gp | wc -l)	# every chart, the new kinds too
want=$(q "$DB" "SELECT (SELECT count(*) FROM steps WHERE kind = 'precondition')
	+ 5 * (SELECT count(DISTINCT group_name) FROM steps WHERE axis = 'oio' AND run_id = 1)
	+ 4 * (SELECT count(DISTINCT group_name) FROM steps WHERE axis = 'write_pct' AND run_id = 1) + 1")
is "$ngp" "$want" "the chart list follows the steps: $want charts"
is "$(ls "$TMP/rep/charts" | older | sed -n 's/^[0-9]*-\(.*\)\.gp$/\1/p' | tr '\n' ' ')" \
	"scatter-run1-step1 scatter-run2-step1 oio-4k-randread oio-4k-randread-seconds oio-4k-randread-latency-seconds oio-4k-randread-latency oio-4k-randread-percentiles oio-4k-randwrite oio-4k-randwrite-seconds oio-4k-randwrite-latency-seconds oio-4k-randwrite-latency oio-4k-randwrite-percentiles oio-128k-read oio-128k-read-seconds oio-128k-read-latency-seconds oio-128k-read-latency oio-128k-read-percentiles oio-oltp oio-oltp-seconds oio-oltp-latency-seconds oio-oltp-latency oio-oltp-percentiles write-pct-4k-write-mix write-pct-4k-write-mix-latency write-pct-4k-write-mix-rw-latency write-pct-4k-write-mix-percentiles sequential-bars " \
	"the charts, in page order"
for f in "$TMP/rep/charts"/*.gp; do
	b=${f%.gp}
	[ -s "$b.tsv" ] && [ -s "$b.svg" ] && [ -s "$b.png" ] || { echo "# missing output of $f"; break; }
done
ok $? "each chart has its .gp, .tsv, .svg and .png"
png_size() { od -An -tu1 -j16 -N8 "$1" | awk '{ print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4 " x " $5 * 16777216 + $6 * 65536 + $7 * 256 + $8 }'; }
is "$(png_size "$TMP/rep/charts/03-oio-4k-randread.png")" "1280 x 720" "PNGs are 1280x720"
is "$(grep -c '^# series' "$TMP/rep/charts/03-oio-4k-randread.tsv")" 2 "an OIO chart's data: one series per run"
head -1 "$TMP/rep/charts/03-oio-4k-randread.tsv" | grep -q '^# oio	IOPS	lat_mean_us	lat_p99_us$'; ok $? "and a header line"

# series i of a chart's data (block i, without comments)
series() { awk -v want="$2" '/^# series/ { n++; next } /^#/ || /^$/ { next } n == want' "$1"; }
# two lists of numbers are equal to 1e-9 (relative)
same() { paste <(printf '%s\n' "$1") <(printf '%s\n' "$2") | awk -F'\t' '
	{ for (i = 1; i <= NF / 2; i++) { a = $i; b = $(i + NF / 2); d = a - b; if (d < 0) d = -d
	  if (d > 1e-9 * (a < 0 ? -a : a) + 1e-9) bad++ } n++ } END { exit (bad || !n) }'; }
for r in 1 2; do
	got=$(series "$TMP/rep/charts/03-oio-4k-randread.tsv" $r)
	db=$(q "$DB" "SELECT printf('%d	%.17g	%.17g	%.17g', oio, iops, lat_mean_us, lat_p99_us) FROM steps
		WHERE run_id = $r AND axis = 'oio' AND group_name = '4k randread' ORDER BY oio")
	same "$got" "$db"; ok $? "run $r: the OIO chart's points equal the database's (oio, IOPS, mean, p99)"
done
got=$(series "$TMP/rep/charts/"*-sequential-bars.tsv 2 | cut -f2,4)
db=$(q "$DB" "SELECT printf('%.17g	%.17g', max(mbps), 8e9 * 4 * 128 / 130 / 8 / 1e6) FROM steps WHERE run_id = 2 AND group_name = '128k read'
	UNION ALL SELECT printf('%.17g	%.17g', mbps, 8e9 * 4 * 128 / 130 / 8 / 1e6) FROM steps WHERE run_id = 2 AND group_name = '1M sequential read'")
same "$got" "$db"; ok $? "sequential bars: MB/s of the run and the PCIe3 x4 ceiling (3,938 MB/s)"
grep -q 'PCIe3 x4 ceiling 3,938 MB/s' "$TMP/rep/charts/"*-sequential-bars.tsv; ok $? "labelled 'PCIe3 x4 ceiling 3,938 MB/s' (the axis's unit)"
sc="$TMP/rep/charts/01-scatter-run1-step1.tsv"
dots=$(echo "$TMP/rep/charts/"*-oio-4k-randwrite-seconds.tsv)
is "$(series "$dots" 2 | awk -F'\t' '$3 == 32 { n++; s += $2 } END { print n, s }')" \
	"$(q "$DB" "SELECT count(*) || ' ' || sum(read_ops + write_ops) FROM samples WHERE ramp = 0 AND step_id = (SELECT id FROM steps WHERE run_id = 2 AND group_name = '4k randwrite' AND oio = 32)")" \
	"OIO seconds: each second of the measurement window of a point, IOPS as stored"
pct=$(echo "$TMP/rep/charts/"*-oio-4k-randwrite-percentiles.tsv)
got=$(series "$pct" 1 | awk -F'\t' '$3 == 50 || $3 == 99 || $3 == 99.9 { print $2 }')
db=$(q "$DB" "SELECT printf('%.17g
%.17g
%.17g', lat_p50_us, lat_p99_us, lat_p999_us) FROM steps WHERE run_id = 1 AND group_name = '4k randwrite' AND oio = 128")
same "$got" "$db"; ok $? "percentiles from the stored histograms equal the step's p50, p99, p99.9 (at the highest OIO)"
is "$(series "$sc" 1 | awk -F'\t' '{ n++; s += $2 } END { print n, s }')" \
	"$(q "$DB" "SELECT count(*) || ' ' || sum(read_ops + write_ops) FROM samples WHERE step_id = (SELECT id FROM steps WHERE run_id = 1 AND kind = 'precondition')")" \
	"scatter: every second of the preconditioning, IOPS as stored"

# --- self-contained, escaped --------------------------------------------------------
html="$TMP/rep/index.html"
is "$(grep -o '<img class="chart"[^>]*>' "$html" | grep -vc 'src="data:image/')" 0 "every chart is inside the page (data: URI)"
is "$(grep -o '<img class="chart"' "$html" | wc -l)" "$nall" "one image per chart"
is "$(grep -Eoi '(src|href)="[a-z]+:' "$html" | grep -vic 'src="data:')" 0 "no link to anything outside the page"
is "$(grep -c '<script' "$html")" 0 "no <script> in the page: the label's is escaped"
grep -q 'x4 &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39;' "$html"; ok $? "the label escaped in HTML"
grep -q '&lt;b&gt;&quot;n&quot; &amp; &#39;m&#39;' "$html"; ok $? "step names escaped in HTML"
grep -q '<b>"n"' "$html"; [ $? -ne 0 ]; ok $? "and never raw"
grep -q "^array titles\[2\] = \['LSI 9361-8i \[simulated\]', 'x4 <script>alert(\"x\")</script> & ''q'' second line \[simulated\]'\]$" \
	"$TMP/rep/charts/03-oio-4k-randread.gp"; ok $? "the label in gnuplot: single-quoted, quotes doubled, newline a space"
grep -q "noenhanced" "$TMP/rep/charts/03-oio-4k-randread.gp"; ok $? "gnuplot text is noenhanced"
(cd "$TMP/rep/charts" && rm -f 03-oio-4k-randread.svg && gnuplot 03-oio-4k-randread.gp 2>"$TMP/gp.err" && [ -s 03-oio-4k-randread.svg ])
ok $? "a chart re-renders from its folder with 'gnuplot NN-name.gp'"

like "$(cat "$html")" '<tr class="diff"><th>Simulated link</th><td>PCIe3 x8, 7.88 GB/s</td><td>PCIe3 x4, 3.94 GB/s</td></tr>' \
	"test bed: the links side by side, the row highlighted as different"
like "$(cat "$html")" '<tr><th>Kernel</th>' "rows that are the same are not highlighted"
like "$(cat "$html")" '<h2 id="sec-server-profiles">Server profiles</h2><h3 id="grp-oltp">oltp</h3>' "server profiles in a section of their own"

# --- test bed from probes: a downtrained link is warned ---------------------------------
printf 'hb.run{ engine = "null", duration = 1, oio = #hb.targets }\n' > "$TMP/null.lua"
HBATEST_SYSFS_ROOT="$ROOT/tests/fixtures/sysfs/mpt3sas-pcie3-x4" "$HB" run "$TMP/null.lua" --db "$TMP/probe.db" \
	--target /dev/sdb --target /dev/sdc --label probed -q 2>>"$TMP/stderr"; ok $? "a run on the mpt3sas PCIe3 x4-of-x8 fixture"
"$HB" report probed --db "$TMP/probe.db" --out "$TMP/pr" >/dev/null 2>"$TMP/err"; ok $? "its report"
like "$(cat "$TMP/pr/index.html")" '<th>PCIe link</th><td>8.0 GT/s PCIe x4 \(max 8.0 GT/s PCIe x8\)<br><span class="warn">&#9888; link trained x4 of x8: ceiling 3.94 GB/s \(x8: 7.88 GB/s\)</span>' \
	"test bed: the link trained below its maximum, with a visible warning"
like "$(cat "$TMP/pr/index.html")" '<th>PCIe ceiling</th><td>3.94 GB/s</td>' "and its ceiling"
like "$(cat "$TMP/pr/index.html")" '<th>Board</th><td>SAS9300-8i</td>.*' "the board from scsi_host"
like "$(cat "$TMP/pr/index.html")" '<th>CPU</th><td>[^<]* \(2 sockets, [0-9]+ cores?, [0-9]+ threads?\)</td>' \
	"the CPU with its sockets, cores and threads counted in words"
like "$(tr -d '\n' < "$TMP/pr/index.html")" '<th>Drives</th><td>Samsung SSD 850, firmware 2B6Q</td>' "the drives"

# --- in a real browser: headless Chromium opens the page from disk -------------------
chrome=$(command -v chromium || command -v chromium-browser || command -v google-chrome)
if [ -n "$chrome" ]; then
	# the page itself has no script: a copy of it gets one that counts the
	# images that decoded, and --dump-dom prints the result
	{ cat "$html"; printf '%s\n' '<script>addEventListener("load", function () {' \
		'var g = 0; for (const i of document.images) if (i.complete && i.naturalWidth > 0) g++;' \
		'document.body.setAttribute("data-check", "images " + g + "/" + document.images.length); });</script>'; } \
		> "$TMP/rep/check.html"
	dom=$(timeout 120 "$chrome" --headless --no-sandbox --disable-gpu --no-first-run --enable-logging=stderr \
		--v=0 --virtual-time-budget=10000 --dump-dom "file://$TMP/rep/check.html" 2>"$TMP/chrome.err")
	is "$(printf '%s' "$dom" | grep -o 'data-check="[^"]*"')" "data-check=\"images $nall/$nall\"" \
		"Chromium, from file:// with no network: every chart image decoded"
	is "$(grep -c 'CONSOLE' "$TMP/chrome.err")" 0 "and the console shows nothing"
	rm -f "$TMP/rep/check.html"

	# the two-card page (examples/compare-cards.lua, shortened) at 1280 and 800
	# pixels wide; SHOTS_DIR=DIR keeps the screenshots there for a person to look at
	cc="$ROOT/examples/compare-cards.lua"
	"$HB" run "$cc" --db "$TMP/cards.db" --set card=lsi3108-8sas --label 9361-8i --set seconds=1 \
		--set precondition=10 -q 2>>"$TMP/stderr" &&
	"$HB" run "$cc" --db "$TMP/cards.db" --set card=asr8885-8sas --label ASR-8885 --set seconds=1 \
		--set precondition=10 -q 2>>"$TMP/stderr" &&
	"$HB" report 9361-8i ASR-8885 --db "$TMP/cards.db" --out "$TMP/cards" >/dev/null 2>>"$TMP/stderr"
	ok $? "the report of the two simulated cards"
	shots=${SHOTS_DIR:-$TMP}
	for w in 1280 800; do
		rm -f "$shots/report-$w.png"
		timeout 120 "$chrome" --headless --no-sandbox --disable-gpu --no-first-run --hide-scrollbars \
			--window-size=$w,2000 --screenshot="$shots/report-$w.png" "file://$TMP/cards/index.html" \
			>/dev/null 2>>"$TMP/chrome.err"
		like "$(file "$shots/report-$w.png")" "PNG image data, $w x 2000" "Chromium's screenshot of the page at $w pixels wide"
	done
	# every link of the page (the contents, the headlines) resolves to an element
	{ cat "$TMP/cards/index.html"; printf '%s\n' '<script>addEventListener("load", function () {' \
		'var n = 0, bad = []; for (const a of document.querySelectorAll("a[href^=\"#\"]")) {' \
		'n++; if (!document.getElementById(decodeURIComponent(a.hash.slice(1)))) bad.push(a.hash); }' \
		'document.body.setAttribute("data-toc", "links " + n + " missing " + bad.join(" ")); });</script>'; } \
		> "$TMP/cards/check.html"
	dom=$(timeout 120 "$chrome" --headless --no-sandbox --disable-gpu --no-first-run \
		--virtual-time-budget=10000 --dump-dom "file://$TMP/cards/check.html" 2>>"$TMP/chrome.err")
	like "$(printf '%s' "$dom" | grep -o 'data-toc="[^"]*"')" '^data-toc="links [1-9][0-9]+ missing "$' \
		"Chromium: every anchor of the contents and headlines resolves (--dump-dom)"
else
	for k in 1 2 3 4 5 6; do skip "Chromium is not installed (apt-get install chromium)"; done
fi

# --- summary deltas on a hand-made case -----------------------------------------------
cp "$DB" "$TMP/hand.db"
q "$TMP/hand.db" "UPDATE steps SET mbps = CASE run_id WHEN 1 THEN 1000 ELSE 1100 END,
	lat_p99_us = CASE run_id WHEN 1 THEN 100 ELSE 101 END WHERE group_name = '1M sequential read';
	UPDATE steps SET iops = CASE run_id WHEN 1 THEN 1000 ELSE 900 END,
	lat_p99_us = CASE run_id WHEN 1 THEN 100 ELSE 80 END WHERE group_name = '4k randread' AND oio = 2"
"$HB" report 1 2 --db "$TMP/hand.db" --out "$TMP/hand" --no-charts >/dev/null 2>"$TMP/err"; ok $? "report of a hand-made database"
csv="$TMP/hand/data/summary.csv"
is "$(grep '^1M sequential read,' "$csv")" $'1M sequential read,measure,MB/s,1000,1100,10.00,,,,\n1M sequential read,measure,p99 latency µs,100,101,1.00,,,,' \
	"summary: MB/s +10 % and p99 latency +1 % against the baseline; both steps finished: no partial values"
is "$(grep '^"4k randread, oio 2",' "$csv")" $'"4k randread, oio 2",measure,IOPS,1000,900,-10.00,,,,\n"4k randread, oio 2",measure,p99 latency µs,100,80,-20.00,,,,' \
	"summary: IOPS -10 % and p99 latency -20 %"
row() { tr -d '\n' < "$TMP/hand/index.html" | grep -o "<tr><td>$1</td><td class=\"metric\">$2</td>[^/]*/td>[^/]*/td>[^/]*/td>"; }
like "$(row '1M sequential read' 'MB/s')" 'class="num">1,000<.*class="num best">1,100<.*class="num better" title="better">▲ \+10.0 %' "MB/s up: better, the higher one best, an up arrow and a sign"
like "$(tr -d '\n' < "$TMP/hand/index.html")" 'p99 latency µs</td><td class="num best">100</td><td class="num best">101</td><td class="num noise" title="within noise">▲ \+1.0 %' \
	"latency +1 %: noise (grey), and both marked best (within 2 % they tie)"
like "$(cat "$TMP/hand/index.html")" "★ best of the row \(each run within 2 % of the best ties for it\)" "the legend says so"
like "$(row '4k randread, oio 2' 'IOPS')" 'class="num worse" title="worse">▼ -10.0 %' "IOPS down: worse, a down arrow and a sign"
like "$(tr -d '\n' < "$TMP/hand/index.html")" 'class="num best">80.0</td><td class="num better" title="better">▼ -20.0 %' "latency down: better, a down arrow"
cp "$TMP/hand.db" "$TMP/zero.db"; q "$TMP/zero.db" "UPDATE steps SET iops = CASE run_id WHEN 1 THEN 1000 ELSE 999.6 END WHERE group_name = '4k randread' AND oio = 8"
"$HB" report 1 2 --db "$TMP/zero.db" --out "$TMP/zero" --no-charts >/dev/null 2>"$TMP/err"
like "$(tr -d '\n' < "$TMP/zero/index.html" | grep -o '<tr><td>4k randread, oio 8</td><td class="metric">IOPS</td>[^/]*/td>[^/]*/td>[^/]*/td>')" \
	'class="num best">1,000<.*class="num best">1,000<.*class="num noise" title="within noise">±0.0 %<' "a delta of -0.04 %: '±0.0 %', not '-0.0 %' (no arrow: no direction), both best"
"$HB" report 1 2 --db "$TMP/hand.db" --out "$TMP/hand2" --no-charts --baseline 2 >/dev/null 2>"$TMP/err"
is "$(grep '^1M sequential read,measure,MB/s' "$TMP/hand2/data/summary.csv")" "1M sequential read,measure,MB/s,1000,1100,-9.09,,,," \
	"--baseline 2: deltas against the second run"
cp "$TMP/hand.db" "$TMP/big.db"; q "$TMP/big.db" "UPDATE steps SET iops = 12829686.25 WHERE run_id = 1 AND group_name = '4k randread' AND oio = 2"
"$HB" report 1 2 --db "$TMP/big.db" --out "$TMP/big" --no-charts >/dev/null 2>"$TMP/err"
is "$(grep '^"4k randread, oio 2",measure,IOPS' "$TMP/big/data/summary.csv" | cut -d, -f1-6)" '"4k randread, oio 2",measure,IOPS,12829686.25,900' \
	"summary.csv: a value past a million in full, as stored (not 1.28297e+07)"
like "$(row2() { tr -d '\n' < "$TMP/big/index.html"; }; row2)" 'class="num best">12,829,686<' "the page shows it rounded, the same number"
ls "$TMP/hand/charts"/*.gp >/dev/null 2>&1 && ! ls "$TMP/hand/charts"/*.svg >/dev/null 2>&1; ok $? "--no-charts: scripts and data, no images"
grep -q 'chart not rendered (--no-charts)' "$TMP/hand/index.html"; ok $? "and the page says so"

# --- steps missing in a run, one run, an interrupted run --------------------------------
q "$TMP/hand.db" "DELETE FROM steps WHERE run_id = 2 AND group_name = '4k write mix' AND write_pct = 50"
"$HB" report 1 2 --db "$TMP/hand.db" --out "$TMP/miss" --no-charts >/dev/null 2>"$TMP/err"; ok $? "a report of runs missing some steps"
like "$(tr -d '\n' < "$TMP/miss/index.html")" 'Steps not in every run</h3><ul>.*<li>4k write mix, write % 50 \(measure\): missing in x4' "the unmatched step is listed"
rep 1 --out "$TMP/one"; ok $? "a report of one run"
is "$(ls "$TMP/one/charts" | grep '\.gp$' | older | wc -l)" "$((want - 1))" "one scatter fewer"
sleep 0 & dead=$!; wait $dead
q "$TMP/hand.db" "UPDATE runs SET status = 'running', finished_at = NULL, pid = $dead, host = '$(hostname)' WHERE id = 2;
	UPDATE steps SET status = 'running', iops = NULL, mbps = NULL WHERE run_id = 2 AND seq = 1"
"$HB" report 2 --db "$TMP/hand.db" --out "$TMP/intr" >/dev/null 2>"$TMP/err"; ok $? "a report of an interrupted run"
like "$(cat "$TMP/intr/index.html")" '<span class="badge state-interrupted">interrupted</span>' "its state is a badge"
like "$(tr -d '\n' < "$TMP/intr/index.html")" 'class="alert"><b>.*</b> is <b>interrupted</b>: its results stop where it stopped\. It ran 15 of its plan’s 16 steps; the rest are not in this report\.(<ul>.*</ul>)?</div>' \
	"and an alert that promises no list of unmatched steps (one run: nothing to match), and counts the step deleted above as not run"
like "$(cat "$TMP/intr/index.html")" 'class="badge sim">simulated' "simulated runs are badged"

# --- per-target bars of a JBOD step ---------------------------------------------------
printf 'hb.targets = { "sdb", "sdc" }\nhb.run{ name = "jbod", engine = "sim", sim = { preset = "sas2308-8ssd", drives = 2 }, rw = "randread", bs = "4k", oio = 8, workers = 2, duration = 3, ramp = 0 }\n' > "$TMP/jbod.lua"
"$HB" run "$TMP/jbod.lua" --db "$TMP/jbod.db" --label jbod -q 2>>"$TMP/stderr"; ok $? "a two-target sim run"
"$HB" report jbod --db "$TMP/jbod.db" --out "$TMP/jb" >/dev/null 2>"$TMP/err"; ok $? "its report"
tb=$(echo "$TMP/jb/charts/"*-targets-jbod.tsv)
got=$(series "$tb" 1 | cut -f2)
db=$(q "$TMP/jbod.db" "SELECT printf('%.17g', (t.read_ops + t.write_ops) * 1.0 / s.window_s) FROM step_targets t JOIN steps s ON s.id = t.step_id ORDER BY t.path")
same "$got" "$db"; ok $? "per-target bars: each target's IOPS over the window, as stored"

# --- SNIA steady state: convergence chart per run ----------------------------------------
printf 'hb.plan{ defaults = { engine = "sim", targets = { "v" }, workers = 1 } }\nhb.steady{ name = "ss", workload = { rw = "randwrite", bs = "4k", oio = 32, sim = { preset = "lsi3108-8sas", drive_capacity = "4g" } }, round = 3 }\n' > "$TMP/ss.lua"
"$HB" run "$TMP/ss.lua" --db "$TMP/ss.db" --label ss -q 2>>"$TMP/stderr"; ok $? "a run with hb.steady"
"$HB" report ss --db "$TMP/ss.db" --out "$TMP/ss" >/dev/null 2>"$TMP/err"; ok $? "its report"
st=$(echo "$TMP/ss/charts/"*-steady-run1-ss.tsv)
is "$(series "$st" 1 | wc -l)" "$(q "$TMP/ss.db" "SELECT rounds FROM steady_state")" "steady state: one point per round"
same "$(grep -E '^(mean|slope) = ' "${st%.tsv}.gp" | sort | sed 's/.* = //')" \
	"$(q "$TMP/ss.db" "SELECT printf('%.17g', mean) || char(10) || printf('%.17g', slope) FROM steady_state")"
ok $? "its window mean and slope are the database's"
want=$(q "$TMP/ss.db" "SELECT printf('data excursion %.1f %% of the mean (limit 20 %%), slope excursion %.1f %% (limit 10 %%)',
	data_excursion / mean * 100, slope_excursion / mean * 100) FROM steady_state")
# (sort -u: the caption is the image's alt text too)
is "$(grep -o 'data excursion [^—]*)' "$TMP/ss/index.html" | sort -u)" "$want" "the caption gives both excursions in % of the mean, as their limits"
is "$(grep -o '^ss round [0-9]*[^,]*' "$TMP/ss/data/summary.csv" | sort -u | head -2 | tr '\n' '|')" \
	"ss round 1|ss round 2|" "steady rounds read 'ss round N' once (hb.steady names them so), not 'round N round N'"

# --- exec steps: a table of time and MB/s --------------------------------------------------
printf 'hb.exec{ cmd = "true", bytes = 5000000, name = "scrub <pool> & co" }\n' > "$TMP/exec.lua"
"$HB" run "$TMP/exec.lua" --db "$TMP/exec.db" --label ex --allow-exec -q 2>>"$TMP/stderr"; ok $? "a run with an exec step"
"$HB" report ex --db "$TMP/exec.db" --out "$TMP/ex" --no-charts >/dev/null 2>"$TMP/err"; ok $? "its report"
like "$(tr -d '\n' < "$TMP/ex/index.html")" '<h2 id="sec-timed-commands">Timed commands</h2>.*<tr><td>scrub &lt;pool&gt; &amp; co</td><td class="num">0:00:[0-9]{2}\.[0-9]</td><td class="num">[0-9.,]+</td></tr>' \
	"timed commands: the step's elapsed time (h:m:s) and MB/s"
cp "$TMP/exec.db" "$TMP/exec2.db"; q "$TMP/exec2.db" "UPDATE steps SET elapsed_s = 3725.4, mbps = 100 WHERE kind = 'exec'"
"$HB" report ex --db "$TMP/exec2.db" --out "$TMP/ex2" --no-charts --units MiB >/dev/null 2>"$TMP/err"; ok $? "its report with --units MiB, the step made 3725.4 s at 100 MB/s"
like "$(tr -d '\n' < "$TMP/ex2/index.html")" '<th class="num">ex time \(h:m:s\)</th><th class="num">MiB/s</th>.*<td class="num">1:02:05</td><td class="num">95\.4</td>' \
	"an hour and more as h:m:s, and MiB/s under --units MiB"
"$HB" report ex --db "$TMP/exec2.db" --out "$TMP/ex3" --no-charts --units mib >/dev/null 2>"$TMP/err"; ok $? "--units mib, in small letters, taken as MiB"
like "$(tr -d '\n' < "$TMP/ex3/index.html")" '<th class="num">MiB/s</th>.*<td class="num">95\.4</td>' "(MiB/s in its report)"
"$HB" report ex --db "$TMP/exec2.db" --out "$TMP/ex4" --no-charts --units kb >/dev/null 2>"$TMP/err"
is "$? $(head -1 "$TMP/err")" "2 hbatest report: --units 'kb': give MB (10^6 bytes, the default) or MiB (2^20 bytes)" "--units kb: exit 2, naming both"

# --- a run with no points in a chart ----------------------------------------------------
# Run 1 lacks the 4k randwrite sweep and the sequential step that run 2 has: its
# block of those charts must not shift run 2's data under run 1's title.
for w in first second; do
	{ printf 'hb.plan{ defaults = { engine = "sim", workers = 1, targets = { "v" }, duration = 2, ramp = 0, sim = { preset = "lsi3108-8sas", drive_capacity = "8g" } } }\n'
	  printf 'for _, oio in ipairs{ 2, 8 } do hb.run{ rw = "randread", bs = "4k", oio = oio, axis = "oio", group = "4k randread" } end\n'
	  [ $w = second ] && printf 'for _, oio in ipairs{ 2, 8 } do hb.run{ rw = "randwrite", bs = "4k", oio = oio, axis = "oio", group = "4k randwrite" } end\nhb.run{ name = "1M read", rw = "read", bs = "1m", oio = 16 }\n'
	} > "$TMP/gap-$w.lua"
	"$HB" run "$TMP/gap-$w.lua" --db "$TMP/gap.db" --label $w -q 2>>"$TMP/stderr"; ok $? "gap: the $w run"
done
"$HB" report first second --db "$TMP/gap.db" --out "$TMP/gap" >/dev/null 2>"$TMP/err"; ok $? "gap: the report of both"
# what gnuplot plots from a chart: "title<TAB>x<TAB>y" per drawn point ("-" untitled)
plotted() {
	sed "s/^formats = .*/formats = 'table'/" "$1" > "${1%.gp}-table.gp"
	(cd "$(dirname "$1")" && gnuplot -e "set table '$TMP/table.txt'" "${1%.gp}-table.gp") 2>>"$TMP/stderr"
	awk '/^# Curve [0-9]/ { t = "-" } /^# Curve title:/ { t = $0; sub(/^# Curve title: "/, "", t); sub(/"$/, "", t) }
		!/^#/ && $NF == "i" { print t "\t" $1 "\t" $2 }' "$TMP/table.txt"
}
gw=$(echo "$TMP/gap/charts/"*-oio-4k-randwrite.gp)
# the same titles, and numbers to 1e-4 (gnuplot's table rounds them)
near() { paste <(printf '%s\n' "$1") <(printf '%s\n' "$2") | awk -F'\t' '
	{ n++; if ($1 != $4) bad++; for (i = 2; i <= 3; i++) { d = $i - $(i + 3); if (d < 0) d = -d
	  if (d > 1e-4 * ($(i + 3) < 0 ? -$(i + 3) : $(i + 3))) bad++ } } END { exit (bad || !n) }'; }
got=$(plotted "$gw")
near "$got" "$(q "$TMP/gap.db" "SELECT printf('second [simulated]	%d	%.17g', oio, iops) FROM steps
	WHERE run_id = 2 AND group_name = '4k randwrite' ORDER BY oio")"
ok $? "gap: run 2's points are drawn under run 2's title, none under run 1's" || echo "# plotted: $got"
is "$(sed -n 's/^# Curve title: "\(.*\)"$/\1/p' "$TMP/table.txt")" "second [simulated]" \
	"gap: the key names run 2 only"
like "$(cat "$gw")" "array points\[2\] = \[0, 2\]" "gap: the script counts no points for run 1"
is "$(grep '^array colors' "$gw")" "$(grep '^array colors' "$TMP/gap/charts/"*-oio-4k-randread.gp)" \
	"gap: each run keeps its colour across charts"
is "$(plotted "$(echo "$TMP/gap/charts/"*-oio-4k-randwrite-latency.gp)" | cut -f1 | sort -u | tr '\n' '|')" "second [simulated] mean|second [simulated] p99|" \
	"gap: the latency chart draws run 2's mean and p99 only"
is "$(plotted "$(echo "$TMP/gap/charts/"*-oio-4k-randwrite-seconds.gp)" | awk -F'\t' '$1 != "-" { print $1 }' | sort -u)" "second [simulated]" \
	"gap: the second-by-second chart draws run 2's dots under its title"
is "$(plotted "$(echo "$TMP/gap/charts/"*-sequential-bars.gp)" | awk -F'\t' '$1 != "-" { print $1 }' | sort -u)" \
	"second [simulated]" "gap: sequential bars: only run 2's bar is keyed"

# --- what a report program may do -----------------------------------------------------
printf 'report.write("../escaped.txt", "x")\n' > "$TMP/bad-write.lua"
rep 1 --template "$TMP/bad-write.lua" --out "$TMP/bw"; is $? 1 "report.write outside DIR: exit 1"
like "$(cat "$TMP/err")" "'../escaped.txt' is not a path inside the report's folder" "the error names the path"
[ ! -e "$TMP/escaped.txt" ] && [ ! -e "$TMP/bw" ]; ok $? "nothing written, no DIR"
printf 'report.write("/tmp/abs.txt", "x")\n' > "$TMP/bad-abs.lua"
rep 1 --template "$TMP/bad-abs.lua" --out "$TMP/ba"; is $? 1 "report.write of an absolute path: exit 1"
printf 'report.sql("DELETE FROM runs")\n' > "$TMP/bad-sql.lua"
rep 1 --template "$TMP/bad-sql.lua" --out "$TMP/bs"; is $? 1 "report.sql of a DELETE: exit 1"
like "$(cat "$TMP/err")" 'report.sql: .*not authorized' "refused by the authorizer"
printf 'report.sql("UPDATE sqlite_master SET name = name")\n' > "$TMP/bad-master.lua"
rep 1 --template "$TMP/bad-master.lua" --out "$TMP/bm"; is $? 1 "report.sql of an UPDATE of sqlite_master: exit 1"
printf 'report.sql("ATTACH %s AS x")\n' "'$TMP/new.db'" > "$TMP/bad-attach.lua"
rep 1 --template "$TMP/bad-attach.lua" --out "$TMP/ba2"; is $? 1 "report.sql of an ATTACH: exit 1"
[ ! -e "$TMP/new.db" ]; ok $? "and no file created by it"
printf 'local r = report.sql("SELECT label FROM runs WHERE id = ?1 AND ?2 = 1", 1, true)\nreport.write("index.html", r[1].label)\n' > "$TMP/params.lua"
rep 1 --template "$TMP/params.lua" --out "$TMP/pa"; ok $? "report.sql with bound parameters"
is "$(cat "$TMP/pa/index.html")" "LSI 9361-8i" "and its result"
is "$(sha256sum "$DB" | cut -d' ' -f1)" "$db_hash" "the database is unchanged after all of them"

mkdir -p "$TMP/tpl/gnuplot"; printf 'plot datafile using 1:2 with nonsense\n' > "$TMP/tpl/gnuplot/bad.gp"
printf 'local c = report.chart{ name = "x", template = "bad", series = { { title = "a", rows = { { 1, 2 } } } } }\nreport.write("index.html", c.img)\n' > "$TMP/tpl/my.lua"
rep 1 --template "$TMP/tpl/my.lua" --out "$TMP/badgp"; is $? 1 "a template gnuplot cannot read: exit 1"
like "$(cat "$TMP/err")" "gnuplot failed on 'charts/01-x.gp' \(exit status 1\): .*line [0-9]+: unrecognized plot type; the rest of the report is written" \
	"the error names the chart, how gnuplot ended and quotes it"
like "$(cat "$TMP/badgp/index.html")" "chart not drawn: gnuplot failed on <code>charts/01-x.gp</code>" \
	"the rest of the report is written, the chart replaced by a note naming its script"

# --- DIR: replaced when it is a report, refused otherwise --------------------------------
# The folder is what these look at: --no-charts (gnuplot's images are the
# time of a report; charts/ still holds the scripts and data). "one" holds
# the report with images made above.
rep 1 --out "$TMP/one" --no-charts; ok $? "a report over an older report replaces it"
mkdir "$TMP/notareport"; touch "$TMP/notareport/keep"
rep 1 --out "$TMP/notareport"; is $? 1 "a DIR that is not a report is refused"
[ -e "$TMP/notareport/keep" ]; ok $? "and left as it was"
# a folder with an index.html is not a report for that: a web site's folder
mkdir -p "$TMP/site/photos"; echo '<html>my site</html>' > "$TMP/site/index.html"; echo cat > "$TMP/site/photos/cat.jpg"
rep 1 --out "$TMP/site"; is $? 1 "a DIR with an index.html and other things is refused"
like "$(cat "$TMP/err")" "'$TMP/site' is not a report folder \(it holds 'photos', which no report has\): nothing in it is replaced; give another --out" \
	"naming what a report folder does not hold"
is "$(cd "$TMP/site" && find . | sort | tr '\n' ' ')" ". ./index.html ./photos ./photos/cat.jpg " "and everything in it is left"
is "$(cat "$TMP/one/.hbatest-report")" "runs: $(q "$DB" "SELECT uuid FROM runs WHERE id = 1")" \
	"a report folder carries a mark with its runs' uuids"
is "$(umask 022; rep 1 --out "$TMP/mode" --no-charts; stat -c %a "$TMP/mode")" 755 "DIR's mode follows the umask (not mkdtemp's 700)"
mkdir "$TMP/emptyout"; rep 1 --out "$TMP/emptyout" --no-charts; ok $? "an empty folder is written into"
rm -f "$TMP/one/.hbatest-report"; rep 2 --out "$TMP/one" --no-charts; ok $? "an older hbatest's report (no mark) is replaced too"
mkdir -p "$TMP/site2/data"; echo '<html>mine</html>' > "$TMP/site2/index.html"; echo x > "$TMP/site2/data/m.csv"
rep 1 --out "$TMP/site2"; is $? 1 "index.html and data/ with no mark, the page not hbatest's: refused"
like "$(cat "$TMP/err")" "'$TMP/site2' is not a report folder \(it holds 'index.html' that no hbatest report wrote\)" "saying whose index.html it is not"
[ -e "$TMP/site2/data/m.csv" ]; ok $? "and its data/ is left"
rep 1 --out "$TMP/slash/" --no-charts; ok $? "--out DIR/ (a trailing slash): a new folder"
rep 1 --out "$TMP/slash/" --no-charts; ok $? "and again, over that report"
is "$(ls -A "$TMP/slash" | tr '\n' ' ')" ".hbatest-report charts data index.html " "nothing else left in it"
# DIR made while the report is written (after check_out looked): the rename
# never replaces it. strace holds the report's first mkdir (its temporary
# folder) for 3 s; the folder appears meanwhile.
if command -v strace >/dev/null; then
	( traced -f -o /dev/null -e inject=mkdir:delay_exit=3000000:when=1 "$HB" report 1 --out "$TMP/late" --db "$DB" --no-charts \
		>/dev/null 2>"$TMP/err"; echo $? > "$TMP/late.rc" ) &
	for _ in $(seq 100); do ls -d "$TMP"/.hbatest-report-* >/dev/null 2>&1 && break; sleep 0.05; done
	mkdir "$TMP/late"; echo mine > "$TMP/late/thesis.txt"
	wait $!
	is "$(cat "$TMP/late.rc")" 1 "a folder made at DIR while the report is written: exit 1"
	is "$(cat "$TMP/late/thesis.txt" 2>/dev/null)" mine "and the folder is left as it was made"
	like "$(cat "$TMP/err")" "'$TMP/late' is not a report folder \(it holds 'thesis.txt'" "saying why"
	is "$(ls -a "$TMP" | grep -c '^\.hbatest-report-')" 0 "no temporary folder left"
else
	for _ in 1 2 3 4; do skip "strace is not installed"; done
fi
ln -s "$TMP/one" "$TMP/link"; rep 1 --out "$TMP/link"; is $? 1 "a symbolic link is refused"
like "$(cat "$TMP/err")" "'$TMP/link' is a symbolic link: give the folder itself, or another --out" "and says so"
(cd "$TMP" && "$HB" report "LSI 9361-8i" 2 --db "$DB" --no-charts >/dev/null 2>&1); ok $? "default DIR"
[ -s "$TMP/hbatest-report-LSI-9361-8i-vs-x4-script-alert-x-script-q-second-line/index.html" ]
ok $? "named hbatest-report-<label>-vs-<label>, made safe"
# labels that differ only in what a file name cannot hold: the same default
# name, so the second report goes beside the first, not over it
cp "$DB" "$TMP/twin.db"; q "$TMP/twin.db" "UPDATE runs SET label = 'card a' WHERE id = 1; UPDATE runs SET label = 'card/a' WHERE id = 2"
(cd "$TMP" && "$HB" report 'card a' --db "$TMP/twin.db" --no-charts >/dev/null 2>&1 &&
	"$HB" report 'card/a' --db "$TMP/twin.db" --no-charts >"$TMP/out" 2>"$TMP/err"); ok $? "two runs whose labels make one default DIR"
u2=$(q "$TMP/twin.db" "SELECT substr(uuid, 1, 8) FROM runs WHERE id = 2")
is "$(cat "$TMP/out")" "hbatest-report-card-a-$u2/index.html" "the second goes to DIR-<uuid8>"
like "$(cat "$TMP/err")" "'hbatest-report-card-a' holds the report of other runs: kept; this one goes to 'hbatest-report-card-a-$u2'" "and says so"
like "$(cat "$TMP/hbatest-report-card-a/.hbatest-report")" "^runs: $(q "$TMP/twin.db" "SELECT uuid FROM runs WHERE id = 1")\$" "the first report is kept"
cp "$DB" "$TMP/lab.db"; q "$TMP/lab.db" "UPDATE runs SET label = '<<..>>' WHERE id = 1"
(cd "$TMP" && "$HB" report 1 --db "$TMP/lab.db" --no-charts >/dev/null 2>&1); ok $? "a label with nothing fit for a file name"
[ -s "$TMP/hbatest-report-$(q "$DB" "SELECT substr(uuid, 1, 8) FROM runs WHERE id = 1")/index.html" ]; ok $? "names DIR by the uuid"

# two runs under one label (a plan run again): told apart by their uuids' 8
cp "$DB" "$TMP/same.db"; q "$TMP/same.db" "UPDATE runs SET label = 'ab run' WHERE id IN (1, 2)"
"$HB" report 1 2 --db "$TMP/same.db" --out "$TMP/same" --no-charts >/dev/null 2>"$TMP/err"; ok $? "a report of two runs with one label"
u1=$(q "$TMP/same.db" "SELECT substr(uuid, 1, 8) FROM runs WHERE id = 1"); u2=$(q "$TMP/same.db" "SELECT substr(uuid, 1, 8) FROM runs WHERE id = 2")
is "$(head -1 "$TMP/same/data/summary.csv" | cut -d, -f4-6)" "ab run $u1,ab run $u2,delta % ab run $u2" \
	"summary.csv's columns name each by label and uuid"
like "$(cat "$TMP/same/index.html")" "<h1>ab run $u1 vs ab run $u2</h1>" "and so does the title"

# --- a real run on a file: no PCIe ceiling known --------------------------------------
printf 'hb.plan{ defaults = { size = "8m", ramp = 0, duration = 1, engine = "psync" } }\nhb.targets = { "%s" }\nhb.run{ name = "128k seq", rw = "read", bs = "128k", oio = 1 }\n' "$TMP/file.dat" > "$TMP/file.lua"
"$HB" run "$TMP/file.lua" --db "$TMP/file.db" --label file -q 2>>"$TMP/stderr"; ok $? "a run on a file"
"$HB" report file --db "$TMP/file.db" --out "$TMP/file" >/dev/null 2>"$TMP/err"; ok $? "its report with charts (a bar without a ceiling)"
[ -s "$TMP/file/charts/01-sequential-bars.png" ]; ok $? "its throughput bar is drawn"
# the caption promises a dashed ceiling only when a ceiling is in the data
if grep -q 'ceiling [0-9.]* GB/s' "$TMP/file/charts/01-sequential-bars.tsv"; then
	like "$(cat "$TMP/file/index.html")" "dashed: the PCIe link ceiling" "a ceiling known here: the caption says it is dashed"
else
	like "$(tr -d '\n' < "$TMP/file/index.html")" "<h2 id=\"sec-sequential-throughput\">Sequential throughput</h2>.*no run(&#39;|')s PCIe link is known, so no ceiling is drawn" \
		"no ceiling known here: heading and caption promise none"
fi

# --- a database of schema version 1 is upgraded, its report reads the new views ------
old="$TMP/old.db"
sqlite3 "$old" < "$ROOT/tests/fixtures/report/schema-1.sql"
for t in runs targets steps samples step_targets histograms probes events; do
	cols=$(q "$old" "SELECT group_concat(name, ', ') FROM pragma_table_info('$t')")
	q "$old" "ATTACH '$TMP/file.db' AS n; INSERT INTO main.$t ($cols) SELECT $cols FROM n.$t" || fail=1
done
q "$old" "INSERT INTO probes VALUES (1, 'start', '0000:01:00.0', 'pcie', 'current_link_speed', '8.0 GT/s PCIe');
	INSERT INTO probes VALUES (1, 'start', '0000:01:00.0', 'pcie', 'current_link_width', '4');
	INSERT INTO probes VALUES (1, 'start', '0000:01:00.0', 'pcie', 'ceiling_current_bytes_per_s', '3938461538')"
is "$(q "$old" 'PRAGMA user_version')/${fail:-0}" "1/0" "a version-1 database holding the file run"
"$HB" report file --db "$old" --out "$TMP/old" >/dev/null 2>"$TMP/err"; ok $? "its report"
like "$(cat "$TMP/err" | tr '\n' ' ')" "migrating database '.*old.db' from schema version 4 to 5 .*from schema version 5 to 6 \\(0006-runs-cwd.sql\\).*from schema version 6 to 7 \\(0007-run-notes-telemetry.sql\\).*from schema version 7 to 8 \\(0008-resumes.sql\\).*from schema version 8 to 9 \\(0009-year-indexes.sql\\).*from schema version 9 to 10 \\(0010-host-cpu.sql\\).*from schema version 10 to 11 \\(0011-fio-hosts.sql\\).*from schema version 11 to 12 \\(0012-card-views.sql\\)" "the database is migrated to version $V, step by step"
is "$(q "$old" 'PRAGMA user_version')" "$V" "it is at version $V"
is "$(q "$old" "SELECT name, sql FROM sqlite_master WHERE type = 'view' ORDER BY name")" \
	"$(q "$TMP/file.db" "SELECT name, sql FROM sqlite_master WHERE type = 'view' ORDER BY name")" \
	"with the views of a new database"
like "$(cat "$TMP/old/charts/01-sequential-bars.tsv")" 'PCIe3 x4 ceiling 3,938 MB/s' "the PCIe ceiling from the run_pcie view"
same "$(series "$TMP/old/charts/01-sequential-bars.tsv" 1 | cut -f2)" "$(series "$TMP/file/charts/01-sequential-bars.tsv" 1 | cut -f2)"
ok $? "the same throughput as the report of the new database"

# --- SIGINT/SIGTERM: the temporary folder removed, exit 130 -------------------------
# waits until the report is under way (a file it writes), at most a minute
await() { for _ in $(seq 600); do ls $1 >/dev/null 2>&1 && return 0; sleep 0.1; done; return 1; }
mkdir -p "$TMP/sig" "$TMP/fakegp"
printf 'report.write("started", "x")\nwhile true do pcall(function() end) end\n' > "$TMP/sig/loop.lua"
set -m	# job control: without it a background command ignores SIGINT
"$HB" report 1 --db "$DB" --out "$TMP/sig/int" --template "$TMP/sig/loop.lua" >/dev/null 2>"$TMP/sig/err" &
pid=$!
set +m
await "$TMP/sig/.hbatest-report-*/started"; ok $? "a report program in an endless loop is under way"
kill -INT $pid; wait $pid; is $? 130 "SIGINT: exit 130"
[ -z "$(ls -A "$TMP/sig" | grep '^\.hbatest-report-')" ] && [ ! -e "$TMP/sig/int" ]; ok $? "its temporary folder removed, no DIR"
like "$(cat "$TMP/sig/err")" 'interrupted: no report written' "it says it was interrupted"
printf '#!/bin/sh\ntouch "%s/gp-started"\nexec sleep 600\n' "$TMP/sig" > "$TMP/fakegp/gnuplot"
chmod +x "$TMP/fakegp/gnuplot"
printf 'report.chart{ name = "x", template = "bars", columns = { "a", "b" }, series = { { title = "t", color = "#000000", rows = { { 1, 2 } } } } }\n' > "$TMP/sig/chart.lua"
PATH="$TMP/fakegp:$PATH" "$HB" report 1 --db "$DB" --out "$TMP/sig/term" --template "$TMP/sig/chart.lua" >/dev/null 2>"$TMP/sig/err" &
pid=$!
await "$TMP/sig/gp-started"; ok $? "a report waiting for gnuplot"
kill -TERM $pid; wait $pid; is $? 130 "SIGTERM while waiting for gnuplot: exit 130"
[ -z "$(ls -A "$TMP/sig" | grep '^\.hbatest-report-')" ] && [ ! -e "$TMP/sig/term" ]; ok $? "its temporary folder removed, no DIR"

# --- without gnuplot ---------------------------------------------------------------------
mkdir -p "$TMP/nobin"
PATH="$TMP/nobin" "$HB" report 1 2 --db "$DB" --out "$TMP/nognu" >/dev/null 2>"$TMP/err"; is $? 1 "no gnuplot on PATH: exit 1"
like "$(cat "$TMP/err")" 'gnuplot-nox.*--no-charts' "the error names gnuplot-nox and --no-charts"
[ ! -e "$TMP/nognu" ] && [ "$(ls -a "$TMP" | grep -c '^\.hbatest-report-')" = 0 ]; ok $? "nothing written"
PATH="$TMP/nobin" "$HB" report 1 2 --db "$DB" --out "$TMP/nognu" --no-charts >/dev/null 2>"$TMP/err"; ok $? "--no-charts works without gnuplot"

# --- usage ---------------------------------------------------------------------------------
rep; is $? 2 "no RUN: usage error"
rep 1 --format pdf; is $? 2 "--format pdf alone: usage error (the page needs svg or png)"
rep 1 --format png,pdf --size 800x600 --out "$TMP/pdf"; ok $? "--format png,pdf --size 800x600"
is "$(png_size "$TMP/pdf/charts/02-oio-4k-randread.png")" "800 x 600" "PNGs at --size"
[ -s "$TMP/pdf/charts/02-oio-4k-randread.pdf" ] && [ -s "$TMP/pdf/charts/02-oio-4k-randread.png" ] && [ ! -e "$TMP/pdf/charts/02-oio-4k-randread.svg" ]
ok $? "PDF and PNG, no SVG"
rep 1 --size 12; is $? 2 "--size 12: usage error"
rep 1 --baseline 2 --out "$TMP/bl"; is $? 2 "--baseline not among the runs: a usage error, exit 2"
rep no-such-run --out "$TMP/no7"; is $? 1 "an unknown run: exit 1"

done_testing
