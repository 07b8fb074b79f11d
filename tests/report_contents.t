#!/usr/bin/env bash
# hbatest report's contents box (reports/page.lua, page.toc_html) stays
# short however many groups and charts a report has: a group is one line,
# its first chart's link after it and its other charts folded into a
# <details> ("· 4 more ▸"); a section of charts alone lists two and folds
# the rest; nothing is folded when the fold would hold one link. Every link
# of the contents, folded or not, resolves to one id on the page, and every
# chart has one. Two simulated runs of six OIO sweeps and two
# preconditionings (each run's long steps get a chart of their own).
. "$(dirname "$0")/lib.sh"

command -v gnuplot >/dev/null || { skip "gnuplot is not installed (apt-get install gnuplot-nox)"; done_testing; exit 0; }

DB="$TMP/c.db"
cat > "$TMP/p.lua" <<'LUA'
hb.plan{ name = "contents", defaults = { engine = "sim", workers = 1, targets = { "volume" },
  duration = 2, ramp = 0, sim = { preset = hb.set("preset", "lsi3108-8sas"), drive_capacity = "8g" } } }
hb.precondition{ name = "4k random write preconditioning", rw = "randwrite", bs = "4k", oio = 64, duration = 30 }
hb.precondition{ name = "8k random write preconditioning", rw = "randwrite", bs = "8k", oio = 64, duration = 30 }
for _, bs in ipairs{ "4k", "8k", "16k" } do
  for _, rw in ipairs{ "randread", "randwrite" } do
    for _, oio in ipairs{ 4, 32 } do
      hb.run{ rw = rw, bs = bs, oio = oio, axis = "oio", group = bs .. " " .. rw }
    end
  end
end
LUA
"$HB" run "$TMP/p.lua" --db "$DB" --label a -q 2>>"$TMP/stderr"; ok $? "first sim run"
"$HB" run "$TMP/p.lua" --db "$DB" --label b --set preset=asr8885-8sas -q 2>>"$TMP/stderr"
ok $? "second sim run, another card"
"$HB" report a b --db "$DB" --out "$TMP/rep" >/dev/null 2>"$TMP/err"; ok $? "report of the two runs"
html=$(tr -d '\n' < "$TMP/rep/index.html")
toc=$(printf '%s' "$html" | grep -o '<nav class="toc".*</nav>' | sed 's|</nav>.*|</nav>|')

# --- every link resolves ------------------------------------------------------------
hrefs=$(printf '%s' "$toc" | grep -o 'href="#[^"]*"' | sed 's/^href="#//; s/"$//')
bad=""
for h in $hrefs; do
	[ "$(printf '%s' "$html" | grep -o "id=\"$h\"" | wc -l)" = 1 ] || bad="$bad $h"
done
is "$bad" "" "every link of the contents, folded or not, resolves to one id on the page"
n=$(printf '%s\n' "$hrefs" | wc -l)
[ "$n" -gt 50 ]; ok $? "and there are many ($n)"
is "$(printf '%s\n' "$hrefs" | sort | uniq -d)" "" "each once"
figs=$(printf '%s' "$html" | grep -o '<figure id="chart-[^"]*"' | sed 's/.*id="//; s/"$//' | sort)
is "$(printf '%s\n' "$hrefs" | grep '^chart-' | sort)" "$figs" "every chart has its link in the contents ($(printf '%s\n' "$figs" | wc -l))"

# --- compact: a group is one line, the rest folded ---------------------------------
# the contents as shown while no fold is open; the text of its item that matches $1
vis=$(printf '%s' "$toc" | perl -pe 's/<details.*?<\/details>//g')
item() { printf '%s' "$vis" | sed 's/<li/\n<li/g; s/<\/ol>/\n/g' | grep "$1"; }
is "$(item 'href="#grp-16k-randwrite"' | sed 's/<[^>]*>//g')|$(item 'href="#grp-16k-randwrite"' | grep -o '<a ' | wc -l)" \
	"16k randwrite: IOPS |2" "a group's line: its name and first chart's link, no other outside its fold"
like "$toc" '<a href="#grp-16k-randwrite">16k randwrite</a>: <span class="charts"><a href="#chart-oio-16k-randwrite">IOPS</a> <details class="more"><summary>· 4 more ▸</summary><a href="#chart-oio-16k-randwrite-seconds">' \
	"its other four charts in a fold that says how many"
folds=$(printf '%s' "$toc" | perl -ne 'while (/<details[^>]*><summary>[^<]*?(\d+) more[^<]*<\/summary>(.*?)<\/details>/g) {
	my ($k, $in) = ($1, $2); my $n = () = $in =~ /<a /g; print $k == $n ? "ok\n" : "$k for $n\n" }')
is "$(printf '%s\n' "$folds" | sort | uniq -c | sed 's/^ *//')" "8 ok" \
	"each fold's count is the links in it (six groups, two sections of charts)"
like "$toc" '<a href="#sec-preconditioning-and-long-steps-second-by-second">[^<]*</a><ol><li><a href="#chart-scatter-run1-step1">[^<]*</a></li><li><a href="#chart-scatter-run1-step2">[^<]*</a></li><li class="more"><details><summary>2 more ▸</summary><ol start="3"><li><a href="#chart-scatter-run2-step1">' \
	"a section of charts alone: two listed, the rest folded, numbered on from 3"
like "$toc" '<a href="#lat-16k-randread">16k randread</a>: <span class="charts"><a href="#chart-iops-latency-16k-randread">[^<]*</a></span></li>' \
	"a group of one chart: no fold"
like "$toc" '<a href="#sec-preconditioning-every-run-on-one-chart">[^<]*</a><ol><li><a [^>]*>[^<]*</a></li><li><a [^>]*>[^<]*</a></li></ol>' \
	"a section of two charts: both listed, no fold"
# shown: sections, groups with one chart each, two charts a section of charts
text() { printf '%s' "$1" | sed 's/<[^>]*>//g' | wc -c; }
all=$(text "$toc"); shown=$(text "$vis")
[ $((shown * 2)) -lt "$all" ]; ok $? "the contents show under half their text ($shown of $all characters) until a fold is opened"
is "$(printf '%s' "$vis" | sed 's/<li/\n<li/g; s/<\/ol>/\n/g' | awk '{ n = gsub(/<a /, "") } n > 2' | wc -l)" 0 \
	"no item shows more than two links (a group and its first chart)"
done_testing
