# Stacked bars: one bar per run (and step), a stack per controller (series i:
# the i-th controller of each bar), the bar's total above it, and a dashed
# line over the bar at the sum of its controllers' PCIe link ceilings.
# Columns: x of the bar, the stack's value (NaN: the bar has no i-th
# controller), its bottom, its top, its value as printed (or empty), the bar's
# name under it (series 1; else empty), the bar's total, printed, the ceiling
# (NaN: not known), its label, the cluster's name (on its first bar, when
# several runs share a cluster; else empty), the cluster's centre, the y of
# the ceiling's label.
# Variables: ylabel, ymax, ytv and ytl (the y tics and their labels), xmax
# (the last bar's x), has_ceiling (1: the key names the dashed line),
# clusters (1: the clusters' names go under the bars' names).
set title chart_title
set ylabel ylabel
set border 3 lc rgb '#444444'
set tics nomirror
set grid ytics lc rgb '#dddddd'
if (key_inside) { set key inside top left vertical opaque box lc rgb '#cccccc' } else { set key at screen 0.5, screen 0.01 center bottom horizontal }
set style fill solid 0.9 border lc rgb '#ffffff'
set yrange [0:ymax]
set ytics ()
do for [k=1:|ytv|] { set ytics add (ytl[k] ytv[k]) }
set xrange [-0.7:xmax + 0.7]
set xtics scale 0
set bmargin (key_inside ? 2 : key_margin - 1) + 1 + clusters * 1.5
bw = 0.7
# NaN cells: the box is skipped (1/0), labels are put at 0 with empty text,
# never undefined (gnuplot 5.4 crashes on labels whose every point is).
known(c) = strcol(c) eq 'NaN' ? 1/0 : column(c)
or0(c) = strcol(c) eq 'NaN' ? 0 : column(c)
text(c) = strcol(c) eq 'NaN' ? '' : strcol(c)
plot datafile index 0 using 1:(NaN):xtic(text(6)) notitle, \
     for [i=1:nseries] datafile index (i-1) \
       using 1:((column(3) + column(4)) / 2):($1 - bw / 2):($1 + bw / 2):3:(known(2) == known(2) ? column(4) : 1/0) \
       with boxxyerror lc rgb colors[i] title key(i, ''), \
     for [i=1:nseries] datafile index (i-1) using 1:((column(3) + column(4)) / 2):(text(5)) \
       with labels font small_font notitle, \
     datafile index 0 using 1:(or0(7)):(text(8)) with labels offset 0,0.7 font small_font notitle, \
     datafile index 0 using ($1 - bw / 2 - 0.08):(known(9)):(bw + 0.16):(0) \
       with vectors nohead dt 2 lw 2.5 lc rgb '#000000' title (has_ceiling ? 'sum of the PCIe link ceilings' : ''), \
     datafile index 0 using 1:(or0(13)):(text(10)) with labels offset 0,0.7 font small_font notitle, \
     datafile index 0 using (or0(12)):(0):(text(11)) with labels offset 0,-2.2 notitle
