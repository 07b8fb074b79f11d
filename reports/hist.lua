-- Latency percentiles from a step's stored histograms (docs/measurement.md, "Histograms":
-- layout loglin-v1 unit=ns sub_bits=7), read and write merged (or one of
-- them), computed the
-- way the core computes a step's percentiles: the bucket holding rank
-- ceil(p/100 x total), its middle, no more than the step's maximum.
local hist = {}

local MERGED = [[
  SELECT CAST(json_extract(j.value, '$[0]') AS INTEGER) AS b,
         sum(json_extract(j.value, '$[1]')) AS c
  FROM histograms h,
       json_each(CASE WHEN json_valid(h.counts) AND json_type(h.counts) = 'array'
                      THEN h.counts ELSE '[]' END) j
  WHERE h.step_id = ?1 AND h.layout LIKE 'loglin-v1 unit=ns sub_bits=7%'
    AND (?2 IS NULL OR h.dir = ?2)
  GROUP BY b ORDER BY b]]

local function bucket_mid_ns(b)
  if b < 256 then return b end
  local e = b // 128 + 6
  local low = (b % 128 + 128) << (e - 7)
  local width = 1 << (b // 128 - 1)
  return low + (width - 1) / 2
end

-- { [p] = microseconds } for each p of levels (e.g. { 50, 99, 99.9 }), or nil
-- when the step has no histogram (of dir, "read" or "write", when given).
-- max_us: the step's maximum latency.
-- A bucket of the layout (its 4,736 buckets: HIST_BUCKETS, core/hist.h) with
-- a count: no other is counted (a histogram edited by hand, or not JSON,
-- counts as none).
local NBUCKETS = (42 - 7) * 128 + 2 * 128
local function bucket_ok(x)
  return math.tointeger(x.b) and x.b >= 0 and x.b < NBUCKETS and type(x.c) == "number"
    and x.c > 0 and x.c < math.huge
end

function hist.percentiles(step_id, levels, max_us, dir)
  local buckets, total = {}, 0
  for _, x in ipairs(report.sql(MERGED, step_id, dir)) do
    if bucket_ok(x) then
      buckets[#buckets + 1] = x
      total = total + x.c
    end
  end
  if total == 0 then return nil end
  local out = {}
  for _, p in ipairs(levels) do
    local rank = math.max(1, math.ceil(p / 100 * total))
    local seen = 0
    for _, x in ipairs(buckets) do
      seen = seen + x.c
      if seen >= rank then
        local us = bucket_mid_ns(x.b) / 1000
        out[p] = max_us and math.min(us, max_us) or us
        break
      end
    end
  end
  return out
end

return hist
