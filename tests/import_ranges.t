#!/usr/bin/env bash
# hbatest import of a tampered hbatest export: a number no run can have is
# refused with FILE:LINE:COLUMN and the field's name, exit 1, nothing stored
# (docs/safety.md: imported numbers are "finite and in its field's range").
# Table-driven from the schema: every number column of steps, samples,
# step_targets and targets (a count, rate, time, latency, share or size) set
# below 0, one file each; then a step's seconds adding up past its totals.
. "$(dirname "$0")/lib.sh"

X="$ROOT/tests/fixtures/export/run.json"
SEED="$TMP/seed.db" DB="$TMP/h.db"
# the seed holds the export's run under another uuid, so that each case's
# run (the export's own) is new to it
python3 -c 'import sys; t = open(sys.argv[1]).read(); open(sys.argv[2], "w").write(t.replace("0f3c2a8e-", "1f3c2a8e-"))' \
	"$X" "$TMP/other.json"
"$HB" import hbatest "$TMP/other.json" --db "$SEED" >/dev/null 2>&1
ok $? "the database the refusals must not touch (the export imported under another uuid)"
dbsum() { sha256sum < "$DB"; }

# tamper NAME PYTHON [MARK]: $TMP/NAME.json, the export with PYTHON run on
# it (d: the JSON), a key a line; prints the line of the first MARK
# (": -4242")
tamper() {
	python3 - "$X" "$TMP/$1.json" "$2" "${3:-: -4242}" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
exec(sys.argv[3])
text = json.dumps(d, indent=1)
open(sys.argv[2], "w").write(text + "\n")
print(next(n for n, l in enumerate(text.split("\n"), 1) if sys.argv[4] in l))
PY
}

# refused NAME LINE PATTERN WHAT: exit 1, FILE:LINE: and the message, the
# database byte-identical
refused() {
	local name=$1 line=$2 pat=$3 what=$4 before out rc
	cp "$SEED" "$DB"
	before=$(dbsum)
	out=$("$HB" import hbatest "$name.json" --db "$DB" 2>&1); rc=$?
	is "$rc" 1 "$what: exit 1"
	like "$out" "error: $name.json:$line:[0-9]+: $pat" "$what: $(printf '%s' "$out" | head -1 | sed "s|$TMP/||g")"
	is "$(dbsum)" "$before" "$what: nothing stored (database byte-identical)"
}
accepted() {
	local name=$1 what=$2 out
	cp "$SEED" "$DB"
	out=$("$HB" import hbatest "$name.json" --db "$DB" 2>&1)
	ok $? "$what ($(printf '%s' "$out" | sed "s|$TMP/||g"))"
}

cd "$TMP" || exit 1
n=0
for table in steps samples step_targets targets; do
	cols=$(q "$SEED" "SELECT name FROM pragma_table_info('$table') WHERE type IN ('INTEGER', 'REAL')
		AND name NOT IN ('id', 'run_id', 'step_id')")
	[ -n "$cols" ]; ok $? "$table: number columns to try ($(echo $cols))"
	for col in $cols; do
		name="neg_${table}_$col"
		line=$(tamper "$name" "d['$table'][0]['$col'] = -4242")
		refused "$name" "$line" "$table: '$col' is -4242, below 0 \(a count, rate, time, size or share is never negative\)" \
			"$table.$col = -4242"
		n=$((n + 1))
	done
done
# the few from the report, fractional ones too
line=$(tamper neg_frac "d['steps'][1]['mbps'] = -0.4242" ': -0.4242')
refused neg_frac "$line" "steps: 'mbps' is -0.4242, below 0" "a step's mbps of -0.4242"

# a step's seconds add up to no more than its totals (ramp seconds apart)
for col in read_ops write_ops read_bytes write_bytes errors; do
	line=$(tamper "sum_$col" "d['samples'][2]['$col'] = 4242 * 2**50" ": $((4242 << 50))")
	refused "sum_$col" "$line" "samples: '$col' of step 2's seconds adds up to [0-9]+, past the step's total of [0-9]+" \
		"a second's $col of 4242 x 2^50, past its step's total"
done
line=$(tamper sum_2p62 "d['samples'][2]['write_ops'] = 2**62" '"write_ops": 4611686018427387904')
refused sum_2p62 "$line" \
	"samples: 'write_ops' of step 2's seconds adds up to 4611686018427387904, past the step's total of 0" \
	"a second's write_ops of 2^62 (the report's case)"
# step 1: 20000 reads, its two seconds 9900 and 10100: one more than its
# total (the error names the second that takes the sum past it: the
# second), then its total exactly in other seconds
line=$(tamper sum_one "d['samples'][0]['read_ops'] = 9901" '"read_ops": 10100')
refused sum_one "$line" "samples: 'read_ops' of step 1's seconds adds up to 20001, past the step's total of 20000" \
	"a step's seconds one read past its total"
tamper sum_equal "d['samples'][0]['read_ops'] = 9899; d['samples'][1]['read_ops'] = 10101" '"read_ops": 9899' >/dev/null
accepted sum_equal "a step's seconds adding up to its total exactly are imported"
tamper sum_ramp "d['samples'][0]['ramp'] = 1; d['samples'][0]['read_ops'] = 10**9" '"ramp": 1' >/dev/null
accepted sum_ramp "a ramp second is not summed into its step's totals: a billion reads in one is imported"
is "$(q "$DB" "SELECT count(*) FROM samples WHERE ramp = 1 AND read_ops = 1000000000")" 1 "and stored as it was"
# a step cut off (still running when exported: no totals) takes its seconds
# as they are: there is no total for them to pass
tamper sum_cut "s = d['steps'][0]; s['status'] = 'running'
for k in ('read_ops', 'write_ops', 'read_bytes', 'write_bytes', 'errors', 'iops', 'mbps', 'window_s', 'finished_at'): s[k] = None
d['histograms'] = [h for h in d['histograms'] if h['step_seq'] != 1]" '"status": "running"' >/dev/null
accepted sum_cut "a cut-off step's seconds, with no totals to add up to, are imported"
is "$(q "$DB" "SELECT count(*) || ' ' || total(s.read_ops) FROM samples s JOIN steps t ON t.id = s.step_id WHERE t.status = 'running' AND t.read_ops IS NULL")" \
	"2 20000.0" "and stored as they were (its two seconds, 20000 reads)"
done_testing
