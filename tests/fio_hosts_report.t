#!/usr/bin/env bash
# engine = "fio" past one machine, the rest of it: fio's version in
# params_json, a step over two fio --server processes on loopback addresses
# drawn in the report (a line per host beside their sum, a table per host,
# the hosts and fio's version in the test bed), on_error = "continue" for a
# host that drops out midway; and a local fio step against an io_uring step
# of the same workload on the same file.
. "$(dirname "$0")/lib.sh"

. "$(dirname "$0")/lib_fio.sh"
DB="$TMP/hosts.db"
truncate -s 64m "$TMP/t.dat"
VERSION=$(fio --version)

P1=$((20000 + ($$ + 7) % 20000)); P2=$((P1 + 1))
start_server 127.0.0.2 $P1 && start_server 127.0.0.3 $P2
ok $? "two fio servers listen on 127.0.0.2:$P1 and 127.0.0.3:$P2"
H1="127.0.0.2:$P1" H2="127.0.0.3:$P2"

# plan FILE NAME DURATION EXTRA: one 4k randread step of DURATION s (1 s ramp)
# over both hosts, psync, with EXTRA keys
plan() {
	cat > "$1" <<LUA
hb.run{ name = "$2", engine = "fio", rw = "randread", bs = "4k", oio = 2, workers = 2,
        duration = $3, ramp = 1, targets = "$TMP/t.dat", $4
        fio = { hosts = "$H1,$H2", ioengine = "psync" } }
LUA
}

plan "$TMP/two.lua" two 3 ""
"$HB" run "$TMP/two.lua" --db "$DB" -q 2>"$TMP/err"
ok $? "a step over both hosts runs: $(head -c 300 "$TMP/err")"
id=$(q "$DB" "SELECT id FROM steps WHERE name = 'two'")
is "$(q "$DB" "SELECT status FROM steps WHERE id = $id")" done "it is 'done'"
is "$(q "$DB" "SELECT json_extract(params_json, '\$.fio_version') FROM steps WHERE id = $id")" "$VERSION" \
	"params_json records fio's version (the client's: fio --version here)"
like "$("$HB" show 1 --db "$DB")" " two +done .* $VERSION on $H1,$H2" \
	"show gives fio's version and the hosts in its placement column"

# the report: a line per host and their sum, a table per host, the test bed
"$HB" report 1 --db "$DB" --out "$TMP/rep" >/dev/null 2>"$TMP/err"
ok $? "the report is made: $(head -c 300 "$TMP/err")"
html=$(cat "$TMP/rep/index.html")
like "$html" "<h2[^>]*>Steps on several fio hosts</h2>" "a section for the steps on several hosts"
table=$(printf '%s' "$html" | tr '\n' ' ' | sed -n 's/.*\(<table class="hosts">.*\)/\1/p' | sed 's:</table>.*::')
like "$table" "<td>$H1</td>.*<td>$H2</td>.*the step \(their sum\)" "its table: a row per host, then the step"
nrow=$(printf '%s' "$table" | grep -o '<tr>' | wc -l)
is "$nrow" 3 "the header and one row per host"
secs=$(q "$DB" "SELECT count(*) FROM samples WHERE step_id = $id")
like "$table" "<td>$H2</td>(<td[^>]*>[^<]*</td>){4}<td class=\"num\">$secs</td>" \
	"seconds present: each host's ($secs, as many as the step's)"
h1=$(q "$DB" "SELECT CAST(round(sum(json_extract(e.value, '\$.read_ops')) / (SELECT window_s FROM steps WHERE id = $id)) AS INT)
	FROM samples s, json_each(s.hosts_json) e WHERE s.step_id = $id AND s.ramp = 0 AND e.key = '$H1'")
like "$table" "<td>$H1</td><td class=\"num\">$(printf '%s' "$h1" | sed 's/\B\(\([0-9]\{3\}\)\+$\)/,\1/;s/,\([0-9]\{3\}\)\([0-9]\{3\}\)$/,\1,\2/')" \
	"a host's IOPS: its window's ops over the step's window ($h1)"
lat1=$(q "$DB" "SELECT round(sum(json_extract(e.value, '\$.read_lat_mean_us') * json_extract(e.value, '\$.read_ops')
	+ json_extract(e.value, '\$.write_lat_mean_us') * json_extract(e.value, '\$.write_ops'))
	/ sum(json_extract(e.value, '\$.read_ops') + json_extract(e.value, '\$.write_ops')), 3)
	FROM samples s, json_each(s.hosts_json) e WHERE s.step_id = $id AND s.ramp = 0 AND e.key = '$H1'")
