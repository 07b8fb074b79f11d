# Preconditioning of every run on one chart: each run's seconds as dots
# (its colour and point shape) and their rolling average as a line (its
# colour and dash), over the time since the step began.
# Columns: t (minutes, or hours: xlabel says), value, rolling average.
# Variables: xlabel, ylabel, ymax, ytv and ytl (the y tics' values and
# labels: 200k, 1.2M), dot (the dots' size), mark_every (a shape on the
# average line every so many points, as in the key).
set title chart_title
set xlabel xlabel
set ylabel ylabel
set border 3 lc rgb '#444444'
set tics nomirror
set grid ytics lc rgb '#eeeeee'
set key inside right top vertical samplen 3 opaque
set xrange [0:*]
set autoscale xfixmax
set format x '%g'
set yrange [0:ymax]
set ytics scale 1 ()
do for [k=1:|ytv|] { set ytics add (ytl[k] ytv[k]) }
array shapes[6] = [7, 5, 9, 13, 11, 15]
shape(i) = shapes[(i - 1) % 6 + 1]
plot for [i=1:nseries] datafile index (i-1) using 1:2 with points pt shape(i) ps dot \
       lc rgb colors[i] notitle, \
     for [i=1:nseries] datafile index (i-1) using 1:3 with lines lw 3.5 lc rgb '#ffffff' notitle, \
     for [i=1:nseries] datafile index (i-1) using 1:3 with linespoints lw 2.5 dt 1 + (i - 1) % 5 \
       pt shape(i) pi mark_every ps 1.4 lc rgb colors[i] title key(i, '')
