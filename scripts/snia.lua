-- SNIA Solid State Storage Performance Test Specification (PTS) steady state.
--
-- PTS 2.0.2, section 2.1 ("Steady State"): a device is in steady state when,
-- over a measurement window of 5 consecutive rounds, the tracking variable
--   * has a data excursion (max - min) of at most 20% of the window's mean, and
--   * its least-squares linear fit has a slope excursion (slope x (window - 1),
--     the rise of the line across the window) of at most 10% of that mean.
-- The test runs at most 25 rounds. All four numbers are options here.
local snia = {}

snia.defaults = {
  window = 5,
  max_data_excursion = 0.20,
  max_slope_excursion = 0.10,
  max_rounds = 25,
}

-- Least-squares line through (1, y1) .. (n, yn): slope and intercept.
function snia.fit(ys)
  local n = #ys
  local sx, sy, sxx, sxy = 0, 0, 0, 0
  for i, y in ipairs(ys) do
    sx, sy, sxx, sxy = sx + i, sy + y, sxx + i * i, sxy + i * y
  end
  local d = n * sxx - sx * sx
  if d == 0 then return 0, sy / n end
  local slope = (n * sxy - sx * sy) / d
  return slope, (sy - slope * sx) / n
end

-- Is the series (a list of numbers, one per round) in steady state over its
-- last `window` values? Returns a table:
--   attained, window_first, window_last (round numbers), mean, slope,
--   data_excursion, slope_excursion (absolute), and the limits used.
function snia.check(series, opts)
  opts = opts or {}
  local w = opts.window or snia.defaults.window
  local max_data = opts.max_data_excursion or snia.defaults.max_data_excursion
  local max_slope = opts.max_slope_excursion or snia.defaults.max_slope_excursion
  local r = { attained = false, max_data_excursion = max_data, max_slope_excursion = max_slope }
  local n = #series
  if n < w then return r end
  local win = {}
  for i = n - w + 1, n do win[#win + 1] = series[i] end
  local lo, hi, sum = math.huge, -math.huge, 0
  for _, v in ipairs(win) do
    lo, hi, sum = math.min(lo, v), math.max(hi, v), sum + v
  end
  r.window_first, r.window_last = n - w + 1, n
  r.mean = sum / w
  r.slope = snia.fit(win)
  r.data_excursion = hi - lo
  r.slope_excursion = math.abs(r.slope) * (w - 1)
  r.attained = r.mean > 0
    and r.data_excursion <= max_data * r.mean
    and r.slope_excursion <= max_slope * r.mean
  return r
end

return snia
