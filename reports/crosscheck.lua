-- Cross-checks with fio: when the summary sets a step of hbatest's beside
-- one imported from fio (runs.source = 'fio') and the two did not submit
-- alike, the delta between them carries a note that says how they differ.
-- A like-for-like hbatest step uses the engine's preset "fio" (fio's defaults:
-- no registered buffers or files, no SQ polling, one request per call, no
-- placement; docs/engines.md, "Cross-checking with fio") with fio's engine
-- and its iodepth x numjobs as oio over workers. Without it the delta
-- measures the two tools' settings as much as the device.
-- report: the report.* API of the sandbox (docs/reports.md), a global.
local crosscheck = {}

-- fio's ioengine -> hbatest's engine of the same system calls
local ENGINES = { io_uring = "io_uring", libaio = "libaio", psync = "psync", pvsync = "psync",
                  sync = "psync", null = "null" }
-- the engines whose preset "fio" submits as fio's defaults
local PRESET = { io_uring = true, libaio = true }
-- fio options that are not its defaults' way of submitting: name -> default
local FIO_TUNED = { fixedbufs = "0", registerfiles = "0", sqthread_poll = "0", hipri = "0",
                    iodepth_batch_submit = "1", iodepth_batch = "1",
                    iodepth_batch_complete_min = "1", iodepth_batch_complete_max = "1",
                    userspace_reap = "0" }
local FIO_PINS = { "cpus_allowed", "cpumask", "numa_cpu_nodes" }

local NATIVE = [[SELECT json_extract(?1, '$.engine') AS engine, json_extract(?1, '$.oio') AS oio,
  json_extract(?1, '$.workers') AS workers, json_extract(?1, '$.numa') AS numa,
  json_extract(?1, '$.cpus') AS cpus, json_extract(?1, ?2) AS preset
  WHERE json_valid(?1)]]
local FIO_OPT = [[SELECT coalesce(json_extract(?1, '$."job options".' || ?2),
  json_extract(?1, '$."global options".' || ?2)) AS v WHERE json_valid(?1)]]

local function fio_opt(params, name)
  local row = report.sql(FIO_OPT, params, '"' .. name .. '"')[1]
  return row and row.v ~= nil and tostring(row.v) or nil
end

local function native_of(step)
  local engine = (step.params_json or ""):match('"engine"%s*:%s*"([%w_%-]+)"')
  if not engine then return nil end
  return report.sql(NATIVE, step.params_json, ('$."%s".preset'):format(engine))[1]
end

-- How the fio step was run: its engine, depth, jobs and the options that
-- leave fio's defaults (a list of "name=value").
local function fio_of(step)
  local p = step.params_json or ""
  local f = { engine = fio_opt(p, "ioengine") or "psync",
              iodepth = tonumber(fio_opt(p, "iodepth")) or 1,
              numjobs = tonumber(fio_opt(p, "numjobs")) or 1, tuned = {} }
  for name, def in pairs(FIO_TUNED) do
    local v = fio_opt(p, name)
    if v and v ~= def then f.tuned[#f.tuned + 1] = name .. "=" .. v end
  end
  for _, name in ipairs(FIO_PINS) do
    local v = fio_opt(p, name)
    if v then f.tuned[#f.tuned + 1] = name .. "=" .. v; f.pinned = true end
  end
  table.sort(f.tuned)
  return f
end

-- What differs between a native step (its params) and a fio step's run: a
-- list of phrases, empty when they ran alike.
local function differences(n, f)
  local out = {}
  local want = ENGINES[f.engine]
  if want ~= n.engine then
    out[#out + 1] = ("fio ioengine=%s, hbatest engine %s"):format(f.engine, n.engine or "?")
  elseif PRESET[n.engine] and n.preset ~= "fio" then
    out[#out + 1] = ('hbatest %s without preset = "fio" (its own batching, registered buffers and files)')
      :format(n.engine)
  end
  if n.cpus and not f.pinned then
    out[#out + 1] = ('hbatest pinned its workers (cpus = "%s"), fio pinned nothing'):format(n.cpus)
  elseif n.numa ~= "none" and not n.cpus and not f.pinned and not (PRESET[n.engine] and n.preset ~= "fio") then
    out[#out + 1] = ('hbatest placed its workers (numa = "%s"), fio pinned nothing'):format(n.numa or "auto")
  end
  local workers, oio = tonumber(n.workers) or 1, tonumber(n.oio) or 1
  if f.numjobs ~= workers or f.iodepth * f.numjobs ~= oio then
    out[#out + 1] = ("fio iodepth=%d x numjobs=%d, hbatest oio %d over %d worker%s"):format(
      f.iodepth, f.numjobs, oio, workers, workers == 1 and "" or "s")
  end
  if #f.tuned > 0 then
    out[#out + 1] = "fio not at its defaults (" .. table.concat(f.tuned, ", ") .. ")"
  end
  return out
end

-- The note for the delta of run a's step sa against run b's step sb, or nil:
-- only when one run is hbatest's and the other imported from fio, and their
-- settings differ.
function crosscheck.note(ra, sa, rb, sb)
  if not sa or not sb then return nil end
  local fa, fb = ra.source == "fio", rb.source == "fio"
  if fa == fb then return nil end
  local native, fio = sa, sb
  if fa then native, fio = sb, sa end
  if ((fa and rb or ra).source or "hbatest") ~= "hbatest" then return nil end
  local n = native_of(native)
  if not n then return nil end
  local d = differences(n, fio_of(fio))
  if #d == 0 then return nil end
  return "not like for like: " .. table.concat(d, "; ")
end

-- A delta cell (layout.delta_cell's <td>) with the note inside it, when there is one.
function crosscheck.cell(html, ra, sa, rb, sb)
  local note = crosscheck.note(ra, sa, rb, sb)
  if not note then return html end
  return (html:gsub("</td>$", function()
    return '<br><span class="note crosscheck">' .. report.escape_html(note) .. "</span></td>"
  end))
end

return crosscheck
