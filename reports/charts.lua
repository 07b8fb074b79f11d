-- The charts of the default report, each made only when the runs hold that
-- kind of step; one colour per run (runs[i].color) in every chart.
local compare = require("compare")
local fmt = require("format")
local telemetry = require("telemetry")

local charts = {}
local ctx

function charts.setup(c) ctx = c end

local esc = report.escape_html
local NaN = "NaN"	-- a missing value in a chart's data (gnuplot skips it)

-- A chart on the page with its caption, which is also its image's alt text
-- and the SVG's <title> (after the chart's title: report_page.c puts it there).
local function figure(c, caption)
  local title = c.title or ""
  local alt = caption:sub(1, #title) == title and caption or ("%s. %s"):format(title, caption)
  local img = c.embedded and ("<!--hbatest:chart %s %s-->"):format(c.embedded, esc(alt)) or c.img
  ctx.add("<figure>", img, "<figcaption>", esc(caption), ' — <code>', esc(c.gp),
          "</code>, data <code>", esc(c.tsv), "</code></figcaption></figure>")
end
charts.figure = figure

-- How many points a chart's series hold (rows with a number as value).
local function count(rows)
  local n = 0
  for _, p in ipairs(rows) do
    if type(p[2]) == "number" and p[2] == p[2] then n = n + 1 end
  end
  return n
end

function charts.npoints(series)
  local n = 0
  for _, s in ipairs(series) do n = n + count(s.rows) end
  return n
end

-- " (no points from A, B)" for the caption of a chart with runs left out
-- or drawn as nothing; with drop, series without points are removed.
function charts.left_out(series, drop)
  if #ctx.runs < 2 then return "" end
  local names, k = {}, 1
  while k <= #series do
    if count(series[k].rows) == 0 then
      names[#names + 1] = series[k].title
      if drop then table.remove(series, k) else k = k + 1 end
    else
      k = k + 1
    end
  end
  if #names == 0 then return "" end
  return ("; no points from %s%s"):format(table.concat(names, ", "), drop and " (left out)" or "")
end

-- The lowest and highest number in columns cols of the series' rows (only
-- those above 0 with positive); nil, nil when there is none.
local function span(series, cols, positive)
  local lo, hi
  for _, s in ipairs(series) do
    for _, row in ipairs(s.rows) do
      for _, c in ipairs(cols) do
        local v = fmt.finite(row[c])
        if v and (not positive or v > 0) then lo, hi = math.min(lo or v, v), math.max(hi or v, v) end
      end
    end
  end
  return lo, hi
end

-- A chart's y axis (prefix "y", or "y2") as its args: ytv, ytl (ticks and
-- their labels, 800k and 1.2M: format.axis), ylo, yhi, and ylog = 1 for a
-- log axis, over the numbers in columns cols of the series' rows. how:
-- "zero", from 0 to room (1.06: 6 %) above the highest; "near", from near
-- the lowest (a write mix from 420k to 610k) or on a log axis when they span
-- ten times or more; "log" (up to room times the highest, if given). args
-- unchanged when there is no number.
function charts.y_axis(args, series, cols, how, room, prefix)
  prefix = prefix or "y"
  local lo, hi = span(series, cols, how ~= "zero")
  if not lo then return args end
  local ax
  if how == "log" or (how == "near" and hi >= lo * 10) then
    ax = fmt.log_axis(lo, hi * (how == "log" and room or 1))
  elseif how == "near" then
    local pad = math.max((hi - lo) * 0.1, hi * 0.02)
    ax = fmt.axis(math.max(0, lo - pad), hi + pad)
  else
    ax = fmt.axis(0, math.max(hi, 0) * (room or 1.06))
  end
  args[prefix .. "tv"], args[prefix .. "tl"] = ax.ticks, ax.labels
  args[prefix .. "lo"], args[prefix .. "hi"] = ax.min, ax.max
  if ax.log and prefix == "y" then args.ylog = 1 end
  return args
end

-- ---- per-second scatter: preconditioning, and steps of 600 s or more ------
local SAMPLES = [[
  SELECT t, ramp, iops, mbps, lat_mean_us AS lat, secs FROM sample_total WHERE step_id = ?1 ORDER BY t]]
-- A last second the step covered less than a tenth of (a fill ending 9 ms into
-- it): its rate, over those few ms, is no dot of the chart (the caption says
-- so), unless it is all the step has
local FRAGMENT_S = 0.1
-- A step of fewer seconds than this (a fill of under a second: its
-- measurement window, or the seconds sampled) is no scatter: a line under
-- the heading says so
local SCATTER_MIN_S = 5

