#!/usr/bin/env bash
# The verdicts of make bench (tests/dev/bench-summary.sh) on rows of known
# figures: which fio variant is the better, the ratios paired round by round,
# the targets missed and in how many rounds, the queue, the closing line. No timing: the
# figures are made up, every expected value is worked out by hand.
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/dev/bench-summary.sh"

# rows TOOL IOPS P50 P99 [TOOL IOPS P50 P99 ...]: one run each, 1 CPU second
# per 100,000 I/Os for fio and 0.5 for hbatest, the mean latency the p50
rows() {
	: > "$TMP/rows"
	while [ $# -gt 0 ]; do
		local cpu=1
		[ "$1" = h ] && cpu=0.5
		printf '%s\t%s\t%s\t%s\t%s\t100000\t%s\n' "$1" "$2" "$3" "$4" "$cpu" "$3" >> "$TMP/rows"
		shift 4
	done
}
verdict() { summary "$1" "$2" "$TMP/rows" | sed 's/.*  //'; }

# three rounds, the order rotated as bench.sh runs them (d t h, t h d, h d t)
rows d 100 10 20  t 110 10 20  h 105 10 20 \
     t 100 10 20  h  97 10 21.5  d 100 10 20 \
     h  99 10.9 21.5  d 100 10 20  t 100 10 20
is "$(summary "io_uring QD1" io_uring "$TMP/rows" | awk '{ print $3, $4, $5, $6, $7, $8 }')" \
	"100 100 99 dflt 0.99 1.00" \
	"medians 100/100/99: equal fio medians pick the defaults; IOPS 0.99x (rounds 1.05, 0.97, 0.99), p50 1.00x"
is "$(verdict "io_uring QD1" io_uring)" "IOPS 0.990 (2/3), p99 1.075 (2/3)" \
	"the misses, each with the rounds hbatest missed it against the defaults' run of that round (the k-th of each)"

# fio tuned the better: the ratios are against it, round by round too
rows d 100 10 20  t 120 9 20  h 121 9.4 20 \
     d 100 10 20  t 120 9 20  h 119 9.6 20 \
     d 100 10 20  t 120 9 20  h 122 9.3 20
is "$(summary "io_uring QD4" io_uring "$TMP/rows" | awk '{ print $4, $5, $6, $7 }')" "120 121 tuned 1.01" \
	"tuned has the higher median IOPS: it is the better fio"
is "$(verdict "io_uring QD4" io_uring)" "met" \
	"the verdict is the median round's: p50 9.4 against 9.0 is 1.044x, met, though the round of 9.6 was not"

# the rounds pair the k-th run of each tool: the disk faster in round 2 and
# slower in round 3 for both, hbatest below only in round 1; the medians
# (100 and 99) would set fio's round 1 against hbatest's round 1 and miss
rows d 100 10 20  h 99 10 20  d 130 10 20  h 131 10 20  d 70 10 20  h 71 10 20
is "$(summary "io_uring QD32" io_uring "$TMP/rows" | awk '{ print $5, $7, $NF }')" "99 1.01 met" \
	"a round is compared with the same round: 99/100 worse, 131/130 and 71/70 not; the median round 1.008x"
# and the other way: hbatest's fast round set against fio's slow one
rows d 100 10 20  h 95 10 20  d 130 10 20  h 124 10 20  d 70 10 20  h 110 10 20
is "$(verdict "io_uring QD32" io_uring)" "IOPS 0.954 (2/3)" \
	"medians 110 against 100 would say 1.10x; round by round 0.95, 0.954, 1.57: the median misses"
# the queue: IOPS x mean latency, each tool's median
printf 'd\t100000\t300\t600\t1\t100000\t320\nh\t101000\t310\t600\t0.5\t101000\t320\n' > "$TMP/rows"
is "$(summary "io_uring QD32" io_uring "$TMP/rows" | awk '{ print $15, $16 }')" "32.0 32.3" \
	"queue: 100,000 x 320 us = 32.0 outstanding for fio, 101,000 x 320 us = 32.3 for hbatest"

# the boundaries: IOPS exactly 1.00x and p50, p99 exactly 1.05x meet
rows d 100 10 20  h 100 10.5 21
is "$(verdict "psync QD1" psync)" "met" "1.00x IOPS and 1.05x latency are within the targets"
rows d 100 10 20  h 100 10.6 21
is "$(verdict "psync QD1" psync)" "p50 1.060 (1/1)" "1.06x p50 is not; no fio tuned row: against the defaults"

# every round worse: the count says so
rows d 100 10 20  h 95 10 20  d 100 10 20  h 96 10 20  d 100 10 20  h 99 10 20
is "$(verdict "io_uring QD32" io_uring)" "IOPS 0.960 (3/3)" "hbatest below in every round: 3/3"

# the null engine: 1.5x IOPS, its latencies not judged; CPU per I/O is
rows d 100 1 1  h 149 5 5
is "$(verdict "null 4k QD32" null)" "IOPS 1.490 (1/1)" "null: 1.49x misses 1.50x; its latencies are not targets"
printf 'd\t100\t1\t1\t1\t100\nh\t200\t1\t1\t3\t200\n' > "$TMP/rows"
is "$(verdict "null 4k QD32" null)" "CPU 1.500 (1/1)" "CPU per I/O above fio's is a miss"

# the spread: half the range of a tool's IOPS, % of its median
rows d 90 10 20  d 100 10 20  d 110 10 20  h 100 10 20  h 101 10 20  h 102 10 20
is "$(summary "io_uring QD1" io_uring "$TMP/rows" | awk '{ print $13, $14 }')" "10 1" \
	"spread: fio (110 - 90) / 2 / 100 = 10 %, hbatest (102 - 100) / 2 / 101 = 1 %"

# the closing line: io_uring rows only, the rows missed in every round named
cat > "$TMP/table" <<'TAB'
null 4k QD32               100       100       149 dflt    1.49   1.00   1.00   0.50    1.00    0.50    0    0  IOPS 1.490 (1/1)
io_uring 4k rand QD1       100       100        99 dflt    0.99   1.00   1.07   0.50    1.00    0.50    0    0  IOPS 0.990 (2/3), p99 1.075 (2/3)
io_uring randwrite QD32    100       100        96 dflt    0.96   1.00   1.00   0.50    1.00    0.50    0    0  IOPS 0.960 (3/3)
io_uring 4k rand QD4       100       120       121 tuned   1.01   1.00   1.00   0.50    1.00    0.50    0    0  met
loop io_uring QD32         100       100       100 dflt    1.00   1.00   1.00   0.50    1.00    0.50    0    0  met
psync 4k rand QD1          100         0        90 dflt    0.90   1.00   1.00   0.50    1.00    0.50    0    0  IOPS 0.900 (1/1)
TAB
is "$(closing "$TMP/table")" \
	"io_uring rows: 2 of 4 within every target (missed: io_uring 4k rand QD1; io_uring randwrite QD32); missed in every round: io_uring randwrite QD32" \
	"closing: 4 io_uring rows (the loop's too), 2 missed, the one missed in every round named"
grep -v randwrite "$TMP/table" > "$TMP/table2"
like "$(closing "$TMP/table2")" "2 of 3 .*; none missed in every round$" "closing: no row missed in every round"
# the sampler's cost: the median of each round's ratio, not the ratio of medians
printf 'on\t60\t1\noff\t100\t1\non\t100\t1\noff\t59\t1\non\t101\t1\noff\t102\t1\n' > "$TMP/sampler"
is "$(sampler_summary "$TMP/sampler")" \
	"sampler cost (null 4k QD32, 3 paired rounds): -1.0%, the median of the rounds with it against without (HBATEST_NO_SAMPLER=1); rounds -40.0% to +69.5%; too few rounds for a 95 % interval of the median; medians 100 and 100 IOPS; target (under 1 % either way): met (by the median alone: no interval)" \
	"sampler: rounds 0.600, 1.695, 0.990, median -1.0 % (the two medians, 100 and 100, would say 0)"
printf 'on\t60\t1\noff\t100\t1\non\t100\t1\n' > "$TMP/sampler"
is "$(sampler_summary "$TMP/sampler"; echo "exit $?")" "sampler cost: no paired rounds
exit 1" "sampler: a round without its pair is an error, not a figure"
# an even count (BENCH_ROUNDS even: bench.sh runs 3 x it): the mean of the two middle values
printf 'on\t100\noff\t100\non\t90\noff\t100\non\t80\noff\t100\non\t120\noff\t100\n' > "$TMP/sampler"
is "$(sampler_summary "$TMP/sampler")" \
	"sampler cost (null 4k QD32, 4 paired rounds): -5.0%, the median of the rounds with it against without (HBATEST_NO_SAMPLER=1); rounds -20.0% to +20.0%; too few rounds for a 95 % interval of the median; medians 95 and 100 IOPS; target (under 1 % either way): missed (by the median alone: no interval)" \
	"sampler: 4 rounds 1.0, 0.9, 0.8, 1.2: median 0.95 (the mean of 0.9 and 1.0), medians 95 and 100"
: > "$TMP/sampler"
is "$(sampler_summary "$TMP/sampler"; echo "exit $?")" "sampler cost: no paired rounds
exit 1" "sampler: no rounds at all is an error"
# the median's interval from the rounds in order: 10 rounds, the 2nd and the 9th
# (P(Binomial(10, 1/2) <= 1) = 11/1024, so 1 - 22/1024 = 97.9 %); 30: the 10th and 21st
sampler_rounds() {	# sampler_rounds ON...: each against an off run of 1000
	local on
	for on; do printf 'on\t%s\noff\t1000\n' "$on"; done > "$TMP/sampler"
}
sampler_rounds 970 1040 980 994 1005 1000 1010 990 1020 985
like "$(sampler_summary "$TMP/sampler")" \
	"^sampler cost \\(null 4k QD32, 10 paired rounds\\): -0\\.3%.* rounds -3\\.0% to \\+4\\.0%; the median's 97\\.9 % interval -2\\.0% to \\+2\\.0% \\(rounds 2 and 9 in order\\); .*: met \\(by the median; its interval reaches past 1 %\\)$" \
	"sampler: 10 rounds, median -0.3 %: the interval is the 2nd and 9th lowest (-2 %, +2 %), met by the median, the interval past 1 % said"
sampler_rounds 997 1003 995 1002 999 1001 1004 996 998 1000
like "$(sampler_summary "$TMP/sampler")" "interval -0\\.4% to \\+0\\.3%.*: met$" \
	"sampler: 10 rounds within 0.5 %: met, nothing to add"
sampler_rounds $(seq 1001 1030)
like "$(sampler_summary "$TMP/sampler")" \
	"the median's 95\\.7 % interval \\+1\\.0% to \\+2\\.1% \\(rounds 10 and 21 in order\\); .*: missed$" \
	"sampler: 30 rounds +0.1 % to +3.0 %: the 10th and 21st (+1.0 %, +2.1 %); a miss whose interval is all above 0"
sampler_rounds 970 1040 980 1015 1019 1030 1010 990 1020 1025
like "$(sampler_summary "$TMP/sampler")" \
	" \\+1\\.7%, .*interval -2\\.0% to \\+3\\.0%.*: missed \\(the interval holds 0 %: not told apart from no cost\\)$" \
	"sampler: median +1.7 % misses; its interval -2 % to +3 % holds no cost, and the line says so"
sampler_rounds 970 980 975 985 990 960 995 965 980 1010
like "$(sampler_summary "$TMP/sampler")" " -2\\.0%, .*interval -3\\.5% to -0\\.5%.*: missed$" \
	"sampler: median -2.0 %, its interval -3.5 % to -0.5 % below 0: missed, without the no-cost remark"
printf 'on\t100\noff\t0\n' > "$TMP/sampler"
is "$(sampler_summary "$TMP/sampler"; echo "exit $?")" "sampler cost: round 1 has no IOPS
exit 1" "sampler: a run of no IOPS is an error, not a -100 % round"
# hb busy: the median of hbatest's cpu_busy (an 8th field of its runs), "-" when a run has none
printf 'd\t100\t10\t20\t1\t100000\t10\nh\t100\t10\t20\t0.5\t100000\t10\t0.99\nh\t100\t10\t20\t0.5\t100000\t10\t0.30\nh\t100\t10\t20\t0.5\t100000\t10\t0.95\n' > "$TMP/rows"
is "$(summary "io_uring QD32" io_uring "$TMP/rows" | awk '{ print $(NF - 1) }')" "0.95" \
	"hb busy: the median of hbatest's three cpu_busy (0.30, 0.95, 0.99)"
printf 'd\t100\t10\t20\t1\t100000\t10\nh\t100\t10\t20\t0.5\t100000\t10\t\n' > "$TMP/rows"
is "$(summary "sim" io_uring "$TMP/rows" | awk '{ print $(NF - 1) }')" "-" "hb busy: '-' when a run has none (NULL)"
done_testing
