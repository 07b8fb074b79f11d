#!/usr/bin/env bash
# The sim engine: deterministic, never above the link ceiling, RAID5 small
# writes at a quarter of RAID0's when reads and writes cost the same, Little's
# law at every OIO point, the write decline reaching a plateau, a 9,000 s
# preconditioning stored second by second, runs marked simulated, drive wear
# kept for any number of option sets, and sampling (part of each busy second
# simulated) giving what simulating every request gives.
. "$(dirname "$0")/lib.sh"

DB="$TMP/sim.db"
run() { "$HB" run "$@" --db "$DB" -q 2>>"$TMP/stderr"; }
last_run() { q "$DB" "SELECT max(id) FROM runs"; }

# --- determinism ---------------------------------------------------------------
cat > "$TMP/det.lua" <<'LUA'
hb.run{ engine = "sim", sim = { preset = "lsi3108-8sas", drive_capacity = "4g" },
        targets = { "vol" }, rw = "randrw", write_pct = 30, bs = { ["4k"] = 3, ["64k"] = 1 },
        oio = 32, workers = 2, duration = 20, ramp = 2, seed = hb.set("seed", 1) }
LUA
samples() { q "$DB" "SELECT group_concat(t || ':' || read_ops || ':' || write_ops || ':' || read_bytes || ':' || read_lat_p99_us || ':' || write_lat_mean_us, ' ') FROM samples WHERE step_id = (SELECT max(id) FROM steps WHERE run_id = $1)"; }
run "$TMP/det.lua"; ok $? "a sim step runs"; a=$(samples "$(last_run)")
run "$TMP/det.lua"; b=$(samples "$(last_run)")
run "$TMP/det.lua" --set seed=2; c=$(samples "$(last_run)")
is "$(printf '%s' "$a" | wc -w)" 22 "22 samples (2 ramp + 20)"
[ -n "$a" ] && [ "$a" = "$b" ]; ok $? "the same seed gives the same samples, to the last figure"
[ "$a" != "$c" ]; ok $? "another seed gives other samples"
is "$(q "$DB" "SELECT simulated FROM runs WHERE id = 1")" 1 "the run is marked simulated"
is "$(q "$DB" "SELECT kind || ':' || size_bytes FROM targets WHERE run_id = 1")" "virtual:30064771072" \
	"the target is virtual, sized as the RAID5 volume (7 x 4 GiB)"
like "$("$HB" list --db "$DB")" '^ +1 .*\[simulated\]' "list marks it simulated"
like "$("$HB" show 1 --db "$DB")" '^run 1 \[simulated\]' "show marks it simulated"

# --- the link ceiling ------------------------------------------------------------
# 8 fast drives (2 GB/s each) behind each link: the link is the bottleneck.
# With link_efficiency = 1 a link carries its rate after line encoding, as the
# PCIe specifications give it per direction (not the engine's formula):
# PCIe 2.0 5 GT/s, 8b/10b: 500 MB/s a lane; PCIe 3.0 8 GT/s, 128b/130b:
# 984.6 MB/s a lane (x8: the 7.88 GB/s of DESIGN.md); PCIe 4.0: 1969.2 MB/s.
cat > "$TMP/link.lua" <<'LUA'
hb.targets = { "a", "b", "c", "d", "e", "f", "g", "h" }
for _, link in ipairs{ "pcie3x8", "pcie3x4", "pcie2x8", "pcie4x4" } do
  for _, eff in ipairs{ 1, 0 } do
    hb.run{ name = link .. "/" .. eff, engine = "sim", rw = "read", bs = "1m", oio = 8 * 16,
            duration = 10, sim = { link = link, link_efficiency = eff, drive_read_mbps = 2000 } }
  end
