# The rows' lines and verdicts for tests/dev/bench-ceiling.sh, apart so that
# tests/bench_ceiling.t can check them on runs of made-up figures.
# A row's runs, one per line: ROUND TAB RUN (its variant: "fio dflt", "fio
# 2x128", "hb default", ...) TAB iops TAB p50_us TAB p99_us TAB cpu_s TAB ios.

# ceiling_summary LABEL KIND NCPU ROWS: a line per variant with its medians
# over the rounds (IOPS, p50, p99, CPU seconds, CPU seconds per million I/Os)
# and its IOPS spread ((max - min) / 2, % of the median); on each hbatest
# line the ratios against fio's reference, each the median of the rounds'
# ratios (the run against the reference's run of the same round), and the
# verdict, judged unrounded. KIND profile: the reference is "fio dflt", the
# target IOPS within 3 % either way. ceiling: the fio variant of the highest
# median IOPS, the target IOPS at least 0.98x with CPU per I/O at most 1.00x.
# null: the better of the fio variants; IOPS per core (divided by NCPU), the
# target 1.50x (issue 13's for the null engine).
ceiling_summary() {
	awk -v label="$1" -v kind="$2" -v ncpu="$3" -F'\t' '
		function sort_n(v, n,   i, j, t) {
			for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
				if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
			return n
		}
		function median(v, n) { sort_n(v, n); return n ? v[int((n + 1) / 2)] : -1 }
		function med(name, col,   n, i, v) {
			n = 0
			for (i = 1; i <= rows; i++) if (who[i] == name) v[++n] = val[i, col]
			return median(v, n)
		}
		# the median of the rounds ratio of col: name against ref
		function paired(name, ref, col,   n, i, j, v) {
			n = 0
			for (i = 1; i <= rows; i++) if (who[i] == name)
				for (j = 1; j <= rows; j++)
					if (who[j] == ref && round[j] == round[i] && val[j, col] > 0)
						v[++n] = val[i, col] / val[j, col]
			return median(v, n)
		}
		function spread(name,   n, i, lo, hi, m) {
			n = 0
			for (i = 1; i <= rows; i++) if (who[i] == name) {
				if (!n || val[i, 1] < lo) lo = val[i, 1]
				if (!n || val[i, 1] > hi) hi = val[i, 1]
				n++
			}
			m = med(name, 1)
			return m > 0 ? (hi - lo) / 2 / m * 100 : 0
		}
		{
			rows++; round[rows] = $1; who[rows] = $2
			for (c = 1; c <= 5; c++) val[rows, c] = $(c + 2)
			val[rows, 6] = $7 > 0 ? $6 / $7 * 1e6 : 0	# CPU s per million I/Os
			if (!($2 in seen)) { seen[$2] = 1; order[++nv] = $2 }
		}
		END {
			per = kind == "null" ? ncpu : 1
			ref = ""
			for (k = 1; k <= nv; k++) {
				v = order[k]
				if (v !~ /^fio/) continue
				if (kind == "profile" && v != "fio dflt") continue
				if (ref == "" || med(v, 1) > med(ref, 1)) ref = v
			}
			for (k = 1; k <= nv; k++) {
				v = order[k]
				line = sprintf("%-28s %-14s %10.0f %7.1f %7.1f %8.2f %8.2f %6.0f", k == 1 ? label : "",
					v, med(v, 1) / per, med(v, 2), med(v, 3), med(v, 4), med(v, 6), spread(v))
				if (v ~ /^fio/) {
					if (v == ref) line = line "  reference" (kind == "profile" ? "" : " (best fio)")
					print line
					continue
				}
				if (ref == "") { print line "  no fio run"; continue }
				io = paired(v, ref, 1); cpu = paired(v, ref, 6)
				line = line sprintf("  IOPS %.3fx, CPU/I/O %.3fx %s", io, cpu, ref)
				if (kind == "profile") ok = io >= 0.97 && io <= 1.03
				else if (kind == "ceiling") ok = io >= 0.98 && cpu <= 1.0
				else ok = io >= 1.5
				target = kind == "profile" ? "IOPS within 3 %" : kind == "ceiling" ? \
					"IOPS >= 0.98x, CPU/I/O <= 1.00x" : "IOPS >= 1.50x"
				print line ": " (ok ? "met" : "missed") " (" target ")"
			}
			if (kind == "null") printf "%-28s IOPS per core (%d CPUs, one worker/job each)\n", "", ncpu
		}' "$4"
}

