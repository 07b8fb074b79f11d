-- IOPS-latency curves: per group swept over OIO, mean and p99 latency over
-- IOPS (MB/s for blocks of 64k and more), one pair of lines per run, the
-- points labelled with their OIO: how much latency each rate costs.
local at = require("at")
local fmt = require("format")
local curves = {}
local esc = report.escape_html

-- The runs' points of one group: series (one per run, rows { x, mean, p99,
-- OIO }, by OIO), the unit of x, and the lowest and highest latency.
local function points(ctx, rows)
  local series, unit, lo, hi, xmax = {}, nil, nil, nil, 0
  for i, r in ipairs(ctx.runs) do
    local pts = {}
    for _, row in ipairs(rows) do
      local s = row.steps[i]
      local x, u = nil, nil
      if s and s.status == "done" then x, u = at.value(s) end
      local mean, p99 = fmt.finite(s and s.lat_mean_us), fmt.finite(s and s.lat_p99_us)
      if fmt.finite(x) and (mean or p99) then
        unit = unit or u
        pts[#pts + 1] = { x, mean or "NaN", p99 or "NaN", tostring(s.axis_value), oio = tonumber(s.axis_value) or 0 }
        for _, v in ipairs{ mean, p99 } do
          if v and v > 0 then lo, hi = math.min(lo or v, v), math.max(hi or v, v) end
        end
        xmax = math.max(xmax, x)
      end
    end
    table.sort(pts, function(a, b) return a.oio < b.oio end)
    if #pts > 0 then series[#series + 1] = { title = r.series_title, color = r.color, rows = pts } end
  end
  return series, unit, lo, hi, xmax
end

-- The y axis: log when the latencies span a decade or more, else linear
-- from near the lowest (not from 0, which would flatten the curves).
local function y_axis(lo, hi)
  if hi / lo >= 10 then return fmt.log_axis(lo, hi) end
  local span = hi - lo > 0 and hi - lo or hi * 0.1
  return fmt.axis(math.max(0, lo - span * 0.15), hi + span * 0.05)
end

-- Where each point's OIO label goes (column 5): "below", "right" or "left"
-- of it, the side furthest from the lines to its neighbours on the mean
-- curve, so that no line crosses it (below a point on a curve that climbs
-- at one rate, the label sat on the line to the next OIO; above is the
-- p99's point). Directions as drawn: x over the axis's width, y over its
-- height (log or linear, as the axis), the plot about 2 times wider than high.
local SIDES = { { "below", 0, -1 }, { "right", 1, 0 }, { "left", -1, 0 } }
local function label_sides(series, x, y)
  local function at(p)
    local v = fmt.finite(p[2])
    if not v or v <= 0 then return nil end
    local fy = y.log and math.log(v / y.min) / math.log(y.max / y.min) or (v - y.min) / (y.max - y.min)
    return p[1] / x.max * 2, fy
  end
  for _, s in ipairs(series) do
    for k, p in ipairs(s.rows) do
      local px, py = at(p)
      local worst = { 0, 0, 0 }	-- per side, how straight a line to a neighbour heads at it
      for _, q in ipairs{ s.rows[k - 1], s.rows[k + 1] } do
        local qx, qy
        if q then qx, qy = at(q) end
        local len = px and qx and math.sqrt((qx - px) ^ 2 + (qy - py) ^ 2) or 0
        if len > 0 then
          for j, side in ipairs(SIDES) do
            worst[j] = math.max(worst[j], ((qx - px) * side[2] + (qy - py) * side[3]) / len)
          end
        end
      end
      local best = 1	-- below unless a side is clearly freer
      for j = 2, #SIDES do
        if worst[j] < worst[best] - 0.05 then best = j end
      end
      p[5] = SIDES[best][1]
    end
  end
end

local function chart(ctx, g, rows)
  local series, unit, lo, hi, xmax = points(ctx, rows)
  if #series == 0 or not lo then return end
  local x, y = fmt.axis(0, xmax * 1.05), y_axis(lo, hi)
  local logy = y.log and 1 or 0
  label_sides(series, x, y)
  local c = report.chart{ name = "iops-latency-" .. g, template = "iops_latency",
    title = ("%s: latency over %s"):format(g, unit), key_entries = 2, key_suffix = 5, key_own = 0,	-- " mean", " p99"
    columns = { unit, "lat_mean_us", "lat_p99_us", "oio", "label_side" }, series = series,
    better = "lower and further right is better",
    args = { xlabel = unit .. " (each point labelled with its OIO)",
             ylabel = logy == 1 and "latency (µs, log scale)" or "latency (µs)",
             xmax = x.max, xtv = x.ticks, xtl = x.labels,
             ytv = y.ticks, ytl = y.labels, ylo = y.min, yhi = y.max,
             logy = logy } }
  -- the caption's start, to " over " or " (", is the chart's entry in the contents
  ctx.figure(c, ("%s: mean and p99 latency against %s (mean solid and filled, p99 dashed and "
    .. "open), one pair of lines per run, each point labelled with its OIO%s"):format(g, unit,
    #series < #ctx.runs and ("; %d of %d runs have points"):format(#series, #ctx.runs) or ""))
end

-- ctx: { runs =, rows =, add =, figure = }
function curves.charts(ctx)
  local groups, order = at.groups(ctx.rows, "oio")
  local heading = "Latency over IOPS"
  for _, g in ipairs(order) do
    if heading then ctx.add("<h2>", esc(heading), "</h2>"); heading = nil end
    -- its own id: the group's grp-NAME is its section's heading further down
    ctx.add('<h3 id="lat-', require("page").slug(g), '">', esc(g), "</h3>")
    chart(ctx, g, groups[g])
  end
end

return curves
