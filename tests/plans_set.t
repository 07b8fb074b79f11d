#!/usr/bin/env bash
# The shipped plans and their --set settings: every step of a plan has a
# name of its own (at its defaults and with the values its header
# documents), a bad value stops the plan with an error naming the setting,
# its value and what it takes, a value the plan rounds is said in a note,
# and jbod-hba.lua says how much memory its 1M step's buffers take.
. "$(dirname "$0")/lib.sh"

P="$ROOT/plans"
F="$TMP/target.dat"

# The step names of a dry run, one a line: the column after the kind.
names() { sed -nE 's/^ *[0-9]+  [a-z-]+ +(.*[^ ]) {2,}~?[0-9]+[hms0-9]*s .*/\1/p'; }
steps() { grep -cE '^ *[0-9]+  [a-z-]+ '; }

# unique PLAN COUNT ARGS...: a dry run of COUNT steps, each named once
unique() {
	local plan=$1 count=$2 out n
	shift 2
	out=$("$HB" run "$P/$plan" --dry-run "$@" 2>&1)
	is "$(printf '%s\n' "$out" | steps):$(printf '%s\n' "$out" | names | wc -l)" "$count:$count" \
		"$plan $*: $count steps, each with a name read"
	n=$(printf '%s\n' "$out" | names | sort | uniq -d | tr '\n' '|')
	is "$n" "" "$plan $*: no two steps share a name"
}
for plan in raid5.lua raid0.lua; do
	unique "$plan" 96 --set engine=sim
	unique "$plan" 96 --set engine=sim --set sim=asr8885-8sas --set seconds=1 --set ramp=0
	unique "$plan" 96 --target "$F" --set size=64m --set seconds=1 --set ramp=0 --set precondition=1
	unique "$plan" 95 --set engine=sim --set passes=0 --set mix_oio=32 --set workers=4
	unique "$plan" 94 --set engine=sim --set passes=0 --set precondition=0 --set mix_oio=128
done
unique jbod-hba.lua 4 --set engine=sim
unique jbod-hba.lua 4 --set engine=sim --set sim=sas2308-8ssd --set qd=2 --set seconds=2 --set ramp=0
unique snia-iops.lua 1401 --target "$F" --set size=64m
unique snia-iops.lua 281 --target "$F" --set size=64m --set round=1 --set oio=8 --set max_rounds=5 --set passes=1

# the write-mix sweep names its write share at both ends (was "randrw 4k
# oio64" for 0 % and 100 % alike: `sql --param step=` found the first)
out=$("$HB" run "$P/raid5.lua" --dry-run --set engine=sim 2>&1)
like "$out" "  35  measure +randrw 4k w0% oio64 .* write_pct=0 " "the 0 % write point says w0%"
like "$out" "  45  measure +randrw 4k w100% oio64 .* write_pct=100 " "the 100 % write point says w100%"
like "$out" "  56  measure +randrw 8k w100% oio64 .* write_pct=100 " "and the 8k one"

# bad values: PLAN SETTING=VALUE and the error's words after the plan's line
bad() {
	local plan=$1 set=$2 want=$3 out rc
	shift 3
	out=$("$HB" run "$P/$plan" --dry-run --set "$set" "$@" 2>&1); rc=$?
	like "$rc $out" "^1 hbatest: error: [^ ]*plans/$plan:[0-9]+: --set $want" "$plan --set $set: $want"
}
W='expected a whole number from'
for plan in raid5.lua raid0.lua; do
	bad "$plan" mix_oio=0 "mix_oio=0: $W 1 to 65536 \(the OIO of the write-mix sweeps\)$" --set engine=sim
	bad "$plan" mix_oio=70000 "mix_oio=70000: $W 1 to 65536 " --set engine=sim
	bad "$plan" workers=0 "workers=0: $W 1 to 1024 \(threads per step, capped at its OIO\)$" --set engine=sim
	bad "$plan" workers=1.5 "workers=1.5: $W 1 to 1024 " --set engine=sim
	bad "$plan" seconds=0 "seconds=0: $W 1 to 100000000 \(measured seconds per point\)$" --set engine=sim
	bad "$plan" ramp=-1 "ramp=-1: $W 0 to 100000000 \(warm-up seconds per point\)$" --set engine=sim
	bad "$plan" precondition=-5 "precondition=-5: $W 0 to 100000000 " --set engine=sim
	bad "$plan" passes=1001 "passes=1001: $W 0 to 1000 " --set engine=sim
	bad "$plan" mix_oio=3 "mix_oio=3: expected a multiple of 2, the number of targets" \
		--set engine=null --target a --target b
