#!/usr/bin/env bash
# A report program has a plan's limits: its Lua's memory (1 GiB, report
# --lua-memory SIZE) and its own time, in Lua and in its queries (report
# --lua-time SECONDS), even inside pcall; a query that never ends stops on
# it too. Each ends the report with a message that names the program line
# and the option, exit 1, and no report folder. A chart's gnuplot gets the
# same time (of CPU) and 4 GiB.
. "$(dirname "$0")/lib.sh"

DB="$TMP/l.db"
printf 'hb.run{ engine = "null", targets = { "v" }, duration = 1, ramp = 0 }\n' > "$TMP/one.lua"
"$HB" run "$TMP/one.lua" --db "$DB" -q 2>>"$TMP/stderr"; ok $? "a run to report on"

# bad NAME LUA WANT WHAT [OPTIONS]: the program is refused so, exit 1
bad() {
	local name=$1 lua=$2 want=$3 what=$4
	shift 4
	printf '%s\n' "$lua" > "$TMP/$name.lua"
	"$HB" report 1 --db "$DB" --out "$TMP/out-$name" --template "$TMP/$name.lua" --no-charts "$@" \
		>/dev/null 2>"$TMP/err"
	is $? 1 "$what: exit 1"
	like "$(cat "$TMP/err")" "$want" "$what: says so"
	[ ! -e "$TMP/out-$name" ]; ok $? "$what: no report written"
}
bad loop 'report.log("start")
while true do end' "loop.lua:2: the report program has run for 2 s: does it loop forever\? \(--lua-time SECONDS raises the limit\)" \
	"an endless loop" --lua-time 2
bad pcall 'local ok = pcall(function() while true do end end)
report.write("index.html", "caught")' "pcall.lua:1: the report program has run for 1 s" \
	"an endless loop inside pcall" --lua-time 1
bad sql 'report.sql("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) AS n FROM c")' \
	"sql.lua:1: the report program has run for 1 s" "a query that never ends" --lua-time 1
bad bomb 'local t = {}
while true do t[#t + 1] = string.rep("x", 1000000) .. #t end' \
	"bomb.lua:2: the report program's Lua needs more memory than its limit of 64 MiB \(--lua-memory SIZE raises it\)" \
	"a memory bomb under --lua-memory 64m" --lua-memory 64m
bad big 'local s = string.rep("y", 1500000000)' "needs more memory than its limit of 1 GiB" \
	"one allocation past the default limit (1 GiB)"

printf 'local t = {}\nfor i = 1, 20 do t[i] = string.rep("x", 1000000) .. i end\nreport.write("index.html", "ok")\n' > "$TMP/fits.lua"
"$HB" report 1 --db "$DB" --out "$TMP/fits" --template "$TMP/fits.lua" --no-charts --lua-memory 64m >/dev/null 2>&1
ok $? "20 MB of strings fit under --lua-memory 64m"

# a chart's gnuplot has the program's time too (of CPU): a template that loops
if command -v gnuplot >/dev/null; then
	mkdir -p "$TMP/spin/gnuplot"
	echo 'do for [i=1:2000000000] { a = i }' > "$TMP/spin/gnuplot/spin.gp"
	printf 'local c = report.chart{ name = "x", template = "spin", title = "t", series = { { title = "s", rows = { { 1, 2 } } } } }\nreport.write("index.html", c.img)\n' \
		> "$TMP/spin/spin.lua"
	"$HB" report 1 --db "$DB" --out "$TMP/spin-out" --template "$TMP/spin/spin.lua" --lua-time 1 >/dev/null 2>"$TMP/err"
	is $? 1 "a gnuplot template that loops: exit 1"
	like "$(cat "$TMP/err")" "gnuplot failed on 'charts/01-x.gp' \(killed by signal [0-9]+, CPU time limit exceeded\)" \
		"its gnuplot is stopped at the time limit, and the chart named"
else
	skip "gnuplot is not installed"
	skip "gnuplot is not installed"
fi

# the limit after a chart: its wait for gnuplot is taken off the program's
# time, the rest still counts (a chart then a loop stops at 1 s)
if command -v gnuplot >/dev/null; then
	printf '%s\n' 'local c = report.chart{ name = "x", template = "sweep", title = "t", columns = { "OIO", "IOPS" },' \
		'  series = { { title = "s", color = "#1f77b4", rows = { { 1, 2 }, { 2, 3 } } } }, args = { xlabel = "OIO", logx = 0 } }' \
		'while true do end' > "$TMP/after.lua"
	timeout 60 "$HB" report 1 --db "$DB" --out "$TMP/out-after" --template "$TMP/after.lua" --lua-time 1 >/dev/null 2>"$TMP/err"
	is $? 1 "a loop after a chart: exit 1"
	like "$(cat "$TMP/err")" "after.lua:3: the report program has run for 1 s" "a loop after a chart: stopped at the time limit"
else
	skip "gnuplot is not installed"
	skip "gnuplot is not installed"
fi

out=$("$HB" report 1 --db "$DB" --lua-memory lots 2>&1); is $? 2 "--lua-memory takes a size"
like "$out" "--lua-memory lots: expected a size of at least 1m" "and says so"
out=$("$HB" report 1 --db "$DB" --lua-time 0 2>&1); is $? 2 "--lua-time takes whole seconds from 1"
like "$out" "--lua-time 0: expected whole seconds, 1 to 86400" "and says so"

done_testing
