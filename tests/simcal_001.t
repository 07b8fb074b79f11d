#!/usr/bin/env bash
# Reference 001 (ServeTheHome: the LSI 9300-4i4e, preset sas3008-1sas,
# against the 9207-8i, sas2308-1sas, one HGST SSD800MM each): every figure
# and ratio its text states, run through examples/reference-001.lua and
# compared, each with the step that reproduces it, its tolerance (15 % a
# figure, 10 % a ratio: the issue's targets; no figure of this review sets an
# option, so all are predictions) and the shape its text claims. A figure the
# model does not reach is a TAP TODO line with the reason. The table:
# docs/calibration.md.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_simcal.sh"

DB="$TMP/simcal1.db"
for c in sas3008-1sas:9300 sas2308-1sas:9207; do
	"$HB" run "$ROOT/examples/reference-001.lua" --set card="${c%%:*}" --set seconds=5 \
		--label "lsi${c#*:}" --db "$DB" -q 2>>"$TMP/stderr"	# not "9300": a label of digits is refused
	ok $? "examples/reference-001.lua on the ${c#*:} (${c%%:*})"
done

# value CARD STEP COLUMN
value() { q "$DB" "SELECT $3 FROM steps s JOIN runs r ON r.id = s.run_id WHERE r.label = 'lsi$1' AND s.name = '$2'"; }

# --- figures: card step (_ for spaces) review unit tolerance what [TODO reason] ---
# A ratio's review value is the 9300-4i4e's over the 9207-8i's.
figures=$(cat <<'TABLE'
9300  4k_random_read_QD32     140000 IOPS  0.15 figure ("140,000", QD 32)
9300  4k_random_read_QD32     547    MiB/s 0.15 figure ("140,000 * 4KB / 1024KB/MB ... over 500MB/s")
ratio 128k_sequential_read    1.9    x     0.10 ratio ("almost 2x the sequential read speeds")
ratio 128k_sequential_write   1.5    x     0.10 ratio ("about 50% higher write speeds") TODO the drive's 750 MB/s writes (the SSD800MH's published figure; reference 003 calls the MM slightly slower) over the 9207-8i's 558 MB/s lane give 1.34x; 1.5x needs the 9207-8i at 500 MB/s, 0.90 of the lane its reads fill (checked below), or the drive at 837 MB/s, above the faster MH's 750: a write-only loss on a 6 Gb/s lane that no figure of the references measures (reference 000 publishes reads only), so not fitted; a loss of 0.5 % would pass the band and one of 10 % give the 1.5, so the ratio cannot tell a model from a fit. What would set it: the 9207-8i's write MB/s, charted here but not printed
TABLE
)
while read -r card step review unit tol what rest; do
	case $unit in IOPS) col=iops ;; MiB/s) col="mbps / 1.048576" ;; *) col=mbps ;; esac
	if [ "$card" = ratio ]; then
		v=$(ratio "$(value 9300 "${step//_/ }" mbps)" "$(value 9207 "${step//_/ }" mbps)")
	else
		v=$(value "$card" "${step//_/ }" "$col")
	fi
	figure "$card ${step//_/ }" "$v" "$review" "$unit" "$tol" predicted "$what $rest"
done <<<"$figures"
echo "# reference 001: $n figures and ratios, $n5 within 5 %, $n15 within 15 %"

# --- the shapes its text claims ------------------------------------------------------
r=$(ratio "$(value 9300 "4k random read QD32" iops)" "$(value 9207 "4k random read QD32" iops)")
awk -v r="$r" 'BEGIN { exit !(r > 1.02) }'
ok $? "4k random reads at QD 32: \"an improvement\" on the 9300-4i4e ($r x the 9207-8i's)"
v=$(value 9207 "128k sequential read" mbps)
awk -v v="$v" 'BEGIN { exit !(v >= 550 && v <= 566) }'
ok $? "the 9207-8i's sequential reads are its 6 Gb/s lane's 558 MB/s ($(printf '%.0f' "$v"))"
is "$(q "$DB" "SELECT value FROM probes WHERE key = 'c0.model' GROUP BY value ORDER BY value" | tr '\n' /)" \
	"LSI SAS 9207-8i (SAS2308)/LSI SAS 9300-4i4e (SAS3008)/" "each run records its card"
is "$(q "$DB" "SELECT DISTINCT value FROM probes WHERE key = 'c0.d0.model'")" "HGST Ultrastar SSD800MM" \
	"and the drive, as JBOD"
is "$(q "$DB" "SELECT count(*) FROM steps WHERE abs(iops * lat_mean_us / 1e6 - oio) <= 0.02 * oio")" 6 \
	"Little's law holds at every step (IOPS x mean latency = OIO within 2 %)"
done_testing
