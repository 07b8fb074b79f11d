#!/usr/bin/env bash
# The last second of a step that ends inside it (a fill that completes, an
# I/O error that stops the step) is kept as the part of a second it covers
# (samples.secs), so its errors are stored and its rates are over its part;
# the step's window is the secs of its samples, summed, and its totals are
# theirs.
. "$(dirname "$0")/lib.sh"

DB="$TMP/p.db"
last_step() { q "$DB" "SELECT max(id) FROM steps"; }

# --- a simulated fill: its last second is rated by its part ------------------
cat > "$TMP/simfill.lua" <<'LUA'
local sim = { preset = "asr8885-8sas", layout = "raid0", drive_capacity = "4g" }
hb.precondition{ name = "fill", engine = "sim", targets = { "vol" }, workers = 1, passes = 1,
                 bs = "1m", oio = 32, sim = sim }
LUA
"$HB" run "$TMP/simfill.lua" --db "$DB" -q; ok $? "a simulated fill of a 16 GB RAID0 runs"
id=$(last_step)
is "$(q "$DB" "SELECT count(*) FROM samples WHERE step_id = $id AND secs < 1") $(q "$DB" "SELECT (SELECT max(t) FROM samples WHERE step_id = $id AND secs < 1) = max(t) FROM samples WHERE step_id = $id")" \
	"1 1" "one second is cut short: the last"
is "$(q "$DB" "SELECT abs(window_s - elapsed_s) < 1e-9 AND abs((SELECT secs FROM samples WHERE step_id = $id ORDER BY t DESC LIMIT 1) - (elapsed_s - CAST(elapsed_s AS INTEGER))) < 1e-9 FROM steps WHERE id = $id")" \
	1 "its secs is the fill's time past its last whole second; the window is the fill's time"
# the simulated card writes at a steady rate: the last second, over its part,
# reads as the ones before it (over a whole second it read 3809 against 5250)
is "$(q "$DB" "SELECT (SELECT mbps FROM sample_total WHERE step_id = $id ORDER BY t DESC LIMIT 1) / (SELECT avg(mbps) FROM sample_total WHERE step_id = $id AND secs = 1) BETWEEN 0.95 AND 1.05")" \
	1 "sample_total: the last second's MB/s is that of the whole ones (within 5%)"
is "$("$HB" sql --db "$DB" "SELECT abs(mbps - (SELECT mbps FROM sample_total WHERE step_id = $id ORDER BY t DESC LIMIT 1)) < 1e-6 FROM steps WHERE id = $id" --format csv | tail -1)" \
	0 "(and differs from the step's average: a rate of its own)"
got=$("$HB" sql --db "$DB" samples --param run=1 --param step=fill --format csv | tail -1)
want=$(q "$DB" "SELECT t || ',' || ramp || ',' || secs FROM samples WHERE step_id = $id ORDER BY t DESC LIMIT 1")
like "$got" "^$want,[0-9.]+," "sql samples: the last second with its secs"
is "$(q "$DB" "SELECT abs(write_ops / secs - $(echo "$got" | cut -d, -f4)) < 1e-6 FROM samples WHERE step_id = $id ORDER BY t DESC LIMIT 1")" \
	1 "sql samples: its IOPS is its ops over its secs"
