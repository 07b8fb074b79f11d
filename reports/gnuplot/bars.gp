# Throughput bars: one cluster per step, one bar per run, each bar's PCIe
# link ceiling a dashed line over it with its label.
# Columns: cluster (0, 1, ...), MB/s, step, ceiling MB/s, ceiling label,
# the bar's origin (e.g. "OIO 128": the best point of a sweep) or empty,
# the series position the ceiling label is centred on (1.5: between the
# bars of series 1 and 2, which share that ceiling) or NaN, and the y of
# the bar's value (its top, or over its ceiling's line when the bar is just
# under it: the report's value_heights) or NaN.
# Each run's bars in its colour and its fill pattern (pattern: an array, one
# a series: 0 solid, 4 and 5 diagonals...; optional, solid without), so that
# runs differ in a greyscale print, the key showing both.
# Variables: ylabel, ymax, nclusters, vertical (optional: 1 turns the values
# upright), across (optional: characters across the chart), ytv and ytl
# (optional: the y ticks and their labels, 2,000 or 800k), xlabel
# (optional: the x axis's title), rotate and label_chars (optional: 1 turns
# the names under the clusters upright, names of one word wider than
# a cluster, label_chars the longest's characters).
set title chart_title
set ylabel ylabel
set border 3 lc rgb '#444444'
set tics nomirror
set grid ytics lc rgb '#dddddd'
# the key inside the plot, over the bars (the axis has room), or under it when it is big
if (key_inside) { set key inside top center horizontal opaque box lc rgb '#cccccc' } else { set key at screen 0.5, screen 0.01 center bottom horizontal }
set style fill solid 0.9 noborder
bw = 0.8 / nseries
set boxwidth bw
set yrange [0:ymax]
if (exists('ytv')) { set ytics (); do for [k=1:|ytv|] { set ytics add (ytl[k] ytv[k]) } }
set xrange [-0.6:nclusters - 0.4]
set xtics scale 0
# The step names under the clusters, wrapped at spaces to the width of a
# cluster (across: the characters across the chart, 120 at 1280x720, given
# by the report for its --size), so that neighbours never run into each
# other; the bottom margin grows by their lines.
across = exists('across') ? across : 120
wrapc = nclusters > 0 ? int(across / nclusters) : int(across)
wrapc = wrapc < 10 ? 10 : wrapc
# (split at spaces by hand: word() would take quotes out of a name)
wrap_(s, out, line) = strlen(s) == 0 ? out . line : wrap1(s, strstrt(s, " "), out, line)
wrap1(s, i, out, line) = wrap2(i > 0 ? s[1:i - 1] : s, i > 0 ? s[i + 1:] : "", out, line)
wrap2(w, rest, out, line) = strlen(line) == 0 ? wrap_(rest, out, w) : \
  (strlen(line) + 1 + strlen(w) > wrapc ? wrap_(rest, out . line . "\n", w) : \
  wrap_(rest, out, line . " " . w))
wrap(s) = strlen(s) > 300 ? s : wrap_(s, "", "")	# (gnuplot limits the recursion)
nlines(s) = strstrt(s, "\n") == 0 ? 1 : 1 + nlines(s[strstrt(s, "\n") + 1:])
stats datafile index 0 using (nlines(wrap(strcol(3)))) nooutput
rotate = exists('rotate') ? rotate : 0
# upright names (read from the bottom up, ending at their tick; slanted,
# the first would reach past the chart's left edge): as many lines under
# the axis as the longest is long, a character about 0.45 of a line wide;
# the names unwrapped
names_h = rotate ? int(label_chars * 0.45) + 1 : STATS_max
if (rotate) { set xtics rotate by 90 right }
if (exists('xlabel')) { set xlabel xlabel }
set bmargin (key_inside ? 2 : key_margin - 1) + names_h + (exists('xlabel') ? 1 : 0)
xname(s) = rotate ? s : wrap(s)
off(i) = (i - 1 - (nseries - 1) / 2.0) * bw
hatch(i) = !exists('pattern') || pattern[i] == 0 ? 3 : pattern[i]
# A bar without a value or a known ceiling has NaN there (a run without
# points: a row of NaN): its line is skipped (1/0), its labels are empty and
# put at 0, never undefined, since gnuplot 5.4 crashes (SIGSEGV) on labels
# whose every point is undefined.
known(c) = strcol(c) eq 'NaN' ? 1/0 : column(c)
or0(c) = strcol(c) eq 'NaN' ? 0 : column(c)
barval(c) = strcol(c) eq 'NaN' ? '' : num(column(c))
text(c) = strcol(c) eq 'NaN' ? '' : strcol(c)
at(c, i) = valid(c) && column(c) == column(c) ? column(c) : i	# (NaN, or no column c: six columns)
# Bars too narrow for their values side by side (vertical = 1, set by the
# report from the widths): each value turned upright above its bar, with its
# origin ("OIO 32") after it rather than a line above; the labels of the
# other way are all empty (never undefined: see above)
vertical = exists('vertical') ? vertical : 0
flat_text(c) = vertical ? '' : (c == 2 ? barval(2) : text(6))
# A bar that reaches within a line and a half of its ceiling (a drive at
# its lane's rate): its value stands over the dashed line, not through it
# nor on it (column 8, set by the report), and the ceiling's label a line
# above the value (two: above its origin too); a line of the small font is
# about 0.03 of the axis at 1280x720 (line: the report's share for the
# chart's size)
ch = (exists('line') ? line : 0.03) * ymax
near(_) = strcol(2) ne 'NaN' && strcol(4) ne 'NaN' && abs(column(2) - column(4)) < 1.5 * ch
val_y(_) = valid(8) && strcol(8) ne 'NaN' ? column(8) : or0(2)
ceil_y(_) = near(0) ? val_y(0) + (text(6) ne '' && !vertical ? 2 : 1) * ch : or0(4)
upright_text(i) = !vertical ? '' : (text(6) ne '' ? barval(2) . ' ' . text(6) : barval(2))
plot datafile index 0 using 1:(NaN):xtic(xname(strcol(3))) notitle, \
     for [i=1:nseries] datafile index (i-1) using ($1 + off(i)):2 with boxes \
       fs pattern hatch(i) border lc rgb colors[i] lc rgb colors[i] title key(i, ''), \
     for [i=1:nseries] datafile index (i-1) using (or0(1) + off(i)):(val_y(0)):(flat_text(2)) \
       with labels offset 0,0.7 font small_font notitle, \
     for [i=1:nseries] datafile index (i-1) using (or0(1) + off(i)):(val_y(0)):(flat_text(6)) \
       with labels offset 0,1.7 font small_font notitle, \
     for [i=1:nseries] datafile index (i-1) using (or0(1) + off(i)):(val_y(0)):(upright_text(i)) \
       with labels rotate by 90 left offset 0,0.5 font small_font notitle, \
     for [i=1:nseries] datafile index (i-1) using ($1 + off(i) - bw / 2):(known(4)):(bw):(0) \
       with vectors nohead dt 2 lw 2.5 lc rgb colors[i] notitle, \
     for [i=1:nseries] datafile index (i-1) using (or0(1) + off(at(7, i))):(ceil_y(0)):(text(5)) \
       with labels offset 0,0.7 font small_font tc rgb colors[i] notitle
