#!/usr/bin/env lua5.4
-- SNIA PTS steady-state detection (scripts/snia.lua) against hand-made series.
local here = arg[0]:match("(.*)/") or "."
package.path = here .. "/../scripts/?.lua;" .. package.path
local snia = require "snia"

local n, failed = 0, 0
local function ok(cond, what)
  n = n + 1
  if not cond then failed = failed + 1 end
  print((cond and "ok " or "not ok ") .. n .. " - " .. what)
end
local function near(a, b) return math.abs(a - b) < 1e-9 end

-- the least-squares line
local slope, icept = snia.fit{ 3, 5, 7, 9, 11 }
ok(near(slope, 2) and near(icept, 1), "fit: y = 2x + 1 gives slope 2, intercept 1")
slope = snia.fit{ 5, 5, 5 }
ok(near(slope, 0), "fit: a flat series has slope 0")

-- attained: flat within 2%
local r = snia.check{ 100, 101, 99, 100, 100 }
ok(r.attained, "a flat window of 5 rounds is steady")
ok(r.window_first == 1 and r.window_last == 5 and near(r.mean, 100), "window 1-5, mean 100")
ok(near(r.data_excursion, 2), "data excursion is max - min (2)")

-- too few rounds
ok(not snia.check{ 100, 100, 100, 100 }.attained, "4 rounds are not enough for a window of 5")

-- slope too steep: excursion 16 (14.8% of 108 passes 20%) but the line
-- rises 4 a round: 16 across the window, 14.8% > 10%
r = snia.check{ 100, 104, 108, 112, 116 }
ok(not r.attained and near(r.slope, 4) and near(r.slope_excursion, 16),
   "a steady climb fails on slope (4/round, excursion 16 of mean 108)")
ok(r.data_excursion <= 0.20 * r.mean, "... while its data excursion alone would pass")

-- excursion too wide: 100/125 alternating, mean 110, range 25 = 22.7%
r = snia.check{ 100, 125, 100, 125, 100 }
ok(not r.attained and near(r.data_excursion, 25), "a 22.7% swing fails on data excursion")
ok(r.slope_excursion <= 0.10 * r.mean, "... while its slope alone would pass")

-- just inside both limits
r = snia.check{ 90, 100, 110, 100, 100 }     -- range 20 = 20% of 100, slope 2 -> 8%
ok(r.attained, "data excursion of exactly 20% and slope excursion of 8% is steady")

-- the slope criterion at exactly its limit: 2.5 a round is an excursion of
-- 10 across the window, 10% of the mean 100 (range 10: the data passes)
r = snia.check{ 95, 97.5, 100, 102.5, 105 }
ok(near(r.slope_excursion, 10) and near(r.mean, 100), "a climb of 2.5/round: slope excursion 10 of mean 100")
ok(r.attained, "a slope excursion of exactly 10% is steady (the limit is inclusive)")

-- the window slides: a fresh drive's descent, then a plateau
local series = { 400, 300, 220, 160, 130, 118, 112, 110, 109, 111, 110 }
local first
for i = 5, #series do
  local s = {}
  for k = 1, i do s[k] = series[k] end
  if snia.check(s).attained then first = i break end
end
-- by hand: rounds 5-9 (130..109) have mean 115.8, range 21 (18.1%) but the
-- line falls 5 a round (20 across the window, 17.3%): not yet. Rounds 6-10
-- (118..111): mean 112, range 9 (8.0%), slope -1.7 (6.8, 6.1%): steady.
ok(first == 10, "a descent into a plateau attains at round 10 (got " .. tostring(first) .. ")")
r = snia.check({ table.unpack(series, 1, 9) })
ok(not r.attained and near(r.slope, -5), "at round 9 the window 5-9 still falls 5 a round")
r = snia.check({ table.unpack(series, 1, 10) })
ok(r.window_first == 6 and r.window_last == 10 and near(r.slope, -1.7) and near(r.mean, 112),
   "at round 10 the window is rounds 6-10: mean 112, slope -1.7")

-- the options
ok(snia.check({ 100, 101, 100 }, { window = 3 }).attained, "window = 3 needs only 3 rounds")
ok(not snia.check({ 100, 112, 100, 112, 100 }, { max_data_excursion = 0.10 }).attained,
   "max_data_excursion = 0.10 tightens the data limit")
ok(snia.check({ 100, 104, 108, 112, 116 }, { max_slope_excursion = 0.15 }).attained,
   "max_slope_excursion = 0.15 lets the climb pass")
ok(not snia.check{ 0, 0, 0, 0, 0 }.attained, "a series of zeros (the dry pass) never attains")
ok(snia.defaults.window == 5 and snia.defaults.max_rounds == 25 and
   snia.defaults.max_data_excursion == 0.20 and snia.defaults.max_slope_excursion == 0.10,
   "the defaults are the PTS numbers: 5 rounds, 20%, 10%, 25 rounds")

print("1.." .. n)
os.exit(failed == 0 and 0 or 1)
