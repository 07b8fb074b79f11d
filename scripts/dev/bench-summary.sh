# The table's verdicts for scripts/dev/bench.sh, apart so that
# tests/bench_summary.t can check them on rows of known figures.
# A row's runs, one per line: TOOL (d: fio defaults, t: fio tuned, h: hbatest)
# TAB iops TAB p50_us TAB p99_us TAB cpu_s TAB ios; the k-th run of each tool
# is round k.

# summary LABEL KIND ROWS: medians of fio default (d), fio tuned (t), hbatest
# (h), the ratios against the better fio, each tool's IOPS spread ((max - min) / 2
# as a percentage of its median) and the targets of issue 13 the row misses,
# judged on the unrounded ratios of the medians: IOPS at least 1.00x (KIND
# null: 1.50x), p50 and p99 at most 1.05x (not null: its latencies are the
# harness's own turnaround), CPU per I/O at most 1.00x. Each miss says in how
# many rounds hbatest missed the same target against that fio's run of the
# same round: 5 of 5 is a sign test's p = 0.03; fewer, the noise could be it.
summary() {
	awk -v label="$1" -v kind="$2" -F'\t' '
		function sorted(tool, col, v,   n, i, j, t) {
			n = 0
			for (i = 1; i <= rows; i++) if (who[i] == tool) v[++n] = val[i, col]
			for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
				if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
			return n
		}
		function med(tool, col,   n, v) {
			n = sorted(tool, col, v)
			return n ? v[int((n + 1) / 2)] : -1
		}
		function spread(tool,   n, v) {
			n = sorted(tool, 2, v)
			return n && v[int((n + 1) / 2)] > 0 ? (v[n] - v[1]) / 2 / v[int((n + 1) / 2)] * 100 : 0
		}
		# the rounds in which hbatest missed the target against the better
		# fio of the same round (the k-th run of each tool is round k)
		function rounds_worse(col, lo, hi,   k, w, r) {
			for (k = 1; k <= nr["h"]; k++) {
				r = val[at["h", k], col] / val[at[b, k], col]
				w += r < lo || r > hi
			}
			return w
		}
		function miss(name, r, ok, col, lo, hi) {
			if (!ok) misses = misses (misses == "" ? "" : ", ") sprintf("%s %.3f (%d/%d)",
				name, r, rounds_worse(col, lo, hi), nr["h"])
		}
		{ rows++; who[rows] = $1; at[$1, ++nr[$1]] = rows
		  for (c = 2; c <= 6; c++) val[rows, c] = $c
		  val[rows, 7] = $6 > 0 ? $5 / $6 * 1e6 : 0 }
		END {
			fd = med("d", 2); ft = med("t", 2)
			b = ft > fd ? "t" : "d"
			iops = med("h", 2) / med(b, 2); cpu = med("h", 7) / med(b, 7)
			p50 = med("h", 3) / med(b, 3); p99 = med("h", 4) / med(b, 4)
			miss("IOPS", iops, iops >= (kind == "null" ? 1.5 : 1), 2, (kind == "null" ? 1.5 : 1), 1e9)
			if (kind != "null") {
				miss("p50", p50, p50 <= 1.05, 3, 0, 1.05)
				miss("p99", p99, p99 <= 1.05, 4, 0, 1.05)
			}
			miss("CPU", cpu, cpu <= 1, 7, 0, 1)
			printf "%-22s %9.0f %9.0f %9.0f %-5s %6.2f %6.2f %6.2f %6.2f %7.2f %7.2f %4.0f %4.0f  %s\n",
				label, fd, (ft > 0 ? ft : 0), med("h", 2), (b == "t" ? "tuned" : "dflt"),
				iops, p50, p99, cpu, med(b, 7), med("h", 7), spread(b), spread("h"),
				misses == "" ? "met" : misses
		}' "$3"
}

# closing TABLE: one line on the io_uring rows of the printed table (a row
# ends in "met" or in its misses, each with "(k/n)" rounds)
closing() {
	awk '/^(loop )?io_uring/ { n++; if ($NF == "met") next
			m++; split($0, f, /  +/); missed = missed "; " f[1]
			line = $0; every = 0
			while (match(line, /\([0-9]+\/[0-9]+\)/)) {
				split(substr(line, RSTART + 1, RLENGTH - 2), k, "/"); every += k[1] == k[2]
				line = substr(line, RSTART + RLENGTH) }
			if (every) { s++; sure = sure "; " f[1] } }
		END { if (n) printf "io_uring rows: %d of %d within every target%s%s\n", n - m, n,
			m ? " (missed: " substr(missed, 3) ")" : "",
			m ? (s ? "; missed in every round: " substr(sure, 3) : "; none missed in every round") : "" }' "$1"
}
