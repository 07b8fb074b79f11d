-- "Steps as run": each run's steps with the workload each one ran (kind,
-- rw, block size, write %, OIO, workers, seconds and ramp, engine, where
-- its workers were placed, how it ended), the methodology a published
-- comparison states, and under a step the warnings that fell in it (a
-- telemetry change); one table a run, folded when it is long.
local fmt = require("format")
local telemetry = require("telemetry")
local esc = report.escape_html

local steps_table = {}

local COLUMNS = { "#", "Step", "Kind", "rw", "bs", "write %", "OIO", "workers",
                  "seconds", "ramp (s)", "engine", "placement", "status" }
local NUMERIC = { [1] = true, [6] = true, [7] = true, [8] = true, [9] = true, [10] = true }

-- A step's row: its values as the database holds them ("" for what it
-- lacks: an exec step has no rw).
local function cells(s)
  local function n(v) return v and tostring(v) or "" end
  return { n(s.seq), s.name or "", s.kind or "", s.rw or "", s.bs or "",
           s.write_pct and n(s.write_pct) or "", n(s.oio), n(s.workers),
           s.duration_s and n(s.duration_s) or "", s.ramp_s and n(s.ramp_s) or "",
           s.engine or "", s.placement or "", s.status or "" }
end

-- runs: the report's runs; steps[i]: run i's step_detail rows by seq;
-- add: appends to the page. Runs of up to 12 steps are shown unfolded.
function steps_table.add(runs, steps, add)
  add('<h2 id="steps">Steps as run</h2>')
  for i, r in ipairs(runs) do
    local list = steps[i]
    add("<details", #list <= 12 and " open" or "", '><summary><span class="swatch" style="background:',
        r.color, '"></span>', esc(r.name), ": ", fmt.plural(#list, "step"), "</summary>")
    add('<table class="steps"><thead><tr>')
    for k, c in ipairs(COLUMNS) do add(NUMERIC[k] and '<th class="num">' or "<th>", esc(c), "</th>") end
    add("</tr></thead><tbody>")
    for _, s in ipairs(list) do
      add("<tr>")
      for k, v in ipairs(cells(s)) do add(NUMERIC[k] and '<td class="num">' or "<td>", esc(v), "</td>") end
      add("</tr>", telemetry.event_row(r, s, #COLUMNS))	-- the warnings that fell in it
    end
    add("</tbody></table></details>")
  end
end

return steps_table
