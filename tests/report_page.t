#!/usr/bin/env bash
# hbatest report's page (reports/page.lua): a table of contents whose every
# link has its anchor, a headline per group naming the leading run and its
# margin as the database has them, the summary folded per group, an arrow and
# a sign on every delta, and --only GLOB selecting groups (a glob that selects
# none: exit 2, naming it).
. "$(dirname "$0")/lib.sh"

DB="$TMP/p.db"
PLAN="$ROOT/tests/fixtures/report/review-plan.lua"
"$HB" run "$PLAN" --db "$DB" --label lsi --set seconds=2 --set precondition=5 -q 2>>"$TMP/stderr"
ok $? "first sim run"
"$HB" run "$PLAN" --db "$DB" --label asr --set preset=asr8885-8sas --set seconds=2 \
	--set precondition=5 -q 2>>"$TMP/stderr"; ok $? "second sim run, another card"
"$HB" report lsi asr --db "$DB" --out "$TMP/rep" --no-charts >/dev/null 2>"$TMP/err"
ok $? "report of the two runs"
html=$(tr -d '\n' < "$TMP/rep/index.html")

# --- the table of contents ----------------------------------------------------------
like "$html" '<nav class="toc" id="contents"><h2 id="sec-contents">Contents</h2><ol><li><a href="#sec-headlines">Headlines</a>' \
	"a table of contents at the top, the headlines first"
hrefs=$(printf '%s' "$html" | grep -o 'href="#[^"]*"' | sed 's/^href="#//; s/"$//' | sort -u)
bad=""
for h in $hrefs; do
	[ "$(printf '%s' "$html" | grep -o "id=\"$h\"" | wc -l)" = 1 ] || bad="$bad $h"