done
bad jbod-hba.lua qd=0 "qd=0: $W 1 to 65536 \(I/Os in flight per worker and drive\)$" --set engine=sim
bad jbod-hba.lua qd=300 "qd=300: 32 workers x 8 drives x qd 300 is OIO 76800, more than a step takes \(65536\): give qd at most 256$" --set engine=sim
bad jbod-hba.lua seconds=0 "seconds=0: $W 1 " --set engine=sim
bad jbod-hba.lua ramp=2.5 "ramp=2.5: $W 0 " --set engine=sim
for s in "round=0|round=0: $W 1 to 100000000 \(seconds of each step\)$" "oio=0|oio=0: $W 1 to 65536 " \
	 "passes=0|passes=0: $W 1 to 1000 " "max_rounds=4|max_rounds=4: $W 5 to 1000 \(rounds at most; the window is 5\)$" \
	 "max_rounds=1001|max_rounds=1001: $W 5 to 1000 "; do
	bad snia-iops.lua "${s%%|*}" "${s#*|}" --target "$F" --set size=64m
done

# targets the OIO sweeps do not split over: 3 split none of 2..256 (the
# sweeps would be empty, silently), 4 leave out OIO 2 (said in a note)
out=$("$HB" run "$P/raid5.lua" --dry-run --set engine=null --target a --target b --target c 2>&1)
like "$? $out" "^1 hbatest: error: [^ ]*plans/raid5\.lua:[0-9]+: 3 targets: no point of the OIO sweeps \(2, 4, 8, 16, 32, 64, 128, 256\) splits evenly over them, so the sweeps would have none: give a power of two of targets \(1, 2, 4, 8 \.\.\.\)" \
	"raid5.lua on 3 targets: refused, as its sweeps would have no point"
out=$("$HB" run "$P/raid5.lua" --dry-run --set engine=null --target a --target b --target c --target d 2>&1)
is "$(printf '%s\n' "$out" | grep '^note  4 targets')" "note  4 targets: the OIO sweeps leave out OIO 2, which does not split evenly over them" \
	"on 4 targets: a note says the sweeps leave out OIO 2"

# a --set workers= the plan rounds down says so, in a note of the run
note() { printf '%s\n' "$1" | grep '^note  --set workers='; }
out=$("$HB" run "$P/raid5.lua" --dry-run --set engine=sim --set workers=3 2>&1)
is "$(note "$out")" "note  --set workers=3 is rounded down where the OIO is smaller or does not split evenly over workers x 1 target: 2 workers at OIO 2, 4, 8, 16, 32, 64, 128, 256" \
	"workers=3 (no OIO of the suite splits in 3): a note says every step runs 2"
like "$out" "  3  measure +randread 4k oio2 .* workers=2 " "and they do"
out=$("$HB" run "$P/raid0.lua" --dry-run --set engine=sim --set workers=4 --set mix_oio=2 2>&1)
is "$(note "$out")" "note  --set workers=4 is rounded down where the OIO is smaller or does not split evenly over workers x 1 target: 2 workers at OIO 2" \
	"workers=4: the OIO 2 points (the write mix too, at mix_oio=2) run 2"
out=$("$HB" run "$P/raid5.lua" --dry-run --set engine=sim --set workers=2 2>&1)
is "$(note "$out")" "" "workers=2 fits every OIO: no note"

# --set precondition=0 leaves the timed writes out, as passes=0 the fill
out=$("$HB" run "$P/raid5.lua" --dry-run --set engine=sim --set precondition=0 2>&1)
is "$(printf '%s\n' "$out" | grep -c '  precondition ')" 1 "precondition=0: the fill alone"

# jbod-hba.lua: its 1M step's buffers, workers x drives x qd x 1 MiB
mem() { printf '%s\n' "$1" | grep '^note  the 1M sequential read step'; }
targets=()
for i in 1 2 3 4 5 6 7 8; do targets+=(--target "$TMP/d$i.dat"); done
out=$("$HB" run "$P/jbod-hba.lua" --dry-run "${targets[@]}" --set size=64m 2>&1)
is "$(mem "$out")" "note  the 1M sequential read step with 32 workers holds 32 workers x 8 drives x qd 32 x 1 MiB = 8.0 GiB of I/O buffers: check the machine has that free, or lower --set qd" \
	"8 drives at qd 32: a note says 8 GiB"
out=$("$HB" run "$P/jbod-hba.lua" --dry-run "${targets[@]}" --set size=64m --set qd=4 2>&1)
like "$(mem "$out")" "32 workers x 8 drives x qd 4 x 1 MiB = 1.0 GiB" "qd=4: 1 GiB"
out=$("$HB" run "$P/jbod-hba.lua" --dry-run "${targets[@]}" --set size=64m --set qd=2 2>&1)
is "$(mem "$out")" "" "qd=2 (512 MiB): no note"
out=$("$HB" run "$P/jbod-hba.lua" --dry-run --set engine=sim 2>&1)
is "$(mem "$out")" "" "the sim holds no buffers: no note"
grep -q '32 x 8 x 32 x 1 MiB = 8 GiB' "$P/jbod-hba.lua"; ok $? "jbod-hba.lua's header says it"
done_testing
