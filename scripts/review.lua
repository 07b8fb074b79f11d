-- The RAID review suite that plans/raid5.lua and plans/raid0.lua run, after
-- StorageReview's LSI 9361-8i vs Adaptec ASR-8885 review (shared/reference 003):
-- preconditioning with its descent to steady state second by second, OIO
-- sweeps per block size, write-mix sweeps, sequential sweeps and server
-- profiles. Every number comes from hb.set, so one plan serves a long
-- overnight run and a one-minute rehearsal (--set seconds=1 ...), and
-- review.engine (plans/jbod-hba.lua's too) the engine: on the sim
-- (--set sim=PRESET), a rehearsal of the card the plan names.
local review = {}

review.oio_points = { 2, 4, 8, 16, 32, 64, 128, 256 }

-- The card a plan rehearses on the sim when --set sim= names none: its
-- review's (reference 003's LSI MegaRAID 9361-8i for RAID5 and RAID0,
-- reference 000's LSI SAS 9207-8e for JBOD).
review.sim_defaults = { RAID5 = "lsi3108-8sas", RAID0 = "lsi3108-8sas", JBOD = "sas2308-8ssd" }

-- What a plan says when it has nothing to run on, per layout.
local no_target = {
  JBOD = "give the drives with --target, one per drive (--target /dev/sdb --target /dev/sdc ...)",
  RAID = "give the %s volume with --target /dev/sdX (and --destroy-data /dev/sdX: the suite writes)",
}

local function preset_names(presets)
  local names = {}
  for name in pairs(presets) do names[#names + 1] = name end
  table.sort(names)
  return table.concat(names, ", ")
end

-- The simulated targets when --target names none: the volume, or for JBOD
-- one per drive of the card.
local function sim_targets(layout, card)
  if layout ~= "JBOD" then return { "volume" } end
  local targets = {}
  for i = 1, tonumber(card.drives) do targets[i] = "drive" .. i end
  return targets
end

-- The engine a ready plan runs on and, on the sim, the card it rehearses.
-- --set engine= (io_uring unless given); --set sim=PRESET, a card of
-- scripts/sim_presets.lua, implies engine=sim; engine=sim alone takes the
-- plan's default card (review.sim_defaults) and says so in a note. On the
-- sim the layout is the plan's (layout: "RAID5", "RAID0", "JBOD") and the
-- targets, unless --target names some, the simulated volume or drives.
-- Without a target, and not on the sim, the plan stops and says what to give.
-- Returns the step keys of the engine: { engine = ..., sim = {...} }.
function review.engine(layout)
  local engine, preset = hb.set("engine", nil), hb.set("sim", nil)
  if preset and engine and engine ~= "sim" then
    error(("--set sim=%s is a card of the sim engine, not of engine=%s: give --set engine=sim, "
           .. "or leave sim= out"):format(preset, engine), 0)
  end
  engine = engine or (preset and "sim") or "io_uring"
  if engine ~= "sim" then
    if #hb.targets == 0 then
      error(("no target: %s, or rehearse the plan on a simulated card with --set engine=sim "
             .. "(--set sim=PRESET picks the card)"):format(
             (no_target[layout] or no_target.RAID):format(layout)), 0)
    end
    return { engine = engine }
  end
  local presets = require "sim_presets"
  local card = presets[preset or review.sim_defaults[layout]]
  if not card then
    error(("--set sim=%s: no such card in scripts/sim_presets.lua (it has %s)"):format(
           preset, preset_names(presets)), 0)
  end
  local default = not preset
  preset = preset or review.sim_defaults[layout]
  if #hb.targets == 0 then hb.targets = sim_targets(layout, card) end
  hb.note(("rehearsal on the sim engine: card %s as %s, %d target%s (%s)%s"):format(
    preset, layout, #hb.targets, #hb.targets == 1 and "" or "s", table.concat(hb.targets, ", "),
    default and ("; --set engine=sim names no card, so this plan's default; --set sim=PRESET "
                 .. "picks another of " .. preset_names(presets)) or ""))
  return { engine = "sim", sim = { preset = preset, layout = layout:lower() } }
end

-- A whole-number --set setting, checked where it is read: a value out of
-- lo..hi (or not whole) stops the plan with an error naming the setting, its
-- value and what it takes, before any step: "--set mix_oio=0: expected a
-- whole number from 1 to 65536 (the OIO of the write-mix sweeps)".
function review.whole(key, default, lo, hi, what)
  local v = hb.set(key, default)
  local n = math.tointeger(v)
  if not n or n < lo or n > hi then
    error(("--set %s=%s: expected a whole number from %d to %d (%s)"):format(
      key, tostring(v), lo, hi, what), 0)
  end
  return n
end

-- The limits hbatest puts on a step's keys (docs/plans.md, Step keys).
review.max = { seconds = 100000000, passes = 1000, oio = 65536, workers = 1024 }

-- The settings every review plan reads; returns them as a table.
function review.settings()
  local max = review.max
  return {
    seconds = review.whole("seconds", 120, 1, max.seconds, "measured seconds per point"),
    ramp = review.whole("ramp", 30, 0, max.seconds, "warm-up seconds per point"),
    precondition = review.whole("precondition", 9000, 0, max.seconds,
                                "seconds of 4k random writes after the fill; 0: none"),
    passes = review.whole("passes", 2, 0, max.passes, "sequential fill: x capacity; 0: no fill"),
    mix_oio = review.whole("mix_oio", 64, 1, max.oio, "the OIO of the write-mix sweeps"),
    workers = review.whole("workers", 1, 1, max.workers, "threads per step, capped at its OIO"),
    size = hb.set("size", nil),                -- only for file targets to create
  }
end

-- workers must divide the OIO over workers x targets (review.engine has
-- made sure of one target): use as many as fit, and keep the OIOs where
-- that is fewer than --set workers asked for (review.raid notes them).
local function workers_for(s, oio)
  local w = math.min(s.workers, oio)
  while oio % (w * #hb.targets) ~= 0 and w > 1 do w = w - 1 end
  if w ~= s.workers then
    s.rounded[w] = s.rounded[w] or {}
    s.rounded[w][oio] = true
  end
  return w
end

-- The note for --set workers= where some steps run fewer: "--set workers=3 is
-- rounded down where the OIO does not split evenly over workers x targets
-- (or is smaller): 2 workers at OIO 2, 4, 8 ...".
local function rounded_note(s)
  local counts = {}
  for w in pairs(s.rounded) do counts[#counts + 1] = w end
  if #counts == 0 then return end
  table.sort(counts)
  local parts = {}
  for _, w in ipairs(counts) do
    local oios = {}
    for oio in pairs(s.rounded[w]) do oios[#oios + 1] = oio end
    table.sort(oios)
    parts[#parts + 1] = ("%d worker%s at OIO %s"):format(w, w == 1 and "" or "s",
                                                       table.concat(oios, ", "))
  end
  hb.note(("--set workers=%d is rounded down where the OIO is smaller or does not split "
           .. "evenly over workers x %d target%s: %s"):format(s.workers, #hb.targets,
           #hb.targets == 1 and "" or "s", table.concat(parts, "; ")))
end

local function sweep_oio(s, base)
  local results = {}
  for _, oio in ipairs(review.oio_points) do
    if oio % #hb.targets == 0 then
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
  local rig = review.engine(layout)
  s.rounded = {}
  -- the OIO sweeps' points split evenly over the targets: say which do not
  -- (and refuse a suite that would sweep nothing: 3 targets split none)
  local skipped = {}
  for _, oio in ipairs(review.oio_points) do
    if oio % #hb.targets ~= 0 then skipped[#skipped + 1] = tostring(oio) end
  end
  if #skipped == #review.oio_points then
    error(("%d targets: no point of the OIO sweeps (%s) splits evenly over them, so the "
           .. "sweeps would have none: give a power of two of targets (1, 2, 4, 8 ...)"):format(#hb.targets,
           table.concat(review.oio_points, ", ")), 0)
  elseif #skipped > 0 then
    hb.note(("%d targets: the OIO sweeps leave out OIO %s, which %s not split evenly over "
             .. "them"):format(#hb.targets, table.concat(skipped, ", "), #skipped == 1 and "does" or "do"))
  end
  if s.mix_oio % #hb.targets ~= 0 then
    error(("--set mix_oio=%d: expected a multiple of %d, the number of targets (each gets an "
           .. "equal share)"):format(s.mix_oio, #hb.targets), 0)
  end
  hb.plan{
    name = layout .. " review suite",
    description = "precondition, 4k/8k random OIO sweeps, write-mix sweeps, 128k sequential, server profiles",
    defaults = { engine = rig.engine, sim = rig.sim, duration = s.seconds, ramp = s.ramp,
                 size = s.size },
  }

  -- 1. Preconditioning: the SNIA fill, then timed 4k random writes whose
  --    per-second samples show the descent into steady state.
  --    --set passes=0 leaves the fill out (an array filled just before).
  --    --set precondition=0 leaves the timed writes out.
  if s.passes ~= 0 then
    hb.precondition{ name = "fill " .. s.passes .. "x 128k sequential", passes = s.passes }
  end
  if s.precondition ~= 0 then
    hb.precondition{ name = "4k random write preconditioning", rw = "randwrite", bs = "4k",
                     oio = 256, workers = workers_for(s, 256), duration = s.precondition }
  end

  -- 2. Random OIO sweeps per block size, reads and writes.
  for _, bs in ipairs{ "4k", "8k" } do
    for _, rw in ipairs{ "randread", "randwrite" } do
      sweep_oio(s, { rw = rw, bs = bs, group = bs .. " " .. rw })
    end
  end

  -- 3. Write-mix sweeps: 0..100% writes in steps of 10 at a fixed OIO; each
  --    name says its write share (the generated name leaves out 0 and 100 %,
  --    and two steps of one run would share a name).
  for _, bs in ipairs{ "4k", "8k" } do
    for pct = 0, 100, 10 do
      hb.run{ rw = "randrw", bs = bs, write_pct = pct, oio = s.mix_oio,
              name = ("randrw %s w%d%% oio%d"):format(bs, pct, s.mix_oio),
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
  rounded_note(s)
end

return review
