# Latency over a sweep: mean (solid) and p99 (dashed) per run, log y axis.
# Columns: x, value, mean latency (us), p99 latency (us). Variables: xlabel, logx,
# ylo and yhi (the lowest and highest latency; optional), key3 and key4 (what
# the two latency columns are, after each run's title; ' mean' and ' p99'
# unless given: a write-mix sweep's reads' and writes' p99).
set title chart_title
set xlabel xlabel
set ylabel 'latency (µs, log scale)'
set border 3 lc rgb '#444444'
set tics nomirror
set grid ytics mytics lc rgb '#dddddd' lw 1
set key at screen 0.5, screen 0.01 center bottom horizontal samplen 3
set bmargin key_margin
set logscale y
set ytics (0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000, 200000, 500000, 1000000)
if (logx) { set logscale x 2; set xtics 2 } else { unset logscale x; set xtics autofreq }
set autoscale xfix
set offsets graph 0.03, graph 0.03, 0, 0
# the y axis from the tic below the lowest point (ylo) to the one above the
# highest (yhi), not to whole decades
if (exists('ylo') && exists('yhi')) { set yrange [lo125(ylo):hi125(yhi)] }
key3 = exists('key3') ? key3 : ' mean'
key4 = exists('key4') ? key4 : ' p99'
plot for [i=1:nseries] datafile index (i-1) using 1:3 with linespoints \
     lw 2.5 pt 7 ps 1.0 lc rgb colors[i] title key(i, key3), \
     for [i=1:nseries] datafile index (i-1) using 1:4 with linespoints \
     lw 2 dt 2 pt 6 ps 1.0 lc rgb colors[i] title key(i, key4)
