#!/usr/bin/env bash
# A report template is data to the core: its args may not redefine a name
# the core writes into a chart's script (datafile = "< touch marker" ran the
# command), their values are quoted strings, finite numbers or booleans, and
# a gnuplot template beside a custom report program that could run a command
# (system, backquotes, load, set output '|...', a '<' file) is refused, with
# its file, line and column, before any script is written. Text from the
# database in a written script (labels, group and step names made of gnuplot
# and shell syntax) stays data: rendering the scripts again with
# `gnuplot NN-name.gp`, as the page says, runs nothing.
. "$(dirname "$0")/lib.sh"

command -v gnuplot >/dev/null || { skip "gnuplot is not installed (apt-get install gnuplot-nox)"; done_testing; exit 0; }

DB="$TMP/t.db"
M="$TMP/marker"
cat > "$TMP/tiny.lua" <<'EOF'
hb.plan{ defaults = { engine = "sim", workers = 1, targets = { "v" }, duration = 2, ramp = 0,
  sim = { preset = "lsi3108-8sas", drive_capacity = "8g" } } }
for _, oio in ipairs{ 2, 8 } do
  hb.run{ name = "rr" .. oio, rw = "randread", bs = "4k", oio = oio, axis = "oio", group = "4k randread" }
end
hb.run{ name = "seq", rw = "read", bs = "1m", oio = 8, group = "1M seq" }
EOF
# labels and names in gnuplot's and the shell's syntax, each trying to touch a
# marker (by a relative name: in charts/, where gnuplot runs; the page cuts a
# long label in the keys)
LABEL="x'; system(\"touch marker.1\"); y='\\"
"$HB" run "$TMP/tiny.lua" --db "$DB" --label "$LABEL" -q 2>>"$TMP/stderr"; ok $? "a run whose label breaks out of a quoted string"
q "$DB" "UPDATE steps SET group_name = '< touch marker.2; printf 1 \`touch marker.3\` @x' WHERE group_name = '4k randread';
	UPDATE steps SET name = '\"; system(\"touch marker.4\") #' || char(10) || '!touch marker.5' WHERE name = 'seq'"
"$HB" report 1 --db "$DB" --out "$TMP/rep" >/dev/null 2>"$TMP/err"; ok $? "the report of it exits 0"
[ -z "$(ls "$TMP/rep/charts/"*.log 2>/dev/null)" ]; ok $? "gnuplot drew every chart"
# what the page tells readers to do: re-render a chart from its folder
rerun=0
for gp in "$TMP/rep/charts/"*.gp; do
	(cd "$TMP/rep/charts" && gnuplot "$(basename "$gp")" >/dev/null 2>&1) || rerun=1
done
is "$rerun" 0 "every chart re-renders with gnuplot NN-name.gp"
markers() { find "$TMP" -name 'marker*' | wc -l; }
is "$(markers)" 0 "no command in a label or name ran, at render or re-render"
grep -q "^array titles\[1\] = \['x''; system(\"touch marker.1\"); y=''\\\\ \[simulated\]'\]$" "$TMP/rep/charts/"*-oio-*.gp
ok $? "the label is a quoted string in the script, its quotes doubled"

# --- args that redefine what the core sets ------------------------------------------
mkdir -p "$TMP/prog/gnuplot"
chart='local c = report.chart{ name = "x", template = "sweep", title = "t", columns = { "a", "b" },
  series = { { title = "s", color = "#ff0000", rows = { { 1, 2 }, { 2, 3 } } } },
  args = { xlabel = "x", ylabel = "y", ycol = 2, logx = 0, %s } }
report.write("index.html", "<html>" .. c.img .. "</html>")'
# run PROGRAM.lua [OPTIONS]: the report of run 1 by that program; exit status
run() {
	local p=$1
	shift
	rm -rf "$TMP/out"
	"$HB" report 1 --db "$DB" --out "$TMP/out" --template "$TMP/prog/$p" "$@" >/dev/null 2>"$TMP/err"
}
printf "$chart" "datafile = \"< touch $M.6; printf '1\\\\t2\\\\n'\"" > "$TMP/prog/args.lua"
run args.lua; is $? 1 "args datafile = '< touch ...': refused, exit 1"
like "$(cat "$TMP/err")" "args.lua:1: report.chart: args key 'datafile' is set by hbatest for every chart: a report's args may not define it$" \
	"naming the key, with no traceback"
[ ! -e "$M.6" ] && [ ! -e "$TMP/out" ]; ok $? "the command did not run; no report written"

# every name the core writes into a script before the template is refused as a key
printf 'local c = report.chart{ name = "bare", template = "sweep", title = "t", series = { { title = "s", rows = { { 1, 2 } } } } }\nreport.write("index.html", c.img)\n' \
	> "$TMP/prog/bare.lua"
run bare.lua --no-charts; ok $? "a chart without args"
names=$(sed -n -e 's/^array \([a-z_0-9]*\)\[.*/\1/p' -e 's/^\([a-z_0-9]*\) = .*/\1/p' -e 's/^\([a-z_0-9]*\)(.*) = .*/\1/p' \
	-e 's/^do for \[\([a-z_0-9]*\) in .*/\1/p' "$TMP/out/charts/01-bare.gp" | sort -u | tr '\n' ' ')
