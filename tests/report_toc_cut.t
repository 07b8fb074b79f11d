#!/usr/bin/env bash
# The contents' chart entries are cut as text, then escaped
# (reports/page.lua figure_entry; docs/reports.md "Contents"): a caption
# holding an apostrophe was cut at the ";" of its "&#39;" ("the host&#39",
# no ellipsis). A simulated run whose label and step name hold ' and &.
. "$(dirname "$0")/lib.sh"

DB="$TMP/a.db"
cat > "$TMP/ap.lua" <<'EOF2'
hb.plan{ name = "ap", defaults = { engine = "sim", ramp = 0, targets = { "v1" } } }
hb.precondition{ name = "it's the drives' warm-up", duration = 30, rw = "randwrite", bs = "4k", oio = 32,
                 sim = { preset = "lsi3108-8sas", layout = "raid5", drive_capacity = "4g" } }
EOF2
LABEL="O'Brien's & Co's card"
"$HB" run "$TMP/ap.lua" --db "$DB" --label "$LABEL" -q 2>>"$TMP/stderr"
ok $? "run ap (simulated)"
"$HB" report "$LABEL" --db "$DB" --out "$TMP/r" >/dev/null 2>>"$TMP/stderr"
ok $? "report it"
TOC=$(grep -o '<nav class="toc".*</nav>' "$TMP/r/index.html")
# the chart entries' texts, one a line
ENTRIES=$(sed 's#<li><a href="\#chart-#\n#g' <<<"$TOC" | sed -n '2,$s/^[^>]*>\([^<]*\)<.*/\1/p')
is "$(wc -l <<<"$ENTRIES")" 2 "two charts in the contents"
is "$(grep -c '&[^;]*$\|&[^;]*&' <<<"$ENTRIES")" 0 "no entry ends inside an entity: every & is a whole entity"
like "$ENTRIES" "^O&#39;Brien&#39;s &amp; Co&#39;s card \[simulated\] — it&#39;s the drives&#39; warm-up: 30 seconds, IOP…$" \
	"a long caption: its first 77 characters as text, escaped, and an ellipsis"
like "$ENTRIES" "^it&#39;s the drives&#39; warm-up: every second of each run \(dots\) and its rolling ave…$" \
	"the group's chart: the same"
done_testing