is "$(check_invariant "$DB" "$id")" 1 "the fill's samples add up to its totals, its window to their secs"
# the report's per-second chart plots that last second over its part too
"$HB" report 1 --db "$DB" --out "$TMP/rep" >/dev/null 2>&1; ok $? "a report of the fill"
tsv=$(ls "$TMP"/rep/charts/*scatter*.tsv | head -1)
last=$(awk 'NF >= 2 && $1 ~ /^[0-9]/ { v = $2 } END { print v }' "$tsv")
is "$(q "$DB" "SELECT abs($last - (SELECT mbps FROM sample_total WHERE step_id = $id ORDER BY t DESC LIMIT 1)) < 0.05")" \
	1 "the scatter's last dot is the last second's MB/s over its secs ($last)"

# --- export, import and merge carry secs; an export from before takes 1 -----
"$HB" export 1 --db "$DB" --format json > "$TMP/x.json"; ok $? "export the fill's run"
"$HB" import hbatest "$TMP/x.json" --db "$TMP/in.db" >/dev/null 2>&1; ok $? "and import it into a new database"
is "$(q "$TMP/in.db" "SELECT group_concat(t || ':' || secs, ' ') || ' ' || (SELECT window_s FROM steps) FROM samples")" \
	"$(q "$DB" "SELECT group_concat(t || ':' || secs, ' ') || ' ' || (SELECT window_s FROM steps WHERE id = $id) FROM samples WHERE step_id = $id")" \
	"import: every second's secs, and the window cut short, as exported"
"$HB" merge "$TMP/m.db" "$DB" >/dev/null 2>&1; ok $? "merge it into an archive"
is "$(q "$TMP/m.db" "SELECT sum(secs) FROM samples")" "$(q "$DB" "SELECT sum(secs) FROM samples")" "merge: secs carried"
# an export made before secs: the key missing, or null
python3 - "$TMP/x.json" "$TMP/old.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for i, m in enumerate(d["samples"]):
    if i % 2: del m["secs"]
    else: m["secs"] = None
for r in d["runs"]: r["uuid"] = "0ld" + r["uuid"][3:]
for t in d:
    if isinstance(d[t], list):
        for r in d[t]:
            if "run_uuid" in r: r["run_uuid"] = "0ld" + r["run_uuid"][3:]
json.dump(d, open(sys.argv[2], "w"))
PY
"$HB" import hbatest "$TMP/old.json" --db "$TMP/in.db" >/dev/null 2>"$TMP/err"
is "$?$(cat "$TMP/err")" 0 "an export without secs (the key missing, or null) imports"
is "$(q "$TMP/in.db" "SELECT group_concat(DISTINCT secs) FROM samples s JOIN steps t ON t.id = s.step_id JOIN runs r ON r.id = t.run_id WHERE r.uuid LIKE '0ld%'")" \
	"1.0" "its seconds are whole (secs 1)"

# --- a loop device that runs out of space: the errors are stored ------------
if ! is_root; then
	for _ in 1 2 3 4 5 6 7 8 9; do skip "not root: no tmpfs or loop device"; done
	done_testing; exit
fi
MNT="$TMP/full"
mkdir -p "$MNT"
mount -t tmpfs -o size=16m tmpfs "$MNT"; ok $? "a 16 MB tmpfs"
cleanup_hooks=("umount '$MNT'" "${cleanup_hooks[@]}")
truncate -s 256M "$MNT/sparse.img"
mkloop LOOP "$MNT/sparse.img" || { done_testing; exit; }
cat > "$TMP/enospc.lua" <<'LUA'
hb.run{ name = "enospc", engine = "libaio", rw = "randwrite", bs = "4k", oio = 32, duration = 10 }
LUA
"$HB" run "$TMP/enospc.lua" --db "$DB" --target "$LOOP" --destroy-data "$LOOP" -q 2>"$TMP/err"
is "$?" 1 "a randwrite on a 256 MB loop device over a 16 MB tmpfs: exit 1"
id=$(last_step)
n=$(sed -n 's/.*: \([0-9]*\) I\/O errors\{0,1\} on .*/\1/p' "$TMP/err" | head -1)
like "$(cat "$TMP/err")" "[0-9]+ I/O errors? on '$LOOP', first at offset [0-9]+: No space left on device" \
	"it names the errors, the device and ENOSPC"
is "$(q "$DB" "SELECT errors FROM steps WHERE id = $id") $(q "$DB" "SELECT sum(errors) FROM samples WHERE step_id = $id") $(q "$DB" "SELECT errors FROM step_targets WHERE step_id = $id")" \
	"$n $n $n" "steps, samples and step_targets hold the $n errors the message counts (not 0)"
like "$("$HB" show 2 --db "$DB")" "enospc +failed .* $n " "show: the step's errors"
is "$(q "$DB" "SELECT secs < 1 FROM samples WHERE step_id = $id ORDER BY t DESC LIMIT 1")" 1 \
	"the second the error stopped the step in is kept, cut short"
is "$(check_invariant "$DB" "$id")" 1 "its samples add up to the step's totals"

# --- a fill of the loop device: its only second is part of one --------------
truncate -s 8M "$MNT/sparse.img"	# frees the tmpfs: the file stays the device's
losetup -c "$LOOP"
cat > "$TMP/fill.lua" <<'LUA'
hb.precondition{ name = "fill", engine = "libaio", bs = "128k", oio = 8, passes = 1 }
LUA
"$HB" run "$TMP/fill.lua" --db "$DB" --target "$LOOP" --destroy-data "$LOOP" -q; ok $? "a fill of an 8 MB loop device"
id=$(last_step)
is "$(q "$DB" "SELECT count(*) FROM samples WHERE step_id = $id AND secs < 1") $(q "$DB" "SELECT write_bytes FROM steps WHERE id = $id")" \
	"1 8388608" "its last second is cut short; it wrote the device once"
is "$(q "$DB" "SELECT abs(m.mbps - m.bytes / 1e6 / m.secs) < 1e-9 * m.mbps AND (s.window_s >= 1 OR abs(m.mbps - s.mbps) < 1e-9 * s.mbps) FROM steps s, sample_total m WHERE s.id = $id AND m.step_id = $id ORDER BY m.t DESC LIMIT 1")" \
	1 "its last dot's MB/s is over its secs (a fill under a second: the step's MB/s, not its bytes over a whole second)"
is "$(check_invariant "$DB" "$id")" 1 "the fill's samples add up to its totals"
done_testing
