-- Axis tics as a reviewer prints them: counts with k and M (800k, 1.2M),
-- latencies with thousands separators, on linear or 1-2-5 log axes; given
-- to a template as two arrays (values, labels) it adds with `set xtics add`.
local fmt = require("format")
local ticks = {}

-- 800000 -> "800k", 1200000 -> "1.2M", 1500 -> "1.5k", 20 -> "20", 0.5 -> "0.5"
function ticks.si(v)
  local a = math.abs(v)
  for _, u in ipairs{ { 1e9, "G" }, { 1e6, "M" }, { 1e3, "k" } } do
    if a >= u[1] then return (("%.3g"):format(v / u[1])) .. u[2] end
  end
  return ("%.3g"):format(v)
end

-- a latency in µs: 0.5 -> "0.5", 2000 -> "2,000"
function ticks.us(v)
  return v < 100 and ("%g"):format(v) or fmt.num(v)
end

-- About n tics from 0 (or lo) over hi, at 1, 2 or 5 times a power of ten:
-- their values, their labels (label(v), ticks.si by default) and the last.
function ticks.linear(lo, hi, n, label)
  label = label or ticks.si
  if not hi or hi <= lo then hi = lo + 1 end
  local raw = (hi - lo) / (n or 5)
  local p = 10 ^ math.floor(math.log(raw, 10))
  local step = p
  for _, m in ipairs{ 1, 2, 5, 10 } do
    if m * p >= raw then step = m * p; break end
  end
  local vals, labels = {}, {}
  local v = math.floor(lo / step) * step
  while v < hi + step * 0.999 do
    vals[#vals + 1], labels[#labels + 1] = v, label(v)
    v = v + step
  end
  return vals, labels, vals[#vals]
end

-- The 1-2-5 tics of a log axis from the one at or below lo to the one at or
-- above hi (at least four labelled), with their labels.
function ticks.log(lo, hi, label)
  label = label or ticks.us
  local all = {}
  local d = 10 ^ math.floor(math.log(lo, 10) + 1e-9)
  while #all == 0 or all[#all] < hi * (1 - 1e-9) do
    for _, m in ipairs{ 1, 2, 5 } do all[#all + 1] = m * d end
    d = d * 10
  end
  local vals, labels = {}, {}
  for _, v in ipairs(all) do
    if v >= lo * (1 - 1e-9) or v * 2.5 > lo then	-- (from the tic at or below lo)
      if #vals > 0 and vals[#vals] >= hi * (1 - 1e-9) and #vals >= 4 then break end
      vals[#vals + 1], labels[#labels + 1] = v, label(v)
    end
  end
  return vals, labels, vals[1], vals[#vals]
end

return ticks
