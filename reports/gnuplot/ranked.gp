# Ranked bars: the runs at one point of a sweep, best on top, one colour per
# run, each bar labelled with its value and its delta against the baseline.
# Columns: position (1 = the bottom bar), value, label, run name.
# Variables: xlabel, xmax, xtv and xtl (the x tics' values and labels:
# 200k, 1.2M), nbars, pattern (optional: each series' fill pattern in its
# colour, 0 solid, 4 and 5 diagonals..., as bars.gp: runs differ in a
# greyscale print; solid without).
set title chart_title
set xlabel xlabel
set border 3 lc rgb '#444444'
set tics nomirror
set grid xtics lc rgb '#dddddd' lw 1
unset key
set style fill solid 0.9 noborder
set xrange [0:xmax]
set yrange [0.4:nbars + 0.6]
set xtics scale 1 ()
do for [k=1:|xtv|] { set xtics add (xtl[k] xtv[k]) }
set ytics scale 0
hatch(i) = !exists('pattern') || pattern[i] == 0 ? 3 : pattern[i]
plot for [i=1:nseries] datafile index (i-1) \
       using ($2 / 2):1:(0):2:($1 - 0.35):($1 + 0.35):ytic(strcol(4)) with boxxyerror \
       fs pattern hatch(i) border lc rgb colors[i] lc rgb colors[i] notitle, \
     for [i=1:nseries] datafile index (i-1) using 2:1:3 with labels left offset 0.6,0 \
       font small_font notitle
