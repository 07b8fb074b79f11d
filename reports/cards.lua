-- The RAID card of each run in the test bed: its Controller and Volume rows
-- (card, firmware, personality, cache and its protection; RAID level, strip,
-- write policy as set and in effect, read and I/O policy, drive cache, the
-- drives summarised), from the views run_controller and run_volume.
local fmt = require("format")

local cards = {}

-- The rows each section may have, in order; review.lua puts them in the
-- test bed under a heading of the section's name.
cards.controller_rows = { "Controller", "Controller firmware", "Controller driver", "Personality",
  "Cache", "Controller temperature", "Drives on it" }
cards.volume_rows = { "Volume", "RAID level", "Strip", "Write policy", "Read / I/O policy",
  "Drive cache", "Member drives" }
-- Rows that differ between runs without a setting differing: no highlight.
cards.measured = { ["Controller temperature"] = true }

local function have_views()
  return #report.sql("SELECT 1 FROM sqlite_master WHERE type = 'view' AND name = 'run_volume'") > 0
end

-- The controllers a run measured: those behind its targets, and a simulated
-- one; when none is, every one its probes saw (marked: behind no target).
local function measured(list)
  local out = {}
  for _, x in ipairs(list) do
    if x.target or x.simulated == 1 then out[#out + 1] = x end
  end
  if #out > 0 then return out, false end
  return list, #list > 0
end

local function join(list, key_of, text_of)
  local parts = {}
  for _, x in ipairs(list) do
    local t = text_of(x)
    if t and t ~= "" then
      parts[#parts + 1] = #list > 1 and ("%s: %s"):format(key_of(x), t) or t
    end
  end
  return #parts > 0 and table.concat(parts, "; ") or nil
end

local function words(...)
  local out = {}
  for k = 1, select("#", ...) do
    local v = select(k, ...)
    if v and v ~= "" then out[#out + 1] = tostring(v) end
  end
  return #out > 0 and table.concat(out, " ") or nil
end

local function controller_cells(cells, list, host_wide)
  local function key(c) return ("%s %s"):format(c.source, c.controller) end
  local function put(name, f) cells[name] = join(list, key, f) end
  put("Controller", function(c)
    return words(c.model or c.status or "?", c.simulated == 1 and "(simulated)" or nil,
      host_wide and "(on the host, behind no target)" or nil)
  end)
  put("Controller firmware", function(c)
    return words(c.firmware, c.firmware_package and ("(package " .. c.firmware_package .. ")"))
  end)
  put("Controller driver", function(c) return words(c.driver, c.driver_version) end)
  put("Personality", function(c) return c.personality end)
  put("Cache", function(c)
    local size = c.cache_mb and c.cache_mb > 0 and (fmt.int(c.cache_mb) .. " MB") or nil
    local prot = words(c.cache_protection, c.cache_protection_state)
    if not size and not prot then return nil end
    return (size or "size not reported") .. (prot and (", " .. prot) or ", no protection reported")
  end)
  put("Controller temperature", function(c)
    return c.temperature_c and ("%s °C at the start"):format(fmt.int(c.temperature_c))
  end)
  put("Drives on it", function(c) return c.volumes == 0 and c.drive_summary or nil end)
end

local function volume_cells(cells, list)
  local function key(v) return ("%s/%s"):format(v.controller, v.volume) end
  local function put(name, f) cells[name] = join(list, key, f) end
  put("Volume", function(v)
    local dev = v.os_device or v.target
    local ops = v.active_operations and v.active_operations ~= "None" and v.active_operations
    return words(v.name and v.name ~= "" and v.name or v.volume, dev and ("(" .. dev .. ")"),
      v.state and (", " .. v.state), v.size and (", " .. v.size),
      ops and (", busy: " .. ops)):gsub(" ,", ",")
  end)
  put("RAID level", function(v) return v.raid_level end)
  put("Strip", function(v) return v.strip_kb and (fmt.int(v.strip_kb) .. " KiB") end)
  put("Read / I/O policy", function(v)
    if not v.read_policy and not v.io_policy then return nil end
    return ("%s / %s"):format(v.read_policy or "read policy not reported",
      v.io_policy or "I/O policy not reported")
  end)
  put("Drive cache", function(v) return v.drive_cache end)
  put("Member drives", function(v) return v.drive_summary end)
  -- as set, and in effect; a write-back volume running write-through (its
  -- cache protection learning or failed) is a warning beside it
  local set, off = {}, {}
  for _, v in ipairs(list) do
    local eff = v.write_policy_effective
    local t = v.write_policy and words(v.write_policy, eff and ("(in effect: " .. eff .. ")"))
      or eff and ("in effect: " .. eff)
    if t then set[#set + 1] = #list > 1 and (key(v) .. ": " .. t) or t end
    if v.write_policy and eff and v.write_policy:lower():find("back") and
       not eff:lower():find("back") and eff ~= "On" then
      off[#off + 1] = ("%s runs %s, not %s"):format(key(v), eff, v.write_policy)
    end
  end
  if #set > 0 then
    cells["Write policy"] = table.concat(set, "; ")
      .. (#off > 0 and ("\0" .. table.concat(off, "; ")) or "")
  end
end

-- Each resume of run r in words (the view run_resume, since schema 8, as
-- show says them), a line each under its end in the Run section.
local function resume_lines(r, cells)
  if #report.sql("SELECT 1 FROM sqlite_master WHERE type = 'view' AND name = 'run_resume'") == 0 then
    return
  end
  local lines = {}
  for _, x in ipairs(report.sql("SELECT summary FROM run_resume WHERE run_id = ?1 ORDER BY at, ord", r.id)) do
    lines[#lines + 1] = x.summary
  end
  if #lines > 0 then
    cells["Finished (UTC)"] = (cells["Finished (UTC)"] or "–") .. "\n" .. table.concat(lines, "\n")
  end
end

-- Adds run r's Controller and Volume cells to cells (absent: the run has
-- none), and its resumes to the Run section's "Finished (UTC)".
function cards.cells(r, cells)
  resume_lines(r, cells)
  if not have_views() then return end
  local cs, host_wide = measured(report.sql(
    "SELECT * FROM run_controller WHERE run_id = ?1 ORDER BY ord", r.id))
  if #cs == 0 then return end
  controller_cells(cells, cs, host_wide)
  local shown = {}
  for _, c in ipairs(cs) do shown[c.source .. "\31" .. c.controller] = true end
  local vs = {}
  for _, v in ipairs(report.sql("SELECT * FROM run_volume WHERE run_id = ?1 ORDER BY ord", r.id)) do
    if shown[v.source .. "\31" .. v.controller] and (host_wide or v.target or v.simulated == 1) then
      vs[#vs + 1] = v
    end
  end
  volume_cells(cells, vs)
end

return cards
