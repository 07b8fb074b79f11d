#!/usr/bin/env bash
# make bench's fio profile, ceiling and null-per-core rows
# (tests/dev/bench-ceiling.sh): the verdicts on runs of made-up figures
# (bench-ceiling-summary.sh: the reference fio run, the paired ratios, the
# targets), then the script itself, one row at a time with 1 s runs and one
# round, printing its fields. No timing threshold: the figures of a real run
# are not judged here.
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/dev/bench-ceiling-summary.sh"

# run ROUND NAME IOPS CPU: one run of 100,000 I/Os, p50 10 us, p99 20 us
runs() { : > "$TMP/rows"; }
run() { printf '%s\t%s\t%s\t10\t20\t%s\t100000\n' "$1" "$2" "$3" "$4" >> "$TMP/rows"; }
line() { ceiling_summary "$1" "$2" "${3:-2}" "$TMP/rows" | grep -F -- "$4" | sed 's/.*  //'; }

# fio profile: against fio's defaults, within 3 % either way
runs
run 0 "fio dflt" 100 1; run 0 "hb preset fio" 102 0.8
run 1 "hb preset fio" 90 0.8; run 1 "fio dflt" 100 1
run 2 "fio dflt" 200 1; run 2 "hb preset fio" 196 0.8
is "$(line "fio profile io_uring QD1" profile 2 "hb preset fio")" \
	"IOPS 0.980x, CPU/I/O 0.800x fio dflt: met (IOPS within 3 %)" \
	"profile: the median of the rounds' ratios (1.02, 0.90, 0.98), met at 0.98"
run 3 "fio dflt" 100 1; run 3 "hb preset fio" 80 0.8
run 4 "fio dflt" 100 1; run 4 "hb preset fio" 104 0.8
is "$(line "fio profile io_uring QD1" profile 2 "hb preset fio")" \
	"IOPS 0.980x, CPU/I/O 0.800x fio dflt: met (IOPS within 3 %)" "five rounds: the third of 0.80 0.90 0.98 1.02 1.04"
runs
run 0 "fio dflt" 100 1; run 0 "hb preset fio" 104 1
is "$(line x profile 2 "hb preset fio")" "IOPS 1.040x, CPU/I/O 1.000x fio dflt: missed (IOPS within 3 %)" \
	"profile: 4 % faster than fio is a miss too (the preset is to match it)"

# ceiling: the best fio variant by median IOPS is the reference
runs
for r in 0 1 2; do
	run $r "fio 1x32" 100 1; run $r "fio 2x128" $((200 + r)) 2
	run $r "hb default" $((198 + r)) 1.9; run $r "hb 2 workers" 150 1.5
done
is "$(line ceiling ceiling 2 "fio 2x128  ")" "reference (best fio)" "ceiling: fio's best variant is the reference"
is "$(line ceiling ceiling 2 "hb default")" \
	"IOPS 0.990x, CPU/I/O 0.950x fio 2x128: met (IOPS >= 0.98x, CPU/I/O <= 1.00x)" \
	"ceiling: hbatest at 0.99x the best with less CPU per I/O: met"
is "$(line ceiling ceiling 2 "hb 2 workers")" \
	"IOPS 0.746x, CPU/I/O 0.750x fio 2x128: missed (IOPS >= 0.98x, CPU/I/O <= 1.00x)" \
	"ceiling: below 0.98x: missed"
runs
run 0 "fio 1x32" 100 1; run 0 "hb default" 100 1.2
is "$(line ceiling ceiling 2 "hb default")" \
	"IOPS 1.000x, CPU/I/O 1.200x fio 1x32: missed (IOPS >= 0.98x, CPU/I/O <= 1.00x)" \
	"ceiling: as many IOPS with more CPU per I/O: missed"

# null per core: IOPS divided by the CPUs, against the better fio
runs
run 0 "fio dflt" 400 1; run 0 "fio tuned" 800 1; run 0 "hb" 1600 0.5
is "$(ceiling_summary "null per core" null 4 "$TMP/rows" | awk '$1 == "hb" { print $2 }')" 400 \
	"null: hbatest's IOPS per core (1600 over 4 CPUs)"
is "$(line "null per core" null 4 "hb ")" "IOPS 2.000x, CPU/I/O 0.500x fio tuned: met (IOPS >= 1.50x)" \
	"null: against the better fio, the target 1.50x"

# BENCH_SCHED=1: a run's I/O thread from perf sched timehist --state (time,
# [cpu], comm[tid/pid], wait, sch delay, run in ms, the state at the switch-
# out). The tool is pid 100 (sh before its exec), its forked job 101; 200 is
# another program's. The main thread ran more than the job (fio's start-up)
# but is not the I/O thread.
cat > "$TMP/timehist" <<'TH'
           time    cpu  task name                       wait time  sch delay   run time
                        [tid/pid]                          (msec)     (msec)     (msec)
--------------- ------  ------------------------------  ---------  ---------  ---------
       1.000000 [0000]  sh[100]                             0.000      0.000      1.000      R
       1.001000 [0000]  fio[100]                            0.000      0.000    100.000      S
       1.100000 [0001]  fio[101]                            0.000      0.000     10.000      R
       1.200000 [0001]  fio[101]                            5.000      1.000     10.000      S
       1.300000 [0000]  fio[101]                           20.000      2.000     10.000      D
       1.400000 [0000]  fio[101]                            8.000      0.500     30.000      S
       1.500000 [0001]  fio[200]                            0.000      9.000    500.000      R
       1.600000 [0001]  fio[300/200]                        9.000      9.000    500.000      S
