# SNIA PTS steady state, one run: the tracked value per round, the
# measurement window shaded, its mean, the band of ± half the allowed data
# excursion around it, and the least-squares slope line over the window.
# Columns: round, value. Variables: ylabel, wfirst, wlast, mean, slope, band, nrounds,
# ytv, ytl, ylo, yhi (optional: the y axis, with room above the points for the key).
set title chart_title
set xlabel 'round'
set ylabel ylabel
set border 3 lc rgb '#444444'
set tics nomirror
set grid ytics lc rgb '#dddddd'
# the key inside the plot where the points are not, or under it when it is big (key_inside)
if (key_inside) { set key inside top center horizontal maxrows 2 opaque box lc rgb '#cccccc' samplen 3 } else { set key at screen 0.5, screen 0.01 center bottom horizontal samplen 3; set bmargin key_margin }
set yrange [0:*]
set offsets 0, 0, graph 0.06, 0
# the y ticks and range the report chose (ytv, ytl: values and labels as 800k, 1.2M;
# ylo, yhi; ylog 1: a log axis)
if (exists('ytv')) { set ytics (); do for [k=1:|ytv|] { set ytics add (ytl[k] ytv[k]) }; set yrange [ylo:yhi] }
if (exists('ylog') && ylog) { set logscale y }
set xrange [0.5:nrounds + 0.5]
set xtics 1
set samples 2000
set object 1 rect from wfirst - 0.5, graph 0 to wlast + 0.5, graph 1 behind fc rgb '#eef3fb' fs solid noborder
inwin(x) = (x >= wfirst && x <= wlast) ? 1 : NaN
c = (wfirst + wlast) / 2.0
plot datafile using 1:2 with linespoints lw 2.5 pt 7 ps 1.2 lc rgb colors[1] title titles[1].': '.ylabel, \
     mean * inwin(x) with lines lw 2 lc rgb '#000000' title 'window mean ' . num(mean), \
     (1 + band) * mean * inwin(x) with lines lw 1.5 dt 2 lc rgb '#666666' title sprintf('±%.0f %% of the window mean (%.0f %% band)', band * 100, band * 200), \
     (1 - band) * mean * inwin(x) with lines lw 1.5 dt 2 lc rgb '#666666' notitle, \
     (mean + slope * (x - c)) * inwin(x) with lines lw 2 dt 4 lc rgb '#CC3311' title 'least-squares slope ' . num(slope) . ' per round'