cell=$(printf '%s' "$table" | sed -n "s|.*<td>$H1</td><td[^>]*>[^<]*</td><td[^>]*>[^<]*</td><td class=\"num\">\([^<]*\)</td>.*|\1|p" | tr -d ,)
is "$(q "$DB" "SELECT $lat1 > 0 AND abs(${cell:-0} - $lat1) <= 0.5 + 0.01 * $lat1")" 1 \
	"a host's mean latency: its seconds' means weighted by their ops ($cell against $lat1 us)"
tsv=$(ls "$TMP"/rep/charts/*-hosts-run1-step1.tsv 2>/dev/null | head -1)
ok $([ -n "$tsv" ]; echo $?) "a chart of the step's seconds per host: ${tsv##*/}"
like "$(cat "$tsv" 2>/dev/null | tr '\n' ' ')" "# series 1: $H1 .*# series 2: $H2 .*# series 3: sum of the hosts" "a series per host, then their sum"
svg=${tsv%.tsv}.svg
texts=$(sed -n 's/.*<text[^>]*>[[:space:]]*\([^<]*\)<\/text>.*/\1/p' "$svg" 2>/dev/null)
like "$texts" "^time since the step began \(s\)$" "its x axis counts from the step's start, as its seconds do"
is "$(grep -E '^[0-9]{5,}$' <<<"$texts")" "" "its y axis counts in k, never a bare number of five digits"
# the chart's values: a host's line is each second's ops over its own secs
# (both directions), summed over its seconds against the same from hosts_json
line1=$(awk -F'\t' '/^# series 1:/ { on = 1; next } /^# series/ { on = 0 } on && /^[0-9]/ { s += $2 } END { printf "%.3f", s }' "$tsv")
want1=$(q "$DB" "SELECT round(sum((json_extract(e.value, '\$.read_ops') + json_extract(e.value, '\$.write_ops'))
	/ max(json_extract(e.value, '\$.secs'), 1e-3)), 3) FROM samples s, json_each(s.hosts_json) e WHERE s.step_id = $id AND e.key = '$H1'")
is "$(q "$DB" "SELECT $want1 > 0 AND abs(${line1:-0} - $want1) <= 0.005 * $want1")" 1 \
	"the chart's line of $H1: its seconds' ops over their secs ($line1 summed, against $want1)"
gp=${tsv%.tsv}.gp
is "$(sed -n 's/^tmax = //p' "$gp")" "$(q "$DB" "SELECT max(t) FROM samples WHERE step_id = $id")" \
	"the chart's time axis ends at the step's last second"