done
is "$bad" "" "every link of the page has its anchor, once"
[ "$(printf '%s\n' "$hrefs" | wc -l)" -gt 20 ]; ok $? "and there are many ($(printf '%s\n' "$hrefs" | wc -l))"
nfig=$(printf '%s' "$html" | grep -o '<figure' | wc -l)
is "$(printf '%s' "$html" | grep -o '<figure id="chart-[^"]*"' | wc -l)" "$nfig" "every chart has an id"
is "$(printf '%s' "$html" | grep -o '<a href="#chart-' | wc -l)" "$nfig" "and a link in the contents"
is "$(printf '%s' "$html" | grep -o '<h2' | wc -l)" "$(printf '%s' "$html" | grep -o '<h2 id="[^"]*"' | wc -l)" \
	"every section has an id"
like "$html" '<h3 id="grp-4k-randread">4k randread</h3>' "ids from the names: a group's heading"
like "$html" '<figure id="chart-oio-4k-randread-latency">' "a chart's, from its file name without its number"
like "$html" '<a href="#grp-4k-randread">4k randread</a>: <span class="charts"><a href="#chart-oio-4k-randread">IOPS</a>' \
	"the contents list a group's charts on its line"
like "$html" '<a href="#lat-4k-randread">4k randread</a>: <span class="charts"><a href="#chart-iops-latency-4k-randread">mean and p99 latency against IOPS</a>' \
	"latency over IOPS: its own heading id, and the contents say what the chart shows (it said 'mean')"

# --- headlines: the leader at the highest point both runs have, from the database ----
# headline GROUP: its leader at OIO 128, and its margin over the second (of the second's
# IOPS), from hbatest sql; 4k randwrite's is wide (the cards' RAID5 writes), so that a
# margin taken of the leader's IOPS shows (4k randread's 2.3 % reads the same either way)
headline() {
	local lead leader second margin
	lead=$("$HB" sql --db "$DB" --format tsv "SELECT r.label, s.iops FROM steps s JOIN runs r ON r.id = s.run_id
		WHERE s.group_name = '$1' AND s.oio = 128 ORDER BY s.iops DESC" | tail -n +2)
	leader=$(printf '%s\n' "$lead" | sed -n 1p | cut -f1)
	second=$(printf '%s\n' "$lead" | sed -n 2p | cut -f1)
	margin=$(printf '%s\n' "$lead" | awk -F'\t' 'NR == 1 { a = $2 } NR == 2 { printf "%.1f", (a - $2) / $2 * 100 }')
	like "$html" "<li><a href=\"#sum-${1// /-}\">$1</a>: <span class=\"who\"><span class=\"swatch\"[^>]*></span><b>$leader</b></span> leads at OIO 128: [0-9.,kM]+ IOPS, <span class=\"margin\">▲ \\+$margin %</span> over <span class=\"who\"><span class=\"swatch\"[^>]*></span><b>$second</b></span></li>" \
		"the headline of $1 names $leader, +$margin % over $second at OIO 128 (hbatest sql)"
}
headline "4k randread"
headline "4k randwrite"
leader=$(q "$DB" "SELECT r.label FROM steps s JOIN runs r ON r.id = s.run_id WHERE s.group_name = '4k randread' AND s.oio = 128 ORDER BY s.iops DESC LIMIT 1")
like "$html" '<details class="group" id="sum-4k-randread"><summary>4k randread <span class="count">\(4 steps\)</span><span class="headline"><span class="who"><span class="swatch"[^>]*></span><b>'"$leader"'</b></span> leads at OIO 128' \
	"and the group's fold says it too"
ngroups=$("$HB" sql --db "$DB" --format csv "SELECT count(DISTINCT coalesce(nullif(group_name, ''), name)) AS n FROM steps WHERE run_id = 1" | tail -1)
is "$(printf '%s' "$html" | grep -o '<details class="group"' | wc -l)" "$ngroups" "the summary is one fold per group ($ngroups)"
# (a preconditioning step makes no headline: docs/reports.md "Headlines")
nmeasured=$("$HB" sql --db "$DB" --format csv "SELECT count(DISTINCT coalesce(nullif(group_name, ''), name)) AS n FROM steps WHERE run_id = 1 AND kind <> 'precondition'" | tail -1)
is "$(printf '%s' "$html" | grep -o '<li><a href="#sum-' | wc -l)" "$nmeasured" "and a headline per group of more than preconditioning ($nmeasured)"

# --- deltas: arrow and sign, not colour alone ------------------------------------------------
deltas=$(printf '%s' "$html" | grep -o '<td class="num \(better\|worse\|noise\)"[^>]*>[^<]*<')
nd=$(printf '%s\n' "$deltas" | wc -l)
[ "$nd" -ge 30 ]; ok $? "the summary has deltas ($nd)"
is "$(printf '%s\n' "$deltas" | grep -vc '>\(▲ +\|▼ -\|±0\.0 %<\)')" 0 "each with its arrow and sign (or ±0.0 %)"
is "$(printf '%s\n' "$deltas" | grep '>▲' | grep -c 'title="\(better\|worse\|within noise\)"')" \
	"$(printf '%s\n' "$deltas" | grep -c '>▲')" "and a title that says better or worse"

# --- --only GLOB ------------------------------------------------------------------------------
"$HB" report lsi asr --db "$DB" --out "$TMP/only" --no-charts --only '4K RAND[rw]*' >/dev/null 2>"$TMP/err"
ok $? "--only '4K RAND[rw]*' (any case, a class)"
only=$(tr -d '\n' < "$TMP/only/index.html")
is "$(printf '%s' "$only" | grep -o '<details class="group" id="[^"]*"' | sed 's/.*id="//; s/"//' | tr '\n' ' ')" \
	"sum-4k-randread sum-4k-randwrite " "it folds only the two groups the glob selects"
is "$(grep -vc '^"4k rand\(read\|write\), oio [0-9]*",' "$TMP/only/data/summary.csv")" 1 \
	"summary.csv holds their steps only (and its head)"
"$HB" report lsi asr --db "$DB" --out "$TMP/only2" --no-charts --only '4k randread' --only '1M*' >/dev/null 2>"$TMP/err"
ok $? "--only twice"
is "$(grep -o '<details class="group" id="[^"]*"' "$TMP/only2/index.html" | sed 's/.*id="//; s/"//' | tr '\n' ' ')" \
	"sum-4k-randread sum-1m-sequential-read " "the groups either selects"
"$HB" report lsi asr --db "$DB" --out "$TMP/none" --no-charts --only '4k randread' --only 'raid9*' >/dev/null 2>"$TMP/err"
is $? 2 "a glob that selects no group: exit 2"
like "$(cat "$TMP/err")" "--only 'raid9\\*' matches no group of these runs .*groups: .*'4k randread'" \
	"naming it and the groups there are"
[ ! -e "$TMP/none" ] && [ "$(ls -a "$TMP" | grep -c '^\.hbatest-report-')" = 0 ]
ok $? "and no report written, no temporary folder left"
"$HB" report lsi asr --db "$DB" --out "$TMP/none" --no-charts --only '' >/dev/null 2>"$TMP/err"
is $? 2 "--only '': exit 2"
"$HB" report lsi asr --db "$DB" --out "$TMP/sub" --no-charts --only 'randread' >/dev/null 2>"$TMP/err"
is $? 2 "a glob matches the whole name: 'randread' alone selects nothing"
"$HB" report lsi asr --db "$DB" --out "$TMP/sub" --no-charts --only '4k rand' >/dev/null 2>"$TMP/err"
is $? 2 "nor does '4k rand'"

# --- examples/quick.lua: its random reads are a sweep, so the report draws their points ---
if "$HB" run "$ROOT/examples/quick.lua" --db "$TMP/q.db" --target "$TMP/quick.dat" --set seconds=1 \
	-q 2>"$TMP/qerr"; then
	ok 0 "examples/quick.lua runs (1 s a step)"
	"$HB" report 1 --db "$TMP/q.db" --out "$TMP/quick" --no-charts >/dev/null 2>"$TMP/err"
	is "$(cd "$TMP/quick/charts" && ls *.gp | sed 's/^[0-9]*-//' | tr '\n' ' ')" \
		"oio-4k-random-read.gp oio-4k-random-read-seconds.gp oio-4k-random-read-latency-seconds.gp oio-4k-random-read-latency.gp oio-4k-random-read-percentiles.gp sequential-bars.gp iops-latency-4k-random-read.gp hostcpu-run1.gp " \
		"its report: IOPS and latency over OIO of the random reads (per second too), the sequential bar, latency over IOPS, and the run's host CPU"
	is "$(grep -c '	' "$TMP/quick/charts/"*-oio-4k-random-read.tsv)" 3 "the IOPS chart holds both points (QD1, QD32) and its head"
else
	skip "examples/quick.lua cannot run here: $(tail -1 "$TMP/qerr")"
	skip "examples/quick.lua cannot run here"
	skip "examples/quick.lua cannot run here"
fi
done_testing
