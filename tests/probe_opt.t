#!/usr/bin/env bash
# --probe-opt PROBE.KEY=VALUE (probe and run): a probe's options from the
# command line, checked against its table (an unknown probe or key exits 2,
# naming it), passed to collect() and sample(): a RAID card's tool found by
# its path where PATH has none, a path to nothing a status fact.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_probe.sh"
DB="$TMP/o.db"
export HBATEST_TOOL_LOG="$TMP/tool.log"
printf 'hb.run{ engine = "null", duration = 1, oio = 1 }\n' > "$TMP/p.lua"
mkdir -p "$TMP/empty" "$TMP/opt/MegaRAID"
ln -s "$TOOLS/storcli64/storcli64" "$TMP/opt/MegaRAID/storcli64"
ST="$TMP/opt/MegaRAID/storcli64"

# --- the tool by its path, not on PATH ---------------------------------------------
out=$(PATH="$TMP/empty:/usr/bin:/bin" "$HB" probe 2>&1)
is "$(fact megaraid status)" "skipped: no storcli64, storcli, perccli64 or perccli on PATH" "without the option: not found on PATH"
NP="$TMP/empty:/usr/bin:/bin"	# what the stand-in script needs, and no storcli
out=$(PATH=$NP "$HB" probe --probe-opt "megaraid.tool=$ST" 2>&1); ok $? "probe --probe-opt megaraid.tool=PATH exits 0"
is "$(fact megaraid status)|$(fact megaraid tool)|$(fact megaraid c0.model)|$(fact megaraid c0.v0.write_policy_effective)" \
	"read|storcli64|AVAGO MegaRAID SAS 9361-8i|WriteBack" "megaraid.tool=PATH: the stand-in found by its path and read"
out=$(PATH=$NP "$HB" probe --sample "--probe-opt=megaraid.tool=$ST" 2>&1)
is "$(fact megaraid c0.temperature_c)|$(fact megaraid c0.model)" "53|" "probe --sample gets the option too (sample())"
PATH=$NP HBATEST_SYSFS_ROOT="$TMP/none" "$HB" run "$TMP/p.lua" --db "$DB" -q --target null0 --probe-opt "megaraid.tool=$ST" 2>"$TMP/err"
ok $? "run --probe-opt megaraid.tool=PATH"
is "$(q "$DB" "SELECT value FROM probes WHERE phase = 'start' AND probe = 'megaraid' AND key = 'c0.v0.raid_level'")" RAID5 \
	"run: the snapshot read through the tool given by its path"
like "$(q "$DB" "SELECT cmdline FROM runs")" "--probe-opt megaraid.tool=$ST" "run: the option is in runs.cmdline"

# --- a path to nothing, the timeout option -------------------------------------------
out=$(PATH="$TMP/empty" "$HB" probe --probe-opt megaraid.tool=/no/such/storcli64 --probe-opt mpt.tool=/no/sas3ircu 2>&1)
ok $? "a tool path to nothing: probe exits 0"
is "$(fact megaraid status)|$(fact mpt status)" \
	"skipped: the tool option's '/no/such/storcli64' is no executable file|skipped: the tool option's '/no/sas3ircu' is no executable file" \
	"a tool path to nothing: a status fact that names it"
printf '#!/bin/sh\nexec sleep 30.375\n' > "$TMP/slow"; chmod +x "$TMP/slow"
out=$(PATH=$NP "$HB" probe --probe-opt "megaraid.tool=$TMP/slow" --probe-opt megaraid.timeout=1 2>&1)
is "$(fact megaraid status)" "unavailable: slow did not finish in 1 s (killed)" "megaraid.timeout=1: the tool cut at 1 s"

# --- refused, exit 2, naming what ----------------------------------------------------
err=$("$HB" probe --probe-opt megarad.tool=/x 2>&1); is $? 2 "an unknown probe: exit 2"
like "$err" "no probe 'megarad' \\(probes: .*megaraid" "an unknown probe: named, with the probes there are"
err=$("$HB" probe --probe-opt megaraid.tol=/x 2>&1); is $? 2 "an unknown key: exit 2"
like "$err" "megaraid: unknown option 'tol' \\(it takes: tool, timeout\\)" "an unknown key: named, with the keys it takes"
err=$("$HB" probe --probe-opt megaraid.timeout=soon 2>&1); is $? 2 "a value not of the option's type: exit 2"
like "$err" "option 'timeout' wants a whole number, not 'soon'" "a value not of the option's type: said"
err=$("$HB" probe --probe-opt megaraid 2>&1); is $? 2 "not PROBE.KEY=VALUE: exit 2"
like "$err" "wants PROBE.KEY=VALUE" "not PROBE.KEY=VALUE: said"
err=$("$HB" probe --probe-opt megaraid.tool= 2>&1); is $? 2 "an empty value: exit 2"
err=$("$HB" probe --probe-opt megaraid.timeout=5 --probe-opt megaraid.timeout=6 2>&1); is $? 2 "a key given twice: exit 2"
like "$err" "megaraid.timeout is given twice" "a key given twice: said"
"$HB" run "$TMP/p.lua" --db "$TMP/never.db" --target null0 --probe-opt smart.tool=/x >/dev/null 2>"$TMP/err"
is $? 2 "run: a key the probe does not take: exit 2"
like "$(cat "$TMP/err")" "smart: unknown option 'tool'" "run: the key and probe named"
is "$(ls "$TMP/never.db" 2>/dev/null)" "" "run: refused before anything is written"

done_testing
