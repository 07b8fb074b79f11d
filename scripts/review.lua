-- The RAID review suite that plans/raid5.lua and plans/raid0.lua run, after
-- StorageReview's LSI 9361-8i vs Adaptec ASR-8885 review (shared/reference 003):
-- preconditioning with its descent to steady state second by second, OIO
-- sweeps per block size, write-mix sweeps, sequential sweeps and server
-- profiles. Every number comes from hb.set, so one plan serves a long
-- overnight run and a one-minute rehearsal (--set seconds=1 ...).
local review = {}

review.oio_points = { 2, 4, 8, 16, 32, 64, 128, 256 }

-- The settings every review plan reads; returns them as a table.
function review.settings()
  return {
    seconds = hb.set("seconds", 120),          -- measured seconds per point
    ramp = hb.set("ramp", 30),                 -- warm-up seconds per point
    precondition = hb.set("precondition", 9000), -- seconds of 4k random writes
    passes = hb.set("passes", 2),              -- sequential fill: x capacity
    mix_oio = hb.set("mix_oio", 64),           -- OIO of the write-mix sweeps
    workers = hb.set("workers", 1),            -- threads (capped at the OIO)
    engine = hb.set("engine", "io_uring"),
    size = hb.set("size", nil),                -- only for file targets to create
  }
end

-- The targets the OIO is spread over; with none yet, 1, so that the first
-- step, not this arithmetic, says there is no target (and how to give one).
local function ntargets()
  return math.max(#hb.targets, 1)
end

-- workers must divide the OIO over workers x targets: use as many as fit.
local function workers_for(s, oio)
  local w = math.min(s.workers, oio)
  while oio % (w * ntargets()) ~= 0 and w > 1 do w = w - 1 end
  return w
end

local function sweep_oio(s, base)
  local results = {}
  for _, oio in ipairs(review.oio_points) do
    if oio % ntargets() == 0 then
      local step = {}
      for k, v in pairs(base) do step[k] = v end
      step.oio, step.workers, step.axis = oio, workers_for(s, oio), "oio"
      if base.name then step.name = base.name .. " oio" .. oio end
      results[#results + 1] = hb.run(step)
    end
  end
  return results
end

function review.raid(layout)
  local s = review.settings()
  hb.plan{
    name = layout .. " review suite",
    description = "precondition, 4k/8k random OIO sweeps, write-mix sweeps, 128k sequential, server profiles",
    defaults = { engine = s.engine, duration = s.seconds, ramp = s.ramp, size = s.size },
  }

  -- 1. Preconditioning: the SNIA fill, then timed 4k random writes whose
  --    per-second samples show the descent into steady state.
  --    --set passes=0 leaves the fill out (an array filled just before).
  if s.passes ~= 0 then
    hb.precondition{ name = "fill " .. s.passes .. "x 128k sequential", passes = s.passes }
  end
  hb.precondition{ name = "4k random write preconditioning", rw = "randwrite", bs = "4k",
                   oio = 256, workers = workers_for(s, 256), duration = s.precondition }

  -- 2. Random OIO sweeps per block size, reads and writes.
  for _, bs in ipairs{ "4k", "8k" } do
    for _, rw in ipairs{ "randread", "randwrite" } do
      sweep_oio(s, { rw = rw, bs = bs, group = bs .. " " .. rw })
    end
  end

  -- 3. Write-mix sweeps: 0..100% writes in steps of 10 at a fixed OIO.
  for _, bs in ipairs{ "4k", "8k" } do
    for pct = 0, 100, 10 do
      hb.run{ rw = "randrw", bs = bs, write_pct = pct, oio = s.mix_oio,
              workers = workers_for(s, s.mix_oio), axis = "write_pct",
              group = bs .. " write mix" }
    end
  end

  -- 4. 128k sequential read and write OIO sweeps.
  for _, rw in ipairs{ "read", "write" } do
    sweep_oio(s, { rw = rw, bs = "128k", group = "128k " .. rw })
  end

  -- 5. Server profiles, each swept over OIO.
  for _, name in ipairs{ "oltp", "webserver", "email" } do
    sweep_oio(s, hb.profile(name))
  end
end

return review
