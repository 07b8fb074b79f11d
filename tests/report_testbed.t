#!/usr/bin/env bash
# The test bed rows of a run on several cards and what the probes saw of its
# targets (reports/review.lua testbed_rows; docs/reports.md "Test bed"):
# each card's link, width and ceiling as its own value, a count of targets
# as "N targets" (never "(xN)", which reads as a link width). Simulated:
# seconds.
. "$(dirname "$0")/lib.sh"

DB="$TMP/t.db"
cat > "$TMP/two.lua" <<'EOF2'
hb.plan{ name = "two", defaults = { engine = "sim", rw = "read", bs = "128k", ramp = 0, duration = 1 } }
local c1 = { preset = "sas2308-8ssd", link = "pcie1x8", drives = 2 }
local c2 = { preset = "sas2308-8ssd", link = "pcie2x8", drives = 3 }
hb.run{ name = "both", targets = { "a1", "a2", "b1", "b2", "b3" }, oio = 10, sim = { cards = { c1, c2 } } }
EOF2
"$HB" run "$TMP/two.lua" --db "$DB" --label two -q 2>>"$TMP/stderr"
ok $? "run two (simulated, two cards)"
# what a block probe gives of each target (the sim has no block device): two
# models, and the queue of two of them
fact() { q "$DB" "INSERT INTO probes (run_id, phase, target, probe, key, value) VALUES (1, 'start', '$1', 'block', '$2', '$3')"; }
for t in a1 a2; do fact $t model "SSD A"; done
for t in b1 b2 b3; do fact $t model "SSD B"; done
for t in a1 a2; do fact $t scheduler mq-deadline; fact $t write_cache "write back"; fact $t rotational 0; done
"$HB" report two --db "$DB" --out "$TMP/two" >/dev/null 2>>"$TMP/stderr"
ok $? "report two"
# row NAME: the text of the test bed's row NAME (<br> as |)
row() { grep -o "<th>$1</th><td>.*" "$TMP/two/index.html" | sed 's#</td>.*##; s/<br>/|/g; s/<[^>]*>//g; s/^'"$1"'//'; }
PCI=$(q "$DB" "SELECT DISTINCT value FROM run_testbed WHERE key = 'address' AND probe = 'pcie' ORDER BY ord" | tr '\n' ' ')
set -- $PCI
is "$#" 2 "the sim gives each card a PCI address of its own"
is "$(row 'PCIe link')" "card 1 ($1, 2 targets): 2.5 GT/s PCIe x8 (2.00 GB/s)|card 2 ($2, 3 targets): 5.0 GT/s PCIe x8 (4.00 GB/s)" \
	"PCIe link: a line per card, its address, targets, link, width and ceiling"
is "$(row 'PCIe ceiling')" "card 1: 2.00 GB/s; card 2: 4.00 GB/s" "PCIe ceiling: each card's, not the first's alone"
is "$(row Drives)" "SSD A (2 targets), SSD B (3 targets)" "a fact that differs between targets: each value with its count of targets"
is "$(row 'Device queue')" "scheduler: mq-deadline, write cache: write back, SSD" \
	"the block probe's scheduler, write cache and rotational, as stored"
if grep -q '(x[0-9]' "$TMP/two/index.html"; then ok 1 "no count of targets written as (xN)"; grep -o '.\{60\}(x[0-9].\{20\}' "$TMP/two/index.html" | sed 's/^/# /'
else ok 0 "no count of targets written as (xN)"; fi

# a simulated RAID volume gives its read policy and no I/O policy: the row
# says which part was not reported (it printed "ReadAhead / ?")
printf 'hb.run{ name = "r", engine = "sim", sim = { preset = "lsi3108-8sas" }, targets = "v", rw = "randread", bs = "4k", oio = 8, duration = 1 }\n' > "$TMP/raid.lua"
"$HB" run "$TMP/raid.lua" --db "$TMP/raid.db" --label r -q 2>>"$TMP/stderr" &&
	"$HB" report r --db "$TMP/raid.db" --out "$TMP/raid" >/dev/null 2>>"$TMP/stderr"
ok $? "a run on a simulated RAID volume and its report"
is "$(grep -o '<th>Read / I/O policy</th><td>[^<]*' "$TMP/raid/index.html" | sed 's/.*<td>//')" \
	"ReadAhead / I/O policy not reported" "Read / I/O policy: the part not reported said so, no '?'"
done_testing
