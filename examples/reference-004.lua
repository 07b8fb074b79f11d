-- examples/reference-004.lua: reference 004's tests on its simulated cards
-- (shared/reference 004, Tom's Hardware, "Another Record Broken: 6 Gb SAS,
-- 16 SSDs, 3.4 GB/s!"): 16 Intel X25-E on two cards of 8 drives each, a pair
-- of Adaptec 5808 (PCIe 1.1 x8, 2.2 GB/s in the review), a pair of LSI
-- 9210-8i HBAs and a pair of LSI MegaRAID 9260-8i (PCIe 2.0 x8, 3.4 GB/s),
-- against one X25-E alone ("more than 220 MB/s") and the links' ceilings.
-- Sequential reads of 128k, 16 outstanding a drive (the text gives neither):
--
--   hbatest run examples/reference-004.lua --label reference-004
--   hbatest report reference-004 --out reference-004-report
--
-- The report's "Several controllers, summed" chart is the review's: each
-- pair's measured throughput, a stack per card, under its links' summed
-- ceiling (2 x 2,000 MB/s for the 5808s, 2 x 4,000 for the LSI cards). Its
-- sequential bars put every step side by side, a pair's under both its
-- cards' links ("2 x PCIe2 x8 ceiling 8,000 MB/s"). The presets
-- (adaptec5808-8x25e, lsi9210-8x25e, lsi9260-8x25e in scripts/sim_presets.lua)
-- and what each figure sets: docs/calibration.md, tests/simcal_004.t.
-- Simulated on a virtual clock: 1m10s of I/O in well under a second.
-- Settings (--set): seconds (10 a step).
local seconds = hb.set("seconds", 10)
hb.plan{
  name = "reference 004",
  description = "16 X25-E on two cards: Adaptec 5808, LSI 9210-8i and 9260-8i pairs, 128k sequential reads",
  defaults = { engine = "sim", rw = "read", bs = "128k", ramp = 0, duration = seconds },
}

hb.run{ name = "one X25-E", group = "one drive", oio = 16, targets = { "x25e" },
        sim = { preset = "lsi9210-8x25e", drives = 1 } }

-- Each pair: both cards in one step, the targets split between them in
-- order. The RAID cards (5808, 9260-8i) a RAID0 volume of 8 drives each;
-- the 9210-8i HBA its 8 drives as they are (JBOD). Each pair's targets are
-- its own: a target's facts (its card, its link) are those of its first step.
local pairs_ = {
  { "Adaptec 5808 pair", "adaptec5808-8x25e", { "aac-vol0", "aac-vol1" } },
  { "LSI 9210-8i pair", "lsi9210-8x25e", nil },
  { "LSI 9260-8i pair", "lsi9260-8x25e", { "lsi9260-vol0", "lsi9260-vol1" } },
}
for _, p in ipairs(pairs_) do
  local targets = p[3]
  if not targets then
    targets = {}
    for i = 0, 15 do targets[#targets + 1] = ("lsi9210-sd%d"):format(i) end
  end
  hb.run{ name = p[1], group = "16 X25-E on two cards", oio = 16 * 16, targets = targets,
          sim = { cards = { p[2], p[2] } } }
end
