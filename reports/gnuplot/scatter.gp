# Second by second: IOPS or MB/s dots on the left axis, mean latency dots on
# a log right axis, the step's averages as lines, ramp seconds shaded.
# Columns: t (s), value, mean latency (us), ramp (0/1).
# Variables: ylabel, avg_value, avg_lat, ramp_s, nevents and event_t (optional:
# warning events' seconds, drawn as dashed red lines), nsecs (optional, the seconds:
# under a minute, larger dots). Time starts at 0: a step of one second, a short fill,
# gets an axis from 0 to 1 s (gnuplot widens an empty autoscaled range to
# -1..1 s otherwise); the dots are drawn over the average lines. Past 20
# minutes the time axis is in minutes, past 10 hours in hours. Optional: ytv,
# ytl, ylo, yhi and y2tv, y2tl, y2lo, y2hi (the axes' ticks and ranges).
set title chart_title
xdiv = exists('nsecs') && nsecs > 36000 ? 3600 : exists('nsecs') && nsecs > 1200 ? 60 : 1
set xlabel xdiv == 3600 ? 'time (h)' : xdiv == 60 ? 'time (min)' : 'time (s)'
set ylabel ylabel
set y2label 'mean latency (µs, log scale)'
set border 11 lc rgb '#444444'
set xtics nomirror
set ytics nomirror
set y2tics ('0.01' 0.01, '0.1' 0.1, '1' 1, '10' 10, '100' 100, '1,000' 1000, '10k' 10000, '100k' 100000, '1M' 1000000)
set logscale y2
set xrange [0:*]
set autoscale xfixmax	# the axis ends with the last second, not at the next tic
dot = exists('nsecs') && nsecs < 60 ? 1.2 : 0.5
set yrange [0:*]
set offsets 0, 0, graph 0.06, 0
# the y ticks and range the report chose (ytv, ytl: values and labels as 800k, 1.2M;
# ylo, yhi; ylog 1: a log axis)
if (exists('ytv')) { set ytics (); do for [k=1:|ytv|] { set ytics add (ytl[k] ytv[k]) }; set yrange [ylo:yhi] }
if (exists('ylog') && ylog) { set logscale y }
if (exists('y2tv')) { set y2tics (); do for [k=1:|y2tv|] { set y2tics add (y2tl[k] y2tv[k]) }; set y2range [y2lo:y2hi] }
set grid ytics lc rgb '#eeeeee'
# the key inside the plot where the points are not, or under it when it is big (key_inside)
if (key_inside) { set key inside top center horizontal maxrows 2 opaque box lc rgb '#cccccc' samplen 2 } else { set key at screen 0.5, screen 0.01 center bottom horizontal samplen 3; set bmargin key_margin }
if (ramp_s > 0) { set object 1 rect from 0, graph 0 to ramp_s * 1.0 / xdiv, graph 1 behind fc rgb '#eeeeee' fs solid noborder }
# warning events in the step (nevents, event_t: optional), a dashed red line at their second
if (exists('nevents')) { do for [k=1:nevents] { set arrow k from event_t[k] * 1.0 / xdiv, graph 0 to event_t[k] * 1.0 / xdiv, graph 1 nohead lw 2 dt 2 lc rgb '#b3261e' front } }
# the averages leave the ramp out, and so do their lines (drawn over the
# measured seconds only, column 4 being 0)
plot datafile using ($1 / xdiv):(column(4) == 0 ? avg_value : 1/0) with lines lw 2.5 lc rgb '#000000' notitle, \
     datafile using ($1 / xdiv):(column(4) == 0 ? avg_lat : 1/0) axes x1y2 with lines lw 2 dt 2 lc rgb '#555555' notitle, \
     datafile using ($1 / xdiv):2 with points pt 7 ps dot lc rgb colors[1] title titles[1].': '.ylabel, \
     datafile using ($1 / xdiv):3 axes x1y2 with points pt 6 ps dot lc rgb '#9a9a9a' title 'mean latency', \
     keyentry with lines lw 2.5 lc rgb '#000000' title 'average ' . num(avg_value), \
     keyentry with lines lw 2 dt 2 lc rgb '#555555' title 'average latency ' . num(avg_lat) . ' µs'
