#!/usr/bin/env bash
# Text a report shows is UTF-8: a label, group name, step name or --title with
# bytes that are not UTF-8 (a Latin-1 description, a label typed in another
# encoding) shows each such byte as U+FFFD, in the page, the summary CSV, each
# chart's .gp and .tsv and its SVG, and every SVG stays XML (one invalid byte
# made every chart a broken image). U+FFFE, UTF-8 but no XML character, too.
. "$(dirname "$0")/lib.sh"

command -v gnuplot >/dev/null || { skip "gnuplot is not installed (apt-get install gnuplot-nox)"; done_testing; exit 0; }

DB="$TMP/t.db"
cat > "$TMP/tiny.lua" <<'EOF'
hb.plan{ defaults = { engine = "sim", workers = 1, targets = { "v" }, duration = 2, ramp = 0,
  sim = { preset = "lsi3108-8sas", drive_capacity = "8g" } } }
for _, oio in ipairs{ 2, 8 } do
  hb.run{ name = "rr" .. oio, rw = "randread", bs = "4k", oio = oio, axis = "oio", group = "4k randread" }
end
hb.run{ name = "seq", rw = "read", bs = "1m", oio = 8, group = "1M seq" }
EOF
"$HB" run "$TMP/tiny.lua" --db "$DB" --label cardA -q 2>>"$TMP/stderr"; ok $? "a run of the plan"
# a label, a group and a step name no run stores so now (run and import check
# them at the door), as a database written before that, or a hand edit, may
q "$DB" "UPDATE runs SET label = CAST(X'63617264FFFE41' AS TEXT);
	UPDATE steps SET group_name = CAST(X'346B2072616E64FF72656164' AS TEXT) WHERE group_name = '4k randread';
	UPDATE steps SET name = 'seq ' || CAST(X'EFBFBEC0' AS TEXT) WHERE name = 'seq'"

FFFD=$'\xef\xbf\xbd'
"$HB" report 1 --db "$DB" --out "$TMP/rep" --title $'T\xe9st' >"$TMP/out" 2>"$TMP/err"; ok $? "report exits 0"
is "$(cat "$TMP/err")" "" "and says nothing"
valid_utf8() { iconv -f UTF-8 -t UTF-8 "$1" >/dev/null 2>&1; }
bad=""
for f in "$TMP/rep/index.html" "$TMP/rep/data/summary.csv" "$TMP/rep/charts/"*.gp "$TMP/rep/charts/"*.tsv "$TMP/rep/charts/"*.svg; do
	valid_utf8 "$f" || bad="$bad ${f#$TMP/rep/}"
done
is "$bad" "" "index.html, summary.csv and every chart's .gp, .tsv and .svg are UTF-8"
page=$(cat "$TMP/rep/index.html")
like "$page" "<h1>T${FFFD}st</h1>" "the --title's Latin-1 byte shows as U+FFFD"
like "$page" "card${FFFD}${FFFD}A" "the label shows as card\\uFFFD\\uFFFDA"
like "$page" "4k rand${FFFD}read" "the group name's invalid byte as U+FFFD"
like "$page" "seq ${FFFD}${FFFD}" "U+FFFE and a stray byte in a step name: U+FFFD each"
grep -q "card${FFFD}${FFFD}A" "$TMP/rep/data/summary.csv"; ok $? "summary.csv names the run so"
grep -q "titles\[1\] = \['card${FFFD}${FFFD}A" "$TMP/rep/charts/"*-oio-*rand*read.gp; ok $? "a chart's .gp quotes it so"
grep -q "^# series 1: card${FFFD}${FFFD}A" "$TMP/rep/charts/"*-oio-*rand*read.tsv; ok $? "its .tsv so"
grep -q "card${FFFD}${FFFD}A" "$TMP/rep/charts/"*-oio-*rand*read.svg; ok $? "and its SVG shows it"
if command -v python3 >/dev/null || command -v xmllint >/dev/null; then
	bad=""
	for f in "$TMP/rep/charts/"*.svg; do
		python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' "$f" 2>/dev/null ||
			xmllint --noout "$f" 2>/dev/null || bad="$bad ${f##*/}"
	done
	is "$bad" "" "every SVG is well-formed XML ($(ls "$TMP/rep/charts/"*.svg | wc -l) charts)"
else
	skip "neither python3 nor xmllint to parse the SVGs"
fi
[ -z "$(ls "$TMP/rep/charts/"*.log 2>/dev/null)" ]; ok $? "gnuplot drew every chart"

# a report program gets the text as UTF-8: Lua's utf8 functions work on it
mkdir -p "$TMP/prog"
printf 'local s = report.sql("SELECT group_name FROM steps WHERE oio = 2")[1].group_name\nreport.write("index.html", ("%%s %%s %%s"):format(utf8.len(report.runs[1].label), utf8.len(report.title), utf8.len(s)))\n' \
	> "$TMP/prog/len.lua"
"$HB" report 1 --db "$DB" --out "$TMP/len" --title $'T\xe9st' --template "$TMP/prog/len.lua" --no-charts >/dev/null 2>&1
is "$(cat "$TMP/len/index.html")" "7 4 12" "report.runs, report.title and report.sql give UTF-8 (utf8.len counts each U+FFFD)"

# report.write makes UTF-8 of whatever a report program writes
mkdir -p "$TMP/prog"
printf 'report.write("index.html", "<p>" .. "a\\xff\\xc3b" .. "</p>")\n' > "$TMP/prog/w.lua"
"$HB" report 1 --db "$DB" --out "$TMP/w" --template "$TMP/prog/w.lua" --no-charts >/dev/null 2>&1
is "$(cat "$TMP/w/index.html")" "<p>a${FFFD}${FFFD}b</p>" "report.write: each invalid byte a program writes becomes U+FFFD"

# and so does report.chart, whatever text a program gives it
cat > "$TMP/prog/c.lua" <<'LUA'
local c = report.chart{ name = "x", template = "bars", title = "t\xff\xef\xbf\xbe",
  columns = { "cluster", "MB/s", "step\xfe" },
  series = { { title = "s\xc3", color = "#ff0000", rows = { { 0, 2, "a\xff", 3, "c\xef\xbf\xbf", "", 1 } } } },
  args = { ylabel = "y\xff", ymax = 5, nclusters = 1 } }
report.write("index.html", c.img)
LUA
"$HB" report 1 --db "$DB" --out "$TMP/c" --template "$TMP/prog/c.lua" >/dev/null 2>"$TMP/err"; ok $? "a chart of text that is not UTF-8: drawn"
valid_utf8 "$TMP/c/charts/01-x.gp" && valid_utf8 "$TMP/c/charts/01-x.tsv"; ok $? "its .gp and .tsv are UTF-8"
if command -v python3 >/dev/null; then
	python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' "$TMP/c/charts/01-x.svg"
	ok $? "its SVG is XML"
else
	skip "no python3"
fi
grep -q "^chart_title = 't${FFFD}${FFFD}'$" "$TMP/c/charts/01-x.gp"; ok $? "each invalid byte and U+FFFE a U+FFFD"

done_testing
