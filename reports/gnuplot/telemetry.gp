# A run's telemetry over time: x = seconds since the run began, one line per
# numeric key (a temperature, a link width), the steps as shaded bands (two
# tints in turn) labelled "step N", warning events as dashed red
# vertical lines. Columns: t (s), value.
# Variables: ylabel, nsteps, step_from, step_to, step_label (arrays of
# nsteps, at least one element), nevents, event_t (array of nevents, at least
# one element), tmax (s, the run's end); optional ymax: the y axis from 0 to
# it (host CPU in %); xfrom: what x counts from (default 'time since the
# run began'); ytv, ytl, ylo, yhi: the y axis's ticks and range. Past 20 minutes the time axis is in
# minutes, past 10 hours in hours. Each key its colour, point type and dash.
# (its title a line higher than gnuplot's place for it: the note and the steps' labels under it)
set title chart_title offset 0, 1.2
xdiv = tmax > 36000 ? 3600 : tmax > 1200 ? 60 : 1
set xlabel (exists('xfrom') ? xfrom : 'time since the run began') . ' ' . (xdiv == 3600 ? '(h)' : xdiv == 60 ? '(min)' : '(s)')
set ylabel ylabel
set border 3 lc rgb '#444444'
set tics nomirror
set grid ytics lc rgb '#e4e4e4' lw 1
# the key under the plot: its lines fill the plot's width and height (a
# host's CPUs near 100 %, its busiest worker near 10 %), no corner is free
set key at screen 0.5, screen 0.01 center bottom horizontal samplen 4
set bmargin key_margin
# over the plot, from the top: the title, the note (what is better), the
# steps' labels, each on a line of its own (set label 990 is the note's)
set tmargin 5.5
if (strlen(note) > 0) { set label 990 note at graph 1, graph 1 right offset 0, 1.9 font small_font tc rgb '#555555' front }
set xrange [0:(tmax > 0 ? tmax : 1) * 1.0 / xdiv]
set offsets 0, 0, graph 0.12, graph 0.05
if (exists("ymax")) { set yrange [0:ymax] }
# ytv, ytl, ylo, yhi (optional): the y ticks and range the report chose (800k, 1.2M)
if (exists('ytv')) { set ytics (); do for [k=1:|ytv|] { set ytics add (ytl[k] ytv[k]) }; set yrange [ylo:yhi] }
do for [k=1:nsteps] {
  set object k rect from step_from[k] * 1.0 / xdiv, graph 0 to step_to[k] * 1.0 / xdiv, graph 1 behind \
      fc rgb (k % 2 == 1 ? '#e6ebf3' : '#f3f5f9') fs solid noborder
  set label k step_label[k] at (step_from[k] + step_to[k]) / 2.0 / xdiv, graph 1 center offset 0, 0.6 font small_font tc rgb '#555555'
}
do for [k=1:nevents] {
  set arrow k from event_t[k] * 1.0 / xdiv, graph 0 to event_t[k] * 1.0 / xdiv, graph 1 nohead lw 2 dt 2 lc rgb '#b3261e' front
}
# the warning events' entry titled only when there are some (plotted under
# for [j=1:0] instead, gnuplot 5.4 kept room for it in the key: at 800x450
# the host CPU chart's two entries stood in two rows of three)
plot for [i=1:nseries] datafile index (i-1) using ($1 / xdiv):2 with linespoints \
     lw 2.5 pt ptype[i] ps 0.8 dt dtype[i] lc rgb colors[i] title key(i, ''), \
     keyentry with lines lw 2 dt 2 lc rgb '#b3261e' title (nevents > 0 ? 'warning event' : '')
