# Latency percentiles of one step per run, from its stored histograms: x is
# the percentile on a "nines" axis (50, 90, 99, 99.9, 99.99), y the latency
# on a log axis, one line per run. Columns: nines (-log10(1 - p/100)), latency (us), p.
set title chart_title
set xlabel 'percentile'
set ylabel 'latency (µs, log scale)'
set border 3 lc rgb '#444444'
set tics nomirror
set grid xtics ytics lc rgb '#dddddd'
set key at screen 0.5, screen 0.01 center bottom horizontal samplen 3
set bmargin key_margin
set logscale y
set ytics (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000, 200000, 500000, 1000000)
set xtics ('p50' 0.30103, 'p90' 1, 'p99' 2, 'p99.9' 3, 'p99.99' 4)
set xrange [0.15:4.15]
plot for [i=1:nseries] datafile index (i-1) using 1:2 with linespoints lw 2.5 pt 7 ps 1.1 \
     lc rgb colors[i] title key(i, '')