end
LUA
run "$TMP/link.lua"; ok $? "sequential reads through four links"
id=$(last_run)
mbps() { q "$DB" "SELECT mbps FROM steps WHERE run_id = $id AND name = '$1'"; }
for pair in pcie3x8:7876.9 pcie3x4:3938.5 pcie2x8:4000 pcie4x4:7876.9; do
	link=${pair%%:*} spec=${pair#*:}
	# a second counts the I/Os that complete in it: one 1 MiB request may straddle its start
	is "$(q "$DB" "SELECT max(s.read_bytes) <= $spec * 1e6 + 1048576 FROM samples s JOIN steps t ON t.id = s.step_id WHERE t.run_id = $id AND t.name = '$link/1'")" 1 \
		"$link, efficiency 1: no second moves more than the specification's $spec MB/s plus one request"
	is "$(awk -v m="$(mbps "$link/1")" -v s="$spec" 'BEGIN { print (m >= 0.995 * s) }')" 1 \
		"$link, efficiency 1: the step reaches it ($(mbps "$link/1") MB/s)"
done
# The default efficiency stands for the protocol's overhead. It must leave
# less than the TLP framing alone does: a 256-byte payload (the usual Max
# Payload Size) travels with at least 20 bytes (PCIe 1-2: start and end
# symbols, sequence number, 12-byte header, LCRC) or 22 (PCIe 3+: a 4-byte
# framing token instead): 256/276 and 256/278 of the encoded rate. And it
# must reach what was measured (reference 000): PCIe3 x4 "near 3.0 GB/s",
# PCIe2 x8 2.58-2.9 GB/s.
for f in "pcie3x4:2900:$(awk 'BEGIN { print 3938.5 * 256 / 278 }')" \
	 "pcie2x8:2580:$(awk 'BEGIN { print 4000 * 256 / 276 }')"; do
	IFS=: read -r link lo hi <<<"$f"
	is "$(awk -v m="$(mbps "$link/0")" -v lo="$lo" -v hi="$hi" 'BEGIN { print (m >= lo && m < hi) }')" 1 \
		"$link, default efficiency: $(mbps "$link/0") MB/s, at least the measured $lo, below the TLP bound $(printf '%.0f' "$hi")"
done
is "$(q "$DB" "SELECT abs(a.mbps / b.mbps - 1) < 0.005 FROM steps a, steps b WHERE a.run_id = $id AND b.run_id = $id AND a.name = 'pcie3x8/0' AND b.name = 'pcie4x4/0'")" 1 \
	"pcie4x4 carries what pcie3x8 does (twice the rate, half the lanes, the same encoding)"

# --- RAID5 small random writes: 4 drive I/Os per host write ----------------------
cat > "$TMP/raid.lua" <<'LUA'
for _, layout in ipairs{ "raid0", "raid5" } do
  hb.run{ name = layout, engine = "sim", targets = { "vol" }, rw = "randwrite", bs = "4k",
          oio = 256, duration = 10, sim = { layout = layout, drive_read_iops = 50000,
          drive_write_iops = 50000, drive_write_iops_steady = 50000, jitter = 0,
          gc_factor = 1 } }
end
LUA
run "$TMP/raid.lua"; ok $? "RAID0 and RAID5 4k random writes"
id=$(last_run)
ratio=$(q "$DB" "SELECT (SELECT iops FROM steps WHERE run_id = $id AND name = 'raid5') / (SELECT iops FROM steps WHERE run_id = $id AND name = 'raid0')")
is "$(awk -v r="$ratio" 'BEGIN { print (r > 0.23 && r < 0.27) }')" 1 \
	"with reads as dear as writes RAID5 does a quarter of RAID0's small writes (ratio $ratio)"

# The same penalty tightly, from a preset's own figures: its parity path
# opened (ctrl_parity_iops = 0) and no wear, a RAID5 small write costs 2 reads
# and 2 writes on the drives, so N drives do at most N / (2/R + 2/W) of them
# (R, W: a drive's read and write IOPS, read from scripts/sim_presets.lua).
cat > "$TMP/penalty.lua" <<'LUA'
local p = require("sim_presets")["lsi3108-8sas"]
hb.log(string.format("preset %d %d %d", p.drives, p.drive_read_iops, p.drive_write_iops))
hb.run{ name = "raid5 preset", engine = "sim", targets = { "vol" }, rw = "randwrite", bs = "4k",
        oio = 256, duration = 10, sim = { preset = "lsi3108-8sas", ctrl_parity_iops = 0,
        drive_write_iops_steady = p.drive_write_iops, gc_factor = 1, jitter = 0,
        drive_capacity = "4g" } }
LUA
"$HB" run "$TMP/penalty.lua" --db "$DB" 2>"$TMP/penalty.err"; ok $? "RAID5 4k random writes on the lsi3108-8sas preset, drive-bound"
read -r n r w <<<"$(sed -n 's/.*plan: preset //p' "$TMP/penalty.err")"
want=$(awk -v n="$n" -v r="$r" -v w="$w" 'BEGIN { printf "%.0f", n / (2 / r + 2 / w) }')
got=$(q "$DB" "SELECT iops FROM steps WHERE name = 'raid5 preset'")
is "$(awk -v g="$got" -v e="$want" 'BEGIN { print (g >= 0.97 * e && g <= 1.001 * e) }')" 1 \
	"4 drive I/Os a write: $(printf '%.0f' "$got") IOPS, 97-100 % of $n / (2/$r + 2/$w) = $want"

# --- Little's law at every point of an OIO sweep (no knee: IOPS must not fall) ----
cat > "$TMP/little.lua" <<'LUA'
hb.sweep{ base = { engine = "sim", targets = { "vol" }, rw = "randrw", write_pct = 30,
                   duration = 10, sim = { preset = "lsi3108-8sas", ctrl_qd_knee = 0 } },
          oio = { 1, 2, 4, 8, 16, 32, 64, 128, 256 } }
LUA
run "$TMP/little.lua"; ok $? "an OIO sweep 1..256"
id=$(last_run)
is "$(q "$DB" "SELECT count(*) FROM steps WHERE run_id = $id AND abs(iops * lat_mean_us / 1e6 - oio) <= 0.02 * oio")" 9 \
	"IOPS x mean latency = OIO within 2% at all 9 points"
is "$(q "$DB" "SELECT count(*) FROM (SELECT iops, lag(iops) OVER (ORDER BY oio) AS prev FROM steps WHERE run_id = $id) WHERE prev IS NOT NULL AND iops < 0.98 * prev")" 0 \
	"IOPS never falls as OIO grows"
is "$(q "$DB" "SELECT (SELECT iops FROM steps WHERE run_id = $id AND oio = 256) < 1.05 * (SELECT iops FROM steps WHERE run_id = $id AND oio = 128)")" 1 \
	"and levels off once a resource saturates"

# --- the write decline and its plateau ---------------------------------------------
cat > "$TMP/decline.lua" <<'LUA'
hb.precondition{ engine = "sim", targets = { "vol" }, duration = 600, bs = "4k", oio = 64,
                 sim = { layout = "raid0", drives = 4, drive_capacity = "2g",
                         drive_write_iops = 40000, drive_write_iops_steady = 10000,
                         gc_factor = 1 } }
LUA
run "$TMP/decline.lua"; ok $? "600 s of 4k random writes on fresh drives"
sid=$(q "$DB" "SELECT max(id) FROM steps")
first=$(q "$DB" "SELECT write_ops FROM samples WHERE step_id = $sid AND t = 0")
last=$(q "$DB" "SELECT avg(write_ops) FROM samples WHERE step_id = $sid AND t >= 500")
is "$(awk -v f="$first" -v l="$last" 'BEGIN { print (f > 3 * l) }')" 1 "write IOPS decline from fresh ($first) to steady ($last)"
is "$(awk -v l="$last" 'BEGIN { print (l > 38000 && l < 42000) }')" 1 "the plateau is the drives' steady rate (4 x 10,000 IOPS)"
is "$(q "$DB" "SELECT max(write_ops) < 1.1 * $last AND min(write_ops) > 0.9 * $last FROM samples WHERE step_id = $sid AND t >= 500")" 1 \
	"and flat: every second of the last 100 within 10%"

# --- a 9,000 s preconditioning, every second stored ----------------------------------
cat > "$TMP/long.lua" <<'LUA'
hb.precondition{ engine = "sim", targets = { "d" }, duration = 9000, bs = "4k", oio = 8,
                 sim = { drives = 1, drive_capacity = "1g", drive_write_iops = 2000,
                         drive_write_iops_steady = 500 } }
LUA
start=$(date +%s.%N)
run "$TMP/long.lua"; ok $? "a 9,000 s preconditioning step runs"
echo "# it took $(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }') s of wall time"
sid=$(q "$DB" "SELECT max(id) FROM steps")
is "$(q "$DB" "SELECT count(*) || ':' || min(t) || ':' || max(t) FROM samples WHERE step_id = $sid")" "9000:0:8999" \
	"it stores 9,000 samples, seconds 0..8999"
is "$(check_invariant "$DB" "$sid")" 1 "and they add up to the step's totals"

# --- wear is kept per option set, for as many sets as a plan uses -------------------
cat > "$TMP/many.lua" <<'LUA'
for i = 1, 40 do
  hb.run{ name = "set" .. i, engine = "sim", targets = { "d" }, rw = "randwrite", bs = "4k",
          oio = 4, duration = 1, sim = { drives = 1, drive_latency_us = 50 + i } }
end
LUA
run "$TMP/many.lua"; ok $? "a plan with 40 distinct sim option sets runs"
id=$(last_run)
is "$(q "$DB" "SELECT status || ':' || (SELECT count(*) FROM steps WHERE run_id = $id AND status = 'done') FROM runs WHERE id = $id")" "done:40" \
	"the run and its 40 steps are done"

# --- sampling: part of each busy second simulated, the rest skipped ----------------
# The same plan with every request simulated (sample_ios = 0) and sampled (the
# default): RAID0 4k random writes on 4 GB drives, a GC dip every 0.7 s or so
# (gc_sync), 4k random reads, and a random fill (a budget of bytes).
cat > "$TMP/sample.lua" <<'LUA'
local sim = { preset = "asr8885-8sas", layout = "raid0", drive_capacity = "4g",
              sample_ios = hb.set("sample", nil) }
hb.plan{ defaults = { engine = "sim", targets = { "vol" }, workers = 1, bs = "4k", oio = 256,
                      seed = 1 } }
hb.precondition{ name = "fill", passes = 1, bs = "1m", oio = 32, sim = sim }
hb.run{ name = "write", rw = "randwrite", duration = 20, sim = sim }
hb.run{ name = "read", rw = "randread", duration = 10, sim = sim }
hb.precondition{ name = "random fill", rw = "randwrite", passes = 1, sim = sim }
LUA
run "$TMP/sample.lua" --set sample=0 --label full; ok $? "every request simulated"
run "$TMP/sample.lua" --label sampled; ok $? "sampled"
run "$TMP/sample.lua" --label again
# sid LABEL [STEP]: the id of a step of the run so labelled (all its steps: a list)
sid() { q "$DB" "SELECT group_concat(s.id) FROM steps s JOIN runs r ON r.id = s.run_id WHERE r.label = '$1' ${2:+AND s.name = '$2'}"; }
col() { q "$DB" "SELECT $3 FROM steps WHERE id = $(sid "$1" "$2")"; }	# col LABEL STEP COLUMN
near() {	# what, full, sampled, tolerance
	awk -v f="$2" -v s="$3" -v t="$4" 'BEGIN { exit !(f > 0 && s / f >= 1 - t && s / f <= 1 + t) }'
	ok $? "$1: sampled $(printf '%.1f' "$3"), every request $(printf '%.1f' "$2") (within $(awk -v t="$4" 'BEGIN { print t * 100 }') %)"
}
per_second() {
	q "$DB" "SELECT group_concat(t || ':' || read_ops || ':' || write_ops || ':' ||
		 ifnull(read_lat_p99_us, '') || ':' || ifnull(write_lat_p99_us, '') || ':' ||
		 occupancy, ' ') FROM samples WHERE step_id IN ($(sid "$1"))"
}
a=$(per_second sampled); b=$(per_second again)
[ -n "$a" ] && [ "$a" = "$b" ]; ok $? "sampled runs are deterministic: the same samples, to the last figure"
near "4k random write IOPS" "$(col full write iops)" "$(col sampled write iops)" 0.01
near "its mean latency (us)" "$(col full write lat_mean_us)" "$(col sampled write lat_mean_us)" 0.01
near "its p99 (us), GC dips included" "$(col full write lat_p99_us)" "$(col sampled write lat_p99_us)" 0.05
dips=$(q "$DB" "SELECT min(write_ops) < 0.97 * max(write_ops) FROM samples WHERE step_id = $(sid full write)")
is "$dips" 1 "every request simulated, some seconds dip (GC)"
off=$(q "$DB" "SELECT count(*) FROM samples f JOIN samples s ON s.t = f.t WHERE f.step_id = $(sid full write)
		AND s.step_id = $(sid sampled write) AND abs(1.0 * s.write_ops / f.write_ops - 1) > 0.04")
is "$off" 0 "sampled, every second's write IOPS within 4 % of the full model's: the dips in the same seconds"
near "4k random read IOPS" "$(col full read iops)" "$(col sampled read iops)" 0.01
near "its p99 (us)" "$(col full read lat_p99_us)" "$(col sampled read lat_p99_us)" 0.01
for step in write read; do
	is "$(col sampled $step "abs(iops * lat_mean_us / 1e6 - oio) <= 0.02 * oio")" 1 \
		"sampled $step: IOPS x mean latency = OIO within 2 % (Little's law)"
done
# each completion simulated in a sampled second stands for k requests: the read
# step's seconds after its first count in multiples of one k > 1
k=$(q "$DB" "SELECT group_concat(read_ops, ' ') FROM samples WHERE t >= 1 AND step_id = $(sid sampled read)" |
	awk '{ g = $1; for (i = 2; i <= NF; i++) { a = g; b = $i; while (b) { t = a % b; a = b; b = t }; g = a }; print g }')
is "$(awk -v k="$k" 'BEGIN { print (k > 1) }')" 1 "sampled reads count in multiples of k = $k"
is "$(col sampled 'random fill' write_bytes)" $((8 * 4 << 30)) "a sampled random fill writes its budget, the volume, exactly"
near "and takes as long (s)" "$(col full 'random fill' elapsed_s)" "$(col sampled 'random fill' elapsed_s)" 0.01
is "$(check_invariant "$DB" "$(sid sampled write)")" 1 \
	"the sampled seconds add up to the step's totals"

# --- presets ----------------------------------------------------------------------
printf 'hb.run{ engine = "sim", sim = { preset = "nope" }, targets = "v", duration = 1 }\n' > "$TMP/bad.lua"
out=$("$HB" run "$TMP/bad.lua" --db "$DB" 2>&1); ok $((! $?)) "an unknown preset fails"
like "$out" "bad.lua:1: hb.run: sim: no preset 'nope' in scripts/sim_presets.lua" "with the plan line"
like "$out" "\(it has adaptec5808-8x25e, asr8885-8sas, lsi3108-8sas, .*sas3008-1sas\)$" "and the presets it has, sorted"
printf 'hb.run{ engine = "sim", sim = { link = "pcie9x8" }, targets = "v", duration = 1 }\n' > "$TMP/bad2.lua"
out=$("$HB" run "$TMP/bad2.lua" --db "$DB" 2>&1); ok $((! $?)) "a bad link fails"
like "$out" "link 'pcie9x8' is not pcieGENxWIDTH" "and says what a link looks like"
for link in "pcie3x8 " pcie3x8x16 "pcie 3x8" pcie03x8 "pcie3x +8"; do
	printf 'hb.run{ engine = "sim", sim = { link = "%s" }, targets = "v", duration = 1 }\n' "$link" > "$TMP/bad2.lua"
	"$HB" run "$TMP/bad2.lua" --db "$DB" >/dev/null 2>&1
	is "$?" 1 "link '$link' (a space, trailing text, a leading zero, a sign) fails too"
done
printf 'hb.run{ engine = "sim", targets = { "a", "b", "c" }, oio = 3, duration = 1,\n  sim = { layout = "jbod", drives = 2 } }\n' > "$TMP/jbod.lua"
out=$("$HB" run "$TMP/jbod.lua" --db "$TMP/jbod.db" -q 2>&1); ok $((! $?)) "jbod with more targets than drives fails"
like "$out" "sim: layout jbod makes target i drive i, and the step has 3 targets for 2 drives" \
	"and says why (target 3 shared drive 1 before)"
printf 'hb.run{ engine = "sim", sim = { bogus = 1 }, targets = "v", duration = 1 }\n' > "$TMP/bad3.lua"
out=$("$HB" run "$TMP/bad3.lua" --db "$DB" 2>&1); ok $((! $?)) "an unknown sim option fails"
like "$out" "unknown option 'bogus' \(it takes: preset, link, .*, gc_factor, jitter, sample_ios\)" \
	"and lists every option the engine takes, to the last"
printf 'hb.run{ engine = "sim", sim = { sample_ios = -1 }, targets = "v", duration = 1 }\n' > "$TMP/bad4.lua"
out=$("$HB" run "$TMP/bad4.lua" --db "$DB" 2>&1); ok $((! $?)) "a negative sample_ios fails"
like "$out" "sim: sample_ios -1 is not 0 \(every request\) to 1000000000" "and says what it takes"
[ ! -e "$TMP/vol" ] && [ ! -e vol ]; ok $? "no file was created for a virtual target"

# --- the estimate: simulated time is not wall time -----------------------------------
printf 'hb.run{ engine = "sim", targets = "v", duration = 900 }\n' > "$TMP/est.lua"
out=$("$HB" run "$TMP/est.lua" --db "$DB" 2>&1); ok $? "a 900 s sim step runs"
like "$out" "est.lua: 1 step, about 15m00s simulated$" "its start line says the 15 minutes are simulated"
like "$("$HB" run "$TMP/est.lua" --db "$DB" --dry-run)" "estimated time: 15m00s simulated" \
	"and so does the --dry-run listing"
printf '%s\n' 'hb.run{ engine = "null", targets = "x", duration = 2 }' \
	'hb.run{ engine = "sim", targets = "v", duration = 900 }' > "$TMP/est2.lua"
out=$("$HB" run "$TMP/est2.lua" --db "$DB" 2>&1); ok $? "a plan of a null and a sim step runs"
like "$out" "est2.lua: 2 steps, about 2s real plus 15m00s simulated$" "its estimate gives both parts"
printf 'hb.run{ engine = "null", targets = "x", duration = 2 }\n' > "$TMP/est3.lua"
like "$("$HB" run "$TMP/est3.lua" --db "$DB" 2>&1)" "est3.lua: 1 step, about 2s$" \
	"a plan without sim steps says real time alone"
done_testing
