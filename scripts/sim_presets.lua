-- Presets for the sim engine: sim = { preset = "sas2308-8ssd", link = "pcie3x4" }.
-- Options given next to the preset win over its values. The figures each
-- preset is calibrated to are published ones (shared/reference):
--
-- sas2308-8ssd: LSI SAS 9207-8e (SAS2308, PCIe3 x8, "up to 700,000 IOPS") with
--   8 Samsung 830 SATA SSDs as JBOD (reference 000). Measured there: 1 MB
--   sequential reads 4.1 GB/s (4.4 GB/s fresh, 550 MB/s a drive: drive-bound)
--   in PCIe3 x8, near 3.0 GB/s in PCIe3 x4, 2.58-2.9 GB/s on PCIe2; 4k random
--   reads 361,000-364,000 IOPS, the same in x8 and x4 ("rated 80,000 IOPS, good
--   for around 50,000" a drive). So: 540 MB/s and 46,000 IOPS a drive, and the
--   link efficiency of the engine (0.70 of the raw PCIe 1-2 rate, 0.76 from
--   PCIe 3) that turns PCIe2 x8 into 2.8 GB/s and PCIe3 x4 into 3.0 GB/s.
-- lsi3108-8sas: a 12 Gb/s RAID card (LSI SAS3108, as on the MegaRAID 9361-8i of
--   reference 003) with 8 SAS SSDs, RAID5 by default. SAS SSD figures of that
--   class: about 100,000 random read IOPS, 60,000 fresh and 20,000 steady
--   random write IOPS, 1,000/800 MB/s sequential; the card's controller adds
--   about 20 us and is taken to top out near 900,000 IOPS.
-- lsi3108-8sas-pcie2: the same card in a PCIe2 x8 slot.
local presets = {}

presets["sas2308-8ssd"] = {
  link = "pcie3x8", ctrl_iops = 700000, ctrl_latency_us = 10, layout = "jbod",
  drives = 8, drive_capacity = "256g", drive_read_iops = 46000, drive_write_iops = 36000,
  drive_write_iops_steady = 8000, drive_read_mbps = 540, drive_write_mbps = 400,
  drive_latency_us = 90, drive_write_latency_us = 40,
}

presets["lsi3108-8sas"] = {
  link = "pcie3x8", ctrl_iops = 900000, ctrl_latency_us = 20, layout = "raid5",
  strip = "256k", drives = 8, drive_capacity = "400g", drive_read_iops = 100000,
  drive_write_iops = 60000, drive_write_iops_steady = 20000, drive_read_mbps = 1000,
  drive_write_mbps = 800, drive_latency_us = 80, drive_write_latency_us = 30,
  decline = 0.5, gc_period = 0.05, gc_length = 0.005, gc_factor = 0.5,
}

presets["lsi3108-8sas-pcie2"] = {}
for k, v in pairs(presets["lsi3108-8sas"]) do presets["lsi3108-8sas-pcie2"][k] = v end
presets["lsi3108-8sas-pcie2"].link = "pcie2x8"

return presets
