#!/usr/bin/env bash
# Several simulated cards in one step (sim = { cards = { ... } }, reference
# 004: two cards of 8 SSDs each, 128k sequential reads over their 16 drives):
# the step's rates are the sum over its targets; each card is bounded by its
# own link (one on a narrow PCIe2 x4 saturates, the other on PCIe3 x8 does
# not); two runs give the same numbers; Little's law holds; the facts put each
# target on its card (sim cN.model, pcie address and link); the report's
# "Several controllers, summed" chart stacks both cards under the sum of
# their links' ceilings; a card's own options win over the common ones.
. "$(dirname "$0")/lib.sh"

DB="$TMP/s.db"
cat > "$TMP/two.lua" <<'LUA'
local t = {}
for i = 0, 15 do t[#t + 1] = "sd" .. i end
hb.plan{ name = "two cards", defaults = { engine = "sim", ramp = 0, telemetry = 0 } }
hb.run{ name = "seq read 128k", rw = "read", bs = "128k", oio = 64, duration = 5, targets = t,
        sim = { cards = { "sas2308-8ssd", { preset = "sas2308-8ssd", link = "pcie2x4" } } } }
LUA
for l in one two; do
	"$HB" run "$TMP/two.lua" --db "$DB" -q --label "$l" 2>>"$TMP/stderr"
	ok $? "run $l: a step on two simulated cards"
done
rates() { q "$DB" "SELECT $1 FROM step_target_rate r JOIN steps s ON s.id = r.step_id WHERE s.run_id = 1 AND $2"; }
narrow="CAST(substr(path, 3) AS INT) >= 8"
wide="CAST(substr(path, 3) AS INT) < 8"

# the step is the sum of its targets
is "$(q "$DB" "SELECT abs(s.iops - sum(r.iops)) <= 0.005 * s.iops AND abs(s.mbps - sum(r.mbps)) <= 0.005 * s.mbps
	FROM steps s JOIN step_target_rate r ON r.step_id = s.id WHERE s.run_id = 1")" 1 \
	"the step's IOPS and MB/s are the sums over its 16 targets (within 0.5 %)"
is "$(rates 'count(*)' "r.mbps > 0")" 16 "every target carried I/O"
# PCIe2 x4 at 0.70: 5 GT/s x 4 x 8/10 / 8 x 0.70 = 1,400 MB/s; PCIe3 x8 at 0.76: 5,987
is "$(rates "round(sum(r.mbps) / 1400, 2) BETWEEN 0.97 AND 1.01" "$narrow")" 1 \
	"the card on PCIe2 x4 saturates its link: $(rates 'round(sum(r.mbps))' "$narrow") MB/s of 1,400"
is "$(rates "sum(r.mbps) < 0.85 * 5987 AND sum(r.mbps) > 2.5 * 1400" "$wide")" 1 \
	"the card on PCIe3 x8 does not (its drives bound it): $(rates 'round(sum(r.mbps))' "$wide") MB/s of 5,987"
is "$(rates "max(r.mbps) < 1.02 * min(r.mbps)" "$narrow")|$(rates "max(r.mbps) < 1.02 * min(r.mbps)" "$wide")" "1|1" \
	"each card's targets share it evenly"

# deterministic, and Little's law
is "$(q "$DB" "SELECT count(DISTINCT iops || ' ' || mbps || ' ' || lat_mean_us) FROM steps")" 1 \
	"two runs give the same IOPS, MB/s and latency"
is "$(q "$DB" "SELECT group_concat(n, ' ') FROM (SELECT count(DISTINCT read_bytes) AS n FROM step_targets GROUP BY path ORDER BY path LIMIT 3)")" \
	"1 1 1" "and the same per-target totals"
is "$(q "$DB" "SELECT abs(iops * lat_mean_us / 1e6 - oio) <= 0.02 * oio FROM steps WHERE run_id = 1")" 1 \
	"IOPS x mean latency = OIO within 2 % (Little's law)"

# the facts: each target on its card
fact() { q "$DB" "SELECT value FROM probes WHERE run_id = 1 AND phase = 'start' AND probe = '$1' AND target = '$2' AND key = '$3'"; }
is "$(fact sim sd0 c0.model)|$(fact sim sd15 c1.model)" \
	"LSI SAS 9207-8e (SAS2308)|LSI SAS 9207-8e (SAS2308)" "the targets name their card: sd0..sd7 c0, sd8..sd15 c1"
is "$(q "$DB" "SELECT count(*) FROM probes WHERE run_id = 1 AND probe = 'sim' AND key = 'c1.model' AND CAST(substr(target, 3) AS INT) < 8")" 0 \
	"no target of the first card names the second"
is "$(fact pcie sd7 address)|$(fact pcie sd8 address)" "sim:0000:01:00.0|sim:0000:02:00.0" "each card a PCI address of its own"
is "$(q "$DB" "SELECT link_speed || ' x' || link_width || ' ' || ceiling_bytes_per_s FROM run_pcie WHERE run_id = 1 AND target IN ('sd0', 'sd8') ORDER BY target")" \
	"8.0 GT/s PCIe x8 7876923077.0
5.0 GT/s PCIe x4 2000000000.0" "and its link, as the pcie probe records one (run_pcie)"
is "$(q "$DB" "SELECT count(*) FROM probes WHERE run_id = 1 AND key GLOB '*@*'")" 0 "no card's facts leak under another key"

# the report: the controllers chart, both cards stacked, the sum of their links
command -v gnuplot >/dev/null || { skip "gnuplot is not installed (apt-get install gnuplot-nox)"; done_testing; exit 0; }
OUT="$TMP/out"
"$HB" report one two --db "$DB" --out "$OUT" 2>"$TMP/rerr" >/dev/null; ok $? "hbatest report one two"
GP=$(ls "$OUT/charts/"*-controllers-seq-read-128k.gp 2>/dev/null)
ok "$([ -n "$GP" ]; echo $?)" "a controllers chart for the step on two cards"
grep -q "Several controllers, summed" "$OUT/index.html"; ok $? "under 'Several controllers, summed'"
grep -q "^array titles\[2\] = \['LSI SAS 9207-8e (SAS2308) sim:0000:01:00.0', 'LSI SAS 9207-8e (SAS2308) sim:0000:02:00.0'\]" "$GP"
ok $? "both cards stacked, by model and address"
grep -q "^has_ceiling = 1$" "$GP"; ok $? "the sum of the links' ceilings is drawn"
grep -q "sum of links 9,877 MB/s" "${GP%.gp}.tsv"; ok $? "at 7,877 + 2,000 MB/s"

# examples/two-cards.lua, shortened: a controllers chart per slot pair, each at its links' sum
"$HB" run "$ROOT/examples/two-cards.lua" --db "$TMP/ex.db" -q --label ex --set seconds=1 2>>"$TMP/stderr"
ok $? "examples/two-cards.lua, shortened"
"$HB" report ex --db "$TMP/ex.db" --out "$TMP/ex" 2>>"$TMP/rerr" >/dev/null; ok $? "and its report"
is "$(cat "$TMP"/ex/charts/*-controllers-128k-read-pcie*.tsv | grep -o 'sum of links [0-9,]* MB/s' | sort -u | tr '\n' '|')" \
	"sum of links 4,000 MB/s|sum of links 8,000 MB/s|" "its PCIe1 x8 pair under 4,000 MB/s, its PCIe2 x8 pair under 8,000"

# a card's own options win over the common ones; a card without a preset
cat > "$TMP/own.lua" <<'LUA'
hb.run{ engine = "sim", rw = "read", bs = "128k", oio = 16, duration = 2, targets = { "a", "b" },
        sim = { link = "pcie1x1", cards = { { link = "pcie3x8" }, { drives = 4 } } } }
LUA
"$HB" run "$TMP/own.lua" --db "$DB" -q 2>>"$TMP/stderr"; ok $? "cards given as option tables, common options beside"
is "$(q "$DB" "SELECT group_concat(value, '|') FROM (SELECT value FROM probes WHERE run_id = 3 AND probe = 'pcie' AND key = 'current_link_width' ORDER BY target)")" \
	"8|1" "the first card on its own link (pcie3x8), the second on the common one (pcie1x1)"
is "$(q "$DB" "SELECT value FROM probes WHERE run_id = 3 AND target = 'b' AND key = 'c1.model'")" "simulated JBOD" \
	"a card without a preset: a simulated JBOD"
is "$(q "$DB" "SELECT round(sum(r.mbps)) < 250 FROM step_target_rate r JOIN steps s ON s.id = r.step_id WHERE s.run_id = 3 AND r.path = 'b'")" 1 \
	"the second card is bounded by its PCIe1 x1 (175 MB/s)"

# one card in the list is the preset itself
one() {
	printf 'hb.run{ engine = "sim", rw = "randread", oio = 8, duration = 2, targets = { "a", "b" }, sim = %s }\n' "$1" > "$TMP/one.lua"
	"$HB" run "$TMP/one.lua" --db "$TMP/one.db" -q 2>>"$TMP/stderr" &&
		q "$TMP/one.db" "SELECT iops || ' ' || lat_mean_us FROM steps ORDER BY id DESC LIMIT 1"
}
is "$(one '{ cards = { "sas2308-8ssd" } }')" "$(one '{ preset = "sas2308-8ssd" }')" \
	"cards = { one preset } runs as preset = it: the same IOPS and latency"

# mistakes: a card that is not a preset's name or a table, an unknown preset, fewer targets than cards
err() {
	printf 'hb.run{ engine = "sim", rw = "read", duration = 1, targets = %s, sim = { cards = %s } }\n' "$1" "$2" > "$TMP/bad.lua"
	"$HB" run "$TMP/bad.lua" --db "$TMP/bad.db" -q 2>&1 >/dev/null
}
like "$(err '{ "a", "b" }' '{ "sas2308-8ssd", 5 }')" "sim: cards: each card is a preset.s name or a table of options" \
	"a card that is a number: refused"
like "$(err '{ "a", "b" }' '{}')" "sim: cards: a list of one card or more" "an empty list: refused"
like "$(err '{ "a", "b" }' '{ "sas2308-8ssd", "nosuch" }')" "no preset 'nosuch'" "an unknown preset: refused"
like "$(err '{ "a" }' '{ "sas2308-8ssd", "sas2308-8ssd" }')" "1 targets for 2 cards" "fewer targets than cards: refused"
like "$(err '{ "a", "b" }' '{ "sas2308-8ssd", { preset = "sas2308-8ssd", link = "pcie9x1" } }')" "card 2 of the step: link 'pcie9x1'" \
	"a card's bad option names the card"
done_testing
