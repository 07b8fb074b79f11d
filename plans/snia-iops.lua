-- plans/snia-iops.lua: the SNIA PTS IOPS test (PTS-E/C 2.0, test 1).
--
--   hbatest run plans/snia-iops.lua --target /dev/nvme0n1 \
--       --destroy-data /dev/nvme0n1 --label "drive X"
--
-- What it does: workload-independent preconditioning (2x capacity of 128k
-- sequential writes), then rounds of the IOPS matrix: for each read/write mix
-- 100/0, 95/5, 65/35, 50/50, 35/65, 5/95, 0/100 and each block size 1024k,
-- 128k, 64k, 32k, 16k, 8k, 4k, 0.5k, one minute of random I/O at OIO 32 (56
-- steps a round). The tracking variable is the IOPS of 4k 100% writes; the
-- rounds stop at steady state (5-round window, data excursion <= 20%, slope
-- excursion <= 10% of the mean) or after 25 rounds. The steady_state table
-- says whether it was attained and over which rounds.
-- How long: 56 minutes a round; at least 5 rounds (4h40m), at most 25 (23h20m),
-- plus the fill. --dry-run counts all 25. Settings (--set): round (seconds of
-- each step, 60), oio (32), max_rounds (25: 5 to 1000), passes (2), engine,
-- size; a value out of range stops the plan with an error naming it.
local whole, max = require("review").whole, require("review").max
local round = whole("round", 60, 1, max.seconds, "seconds of each step")
local oio = whole("oio", 32, 1, max.oio, "I/Os in flight of each step")
local passes = whole("passes", 2, 1, max.passes, "the fill: x capacity")
-- at least the 5-round window; 1000 rounds are 56,000 steps
local max_rounds = whole("max_rounds", 25, 5, 1000, "rounds at most; the window is 5")
local mixes = { 0, 5, 35, 50, 65, 95, 100 }       -- write_pct: 100/0 .. 0/100
local sizes = { "1024k", "128k", "64k", "32k", "16k", "8k", "4k", "0.5k" }

hb.plan{
  name = "SNIA PTS IOPS",
  description = "WIPC, then the IOPS matrix in rounds until steady state",
  defaults = { engine = hb.set("engine", "io_uring"), oio = oio,
               size = hb.set("size", nil) },
}

hb.precondition{ name = "WIPC: 128k sequential fill", passes = passes,
                 bs = "128k" }

local matrix, tracked = {}, nil
for _, pct in ipairs(mixes) do
  for _, bs in ipairs(sizes) do
    matrix[#matrix + 1] = { name = ("%s w%d%%"):format(bs, pct), rw = "randrw",
                            write_pct = pct, bs = bs, duration = round,
                            group = "snia iops w" .. pct }
    if pct == 100 and bs == "4k" then tracked = #matrix end
  end
end

local ss = hb.steady{
  name = "SNIA IOPS steady state (4k 100% write)",
  workloads = matrix,
  track_step = tracked,
  max_rounds = max_rounds,
}
if not hb.dry then
  hb.log(("steady state %s after %d rounds (window %s-%s, mean %.0f IOPS)"):format(
    ss.attained and "attained" or "NOT attained", ss.rounds,
    tostring(ss.window.first), tostring(ss.window.last), ss.mean or 0))
end
