-- Telemetry in the report: each run's numeric telemetry over time (a line
-- per key, the steps as bands, warning events as red lines), and the
-- warning events that fell in a step (listed beside it, drawn on its
-- per-second chart). Times are seconds since the run (or step) began, from
-- the wall times (telemetry.at, events.at, steps.started_at).
local fmt = require("format")
local esc = report.escape_html

local telemetry = {}

-- Colours of the keys of one run's chart (the runs' own are for runs).
local KEY_COLORS = { "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9",
                     "#332288", "#999933", "#882255", "#661100" }
local MAX_KEYS = #KEY_COLORS

local function secs_since(t0)
  return ("round((julianday(%s) - julianday(?2)) * 86400.0, 3)"):format(t0)
end

-- A value that is a number ("53", "-1.5"); the others ("WriteBack") are
-- for events, not lines.
local NUMERIC = "trim(value) GLOB '*[0-9]*' AND NOT trim(value) GLOB '*[^0-9.eE+-]*'"
-- The numeric keys of run r's telemetry, most samples first.
local KEYS = "SELECT source, key, count(*) AS n FROM telemetry WHERE run_id = ?1 AND " .. NUMERIC
  .. " GROUP BY source, key ORDER BY n DESC, source, key"
local POINTS = "SELECT " .. secs_since("at") .. " AS x, CAST(value AS REAL) AS v FROM telemetry "
  .. "WHERE run_id = ?1 AND source = ?3 AND key = ?4 AND " .. NUMERIC .. " ORDER BY x"

local STEPS = "SELECT seq, " .. secs_since("started_at") .. " AS x0, " .. secs_since("finished_at")
  .. [[ AS x1 FROM steps WHERE run_id = ?1 AND started_at IS NOT NULL ORDER BY seq]]
local EVENTS = "SELECT " .. secs_since("at") .. [[ AS x, message FROM events
  WHERE run_id = ?1 AND level IN ('warning', 'error') ORDER BY id]]

-- Warning and error events of run r, each in exactly one step, as
-- { [seq] = { { t =, message = } } } (t: its second in the step). The
-- events table names no step, so: an event whose message names its step
-- ("step 3 NAME: host-bound ...", as the runner logs a step's warnings,
-- at or just after its end) belongs to that step; any other to the first
-- step whose window, both ends included, holds it: one logged at a step's
-- end, the same millisecond the next one starts, is the ending step's.
local STEP_TIMES = [[SELECT seq, julianday(started_at) AS j0, julianday(finished_at) AS j1, started_at
  FROM steps WHERE run_id = ?1 AND started_at IS NOT NULL ORDER BY seq]]
local RUN_EVENTS = [[SELECT julianday(at) AS j, message FROM events
  WHERE run_id = ?1 AND level IN ('warning', 'error') ORDER BY id]]
local by_run = {}
local function run_events(r)
  if by_run[r.id] then return by_run[r.id] end
  local steps, of_seq, out = report.sql(STEP_TIMES, r.id), {}, {}
  for _, s in ipairs(steps) do of_seq[s.seq] = s; out[s.seq] = {} end
  for _, e in ipairs(report.sql(RUN_EVENTS, r.id)) do
    local s = of_seq[math.tointeger(tonumber(e.message:match("^step (%d+)[ :]")))]
    for _, w in ipairs(s and {} or steps) do
      if e.j and w.j0 and e.j >= w.j0 and (not w.j1 or e.j <= w.j1) then s = w; break end
    end
    if s and e.j and s.j0 then
      table.insert(out[s.seq], { t = math.floor((e.j - s.j0) * 86400000 + 0.5) / 1000, message = e.message })
    end
  end
  by_run[r.id] = out
  return out
end

-- Warning and error events of run r that belong to step s, each with its
-- second in the step: { { t =, message = } }.
function telemetry.step_events(r, s)
  if not s.started_at then return {} end
  return run_events(r)[s.seq] or {}
end

-- The ylabel: °C when every key is a temperature.
local function ylabel(keys)
  for _, k in ipairs(keys) do
    if not k.key:find("temperature_c$") then return "value (as the probe gives it)" end
  end
  return "temperature (°C)"
end

-- One chart per run holding numeric telemetry; add and figure as charts.lua's.
function telemetry.charts(runs, add, figure)
  local heading = false
  for _, r in ipairs(runs) do
    local keys = report.sql(KEYS, r.id)
    if #keys > 0 then
      if not heading then add("<h2>Telemetry</h2>"); heading = true end
      local series, left, tmax = {}, #keys - MAX_KEYS, 0
      for i = 1, math.min(#keys, MAX_KEYS) do
        local k, rows = keys[i], {}
        for _, p in ipairs(report.sql(POINTS, r.id, r.started_at, k.source, k.key)) do
          rows[#rows + 1] = { p.x or "NaN", p.v or "NaN" }
          tmax = math.max(tmax, p.x or 0)
        end
        series[i] = { title = k.source .. " " .. k.key, color = KEY_COLORS[i], rows = rows }
      end
      local from, to, label = {}, {}, {}
      for _, s in ipairs(report.sql(STEPS, r.id, r.started_at)) do
        from[#from + 1], to[#to + 1] = s.x0 or 0, s.x1 or s.x0 or 0
        label[#label + 1] = "step " .. fmt.int(s.seq)
        tmax = math.max(tmax, to[#to])
      end
      local ev = {}
      for _, e in ipairs(report.sql(EVENTS, r.id, r.started_at)) do
        if e.x then ev[#ev + 1] = e.x end
      end
      local c = report.chart{ name = ("telemetry-run%d"):format(r.index), template = "telemetry",
        title = r.series_title .. " — telemetry", columns = { "t_s", "value" }, series = series,
        better = ylabel(keys):find("^temperature") and "lower" or "temperatures: lower is better",
        args = { ylabel = ylabel(keys), tmax = tmax, nsteps = #from, nevents = #ev,
                 step_from = #from > 0 and from or { 0 }, step_to = #to > 0 and to or { 0 },
                 step_label = #label > 0 and label or { "" }, event_t = #ev > 0 and ev or { 0 } } }
      figure(c, ("%s: telemetry over the run, a line per key%s; shaded and numbered: the steps%s"):format(
        r.series_title, left > 0 and (" (the %d with most samples; %d more in the table telemetry)")
          :format(MAX_KEYS, left) or "",
        #ev > 0 and ("; dashed red: %s"):format(fmt.plural(#ev, "warning event")) or ""))
    end
  end
end

-- The events beside a step in the "Steps as run" table: a row under it.
function telemetry.event_row(r, s, ncols)
  local list = telemetry.step_events(r, s)
  if #list == 0 then return "" end
  local items = {}
  for _, e in ipairs(list) do
    items[#items + 1] = ("&#9888; at second %s: %s"):format(fmt.int(math.floor(e.t or 0)), esc(e.message))
  end
  return ('<tr class="events"><td></td><td colspan="%d"><span class="warn">%s</span></td></tr>'):format(
    ncols - 1, table.concat(items, "<br>"))
end

return telemetry
