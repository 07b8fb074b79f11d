-- Steps whose targets sit on more than one controller (reference 004: two
-- cards of 8 drives each, summed): per group of such steps, one stacked bar
-- per run and step, a stack per controller (its targets' MB/s, or IOPS for
-- blocks under 64k, as compare.metric judges the step), against the sum of
-- those controllers' PCIe link ceilings; and a table of each controller's
-- targets, rate and share of its own link's ceiling.
--
-- A target's controller comes from the facts the probes recorded for that
-- target at the run's start (the view run_testbed): the PCIe function its
-- device sits behind (pcie.address; its link: the view run_pcie), else a
-- card probe's controller (megaraid, adaptec, mpt, sim: key cN.model). A
-- target with neither counts as "controller not known" and has no ceiling.
local compare = require("compare")
local fmt = require("format")
local layout = require("page")

local controllers = {}
local esc = report.escape_html
local NaN = "NaN"

-- The stacks' colours (the runs' own tell the bars apart by position and
-- name): Okabe-Ito's lighter ones first, where the values' black reads.
local palette = { "#56B4E9", "#E69F00", "#009E73", "#CC79A7", "#F0E442", "#0072B2", "#D55E00" }

-- Facts of the targets of run r that place them: one row per target and fact.
local FACTS = [[
  SELECT target, probe, key, value FROM run_testbed
  WHERE run_id = ?1 AND target <> '' AND (
    (probe = 'pcie' AND key IN ('address', 'device_name', 'subsystem_name'))
    OR (key GLOB 'c[0-9]*.model' AND NOT substr(key, 2, length(key) - 7) GLOB '*[^0-9]*'))
  ORDER BY ord]]

-- "0000:02:00.0" -> "02:00.0" (the domain when it is not 0)
local function short_address(a)
  return (a:gsub("^0000:", ""))
end

-- Each target of run r: its controller { key, label, link = run_pcie row or
-- nil }; controllers keyed alike are one card.
local function target_controllers(r)
  local t = {}
  for _, f in ipairs(report.sql(FACTS, r.id)) do
    local x = t[f.target] or {}
    t[f.target] = x
    if f.probe == "pcie" then x[f.key] = x[f.key] or f.value
    elseif not x.card then x.card, x.card_source = f.key:match("^(c%d+)%."), f.probe; x.model = f.value end
  end
  local links = {}
  for _, p in ipairs(report.sql("SELECT * FROM run_pcie WHERE run_id = ?1", r.id)) do links[p.target] = p end
  local out = {}
  for path, x in pairs(t) do
    local model = x.model or x.subsystem_name or x.device_name
    if x.address then
      out[path] = { key = "pci " .. x.address, link = links[path],
        label = (model and model .. " " or "") .. short_address(x.address) }
    elseif x.card then
      out[path] = { key = x.card_source .. " " .. x.card, link = links[path],
        label = (model and model .. " " or "") .. x.card_source .. " " .. x.card }
    end
  end
  return out
end

local UNKNOWN = { key = "?", label = "controller not known" }

