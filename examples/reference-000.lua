-- examples/reference-000.lua: reference 000 (ServeTheHome's LSI SAS 9207-8e
-- benchmarks: 8 Samsung 830 SSDs as JBOD, Iometer with 4 workers at QD 32, a
-- 30 s warm-up and 2 minutes a test) on the sim preset of its card,
-- sas2308-8ssd, in every slot the review put it in:
--
--   hbatest run examples/reference-000.lua --label reference-000
--   hbatest report reference-000
--
-- 1 MB sequential reads over all 8 drives in a PCIe3 x8 slot (its Xeon
-- E5-2690: "over 4.1 GB/s", drive-bound), again with 32 workers (its "torture
-- test": "essentially identical"), in a PCIe3 x4 slot ("near 3,000 MB/s"), in
-- PCIe2 x8 on its Opteron 6172 (2,580 MB/s) and on a Xeon E5 forced to PCIe2
-- (2,900 MB/s): the two platforms as the preset's link_platform factors that
-- those two figures set (tests/simcal.t, docs/calibration.md); and the
-- PCIe2 card it compares with, a 9200-8e in a PCIe2 x4 slot ("less than
-- 1,500 MB/s"), here the same preset in that slot. Then 4k random reads in
-- PCIe3 x8, x4 and the Opteron's PCIe2 x8 (361,000, 364,000 and 343,000 IOPS).
-- The report's sequential bars are the review's slot and link comparison:
-- each slot's bar under its link's ceiling; the 4k steps' per-drive bars
-- show the drives, not the slot, set the IOPS.
--
-- Simulated on a virtual clock: 20 minutes of I/O in a few seconds.
-- Settings (--set): seconds (120 a test), ramp (30).
local secs, ramp = hb.set("seconds", 120), hb.set("ramp", 30)

hb.plan{
  name = "reference 000, simulated: the LSI SAS 9207-8e in five slots",
  description = "1 MB sequential and 4k random reads over 8 SSDs (JBOD) per slot and platform",
  defaults = { engine = "sim", workers = 4, oio = 4 * 8 * 32, ramp = ramp, duration = secs,
               targets = { "sdb", "sdc", "sdd", "sde", "sdf", "sdg", "sdh", "sdi" } },
}

-- { step name, link, link_platform }
local slots = {
  { "PCIe3 x8, Xeon E5", "pcie3x8", 1 },
  { "PCIe3 x4, Xeon E5", "pcie3x4", 1 },
  { "PCIe2 x8, Opteron 6172", "pcie2x8", 0.9214 },
  { "PCIe2 x8, Xeon E5 forced to PCIe2", "pcie2x8", 1.0357 },
  { "PCIe2 x4 (as the 9200-8e)", "pcie2x4", 1 },
}
local function sim(slot) return { preset = "sas2308-8ssd", link = slot[2], link_platform = slot[3] } end

for i, slot in ipairs(slots) do
  hb.run{ name = "1M sequential read, " .. slot[1], group = "1M sequential read", rw = "read",
          bs = "1m", sim = sim(slot), tags = { slot[2] } }
  if i == 1 then
    hb.run{ name = "1M sequential read, " .. slot[1] .. ", 32 workers", group = "1M sequential read",
            rw = "read", bs = "1m", workers = 32, oio = 32 * 8 * 32, sim = sim(slot),
            tags = { slot[2] } }
  end
end
for i = 1, 3 do
  hb.run{ name = "4k random read, " .. slots[i][1], group = "4k random read", rw = "randread",
          bs = "4k", sim = sim(slots[i]), tags = { slots[i][2] } }
end
