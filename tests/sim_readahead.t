#!/usr/bin/env bash
# The sim's read-ahead stage as a card's, and the 9361-8i's direct read path
# (plugins/engines/sim.c ctrl_readahead_mibps, sim_model.h read_ahead;
# scripts/sim_presets.lua lsi3108-8sas; docs/engines.md): the stage is the
# card's, whichever of its targets' streams and however many workers read
# (one rate a card, each target's stream its own); a card with read-ahead
# and no data path stages its sequential reads too; the 9361-8i's 8k random
# reads, the figure that sets its direct path, come out at the review's.
# Simulated: seconds in all.
. "$(dirname "$0")/lib.sh"

DB="$TMP/ra.db"
cat >"$TMP/ra.lua" <<'EOF'
local t8 = { "sdb", "sdc", "sdd", "sde", "sdf", "sdg", "sdh", "sdi" }
local vol = { preset = "lsi3108-8sas", layout = "raid0", drive_capacity = "4g" }
hb.plan{ name = "read-ahead", defaults = { engine = "sim", duration = 3, ramp = 0, oio = 256, workers = 1,
         targets = { "volume" } } }
-- JBOD, a stream a drive, read-ahead alone (no ctrl_dma_*): 500 MiB/s for all eight
hb.run{ name = "jbod read", rw = "read", bs = "128k", targets = t8,
        sim = { preset = "sas2308-8ssd", ctrl_readahead_mibps = 500 } }
hb.run{ name = "jbod randread", rw = "randread", bs = "128k", targets = t8,
        sim = { preset = "sas2308-8ssd", ctrl_readahead_mibps = 500 } }
-- the 9361-8i's 128k reads: one worker, then four sharing the card
hb.run{ name = "read 1 worker", rw = "read", bs = "128k", sim = vol }
hb.run{ name = "read 4 workers", rw = "read", bs = "128k", workers = 4, sim = vol }
-- its 8k random reads at OIO 256: reference 003's 511,493 IOPS set its direct path
hb.run{ name = "8k randread", rw = "randread", bs = "8k", sim = vol }
EOF
"$HB" run "$TMP/ra.lua" --db "$DB" -q 2>>"$TMP/stderr"
ok $? "read-ahead steps on the simulated cards"

# mibps STEP: its MiB/s; iops STEP; near A B TOL: |A / B - 1| <= TOL
mibps() { q "$DB" "SELECT mbps / 1.048576 FROM steps WHERE name = '$1'"; }
iops() { q "$DB" "SELECT iops FROM steps WHERE name = '$1'"; }
near() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { r = a / b - 1; exit !(b > 0 && r <= t && r >= -t) }'; }

near "$(mibps "jbod read")" 500 0.01
ok $? "JBOD: eight drives' sequential streams share the card's one stage, 500 MiB/s ($(mibps "jbod read"))"
awk -v a="$(mibps "jbod randread")" 'BEGIN { exit !(a > 2 * 500) }'
ok $? "its random reads skip it ($(mibps "jbod randread") MiB/s)"
near "$(mibps "read 1 worker")" 5041 0.01
ok $? "the 9361-8i's 128k sequential reads at its stage's 5,041 MiB/s ($(mibps "read 1 worker"))"
near "$(mibps "read 4 workers")" "$(mibps "read 1 worker")" 0.01
ok $? "four workers share the same stage: $(mibps "read 4 workers") MiB/s"
near "$(iops "8k randread")" 511493 0.005
ok $? "its 8k random reads at the review's 511,493 IOPS, which set its direct path ($(iops "8k randread"))"
done_testing
