#!/usr/bin/env bash
# make bench's table (tests/dev/bench.sh) runs its rows: a write row on the
# file the script fills with dd (data hbatest did not lay out, which a write
# step overwrites only when offered with --destroy-data: since session 29's
# rule, make bench stopped at its first write row), one 1 s round on a 16
# MiB file. No timing threshold: the figures are not judged here.
. "$(dirname "$0")/lib.sh"

if ! command -v fio >/dev/null || ! command -v jq >/dev/null; then
	skip "make bench needs fio and jq (apt-get install fio jq)"
	done_testing; exit 0
fi
bench() {
	BENCH_DIR=$TMP BENCH_SECS=1 BENCH_ROUNDS=1 BENCH_SIZE_MB=16 BENCH_ROWS=$1 \
		bash "$ROOT/tests/dev/bench.sh" 2>"$TMP/bench.err"
}
out=$(bench 'io_uring randwrite QD32'); rc=$?
is "$rc" 0 "BENCH_ROWS='io_uring randwrite QD32' runs to its table ($(grep -m1 'error' "$TMP/bench.err"))"
like "$out" "io_uring randwrite QD32 +[0-9]+ +[0-9]+ +[0-9]+ " "its row: fio's defaults, fio tuned and hbatest, IOPS each"
out=$(bench 'io_uring 70/30 QD32'); rc=$?
is "$rc" 0 "the 70/30 read/write row runs to its table"
like "$out" "io_uring 70/30 QD32 +[0-9]+ +[0-9]+ +[0-9]+ " "its row"
out=$(bench '^io_uring 4k rand QD1$'); rc=$?
is "$rc" 0 "a read row runs too"
grep -q "destroy-data" "$TMP/bench.err"; ok $((! $?)) "and offers nothing to destroy (no warning of an unused --destroy-data)"
out=$(BENCH_SIZE_MB=x bash "$ROOT/tests/dev/bench.sh" 2>&1); rc=$?
like "$rc $out" "^2 bench: BENCH_SIZE_MB is a whole number of at least 1 \(got 'x'\)" "BENCH_SIZE_MB=x: refused, exit 2"
done_testing
