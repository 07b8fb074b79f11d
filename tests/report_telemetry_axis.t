#!/usr/bin/env bash
# The telemetry template's y axis as a report program sets it (ytv, ytl,
# ylo, yhi: the per-host chart of reports/hosts.lua, in k and M): the ticks
# it names and the range from ylo to yhi, not gnuplot's autoscaled range
# around the points (which drops the ticks outside them, 0 among them).
. "$(dirname "$0")/lib.sh"

command -v gnuplot >/dev/null || { skip "gnuplot is not installed (apt-get install gnuplot-nox)"; done_testing; exit 0; }

DB="$TMP/y.db"
printf 'hb.run{ engine = "null", targets = { "v" }, duration = 1, ramp = 0 }\n' > "$TMP/one.lua"
"$HB" run "$TMP/one.lua" --db "$DB" -q 2>>"$TMP/stderr"; ok $? "a run to report on"

# points from 400 to 600, the axis from 0 to 1,000 ticked at 0, 500, 1k
cat > "$TMP/y.lua" <<'LUA'
local c = report.chart{ name = "y", template = "telemetry", title = "t", columns = { "t_s", "IOPS" },
  series = { { title = "a", color = "#1f77b4", rows = { { 0, 400 }, { 1, 600 }, { 2, 500 } } } },
  args = { ylabel = "IOPS", tmax = 2, nsteps = 0, nevents = 0, step_from = { 0 }, step_to = { 0 },
           step_label = { "" }, event_t = { 0 }, ytv = { 0, 500, 1000 }, ytl = { "0", "500", "1k" },
           ylo = 0, yhi = 1000 } }
report.write("index.html", c.img)
LUA
"$HB" report 1 --db "$DB" --out "$TMP/out" --template "$TMP/y.lua" >/dev/null 2>"$TMP/err"
ok $? "a report program draws a telemetry chart with its own y axis: $(grep -v warning "$TMP/err" | head -c 300)"
labels=$(sed -n 's/.*<text[^>]*>[[:space:]]*\([^<]*\)<\/text>.*/\1/p' "$TMP/out/charts/01-y.svg" | grep -xE '[0-9.]+k?' | tr '\n' ' ')
like "$labels" "^0 500 1k " "the y axis from ylo to yhi: its ticks 0, 500 and 1k, not only the 500 among the points"
done_testing
