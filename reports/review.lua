-- reports/review.lua: the default report of `hbatest report RUN...`. One
-- page comparing the runs (one colour per run in every chart and table):
-- the test bed side by side, every matched step with deltas against the
-- baseline, then the charts reviewers publish (shared/reference 003, 000):
-- per-second scatter of preconditioning and long steps, OIO and write-mix
-- sweeps, sequential throughput bars against each run's PCIe ceiling.
-- It runs in the plan sandbox with the report.* API (docs/reports.md).
local compare = require("compare")
local fmt = require("format")
local cards = require("cards")
local layout = require("page")
local crosscheck = require("crosscheck")	-- a note on a delta against a fio run not run alike
local hostcpu = require("hostcpu")	-- host-bound marks and the host CPU charts

local esc = report.escape_html
local runs = report.runs
local N = #runs
local B = report.baseline

-- Colour-blind safe (Okabe-Ito without its black, which the charts' average
-- and window-mean lines use, then Tol's indigo, olive, wine), dark enough on
-- white; ten runs have ten colours, the eleventh takes the first again.
local palette = { "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9",
                  "#332288", "#999933", "#882255", "#661100" }

-- a run's name: its label, or its uuid's first 8 characters; runs that
-- share a label (a plan run again under it) get the uuid's 8 beside it, so
-- no legend, column or delta names two runs alike
local label_count = {}
for _, r in ipairs(runs) do
  if r.label and r.label ~= "" then label_count[r.label] = (label_count[r.label] or 0) + 1 end
end
-- s in n characters at most, the last an ellipsis when it is cut
local function cut(s, n)
  local len = utf8.len(s)
  if not len or len <= n then return s end
  return s:sub(1, utf8.offset(s, n) - 1) .. "…"
end
-- A chart's key drops every title when one does not fit its width: a long
-- label is cut to 60 characters in the keys (the page names it whole),
-- keeping what tells runs apart (the uuid's 8, " [simulated]") whole.
local function key_title(r, tagged)
  local base = (r.label and r.label ~= "") and r.label or r.uuid:sub(1, 8)
  local tag = tagged and base ~= r.uuid:sub(1, 8) and (" " .. r.uuid:sub(1, 8)) or ""
  local sim = r.sim and " [simulated]" or ""
  return cut(base, 60 - #tag - #sim) .. tag .. sim
end
if N > #palette then
  report.log(("%d runs: the charts have %d colours, so from run %d on colours repeat (the "
    .. "tables name every run)"):format(N, #palette, #palette + 1))
end
local title_count = {}
for i, r in ipairs(runs) do
  r.color = palette[(i - 1) % #palette + 1]
  r.name = (r.label and r.label ~= "") and r.label or r.uuid:sub(1, 8)
  local shared = (label_count[r.name] or 0) > 1
  if shared then r.name = r.name .. " " .. r.uuid:sub(1, 8) end
  r.sim = r.simulated == 1
  r.series_title = key_title(r, shared)
  title_count[r.series_title] = (title_count[r.series_title] or 0) + 1
end
-- two labels alike in their first 60 characters: their keys get the uuid too
for _, r in ipairs(runs) do
  if title_count[r.series_title] > 1 then r.series_title = key_title(r, true) end
end

-- ---- data ----------------------------------------------------------------
-- Every step with the simulated card and link it ran on (sim_cards: the
-- cards after the first, `key=value,...` each, `;` between; its drives, their
-- SAS/SATA lanes and wide ports, for the sequential bars' ceiling; the view
-- step_detail, but a params_json that is not JSON reads as none, not as an
-- error of the whole query)
local STEPS = [[
  SELECT s.*, CASE WHEN json_valid(s.params_json) THEN json_extract(s.params_json, '$.sim.link') END AS sim_link,
         CASE WHEN json_valid(s.params_json) THEN json_extract(s.params_json, '$.sim.preset') END AS sim_preset,
         CASE WHEN json_valid(s.params_json) THEN json_extract(s.params_json, '$.sim.cards') END AS sim_cards,
         CASE WHEN json_valid(s.params_json) THEN json_extract(s.params_json, '$.sim.drive_link_gbps') END AS sim_drive_gbps,
         CASE WHEN json_valid(s.params_json) THEN json_extract(s.params_json, '$.sim.sas_lane_gbps') END AS sim_lane_gbps,
         CASE WHEN json_valid(s.params_json) THEN json_extract(s.params_json, '$.sim.drives') END AS sim_drives,
         CASE WHEN json_valid(s.params_json) THEN json_extract(s.params_json, '$.sim.sas_ports') END AS sim_ports,
         CASE WHEN json_valid(s.params_json) THEN json_extract(s.params_json, '$.sim.sas_port_lanes') END AS sim_port_lanes
  FROM steps s WHERE run_id = ?1 ORDER BY seq]]

-- A step on an axis the charts draw whose value the axis cannot hold (text
-- where an OIO belongs: a database edited by hand, an old import) is shown
-- as a step of its own, not as a point of the sweep.
local CHARTED = { oio = true, write_pct = true, bs = true }
local function off_axis(r, st)
  if CHARTED[st.axis] and not compare.axis_x(st.axis, st.axis_value) then
    report.log(("run %s, step %s: %s value '%s' is not one of that axis: shown as a step, "
      .. "not as a point of the sweep"):format(r.label or r.uuid, fmt.int(st.seq), st.axis,
      tostring(st.axis_value)))
    st.axis = nil
  end
end

local steps, facts = {}, {}
for i, r in ipairs(runs) do
  steps[i] = report.sql(STEPS, r.id)
  for _, st in ipairs(steps[i]) do off_axis(r, st) end
  facts[i] = report.sql("SELECT target, probe, key, value FROM run_testbed WHERE run_id = ?1 ORDER BY ord", r.id)
  -- a step still 'running': its run is under way, or its process died
  -- (interrupted). Its totals are written at its end, so its measured
  -- seconds are summed here; its p99 stays unknown (the histogram too is
  -- written at the end).
  for _, st in ipairs(steps[i]) do
    if st.status == "running" then
      local w = report.sql([[SELECT sum(secs) AS w, sum(read_ops + write_ops) / sum(secs) AS iops,
        sum(read_bytes + write_bytes) / 1e6 / sum(secs) AS mbps
        FROM samples WHERE step_id = ?1 AND ramp = 0]], st.id)[1]
      st.status = r.state == "running" and "running" or "interrupted"
      st.window_s, st.iops, st.mbps = w.w or 0, w.iops, w.mbps
    end
  end
end
layout.only(steps, report.only)	-- --only GLOB: the groups it names, or a usage error
local rows = compare.match(steps)
local id_of = layout.ids()	-- every anchor of the page, unique

local out = {}
local function add(...)
  for _, s in ipairs{ ... } do out[#out + 1] = s end
end

-- ---- header --------------------------------------------------------------
local function badges(r)
  local b = ('<span class="badge state-%s">%s</span>'):format(esc(r.state), esc(r.state))
  if r.sim then b = b .. ' <span class="badge sim">simulated</span>' end
  return b
end

local function run_head(r)
  return ('<span class="swatch" style="background:%s"></span>%s %s'):format(
    r.color, esc(r.name), badges(r))
end

local names = {}
for i, r in ipairs(runs) do names[i] = r.name end
local title = report.title ~= "" and report.title or table.concat(names, " vs ")
add("<header><h1>", esc(title), "</h1>")
add('<p class="sub">', N > 1 and ("%d runs compared; deltas against %s."):format(N,
    esc(runs[B].name)) or "One run.", "</p>", '<ul class="runs">')
for _, r in ipairs(runs) do
  add("<li>", run_head(r), ' <code>', esc(r.uuid:sub(1, 8)), "</code> ",
      esc(r.started_at or ""), r.plan_name and r.plan_name ~= "" and
        (' <span class="plan">plan “' .. esc(r.plan_name) .. "”</span>") or "", "</li>")
end
add("</ul>")
-- A run's lines at the top, under the list of runs: its notes (run --note,
-- hb.note), one per line, as the run wrote them; a line more of the run (when
-- it was resumed) goes here too.
local function top_lines(r)
  local lines = {}
  if r.notes and r.notes ~= "" then lines[#lines + 1] = esc(r.notes):gsub("\n", "<br>") end
  return lines
end
for _, r in ipairs(runs) do
  for _, line in ipairs(top_lines(r)) do
    add('<div class="notes"><span class="swatch" style="background:', r.color, '"></span><b>',
        esc(r.name), "</b>: ", line, "</div>")
  end
end
add("</header>")
-- Steps that failed, were aborted or counted I/O errors: the run, the step,
-- how far it got and its message, near the top.
local function step_trouble(s)
  return s.status ~= "done" or (s.errors or 0) > 0 or (s.error_text and s.error_text ~= "")
end

local function trouble_line(r, s)
  local what = ("step %s “%s” %s"):format(fmt.int(s.seq), esc(s.name or "?"),
    s.status == "done" and "done" or ("%s after %s"):format(esc(s.status),
      fmt.plural(s.window_s or 0, "second")))
  local text = s.error_text and s.error_text ~= "" and s.error_text
  -- the stored count; a zero beside a message that counts errors would only confuse
  local errs = s.errors and (s.errors > 0 or not text) and (", " .. fmt.plural(s.errors, "I/O error")) or ""
  if not text and s.status == "running" then
    return what .. ((s.errors or 0) > 0 and errs or "") .. ": under way"
  elseif not text and s.status == "interrupted" then
    text = "its process ended during it (killed, or the machine went down); the seconds it stored are kept"
  elseif not text and r.state ~= "done" then
    local ev = report.sql([[SELECT message FROM events WHERE run_id = ?1
      AND level IN ('error', 'warning') ORDER BY id DESC LIMIT 1]], r.id)[1]
    text = ev and ev.message
  elseif not text then	-- a step that went on through errors (on_error="continue"): its warning
    for _, e in ipairs(require("telemetry").step_events(r, s)) do
      if e.message:find("I/O error", 1, true) then text = e.message; break end
    end
  end
  return what .. errs .. (text and (': <span class="errtext">' .. esc(text) .. "</span>")
    or ": no error text recorded")
end

for i, r in ipairs(runs) do
  local lines = {}
  for _, s in ipairs(steps[i]) do
    if step_trouble(s) then lines[#lines + 1] = "<li>" .. trouble_line(r, s) .. "</li>" end
  end
  -- the steps its plan had left (steps_planned: the dry pass's count, NULL
  -- when not known); a report lists only steps some run has
  local planned_n = not (report.only and #report.only > 0) and math.tointeger(r.steps_planned)
  local left = planned_n and planned_n - #steps[i] or 0
  local planned = left > 0 and (" It %s %d of its plan’s %d steps%s."):format(
    r.state == "running" and "has started" or "ran", #steps[i], planned_n,
    N == 1 and r.state ~= "running" and "; the rest are not in this report" or "") or ""
  if r.state == "running" then
    report.log(("run %s is still running: the report shows its results so far"):format(r.name))
    add('<div class="alert"><b>', esc(r.name), "</b> is still <b>running</b>: these are its results ",
        "so far (a step under way is marked “running”); report again when it ends.",
        esc(planned), #lines > 0 and "<ul>" .. table.concat(lines) .. "</ul>" or "", "</div>")
  elseif r.state ~= "done" then
    add('<div class="alert"><b>', esc(r.name), "</b> is <b>", esc(r.state),
        "</b>: its results stop where it stopped",
        N > 1 and "; steps it did not reach are listed as not in every run below" or "",
        ".", esc(planned), #lines > 0 and "<ul>" .. table.concat(lines) .. "</ul>" or "", "</div>")
  elseif #lines > 0 then
    add('<div class="alert"><b>', esc(r.name), "</b> counted errors:<ul>",
        table.concat(lines), "</ul></div>")
  end
end

-- The contents and the headlines go here, once the page is made.
local top_slot = #out + 1
add("")

-- ---- test bed -------------------------------------------------------------
local function fact_map(list)
  local m = { targets = {}, order = {} }
  for _, f in ipairs(list) do
    local t = f.target == "" and "host" or f.target
    if not m.targets[t] then m.targets[t] = {}; m.order[#m.order + 1] = t end
    m.targets[t][f.probe .. "." .. f.key] = f.value
  end
  return m
end

-- The targets' values of a fact (key: "probe.key", or a function of a
-- target's facts), each once, with how many targets share it when they differ.
local function target_values(m, key)
  local vals, count = {}, {}
  for _, t in ipairs(m.order) do
    local v = t ~= "host" and (type(key) == "function" and key(m.targets[t]) or m.targets[t][key])
    if v then
      if not count[v] then vals[#vals + 1] = v end
      count[v] = (count[v] or 0) + 1
    end
  end
  local parts = {}
  for _, v in ipairs(vals) do
    parts[#parts + 1] = #vals > 1 and ("%s (%s)"):format(v, fmt.plural(count[v], "target")) or v
  end
  return #parts > 0 and table.concat(parts, ", ") or nil
end

-- The PCIe cards the targets sit on, in the order of their first target:
-- one per PCI address (targets without one: one per link alike), each with
-- its targets' count and the first target's pcie.* facts.
local function pcie_cards(m)
  local list, by = {}, {}
  for _, t in ipairs(m.order) do
    local f = m.targets[t]
    if t ~= "host" and f["pcie.current_link_width"] then
      local key = f["pcie.address"] or table.concat({ f["pcie.current_link_speed"] or "?",
        f["pcie.current_link_width"], f["pcie.ceiling_current_bytes_per_s"] or "?" }, "|")
      if not by[key] then by[key] = { f = f, n = 0 }; list[#list + 1] = by[key] end
      by[key].n = by[key].n + 1
    end
  end
  return list
end

-- A card's link: "2.5 GT/s PCIe x8", its maximum beside it when known
local function link_text(f)
  local max = f["pcie.max_link_width"] and (" (max %s x%s)"):format(f["pcie.max_link_speed"] or "?",
    f["pcie.max_link_width"]) or ""
  return ("%s x%s%s"):format(f["pcie.current_link_speed"] or "?", f["pcie.current_link_width"], max)
end

local testbed_rows = {
  { "Host", function(m) return m.targets.host and m.targets.host["host.hostname"] end },
  { "CPU", function(m)
      local h = m.targets.host or {}
      if not h["host.cpu_model"] then return nil end
      local function count(v, what)	-- "1 socket", "2 sockets", "? cores"
        local n = math.tointeger(tonumber(v))
        return ("%s %s%s"):format(n and ("%d"):format(n) or "?", what, n == 1 and "" or "s")
      end
      return ("%s (%s, %s, %s)"):format(h["host.cpu_model"], count(h["host.sockets"], "socket"),
        count(h["host.cores"], "core"), count(h["host.threads"], "thread"))
    end },
  { "Memory", function(m)
      local b = m.targets.host and tonumber(m.targets.host["host.memory_bytes"])
      b = fmt.finite(b)
      return b and ("%.0f GiB"):format(b / 2 ^ 30)
    end },
  { "Kernel", function(m) return m.targets.host and m.targets.host["host.kernel"] end },
  { "Card", function(m)
      local v = target_values(m, "pcie.device_name")
      local vendor = target_values(m, "pcie.vendor_name")
      local sub = target_values(m, "pcie.subsystem_name")
      if not v then return nil end
      return (vendor and vendor .. " " or "") .. v .. (sub and " (" .. sub .. ")" or "")
    end },
  { "Board", function(m) return target_values(m, "scsi_host.board_name") end },
  { "Driver", function(m) return target_values(m, "scsi_host.driver") or target_values(m, "pcie.driver") end },
  { "Firmware", function(m) return target_values(m, "scsi_host.firmware") or target_values(m, "nvme.firmware") end },
  { "BIOS", function(m) return target_values(m, "scsi_host.bios") end },
  -- several cards: a line each, "card 2 (ADDRESS, 8 targets): 5.0 GT/s PCIe x8 (4.00 GB/s)"
  { "PCIe link", function(m)
      local list = pcie_cards(m)
      if #list < 2 then return list[1] and link_text(list[1].f) end
      local lines = {}
      for k, c in ipairs(list) do
        local ceil = fmt.gbps(tonumber(c.f["pcie.ceiling_current_bytes_per_s"]))
        lines[k] = ("card %d (%s%s): %s%s"):format(k, c.f["pcie.address"] and (c.f["pcie.address"] .. ", ") or "",
          fmt.plural(c.n, "target"), link_text(c.f), ceil and (" (" .. ceil .. ")") or "")
      end
      return table.concat(lines, "\n")
    end },
  { "PCIe ceiling", function(m)
      local list, parts = pcie_cards(m), {}
      if #list < 2 then return list[1] and fmt.gbps(tonumber(list[1].f["pcie.ceiling_current_bytes_per_s"])) end
      for k, c in ipairs(list) do
        parts[k] = ("card %d: %s"):format(k, fmt.gbps(tonumber(c.f["pcie.ceiling_current_bytes_per_s"]))
          or "not reported")
      end
      return #parts > 0 and table.concat(parts, "; ") or nil
    end },
  -- the block probe's queue: "scheduler: mq-deadline, write cache: write back, SSD"
  { "Device queue", function(m)
      return target_values(m, function(f)
        local rot = ({ ["0"] = "SSD", ["1"] = "rotational" })[f["block.rotational"]]
        local sched, wc = f["block.scheduler"], f["block.write_cache"]
        local parts = {}
        for _, v in ipairs{ sched and "scheduler: " .. sched or false, wc and "write cache: " .. wc or false,
                            rot or false } do
          if v then parts[#parts + 1] = v end
        end
        return #parts > 0 and table.concat(parts, ", ") or nil
      end)
    end },
  { "Drives", function(m)
      local model = target_values(m, "block.model") or target_values(m, "nvme.model")
      if not model then return nil end
      local rev = target_values(m, "block.revision")
      return model .. (rev and ", firmware " .. rev or "")
    end },
}

-- "/dev/loop0 (block, 1.0 GiB); /tmp/x.dat (file, 64.0 MiB)", the first 8;
-- virtual targets without a size when virtual_unsized
local function target_list(r, virtual_unsized)
  local t = report.sql("SELECT path, kind, size_bytes FROM targets WHERE run_id = ?1 ORDER BY id", r.id)
  local parts = {}
  for k, x in ipairs(t) do
    if k > 8 then
      parts[#parts + 1] = ("and %d more"):format(#t - 8)
      break
    end
    local size = not (virtual_unsized and x.kind == "virtual") and fmt.bytes(x.size_bytes) or nil
    parts[k] = ("%s (%s%s)"):format(x.path, x.kind or "?", size and ", " .. size or "")
  end
  return #parts > 0 and table.concat(parts, "; ") or nil
end

-- What a run's latency times, shown when any run of the report was
-- imported: fio without --lat_percentiles gives completion latency only
-- (clat, without the submission), lower than hbatest's submit to completion.
local any_imported = false
for _, r in ipairs(runs) do any_imported = any_imported or (r.source or "hbatest") ~= "hbatest" end
-- once(list, v): v appended to list unless nil or already there
local function once(list, v) if v and not list[v] then list[v] = true; list[#list + 1] = v end end

local function latency_kind(i)
  local r = runs[i]
  if r.source == "iometer" then return "submit to completion (Iometer's response time)" end
  if r.source ~= "fio" then return "submit to completion" end
  local kinds = {}
  for _, s in ipairs(steps[i]) do
    once(kinds, (s.params_json or ""):match('"latency"%s*:%s*"([%w_]+)"'))
  end
  local words = { lat_ns = "submit to completion (fio lat)",
    clat_ns = "completion only (fio clat: without the submission, so lower than submit to "
      .. "completion; fio --lat_percentiles=1 gives lat)" }
  local out = {}
  for k, v in ipairs(kinds) do out[k] = words[v] or v end
  return #out > 0 and table.concat(out, "; ") or nil
end

local function run_facts(i)
  local r, m = runs[i], fact_map(facts[i])
  local cells = {}
  for _, row in ipairs(testbed_rows) do
    cells[row[1]] = row[2](m)
  end
  local warn = target_values(m, "pcie.link_downtrained")
  if warn then cells["PCIe link"] = (cells["PCIe link"] or "") .. "\0" .. warn end
  local presets, links, engines = {}, {}, {}
  for _, s in ipairs(steps[i]) do
    once(presets, s.sim_preset); once(links, s.sim_link); once(engines, s.engine)
  end
  if #presets > 0 then cells["Simulated card"] = table.concat(presets, ", ") end
  -- the simulated array: layout, drives and their size, strip (a preset's
  -- or the plan's own, as each step ran it)
  local arrays = {}
  for _, a in ipairs(report.sql([[SELECT DISTINCT json_extract(p, '$.sim.layout') AS layout,
      json_extract(p, '$.sim.drives') AS drives,
      json_extract(p, '$.sim.drive_capacity') AS cap,
      json_extract(p, '$.sim.strip') AS strip
      FROM (SELECT seq, CASE WHEN json_valid(params_json) THEN params_json END AS p
            FROM steps WHERE run_id = ?1)
      WHERE json_extract(p, '$.sim.layout') IS NOT NULL ORDER BY seq]], r.id)) do
    -- the volume the steps measured, as the sim sizes it (sim_target_size)
    local n, cap = math.tointeger(tonumber(a.drives)), fmt.finite(a.cap)
    local data = n and ({ raid0 = n, raid5 = math.max(n - 1, 1), raid10 = math.max(n // 2, 1) })[a.layout]
    once(arrays, ("%s of %s x %s drives%s%s"):format(tostring(a.layout):upper(), a.drives or "?",
      fmt.bytes(a.cap) or "?", a.strip and (", strip " .. fmt.bytes(a.strip)) or "",
      data and cap and (": a " .. fmt.bytes(data * cap) .. " volume") or ""))
  end
  if #arrays > 0 then cells["Simulated array"] = table.concat(arrays, "; ") end
  if #links > 0 then
    local l = {}
    for k, v in ipairs(links) do l[k] = fmt.link_label(v) end
    cells["Simulated link"] = table.concat(l, "; ")
  end
  cells["Engine"] = table.concat(engines, ", ")
  cells["fio hosts"] = require("hosts").testbed(steps[i])
  -- a virtual target's size is its first step's: with several arrays, each
  -- array's own is in the row above
  cells["Targets"] = target_list(r, #arrays > 1)
  -- a plan named relative to the folder the run started in (runs.cwd, since schema 6)
  local rel = r.plan_path and r.cwd and r.plan_path:sub(1, 1) ~= "/"
  cells["Plan"] = rel and (r.cwd:gsub("/$", "") .. "/" .. r.plan_path:gsub("^%./", "")) or r.plan_path
  cells["Plan sha256"] = r.plan_sha256
  cells["--set"] = (r.sets_json and r.sets_json ~= "{}" and r.sets_json ~= "[]") and r.sets_json or nil
  if r.source and r.source ~= "hbatest" then	-- the importing tool's version is not hbatest's
    local v = r.version or ""
    if v:lower():sub(1, #r.source) ~= r.source then v = (r.source .. " " .. v):gsub(" $", "") end
    cells["Imported from"] = ("%s%s"):format(v,
      r.source_file and (" (" .. r.source_file:match("[^/]*$") .. ")") or "")
  else
    cells["hbatest"] = r.version
  end
  if any_imported then cells["Latency"] = latency_kind(i) end
  cells["Started (UTC)"] = r.started_at
  cells["Finished (UTC)"] = r.finished_at
  cells["State"] = r.state
  cells["Plan name"] = r.plan_name
  cells["Build commit"] = r.build_commit
  cells["Notes"] = r.notes and r.notes ~= "" and r.notes or nil
  cards.cells(r, cells)
  return cells
end

-- The rows in order, under the headings of their sections (a heading is
-- shown when a row under it is).
local bed_order = { "State", "Host", "CPU", "Memory", "Kernel", "Card", "Board", "Driver",
  "Firmware", "BIOS", "PCIe link", "PCIe ceiling", "Simulated card", "Simulated link", "Simulated array",
  "Drives", "Device queue", "Targets" }
local bed_sections = { { "", bed_order }, { "Controller", cards.controller_rows },
  { "Volume", cards.volume_rows },
  { "Run", { "Plan name", "Notes", "Engine", "fio hosts", "Plan", "Plan sha256", "--set", "hbatest", "Build commit",
    "Imported from", "Latency", "Started (UTC)", "Finished (UTC)" } } }

-- Rows that differ for every pair of runs: not worth a highlight.
local always_differ = { ["Started (UTC)"] = true, ["Finished (UTC)"] = true }
for k in pairs(cards.measured) do always_differ[k] = true end

local bed = {}
for i = 1, N do bed[i] = run_facts(i) end
add("<h2>Test bed</h2><table class=\"testbed\"><thead><tr><th></th>")
for _, r in ipairs(runs) do add("<th>", run_head(r), "</th>") end
add("</tr></thead><tbody>")
-- a cell's text: notes one per line, a warning (after a NUL) below it
local function bed_cell(v)
  local text, warn = v:match("^(.-)%z(.*)$")
  text = esc(text or v):gsub("\n", "<br>")
  if warn then return "<td>" .. text .. '<br><span class="warn">&#9888; ' .. esc(warn) .. "</span></td>" end
  return "<td>" .. (v ~= "" and text or "–") .. "</td>"
end
for _, section in ipairs(bed_sections) do
  local heading = section[1] ~= "" and section[1]
  for _, key in ipairs(section[2]) do
    local any, same = false, true
    for i = 1, N do
      if bed[i][key] then any = true end
      if bed[i][key] ~= bed[1][key] then same = false end
    end
    if any then
      if heading then
        add('<tr class="section"><th colspan="', N + 1, '">', esc(heading), "</th></tr>")
        heading = nil
      end
      local highlight = N > 1 and not same and not always_differ[key]
      add(highlight and '<tr class="diff">' or "<tr>", "<th>", esc(key), "</th>")
      for i = 1, N do add(bed_cell(bed[i][key] or "")) end
      add("</tr>")
    end
  end
end
add("</tbody></table>")
if N > 1 then add('<p class="sub">Rows that differ between the runs are highlighted.</p>') end

-- ---- summary ---------------------------------------------------------------
local function plain_label(s)
  local g = s.group_name and s.group_name ~= "" and s.group_name or nil
  local label = s.name or "?"
  if s.axis and s.axis ~= "" and g then
    label = ("%s, %s %s"):format(g, s.axis == "write_pct" and "write %" or s.axis, s.axis_value)
  elseif g and not label:find(g, 1, true) then
    label = g .. ": " .. label
  end
  -- hb.steady names its rounds "NAME round N" already; a plan's own name may not
  local round = " round " .. (s.round or "?")
  if s.kind == "steady-round" and label:sub(-#round) ~= round then label = label .. round end
  return label
end

-- Rows of one label (one name, another workload) say what each measured.
local label_rows = {}
for _, row in ipairs(rows) do
  local l = plain_label(row.first)
  label_rows[l] = (label_rows[l] or 0) + 1
end
local function step_label(s)
  local l = plain_label(s)
  return label_rows[l] and label_rows[l] > 1 and ("%s (%s)"):format(l, compare.workload_text(s)) or l
end

-- A step's value, and for a step that did not finish but stored whole
-- seconds, its value with a note ("aborted after 2 seconds"); such a value
-- is shown but neither starred nor compared.
local function step_value(s, field)
  if not s or not s[field] then return nil end
  if s.status == "done" then return s[field] end
  if (s.window_s or 0) > 0 then
    return nil, s[field], ("%s after %s"):format(s.status, fmt.plural(s.window_s, "second"))
  end
  return nil
end

local csv = { "step,kind,metric" }
for _, r in ipairs(runs) do csv[1] = csv[1] .. "," .. fmt.csv(r.name) end
for i = 1, N do if i ~= B then csv[1] = csv[1] .. "," .. fmt.csv("delta % " .. runs[i].name) end end
-- a step that did not finish: its value over the seconds it stored, and why,
-- apart from the value columns (which stay empty: not a comparable value)
for _, r in ipairs(runs) do csv[1] = csv[1] .. "," .. fmt.csv("partial " .. r.name) end
for _, r in ipairs(runs) do csv[1] = csv[1] .. "," .. fmt.csv("partial note " .. r.name) end

-- The summary's table head, repeated in each group's fold.
local summary_head = { '<table class="summary"><thead><tr><th>Step</th><th>Metric</th>' }
for i, r in ipairs(runs) do
  summary_head[#summary_head + 1] = ('<th class="num">%s%s</th>'):format(run_head(r),
    i == B and N > 1 and "<br>(baseline)" or "")
end
for i = 1, N do
  if i ~= B then summary_head[#summary_head + 1] = ('<th class="num">Δ %s</th>'):format(esc(runs[i].name)) end
end
summary_head[#summary_head + 1] = "</tr></thead><tbody>"
summary_head = table.concat(summary_head)

-- The mark beside the summary's figure of a step that counted I/O errors
-- (on_error="continue" went on through them): the count and its share of
-- the step's I/Os, as its figure counts only the I/Os that succeeded.
local errors_marked = false
local function errors_mark(s)
  local n = s and s.errors or 0
  if n <= 0 then return "" end
  errors_marked = true
  local share = n / (n + (s.read_ops or 0) + (s.write_ops or 0)) * 100
  return ('<br><span class="warn errors" title="the figure counts only the I/Os that succeeded">'
    .. "&#9888; %s (%s %% of its I/Os)</span>"):format(fmt.plural(n, "I/O error"),
      share >= 1 and fmt.int(math.floor(share + 0.5)) or "under 1")
end

-- Under the label of a row paired by its workload across groups (a fio
-- run's job beside a plan's step: compare.lua's second pass), how each run
-- calls it, so the reader sees two names were taken as one measurement.
local function paired_note(row)
  if not row.paired then return "" end
  local say = {}
  for i = 1, N do
    if row.paired[i] then say[#say + 1] = ("%s: %s"):format(runs[i].name, row.paired[i]) end
  end
  return ('<br><span class="note paired">paired by workload (%s)</span>'):format(esc(table.concat(say, "; ")))
end

-- A row of the summary: its metric's value per run, then the deltas.
local function summary_row(row)
  local s = row.first
  local field, unit = compare.metric(s)
  for _, m in ipairs{ { field, unit, true }, { "lat_p99_us", "p99 latency µs", false } } do
    local vals, part, note = {}, {}, {}
    for i = 1, N do vals[i], part[i], note[i] = step_value(row.steps[i], m[1]) end
    local best = compare.best(vals, N, m[3])
    local line = { fmt.csv(step_label(s)), s.kind, fmt.csv(m[2]) }
    add("<tr>", m[3] and "<td>" .. esc(step_label(s)) .. paired_note(row) .. "</td>" or "<td></td>",
        '<td class="metric">', esc(m[2]), "</td>")
    for i = 1, N do
      if part[i] then
        add('<td class="num partial">', fmt.num(part[i]), '<br><span class="note">',
            esc(note[i]), "</span></td>")
      else
        local tied = best and compare.ties(vals[i], vals[best])	-- every run within noise of it
        add(tied and '<td class="num best">' or '<td class="num">', fmt.num(vals[i]),
            hostcpu.mark(row.steps[i]), errors_mark(row.steps[i]), "</td>")
      end
      line[#line + 1] = vals[i] and fmt.exact(vals[i]) or ""
    end
    for i = 1, N do
      if i ~= B then
        local d, class = compare.delta(vals[i], vals[B], m[3])
        add(crosscheck.cell(layout.delta_cell(d, class), runs[i], row.steps[i], runs[B], row.steps[B]))
        line[#line + 1] = d and ("%.2f"):format(d) or ""
      end
    end
    for i = 1, N do line[#line + 1] = part[i] and fmt.exact(part[i]) or "" end
    for i = 1, N do line[#line + 1] = note[i] and fmt.csv(note[i]) or "" end
    add("</tr>")
    csv[#csv + 1] = table.concat(line, ",")
  end
end

-- The rows by group (a sweep's points, or one step), in the order of the rows.
local groups = {}
for _, row in ipairs(rows) do
  local g = layout.group_of(row.first)
  if not groups[g] then groups[g] = {}; groups[#groups + 1] = g end
  table.insert(groups[g], row)
end
-- Each group's headline (the leading run at report.at or its highest shared
-- point) and the anchor of its fold.
local headlines = {}
for _, g in ipairs(groups) do
  local h = layout.headline(groups[g], report.at, N)
  headlines[g] = { id = id_of("sum", g), html = h and layout.headline_html(h, runs) }
end

add("<h2>Summary</h2>")
for _, g in ipairs(groups) do
  add('<details class="group" id="', headlines[g].id, '"><summary>', esc(g), " <span class=\"count\">(",
      fmt.plural(#groups[g], "step"), ")</span>", headlines[g].html and
        ('<span class="headline">' .. headlines[g].html .. "</span>") or "", "</summary>", summary_head)
  for _, row in ipairs(groups[g]) do summary_row(row) end
  add("</tbody></table></details>")
end
add(hostcpu.note())
if errors_marked then
  add('<p class="sub errors-note">&#9888; I/O errors: the step went on through them (on_error = ',
      '"continue", or fio’s continue_on_error); its figures count only the I/Os that succeeded, so they say little of the ',
      "device. The errors themselves are listed at the top of the page.</p>")
end
if N > 1 then
  add('<p class="sub">★ best of the row (each run within ', compare.noise_pct,
      ' % of the best ties for it). Each delta has its arrow and sign (▲ + up, ▼ - down); ',
      "green is better, red worse (IOPS and MB/s up, latency down); grey: a change under ",
      compare.noise_pct, " %. Click a group to unfold its steps. A value marked ",
      "“aborted/failed after N seconds” is from a step that did not finish: shown, not compared.</p>")
end
report.write("data/summary.csv", table.concat(csv, "\n") .. "\n")

-- Every row some run has no full value in: the step is missing there, or
-- it did not finish (partial seconds or none), as the table shows it.
local gaps = {}
for _, row in ipairs(rows) do
  local miss, partial, none = {}, {}, {}
  local field = compare.metric(row.first)
  for i = 1, N do
    local s = row.steps[i]
    local v, p, note = step_value(s, field)
    if not s then miss[#miss + 1] = esc(runs[i].name)
    elseif p then partial[#partial + 1] = ("%s (%s)"):format(esc(runs[i].name), esc(note))
    elseif not v and s.status ~= "done" then
      none[#none + 1] = ("%s (%s, no whole second stored)"):format(esc(runs[i].name), esc(s.status))
    end
  end
  local parts = {}
  if #miss > 0 then parts[#parts + 1] = "missing in " .. table.concat(miss, ", ") end
  if #partial > 0 then parts[#parts + 1] = "partial in " .. table.concat(partial, ", ") end
  if #none > 0 then parts[#parts + 1] = "no result in " .. table.concat(none, ", ") end
  if #parts > 0 then gaps[#gaps + 1] = { row = row, text = table.concat(parts, "; ") } end
end
if N > 1 and #gaps > 0 then
  add("<h3>Steps not in every run</h3><ul>")
  for _, u in ipairs(gaps) do
    add("<li>", esc(step_label(u.row.first)), " (", u.row.first.kind, "): ", u.text, "</li>")
  end
  add("</ul>")
end

-- ---- charts ------------------------------------------------------------------
local charts = require("charts")
charts.setup{ runs = runs, steps = steps, rows = rows, add = add, label = step_label }
-- The ranked bars and latency curves lead the charts; drawn last, so the
-- others keep their numbers (NN-), into a slot of the page kept here.
require("at").check(rows)
local lead, lead_at = {}, #out + 1
out[lead_at] = ""
charts.scatter()
charts.hosts()
-- Server profiles (scripts/profiles.lua: oltp, email, webserver, fileserver)
-- get a section of their own, as in published reviews.
local known = require("profiles")
local function profile(g) return known[g] ~= nil end
charts.sweeps("oio", "Outstanding I/O (OIO) sweeps", "outstanding I/O (OIO)", true,
              function(g) return not profile(g) end)
charts.sweeps("oio", "Server profiles", "outstanding I/O (OIO)", true, profile)
charts.sweeps("write_pct", "Write-mix sweeps", "write % (0 = all reads)", false)
charts.sweeps("bs", "Block-size sweeps", "block size (KiB)", true)
charts.steady()
charts.sequential_bars()
charts.per_target()
-- steps on several controllers: a stack per controller against their links' sum (reference 004)
require("controllers").charts{ runs = runs, rows = rows, add = add, figure = charts.figure,
  label = step_label, ceiling = charts.pcie_ceiling }
charts.exec_table()
require("telemetry").charts(runs, add, charts.figure)
local function lead_add(...) for _, x in ipairs{ ... } do lead[#lead + 1] = x end end
local lead_ctx = { runs = runs, rows = rows, baseline = B, add = lead_add,
  figure = function(c, caption)	-- charts.figure's HTML, moved into the slot
    local n = #out
    charts.figure(c, caption)
    lead_add(table.unpack(out, n + 1))
    for k = #out, n + 1, -1 do out[k] = nil end
  end }
require("ranked").charts(lead_ctx)
require("curves").charts(lead_ctx)
require("precondition").charts(lead_ctx)
out[lead_at] = table.concat(lead)
hostcpu.charts(runs, add, charts.figure)	-- numbered last: the others keep their NN-
require("steps").add(runs, steps, add)

-- ---- the page ----------------------------------------------------------------
-- At the top: the contents, then each group's headline linked to its fold.
local top = { "<!--hbatest:toc-->" }
local any_headline = false
for _, g in ipairs(groups) do any_headline = any_headline or headlines[g].html ~= nil end
if any_headline then
  top[#top + 1] = '<h2>Headlines</h2><ul class="headlines">'
  for _, g in ipairs(groups) do
    local h = headlines[g]
    if h.html then
      top[#top + 1] = ('<li><a href="#%s">%s</a>: %s</li>'):format(h.id, esc(g), h.html)
    end
  end
  top[#top + 1] = "</ul>"
end
out[top_slot] = table.concat(top)
local body, toc = layout.anchor(table.concat(out), id_of)
body = body:gsub("<!%-%-hbatest:toc%-%->", function() return layout.toc_html(toc) end, 1)
local page = report.read("html/page.html")
local vars = { title = esc(title), style = report.read("html/style.css"),
               body = body, version = esc(report.version),
               db = esc(report.db or "the database") }
page = page:gsub("{{(%w+)}}", function(k) return vars[k] or "" end)
report.write("index.html", page)
