#!/usr/bin/env bash
# The io_uring and libaio engines' preset "fio" (a cross-check with fio's
# defaults, docs/engines.md): no registered buffers or files (the engine's
# debug line), one request per submitting call, submitting and waiting in
# calls apart, one completion per io_getevents (strace: fio's
# iodepth_batch_complete_max defaults to 1; io_uring's reap_max:
# unit/engine_batch), no placement
# (numa "none" in params_json and steps.placement); options and step keys
# given beside it win; an unknown preset is an error that names it.
. "$(dirname "$0")/lib.sh"

F="$TMP/t.dat"
dd if=/dev/zero of="$F" bs=1M count=16 status=none
# step NAME ENGINE OPTS [STEP KEYS]: a 1 s QD8 random read step
step() {
	printf 'hb.run{ name = "%s", engine = "%s", %s = { %s }, %s rw = "randread", oio = 8, duration = 1, size = "8m" }\n' \
		"$1" "$2" "$2" "$3" "${4:+$4,}"
}
# run NAME PLAN-LINES: run it verbosely into $TMP/NAME.db, stderr in $TMP/NAME.err
run() {
	printf '%s\n' "$2" > "$TMP/$1.lua"
	"$HB" run "$TMP/$1.lua" --db "$TMP/$1.db" --target "$F" -v 2>"$TMP/$1.err" >/dev/null
}
# param STEP PATH: a value of that step's params_json
param() { q "$TMP/fio.db" "SELECT json_extract(params_json, '$2') FROM steps WHERE name = '$1'"; }

run fio "$(step fio io_uring 'preset = "fio"')
$(step bufs io_uring 'preset = "fio", fixedbufs = true, submit_batch = 4' 'numa = "node"')
$(step native io_uring '')
$(step aio libaio 'preset = "fio"')
$(step aio4 libaio 'preset = "fio", submit_batch = 4, reap_max = 0' 'cpus = "0"')
$(step ramp io_uring 'preset = "fio"' 'ramp = 1')"
ok $? "steps with preset = \"fio\" run (io_uring and libaio)"

# what the engine did: its debug line at open
reg() { grep -o 'io_uring: worker 0: files [a-z ]*, buffers [a-z ]*' "$TMP/fio.err" | sed -n "$1p"; }
is "$(reg 1)" "io_uring: worker 0: files not registered, buffers not registered" \
	"io_uring preset fio: neither buffers nor files registered (fio's fixedbufs=0, registerfiles=0)"
is "$(reg 2)" "io_uring: worker 0: files not registered, buffers registered" \
	"fixedbufs = true beside the preset wins: buffers registered"
is "$(reg 3)" "io_uring: worker 0: files registered, buffers registered" \
	"without the preset: both registered (the defaults are unchanged)"

# what params_json records
is "$(param fio '$.io_uring.preset') $(param fio '$.io_uring.fixedbufs') $(param fio '$.io_uring.registerfiles') $(param fio '$.io_uring.sqpoll') $(param fio '$.io_uring.submit_batch') $(param fio '$.io_uring.wait_nr') $(param fio '$.io_uring.reap_max') $(param fio '$.io_uring.separate_wait')" \
	"fio 0 0 0 1 1 1 1" "params_json: the preset and the values it set (no registered buffers or files, no sqpoll, 1 a call, wait for 1, reap 1, submit and wait apart)"
is "$(param fio '$.io_uring.fixedbufs') $(param fio '$.io_uring.submit_batch') $(param fio '$.numa')" "0 1 none" \
	"io_uring preset fio: numa none (fio pins nothing)"
is "$(param fio '$.numa')|$(q "$TMP/fio.db" "SELECT placement FROM steps WHERE name = 'fio'")" "none|none" \
	"io_uring preset fio: the step placed nothing (steps.placement none)"
is "$(param bufs '$.io_uring.fixedbufs') $(param bufs '$.io_uring.submit_batch') $(param bufs '$.numa')" "1 4 node" \
	"options and numa given beside the preset win (fixedbufs, submit_batch, numa)"
is "$(param native '$.io_uring.preset')|$(param native '$.io_uring.submit_batch')|$(param native '$.io_uring.reap_max')|$(param native '$.numa')" "|4|0|" \
	"without the preset: no preset, submit_batch 4, reap_max 0 (all that are ready), numa left at its default (auto)"
is "$(param aio '$.libaio.preset') $(param aio '$.libaio.submit_batch') $(param aio '$.libaio.reap_max') $(param aio '$.numa')" "fio 1 1 none" \
	"libaio preset fio: 1 request per io_submit, 1 event per io_getevents, numa none"
is "$(param aio4 '$.libaio.submit_batch') $(param aio4 '$.libaio.reap_max') $(param aio4 '$.cpus') $(param aio4 '$.numa')" "4 0 0 " \
	"libaio: submit_batch, reap_max and cpus given beside the preset win (no numa none over cpus)"

