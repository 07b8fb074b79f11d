# Latency percentiles of one step per run, from its stored histograms: x is
# the percentile on a "nines" axis (50, 90, 99, 99.9, 99.99), y the latency
# on a log axis, one line per run. Columns: nines (-log10(1 - p/100)), latency (us), p.
# Variables: ylo and yhi (the lowest and highest latency; optional).
set title chart_title
set xlabel 'percentile'
set ylabel 'latency (µs, log scale)'
set border 3 lc rgb '#444444'
set tics nomirror
set grid xtics ytics lc rgb '#dddddd'
set key at screen 0.5, screen 0.01 center bottom horizontal samplen 3
set bmargin key_margin
set logscale y
set ytics (0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000, 200000, 500000, 1000000)
set xtics ('p50' 0.30103, 'p90' 1, 'p99' 2, 'p99.9' 3, 'p99.99' 4)
set xrange [0.15:4.15]
# the y axis from the tic below the lowest point (ylo) to the one above the
# highest (yhi), not to whole decades
if (exists('ylo') && exists('yhi')) { set yrange [lo125(ylo):hi125(yhi)] }
plot for [i=1:nseries] datafile index (i-1) using 1:2 with linespoints lw 2.5 pt 7 ps 1.1 \
     lc rgb colors[i] title key(i, '')
