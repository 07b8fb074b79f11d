-- How runs compare: steps pair up across runs by (kind, group, axis, axis
-- value, workload), then by name; a step imported from fio left alone then
-- pairs with an hbatest step of its workload across groups (compare.match);
-- a delta against the baseline knows which way is better; a change under
-- 2 % is shown apart (grey), as too small to call.
local compare = {}

compare.noise_pct = 2

local SEP = "\31"

-- "4k" -> 4096, "1m" -> 1048576; nil for a mix ("4k:60,64k:40").
function compare.bytes(bs)
  local n, unit = tostring(bs or ""):lower():match("^(%d+)([kmg]?)$")
  if not n then return nil end
  local mult = { [""] = 1, k = 1024, m = 1024 ^ 2, g = 1024 ^ 3 }
  return tonumber(n) * mult[unit]
end

-- A step's place on its axis: the swept value as a number (a block size in
-- KiB: "4k" -> 4, "1m" -> 1024), or nil when its value is not one the axis
-- can hold (OIO and block size above 0, write % 0 to 100).
function compare.axis_x(axis, v)
  local x
  if axis == "bs" then x = (compare.bytes(v) or 0) / 1024 else x = tonumber(v) end
  if not x or x ~= x or x == math.huge then return nil end
  if axis == "write_pct" then return x >= 0 and x <= 100 and x or nil end
  return x > 0 and x or nil
end

-- MB/s in MiB/s
compare.MIB = 1e6 / 2 ^ 20

