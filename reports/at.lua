-- The point of each swept group at which runs are compared (the ranked
-- bars): `hbatest report --at AXIS=VALUE` (report.at), else the highest
-- point every run has; an --at no run can answer is a usage error (exit 2).
-- Also what runs are compared by there, in the units of --units.
local compare = require("compare")
local at = {}

local function group_of(s)
  return (s.group_name and s.group_name ~= "") and s.group_name or s.name
end

-- The measure rows swept over axis, by group: groups[g] = rows, order = names.
function at.groups(rows, axis)
  local groups, order = {}, {}
  for _, row in ipairs(rows) do
    local s = row.first
    if s.kind == "measure" and s.axis == axis then
      local g = group_of(s)
      if not groups[g] then groups[g] = {}; order[#order + 1] = g end
      table.insert(groups[g], row)
    end
  end
  return groups, order
end

-- Are a and b one point of axis ("32" and 32; "4k" and "4096")?
local function same(axis, a, b)
  local xa, xb = compare.axis_x(axis, a), compare.axis_x(axis, b)
  if xa and xb then return xa == xb end
  return tostring(a) == tostring(b)
end

local function x_of(axis, v)
  return compare.axis_x(axis, v) or math.huge
end

local function sorted_keys(t)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = k end
  table.sort(keys)
  return keys
end

-- The axes --at gives, sorted.
function at.given_axes() return sorted_keys(report.at) end

-- Every --at names an axis some step is swept over and a point some run
-- has on it; else report.usage_error naming it and what the runs have.
function at.check(rows)
  for _, axis in ipairs(at.given_axes()) do
    local want, axes, points, seen, found = report.at[axis], {}, {}, {}, false
    for _, row in ipairs(rows) do
      local s = row.first
      if s.axis and s.axis ~= "" then axes[s.axis] = true end
      if s.axis == axis then
        for _, st in pairs(row.steps) do
          found = found or same(axis, st.axis_value, want)
          local v = tostring(st.axis_value)
          if not seen[v] then seen[v] = true; points[#points + 1] = st.axis_value end
        end
      end
    end
    if #points == 0 then
      local list = sorted_keys(axes)
      report.usage_error(("--at %s=%s: no step of these runs is swept over '%s' (%s)"):format(
        axis, want, axis, #list > 0 and ("their axes: " .. table.concat(list, ", ")) or "they have no sweep"))
    elseif not found then
      table.sort(points, function(a, b) return x_of(axis, a) < x_of(axis, b) end)
      for k, v in ipairs(points) do points[k] = tostring(v) end
      report.usage_error(("--at %s=%s: no run has the point %s %s (its points: %s)"):format(
        axis, want, axis, want, table.concat(points, ", ")))
    end
  end
end

local function done_count(row, nruns)
  local n = 0
  for i = 1, nruns do
    if row.steps[i] and row.steps[i].status == "done" then n = n + 1 end
  end
  return n
end

-- The row of a group's rows to compare runs at, and why it: "given" (the
-- --at point), "highest shared" (the highest every run has) or "highest"
-- (no point is in every run: the highest in the most runs). A group
-- without the --at point (others have it) falls back, saying so in why.
function at.point(rows, axis, nruns)
  local want = report.at[axis]
  if want then
    for _, row in ipairs(rows) do
      if same(axis, row.first.axis_value, want) and done_count(row, nruns) > 0 then return row, "given" end
    end
  end
  local best, best_n
  for _, row in ipairs(rows) do
    local n = done_count(row, nruns)
    if n > 0 and (not best or n > best_n or (n == best_n and
        x_of(axis, row.first.axis_value) > x_of(axis, best.first.axis_value))) then
      best, best_n = row, n
    end
  end
  if not best then return nil end
  local why = best_n == nruns and "highest shared" or "highest"
  return best, want and (why .. ", not " .. axis .. " " .. want) or why
end

-- A step's value and its unit: MB/s (MiB/s under --units MiB: the step's
-- mibps, compare.match) for blocks of 64k and more, else IOPS
-- (compare.metric); nil when it has none.
function at.value(s)
  local field, unit = compare.metric(s)
  return s[field], unit
end

at.axis_name = { oio = "OIO", write_pct = "write %", bs = "block size" }

-- "OIO 32", "write % 50", "workers 4"
function at.point_text(axis, v)
  return ("%s %s"):format(at.axis_name[axis] or axis, tostring(v))
end

return at