-- The controllers of step s (done, with a window): { { key, label, link,
-- targets = { paths }, iops, mbps }, ... } in the order of their first
-- target's path; nil when the step has no per-target totals.
local function step_stacks(s, where)
  local rates = report.sql("SELECT path, iops, mbps FROM step_target_rate WHERE step_id = ?1 ORDER BY path", s.id)
  if #rates == 0 then return nil end
  local list, by = {}, {}
  for _, t in ipairs(rates) do
    local c = where[t.path] or UNKNOWN
    local x = by[c.key]
    if not x then
      x = { key = c.key, label = c.label, link = c.link, targets = {}, iops = 0, mbps = 0 }
      by[c.key] = x
      list[#list + 1] = x
    end
    x.targets[#x.targets + 1] = t.path
    x.iops, x.mbps = x.iops + (fmt.finite(t.iops) or 0), x.mbps + (fmt.finite(t.mbps) or 0)
  end
  return list
end

-- How many controllers the stacks name (the unknown one not counted).
local function known_count(list)
  local n = 0
  for _, c in ipairs(list or {}) do if c.key ~= "?" then n = n + 1 end end
  return n
end

-- The sum of the stacks' link ceilings in bytes/s (each stack's own and its
-- label kept in it); nil when a controller's link is not known (no sum promised).
local function ceiling_sum(ceiling_of, list)
  local sum = 0
  for _, c in ipairs(list) do
    c.ceiling_bps, c.ceiling_label = ceiling_of(c.link)
    sum = c.ceiling_bps and sum and sum + c.ceiling_bps or nil
  end
  return sum
end

-- The groups holding a step some run ran on several controllers, in the
-- order of the rows: { [g] = { clusters }, g1, g2, ... }; a cluster is a
-- row with its stacks per run ({ row =, stacks = { [i] = list } }).
local function multi_groups(ctx, where)
  local groups = {}
  for _, row in ipairs(ctx.rows) do
    local stacks, multi = {}, false
    for i = 1, #ctx.runs do
      local s = row.steps[i]
      if s and s.status == "done" and (s.window_s or 0) > 0 then
        stacks[i] = step_stacks(s, where[i])
        multi = multi or known_count(stacks[i]) > 1
      end
    end
    if multi then
      local g = layout.group_of(row.first)
      if not groups[g] then groups[g] = {}; groups[#groups + 1] = g end
      table.insert(groups[g], { row = row, stacks = stacks })
    end
  end
  return groups
end

-- A cluster's name in the table: the swept point, or the step's label.
local function cluster_label(ctx, row)
  local s = row.first
  if s.axis == "oio" then return "OIO " .. tostring(s.axis_value) end
  if s.axis == "write_pct" then return ("write %s %%"):format(s.axis_value) end
  if s.axis == "bs" then return "bs " .. tostring(s.axis_value) end
  return ctx.label(s)
end

-- Its name under its bars: that without the group g the chart's title
-- gives ("" when it is all of it).
local function without_group(label, g)
  if label == g then return "" end
  return label:sub(1, #g + 2) == g .. ": " and label:sub(#g + 3) or label
end


-- Each bar of a group: { x, run, cluster, stacks, total, ceiling (in the
-- chart's unit, or nil), tic } in the order drawn; clusters 0.6 bars apart.
-- col and factor: the stacks' field the chart's unit is read from and its
-- factor (compare.stored: MiB/s from the MB/s kept); rate: a throughput chart.
local function group_bars(ctx, clusters, col, factor, rate, ceiling_of)
  local bars, x = {}, 0
  for c, cl in ipairs(clusters) do
    cl.first_x = x
    for i, r in ipairs(ctx.runs) do
      local list = cl.stacks[i]
      local total = 0
      for _, st in ipairs(list or {}) do st.value = st[col] * factor; total = total + st.value end
      local bps = list and ceiling_sum(ceiling_of, list)
      bars[#bars + 1] = { x = x, run = r, index = i, cluster = c, stacks = list or {},
        total = list and total, sum_bps = bps, ceiling = rate and bps and bps / 1e6 * factor or nil }
      x = x + 1
    end
    cl.last_x = x - 1
    x = x + 0.6
  end
  return bars, x - 1.6
end

-- The key's name of the controllers at stack position k: their label when
-- every bar has the same one there (one machine's cards, step after step);
-- else the address they share ("controller 1 at sim:0000:02:00.0": bars of
-- other cards in the same slot, as a review that swaps cards), else
-- "controller k". Cut to 60 characters (a key drops every title when one
-- does not fit).
local function stack_title(bars, k)
  local seen, names, addrs = {}, {}, {}
  for _, b in ipairs(bars) do
    local st = b.stacks[k]
    if st and not seen[st.label] then
      seen[st.label] = true
      names[#names + 1] = st.label
      addrs[st.label:match("(%S+)$") or ""] = true
    end
  end
  local t = names[1] or ("controller " .. k)
  if #names > 1 then
    local addr = next(addrs)
    t = next(addrs, addr) == nil and addr ~= "" and ("controller %d at %s"):format(k, addr)
        or ("controller " .. k)
  end
  return utf8.len(t) and utf8.len(t) > 60 and t:sub(1, utf8.offset(t, 60) - 1) .. "…" or t
end

-- The template's rows (reports/gnuplot/stacked.gp names the columns); unit:
-- the chart's (a ceiling's label is in it).
local function stack_series(ctx, clusters, bars, ymax, show, unit)
  local nstacks = 0
  for _, b in ipairs(bars) do nstacks = math.max(nstacks, #b.stacks) end
  local many = #ctx.runs > 1
  local series = {}
  for k = 1, nstacks do
    local rows = {}
    for n, b in ipairs(bars) do
      local st, base = b.stacks[k], 0
      for j = 1, k - 1 do base = base + (b.stacks[j] and b.stacks[j].value or 0) end
      local v = st and st.value
      local cl = clusters[b.cluster]
      local head = k == 1 and many and b.index == 1
      local tic = (many or cl.label == "") and b.run.name or cl.label
      rows[n] = { b.x, v or NaN, base, base + (v or 0),
        v and v >= ymax * 0.04 and show(v) or "", k == 1 and tic or "",
        k == 1 and b.total or NaN, k == 1 and b.total and show(b.total) or "",
        k == 1 and b.ceiling or NaN, k == 1 and b.ceiling and ("sum of links " .. show(b.ceiling) .. " " .. unit) or "",
        head and cl.label or "", head and (cl.first_x + cl.last_x) / 2 or 0,
        b.ceiling and math.max(b.ceiling, (b.total or 0) + ymax * 0.07) or 0 }
    end
    series[k] = { title = stack_title(bars, k), color = palette[(k - 1) % #palette + 1], rows = rows }
  end
  return series
end

-- "3 of 4 bars" words for the caption: the bars whose every link is known.
local function ceiling_words(bars, rate)
  if not rate then
    return "; a link's ceiling is in bytes/s: it is drawn on MB/s charts, and the table gives each link's share"
  end
  local known, any = 0, 0
  for _, b in ipairs(bars) do
    if b.total then any = any + 1; if b.ceiling then known = known + 1 end end
  end
  if known == 0 then return "; no bar's PCIe links are all known, so no ceiling is drawn" end
  return ("; dashed: the sum of the bar's controllers' PCIe link ceilings (line encoding included, "
    .. "protocol overhead not)%s"):format(known < any and
      (", on %d of %d bars (the others have a link not known)"):format(known, any) or "")
end

-- The top the y axis must reach: room over each bar for its total's label
-- (stack_series lifts the ceiling's label 7 % of the axis over the total),
-- and over each ceiling for its own; fmt.axis rounds it up to a tick.
local function headroom(bars)
  local top = 1
  for _, b in ipairs(bars) do top = math.max(top, (b.total or 0) * 1.18, (b.ceiling or 0) * 1.09) end
  return top
end

local function draw(ctx, g, clusters, ceiling_of)
  local field, unit = compare.metric(clusters[1].row.first)
  local col, factor = compare.stored(field)
  local rate = col == "mbps" -- MB/s, or MiB/s under --units MiB
  local show = rate and fmt.num or fmt.si
  local named = false
  for _, cl in ipairs(clusters) do
    cl.name = cluster_label(ctx, cl.row)
    cl.label = without_group(cl.name, g)
    named = named or cl.label ~= ""
  end
  local bars, xmax = group_bars(ctx, clusters, col, factor, rate, ceiling_of)
  local ax = fmt.axis(0, headroom(bars))
  local series = stack_series(ctx, clusters, bars, ax.max, show, unit)
  local any_ceiling = false
  for _, b in ipairs(bars) do any_ceiling = any_ceiling or b.ceiling ~= nil end
  local title = ("%s: %s per controller, summed%s"):format(g, unit,
    any_ceiling and ", against the sum of their PCIe link ceilings" or "")
  local c = report.chart{ name = "controllers-" .. g, template = "stacked", title = title,
    columns = { "x", unit, "base", "top", "value", "bar", "total", "total label", "ceiling " .. unit,
      "ceiling label", "cluster", "cluster_x", "ceiling_label_y" },
    series = series, better = "higher",
    args = { ylabel = rate and (unit == "MiB/s" and "MiB/s (1 MiB = 1,048,576 bytes)"
      or "MB/s (1 MB = 1,000,000 bytes)") or unit, ymax = ax.max, ytv = ax.ticks,
      ytl = require("charts").tick_labels(ax, unit), xmax = xmax, has_ceiling = any_ceiling and 1 or 0,
      clusters = #ctx.runs > 1 and named and 1 or 0 } }
  ctx.figure(c, ("%s: %s per controller (a stack each, its targets summed, labelled with its model "
    .. "and PCI address), one bar per run%s, its total above it%s"):format(g, unit,
    #clusters > 1 and " and point" or "", ceiling_words(bars, rate)))
  return bars, show
end

-- "41 %" of a ceiling in bytes/s, or "–"
local function share(mbps, bps)
  return bps and bps > 0 and mbps and ("%.0f %%"):format(mbps * 1e6 / bps * 100) or "–"
end

local function table_row(ctx, cells)
  ctx.add("<tr>")
  for k, v in ipairs(cells) do ctx.add(k > 4 and '<td class="num">' or "<td>", esc(v), "</td>") end
  ctx.add("</tr>")
end

-- Under the chart: per bar, each controller's targets, rates, link ceiling
-- and its share of it, then the bar's sum against the sum of the links.
local function stack_table(ctx, clusters, bars)
  ctx.add('<table class="controllers"><thead><tr><th>Step</th><th>Run</th><th>Controller</th>',
    '<th>Targets</th><th class="num">MB/s</th><th class="num">IOPS</th>',
    '<th class="num">PCIe link ceiling</th><th class="num">Share of the ceiling</th></tr></thead><tbody>')
  for _, b in ipairs(bars) do
    if b.total then
      local step, mb, io, n = clusters[b.cluster].name, 0, 0, 0
      for _, st in ipairs(b.stacks) do
        table_row(ctx, { step, b.run.name, st.label, table.concat(st.targets, ", "), fmt.num(st.mbps),
          fmt.si(st.iops), st.ceiling_label or "not known", share(st.mbps, st.ceiling_bps) })
        mb, io, n = mb + st.mbps, io + st.iops, n + #st.targets
      end
      table_row(ctx, { step, b.run.name, ("sum of %d controllers"):format(#b.stacks),
        fmt.plural(n, "target"), fmt.num(mb), fmt.si(io),
        b.sum_bps and ("%s MB/s"):format(fmt.num(b.sum_bps / 1e6)) or "not known", share(mb, b.sum_bps) })
    end
  end
  ctx.add("</tbody></table>")
end

-- ctx: { runs =, rows =, add =, figure =, label = (a step's name on the
-- page), ceiling = charts.pcie_ceiling (a run_pcie row -> bytes/s, label) }
function controllers.charts(ctx)
  -- (a database older than the views, opened where it cannot be upgraded)
  if #report.sql([[SELECT 1 FROM sqlite_master WHERE type = 'view'
      AND name IN ('run_testbed', 'run_pcie', 'step_target_rate')]]) < 3 then return end
  local where = {}
  for i, r in ipairs(ctx.runs) do where[i] = target_controllers(r) end
  local groups = multi_groups(ctx, where)
  if #groups == 0 then return end
  ctx.add("<h2>Several controllers, summed</h2>")
  for _, g in ipairs(groups) do
    ctx.add("<h3>", esc(g), "</h3>")
    stack_table(ctx, groups[g], draw(ctx, g, groups[g], ctx.ceiling))
  end
end

return controllers
