-- plans/jbod-hba.lua: an HBA with its drives as JBOD, Iometer style, after the
-- LSI 9207-8e review (shared/reference 000): 8 SSDs, one target per drive.
--
--   hbatest run plans/jbod-hba.lua --label "9207-8e PCIe3 x8" \
--       --target /dev/sdb --target /dev/sdc ... --target /dev/sdi
--
-- What it does: 4k random read IOPS and 1M sequential read throughput across
-- all drives at once, with 4 and then 32 workers; every worker keeps `qd`
-- (32) I/Os in flight on every drive, so oio = workers x drives x qd. Each
-- point warms up 30 s and measures 120 s; per-drive totals land in
-- step_targets, so a slow drive or a starved port shows.
-- How long: 4 points of 2m30s = 10 minutes. Read-only: no --destroy-data.
-- Memory: every I/O in flight has its own buffer, so the 1M step with 32
-- workers holds workers x drives x qd x 1 MiB: 32 x 8 x 32 x 1 MiB = 8 GiB
-- with 8 drives (2 GiB with 2: 2058 MiB of RSS measured on two files). A note
-- gives the figure for your drives and qd (--dry-run shows it): check the
-- machine has it free, or lower --set qd. The sim and null engines hold no
-- buffers.
-- On the simulated 9207-8e with its 8 SSDs (one target per drive), in a second:
--   hbatest run plans/jbod-hba.lua --set engine=sim --set sim=sas2308-8ssd
-- (engine=sim alone takes sas2308-8ssd and notes it).
-- Settings (--set): seconds, ramp, qd (32 x drives x qd at most 65536),
-- engine, sim, size; a number out of range is an error naming the setting.
local review = require "review"
local max = review.max
local seconds = review.whole("seconds", 120, 1, max.seconds, "measured seconds per point")
local ramp = review.whole("ramp", 30, 0, max.seconds, "warm-up seconds per point")
local qd = review.whole("qd", 32, 1, max.oio, "I/Os in flight per worker and drive")
local size = hb.set("size", nil)         -- only to rehearse on files
local rig = review.engine("JBOD")        -- --set engine=, --set sim=; no target: stops
local worker_counts = { 4, 32 }
local most = worker_counts[#worker_counts]
local drives = #hb.targets

-- oio = workers x drives x qd, at most what a step takes.
if most * drives * qd > max.oio then
  error(("--set qd=%d: %d workers x %d drives x qd %d is OIO %d, more than a step takes (%d): "
         .. "give qd at most %d"):format(qd, most, drives, qd, most * drives * qd, max.oio,
         max.oio // (most * drives)), 0)
end
-- Each I/O in flight has a buffer of its block size: the 1M step at 32
-- workers holds most x drives x qd MiB (io_uring on two files: maximum RSS
-- 268 MiB at qd 4, 524 MiB at qd 8, 2058 MiB at qd 32).
-- Above the memory available the dry pass refuses the step; below, the plan says what it needs.
local mib = most * drives * qd
if rig.engine ~= "sim" and rig.engine ~= "null" and mib >= 1024 then
  hb.note(("the 1M sequential read step with %d workers holds %d workers x %d drives x qd %d "
           .. "x 1 MiB = %.1f GiB of I/O buffers: check the machine has that free, or lower "
           .. "--set qd"):format(most, most, drives, qd, mib / 1024))
end

hb.plan{
  name = "JBOD HBA",
  description = "4k random read IOPS and 1M sequential read MB/s over all drives, 4 and 32 workers",
  defaults = { engine = rig.engine, sim = rig.sim, duration = seconds, ramp = ramp, size = size },
}

for _, workers in ipairs(worker_counts) do
  local oio = workers * drives * qd
  hb.run{ name = ("4k random read, %d workers"):format(workers), rw = "randread",
          bs = "4k", workers = workers, oio = oio, group = "4k random read",
          axis = "workers" }
  hb.run{ name = ("1M sequential read, %d workers"):format(workers), rw = "read",
          bs = "1m", workers = workers, oio = oio, group = "1M sequential read",
          axis = "workers" }
end