# sched_split RUN IOS SECS NCPU PIDS: BENCH_SCHED=1's line for one run, from
# `perf sched timehist --state` on stdin (time [cpu] comm[tid/pid] wait delay
# run state, times in ms, one line per switch-out). The I/O thread is the
# task of the run's processes (PIDS, space-separated: the tool's first, then
# the processes it forked, fio's job) with the most run time, the tool's
# main thread (fio's parent, hbatest's main: their start-up, clock
# calibration, database) only if there is no other; per I/O of the run
# (IOS), in us: its time on a CPU, runnable but waiting for one (the wakeup's
# delay, and the wait after a switch-out in state R, preempted), asleep (the
# wait after a switch-out in any other state: waiting for completions); its
# switch-ins per 1,000 I/Os, its migrations (a switch-out on another CPU than
# the last) per second of SECS, and its run time's share on each of the
# NCPU CPUs.
# Prints RUN TAB oncpu TAB runnable TAB asleep TAB switches TAB migr/s TAB shares.
sched_split() {
	awk -v run="$1" -v ios="$2" -v secs="$3" -v ncpu="$4" -v pids="$5" '
		BEGIN { n = split(pids, p, " "); for (i = 1; i <= n; i++) mine[p[i]] = 1; main = "[" p[1] "]" }
		NF == 7 && $3 ~ /\[[0-9\/]+\]$/ {
			pid = $3; sub(/\]$/, "", pid); sub(/.*[\[\/]/, "", pid)
			if (!(pid in mine)) next
			k = $3; sub(/.*\[/, "[", k)	# a task by its [tid/pid]: sh before its exec, then the tool
			c = $2; gsub(/[^0-9]/, "", c); c += 0
			sw[k]++; run_ms[k] += $6; on[k, c] += $6; wait_r[k] += $5
			if (last_state[k] == "R") wait_r[k] += $4; else sleep_ms[k] += $4
			if ((k in last_cpu) && last_cpu[k] != c) mig[k]++
			last_cpu[k] = c; last_state[k] = $7
		}
		END {
			for (k in sw) if (k != main && (io == "" || run_ms[k] > run_ms[io])) io = k
			if (io == "" && (main in sw)) io = main
			if (io == "" || ios < 1) { printf "%s\t-\t-\t-\t-\t-\t-\n", run; exit }
			shares = ""
			for (c = 0; c < ncpu; c++)
				shares = shares sprintf("%s%d:%.0f%%", c ? " " : "", c,
					run_ms[io] > 0 ? on[io, c] / run_ms[io] * 100 : 0)
			printf "%s\t%.2f\t%.2f\t%.2f\t%.1f\t%.1f\t%s\n", run, run_ms[io] * 1000 / ios,
				wait_r[io] * 1000 / ios, sleep_ms[io] * 1000 / ios, sw[io] * 1000 / ios,
				mig[io] / secs, shares
		}'
}

# sched_table LABEL FILE: BENCH_SCHED=1's lines of a row (sched_split's, one
# per run) as a line per variant, each column the median of its rounds, the
# shares of each CPU their mean (so that they add up to 100 %)
sched_table() {
	awk -F'\t' -v label="$1" '
		function median(name, col,   n, i, j, t, v) {
			n = 0
			for (i = 1; i <= rows; i++) if (who[i] == name && val[i, col] != "-") v[++n] = val[i, col] + 0
			for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
			return n ? v[int((n + 1) / 2)] : -1
		}
		function mean(name, col,   n, i, s) {
			for (i = 1; i <= rows; i++) if (who[i] == name && val[i, 2] != "-") { s += val[i, col]; n++ }
			return n ? s / n : 0
		}
		{
			rows++; who[rows] = $1
			for (c = 2; c <= 6; c++) val[rows, c] = $c
			nc = split($7, sh, " ")
			for (c = 1; c <= nc; c++) { split(sh[c], kv, ":"); val[rows, 7 + c] = kv[2] + 0 }
			if (!($1 in seen)) { seen[$1] = 1; order[++nv] = $1 }
		}
		END {
			for (k = 1; k <= nv; k++) {
				v = order[k]; shares = ""
				for (c = 1; c <= nc; c++) shares = shares sprintf("%s%d:%.0f%%", c > 1 ? " " : "", c - 1, mean(v, 7 + c))
				printf "%-28s %-14s %8.2f %9.2f %8.2f %10.1f %8.1f  %s\n", k == 1 ? label : "", v,
				       median(v, 2), median(v, 3), median(v, 4), median(v, 5), median(v, 6), shares
			}
		}' "$2"
}
