-- reports/hosts.lua: steps fio ran on several hosts (engine = "fio" with
-- fio.hosts; docs/fio-engine.md): each second of each host (its part in
-- samples.hosts_json) as a line beside their sum, a table per host, and the
-- hosts and fio's version in the test bed.
local compare = require("compare")
local fmt = require("format")

local esc = report.escape_html
local hosts = {}

-- a step's hosts_json as json_each reads it: NULL (no rows) when not JSON
local EACH = "json_each(CASE WHEN json_valid(s.hosts_json) THEN s.hosts_json END) e"
local function part(field) return ("json_extract(e.value, '$.%s')"):format(field) end

-- every second of every host: its ops and bytes over its own secs
local PER_SECOND = ([[
  SELECT e.key AS host, s.t AS t, (%s + %s) / max(%s, 1e-3) AS iops,
         (%s + %s) / max(%s, 1e-3) / 1e6 AS mbps
  FROM samples s, %s WHERE s.step_id = ?1 ORDER BY e.key, s.t]]):format(part("read_ops"),
  part("write_ops"), part("secs"), part("read_bytes"), part("write_bytes"), part("secs"), EACH)
-- their sum: the step's own seconds
local SUM = [[
  SELECT t, (read_ops + write_ops) / max(secs, 1e-3) AS iops,
         (read_bytes + write_bytes) / max(secs, 1e-3) / 1e6 AS mbps
  FROM samples WHERE step_id = ?1 ORDER BY t]]
-- each host over the window: ops, bytes, ops-weighted latency, seconds present
local PER_HOST = ([[
  SELECT e.key AS host, count(*) AS n,
         sum(CASE WHEN s.ramp = 0 THEN %s + %s END) AS ops,
         sum(CASE WHEN s.ramp = 0 THEN %s + %s END) AS bytes,
         sum(CASE WHEN s.ramp = 0 THEN %s * %s + %s * %s END) AS lat_w
  FROM samples s, %s WHERE s.step_id = ?1 GROUP BY e.key ORDER BY e.key]]):format(
  part("read_ops"), part("write_ops"), part("read_bytes"), part("write_bytes"),
  part("read_lat_mean_us"), part("read_ops"), part("write_lat_mean_us"), part("write_ops"), EACH)
local COUNT = "SELECT count(*) AS n FROM samples WHERE step_id = ?1"

-- one colour per host, the sum in black
local COLORS = { "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
  "#7f7f7f", "#bcbd22", "#17becf" }

-- The step's fio = { hosts = ... }, or nil for a step on one host.
local function hosts_of(s)
  if s.engine ~= "fio" then return nil end
  local h = (s.params_json or ""):match('"hosts"%s*:%s*"([^"]+)"')
  return h ~= "" and h or nil
end
hosts.hosts_of = hosts_of