-- Throughput as --units gives it: "mbps", "MB/s", 1; under --units MiB
-- "mibps", "MiB/s" and the factor from MB/s (the steps' mibps: compare.match).
function compare.throughput()
  if report.units == "MiB" then return "mibps", "MiB/s", compare.MIB end
  return "mbps", "MB/s", 1
end

-- What a step is judged by: MB/s (MiB/s under --units MiB) for blocks of
-- 64k and more, else IOPS; its field and unit.
function compare.metric(step)
  local b = compare.bytes(step.bs)
  if b and b >= 65536 then return compare.throughput() end
  return "iops", "IOPS"
end

-- The column a field of compare.metric is stored in (samples and step
-- totals hold MB/s, "mbps") and the factor to it: "mibps" -> "mbps", MIB.
function compare.stored(field)
  if field == "mibps" then return "mbps", compare.MIB end
  return field, 1
end

-- What a step measured: two steps of one name but another OIO, block size,
-- pattern, write share or worker count are other measurements (a plan run
-- with another --set), never compared with each other.
function compare.workload(s)
  return table.concat({ s.rw or "", s.bs or "", tostring(s.write_pct or ""),
                        tostring(s.oio or ""), tostring(s.workers or "") }, SEP)
end

local function base_key(s)
  local g = s.group_name or ""
  local w = compare.workload(s)
  if s.kind == "steady-round" then
    return table.concat({ s.kind, g, s.name or "", tostring(s.round or ""), w }, SEP)
  end
  if s.axis and s.axis ~= "" then
    return table.concat({ s.kind, g, s.axis, tostring(s.axis_value or ""), w }, SEP)
  end
  return table.concat({ s.kind, g, "", s.name or "", w }, SEP)
end

-- The workload as a reader tells steps of one name apart: "randread 4k, OIO 256".
function compare.workload_text(s)
  local parts = { s.rw or "?", s.bs or "?" }
  if s.rw and s.rw:find("rw$") and s.write_pct then parts[#parts + 1] = ("write %s %%"):format(s.write_pct) end
  local t = table.concat(parts, " ")
  if s.oio then t = t .. ", OIO " .. s.oio end
  if s.workers and s.workers > 1 then t = t .. ", " .. s.workers .. " workers" end
  return t
end

-- The keys of one run's steps: the base key, then the name where the base
-- key repeats within the run, then an occurrence number.
local function keys_of(steps)
  local count, seen, keys = {}, {}, {}
  for _, s in ipairs(steps) do
    local k = base_key(s)
    count[k] = (count[k] or 0) + 1
  end
  for i, s in ipairs(steps) do
    local k = base_key(s)
    if count[k] > 1 then k = k .. SEP .. (s.name or "") end
    seen[k] = (seen[k] or 0) + 1
    if seen[k] > 1 then k = k .. SEP .. "#" .. seen[k] end
    keys[i] = k
  end
  return keys
end

-- Was s imported from fio (its params say where they are from)?
local function from_fio(s)
  return (s.params_json or ""):find('^{"source":"fio"') ~= nil
end

-- A step's key without its group (and, on an axis, without its name): fio
-- names its sweeps "randread bs=4k", a plan "4k randread"; nil for a
-- steady-state round (fio has none).
local function loose_key(s)
  if s.kind == "steady-round" then return nil end
  local work = compare.workload(s)
  if s.axis and s.axis ~= "" then
    local x = compare.axis_x(s.axis, s.axis_value)
    return table.concat({ s.kind, s.axis, tostring(x or s.axis_value or ""), work }, SEP)
  end
  return table.concat({ s.kind, "", s.name or "", work }, SEP)
end

-- What a row paired across groups calls its steps: "group “4k randread”,
-- step “qd2”" per run, "no group" when it has none.
local function called(s)
  local g = s.group_name and s.group_name ~= "" and ("group “%s”"):format(s.group_name) or "no group"
  return ("%s, step “%s”"):format(g, s.name or "?")
end

-- Whose steps a row holds: "fio", "hbatest" or "both".
local function source_of(row)
  local fio, other = false, false
  for _, s in pairs(row.steps) do
    if from_fio(s) then fio = true else other = true end
  end
  return fio and other and "both" or fio and "fio" or "hbatest"
end

-- How each run calls a row the second pass paired, for the log: "fio qd32:
-- group “qd32”, step “qd32”; hb qd32: no group, step “qd32”" (on an axis,
-- the groups alone: a sweep's points say it once).
local function say_paired(row, nruns)
  local say = {}
  for r = 1, nruns do
    if row.paired[r] then
      local run = report and report.runs and report.runs[r]
      local name = run and (run.label and run.label ~= "" and run.label or run.uuid) or ("run " .. r)
      local what = row.paired[r]
      if row.first.axis and row.first.axis ~= "" then what = what:match("^(.-), step") end
      say[#say + 1] = ("%s: %s"):format(name, what)
    end
  end
  return table.concat(say, "; ")
end

-- The second pass: rows left out of some run pair when exactly two such
-- rows have one loose key, one of steps imported from fio, the other of
-- hbatest's (so of other runs). Two groups of one plan alike, or a step run
-- twice, are more rows: they stay apart; so do two hbatest runs, or two fio
-- runs, that group a step apart. The row takes the place of the earlier of
-- the two, its label and group from the hbatest step (row.first), and says
-- how the runs call it (row.paired: run -> "group “…”, step “…”"), logged
-- once per pair of names.
local function pair_loose(rows, runs_steps)
  local nruns = #runs_steps
  local cands, order = {}, {}
  for _, row in ipairs(rows) do
    local n, k = 0, loose_key(row.first)
    for _ in pairs(row.steps) do n = n + 1 end
    if k and n < nruns then
      if not cands[k] then cands[k] = {}; order[#order + 1] = k end
      table.insert(cands[k], row)
    end
  end
  local gone, logged = {}, {}
  for _, k in ipairs(order) do
    local a, b = cands[k][1], cands[k][2]
    -- (a run is imported or hbatest's: two such rows are of other runs)
    local sa, sb = source_of(a), b and source_of(b)
    if #cands[k] == 2 and sa ~= "both" and sb ~= "both" and sa ~= sb then
      a.first = sa == "hbatest" and a.first or b.first
      a.paired = {}
      for r = 1, nruns do
        local s = a.steps[r] or b.steps[r]
        if s then a.steps[r], a.paired[r] = s, called(s) end
      end
      gone[b] = true
      local say = say_paired(a, nruns)
      if not logged[say] and report and report.log then
        logged[say] = true
        local what = a.first.axis and a.first.axis ~= "" and ("%s sweep"):format(a.first.axis)
          or compare.workload_text(a.first)
        report.log(("paired by workload across groups (%s): %s"):format(what, say))
      end
    end
  end
  local kept = {}
  for _, row in ipairs(rows) do
    if not gone[row] then kept[#kept + 1] = row end
  end
  return kept
end

-- runs_steps[r] = the steps of run r in plan order. Returns the rows, each
-- { key =, steps = { [r] = step or nil }, first = a step of the row }, in the
-- order of the first run, then steps only later runs have, in theirs (a row
-- the second pass paired: pair_loose). Each step gets its MB/s as MiB/s too
-- (s.mibps: compare.metric's field under --units MiB).
function compare.match(runs_steps)
  local rows, by_key = {}, {}
  for r, steps in ipairs(runs_steps) do
    local keys = keys_of(steps)
    for i, s in ipairs(steps) do
      s.mibps = type(s.mbps) == "number" and s.mbps * compare.MIB or nil
      local row = by_key[keys[i]]
      if not row then
        row = { key = keys[i], steps = {}, first = s }
        by_key[keys[i]] = row
        rows[#rows + 1] = row
      end
      row.steps[r] = s
    end
  end
  return pair_loose(rows, runs_steps)
end

-- Rows missing in some run: { { row =, missing = { run indexes } } }.
function compare.unmatched(rows, nruns)
  local out = {}
  for _, row in ipairs(rows) do
    local missing = {}
    for r = 1, nruns do
      if not row.steps[r] then missing[#missing + 1] = r end
    end
    if #missing > 0 then out[#out + 1] = { row = row, missing = missing } end
  end
  return out
end

-- Delta of v against base in %, and its class: "noise" (a change under 2 %),
-- "better" or "worse" (higher_better says which way is up).
function compare.delta(v, base, higher_better)
  if not v or not base or base == 0 then return nil end
  local d = (v - base) / base * 100
  local class
  if math.abs(d) < compare.noise_pct then class = "noise"
  elseif (d > 0) == higher_better then class = "better"
  else class = "worse" end
  return d, class
end

-- Does v tie with the best value: within noise_pct of it, a difference the
-- deltas call too small to count (exactly equal when the best is 0)?
function compare.ties(v, best)
  if best == 0 then return v == 0 end
  local _, class = compare.delta(v, best, true)
  return class == "noise"
end

-- The index of the best of values (a table run -> number), or nil when
-- fewer than two runs have a value.
function compare.best(values, nruns, higher_better)
  local best, n
  n = 0
  for r = 1, nruns do
    local v = values[r]
    if v then
      n = n + 1
      if not best or (higher_better and v > values[best]) or
         (not higher_better and v < values[best]) then best = r end
    end
  end
  return n > 1 and best or nil
end

return compare
