-- Ranked bars: for each group swept over OIO or write % (or an axis --at
-- names), the runs at one point (reports/at.lua), best on top, each bar
-- labelled with its value and its delta against the baseline run; then
-- each single-point random step's runs the same way (NN-bars-STEP), and a
-- group's single-point random steps side by side (NN-steps-GROUP). Each
-- run has its fill pattern besides its colour (ranked.pattern).
local at = require("at")
local compare = require("compare")
local fmt = require("format")
local ranked = {}
local esc = report.escape_html

-- The bars of one group at row: { run =, value =, unit = }, best first.
local function bars_at(runs, row)
  local bars = {}
  for i, r in ipairs(runs) do
    local s = row.steps[i]
    local v, unit = nil, nil
    if s and s.status == "done" then v, unit = at.value(s) end
    if fmt.finite(v) then bars[#bars + 1] = { run = r, index = i, value = v, unit = unit } end
  end
  table.sort(bars, function(a, b)
    if a.value ~= b.value then return a.value > b.value end
    return a.index < b.index
  end)
  return bars
end

-- "+3.2 %" ("−" for a fall; "±0.0 %", as on the page, for no change), or
-- "baseline"; nil without a baseline value
local function delta_text(v, base, is_base)
  if is_base then return "(baseline)" end
  local d = compare.delta(v, base, true)
  if not d then return nil end
  local t = ("%+.1f %%"):format(d):gsub("^[-+](0%.0 %%)$", "±%1")
  return (t:gsub("^%-", "−"))
end

-- Each run's fill pattern on every bar chart (gnuplot's `fs pattern N` in
-- its colour: 0 solid, then the two diagonals, a cross, the fine
-- diagonals, a dense cross), so that a greyscale print tells the runs
-- apart; seven, then the first again (the templates draw 0 as solid).
local PATTERNS = { 0, 4, 5, 1, 6, 7, 2 }
function ranked.pattern(run_index) return PATTERNS[(run_index - 1) % #PATTERNS + 1] end

-- The bars as a chart: each labelled with its value and its delta against
-- the baseline's value (base, nil when the baseline has none); { name =,
-- title = } of the chart. Returns the chart.
local function draw(ctx, bars, base, spec)
  local series, n, patterns = {}, #bars, {}
  for k, b in ipairs(bars) do
    local d = b.delta or delta_text(b.value, base, b.index == ctx.baseline)
    local label = fmt.num(b.value) .. " " .. b.unit .. (d ~= "" and d and ("  " .. d) or "")
    b.label = label
    series[k] = { title = b.run.series_title, color = b.run.color,
                  rows = { { n - k + 1, b.value, label, b.tic or b.run.series_title } } }
    patterns[k] = ranked.pattern(b.index)
  end
  local unit = bars[1].unit
  -- room right of the longest bar for its label (about 20 characters)
  local ax = fmt.axis(0, bars[1].value * 1.35)
  return report.chart{ name = spec.name, template = "ranked", title = spec.title,
    columns = { "position", unit, "label", "run" }, series = series, better = "higher",
    args = { xlabel = unit, xmax = ax.max, xtv = ax.ticks, xtl = ax.labels, nbars = n, pattern = patterns } }
end

local function baseline_value(ctx, bars)
  for _, b in ipairs(bars) do if b.index == ctx.baseline then return b.value end end
  return nil
end

local function chart(ctx, g, axis, row, why, bars)
  local base = baseline_value(ctx, bars)
  local unit, point = bars[1].unit, at.point_text(axis, row.first.axis_value)
  local c = draw(ctx, bars, base, { name = ("ranked-%s-%s-%s"):format(g, axis, row.first.axis_value),
    title = ("%s: %s at %s"):format(g, unit, point) })
  local how = ({ given = "the point --at gives", ["highest shared"] = "the highest point every run has",
    highest = "the highest point the most runs have" })[why] or
    ("the highest point the runs share (%s: this group has no such point)"):format(why:match("not (.*)$") or why)
  ctx.figure(c, ("%s: the runs at %s (%s), best on top; each bar gives its %s and its delta against "
    .. "%s%s"):format(g, point, how, unit, ctx.runs[ctx.baseline].name,
    base and "" or " (which has no value here: no deltas)"))
end