function charts.scatter()
  local heading = false
  for i, r in ipairs(ctx.runs) do
    for _, s in ipairs(ctx.steps[i]) do
      if s.kind == "precondition" or (s.duration_s or 0) >= 600 then
        local field, unit = compare.metric(s)
        if s.kind == "precondition" and (s.passes or 0) > 0 then field, unit = compare.throughput() end
        local col, mult = compare.stored(field)
        local rows, sum, n, lsum, ln, cut = {}, 0, 0, 0, 0, nil
        for _, x in ipairs(report.sql(SAMPLES, s.id)) do
          local v = x[col] and x[col] * mult	-- a last second cut short: over its secs
          if (x.secs or 1) < FRAGMENT_S and #rows > 0 then cut = x.secs; goto next end
          rows[#rows + 1] = { x.t or NaN, v or NaN, x.lat or NaN, x.ramp or NaN }
          if x.ramp == 0 and v then	-- (a second without a rate is no dot, nor in the average)
            sum, n = sum + v, n + 1
            if x.lat then lsum, ln = lsum + x.lat, ln + 1 end
          end
          ::next::
        end
        local secs = math.max(fmt.finite(s.window_s) or 0, #rows + (cut or 0))
        if #rows > 0 and secs < SCATTER_MIN_S then
          if not heading then
            ctx.add("<h2>Preconditioning and long steps, second by second</h2>")
            heading = true
          end
          ctx.add('<p class="note">', esc(("%s — %s: %s, too short for a chart of its seconds"):format(
            r.series_title, s.name, fmt.plural(tonumber(("%.3g"):format(secs)), "second"))), "</p>")
        elseif #rows > 0 then
          if not heading then
            ctx.add("<h2>Preconditioning and long steps, second by second</h2>")
            heading = true
          end
          local avg = s.status == "done" and s[field] or (n > 0 and sum / n or 0)
          local avg_lat = s.status == "done" and s.lat_mean_us or (ln > 0 and lsum / ln or 1)
          local title = ("%s — %s"):format(r.series_title, s.name)
          local ev = {}	-- the warnings that fell in it, at their second
          for _, e in ipairs(telemetry.step_events(r, s)) do ev[#ev + 1] = e.t end
          local c = report.chart{
            name = ("scatter-run%d-step%s"):format(r.index, fmt.int(s.seq)), template = "scatter", embed = "png",
            key_entries = 4,	-- the dots, the latency dots and the two averages
            title = title, columns = { "t_s", unit, "lat_mean_us", "ramp" },
            series = { { title = r.series_title, color = r.color, rows = rows } },
            better = unit .. ": higher is better; latency: lower is better",
            args = charts.y_axis(charts.y_axis({ ylabel = unit, avg_value = avg or 0, avg_lat = avg_lat or 1,
                     ramp_s = s.ramp_s or 0, nsecs = #rows, nevents = #ev, event_t = #ev > 0 and ev or { 0 } },
                     { { rows = rows } }, { 2 }, "zero", 1.35), { { rows = rows } }, { 3 }, "log", 2, "y2"),
          }
          figure(c, ("%s: %s, %s dots (left), mean latency (right, log)%s%s"):format(
            title, fmt.plural(#rows, "second"), unit,
            cut and ("; the last %.0f ms, part of a second, left out"):format(cut * 1000) or "",
            #ev > 0 and ("; dashed red: %s (Steps as run lists them)"):format(fmt.plural(#ev, "warning event")) or ""))
        end
      end
    end
  end
end

-- The steps fio ran on several hosts: a line per host and a table (hosts.lua).
function charts.hosts() require("hosts").section(ctx, figure) end

-- ---- sweeps: one chart per group, one line per run ----------------------------
local function sweep_groups(axis) return require("at").groups(ctx.rows, axis) end

-- A point's x: the swept value; a block size in KiB ("4k" -> 4, "1m" -> 1024).
-- Steps whose value is none of the axis's are off it (review.lua, off_axis).
local x_of = compare.axis_x

-- The ticks of a log2 x axis: the swept values themselves (gnuplot's own
-- start from the padded range's end, so a sweep from OIO 8 read 12, 24, 48),
-- unless there are too many to label (then gnuplot's powers of 2).
local function swept_ticks(series)
  local seen, v = {}, {}
  for _, s in ipairs(series) do
    for _, p in ipairs(s.rows) do
      if not seen[p[1]] then seen[p[1]] = true; v[#v + 1] = p[1] end
    end
  end
  table.sort(v)
  return #v <= 12 and v or nil
end

-- which: nil for every group, or a function(group name) -> bool.
function charts.sweeps(axis, heading, xlabel, logx, which)
  local groups, all = sweep_groups(axis)
  local order = {}
  for _, g in ipairs(all) do
    if not which or which(g) then order[#order + 1] = g end
  end
  for _, g in ipairs(order) do
    local field, unit = compare.metric(groups[g][1].first)
    if axis == "bs" then field, unit = compare.throughput() end	-- what grows with the size
    local series = {}
    for i, r in ipairs(ctx.runs) do
      local pts = {}
      for _, row in ipairs(groups[g]) do
        local s = row.steps[i]
        if s and s.status == "done" then
          pts[#pts + 1] = { x_of(axis, s.axis_value), s[field], s.lat_mean_us, s.lat_p99_us }
        end
      end
      table.sort(pts, function(a, b) return a[1] < b[1] end)
      series[i] = { title = r.series_title, color = r.color, rows = pts }
    end
    if charts.npoints(series) > 0 then
      if heading then ctx.add("<h2>", esc(heading), "</h2>"); heading = nil end
      ctx.add("<h3>", esc(g), "</h3>")
      local cols = { axis, unit, "lat_mean_us", "lat_p99_us" }
      local xpts = logx and swept_ticks(series) or nil
      -- a write mix's points start near their lowest (a curve from 800k to 420k
      -- drawn from 0 is flat), and its key sits top right, over the falling curve
      local c = report.chart{ name = axis .. "-" .. g, template = "sweep", title = g .. ": " .. unit,
        columns = cols, series = series, better = "higher",
        args = charts.y_axis({ xlabel = xlabel, ylabel = unit, ycol = 2, logx = logx and 1 or 0, xpts = xpts,
          keyright = axis == "write_pct" and 1 or 0 }, series, { 2 }, axis == "write_pct" and "near" or "zero") }
      figure(c, ("%s: %s over %s, one line per run%s"):format(g, unit, xlabel, charts.left_out(series)))
      if axis == "oio" then charts.dots(g, groups[g], field, unit, xlabel) end
      c = report.chart{ name = axis .. "-" .. g .. "-latency", template = "sweep_lat",
        title = g .. ": latency", columns = cols, series = series, key_entries = 2, key_suffix = 5, key_own = 0,
        better = "lower",
        args = charts.y_axis({ xlabel = xlabel, logx = logx and 1 or 0, xpts = xpts }, series, { 3, 4 }, "log") }
      figure(c, ("%s: mean and p99 latency over %s%s"):format(g, xlabel, charts.left_out(series)))
      if axis == "write_pct" then charts.rw_latency(g, groups[g], xlabel) end
      charts.percentiles(g, groups[g], axis)
    end
  end
end

-- A write-mix sweep's reads and writes apart: each one's p99 over write %,
-- from the step's histogram of that direction (a mix's one p99 is the
-- reads' at 10 % writes and the writes' at 90 %, and hides the other).
function charts.rw_latency(g, rows, xlabel)
  local hist = require("hist")
  local series = {}
  for i, r in ipairs(ctx.runs) do
    local pts = {}
    for _, row in ipairs(rows) do
      local s = row.steps[i]
      if s and s.status == "done" then
        local rd = hist.percentiles(s.id, { 99 }, s.lat_max_us, "read")
        local wr = hist.percentiles(s.id, { 99 }, s.lat_max_us, "write")
        if rd or wr then
          pts[#pts + 1] = { tonumber(s.axis_value), s.iops, rd and rd[99] or NaN, wr and wr[99] or NaN }
        end
      end
    end
    table.sort(pts, function(a, b) return a[1] < b[1] end)
    series[i] = { title = r.series_title, color = r.color, rows = pts }
  end
  if charts.npoints(series) == 0 then return end
  local c = report.chart{ name = "write_pct-" .. g .. "-rw-latency", template = "sweep_lat",
    title = g .. ": read and write p99 latency", columns = { "write_pct", "IOPS", "read_p99_us", "write_p99_us" },
    series = series, key_entries = 2, key_suffix = 11, key_own = 0, better = "lower",	-- " writes p99"
    args = charts.y_axis({ xlabel = xlabel, logx = 0, key3 = " reads p99", key4 = " writes p99" }, series,
      { 3, 4 }, "log") }
  figure(c, ("%s: p99 latency of the reads (solid) and of the writes (dashed) over %s, "
    .. "from each direction's histogram%s"):format(g, xlabel, charts.left_out(series)))
end

-- The per-second samples of each point of a sweep, a band per run: the
-- rates, and the mean latency of the second (sample_total: its reads' and
-- writes' means weighted by their ops, for a mixed step).
local WINDOW = [[
  SELECT iops, mbps, lat_mean_us AS lat FROM sample_total WHERE step_id = ?1 AND ramp = 0 ORDER BY t]]

-- The OIO points of a group, in order (levels), each run's dots across its
-- band of each point (pick(sample) the value of a second, avg(step) the
-- point's average, a line across the band) and how many seconds in all.
-- samples: the window of each step by id, read once for both dot charts.
local function dot_series(rows, samples, pick, avg)
  local levels, n = {}, #ctx.runs
  for _, row in ipairs(rows) do levels[#levels + 1] = x_of("oio", row.first.axis_value) end
  table.sort(levels)
  local at = {}
  for k, v in ipairs(levels) do at[v] = k end
  local series, seconds = {}, 0
  for i, r in ipairs(ctx.runs) do
    local pts = {}
    for _, row in ipairs(rows) do
      local s = row.steps[i]
      if s and s.status == "done" then
        local k = at[x_of("oio", s.axis_value)]
        samples[s.id] = samples[s.id] or report.sql(WINDOW, s.id)
        local m = #samples[s.id]
        for j, x in ipairs(samples[s.id]) do
          local pos = (k - 1) + 0.05 + (i - 1) * 0.9 / n + (m > 1 and (j - 1) / (m - 1) or 0.5) * 0.8 * 0.9 / n
          pts[#pts + 1] = { pos, fmt.finite(pick(x)) or NaN, s.axis_value, fmt.finite(avg(s)) or NaN }
        end
        seconds = seconds + m
        pts[#pts + 1] = {}	-- a blank line: the average lines break here
      end
    end
    series[i] = { title = r.series_title, color = r.color, rows = pts }
  end
  return series, levels, seconds
end

-- Every second of each OIO point as a dot, IOPS (or MB/s) and then the mean
-- latency (reference 003), each point's average a line across its band.
function charts.dots(g, rows, field, unit, xlabel)
  local samples, col, mult = {}, compare.stored(field)
  local series, levels, seconds = dot_series(rows, samples, function(x) return x[col] and x[col] * mult end,
    function(s) return s[field] end)
  if seconds == 0 then return end
  local c = report.chart{ name = "oio-" .. g .. "-seconds", template = "dots",
    title = g .. ": " .. unit .. " second by second", columns = { "x", unit, "oio", "average" },
    series = series, better = "higher", key_extra = 1, key_own = 20,	-- "each point's average"
    args = charts.y_axis({ xlabel = xlabel, ylabel = unit, levels = levels }, series, { 2 }, "zero") }
  figure(c, ("%s: every second of each OIO point (%d in all) and its average%s"):format(g, seconds,
    charts.left_out(series)))
  series = dot_series(rows, samples, function(x) return x.lat end, function(s) return s.lat_mean_us end)
  if charts.npoints(series) == 0 then return end
  local args = charts.y_axis({ xlabel = xlabel, levels = levels }, series, { 2 }, "near")
  args.ylabel = args.ylog and "mean latency (µs, log scale)" or "mean latency (µs)"
  c = report.chart{ name = "oio-" .. g .. "-latency-seconds", template = "dots",
    title = g .. ": mean latency second by second", columns = { "x", "lat_mean_us", "oio", "average" },
    series = series, better = "lower", key_extra = 1, key_own = 20, args = args }
  figure(c, ("%s: mean latency of every second of each OIO point (%d in all; a mix's reads and "
    .. "writes weighted by their operations) and its average%s"):format(g, seconds, charts.left_out(series)))
end

-- ---- sequential throughput bars against the PCIe ceiling ------------------------
-- The payload ceiling of a probed link, a row of the view run_pcie (or
-- nil): bytes/s and its label "PCIe3 x8 ceiling 7,877 MB/s"; nil when the
-- probe gave no ceiling (reports/controllers.lua sums these per controller).
function charts.pcie_ceiling(p)
  local bps = p and tonumber(p.ceiling_bytes_per_s)
  if not bps then return nil end
  local gen = fmt.pcie_gen(p.link_speed)
  return bps, ("PCIe%s x%s ceiling %s"):format(gen or "?", p.link_width or "?", charts.rate(bps))
end

-- A rate in bytes/s as the bars give it: "7,877 MB/s" ("7,512 MiB/s"
-- under --units MiB).
function charts.rate(bps)
  local _, unit, mult = compare.throughput()
  return fmt.num(bps / 1e6 * mult) .. " " .. unit
end

local function probed_ceiling(run)
  run.pcie = run.pcie or report.sql([[
      SELECT link_speed, link_width, ceiling_bytes_per_s FROM run_pcie
      WHERE run_id = ?1 AND ceiling_bytes_per_s IS NOT NULL ORDER BY ord LIMIT 1]], run.id)[1]
      or false
  return charts.pcie_ceiling(run.pcie)
end

-- The cards a simulated step ran on, each its link and SAS/SATA options:
-- its first card's from the step's sim options, then those of the cards
-- after it (params sim.cards, `key=value,...` each, `;` between: docs/
-- engines.md "Several cards in one step"); a card that names no link of its
-- own has the step's.
local function sim_cards(s)
  local cards = { { link = s.sim_link, drive_gbps = s.sim_drive_gbps, lane_gbps = s.sim_lane_gbps,
                    drives = s.sim_drives, ports = s.sim_ports, port_lanes = s.sim_port_lanes } }
  for card in tostring(s.sim_cards or ""):gmatch("[^;]+") do
    local o = {}
    for k, v in card:gmatch("([%w_]+)=([^,]*)") do o[k] = v end
    cards[#cards + 1] = { link = o.link or s.sim_link, drive_gbps = o.drive_link_gbps,
      lane_gbps = o.sas_lane_gbps, drives = o.drives, ports = o.sas_ports,
      port_lanes = o.sas_port_lanes }
  end
  return cards
end

-- A SAS/SATA lane's payload rate in bytes/s: 8b/10b line encoding and
-- framing (0.93) off, as plugins/engines/sim.c's lane_ns_per_byte
local function lane_bps(gbps) return gbps * 1e9 * 0.8 / 8 * 0.93 end

-- A card's SAS/SATA lanes: each drive's lane at the lower of its own and
-- the card's rate ("8 x 6 Gb/s lanes", n the drives), or, behind an
-- expander (sas_ports), the card's wide ports when they carry less ("2 x
-- 4-lane 6 Gb/s ports"); nil when the sim set no lane rate.
local function card_lanes(c)
  local drive, card = tonumber(c.drive_gbps) or 0, tonumber(c.lane_gbps) or 0
  local lane = drive > 0 and card > 0 and math.min(drive, card) or drive + card
  local n = math.tointeger(tonumber(c.drives))
  if lane <= 0 or not n or n < 1 then return nil end
  local bps, name = n * lane_bps(lane), ("%d x %g Gb/s lane%s"):format(n, lane, n > 1 and "s" or "")
  local ports, per = math.tointeger(tonumber(c.ports)) or 0, math.tointeger(tonumber(c.port_lanes)) or 4
  if ports > 0 and card > 0 and ports * per * lane_bps(card) < bps then
    bps = ports * per * lane_bps(card)
    name = ("%d x %d-lane %g Gb/s port%s"):format(ports, per, card, ports > 1 and "s" or "")
  end
  return bps, name, n, lane
end

-- A card's ceiling: its PCIe link, or its lanes when they carry less; the
-- name ("PCIe2 x8", "8 x 3 Gb/s lanes") and whether the lanes set it.
local function card_ceiling(c)
  local pcie, label = fmt.link_ceiling(c.link)
  local lanes, name, n, lane = card_lanes(c)
  if lanes and (not pcie or lanes < pcie) then return lanes, name, n, lane end
  return pcie, label and label:match("^(.-) ceiling")
end

-- A simulated step's ceiling: its cards' summed ("2 x PCIe2 x8 ceiling
-- 8,000 MB/s"; "16 x 3 Gb/s lanes ceiling 4,464 MB/s" for two cards of 8
-- drives on 3 Gb/s lanes; "PCIe1 x8 + 8 x 3 Gb/s lanes ceiling ..." when
-- they differ), in MB/s (MiB/s), the bars' unit, and whether lanes set any
-- of it; nil when a card's link is unknown.
local function sim_ceiling(s)
  local cards, sum, names, lanes, nlanes, rate = sim_cards(s), 0, {}, false, 0, nil
  for _, c in ipairs(cards) do
    local bps, name, n, lane = card_ceiling(c)
    if not bps then return nil end
    sum, names[#names + 1] = sum + bps, name
    if n then
      lanes, nlanes = true, nlanes + n
      rate = (rate == nil or rate == lane) and lane or false
    end
  end
  local same = #cards > 1 and table.concat(names, "") == names[1]:rep(#cards)
  local name = #cards == 1 and names[1]
    -- alike cards whose drives' lanes set it: the lanes counted together
    or same and rate and not names[1]:find("port") and ("%d x %g Gb/s lanes"):format(nlanes, rate)
    or same and ("%d x %s"):format(#cards, names[1]) or table.concat(names, " + ")
  return sum, ("%s ceiling %s"):format(name, charts.rate(sum)), lanes
end

-- A step's ceiling: a simulated step's (its cards' links, or their drives'
-- lanes where they carry less), else the run's probed link.
local function ceiling_of(run, s)
  if not s.sim_link then return probed_ceiling(run) end
  return sim_ceiling(s)
end

local function sequential(s)
  return s.kind == "measure" and (s.rw == "read" or s.rw == "write")
end

-- Clusters: each sequential step outside a sweep, and the best point of
-- each sequential OIO sweep.
local function bar_clusters()
  local clusters, sweeps = {}, {}
  for _, row in ipairs(ctx.rows) do
    local s = row.first
    if sequential(s) and (not s.axis or s.axis == "") then
      clusters[#clusters + 1] = { label = ctx.label(s), steps = row.steps }
    elseif sequential(s) and s.axis == "oio" then
      local g = s.group_name or s.name
      if not sweeps[g] then
        sweeps[g] = { label = g .. " (best OIO)", steps = {}, sweep = g }
        clusters[#clusters + 1] = sweeps[g]
      end
      for i = 1, #ctx.runs do
        local x, best = row.steps[i], sweeps[g].steps[i]
        if x and x.status == "done" and x.mbps and (not best or x.mbps > best.mbps) then
          sweeps[g].steps[i] = x
        end
      end
    end
  end
  return clusters
end

-- Characters of the charts' font (small: of the bars' labels) across a
-- chart: 120 (150) at 1280x720, the font following the square root of the
-- scale (core/report/report_chart.c, font_scale)
local function chars_across(small)
  local w, h = report.width or 1280, report.height or 720
  return (small and 150 or 120) * (w / 1280) / math.sqrt(math.min(w / 1280, h / 720))
end

-- 1 when a bar is narrower than its value ("5984") or origin ("OIO 32"): the
-- values stand upright (bars.gp's vertical), else 0
local function vertical_values(series, nclusters)
  local width, longest = chars_across(true) / math.max(nclusters, 1) * 0.8 / math.max(#series, 1), 0
  for _, s in ipairs(series) do
    for _, row in ipairs(s.rows) do
      local v = type(row[2]) == "number" and row[2] == row[2] and fmt.num(row[2]) or ""
      longest = math.max(longest, #v, #(row[6] or ""))
    end
  end
  return longest + 1 > width and 1 or 0
end

-- A ceiling's label in its forms, longest first: "8 x 6 Gb/s lanes ceiling
-- 4,464 MB/s", "8 x 6 Gb/s lanes 4,464 MB/s", "8 x 6 Gb/s lanes 4,464" (the
-- unit is the axis's; one lane is "6 Gb/s lane 558"), "8x6G lanes 4,464"
-- (the compact form)
local function ceiling_forms(label)
  local short = label:gsub(" ceiling ", " ", 1)
  local bare = short:gsub("^1 x ", "", 1):gsub(" Mi?B/s$", "", 1)
  return { label, short, bare, (bare:gsub("^(%d+) x ", "%1x", 1):gsub("([%d.]+) Gb/s lane", "%1G lane", 1)) }
end

-- A ceiling shared by several runs' bars of a cluster is labelled once,
-- centred over those bars (column 7: the series position it is centred on,
-- NaN on the bars whose ceiling is labelled elsewhere or not at all;
-- gnuplot's off() is linear in it), in the longest of its forms
-- (ceiling_forms) that fits over those bars, every label of the chart in
-- the same form: chars_across(true) characters of the labels' small font
-- span the chart, 0.8 of a cluster's share of them its bars, all of it (the
-- gaps beside them) for a label over all the cluster's bars.
local function center_ceilings(series, keys, labelled, nclusters)
  local nseries, level, at = #series, 1, {}
  for i, s in ipairs(series) do
    for k, row in ipairs(s.rows) do
      local l = labelled[keys[i][k]]
      if l and row[5] ~= "" then
        -- over the bars from the first to the last that share it, when no
        -- other run's bar is between them (else over the first)
        local n = l.last - l.first + 1 == l.n and l.n or 1
        row[7] = l.first + (n - 1) / 2
        -- a label over all of a cluster's bars may reach into the gaps beside them
        local width = chars_across(true) / nclusters * (n == nseries and 1 or 0.8 * n / nseries)
        local forms, fit = ceiling_forms(row[5]), 1
        while fit < #forms and #forms[fit] > width do fit = fit + 1 end
        level, at[#at + 1] = math.max(level, fit), { row, forms }
      end
    end
  end
  -- one form for every label of the chart: the shortest any of them needs
  for _, x in ipairs(at) do x[1][5] = x[2][level] end
end

-- Each series' fill pattern, its run's (series[k].run; ranked.pattern), so
-- that a greyscale print tells the runs' bars apart.
local function patterns(series)
  local list = {}
  for k, sr in ipairs(series) do list[k] = require("ranked").pattern(sr.run) end
  return list
end

-- A rate's unit spelled out on a bar chart's y axis (unit: compare.metric's
-- or compare.throughput's): what a MB or a MiB is; IOPS as they are.
local function rate_ylabel(unit)
  if unit == "MB/s" then return "MB/s (1 MB = 1,000,000 bytes)" end
  if unit == "MiB/s" then return "MiB/s (1 MiB = 1,048,576 bytes)" end
  return unit
end

-- An axis's tick labels (ax: format.axis's) in unit: a MiB/s axis's in
-- plain figures, "5,000" (not "5k", a decimal prefix on a binary unit: the
-- bars' and the controllers' charts), others as format.axis gives them.
function charts.tick_labels(ax, unit)
  if unit ~= "MiB/s" then return ax.labels end
  local labels = {}
  for k, v in ipairs(ax.ticks) do
    labels[k] = v == math.floor(v) and fmt.num(v):gsub("%.0+$", "") or fmt.tick(v)
  end
  return labels
end

-- The y axis of a bar chart of values up to ymax in unit: from 0 to a third
-- above the tallest bar or ceiling (room for its value, the ceilings'
-- labels and the key), its ticks and their labels, and its label. One unit
-- on the whole chart: a MiB/s axis is ticked in MiB/s as its bars and
-- ceilings are labelled, "5,000" (not "5k", a decimal prefix on a binary
-- unit, nor GiB/s beside bars in MiB/s).
local function bar_axis(args, ymax, unit)
  args.ylabel = rate_ylabel(unit)
  -- a line of the labels' font as a share of the axis (bars.gp's ch): 0.03 at
  -- 1280x720; the font follows the square root of the scale, the axis the height
  local w, h = report.width or 1280, report.height or 720
  args.line = 0.03 * math.sqrt(math.min(w / 1280, h / 720)) / (h / 720)
  local ax = fmt.axis(0, ymax * 1.35 + 1)
  args.ymax, args.ytv, args.ytl = ax.max, ax.ticks, charts.tick_labels(ax, unit)
  return args
end

-- Where a bar's value stands (column 8, in the axis's unit; bars.gp's
-- val_y): on the bar, or, when the bar ends within a line and a half of the
-- labels' font (ch, in the axis's unit) of its ceiling, under or over it,
-- over the ceiling's dashed line or the bar's top rather than through the
-- line, clear of it by CLEAR_LINES of a line (at the line, its text sat on
-- the dashes).
local NEAR_LINES, CLEAR_LINES = 1.5, 0.45
local function value_heights(series, ch)
  for _, s in ipairs(series) do
    for _, row in ipairs(s.rows) do
      local v, ceil = fmt.finite(row[2]), fmt.finite(row[4])
      local near = v and ceil and math.abs(v - ceil) < NEAR_LINES * ch
      row[8] = near and math.max(v, ceil) + CLEAR_LINES * ch or v or NaN
    end
  end
end

function charts.sequential_bars()
  local clusters = bar_clusters()
  if #clusters == 0 then return end
  local field, unit, mult = compare.throughput()	-- MB/s, or MiB/s under --units MiB
  local series, ymax, labelled, any_ceiling, from, keys = {}, 0, {}, false, {}, {}
  local any_lanes = false	-- a simulated step's SAS/SATA lanes carry less than its link
  for i, r in ipairs(ctx.runs) do
    local pts = {}
    keys[i] = {}
    for k, cl in ipairs(clusters) do
      local s = cl.steps[i]
      local v = s and s.status == "done" and s[field] or nil
      local bps, label = nil, nil
      local lanes
      if s then bps, label, lanes = ceiling_of(r, s) end
      local ceil = bps and bps / 1e6 * mult
      local key = k .. ":" .. tostring(ceil)
      if ceil then
        labelled[key] = labelled[key] or { label = label, first = i, n = 0 }
        labelled[key].n, labelled[key].last = labelled[key].n + 1, i
        label = labelled[key].first == i and label or ""
        any_ceiling = true
        any_lanes = any_lanes or lanes == true
      end
      ymax = math.max(ymax, v or 0, ceil or 0)
      -- a sweep's bar says which OIO it is (runs peak at different ones)
      local oio = v and cl.sweep and ("OIO " .. s.axis_value) or ""
      if oio ~= "" then
        from[k] = from[k] or {}
        table.insert(from[k], ("%s at OIO %s"):format(r.name, s.axis_value))
      end
      pts[k] = { k - 1, v or NaN, cl.label, ceil or NaN, label or "", oio, NaN }
      keys[i][k] = key
    end
    series[i] = { title = r.series_title, color = r.color, rows = pts, run = i }
  end
  center_ceilings(series, keys, labelled, #clusters)
  if charts.npoints(series) == 0 then return end
  local missing = charts.left_out(series, true)
  local peaks = {}
  for k, cl in ipairs(clusters) do
    if from[k] then peaks[#peaks + 1] = ("%s: %s"):format(cl.sweep, table.concat(from[k], ", ")) end
  end
  -- no run's link known (a virtio disk, no pcie probe facts): no ceiling promised
  ctx.add(any_ceiling and "<h2>Sequential throughput and the PCIe ceiling</h2>"
    or "<h2>Sequential throughput</h2>")
  local args = bar_axis({ nclusters = #clusters, vertical = vertical_values(series, #clusters),
    across = chars_across(), pattern = patterns(series) }, ymax, unit)
  value_heights(series, args.line * args.ymax)
  local c = report.chart{ name = "sequential-bars", template = "bars",
    title = ("Sequential throughput (%s)%s"):format(unit, any_lanes
      and " against each run's ceiling, its PCIe link or its drives' SAS lanes"
      or any_ceiling and " against each run's PCIe link ceiling" or ""),
    columns = { "cluster", unit, "step", "ceiling_" .. unit, "ceiling", "from", "ceiling_at", "value_y" },
    series = series, better = "higher", args = args }
  figure(c, (any_ceiling and ("Throughput per run; dashed: the PCIe link ceiling of the slot "
    .. "(line encoding included, protocol overhead not)"
    .. (any_lanes and ", or the drives' SAS/SATA lanes where they carry less (8b/10b and "
      .. "framing included: " .. charts.rate(558e6) .. " a 6 Gb/s lane)" or ""))
    or "Throughput per run; no run's PCIe link is known, so no ceiling is drawn")
    .. (#peaks > 0 and ("; each run's best OIO of the sweep " .. table.concat(peaks, "; ")) or "") .. missing)
end

-- ---- latency percentiles of one point of each sweep group -----------------
local LEVELS = { 50, 90, 99, 99.9, 99.99 }

-- The point of the group at its highest swept value that every run has.
local function common_top(rows)
  local best
  for _, row in ipairs(rows) do
    local all = true
    for i = 1, #ctx.runs do
      if not (row.steps[i] and row.steps[i].status == "done") then all = false end
    end
    if all and (not best or x_of(row.first.axis, row.first.axis_value) >
                            x_of(best.first.axis, best.first.axis_value)) then
      best = row
    end
  end
  return best
end

function charts.percentiles(g, rows, axis)
  local hist = require("hist")
  local row = common_top(rows)
  if not row then return end
  local series, any = {}, false
  for i, r in ipairs(ctx.runs) do
    local s = row.steps[i]
    local p = hist.percentiles(s.id, LEVELS, s.lat_max_us)
    local pts = {}
    for _, lv in ipairs(LEVELS) do
      if p and p[lv] then pts[#pts + 1] = { -math.log(1 - lv / 100, 10), p[lv], lv }; any = true end
    end
    series[i] = { title = r.series_title, color = r.color, rows = pts }
  end
  if not any then return end
  local what = ("%s at %s %s"):format(g, ({ oio = "OIO", bs = "bs" })[axis] or "write %",
    row.first.axis_value)
  local c = report.chart{ name = axis .. "-" .. g .. "-percentiles", template = "percentiles",
    title = what .. ": latency percentiles", columns = { "nines", "latency_us", "percentile" },
    series = series, better = "lower", args = charts.y_axis({}, series, { 2 }, "log") }
  figure(c, what .. ": latency percentiles p50 .. p99.99 from the stored histograms")
end

-- ---- per-target bars of multi-target (JBOD) steps ------------------------------
local TARGETS = [[
  SELECT path, iops, mbps FROM step_target_rate WHERE step_id = ?1 ORDER BY path]]

-- A path's key for sorting in natural order: its numbers zero-padded, so
-- that sd2 comes before sd10 (the database's order puts sd10 first)
local function natural(path)
  return (path:gsub("%d+", function(d) return ("0"):rep(20 - #d) .. d end))
end

-- The part the targets' paths share, up to and with a separator ("/dev/",
-- "pcie1x8-" of "pcie1x8-sdb" and "pcie1x8-sdc"), said once in the x axis's
-- title rather than under every bar; "" when they share none or one would
-- be left with nothing.
local function common_prefix(paths)
  local pre = paths[1] or ""
  for _, p in ipairs(paths) do
    local n = 0
    while n < #pre and n < #p and pre:byte(n + 1) == p:byte(n + 1) do n = n + 1 end
    pre = pre:sub(1, n)
  end
  pre = pre:match("^(.*[-_/.:])") or ""
  for _, p in ipairs(paths) do
    if #p == #pre then return "" end
  end
  return pre
end

-- The per-target bars' labels under the clusters: each path without the
-- shared prefix, and 1 when the longest is still wider than its cluster
-- (chars_across: 120 characters across at 1280x720, a cluster its share):
-- then the labels are turned (bars.gp's rotate) rather than run into each
-- other; its length, for the room under the axis.
local function target_labels(paths)
  local pre, labels, longest = common_prefix(paths), {}, 0
  for k, p in ipairs(paths) do
    labels[k] = p:sub(#pre + 1)
    longest = math.max(longest, utf8.len(labels[k]) or #labels[k])
  end
  return labels, pre, longest + 1 > chars_across() / #paths and 1 or 0, longest
end

-- The y axis's title of per-target bars whose names stand upright under
-- them: the unit alone ("MiB/s") when its definition would not fit the
-- plot's height (the names take it: at 800x450, 16 names of 24 characters
-- left 11 lines, and "MiB/s (1 MiB = 1,048,576 bytes)", 14 lines upright,
-- ran past the plot into the title); the caption then defines the unit.
-- Lines down a chart: 36 at 1280x720, following the font as chars_across;
-- over and under the plot 3 lines, 2, the names' and the x label's; a
-- character upright about 0.46 of a line (bars.gp's names_h: 0.45).
local function upright_ylabel(args, unit)
  local w, h = report.width or 1280, report.height or 720
  local down = 36 * (h / 720) / math.sqrt(math.min(w / 1280, h / 720))
  local names = args.rotate == 1 and math.floor(args.label_chars * 0.45) + 1 or 1
  local plot = down - 5 - names - (args.xlabel and 1 or 0)
  if (utf8.len(args.ylabel) or #args.ylabel) * 0.46 <= plot then return "" end
  args.ylabel = unit
  return " (" .. rate_ylabel(unit):match("%((.*)%)") .. ")"
end

function charts.per_target()
  local heading = false
  for _, row in ipairs(ctx.rows) do
    local s0 = row.first
    local field, unit = compare.metric(s0)
    local col, mult = compare.stored(field)
    local per, paths, seen = {}, {}, {}
    for i = 1, #ctx.runs do
      local s = row.steps[i]
      per[i] = {}
      if s and s.status == "done" and (s.window_s or 0) > 0 then
        local t = report.sql(TARGETS, s.id)
        if #t > 1 then
          for _, x in ipairs(t) do
            per[i][x.path] = x[col] and x[col] * mult
            if not seen[x.path] then seen[x.path] = true; paths[#paths + 1] = x.path end
          end
        end
      end
    end
    if #paths > 1 then
      if not heading then ctx.add("<h2>Per target (JBOD)</h2>"); heading = true end
      table.sort(paths, function(a, b) return natural(a) < natural(b) end)	-- sd2 before sd10
      local series, ymax = {}, 0
      local labels, pre, rotate, longest = target_labels(paths)
      for i, r in ipairs(ctx.runs) do
        local pts = {}
        for k, p in ipairs(paths) do
          pts[k] = { k - 1, per[i][p] or NaN, labels[k], NaN, "", "", NaN, per[i][p] or NaN }
          ymax = math.max(ymax, per[i][p] or 0)
        end
        series[i] = { title = r.series_title, color = r.color, rows = pts, run = i }
      end
      local what = ctx.label(s0)
      if charts.npoints(series) == 0 then goto next_row end	-- no rate known (Inf in the database)
      local missing = charts.left_out(series, true)	-- before the chart: no empty slot
      local args = bar_axis({ nclusters = #paths,
                 vertical = vertical_values(series, #paths), across = chars_across(),
                 pattern = patterns(series), rotate = rotate, label_chars = longest,
                 xlabel = pre ~= "" and ("target (%s…)"):format(pre) or "target" }, ymax, unit)
      local defined = upright_ylabel(args, unit)
      local c = report.chart{ name = "targets-" .. what, template = "bars",
        title = what .. ": " .. unit .. " per target", series = series,
        columns = { "target", unit, "path", "ceiling", "ceiling label", "from", "ceiling_at", "value_y" },
        better = "higher", args = args }
      figure(c, ("%s: %s%s of each of its %s over the measurement window%s%s"):format(what, unit, defined,
        fmt.plural(#paths, "target"), pre ~= "" and (", each named without the " .. pre
        .. " all share") or "", missing))
    end
    ::next_row::
  end
end

-- ---- SNIA steady state: convergence per run and hb.steady ------------------
local TRACK_LABEL = { iops = "IOPS", mbps = "MB/s", lat_mean_us = "mean latency (µs)",
                      lat_p99_us = "p99 latency (µs)" }

function charts.steady()
  local heading = false
  for i, r in ipairs(ctx.runs) do
    for _, ss in ipairs(report.sql("SELECT * FROM steady_state WHERE run_id = ?1 ORDER BY id", r.id)) do
      local track = ss.track or "iops"
      local ok_track = ({ iops = true, mbps = true, lat_mean_us = true, lat_p99_us = true })[track]
      local rounds = report.sql(("SELECT round, %s AS v FROM steps WHERE run_id = ?1 AND kind = 'steady-round'"
        .. " AND id BETWEEN ?2 AND ?3 ORDER BY round"):format(ok_track and track or "iops"),
        r.id, ss.first_step_id or 0, ss.last_step_id or 0)
      if #rounds > 0 then
        if not heading then
          ctx.add("<h2>SNIA steady state</h2>")
          heading = true
        end
        local pts = {}
        for k, x in ipairs(rounds) do pts[k] = { x.round or NaN, x.v or NaN } end
        local title = ("%s — %s: steady state %s in %s"):format(r.series_title, ss.name,
          ss.attained == 1 and "attained" or "NOT attained", fmt.plural(ss.rounds or 0, "round"))
        local c = report.chart{ name = ("steady-run%d-%s"):format(i, tostring(ss.name)), template = "steady",
          key_entries = 4,	-- the rounds, the mean, the band and the slope
          title = title, columns = { "round", track },
          series = { { title = r.series_title, color = r.color, rows = pts } },
          better = track:match("^lat") and "lower" or "higher",
          args = charts.y_axis({ ylabel = TRACK_LABEL[track] or track, wfirst = ss.window_first or 0,
                   wlast = ss.window_last or 0, mean = ss.mean or 0, slope = ss.slope or 0, nrounds = #rounds,
                   band = (ss.max_data_excursion or 0.2) / 2 },
                   { { rows = pts }, { rows = { { 0, (ss.mean or 0) * (1 + (ss.max_data_excursion or 0.2) / 2) } } } },
                   { 2 }, "zero", 1.35) }
        -- the excursions as the limits are given: in % of the window's mean
        local function pct(x) return (ss.mean or 0) ~= 0 and (x or 0) / ss.mean * 100 or 0 end
        figure(c, title .. (". Window rounds %s-%s, mean %s: data excursion %.1f %% of the mean "
          .. "(limit %.0f %%), slope excursion %.1f %% (limit %.0f %%)"):format(ss.window_first or "?",
          ss.window_last or "?", fmt.num(ss.mean or 0), pct(ss.data_excursion),
          (ss.max_data_excursion or 0) * 100, pct(ss.slope_excursion), (ss.max_slope_excursion or 0) * 100))
      end
    end
  end
end

-- ---- exec steps (scrub, copy): a table of time and MB/s per run ---------------
-- 3725 -> "1:02:05", 3.46 -> "0:00:03.5" (tenths under a minute)
local function hms(sec)
  sec = fmt.finite(sec)
  if not sec then return "–" end
  if sec < 59.95 then return ("0:00:%04.1f"):format(sec) end
  sec = math.floor(sec + 0.5)
  return ("%.0f:%02d:%02d"):format(sec // 3600, sec % 3600 // 60, sec % 60)
end

function charts.exec_table()
  local mib = report.units == "MiB"	-- --units MiB
  local list = {}
  for _, row in ipairs(ctx.rows) do
    if row.first.kind == "exec" then list[#list + 1] = row end
  end
  if #list == 0 then return end
  ctx.add("<h2>Timed commands</h2><table><thead><tr><th>Step</th>")
  for _, r in ipairs(ctx.runs) do
    ctx.add('<th class="num">', esc(r.series_title), " time (h:m:s)</th>", '<th class="num">',
      mib and "MiB/s" or "MB/s", "</th>")
  end
  ctx.add("</tr></thead><tbody>")
  for _, row in ipairs(list) do
    ctx.add("<tr><td>", esc(row.first.name), "</td>")
    for i = 1, #ctx.runs do
      local s = row.steps[i]
      local bad = s and s.exit_status and s.exit_status ~= 0
      ctx.add('<td class="num">', s and hms(s.elapsed_s) or "–",
        bad and (' <span class="warn">exit ' .. s.exit_status .. "</span>") or "", "</td>",
        '<td class="num">', s and fmt.num(mib and s.mbps and s.mbps * 1e6 / 2 ^ 20 or s.mbps) or "–", "</td>")
    end
    ctx.add("</tr>")
  end
  ctx.add("</tbody></table>")
end

return charts
