# Second by second: IOPS or MB/s dots on the left axis, mean latency dots on
# a log right axis, the step's averages as lines, ramp seconds shaded.
# Columns: t (s), value, mean latency (us), ramp (0/1).
# Variables: ylabel, avg_value, avg_lat, ramp_s, nevents and event_t (optional:
# warning events' seconds, drawn as dashed red lines), nsecs (optional, the seconds:
# under a minute, larger dots). Time starts at 0: a step of one second, a short fill,
# gets an axis from 0 to 1 s (gnuplot widens an empty autoscaled range to
# -1..1 s otherwise); the dots are drawn over the average lines.
set title chart_title
set xlabel 'time (s)'
set ylabel ylabel
set y2label 'mean latency (µs, log scale)'
set border 11 lc rgb '#444444'
set xtics nomirror
set ytics nomirror
set y2tics (0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000, 200000, 500000, 1000000)
set logscale y2
set xrange [0:*]
set autoscale xfixmax	# the axis ends with the last second, not at the next tic
dot = exists('nsecs') && nsecs < 60 ? 1.2 : 0.5
set yrange [0:*]
set offsets 0, 0, graph 0.06, 0
set format y '%.0f'
set grid ytics lc rgb '#eeeeee'
set key at screen 0.5, screen 0.01 center bottom horizontal samplen 2
set bmargin key_margin
if (ramp_s > 0) { set object 1 rect from 0, graph 0 to ramp_s, graph 1 behind fc rgb '#eeeeee' fs solid noborder }
# warning events in the step (nevents, event_t: optional), a dashed red line at their second
if (exists('nevents')) { do for [k=1:nevents] { set arrow k from event_t[k], graph 0 to event_t[k], graph 1 nohead lw 2 dt 2 lc rgb '#b3261e' front } }
# the averages leave the ramp out, and so do their lines (drawn over the
# measured seconds only, column 4 being 0)
plot datafile using 1:(column(4) == 0 ? avg_value : 1/0) with lines lw 2.5 lc rgb '#000000' notitle, \
     datafile using 1:(column(4) == 0 ? avg_lat : 1/0) axes x1y2 with lines lw 2 dt 2 lc rgb '#555555' notitle, \
     datafile using 1:2 with points pt 7 ps dot lc rgb colors[1] title titles[1].': '.ylabel, \
     datafile using 1:3 axes x1y2 with points pt 7 ps dot lc rgb '#9a9a9a' title 'mean latency', \
     keyentry with lines lw 2.5 lc rgb '#000000' title sprintf('average %.0f', avg_value), \
     keyentry with lines lw 2 dt 2 lc rgb '#555555' title sprintf('average latency %.0f µs', avg_lat)
