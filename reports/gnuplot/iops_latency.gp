# Latency over throughput: per run its OIO sweep as two curves, mean latency
# (solid, filled points) and p99 (dashed, open points), each run its colour
# and its own point shape, the mean's points labelled with their OIO.
# Columns: IOPS (or MB/s), mean latency (us), p99 latency (us), OIO, where
# its label goes: below, right or left of the point (the report picks the
# side no line to a neighbour crosses).
# Variables: xlabel, ylabel, xmax, xtv and xtl (x tics' values and labels),
# ytv and ytl (y's), ylo, yhi, logy (1: log y axis).
set title chart_title
set xlabel xlabel
set ylabel ylabel
set border 3 lc rgb '#444444'
set tics nomirror
set grid xtics ytics lc rgb '#dddddd' lw 1
# the key under the plot: top left, it hid a card's highest OIO where its
# curve turns back to the left (the ASR-8885's 256 at 800x450)
set key at screen 0.5, screen 0.01 center bottom horizontal Left reverse samplen 3
set bmargin key_margin
if (logy) { set logscale y } else { unset logscale y }
set xrange [0:xmax]
set yrange [ylo:yhi]
set xtics scale 1 ()
do for [k=1:|xtv|] { set xtics add (xtl[k] xtv[k]) }
set ytics scale 1 ()
do for [k=1:|ytv|] { set ytics add (ytl[k] ytv[k]) }
# per run a shape, filled for the mean and open for p99
array filled[6] = [7, 5, 9, 13, 11, 15]
array open[6] = [6, 4, 8, 12, 10, 14]
shape(i) = (i - 1) % 6 + 1
# a point's OIO in the labels of its side, empty in the others (never
# undefined: gnuplot 5.4 crashes on labels whose every point is)
side(s) = strcol(5) eq s ? strcol(4) : ''
plot for [i=1:nseries] datafile index (i-1) using 1:2 with linespoints lw 2.5 dt 1 \
       pt filled[shape(i)] ps 1.3 lc rgb colors[i] title key(i, ' mean'), \
     for [i=1:nseries] datafile index (i-1) using 1:3 with linespoints lw 2 dt 2 \
       pt open[shape(i)] ps 1.3 lc rgb colors[i] title key(i, ' p99'), \
     for [i=1:nseries] datafile index (i-1) using 1:2:(side('below')) with labels \
       offset 0,-1.1 font small_font tc rgb colors[i] notitle, \
     for [i=1:nseries] datafile index (i-1) using 1:2:(side('right')) with labels \
       left offset 1,0 font small_font tc rgb colors[i] notitle, \
     for [i=1:nseries] datafile index (i-1) using 1:2:(side('left')) with labels \
       right offset -1,0 font small_font tc rgb colors[i] notitle
