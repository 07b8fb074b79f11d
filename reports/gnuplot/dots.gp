# Every second of each point of a sweep as a dot (the measurement window,
# ramp left out), one band per run inside each point, and the point's average
# as a line across its band: the style of published OIO charts.
# Columns: x, value, swept value, average. Variables: xlabel, ylabel, levels.
set title chart_title
set xlabel xlabel
set ylabel ylabel
set border 3 lc rgb '#444444'
set tics nomirror
set grid ytics lc rgb '#dddddd'
set key at screen 0.5, screen 0.01 center bottom horizontal samplen 3
set bmargin key_margin
set yrange [0:*]
set offsets 0, 0, graph 0.06, 0
set format y '%.0f'
set xtics scale 0 ()
do for [k=1:|levels|] { set xtics add (sprintf('%g', levels[k]) k - 0.5) }
set xrange [0:|levels|]
plot for [i=1:nseries] datafile index (i-1) using 1:2 with points pt 7 ps 0.45 \
       lc rgb colors[i] title key(i, ''), \
     for [i=1:nseries] datafile index (i-1) using 1:4 with lines lw 3.5 lc rgb '#222222' \
       notitle, \
     for [i=1:nseries] datafile index (i-1) using 1:4 with lines lw 2 lc rgb colors[i] notitle
