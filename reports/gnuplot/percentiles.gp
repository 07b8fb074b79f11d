# Latency percentiles of one step per run, from its stored histograms: x is
# the percentile on a "nines" axis (50, 90, 99, 99.9, 99.99), y the latency
# on a log axis, one line per run. Columns: nines (-log10(1 - p/100)), latency (us), p.
# Each run its colour, point type and dash. Variables: ytv, ytl, ylo, yhi (the
# y axis's ticks, labels and range; optional).
set title chart_title
set xlabel 'percentile'
set ylabel 'latency (µs, log scale)'
set border 3 lc rgb '#444444'
set tics nomirror
set grid xtics ytics lc rgb '#dddddd'
# the key under the plot: inside, no corner is sure to be free (a run's p99.9
# and p99.99 climb into the bottom right when another's sit far above)
set key at screen 0.5, screen 0.01 center bottom horizontal samplen 3
set bmargin key_margin
set logscale y
set ytics ('0.01' 0.01, '0.1' 0.1, '1' 1, '10' 10, '100' 100, '1,000' 1000, '10k' 10000, '100k' 100000, '1M' 1000000)
set xtics ('p50' 0.30103, 'p90' 1, 'p99' 2, 'p99.9' 3, 'p99.99' 4)
set xrange [0.15:4.15]
# the y axis from the tic below the lowest point to the one above the highest,
# at least four tics
if (exists('ytv')) { set ytics (); do for [k=1:|ytv|] { set ytics add (ytl[k] ytv[k]) }; set yrange [ylo:yhi] }
plot for [i=1:nseries] datafile index (i-1) using 1:2 with linespoints lw 2.5 pt ptype[i] ps 1.3 \
     dt dtype[i] lc rgb colors[i] title key(i, '')
