-- Host CPU in the report (docs/reports.md, "Host CPU"): a mark beside the
-- summary's figures of a host-bound step (steps.host_bound: its workers on,
-- or waiting for, a CPU >= 90 % of the window, or the host's CPUs >= 95 %
-- busy), a note saying what the mark means, and per run a chart of the
-- host's CPUs busy and the busiest worker's share per second, the steps as
-- bands (the telemetry chart's template). Rows stored before schema 10, sim
-- and exec steps have NULL figures: no mark, no points.
local fmt = require("format")

local hostcpu = {}
local marked = false

local function pct(v) return v and ("%s %%"):format(fmt.int(math.floor(v * 100))) or "?" end

-- The mark beside a step's figure in the summary, or "".
function hostcpu.mark(s)
  if not s or s.host_bound ~= 1 then return "" end
  marked = true
  return ('<br><span class="warn hostbound" title="host-bound: busiest worker on CPU %s, host CPUs %s busy">'
    .. "&#9888; host-bound</span>"):format(pct(s.cpu_busy), pct(s.host_busy))
end

-- The note under the summary when some figure was marked, else "".
function hostcpu.note()
  if not marked then return "" end
  return '<p class="sub hostbound-note">&#9888; host-bound: the step’s busiest worker was on a CPU, '
    .. "or waiting for one, at least 90 % of its window, or the host’s CPUs were at least 95 % busy. "
    .. "Its figures measure the host’s CPU, not the device: a faster host, or a quieter one, may "
    .. "give other numbers (see the host CPU charts below).</p>"
end

local function secs_since(t0)
  return ("round((julianday(%s) - julianday(?2)) * 86400.0, 3)"):format(t0)
end
local SAMPLES = "SELECT " .. secs_since("st.started_at") .. [[ + sa.t + sa.secs AS x,
    sa.host_busy * 100 AS host, sa.cpu_busy * 100 AS cpu, st.seq
  FROM samples sa JOIN steps st ON st.id = sa.step_id
  WHERE st.run_id = ?1 AND st.started_at IS NOT NULL
    AND (sa.host_busy IS NOT NULL OR sa.cpu_busy IS NOT NULL) ORDER BY st.seq, sa.t]]
local STEPS = "SELECT seq, host_bound, " .. secs_since("started_at") .. " AS x0, "
  .. secs_since("finished_at") .. [[ AS x1 FROM steps
  WHERE run_id = ?1 AND started_at IS NOT NULL ORDER BY seq]]

-- Whether the run's database has the columns (schema 10).
local function has_columns()
  return #report.sql("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'samples' "
    .. "AND sql LIKE '%host_busy%'") > 0
end

-- One chart per run with host CPU samples; add and figure as charts.lua's.
function hostcpu.charts(runs, add, figure)
  if not has_columns() then return end
  local heading = false
  for _, r in ipairs(runs) do
    local pts = report.sql(SAMPLES, r.id, r.started_at)
    if #pts > 0 then
      if not heading then add("<h2>Host CPU</h2>"); heading = true end
      local host, cpu, tmax, seq = {}, {}, 0, nil
      for _, p in ipairs(pts) do
        if seq and p.seq ~= seq then	-- a gap between steps: the lines break
          host[#host + 1] = { "NaN", "NaN" }; cpu[#cpu + 1] = { "NaN", "NaN" }
        end
        seq = p.seq
        host[#host + 1] = { p.x or "NaN", p.host or "NaN" }
        cpu[#cpu + 1] = { p.x or "NaN", p.cpu or "NaN" }
        tmax = math.max(tmax, p.x or 0)
      end
      local from, to, label, bound = {}, {}, {}, 0
      for _, s in ipairs(report.sql(STEPS, r.id, r.started_at)) do
        from[#from + 1], to[#to + 1] = s.x0 or 0, s.x1 or s.x0 or 0
        label[#label + 1] = "step " .. fmt.int(s.seq) .. (s.host_bound == 1 and " ⚠" or "")
        if s.host_bound == 1 then bound = bound + 1 end
        tmax = math.max(tmax, to[#to])
      end
      local c = report.chart{ name = ("hostcpu-run%d"):format(r.index), template = "telemetry",
        title = r.series_title .. " — host CPU per second", columns = { "t_s", "busy_pct" },
        series = { { title = "host CPUs busy (%)", color = "#D55E00", rows = host },
                   { title = "busiest worker on CPU (%)", color = "#0072B2", rows = cpu } },
        better = "lower is better: near 100 % the host, not the device, sets the pace",
        args = { ylabel = "busy (% of the second)", tmax = tmax, ymax = 100, nsteps = #from, nevents = 0,
                 step_from = #from > 0 and from or { 0 }, step_to = #to > 0 and to or { 0 },
                 step_label = #label > 0 and label or { "" }, event_t = { 0 } } }
      figure(c, ("%s: host CPU per second, the host's CPUs busy and the busiest worker on (or "
        .. "waiting for) a CPU, in %% of each second; shaded and numbered: the steps%s"):format(
        r.series_title, bound > 0 and ("; ⚠: %s host-bound"):format(fmt.plural(bound, "step")) or ""))
    end
  end
end

return hostcpu
