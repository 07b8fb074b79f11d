#!/usr/bin/env bash
# The ready plans in plans/: each lists every step with a total time in a dry
# run, and raid5.lua runs end to end with short durations: on a temporary
# file, or as root on a loop device (tests/loop.t).
. "$(dirname "$0")/lib.sh"

P="$ROOT/plans"
F="$TMP/target.dat"

out=$("$HB" run "$P/raid5.lua" --dry-run --target "$F" --set size=64m); ok $? "raid5.lua --dry-run"
is "$(printf '%s\n' "$out" | grep -cE '^ +[0-9]+  (measure|precondition) ')" 96 "raid5 lists 96 steps (2 preconditioning + 94 points)"
like "$out" 'estimated time: 6h25m00s' "raid5 estimates 6h25m, as its header says"
grep -q 'about 6h25m' "$P/raid5.lua"; ok $? "raid5.lua states its time at its top"
out=$("$HB" run "$P/raid0.lua" --dry-run --target "$F" --set size=64m --set seconds=60 --set ramp=10)
like "$out" 'estimated time: 4h19m' "raid0 takes --set: 94 x 70 s + 9000 s = 4h19m40s"
out=$("$HB" run "$P/snia-iops.lua" --dry-run --target "$F" --set size=64m); ok $? "snia-iops.lua --dry-run"
is "$(printf '%s\n' "$out" | grep -c ' steady-round ')" 1400 "snia-iops lists 25 rounds x 56 steps"
like "$out" 'estimated time: 23h20m00s' "and 25 rounds of 56 minutes"
like "$out" '4k w100% round 1 .* rw=randrw bs=4k write_pct=100 ' "the tracked 4k 100% write step is in each round"
out=$("$HB" run "$P/raid5.lua" --dry-run --set passes=0 2>&1); rc=$?
ok $((rc == 0)) "raid5.lua --set passes=0 with no target fails"
like "$out" 'plans/raid5.lua:[0-9]+: no target: give the RAID5 volume with --target /dev/sdX .*--set engine=sim' \
	"and says in its own words there is no target, what to give, and the rehearsal (was review.lua:28: attempt to perform 'n%0')"
targets=()
for i in 1 2 3 4 5 6 7 8; do targets+=(--target "drive$i"); done
out=$("$HB" run "$P/jbod-hba.lua" --dry-run "${targets[@]}" --set engine=null); ok $? "jbod-hba.lua --dry-run on 8 drives"
like "$out" '4k random read, 4 workers .* oio=1024 workers=4 .*targets=8' "4 workers x 8 drives x QD 32 = OIO 1024"
like "$out" '1M sequential read, 32 workers .* oio=8192 workers=32 ' "32 workers x 8 drives x QD 32 = OIO 8192"
like "$out" 'estimated time: 10m00s' "jbod takes 10 minutes, as its header says"
out=$("$HB" run "$P/jbod-hba.lua" --db "$TMP/j.db" "${targets[@]}" --set engine=null --set seconds=1 --set ramp=0 --set qd=2 -q 2>&1)
ok $? "jbod-hba.lua runs on 8 (virtual) drives"
is "$(q "$TMP/j.db" "SELECT count(*) FROM step_targets")" 32 "per-drive totals for each of its 4 steps"

# The rehearsal end to end on real I/O: 96 steps of a real second or more.
# As root tests/loop.t runs it on a block device (a RAID5 volume's kind of
# target) with these same checks; once a suite is enough, so here it runs on
# a temporary file only where that cannot (not root).
if is_root; then
	for i in 1 2 3 4 5 6; do skip "raid5.lua end to end: tests/loop.t runs it on a loop device (root)"; done
	done_testing
	exit
fi
out=$("$HB" run "$P/raid5.lua" --db "$TMP/r5.db" --target "$F" --set size=64m --set seconds=1 \
	--set ramp=0 --set precondition=1 -q 2>&1); ok $? "raid5.lua runs end to end on a temporary file"
raid5_checks "$TMP/r5.db"
done_testing
