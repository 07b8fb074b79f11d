#!/usr/bin/env bash
# The plugin skeletons a new author copies (plugins/engines/skeleton.c,
# plugins/probes/skeleton.c): built by make beside no other plugin, they load,
# the engine really moves data and the core counts every request it completes,
# its option and check() reach the plan, and the probe reports its facts.
. "$(dirname "$0")/lib.sh"

SK="$ROOT/build/skeleton"
[ -f "$SK/skeleton.so" ] && [ -f "$SK/skeleton_probe.so" ]
ok $? "make built both skeletons ($SK)"

out=$("$HB" plugins --plugin-path "$SK" 2>&1)
like "$out" "^skeleton +engine +1\.3 +$SK/skeleton\.so +pread/pwrite" "plugins lists the engine skeleton"
like "$out" "^skeleton_probe +probe +1\.3 +$SK/skeleton_probe\.so" "and the probe skeleton"
like "$("$HB" plugins -v --plugin-path "$SK")" "^ +sleep_us=int \(microseconds to wait before each request, default 0\)" \
	"plugins -v shows the engine's option"
! "$HB" plugins | grep -q skeleton; ok $? "neither is on the default plugin path"

# a one-second step on a file: samples stored, and as many requests counted
# as the engine completed (one a worker may complete after the second ends:
# drained, not counted)
cat > "$TMP/rw.lua" <<'LUA'
hb.run{ engine = "skeleton", rw = "randrw", write_pct = 30, oio = 2, workers = 2,
        duration = 1, size = "8m" }
LUA
"$HB" run "$TMP/rw.lua" --db "$TMP/s.db" --target "$TMP/t.dat" --plugin-path "$SK" -v \
	>/dev/null 2>"$TMP/err"
ok $? "a step with the engine skeleton runs"
is "$(q "$TMP/s.db" "SELECT status || ' ' || engine || ' ' || (errors = 0) FROM steps")" "done skeleton 1" \
	"the step is done, by the skeleton, without errors"
is "$(q "$TMP/s.db" "SELECT count(*) || ' ' || ((read_ops + write_ops) / secs > 0) FROM samples")" "1 1" \
	"its second is stored: one sample, its IOPS above 0"
is "$(q "$TMP/s.db" "SELECT iops > 0 AND read_ops > 0 AND write_ops > 0 FROM steps")" 1 \
	"the step's IOPS is above 0, with reads and writes"
is "$(check_invariant "$TMP/s.db" 1)" 1 "the sample adds up to the step's totals"
done_n=$(awk '/skeleton: worker [0-9]+ completed [0-9]+ requests$/ { n += $(NF - 1) } END { print n }' \
	"$TMP/err")
ops=$(q "$TMP/s.db" "SELECT read_ops + write_ops FROM steps")
[ -n "$done_n" ] && [ "$ops" -le "$done_n" ] && [ "$done_n" -le $((ops + 2)) ]
ok $? "the core counted what the engine completed ($ops stored, $done_n completed by 2 workers)"

# the option reaches open(), and check() refuses a value out of its range
cat > "$TMP/slow.lua" <<'LUA'
hb.run{ engine = "skeleton", skeleton = { sleep_us = 100000 }, duration = 1, size = "8m" }
LUA
"$HB" run "$TMP/slow.lua" --db "$TMP/s.db" --target "$TMP/t.dat" --plugin-path "$SK" -q
ok $? "a step with sleep_us=100000 runs"
ops=$(q "$TMP/s.db" "SELECT read_ops FROM steps WHERE id = 2")
[ "$ops" -ge 1 ] && [ "$ops" -le 10 ]; ok $? "and does at most 10 requests in its second ($ops)"
sed -i 's/100000/-1/' "$TMP/slow.lua"
out=$("$HB" run "$TMP/slow.lua" --db "$TMP/s.db" --target "$TMP/t.dat" --plugin-path "$SK" 2>&1); rc=$?
like "$rc $out" "^1 .*slow.lua:1: hb.run: skeleton: sleep_us=-1 is out of range: 0 to 1000000" \
	"check() refuses sleep_us=-1 in the dry pass, naming it"

# the probe: its two facts from a fixture root, none where they are missing
mkdir -p "$TMP/root/proc/sys/fs" "$TMP/empty"
echo 65536 > "$TMP/root/proc/sys/fs/aio-max-nr"
echo 12 > "$TMP/root/proc/sys/fs/aio-nr"
out=$(HBATEST_SYSFS_ROOT="$TMP/root" "$HB" probe --plugin-path "$SK"); ok $? "probe with the probe skeleton"
like "$out" "^  skeleton_probe aio_max_nr +65536$" "reports aio_max_nr"
like "$out" "^  +aio_nr +12$" "and aio_nr"
out=$(HBATEST_SYSFS_ROOT="$TMP/empty" "$HB" probe --plugin-path "$SK" 2>&1)
! grep -q "aio_" <<<"$out"; ok $? "a root without them: no fact invented"
done_testing
