#!/usr/bin/env bash
# A plan that makes steps forever is stopped in the dry pass: at --max-steps
# (default 100000; each listed step's memory is outside the Lua limit), and
# by the dry pass's 10 s of CPU, which counts hb.run's listing of a step as
# well as the plan's Lua. Each ends with the plan's file:line, exit 1, and
# nothing written.
. "$(dirname "$0")/lib.sh"

DB="$TMP/results.db"
printf 'hb.run{ engine = "null", targets = "v", duration = 1 }\n' > "$TMP/good.lua"
"$HB" run "$TMP/good.lua" --db "$DB" -q; ok $? "a good null plan runs (the database to protect)"
before=$(sqlite3 "$DB" .dump | sha256sum)

# limited PLAN_BODY LINE PATTERN DESCRIPTION [extra args]: exit 1, file:line
limited() {
	local body=$1 line=$2 pat=$3 what=$4; shift 4
	local plan="$TMP/loop.lua" out rc
	printf '%s\n' "$body" > "$plan"
	out=$([ -z "$AS_CAP" ] || ulimit -v "$AS_CAP"; [ -z "$CPU_CAP" ] || ulimit -t "$CPU_CAP"
	      "$HB" run "$plan" --db "$DB" "$@" 2>&1); rc=$?
	is "$rc" 1 "$what: exits 1"
	like "$out" "error: $plan:$line: .*$pat" "$what: message names file:line ($(printf '%s' "$out" | head -1 | sed "s|$TMP/||g"))"
	is "$(sqlite3 "$DB" .dump | sha256sum)" "$before" "$what: database unchanged"
}

# the reported case: figures are 0 in the dry pass, so the loop never ends
limited 'local i = 0
repeat
  i = i + 1
  local r = hb.run{ engine = "null", targets = "v", duration = 1, name = "s" .. i }
until r.lat_p99_us > 100' 4 \
	"hb.run: the plan makes more than 50 steps: does it loop forever\? \(--max-steps N raises the limit\)" \
	"repeat hb.run until p99 > X under --max-steps 50" --max-steps 50
limited 'local i = 0
while true do
  i = i + 1
  pcall(hb.run, { engine = "null", targets = "v", duration = 1, name = "s" .. i })
end' 4 "the plan makes more than 20 steps" "a pcall around hb.run does not swallow the limit" \
	--max-steps 20
limited 'for i = 1, 6 do hb.exec{ cmd = "true", name = "e" .. i } end' 1 \
	"hb.exec: the plan makes more than 5 steps" "hb.exec steps count too" --max-steps 5 --allow-exec

# the limit itself is allowed: 5 steps under --max-steps 5
printf 'for i = 1, 5 do hb.run{ engine = "null", targets = "v", duration = 1, name = "s" .. i } end\n' > "$TMP/five.lua"
out=$("$HB" run "$TMP/five.lua" --dry-run --max-steps 5 2>&1); rc=$?
is "$rc $(printf '%s\n' "$out" | grep -c 'null')" "0 5" "5 steps under --max-steps 5: listed, exit 0"

# --max-steps takes a whole number of at least 1
for v in 0 -3 1e3 lots ""; do
	out=$("$HB" run "$TMP/five.lua" --dry-run --max-steps "$v" 2>&1); rc=$?
	is "$rc" 2 "--max-steps '$v': a usage error"
	like "$out" "--max-steps $v: expected a whole number of steps" "--max-steps '$v': says so"
done

# the default limit: 100000 steps, without --max-steps (steps cost about 2 KB
# each outside Lua's allocator, so this is also what bounds their memory).
# A plain build lists them in under 1 s of CPU (0.87 s here), far inside the
# dry pass's 10 s; under ASan they take longer than that, and the time limit
# ends the loop first: there the case is skipped.
if sanitized; then
	skip "the default step limit under ASan (100000 steps take more than the dry pass's 10 s of CPU)"
else
limited 'local i = 0
while true do i = i + 1; hb.run{ engine = "null", targets = "v", duration = 1, name = "s" .. i } end' 2 \
	"hb.run: the plan makes more than 100000 steps" "an endless hb.run loop, default limit"
fi

# With the step limit out of the way, the dry pass's 10 s of CPU stops the
# loop, hb.run's work counted: for a step on a file (the report's case) the
# listing (the target looked at, its memory) is most of it: left out, this
# loop ran on to 32 s of CPU (12 in Lua and the step's table) and 780 MB,
# and counted, it stops at 10 s and 240 MB. The limit is CPU time, which
# neither load nor a machine's speed moves, so the process's own CPU time
# bounds the test: 20 s (ulimit -t) is twice the limit, and a dry pass that
# runs past it is killed there, as past 2 GB of address space (not under
# ASan, whose shadow memory reserves terabytes of address space).
sanitized || AS_CAP=2000000
CPU_CAP=20
limited "local i = 0
while true do i = i + 1; hb.run{ rw = 'randread', duration = 1, size = '64m', targets = '$TMP/t.dat', name = 's' .. i } end" 2 \
	"the dry pass has run for 10 s: does the plan loop forever\?" \
	"an endless hb.run loop on a file under --max-steps 100000000: the dry pass's time" \
	--max-steps 100000000
[ ! -e "$TMP/t.dat" ]; ok $? "and the dry pass made no file"
done_testing