TH
# 1,000 I/Os in 2 s: on a CPU 60 ms (20 on CPU 1, 40 on CPU 0), runnable 8.5
# (the delays 1 + 2 + 0.5 and the 5 after the preemption), asleep 28 (after
# S and D), 4 switch-ins, one migration (CPU 1 to 0)
is "$(sched_split "fio dflt" 1000 2 2 "100 101" < "$TMP/timehist")" \
	"fio dflt	60.00	8.50	28.00	4.0	0.5	0:67% 1:33%" \
	"sched: the job's time per I/O on a CPU, runnable (a preempted wait too), asleep; not the main thread's, not another program's"
is "$(sched_split "hb" 1000 2 2 "400" < "$TMP/timehist")" "hb	-	-	-	-	-	-" \
	"sched: no task of the run, no figures"
sched_split "fio dflt" 1000 2 2 "100 101" < "$TMP/timehist" > "$TMP/sched"
sched_split "fio dflt" 500 2 2 "100 101" < "$TMP/timehist" >> "$TMP/sched"
sched_split "fio dflt" 2000 2 2 "100 101" < "$TMP/timehist" >> "$TMP/sched"
is "$(sched_table "fio profile x" "$TMP/sched" | sed 's/^fio profile x  *fio dflt  *//')" \
	"60.00      8.50    28.00        4.0      0.5  0:67% 1:33%" \
	"sched: a variant's line, the medians of its rounds (the 1,000-I/O run's of 500, 1,000, 2,000)"

# the script: each kind of row alone, 1 s runs, one round, a 16 MiB file
if command -v fio >/dev/null && command -v jq >/dev/null; then
	bench() {
		BENCH_DIR=$TMP BENCH_SECS=1 BENCH_ROUNDS=1 BENCH_SIZE_MB=16 BENCH_ROWS=$1 \
			bash "$ROOT/tests/dev/bench-ceiling.sh" 2>"$TMP/bench.err"
	}
	out=$(bench 'fio profile io_uring QD1'); ok $? "BENCH_ROWS='fio profile io_uring QD1' runs"
	like "$out" "fio profile io_uring QD1 +fio dflt +[0-9]+ " "its fio line: the row, the run, IOPS"
	like "$out" "hb preset fio +[0-9]+ .* IOPS [0-9.]+x, CPU/I/O [0-9.]+x fio dflt: (met|missed)" \
		"its hbatest line: IOPS, the ratios against fio's defaults and the verdict"
	is "$(grep -c '^ceiling\|^null\|libaio' <<<"$out")" 0 "and no other row"
	out=$(bench 'null per core'); ok $? "BENCH_ROWS='null per core' runs"
	like "$out" "hb +[0-9]+ .* IOPS [0-9.]+x, CPU/I/O [0-9.]+x fio (dflt|tuned): (met|missed) \(IOPS >= 1.50x\)" \
		"its hbatest line against the better fio"
	# BENCH_CALLS=1: the preset makes the calls fio makes, one io_submit and
	# one io_getevents per I/O each (within 10 %: the start and the drain)
	if perf stat -e syscalls:sys_enter_io_submit -o /dev/null -- true 2>/dev/null; then
		out=$(BENCH_CALLS=1 bench 'fio profile libaio'); ok $? "BENCH_CALLS=1 BENCH_ROWS='fio profile libaio' runs"
		# calls RUN: its io_submit and io_getevents per I/O (the last line naming it)
		calls() { awk -v r="$1" 'index($0, r) { print $(NF - 2), $(NF - 1) }' <<<"$out" | tail -1; }
		like "$out" "calls per I/O +run +io_submit +io_getevents +io_uring_enter" "the table of calls after the rows"
		for r in "fio dflt" "hb preset fio"; do
			c=$(calls "$r")
			ok "$(awk '{ print !($1 >= 0.9 && $1 <= 1.1 && $2 >= 0.9 && $2 <= 1.1) }' <<<"${c:-0 0}")" \
				"libaio QD32, $r: one io_submit and one io_getevents per I/O ($c)"
		done
	else
		skip "perf or its syscall tracepoints are not available"
	fi
	# BENCH_SCHED=1: a line per run of where its I/O thread's time went
	if perf sched record -q -o "$TMP/sched.data" -- true 2>/dev/null; then
		out=$(BENCH_SCHED=1 bench 'fio profile io_uring QD32'); ok $? "BENCH_SCHED=1 BENCH_ROWS='fio profile io_uring QD32' runs"
		like "$out" "I/O thread, us per I/O +run +on CPU +runnable +asleep" "the table of the I/O threads after the rows"
		for r in "fio dflt" "hb preset fio"; do
			like "$(grep -F "$r " <<<"$out" | tail -1)" "$r +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +0:[0-9]+%" \
				"$r: its I/O thread's figures, found among its processes"
		done
	else
		skip "perf sched record is not available"
	fi
	out=$(bench 'nothing'); rc=$?
	is "$rc $out" "0 " "a BENCH_ROWS matching none of these rows runs nothing"
	like "$(cat "$TMP/bench.err")" "no row matches BENCH_ROWS 'nothing'" "and says so"
	is "$(ls "$TMP" | grep -c hbatest-ceiling)" 0 "the script leaves no folder behind"
else
	skip "fio or jq is not installed"
fi
done_testing
