#!/usr/bin/env bash
# The fuzz targets of the readers of untrusted files (tests/fuzz/targets),
# built by `make fuzz-build` with clang's libFuzzer, ASan and UBSan: each
# replays its seeds and every crash fixture of tests/fuzz/crashes/NAME/ (a
# test each: a crash, leak, UBSan report or hang found once stays found),
# then fuzzes from its seeds for FUZZ_SMOKE_RUNS (500) inputs with -seed=1:
# the same inputs on every machine however busy, so that a finding is found
# again (a run of N seconds did what the machine had time for). A smoke run
# shows that every target runs and finds nothing; `make fuzz` runs them for
# minutes. Skips without clang or its libFuzzer, unless
# HBATEST_FUZZ_REQUIRED=1 (then that fails).
. "$(dirname "$0")/lib.sh"

# The targets carry ASan and UBSan themselves: `make check SANITIZE=1` (CI's
# second pass) need not build and run them again.
if [ "$(cat "$ROOT/build/mode" 2>/dev/null)" = sanitize ]; then
	skip "the fuzz targets are sanitized builds of their own: run in the plain make check"
	done_testing
	exit
fi

CC=${FUZZ_CC:-clang}
RUNS=${FUZZ_SMOKE_RUNS:-500}
B="$ROOT/build/fuzz"

# no_fuzzer REASON: skip, or fail when the fuzzers are required
no_fuzzer() {
	if [ "${HBATEST_FUZZ_REQUIRED:-0}" = 1 ]; then
		ok 1 "the fuzz targets can be built (HBATEST_FUZZ_REQUIRED=1): $1"
	else
		skip "$1"
	fi
	done_testing
	exit
}

# Can $CC link a libFuzzer target with ASan and UBSan, and does it run?
cat > "$TMP/probe.c" <<'EOF'
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }
EOF
command -v "$CC" >/dev/null ||
	no_fuzzer "no $CC: the fuzz targets need clang and its libFuzzer (tests/dev/install-deps.sh installs them)"
"$CC" -fsanitize=fuzzer,address,undefined -o "$TMP/probe" "$TMP/probe.c" >"$TMP/probe.log" 2>&1 &&
	"$TMP/probe" -runs=1 >>"$TMP/probe.log" 2>&1 ||
	no_fuzzer "$CC cannot build a libFuzzer target with ASan and UBSan (is libclang-rt-dev installed?): $(grep -m1 -iE 'error|cannot' "$TMP/probe.log")"

# Built by a make of its own (-j2, as docs/HACKING.md builds): the make that
# runs this test (make check) does not share its jobserver, and the fuzz
# goals leave its mode alone.
(cd "$ROOT" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -j2 fuzz-build) >"$TMP/build.log" 2>&1
rc=$?
ok $rc "make fuzz-build: every target builds with $CC, libFuzzer, ASan and UBSan"
if [ $rc -ne 0 ]; then
	sed 's/^/#   /' "$TMP/build.log" | tail -30
	done_testing
	exit
fi

# the targets' scratch folders (one a process: one a crash leaves) in ours
export TMPDIR="$TMP"
export ASAN_OPTIONS=detect_leaks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
unset FUZZ_VERBOSE

# what OUTPUT: what a failed run reported (its error and the top of its stack)
what() {
	grep -E '^(==[0-9]+==ERROR|fuzz: |SUMMARY|.*runtime error|ALARM|    #[0-4] |reproduce)' "$1" |
		head -14 | sed 's/^/#   /'
}

while read -r name max_len seeds; do
	case $name in '' | '#'*) continue ;; esac
	bin="$B/$name"
	dirs=() files=() dict=()
	[ -f "$ROOT/tests/fuzz/$name.dict" ] && dict=(-dict="$ROOT/tests/fuzz/$name.dict")
	for s in $seeds; do
		dirs+=("$ROOT/tests/fuzz/corpus/$s")
		files+=("$ROOT/tests/fuzz/corpus/$s"/*)
	done

	# every seed as it is: the fixtures import (or are refused) cleanly
	"$bin" -timeout=10 "${files[@]}" >"$TMP/$name-seeds.out" 2>&1
	rc=$?
	ok $rc "$name: its ${#files[@]} seeds run clean"
	[ $rc -eq 0 ] || what "$TMP/$name-seeds.out"

	# every crash once found: each a test of its own
	for f in "$ROOT/tests/fuzz/crashes/$name"/*; do
		[ -f "$f" ] || continue
		case $f in */README.md) continue ;; esac	# the notes on them
		"$bin" -timeout=10 "$f" >"$TMP/$name-crash.out" 2>&1
		rc=$?
		ok $rc "$name: no crash, leak, UBSan report or hang on crashes/$name/$(basename "$f")"
		[ $rc -eq 0 ] || what "$TMP/$name-crash.out"
	done

	# a short run from the seeds; what it finds is kept in build/fuzz/smoke/
	mkdir -p "$TMP/corpus-$name" "$B/smoke/$name"
	"$bin" "$TMP/corpus-$name" "${dirs[@]}" "${dict[@]}" -max_len="$max_len" -timeout=10 -seed=1 \
		-runs="$RUNS" -print_final_stats=1 -artifact_prefix="$B/smoke/$name/" >"$TMP/$name-run.out" 2>&1
	rc=$?
	ok $rc "$name: ${RUNS} inputs fuzzed from the seeds find no crash, leak, UBSan report or hang"
	# ... and it ran them all: a target that stops early (or a libFuzzer that
	# took no -runs) would pass above having fuzzed nothing
	is "$(sed -n 's/^stat::number_of_executed_units: *//p' "$TMP/$name-run.out")" "$RUNS" \
		"$name: it ran its $RUNS inputs"
	if [ $rc -ne 0 ]; then
		what "$TMP/$name-run.out"
		grep -E '^artifact_prefix|Test unit written' "$TMP/$name-run.out" | sed 's/^/#   /'
		echo "#   reproduce: build/fuzz/$name FILE; minimize it (make fuzz, docs/HACKING)" \
			"and add it to tests/fuzz/crashes/$name/"
	fi
done <"$ROOT/tests/fuzz/targets"

done_testing