-- A single-point random step (no axis; randread, randwrite or randrw, as
-- references 000 and 001 chart their 4k IOPS) as its runs' bars: its name,
-- its group's after it when that is another ("4k 70/30 QD32 (mixes)").
local RANDOM = { randread = true, randwrite = true, randrw = true }
local function single_label(s)
  local g, name = s.group_name or "", s.name or "?"
  if g ~= "" and not name:find(g, 1, true) then return ("%s (%s)"):format(name, g) end
  return name
end

local function singles(ctx)
  local heading = "Random steps, run by run"
  for _, row in ipairs(ctx.rows) do
    local s = row.first
    local bars = s.kind == "measure" and (not s.axis or s.axis == "") and RANDOM[s.rw]
      and bars_at(ctx.runs, row) or {}
    if #bars >= 2 then	-- one bar ranks nothing
      if heading then ctx.add("<h2>", esc(heading), "</h2>"); heading = nil end
      local base, what = baseline_value(ctx, bars), single_label(s)
      local c = draw(ctx, bars, base, { name = "bars-" .. what, title = ("%s: %s per run"):format(what,
        bars[1].unit) })
      ctx.figure(c, ("%s: %s of each run (%s), best on top; each bar gives its %s and its delta against "
        .. "%s%s"):format(what, bars[1].unit, compare.workload_text(s), bars[1].unit,
        ctx.runs[ctx.baseline].name, base and "" or " (which has no value here: no deltas)"))
    end
  end
end

-- A group's single-point random steps side by side (reference 000's 4k
-- reads in three slots: 361,000, 364,000 and 343,000 IOPS), a bar a step
-- and run in the plan's order, each with its delta against the group's
-- first step of its run (NN-steps-GROUP); a group of one such step has none.
local function group_bars(ctx, rows)
  local bars, first = {}, {}
  for _, row in ipairs(rows) do
    for i, r in ipairs(ctx.runs) do
      local s = row.steps[i]
      local v, unit = nil, nil
      if s and s.status == "done" then v, unit = at.value(s) end
      if fmt.finite(v) and (#bars == 0 or unit == bars[1].unit) then
        local d = first[i] and (delta_text(v, first[i]) or "") or ""
        first[i] = first[i] or v
        bars[#bars + 1] = { run = r, index = i, value = v, unit = unit, delta = d,
                            tic = (#ctx.runs > 1 and (r.name .. ": ") or "") .. row.first.name }
      end
    end
  end
  return bars
end

local function groups_side_by_side(ctx)
  local groups, order = {}, {}
  for _, row in ipairs(ctx.rows) do
    local s, g = row.first, row.first.group_name or ""
    if s.kind == "measure" and (not s.axis or s.axis == "") and RANDOM[s.rw] and g ~= "" then
      if not groups[g] then groups[g] = {}; order[#order + 1] = g end
      table.insert(groups[g], row)
    end
  end
  local heading = "Random steps of a group, side by side"
  for _, g in ipairs(order) do
    local bars = #groups[g] >= 2 and group_bars(ctx, groups[g]) or {}
    if #bars >= 2 then
      if heading then ctx.add("<h2>", esc(heading), "</h2>"); heading = nil end
      local c = draw(ctx, bars, nil, { name = "steps-" .. g, title = ("%s: %s per step"):format(g,
        bars[1].unit) })
      ctx.figure(c, ("%s: %s of each of its %d steps%s, in the plan's order; each bar gives its %s "
        .. "and its delta against the group's first step"):format(g, bars[1].unit, #groups[g],
        #ctx.runs > 1 and " in each run" or "", bars[1].unit))
    end
  end
end

-- ctx: { runs =, rows =, add =, figure =, baseline = (an index of runs) }
function ranked.charts(ctx)
  at.check(ctx.rows)
  local axes = { "oio", "write_pct" }
  for _, axis in ipairs(at.given_axes()) do
    if axis ~= "oio" and axis ~= "write_pct" then axes[#axes + 1] = axis end
  end
  local heading = "Ranked at one point"
  for _, axis in ipairs(axes) do
    local groups, order = at.groups(ctx.rows, axis)
    for _, g in ipairs(order) do
      local row, why = at.point(groups[g], axis, #ctx.runs)
      local bars = row and bars_at(ctx.runs, row) or {}
      if #bars >= 2 then	-- one bar ranks nothing: the sweep's charts show it
        if heading then ctx.add("<h2>", esc(heading), "</h2>"); heading = nil end
        chart(ctx, g, axis, row, why, bars)
      end
    end
  end
  singles(ctx)
  groups_side_by_side(ctx)
end

return ranked
