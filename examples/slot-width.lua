-- examples/slot-width.lua: does the slot starve the card? The same 8-SSD HBA
-- (the sim preset "sas2308-8ssd": an LSI 9207-8e with 8 SATA SSDs as JBOD) in
-- a PCIe3 x8, a PCIe3 x4 and a PCIe2 x8 slot: 1M sequential read throughput
-- and 4k random read IOPS over all 8 drives, 4 workers at QD 32 per drive,
-- 30 s warm-up + 120 s each, as in the 9207-8e review (shared/reference 000).
--
--   hbatest run examples/slot-width.lua --label slot-width
--
-- Simulated on a virtual clock: 15 minutes of I/O in a few seconds, no
-- hardware, no root, no file touched. The published shape: x8 is drive-bound
-- near 4.1-4.4 GB/s; x4 (about 3.0 GB/s) and PCIe2 x8 (2.6-2.9 GB/s) are
-- bus-bound; 4k IOPS do not change between x8 and x4.
hb.plan{
  name = "slot width",
  description = "one 8-SSD HBA in three slots: 1M sequential read MB/s and 4k random read IOPS",
  defaults = { engine = "sim", workers = 4, oio = 4 * 8 * 32, ramp = 30, duration = 120 },
}
hb.targets = { "sdb", "sdc", "sdd", "sde", "sdf", "sdg", "sdh", "sdi" }

for _, slot in ipairs{ "pcie3x8", "pcie3x4", "pcie2x8" } do
  local sim = { preset = "sas2308-8ssd", link = slot }
  local seq = hb.run{ name = "1M sequential read, " .. slot, group = "1M sequential read",
                      rw = "read", bs = "1m", sim = sim, tags = { slot } }
  local rnd = hb.run{ name = "4k random read, " .. slot, group = "4k random read",
                      rw = "randread", bs = "4k", sim = sim, tags = { slot } }
  if not hb.dry then
    hb.log(("%s: %.2f GB/s sequential, %.0fk IOPS random"):format(slot, seq.mbps / 1000,
           rnd.iops / 1000))
  end
end
