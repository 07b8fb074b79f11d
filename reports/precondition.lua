-- Preconditioning of every run of a report on one chart per step: each
-- run's seconds as dots and their rolling average as a line, time in
-- minutes (seconds under two, hours past an hour): the descents compare.
local compare = require("compare")
local fmt = require("format")
local precondition = {}
local esc = report.escape_html

local SAMPLES = [[
  SELECT t, iops, mbps, secs FROM sample_total WHERE step_id = ?1 ORDER BY t]]
local MIN_SECONDS = 5	-- fewer seconds make no chart worth a reader's look
local FRAGMENT_S = 0.1	-- a last second the step covered less of: no dot (charts.scatter)

-- What a step is charted by: MB/s (MiB/s) for a fill by passes or for
-- large blocks, else IOPS; and the factor from the stored value.
local function metric(s)
  local field, unit = compare.metric(s)
  if (s.passes or 0) > 0 then field, unit = compare.throughput() end
  local col, mult = compare.stored(field)
  return col, unit, mult
end

-- rows { t, value, rolling average } of one step (t over scale seconds),
-- and the average's window; nil when it has fewer than MIN_SECONDS
local function series_of(s, field, mult, scale)
  local dots = {}
  for _, x in ipairs(report.sql(SAMPLES, s.id)) do
    local v = fmt.finite(x[field])
    if v and x.t and ((x.secs or 1) >= FRAGMENT_S or #dots == 0) then dots[#dots + 1] = { x.t, v * mult } end
  end
  if #dots < MIN_SECONDS then return nil end
  -- the rolling average of the last w seconds, w a fiftieth of the step (5 s at least)
  local w, sum, rows = math.max(MIN_SECONDS, #dots // 50), 0, {}
  for k, d in ipairs(dots) do
    sum = sum + d[2] - (k > w and dots[k - w][2] or 0)
    rows[k] = { d[1] / scale, d[2], sum / math.min(k, w) }
  end
  return rows, w
end

-- The runs' series of one precondition row, the time unit and the window;
-- nil when no run has MIN_SECONDS of it.
local function gather(ctx, row)
  local field, unit, mult = metric(row.first)
  local longest, series, w = 0, {}, 0
  for i = 1, #ctx.runs do
    local s = row.steps[i]
    local x = s and report.sql("SELECT max(t) AS t FROM sample_total WHERE step_id = ?1", s.id)[1]
    longest = math.max(longest, x and x.t or 0)
  end
  local scale, tunit = 60, "minutes"	-- seconds under two minutes, hours past an hour
  if longest > 3600 then scale, tunit = 3600, "hours" elseif longest < 120 then scale, tunit = 1, "s" end
  for i, r in ipairs(ctx.runs) do
    local rows, wi
    if row.steps[i] then rows, wi = series_of(row.steps[i], field, mult, scale) end
    if rows then
      w = math.max(w, wi)
      series[#series + 1] = { title = r.series_title, color = r.color, rows = rows }
    end
  end
  if #series == 0 then return nil end
  return { series = series, unit = unit, tunit = tunit, w = w, longest = longest }
end

local function chart(ctx, row, d)
  local ymax = 0
  for _, s in ipairs(d.series) do
    for _, x in ipairs(s.rows) do ymax = math.max(ymax, x[2]) end
  end
  local y = fmt.axis(0, ymax * 1.05)
  local what = row.first.name or "?"
  local c = report.chart{ name = "precondition-" .. what, template = "precondition", embed = "png",
    title = ("%s: %s second by second"):format(what, d.unit), columns = { "t_" .. d.tunit, d.unit, "rolling" },
    series = d.series, better = "higher", args = { xlabel = "time (" .. d.tunit .. ")", ylabel = d.unit, ymax = y.max,
      ytv = y.ticks, ytl = y.labels, dot = d.longest < 600 and 0.8 or 0.35,
      mark_every = math.max(1, #d.series[1].rows // 8) } }
  ctx.figure(c, ("%s: every second of each run (dots) and its rolling average over %s (lines)%s"):format(
    what, fmt.plural(d.w, "second"), #d.series < #ctx.runs and
    ("; %d of %d runs have %s or more"):format(#d.series, #ctx.runs, fmt.plural(MIN_SECONDS, "second")) or ""))
end

-- ctx: { runs =, rows =, add =, figure = }
function precondition.charts(ctx)
  local heading = "Preconditioning, every run on one chart"
  for _, row in ipairs(ctx.rows) do
    local d = row.first.kind == "precondition" and gather(ctx, row)
    if d then
      if heading then ctx.add("<h2>", esc(heading), "</h2>"); heading = nil end
      chart(ctx, row, d)
    end
  end
end

return precondition
