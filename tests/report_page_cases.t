#!/usr/bin/env bash
# reports/page.lua and reports/at.lua on the cases their outside mutants
# found untested (issue 40, item 4): two --only globs that select one group
# both count as matching, a falling delta's sign is printed once, headings
# of one slug get ids of their own, an HTML entity is no part of an id, a
# chart's entry in the contents ends where its caption's first ";" does;
# --at bs=4096 is the point stored as 4k, --units MiB divides MB/s by
# 1.048576. Two simulated runs of a small plan (well under a second each,
# on the sim's clock).
. "$(dirname "$0")/lib.sh"

DB="$TMP/c.db"
cat > "$TMP/plan.lua" <<'LUA'
local preset = hb.set("preset", "lsi3108-8sas")
hb.plan{ name = "cases", defaults = { engine = "sim", duration = 1, ramp = 0,
                                      sim = { preset = preset, layout = "raid5" } } }
hb.targets = { "volume" }
hb.sweep{ base = { name = "rr", rw = "randread", bs = "4k" }, group = "4K random read", oio = { 1, 32 } }
hb.sweep{ base = { name = "rw", rw = "randwrite", bs = "4k" }, group = "4k random write", oio = { 1, 32 } }
hb.sweep{ base = { name = "bs", rw = "read" }, group = "R & W bs", bs = { "4k", "64k" } }
hb.sweep{ base = { name = "seq", rw = "read", bs = "64k" }, group = "64k seq read", oio = { 1, 8 } }
hb.sweep{ base = { name = "a", rw = "randread", bs = "4k" }, group = "x y", oio = { 1, 8 } }
hb.sweep{ base = { name = "b", rw = "randwrite", bs = "4k" }, group = "X-y", oio = { 1, 8 } }
LUA
"$HB" run "$TMP/plan.lua" --db "$DB" --label lsi -q 2>>"$TMP/stderr"; ok $? "run lsi (sim)"
"$HB" run "$TMP/plan.lua" --db "$DB" --label sas --set preset=sas2308-8ssd -q 2>>"$TMP/stderr"
ok $? "run sas (sim, another card)"
# page OUT ARGS...: the report of lsi and sas into $TMP/OUT, its page on one line
page() {
	local out=$1
	shift
	"$HB" report lsi sas --db "$DB" --out "$TMP/$out" --no-charts "$@" >/dev/null 2>"$TMP/err" &&
		tr -d '\n' < "$TMP/$out/index.html"
}
groups() { printf '%s' "$1" | grep -o '<details class="group" id="[^"]*"' | sed 's/.*id="//; s/"//' | tr '\n' ' '; }

# --- --only: every glob that selects a group counts, not only the first ---
html=$(page two --only '4k*' --only '*random read')
ok $? "--only '4k*' --only '*random read': the second selects only a group the first does too"
is "$(groups "$html")" "sum-4k-random-read sum-4k-random-write " "the groups either glob selects"

# --- deltas: arrow and sign, the sign once ---
html=$(page base --baseline sas)
down=$(printf '%s' "$html" | grep -o '<td class="num [a-z]*" title="[^"]*">▼ [^<]*</td>')
[ -n "$down" ]; ok $? "against sas some deltas fall ($(printf '%s\n' "$down" | wc -l))"
is "$(printf '%s\n' "$down" | grep -vc '>▼ -[0-9][0-9.]* %<')" 0 "each reads ▼ -N.N %: one sign, the number unsigned"

# --- ids: unique, without entities ---
html=$(page ids)
ids=$(printf '%s' "$html" | grep -o ' id="[^"]*"' | sort)
is "$(printf '%s\n' "$ids" | uniq -d | tr '\n' ' ')" "" "no id twice on the page"
like "$html" '<h3 id="grp-x-y">x y</h3>.*<h3 id="grp-x-y-2">X-y</h3>' \
	"two groups of one slug (x y, X-y): grp-x-y and grp-x-y-2"
like "$html" '<h3 id="grp-r-w-bs">R &amp; W bs</h3>' "an entity in a heading is no part of its id (R &amp; W bs: grp-r-w-bs)"

# --- the contents: a chart's entry is its caption to its first ";" ---
toc=$(printf '%s' "$html" | grep -o '<nav class="toc".*</nav>')
[ "$(printf '%s' "$toc" | grep -o '<a href="#chart-[^"]*">' | wc -l)" -gt 5 ]
ok $? "the contents list the charts"
is "$(printf '%s' "$toc" | grep -o '<a href="#chart-[^"]*">[^<]*;[^<]*</a>' | head -3)" "" \
	"no chart's entry runs past a ';' of its caption"
captions=$(printf '%s' "$html" | grep -o '<figcaption>[^<;]*;' | wc -l)
[ "$captions" -gt 0 ]; ok $? "(and some captions have one: $captions)"

# --- --at: a block size as bytes or with its suffix; --units MiB ---
page at4096 --at bs=4096 >/dev/null; ok $? "--at bs=4096: the point stored as 4k"
page at64k --at bs=64K >/dev/null; ok $? "--at bs=64K: the point stored as 64k"
page mib --units MiB >/dev/null; ok $? "--units MiB"
tsv=$(ls "$TMP"/mib/charts/*-ranked-64k-seq-read-oio-8.tsv 2>/dev/null | head -1)
got=$(awk -F'\t' '$4 ~ /^lsi / { print $2 }' "$tsv" 2>/dev/null)
want=$(q "$DB" "SELECT mibps FROM step_summary WHERE label = 'lsi' AND group_name = '64k seq read' AND oio = 8")
awk -v g="$got" -v w="$want" 'BEGIN { exit !(g != "" && w > 0 && (g - w) ^ 2 < 1e-4) }'
ok $? "the ranked bar of lsi at OIO 8 is its MiB/s ($got, the database's mibps $want)"
done_testing
