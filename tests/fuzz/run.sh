#!/bin/sh
# make fuzz: run each fuzz target of tests/fuzz/targets (or those named) for
# FUZZ_SECONDS, one after the other, each in one process on one CPU: new corpus
# entries in build/fuzz/corpus/NAME/ (kept from run to run, out of git),
# seeds read from tests/fuzz/corpus/ (and tokens from tests/fuzz/NAME.dict), a crash, leak, UBSan report or hang
# (-timeout=10) saved in build/fuzz/crash/NAME/. Exits 1 if a target failed.
#   FUZZ_SECONDS=600 sh tests/fuzz/run.sh fio
#   FUZZ_ARGS="-dict=..." adds libFuzzer options.
cd "$(dirname "$0")/../.." || exit 2
B=build/fuzz
SECONDS_EACH=${FUZZ_SECONDS:-180}
failed=

# an UBSan report and a leak are failures too, with their stack
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=1"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}print_stacktrace=1:halt_on_error=1"

while read -r name max_len seeds; do
	case $name in '' | '#'*) continue ;; esac
	if [ $# -gt 0 ]; then
		case " $* " in *" $name "*) ;; *) continue ;; esac
	fi
	if [ ! -x "$B/$name" ]; then
		echo "fuzz: $B/$name is not built (make fuzz-build)" >&2
		exit 2
	fi
	dirs= dict=
	for s in $seeds; do dirs="$dirs tests/fuzz/corpus/$s"; done
	[ -f "tests/fuzz/$name.dict" ] && dict="-dict=tests/fuzz/$name.dict"
	mkdir -p "$B/corpus/$name" "$B/crash/$name"
	echo "fuzz: $name for ${SECONDS_EACH} s (corpus $B/corpus/$name, seeds$dirs)"
	before=$(ls "$B/crash/$name" | wc -l)
	# shellcheck disable=SC2086
	"$B/$name" "$B/corpus/$name" $dirs -max_len="$max_len" -timeout=10 \
		-max_total_time="$SECONDS_EACH" -print_final_stats=1 \
		-artifact_prefix="$B/crash/$name/" $dict $FUZZ_ARGS </dev/null >"$B/$name.log" 2>&1
	rc=$?
	# (with -fork=N -ignore_crashes=1 in FUZZ_ARGS a run goes on past a
	# finding and exits 0: what it left in crash/ tells)
	if [ $rc -ne 0 ] || [ "$(ls "$B/crash/$name" | wc -l)" -gt "$before" ]; then
		echo "fuzz: $name FAILED, see $B/$name.log:"
		grep -E '^(==[0-9]+==ERROR|fuzz: |SUMMARY|.*runtime error|artifact_prefix|Test unit written)' \
			"$B/$name.log" | head -8
		failed="$failed $name"
	else
		echo "fuzz: $name: $(grep -E '^#[0-9]+' "$B/$name.log" | tail -1)"
	fi
done <<EOF
$(cat tests/fuzz/targets)
EOF

if [ -n "$failed" ]; then
	echo "fuzz: failed:$failed (reproduce: build/fuzz/NAME FILE; minimize:" \
		"build/fuzz/NAME -minimize_crash=1 -runs=10000 FILE)"
	exit 1
fi
echo "fuzz: no crash, leak, UBSan report or hang"