-- The chart of a step: a line per host and their sum, of the step's metric.
local function chart(r, s, figure)
  local field, unit = compare.metric(s)
  local col, mult = compare.stored(field)
  local series, by, tmax = {}, {}, 0
  for _, x in ipairs(report.sql(PER_SECOND, s.id)) do
    if not by[x.host] then
      by[x.host] = { title = x.host, rows = {} }
      series[#series + 1] = by[x.host]
      by[x.host].color = COLORS[(#series - 1) % #COLORS + 1]
    end
    local v = x[col] and x[col] * mult
    by[x.host].rows[#by[x.host].rows + 1] = { x.t or "NaN", fmt.finite(v) or "NaN" }
  end
  if #series == 0 then return false end
  local sum = { title = "sum of the hosts", color = "#000000", rows = {} }
  local hi = 0
  for _, x in ipairs(report.sql(SUM, s.id)) do
    local v = fmt.finite(x[col] and x[col] * mult)
    sum.rows[#sum.rows + 1] = { x.t or "NaN", v or "NaN" }
    tmax = math.max(tmax, x.t or 0)
    hi = math.max(hi, v or 0)
  end
  series[#series + 1] = sum
  -- the y axis from 0 over the sum, its ticks in k and M as every chart's
  local ax = fmt.axis(0, hi > 0 and hi * 1.06 or 1)
  local title = ("%s — %s"):format(r.series_title, s.name)
  local c = report.chart{ name = ("hosts-run%d-step%s"):format(r.index, fmt.int(s.seq)),
    template = "telemetry", title = title .. ": " .. unit .. " per host", columns = { "t_s", unit },
    series = series, better = "higher",
    args = { ylabel = unit, tmax = tmax, nsteps = 0, nevents = 0, step_from = { 0 }, step_to = { 0 },
             step_label = { "" }, event_t = { 0 }, xfrom = "time since the step began",
             ytv = ax.ticks, ytl = ax.labels, ylo = ax.min, yhi = ax.max } }
  figure(c, ("%s: %s second by second on each of %s and their sum (x: seconds since the step "
    .. "began, the ramp included)"):format(title, unit, fmt.plural(#series - 1, "host")))
  return true
end

-- The table of a step: each host over the window, then the step (their sum).
local function tbl(s, add)
  local w = fmt.finite(s.window_s) or 0
  local function rate(v, div) return w > 0 and v and fmt.num(v / w / div) or "–" end
  add('<table class="hosts"><thead><tr><th>host</th><th class="num">IOPS</th>',
      '<th class="num">MB/s</th><th class="num">mean latency (µs)</th>',
      '<th class="num">p99 latency (µs)</th><th class="num">seconds present</th></tr></thead><tbody>')
  for _, h in ipairs(report.sql(PER_HOST, s.id)) do
    local mean = h.ops and h.ops > 0 and h.lat_w and fmt.num(h.lat_w / h.ops) or "–"
    add("<tr><td>", esc(h.host), '</td><td class="num">', rate(h.ops, 1), '</td><td class="num">',
        rate(h.bytes, 1e6), '</td><td class="num">', mean,
        '</td><td class="num" title="fio\'s client gives no per-host bins">–</td><td class="num">',
        fmt.int(h.n), "</td></tr>")
  end
  local n = report.sql(COUNT, s.id)[1].n
  add('<tr class="sum"><td>the step (their sum)</td><td class="num">', fmt.num(fmt.finite(s.iops) or 0),
      '</td><td class="num">', fmt.num(fmt.finite(s.mbps) or 0), '</td><td class="num">',
      fmt.num(fmt.finite(s.lat_mean_us) or 0), '</td><td class="num">',
      fmt.num(fmt.finite(s.lat_p99_us) or 0), '</td><td class="num">', fmt.int(n), "</td></tr>")
  add("</tbody></table>")
end

-- A section for the steps fio ran on several hosts, if any: each step's
-- chart and table. ctx: charts.setup's (runs, steps, add).
function hosts.section(ctx, figure)
  local heading = false
  for i, r in ipairs(ctx.runs) do
    for _, s in ipairs(ctx.steps[i]) do
      if hosts_of(s) and report.sql(COUNT, s.id)[1].n > 0 then
        if not heading then
          ctx.add("<h2>Steps on several fio hosts</h2>")
          heading = true
        end
        ctx.add("<h3>", esc(("%s — %s"):format(r.series_title, s.name)), "</h3>")
        chart(r, s, figure)
        tbl(s, ctx.add)
      end
    end
  end
end

-- The test bed's cell "fio" of a run: each fio step's hosts and fio's
-- version ("127.0.0.2:8765, 127.0.0.3:8765: fio-3.33 (the client's)"), or
-- the local fio's; nil when no step ran fio.
function hosts.testbed(steps)
  local seen, out = {}, {}
  for _, s in ipairs(steps) do
    if s.engine == "fio" then
      local v = (s.params_json or ""):match('"fio_version"%s*:%s*"([^"]+)"') or "version not recorded"
      local h = hosts_of(s)
      local text = h and ("%s: %s (the client's: fio's client does not report its servers')")
        :format(h:gsub(",", ", "), v) or ("this host: %s"):format(v)
      if not seen[text] then seen[text] = true; out[#out + 1] = text end
    end
  end
  return #out > 0 and table.concat(out, "; ") or nil
end

return hosts
