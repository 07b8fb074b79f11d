# Latency over a sweep: mean (solid, filled points) and p99 (dashed, open
# points) per run, each run its colour and point type, log y axis.
# Columns: x, value, mean latency (us), p99 latency (us). Variables: xlabel, logx,
# ytv, ytl, ylo, yhi (the y axis's ticks, labels and range; optional), key3 and key4 (what
# the two latency columns are, after each run's title; ' mean' and ' p99'
# unless given: a write-mix sweep's reads' and writes' p99).
set title chart_title
set xlabel xlabel
set ylabel 'latency (µs, log scale)'
set border 3 lc rgb '#444444'
set tics nomirror
set grid ytics mytics lc rgb '#dddddd' lw 1
# the key inside the plot where the points are not, or under it when it is big (key_inside)
if (key_inside) { set key inside top left vertical opaque box lc rgb '#cccccc' samplen 4 spacing 1.2 } else { set key at screen 0.5, screen 0.01 center bottom horizontal samplen 3; set bmargin key_margin }
set logscale y
set ytics ('0.01' 0.01, '0.1' 0.1, '1' 1, '10' 10, '100' 100, '1,000' 1000, '10k' 10000, '100k' 100000, '1M' 1000000)
if (logx) { set logscale x 2; set xtics 2 } else { unset logscale x; set xtics autofreq }
# xpts: the swept values, each a tick (a log axis's own ticks start where its padding ends)
if (logx && exists('xpts')) { set xtics (); do for [k=1:|xpts|] { set xtics add (sprintf('%g', xpts[k]) xpts[k]) } }
set autoscale xfix
set offsets graph 0.03, graph 0.03, 0, 0
# the y axis from the tic below the lowest point to the one above the highest,
# at least four tics
if (exists('ytv')) { set ytics (); do for [k=1:|ytv|] { set ytics add (ytl[k] ytv[k]) }; set yrange [ylo:yhi] }
key3 = exists('key3') ? key3 : ' mean'
key4 = exists('key4') ? key4 : ' p99'
plot for [i=1:nseries] datafile index (i-1) using 1:3 with linespoints \
     lw 2.5 pt ptype[i] ps 1.2 lc rgb colors[i] title key(i, key3), \
     for [i=1:nseries] datafile index (i-1) using 1:4 with linespoints \
     lw 2 dt 2 pt ptype_open[i] ps 1.2 lc rgb colors[i] title key(i, key4)
