# A sweep: x = the swept value (OIO on a log2 axis, or write %), y = column
# ycol (IOPS or MB/s), one line per run. Variables: xlabel, ylabel, ycol, logx.
set title chart_title
set xlabel xlabel
set ylabel ylabel
set border 3 lc rgb '#444444'
set tics nomirror
set grid ytics lc rgb '#dddddd' lw 1
set key at screen 0.5, screen 0.01 center bottom horizontal samplen 3
set bmargin key_margin
set yrange [0:*]
set format y '%.0f'
if (logx) { set logscale x 2; set xtics 2 } else { unset logscale x; set xtics autofreq }
set autoscale xfix
set offsets graph 0.03, graph 0.03, graph 0.05, 0
plot for [i=1:nseries] datafile index (i-1) using 1:ycol with linespoints \
     lw 2.5 pt 7 ps 1.1 lc rgb colors[i] title key(i, '')