# fio's per-I/O timing: a clock read as the submitting call starts, one as it
# returns, one at the completion; each worker's slat and clat an event of the
# run, over the I/Os the step counts, so slat + clat is the step's lat
ev() { q "$TMP/fio.db" "SELECT message FROM events WHERE message LIKE 'worker %, preset fio: slat%' ORDER BY id"; }
is "$(ev | wc -l)" 5 "an event with slat and clat per step with the preset (fio, bufs, aio, aio4, ramp), none without (native)"
grep -q 'preset fio: slat' "$TMP/fio.err"; ok $? "the same line on stderr"
for n in "1 fio" "3 aio"; do
	set -- $n
	m=$(ev | sed -n "$1p")
	like "$m" '^worker 0, preset fio: slat mean [0-9.]+ us, p50 [0-9.]+, p99 [0-9.]+; clat mean [0-9.]+ us, p50 [0-9.]+, p99 [0-9.]+ \([1-9][0-9]* I/Os after the ramp\)$' \
		"step $2: slat and clat, mean, p50 and p99, in us"
	is "${m##*(}" "$(q "$TMP/fio.db" "SELECT read_ops FROM steps WHERE name = '$2'") I/Os after the ramp)" \
		"step $2: over the I/Os the step counts (its read_ops)"
	lat=$(q "$TMP/fio.db" "SELECT lat_mean_us FROM steps WHERE name = '$2'")
	printf '%s\n' "$m" | sed 's/.*slat mean \([0-9.]*\) us.*clat mean \([0-9.]*\) us.*/\1 \2/' |
		awk -v lat="$lat" '{ d = $1 + $2 - lat; exit !(lat > 0 && d < 0.011 && d > -0.011) }'
	ok $? "step $2: slat mean + clat mean = the step's lat mean ($lat us), as fio's slat + clat = lat (to the 0.01 us printed)"
	like "$m" 'slat mean ([1-9][0-9.]*|0\.0[1-9]|0\.[1-9][0-9]) us' "step $2: a submission takes time (slat mean above 0)"
	# each its own percentile: the times of thousands of calls spread over
	# far more than a histogram bucket (1/128 of a value), so p99 > p50
	printf '%s\n' "$m" | sed 's/.*slat mean [0-9.]* us, p50 \([0-9.]*\), p99 \([0-9.]*\); clat mean [0-9.]* us, p50 \([0-9.]*\), p99 \([0-9.]*\) .*/\1 \2 \3 \4/' |
		awk 'NF == 4 { exit !($1 < $2 && $3 < $4) } END { if (NF != 4) exit 1 }'
	ok $? "step $2: slat's and clat's p99 each above their p50"
done
m=$(ev | sed -n 5p)
is "${m##*(}" "$(q "$TMP/fio.db" "SELECT read_ops FROM steps WHERE name = 'ramp'") I/Os after the ramp)" \
	"a step with a ramp: slat and clat leave out the ramp's I/Os, as its read_ops do (and fio's slat and clat)"

# one request per call and one completion per reap, seen from outside
# trace NAME ENGINE OPTS SYSCALLS: a traced run of a step of ENGINE with OPTS into $TMP/NAME.trace
trace() {
	printf '%s\n' "$(step t "$2" "$3")" > "$TMP/$1.lua"
	traced -f -qq -e trace="$4" -o "$TMP/$1.trace" \
		"$HB" run "$TMP/$1.lua" --db "$TMP/$1.db" --target "$F" -q
}
# largest TRACE CALL N: the largest N-th argument (2 or 3) of CALL in TRACE
largest() {
	local a='[^,]*, '
	[ "$3" = 3 ] && a="$a$a" || :
	sed -n "s/.*$2($a\([0-9]*\),.*/\1/p" "$TMP/$1.trace" | sort -n | tail -1
}
# both TRACE: the io_uring_enter calls that submit and wait in one
both() { grep -c 'io_uring_enter([0-9]*, [1-9][0-9]*, [1-9]' "$TMP/$1.trace"; }
if command -v strace >/dev/null; then
	trace t io_uring 'preset = "fio"' io_uring_enter,io_uring_register
	is "$(largest t io_uring_enter 2)" 1 "io_uring preset fio at QD8: no io_uring_enter submits more than 1 request (fio's iodepth_batch_submit=1)"
	is "$(grep -c 'IORING_REGISTER_BUFFERS\|IORING_REGISTER_FILES' "$TMP/t.trace")" 0 \
		"io_uring preset fio: no IORING_REGISTER_BUFFERS or _FILES call"
	# fio's two calls: a submission alone (taking the completions ready), a
	# wait alone when none is; hbatest's own way puts the last batch with the wait
	trace tb io_uring 'preset = "fio", separate_wait = false' io_uring_enter
	n=$(both t) nb=$(both tb)
	ok $((n > 1)) "io_uring preset fio: no io_uring_enter both submits and waits but the one that arms the ring's tick (fio's commit and getevents apart; $n)"
	ok $((nb == 0)) "with separate_wait = false beside it, some do ($nb)"
	trace a libaio 'preset = "fio"' io_submit,io_getevents
	is "$(largest a io_submit 2)" 1 "libaio preset fio at QD8: no io_submit hands over more than 1 request"
	is "$(largest a io_getevents 3)" 1 "libaio preset fio at QD8: no io_getevents takes more than 1 event (fio's iodepth_batch_complete_max)"
	trace ab libaio 'preset = "fio", reap_max = 0' io_getevents
	is "$(largest ab io_getevents 3)" 8 "libaio preset fio with reap_max = 0: io_getevents takes up to the depth"
else
	skip "strace is not installed"
fi

# an unknown preset: an error naming the key and the value, before anything runs
printf '%s\n' "$(step x io_uring 'preset = "fast"')" > "$TMP/bad.lua"
out=$("$HB" run "$TMP/bad.lua" --db "$TMP/bad.db" --target "$F" 2>&1); rc=$?
ok $((rc == 0)) "an unknown preset fails the plan ($rc)"
like "$out" "bad.lua:1: .*io_uring: no preset 'fast' in scripts/io_uring_presets.lua \(it has fio\)" \
	"the message names the key, the value, where presets are and which there are"
printf '%s\n' "$(step x libaio 'preset = "fast"')" > "$TMP/bad.lua"
like "$("$HB" run "$TMP/bad.lua" --db "$TMP/bad.db" --target "$F" 2>&1)" "libaio: no preset 'fast'" \
	"the same for libaio"
done_testing