like "$names" "datafile .*titles" "its script's own names: $names"
{
	echo 'local out = {}'
	for n in $names; do
		printf 'local ok, e = pcall(report.chart, { name = "k", template = "sweep", series = {}, args = { %s = 1 } })\n' "$n"
		printf 'out[#out + 1] = ok and "%s: taken" or tostring(e):match("args key .*")\n' "$n"
	done
	echo 'report.write("index.html", table.concat(out, "\n") .. "\n")'
} > "$TMP/prog/keys.lua"
run keys.lua --no-charts; ok $? "a program that tries each as an args key"
is "$(grep -vc "is set by hbatest for every chart" "$TMP/out/index.html")" 0 "each is refused as one hbatest sets"
is "$(wc -l < "$TMP/out/index.html")" "$(echo $names | wc -w)" "all $(echo $names | wc -w) of them"

# args values are data
printf "$chart" "ymax = 1 / 0" > "$TMP/prog/inf.lua"
run inf.lua; is $? 1 "an args value of Inf: refused"
like "$(cat "$TMP/err")" "report.chart: args key 'ymax' is inf: give a finite number" "naming the key"
printf "$chart" "ymax = print" > "$TMP/prog/fn.lua"
run fn.lua; like "$(cat "$TMP/err")" "args key 'ymax' is a function: give a number, a string or a boolean" \
	"an args value that is a function: refused"
printf "$chart" "[\"x; system('id')\"] = 1" > "$TMP/prog/key.lua"
run key.lua; like "$(cat "$TMP/err")" "args key 'x; system\('id'\)' is not a gnuplot name" "an args key that is no name: refused"

# --- gnuplot templates beside a report program ---------------------------------------
tmpl() {	# NAME TEXT: gnuplot/NAME.gp beside a program that charts with it
	printf '%s\n' "$2" > "$TMP/prog/gnuplot/$1.gp"
	printf 'local c = report.chart{ name = "x", template = "%s", title = "t", columns = { "a", "b" },\n  series = { { title = "s", color = "#ff0000", rows = { { 1, 2 }, { 2, 3 } } } } }\nreport.write("index.html", c.img)\n' \
		"$1" > "$TMP/prog/$1.lua"
}
tmpl evil "system(\"touch $M.7\")"
run evil.lua; is $? 1 "gnuplot/evil.gp with system(\"touch ...\"): refused, exit 1"
like "$(cat "$TMP/err")" "evil.lua:1: report.chart: template 'evil' is refused: $TMP/prog/gnuplot/evil.gp:1:1: 'system' runs a shell command: a chart template draws, it runs nothing$" \
	"naming the template file, line and column"
tmpl bq "set title 'x'
set xlabel \`touch $M.8\`"
run bq.lua; like "$(cat "$TMP/err")" "bq.gp:2:12: a backquote" "a backquote: refused at its line and column"
tmpl out "set output '| touch $M.9'
plot datafile using 1:2"
run out.lua; like "$(cat "$TMP/err")" "out.gp:1:5: 'output' is not an option a chart template may set: hbatest sets the output file" \
	"set output '|...': refused"
tmpl pipe "plot '< touch $M.10; printf 1'"
run pipe.lua; like "$(cat "$TMP/err")" "pipe.gp:1:6: a chart template plots its data \(datafile\) or a function of x" "plot '< cmd': refused"
tmpl load "load '$TMP/prog/gnuplot/evil.gp'"
run load.lua; like "$(cat "$TMP/err")" "load.gp:1:1: 'load' runs another script" "load: refused"
# a template or asset that is no regular file: no wait on a FIFO, no endless read of /dev/zero
tmpl fifo ""
rm -f "$TMP/prog/gnuplot/fifo.gp"
mkfifo "$TMP/prog/gnuplot/fifo.gp"
run fifo.lua; like "$(cat "$TMP/err")" "fifo.lua:1: cannot read '$TMP/prog/gnuplot/fifo.gp': not a regular file$" \
	"a template that is a FIFO: refused, not waited on"
tmpl zero ""
ln -sf /dev/zero "$TMP/prog/gnuplot/zero.gp"
run zero.lua; like "$(cat "$TMP/err")" "cannot read '$TMP/prog/gnuplot/zero.gp': not a regular file$" \
	"a template that is /dev/zero: refused, not read"
printf 'report.write("index.html", report.read("gnuplot/fifo.gp"))\n' > "$TMP/prog/read.lua"
run read.lua; like "$(cat "$TMP/err")" "read.lua:1: cannot read '$TMP/prog/gnuplot/fifo.gp': not a regular file$" \
	"report.read of a FIFO: refused"
head -c 1048577 /dev/zero | tr '\0' '\n' > "$TMP/prog/gnuplot/big.gp"
printf 'local c = report.chart{ name = "x", template = "big", title = "t", series = {} }\n' > "$TMP/prog/big.lua"
run big.lua; like "$(cat "$TMP/err")" "big.gp:1048577 bytes: a chart template has at most 1048576" "a template past 1 MiB: refused"
tmpl good "set title chart_title
plot for [i=1:nseries] datafile index (i-1) using 1:2 with linespoints lc rgb colors[i] title key(i, '')"
run good.lua; ok $? "a template of its own that only draws: rendered"
[ -s "$TMP/out/charts/01-x.svg" ]; ok $? "its chart is drawn"
is "$(markers)" 0 "no refused template ran a command"

done_testing
