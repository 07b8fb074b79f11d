#!/usr/bin/env bash
# The printed page holds every result as text (reports/html/style.css, its
# print rule; docs/reports.md "Summary"): the summary's groups are folds
# (<details>) that start closed, and a closed fold prints its summary line
# alone. Printed by headless Chromium, the page must take as many pages as
# the same page with every fold opened by hand. Simulated runs; skipped
# without Chromium.
. "$(dirname "$0")/lib.sh"

chrome=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -z "$chrome" ]; then
	skip "Chromium is not installed (apt-get install chromium)"
	done_testing; exit
fi
DB="$TMP/p.db"
cat > "$TMP/pr.lua" <<'EOF2'
hb.plan{ name = "pr", defaults = { engine = "sim", ramp = 0, duration = 1, targets = { "v1" },
                                   sim = { preset = "lsi3108-8sas", layout = "raid0", drive_capacity = "4g" } } }
for _, rw in ipairs{ "randread", "randwrite", "read" } do
  hb.sweep{ base = { name = rw, rw = rw, bs = rw == "read" and "128k" or "4k" }, group = rw,
            oio = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 } }
end
EOF2
"$HB" run "$TMP/pr.lua" --db "$DB" --label pr -q 2>>"$TMP/stderr"
ok $? "run pr (simulated: three sweeps of 16 points)"
"$HB" report pr --db "$DB" --out "$TMP/r" --no-charts >/dev/null 2>>"$TMP/stderr"
ok $? "report pr"
# the same page, every fold after the contents opened (the contents' "N
# more" stay folded in print)
perl -0777 -pe 's{(</nav>.*)}{ (my $t = $1) =~ s/<details(?![^>]*\bopen\b)/<details open/g; $t }se' \
	"$TMP/r/index.html" > "$TMP/r/open.html"
# after FILE: its text after the contents
after() { perl -0777 -pe 's{.*</nav>}{}s' "$1"; }
closed=$(after "$TMP/r/index.html" | grep -o '<details[^>]*>' | grep -vc ' open')
[ "$closed" -ge 3 ]; ok $? "the page has closed folds ($closed)"
is "$(after "$TMP/r/open.html" | grep -o '<details[^>]*>' | grep -vc ' open')" 0 "the copy has none after the contents"
# pages NAME: the pages of $TMP/r/NAME.html printed by Chromium
pages() {
	timeout 120 "$chrome" --headless --no-sandbox --disable-gpu --no-first-run \
		--print-to-pdf="$TMP/$1.pdf" "file://$TMP/r/$1.html" >/dev/null 2>>"$TMP/chrome.err"
	perl -0777 -ne 'print scalar(() = m{/Type\s*/Page(?!s)}g)' "$TMP/$1.pdf"
}
n_page=$(pages index); n_open=$(pages open)
[ "${n_open:-0}" -ge 2 ]; ok $? "opened, the page prints on $n_open pages"
[ "${n_page:-0}" -ge 1 ] && [ "$n_page" = "$n_open" ]; ok $? "printed as written, it takes as many ($n_page): every fold prints open"
done_testing