mb1=$(q "$DB" "SELECT sum(json_extract(e.value, '\$.read_bytes') + json_extract(e.value, '\$.write_bytes')) / 1e6
	/ (SELECT window_s FROM steps WHERE id = $id) FROM samples s, json_each(s.hosts_json) e WHERE s.step_id = $id AND s.ramp = 0 AND e.key = '$H1'")
cell=$(printf '%s' "$table" | sed -n "s|.*<td>$H1</td><td[^>]*>[^<]*</td><td class=\"num\">\([^<]*\)</td>.*|\1|p" | tr -d ,)
is "$(q "$DB" "SELECT $mb1 > 0 AND abs(${cell:-0} - $mb1) <= 0.01 * $mb1")" 1 \
	"a host's MB/s: its window's bytes over the window, in 10^6 bytes ($cell against $mb1)"
bed=$(printf '%s' "$html" | tr '\n' ' ' | sed -n 's/.*<th[^>]*>fio hosts<\/th>\(.\{0,300\}\).*/\1/p')
like "$bed" "$H1, $H2: $VERSION \(the client(&#39;|')s" "the test bed lists the hosts and fio's version"
ids=$(printf '%s' "$html" | grep -o ' id="[^"]*"' | sort | uniq -d | tr '\n' ' ')
is "$ids" "" "no id twice on the page"
if command -v python3 >/dev/null; then
	python3 - "$TMP/rep/index.html" <<'PY'
import sys
from html.parser import HTMLParser
VOID = {"meta", "link", "img", "br", "hr", "input", "col", "source", "wbr"}
class P(HTMLParser):
    def __init__(self):
        super().__init__(); self.stack = []; self.bad = []
    def handle_starttag(self, t, a):
        if t not in VOID: self.stack.append(t)
    def handle_endtag(self, t):
        if t in VOID: return
        if not self.stack or self.stack[-1] != t: self.bad.append(t); return
        self.stack.pop()
p = P(); p.feed(open(sys.argv[1], encoding="utf-8").read())
sys.exit(1 if p.bad or p.stack else 0)
PY
	ok $? "the page's tags nest and close"
fi

# a run of two local fio steps: the test bed names this host and fio's
# version once, not once a step
printf 'for i = 1, 2 do hb.run{ name = "local " .. i, engine = "fio", rw = "randread", bs = "4k", duration = 1, ramp = 0,\n  targets = "%s" } end\n' \
	"$TMP/t.dat" > "$TMP/local.lua"
"$HB" run "$TMP/local.lua" --db "$TMP/local.db" -q 2>"$TMP/err"
ok $? "two local fio steps run: $(head -c 300 "$TMP/err")"
"$HB" report 1 --db "$TMP/local.db" --out "$TMP/localrep" --no-charts >/dev/null 2>"$TMP/err"
ok $? "and their report is made: $(head -c 300 "$TMP/err")"
bed=$(tr '\n' ' ' < "$TMP/localrep/index.html" | sed -n 's/.*<th[^>]*>fio hosts<\/th>\(.\{0,300\}\).*/\1/p')
like "$bed" "^<td[^>]*>this host: $VERSION</td>" "the test bed: this host and fio's version, once for the two steps"

# a fio whose --version is not one word (a wrapper's, a stand-in's): no
# version recorded rather than a wrong one
mkdir -p "$TMP/wrap"
printf '#!/bin/sh\n[ "$1" = --version ] && { echo "%s (wrapped)"; exit 0; }\nexec fio "$@"\n' "$VERSION" > "$TMP/wrap/fio"
chmod +x "$TMP/wrap/fio"
HBATEST_FIO="$TMP/wrap/fio" "$HB" run "$TMP/local.lua" --db "$TMP/wrap.db" -q 2>"$TMP/err"
ok $? "a run with a fio that says '$VERSION (wrapped)': $(head -c 300 "$TMP/err")"
is "$(q "$TMP/wrap.db" "SELECT count(*) FROM steps WHERE json_extract(params_json, '\$.fio_version') IS NULL")" 2 \
	"its steps record no fio_version"

# on_error = "continue": a server killed midway; the step is done with the
# seconds it has, each second naming the hosts it had, and an event names
# the host and the second it is missing from
plan "$TMP/cont.lua" cont 6 'on_error = "continue",'
run_killing "$TMP/cont.lua" "$DB" 2.5
ok $? "the run goes on: $(head -c 300 "$TMP/err")"
id=$(q "$DB" "SELECT id FROM steps WHERE name = 'cont'")
is "$(q "$DB" "SELECT status FROM steps WHERE id = $id")" done "the step is 'done'"
gone=$(q "$DB" "SELECT min(t) FROM samples s WHERE step_id = $id AND json_extract(hosts_json, '\$.\"$H2\"') IS NULL")
like "$gone" "^[0-9]+$" "from one second on the host is not in hosts_json (second $gone)"
is "$(q "$DB" "SELECT count(*) FROM samples WHERE step_id = $id AND t >= $gone AND json_extract(hosts_json, '\$.\"$H2\"') IS NOT NULL")" 0 \
	"nor in any second after"
is "$(q "$DB" "SELECT count(*) FROM samples WHERE step_id = $id AND json_extract(hosts_json, '\$.\"$H1\"') IS NULL")" 0 \
	"the other host is in every second"
like "$(q "$DB" "SELECT message FROM events WHERE level = 'warning' AND message LIKE '%dropped out%'")" \
	"step 'cont': fio host '$H2' from second $gone dropped out midway .*on_error = \"continue\"" \
	"a warning names the host and the second it is missing from"
like "$("$HB" show 2 --db "$DB")" "fio host '$H2' from second $gone dropped out" "show lists it"
is "$(q "$DB" "SELECT (SELECT sum(read_ops) FROM samples WHERE step_id = $id AND ramp = 0) = read_ops AND read_ops > 0 FROM steps WHERE id = $id")" 1 \
	"its seconds sum to its totals"

# on_error = "continue" keeps a step whose host dropped out midway, not one
# where every host did before its first second: that step fails, naming
# them. The client stands in for fio's when every server is gone at once:
# its JSON object with no host's status in it, exit status 1.
P3=$((P2 + 1)); P4=$((P2 + 2))
start_server 127.0.0.2 $P3 && start_server 127.0.0.3 $P4
ok $? "two more fio servers listen on $P3 and $P4"
sed "s/$H1,$H2/127.0.0.2:$P3,127.0.0.3:$P4/" "$TMP/cont.lua" | sed 's/"cont"/"early"/' > "$TMP/early.lua"
mkdir -p "$TMP/gone"
printf '#!/bin/sh\ncase "$*" in *--client=*) echo %s; exit 1 ;; esac\nexec fio "$@"\n' "'{\"client_stats\": []}'" > "$TMP/gone/fio"
chmod +x "$TMP/gone/fio"
HBATEST_FIO="$TMP/gone/fio" "$HB" run "$TMP/early.lua" --db "$TMP/early.db" -q 2>"$TMP/err"
is "$? $(q "$TMP/early.db" "SELECT status FROM steps WHERE name = 'early'")" "1 failed" \
	"every host gone before its first second under on_error = \"continue\": the step fails, not done with no seconds"
like "$(cat "$TMP/err")" "fio host '127.0.0.2:$P3' \\(0 of 0 s\\), '127.0.0.3:$P4' \\(0 of 0 s\\) dropped out midway" \
	"and its error names them"

# a gnuplot that takes 2 s a chart (a loaded host): the report program's
# time limit counts its Lua's CPU time, its waits for gnuplot not at all
# (they were once taken off it in wall time, which then underflowed: "has
# run for 120 s: does it loop forever?" after a few seconds of waits)
mkdir -p "$TMP/slowgp"
printf '#!/bin/sh\nsleep 2\nexec %s "$@"\n' "$(command -v gnuplot)" > "$TMP/slowgp/gnuplot"
chmod +x "$TMP/slowgp/gnuplot"
PATH="$TMP/slowgp:$PATH" "$HB" report 1 2 --db "$DB" --out "$TMP/slowrep" >/dev/null 2>"$TMP/err"
ok $? "the report is made with a slow gnuplot: $(head -c 300 "$TMP/err")"

# a local fio step and an io_uring step of the same workload on the same
# file: fio measures the same thing, in the same units. 4k randread at QD1
# and QD8, O_DIRECT on a file of data, 3 s each, each its own run. Their IOPS
# are not compared: on a loaded host the two runs seconds apart measured
# 0.77 to 2.51 of each other (a benchmark's matter: docs/fio-engine.md). What
# holds at any load: each step's ops are its bytes over 4k (within fio's
# status skew, fio-engine.md), its IOPS its ops
# over a window of its 3 s, at most OIO I/Os in flight (mean latency x IOPS,
# Little's law, cannot pass the queue), and no more reads than the file's
# device counted in /sys/dev/block/M:m/stat while it ran (O_DIRECT: each
# read reaches it; others' reads only add).
dd if=/dev/urandom of="$TMP/d.dat" bs=1M count=64 status=none
d=$(stat -c %d "$TMP/d.dat")
devstat=/sys/dev/block/$((d >> 8 & 0xfff)):$(((d & 0xff) | (d >> 12 & 0xfff00)))/stat
dev_reads() { awk '{ print $1 + $2 }' "$devstat"; }	# reads completed and merged
for qd in 1 8; do
	for engine in fio io_uring; do
		extra=""
		[ $engine = fio ] && extra=', fio = { ioengine = "io_uring" }'
		printf 'hb.run{ name = "%s qd%s", engine = "%s", rw = "randread", bs = "4k", oio = %s, workers = 1,\n  duration = 3, ramp = 1, targets = "%s"%s }\n' \
			$engine $qd $engine $qd "$TMP/d.dat" "$extra" > "$TMP/same.lua"
		before=$( [ -r "$devstat" ] && dev_reads)
		"$HB" run "$TMP/same.lua" --db "$TMP/same.db" -q 2>"$TMP/err"
		ok $? "QD$qd: a $engine step runs: $(head -c 300 "$TMP/err")"
		after=$( [ -r "$devstat" ] && dev_reads)
		is "$(q "$TMP/same.db" "SELECT status = 'done' AND read_ops > 0 AND write_ops = 0 AND abs(read_bytes - 4096 * read_ops) <= 0.1 * read_bytes
			AND abs(iops * window_s - read_ops) <= 1e-6 * read_ops AND window_s BETWEEN 2.5 AND 3.6
			AND lat_mean_us * iops / 1e6 <= $qd * 1.05 FROM steps WHERE name = '$engine qd$qd'")" 1 \
			"QD$qd, $engine: 4k an op, IOPS over a 3 s window, at most $qd in flight (Little's law)"
		if [ -r "$devstat" ]; then
			ops=$(q "$TMP/same.db" "SELECT read_ops FROM steps WHERE name = '$engine qd$qd'")
			ok $([ "$ops" -le $((after - before)) ]; echo $?) "QD$qd, $engine: its $ops reads are no more than the device counted ($((after - before)))"
		else
			skip "QD$qd, $engine: $TMP's device has no $devstat to count its reads"
		fi
	done
done
done_testing
