#!/usr/bin/env bash
# Where a step or an error comes from: --dry-run names each step's plan line
# and, for a step a module (a require'd file) made, the module's line that the
# plan's call led to; errors and limits raised in a module name both lines.
. "$(dirname "$0")/lib.sh"

R5="$ROOT/plans/raid5.lua"
REV="$ROOT/scripts/review.lua"
r5line=$(grep -n '^require("review")' "$R5" | cut -d: -f1)
fill=$(grep -n 'hb.precondition{ name = "fill' "$REV" | cut -d: -f1)
pre=$(grep -n 'hb.precondition{ name = "4k random write preconditioning"' "$REV" | cut -d: -f1)
mix=$(grep -n 'hb.run{ rw = "randrw"' "$REV" | cut -d: -f1)
sweeps=$(grep -nE '^ +sweep_oio\(s, ' "$REV" | cut -d: -f1 | tr '\n' ' ')
set -- $sweeps
rand=$1 seq=$2 prof=$3

out=$("$HB" run "$R5" --dry-run --target "$TMP/r5.dat" --set size=64m); ok $? "raid5.lua --dry-run"
line() { printf '%s\n' "$out" | grep -E "^ +$1  "; }
like "$(line 1)" "fill 2x 128k .* line $r5line \(review\.lua:$fill\)$" "the fill: the plan's line, then the module's"
like "$(line 2)" "4k random write preconditioning .* line $r5line \(review\.lua:$pre\)$" "the timed preconditioning: its own module line"
like "$(line 3)" "randread 4k oio2 .* line $r5line \(review\.lua:$rand\)$" \
	"a sweep's point: the module's line that asked for the sweep, not its helper's hb.run"
like "$(line 37)" "randrw 4k w20% oio64 .* line $r5line \(review\.lua:$mix\)$" "a write-mix point"
like "$(line 61)" "read 128k oio32 .* line $r5line \(review\.lua:$seq\)$" "a sequential point"
like "$(line 96)" "email oio256 .* line $r5line \(review\.lua:$prof\)$" "a profile point"
is "$(printf '%s\n' "$out" | grep -cE "  line $r5line \(review\.lua:[0-9]+\)$")" 96 "every step of the 96 names both"

# plans of one's own: the plan alone, the plan library (hb.sweep) is no module
cat > "$TMP/mod.lua" <<'LUA'
local m = {}
local function point(oio) return hb.run{ oio = oio } end
-- no "return f()": a tail call leaves no frame of its caller to name
function m.one() point(2) end
function m.sweep() hb.sweep{ base = {}, oio = { 1, 2 } } end
function m.viaother() require("other").go() end
function m.cmd() hb.exec{ cmd = "true" } end
function m.eat()
  local t = {}
  for i = 1, 1e9 do t[i] = ("x"):rep(100) .. i end
end
function m.raise() error({ code = 1 }) end
return m
LUA
printf 'return { go = function()\n  return hb.run{ oio = 4 }\nend }\n' > "$TMP/other.lua"
cat > "$TMP/own.lua" <<'LUA'
hb.plan{ defaults = { engine = "null", targets = "v", duration = 1 } }
local m = require "mod"
hb.run{ oio = 1 }
hb.sweep{ base = {}, oio = { 1, 2 } }
m.one()
m.sweep()
m.viaother()
m.cmd()
LUA
out=$("$HB" run "$TMP/own.lua" --dry-run 2>&1); ok $? "a plan with a module of its own: --dry-run"
like "$(line 1)" " line 3$" "a step the plan made: its line alone"
like "$(line 2)" " line 4$" "hb.sweep from the plan: the plan's line (scripts/hbatest.lua is the library, no module)"
like "$(line 4)" " line 5 \(mod\.lua:4\)$" "a module's helper: the line the plan's call reached in the module"
like "$(line 5)" " line 6 \(mod\.lua:5\)$" "hb.sweep in a module: the module's line"
like "$(line 7)" " line 7 \(mod\.lua:6\)$" "a module that calls another: the first module's line"
like "$(line 8)" "cmd=true  line 8 \(mod\.lua:7\)  \(needs --allow-exec\)$" "an exec step: the same, before the --allow-exec remark"

# errors and limits raised in a module: the plan's line, then the module's
printf 'local m = require "mod"\n\nm.eat()\n' > "$TMP/eat.lua"
out=$("$HB" run "$TMP/eat.lua" --db "$TMP/x.db" --lua-memory 64m 2>&1)
like "$out" "eat\.lua:3: $TMP/mod\.lua:10: the plan's Lua needs more memory than its limit of 64 MiB" \
	"the memory limit passed in a module: both lines"
printf 'local m = require "mod"\nm.raise()\n' > "$TMP/raise.lua"
like "$("$HB" run "$TMP/raise.lua" --db "$TMP/x.db" 2>&1)" "raise\.lua:2: $TMP/mod\.lua:12: error raised with a table: \{code=1\}$" \
	"an error() with a table in a module: both lines"
printf 'hb.plan{ defaults = { engine = "null", targets = "v", duration = 1 } }\nrequire("other").go()\n' > "$TMP/bad.lua"
printf 'return { go = function()\n  return hb.run{ oio = 0 }\nend }\n' > "$TMP/other.lua"
like "$("$HB" run "$TMP/bad.lua" --db "$TMP/x.db" 2>&1)" "bad\.lua:2: hb\.run: oio=0: .* \(at $TMP/other\.lua:2\)$" \
	"a step's error: the plan's line, the module's at the end"
[ -e "$TMP/x.db" ]; is $? 1 "no database for plans that fail in the dry pass"
done_testing
