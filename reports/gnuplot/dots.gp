# Every second of each point of a sweep as a dot (the measurement window,
# ramp left out), one band per run inside each point, and the point's average
# as a line across its band: the style of published OIO charts.
# Each run its colour and point type; its averages its dash, the key's last
# entry saying what the lines are.
# Columns: x, value, swept value, average. Variables: xlabel, ylabel, levels,
# ytv, ytl, ylo, yhi (optional: the y axis).
set title chart_title
set xlabel xlabel
set ylabel ylabel
set border 3 lc rgb '#444444'
set tics nomirror
set grid ytics lc rgb '#dddddd'
# the key under the plot: top left, inside, it sat on the first OIO's dots
# (their band is the plot's height where the axis starts at the lowest)
set key at screen 0.5, screen 0.01 center bottom horizontal samplen 3
set bmargin key_margin
set yrange [0:*]
set offsets 0, 0, graph 0.06, 0
# the y ticks and range the report chose (ytv, ytl: values and labels as 800k, 1.2M;
# ylo, yhi; ylog 1: a log axis)
if (exists('ytv')) { set ytics (); do for [k=1:|ytv|] { set ytics add (ytl[k] ytv[k]) }; set yrange [ylo:yhi] }
if (exists('ylog') && ylog) { set logscale y }
set xtics scale 0 ()
do for [k=1:|levels|] { set xtics add (sprintf('%g', levels[k]) k - 0.5) }
set xrange [0:|levels|]
plot for [i=1:nseries] datafile index (i-1) using 1:2 with points pt ptype[i] ps 0.5 \
       lc rgb colors[i] title key(i, ''), \
     for [i=1:nseries] datafile index (i-1) using 1:4 with lines lw 3.5 lc rgb '#222222' \
       notitle, \
     for [i=1:nseries] datafile index (i-1) using 1:4 with lines lw 2 dt dtype[i] lc rgb colors[i] notitle, \
     keyentry with lines lw 3.5 lc rgb '#222222' title "each point's average"
