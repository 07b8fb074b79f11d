-- Presets for the sim engine: sim = { preset = "sas2308-8ssd", link = "pcie3x4" }.
-- Options given next to the preset win over its values. The figures each
-- preset is calibrated to are published ones (shared/reference).
--
-- sas2308-8ssd: LSI SAS 9207-8e (SAS2308, PCIe3 x8) with 8 Samsung 830 SATA
--   SSDs as JBOD (reference 000).
-- lsi3108-8sas: the LSI MegaRAID 9361-8i (SAS3108 RoC, PCIe3 x8, 1 GB cache)
--   of reference 003 with its 8 HGST SSD800MH, RAID5 by default (layout =
--   "raid0" for the RAID0 half of the review).
-- lsi3108-8sas-pcie2: the same card in a PCIe2 x8 slot.
-- asr8885-8sas: the Adaptec ASR-8885 (PMC PM8063 RoC, PCIe3 x8) of the same
--   review, with the same drives.
-- The figures each preset is calibrated to, the review's against the model's,
-- and how each option follows from them: docs/engines.md, "Calibration of the
-- presets" (tests/simcal.t checks them).
local presets = {}

presets["sas2308-8ssd"] = {
  link = "pcie3x8", ctrl_iops = 700000, ctrl_latency_us = 10, layout = "jbod",
  drives = 8, drive_capacity = "256g", drive_read_iops = 46000, drive_write_iops = 36000,
  drive_write_iops_steady = 8000, drive_read_mbps = 540, drive_write_mbps = 400,
  drive_latency_us = 90, drive_write_latency_us = 40,
}

presets["lsi3108-8sas"] = {
  link = "pcie3x8", ctrl_iops = 557000, ctrl_write_iops = 800000, ctrl_latency_us = 20,
  ctrl_parity_iops = 48600, ctrl_qd_knee = 128, ctrl_qd_penalty = 0.065,
  layout = "raid5", strip = "256k", drives = 8, drive_capacity = "400g",
  drive_read_iops = 145000, drive_write_iops = 100000, drive_write_iops_steady = 81000,
  drive_read_mbps = 1200, drive_write_mbps = 750, drive_latency_us = 80,
  drive_write_latency_us = 30, decline = 1.0, gc_period = 0.05, gc_length = 0.005,
  gc_factor = 0.5, gc_sync = true,
}

local function derive(base, changes)
  local p = {}
  for k, v in pairs(presets[base]) do p[k] = v end
  for k, v in pairs(changes) do p[k] = v end
  return p
end

presets["asr8885-8sas"] = derive("lsi3108-8sas", {
  ctrl_iops = 686000, ctrl_write_iops = 590000, ctrl_latency_us = 130,
  ctrl_parity_iops = 31100, ctrl_qd_knee = 32, ctrl_qd_penalty = 0.118,
  ctrl_qd_penalty_mixed = 0.36,
})

presets["lsi3108-8sas-pcie2"] = derive("lsi3108-8sas", { link = "pcie2x8" })

return presets
