#!/usr/bin/env bash
# Plan mistakes: each gives "file:line: message", exits non-zero, and leaves
# the database exactly as it was (no run written, nothing touched).
. "$(dirname "$0")/lib.sh"

DB="$TMP/results.db"
cat > "$TMP/good.lua" <<'LUA'
hb.run{ engine = "null", targets = { "x" }, duration = 1 }
LUA
"$HB" run "$TMP/good.lua" --db "$DB" -q; ok $? "a good null plan runs (the database to protect)"
before=$(sqlite3 "$DB" .dump | sha256sum)

# bad PLAN_BODY LINE PATTERN DESCRIPTION [extra args]
bad() {
	local body=$1 line=$2 pat=$3 what=$4; shift 4
	local plan="$TMP/bad.lua" out rc
	printf '%s\n' "$body" > "$plan"
	out=$("$HB" run "$plan" --db "$DB" --target "$TMP/t.dat" "$@" 2>&1); rc=$?
	ok $((rc == 0)) "$what: exits non-zero ($rc)"
	like "$out" "$plan:$line: .*$pat" "$what: message names file:line ($(printf '%s' "$out" | head -1 | sed "s|$TMP/||g"))"
	is "$(sqlite3 "$DB" .dump | sha256sum)" "$before" "$what: database unchanged"
}

bad 'hb.plan{ name = "x" }
hb.run{ rw = "randread"' 3 "'}' expected" "syntax error"
bad 'hb.run{ oi = 32, size = "1m" }' 1 "unknown key 'oi' \(did you mean 'oio'\?\)" "unknown key"
bad 'hb.run{ bs = "4kb!", size = "1m" }' 1 "bs: '4kb!' is not a block size" "bad size string"
bad 'hb.run{ size = "lots" }' 1 'size=lots: expected a size' "bad size for size="
bad 'hb.run{ oio = 30, workers = 4, size = "1m" }' 1 'oio=30 does not split evenly over 4 workers x 1 target.*multiple of 4' "uneven oio split"
bad 'hb.run{ engine = "warp_drive", size = "1m" }' 1 'engine="warp_drive": no such engine plugin' "unknown engine"
bad 'hb.run{ engine = "io_uring", io_uring = { sqpol = true }, size = "1m" }' 1 "io_uring: unknown option 'sqpol'" "unknown engine option"
bad 'hb.run{ rw = "randread", write_pct = 30, size = "1m" }' 1 'write_pct=30 contradicts rw="randread"' "write_pct against rw"
bad 'hb.run{ rw = "sideways", size = "1m" }' 1 'rw=sideways: expected one of' "unknown rw"
bad 'hb.run{ targets = { "'"$TMP"'/no/such/dir/file" }, size = "1m" }' 1 "folder '$TMP/no/such/dir' does not exist" "target in a missing folder"
bad 'hb.run{ duration = 5 }' 1 "target '$TMP/t.dat' does not exist; give size=" "missing target without size"
bad 'local x = nil
x.field = 1' 2 "attempt to index a nil value" "runtime error"
bad 'local f = io.open("/etc/passwd")' 1 "global 'io'" "io is not in the sandbox"
bad 'os.execute("true")' 1 "field 'execute'" "os.execute is not in the sandbox"
bad 'local f = load(string.dump(function() end))
f()' 2 "attempt to call a nil value" "binary chunks do not load"
bad 'hb.plan{ defaults = { ramp = 1, duraton = 3 } }' 1 "unknown key 'duraton' \(did you mean 'duration'\?\)" "unknown key in defaults"
bad 'for i = 1, 40 do
  hb.run{ name = "step " .. i, size = "1m", duration = 600,
          oio = (i == 37) and 3 or 4, workers = 2 }
end' 2 'oio=3 does not split evenly' "a mistake at step 37 is found before any I/O"

out=$("$HB" run "$TMP/good.lua" --db "$DB" --set duration=5 2>&1); rc=$?
ok $((rc == 0)) "an unused --set key fails the run"
like "$out" "--set duration=5 is not read by the plan" "and names the key"
is "$(sqlite3 "$DB" .dump | sha256sum)" "$before" "unused --set: database unchanged"

"$HB" run "$TMP/bad.lua" --db "$TMP/fresh.db" >/dev/null 2>&1
[ ! -e "$TMP/fresh.db" ]; ok $? "a failing plan does not create a database"
[ ! -e "$TMP/t.dat" ]; ok $? "a failing plan does not create a target"
done_testing
