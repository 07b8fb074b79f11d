# A sweep: x = the swept value (OIO on a log2 axis, or write %), y = column
# ycol (IOPS or MB/s), one line per run, each its colour, point type and dash.
# Variables: xlabel, ylabel, ycol, logx, keyright (optional: 1 puts the key top right,
# for a curve that falls), ytv, ytl, ylo, yhi, ylog (optional: the y axis),
# xpts (optional: the x ticks of a log axis, the swept values).
set title chart_title
set xlabel xlabel
set ylabel ylabel
set border 3 lc rgb '#444444'
set tics nomirror
set grid ytics lc rgb '#dddddd' lw 1
# the key inside the plot where the points are not, or under it when it is big (key_inside)
if (key_inside) { set key inside top left vertical opaque box lc rgb '#cccccc' samplen 4 spacing 1.2; if (exists('keyright') && keyright) { set key top right } } else { set key at screen 0.5, screen 0.01 center bottom horizontal samplen 3; set bmargin key_margin }
set yrange [0:*]
# the y ticks and range the report chose (ytv, ytl: values and labels as 800k, 1.2M;
# ylo, yhi; ylog 1: a log axis)
if (exists('ytv')) { set ytics (); do for [k=1:|ytv|] { set ytics add (ytl[k] ytv[k]) }; set yrange [ylo:yhi] }
if (exists('ylog') && ylog) { set logscale y }
if (logx) { set logscale x 2; set xtics 2 } else { unset logscale x; set xtics autofreq }
# xpts: the swept values, each a tick (a log axis's own ticks start where its padding ends)
if (logx && exists('xpts')) { set xtics (); do for [k=1:|xpts|] { set xtics add (sprintf('%g', xpts[k]) xpts[k]) } }
set autoscale xfix
set offsets graph 0.03, graph 0.03, 0, 0
plot for [i=1:nseries] datafile index (i-1) using 1:ycol with linespoints \
     lw 2.5 pt ptype[i] ps 1.3 dt dtype[i] lc rgb colors[i] title key(i, '')
