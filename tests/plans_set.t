#!/usr/bin/env bash
# The shipped plans and their --set settings: every step of a plan has a
# name of its own (at its defaults and with the values its header
# documents).
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
	unique "$plan" 95 --set engine=sim --set passes=0 --set mix_oio=128
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

done_testing
