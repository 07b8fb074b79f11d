#!/usr/bin/env bash
# The live status line of `hbatest run` on a terminal: a simulated step's
# seconds are virtual (a simulator runs far faster than real time), so the
# line and the plan's ETA name them apart from real seconds.
. "$(dirname "$0")/lib.sh"

if ! command -v script >/dev/null; then
	skip "script (util-linux) is not installed: no terminal for the status line"
	done_testing
	exit 0
fi
cat > "$TMP/mixed.lua" <<'PLAN'
hb.run{ name = "real", engine = "null", targets = "v", duration = 2 }
hb.run{ name = "virtual", engine = "sim", targets = "v", duration = 600 }
PLAN
script -qec "'$HB' run '$TMP/mixed.lua' --db '$TMP/p.db'" /dev/null >"$TMP/tty" 2>&1
ok $? "a plan of a real and a simulated step runs on a terminal"
tr '\r' '\n' <"$TMP/tty" | sed 's/\x1b\[K//g' >"$TMP/lines"
real=$(grep -a '^step 1/2 real |' "$TMP/lines" | head -1)
like "$real" '\| 0s, 2s left \| ' "the real step's line: its own seconds, real"
like "$real" '\| plan ETA 2s real plus 10m00s simulated$' \
	"its plan ETA keeps the simulated step's 10 minutes apart from real time"
virt=$(grep -a '^step 2/2 virtual |' "$TMP/lines" | head -1)
# (its first line may come some simulated minutes in on a loaded host: the
# simulator runs its 600 s in well under one of the live line's ticks)
like "$virt" '\| [0-9hms]+, [0-9hms]+ left \(simulated\) \| ' "the simulated step's seconds are marked simulated"
like "$virt" '\| plan ETA [0-9hms]+ simulated$' "and so is the ETA when only simulated steps are left"
done_testing
