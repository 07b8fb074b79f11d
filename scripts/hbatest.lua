-- The part of the plan API written in Lua: hb.sweep, hb.profile, hb.steady
-- and hb.precondition. hbatest loads it into every plan before the plan runs.
local snia = require "snia"
local builtin_profiles = require "profiles"

local function copy(t, into)
  into = into or {}
  for k, v in pairs(t) do into[k] = v end
  return into
end

local function check_keys(t, allowed, fn)
  for k in pairs(t) do
    if not allowed[k] then
      local names = {}
      for name in pairs(allowed) do names[#names + 1] = name end
      table.sort(names)
      error(("%s: unknown key '%s' (it takes %s)"):format(fn, tostring(k),
        table.concat(names, ", ")), 3)
    end
  end
end

-- One value or a list of values; a weighted bs mix ({["4k"]=60}) is one value.
local function values(v)
  if v == nil then return nil end
  if type(v) == "table" and #v > 0 then return v end
  return { v }
end

-- What a wrong value is, for an error: "a number (5)", never a table's address
local function what(v)
  if type(v) == "table" or type(v) == "function" then return "a " .. type(v) end
  return ("a %s (%s)"):format(type(v), tostring(v))
end

local function show(v)
  if type(v) ~= "table" then return tostring(v) end
  local parts = {}
  for size, weight in pairs(v) do parts[#parts + 1] = size .. ":" .. weight end
  table.sort(parts)
  return table.concat(parts, ",")
end

---------------------------------------------------------------------------
-- hb.sweep{ base = {...}, bs = {...}, write_pct = {...}, oio = {...},
--           group = "name", stop = function(result, point) ... end }
-- Runs the Cartesian product, bs outermost and oio innermost. Each point is a
-- step whose axis is the innermost swept key; its group names the outer
-- values, so a report draws one line per group. stop(result, point) returning
-- true skips the rest of the innermost axis (e.g. once p99 passes 10 ms).
-- Returns every result in order, each with .point = { key = value, ... }.
local sweep_keys = { base = true, bs = true, write_pct = true, oio = true, group = true,
                     stop = true }
local sweep_order = { "bs", "write_pct", "oio" }

function hb.sweep(t)
  if type(t) ~= "table" then error("hb.sweep: expected a table", 2) end
  check_keys(t, sweep_keys, "hb.sweep")
  -- checked here, not when first used: stop is never called in the dry pass
  if t.base ~= nil and type(t.base) ~= "table" then
    error(("hb.sweep: base is %s: expected a table of step keys"):format(what(t.base)), 2)
  end
  if t.stop ~= nil and type(t.stop) ~= "function" then
    error(("hb.sweep: stop is %s: expected a function(result, point) that returns true "
      .. "to skip the rest of the innermost axis"):format(what(t.stop)), 2)
  end
  if t.group ~= nil and type(t.group) ~= "string" then
    error(("hb.sweep: group is %s: expected a string"):format(what(t.group)), 2)
  end
  local base = t.base or {}
  local axes = {}
  for _, key in ipairs(sweep_order) do
    if type(t[key]) == "table" and next(t[key]) == nil then
      error(("hb.sweep: %s={} has no values: a sweep needs at least one point"):format(key), 2)
    end
    local vals = values(t[key])
    if vals then axes[#axes + 1] = { key = key, values = vals } end
  end
  if #axes == 0 then error("hb.sweep: give at least one of oio, write_pct, bs", 2) end
  local inner = axes[#axes]
  local results = {}

  local function group_of(point)
    local g = { t.group or base.group or base.name or (base.rw or "randread") }
    for i = 1, #axes - 1 do
      local key = axes[i].key
      g[#g + 1] = key .. "=" .. show(point[key])
    end
    return table.concat(g, " ")
  end

  local function walk(level, point)
    local axis = axes[level]
    for _, v in ipairs(axis.values) do
      local p = copy(point)
      p[axis.key] = v
      if level < #axes then
        walk(level + 1, p)
      else
        local step = copy(p, copy(base))
        step.axis = inner.key
        step.group = group_of(p)
        if base.name then step.name = base.name .. " " .. inner.key .. "=" .. show(v) end
        local r = hb.run(step)
        r.point = p
        results[#results + 1] = r
        if t.stop and not r.dry and t.stop(r, p) then break end
      end
    end
  end

  walk(1, {})
  return results
end

---------------------------------------------------------------------------
-- hb.profile(name): the step keys of a server profile (scripts/profiles.lua);
-- hb.profile(name, keys) adds or replaces one for this plan.
local profiles = copy(builtin_profiles)

function hb.profile(name, def)
  if type(name) ~= "string" then error("hb.profile: expected a profile name", 2) end
  if def ~= nil then
    if type(def) ~= "table" then error("hb.profile: a profile is a table of step keys", 2) end
    profiles[name] = def
  end
  local p = profiles[name]
  if not p then
    local names = {}
    for n in pairs(profiles) do names[#names + 1] = n end
    table.sort(names)
    error(("hb.profile: no profile '%s' (known: %s)"):format(name, table.concat(names, ", ")), 2)
  end
  local keys = copy(p)
  keys.description = nil
  keys.name = keys.name or name
  keys.group = keys.group or name
  return keys
end

---------------------------------------------------------------------------
-- hb.precondition{...}: with no duration, the SNIA workload-independent
-- preconditioning: a sequential fill of passes (2) x capacity in 128k writes
-- at OIO 32. With a duration, a timed workload (randwrite by default), e.g.
-- { duration = 9000, bs = "4k", oio = 256 }. Every second is sampled and, unless
-- the call sets ramp, counted: the plan's default ramp does not apply.
function hb.precondition(t)
  if t ~= nil and type(t) ~= "table" then error("hb.precondition: expected a table", 2) end
  local step = copy(t or {})
  step.kind = "precondition"
  step.oio = step.oio or 32
  step.ramp = step.ramp or 0    -- every second of the descent counts
  if step.duration == nil then
    -- passes = 0 made a timed sequential write of the plan's default duration
    if step.passes == 0 then
      error("hb.precondition: passes=0 fills nothing: give 1 or more passes, a duration "
        .. "for a timed workload, or leave the call out", 2)
    end
    step.passes = step.passes or 2
    step.rw = step.rw or "write"
    step.bs = step.bs or "128k"
  else
    step.rw = step.rw or "randwrite"
  end
  return hb.run(step)
end

---------------------------------------------------------------------------
-- hb.steady{...}: rounds of a workload until SNIA steady state.
--   workload = { step keys }        one workload a round, or
--   workloads = { {...}, {...} }    several a round (the PTS IOPS matrix)
--   round = 60                      seconds of each workload (unless it sets duration)
--   track = "iops"                  a results field of the tracked workload, or
--                                   function(round_results) return number end
--   track_step = 1                  which workload of a round is tracked
--   window, max_data_excursion, max_slope_excursion, max_rounds: see snia.lua
--   name = "steady state"
-- Returns { attained, rounds, window = { values..., first = r, last = r }, mean,
-- slope, data_excursion, slope_excursion, series = {...}, results = {...} } and
-- stores it in the steady_state table. The dry pass counts max_rounds.
local steady_keys = { workload = true, workloads = true, round = true, track = true,
                      track_step = true, window = true, max_data_excursion = true,
                      max_slope_excursion = true, max_rounds = true, name = true }

function hb.steady(t)
  if type(t) ~= "table" then error("hb.steady: expected a table", 2) end
  check_keys(t, steady_keys, "hb.steady")
  if t.workload ~= nil and t.workloads ~= nil then
    error("hb.steady: give workload = {...} or workloads = {...}, not both", 2)
  end
  local workloads = t.workloads or { t.workload }
  if type(workloads) ~= "table" or #workloads == 0 then
    error("hb.steady: give workload = {...} or workloads = {...}", 2)
  end
  for i, w in ipairs(workloads) do
    if type(w) ~= "table" then
      error(("hb.steady: workload %d is %s: expected a table of step keys"):format(i, what(w)), 2)
    end
  end
  -- the limits are shares of the window's mean; checked here, as the dry
  -- pass's zero figures never reach the comparison that uses them
  for _, key in ipairs{ "max_data_excursion", "max_slope_excursion" } do
    local v = t[key]
    if v ~= nil and (type(v) ~= "number" or not (v > 0 and v <= 1)) then
      error(("hb.steady: %s is %s: expected a share of the window's mean above 0 "
        .. "and at most 1, such as %s for %d%%"):format(key, what(v),
        snia.defaults[key], math.floor(snia.defaults[key] * 100 + 0.5)), 2)
    end
  end
  if t.name ~= nil and type(t.name) ~= "string" then
    error(("hb.steady: name is %s: expected a string"):format(what(t.name)), 2)
  end
  local name = t.name or "steady state"
  local track = t.track or "iops"
  local track_step = t.track_step or 1
  if not workloads[track_step] then error("hb.steady: track_step " .. track_step .. " is not a workload", 2) end
  local max_rounds = t.max_rounds or snia.defaults.max_rounds
  local function whole(key, v, lo)
    if v ~= nil and (type(v) ~= "number" or v ~= math.floor(v) or v < lo) then
      error(("hb.steady: %s=%s: expected a whole number, at least %d"):format(key, tostring(v), lo), 3)
    end
  end
  whole("max_rounds", t.max_rounds, 1)
  whole("window", t.window, 2)
  local window = t.window or snia.defaults.window
  if window > max_rounds then
    error(("hb.steady: window=%d%s is more than max_rounds=%d: it could never be attained")
      :format(window, t.window and "" or " (the SNIA default)", max_rounds), 2)
  end
  local series, results, result = {}, {}, nil
  local first_id, last_id

  for round = 1, max_rounds do
    local rr = {}
    for i, w in ipairs(workloads) do
      local step = copy(w)
      step.kind = "steady-round"
      step.round = round
      step.group = step.group or name
      step.duration = step.duration or t.round
      step.name = (w.name or name) .. " round " .. round
      local r = hb.run(step)
      rr[i] = r
      first_id = first_id or r.step_id
      last_id = r.step_id
    end
    results[round] = rr
    local v
    if type(track) == "function" then v = track(rr) else v = rr[track_step][track] end
    if type(v) ~= "number" then error("hb.steady: the tracking value is not a number", 2) end
    series[round] = v
    result = snia.check(series, t)
    if result.attained and not hb.dry then break end
  end

  result.rounds = #series
  result.series = series
  result.results = results
  result.window = {}
  if result.window_first then
    for i = result.window_first, result.window_last do result.window[#result.window + 1] = series[i] end
    result.window.first, result.window.last = result.window_first, result.window_last
  end
  hb._record_steady{
    name = name, track = type(track) == "string" and track or "function",
    attained = result.attained, rounds = result.rounds,
    window_first = result.window_first, window_last = result.window_last,
    mean = result.mean, slope = result.slope,
    data_excursion = result.data_excursion, slope_excursion = result.slope_excursion,
    max_data_excursion = result.max_data_excursion,
    max_slope_excursion = result.max_slope_excursion,
    first_step_id = first_id, last_step_id = last_id,
  }
  return result
end
