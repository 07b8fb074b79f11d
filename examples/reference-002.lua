-- examples/reference-002.lua: reference 002 (a forum post, "LSI 9240-8i
-- performance: x4 slot = x8 slot in X9SCM?") on the simulated card: the LSI
-- 9240-8i in IT mode (a PCIe2 x8 card; preset sas2008-5hdd) with five WD Red
-- 2 TB hard drives, a RAIDZ1 pool, in the Supermicro X9SCM's x8 CPU slot, its
-- x4 CPU slot and its x4 slot behind the PCH. Run it once per slot, as the
-- post did, and report the three runs side by side:
--
--   hbatest run examples/reference-002.lua --set slot=x8 --label "x8 CPU"
--   hbatest run examples/reference-002.lua --set slot=x4 --label "x4 CPU"
--   hbatest run examples/reference-002.lua --set slot=pch --label "x4 PCH"
--   hbatest report "x8 CPU" "x4 CPU" "x4 PCH"
--
-- What it reproduces: the post's two tests, a ZFS scrub of 1.37 TB (1h14m in
-- x8, about 308 MB/s; 1h15m in either x4) and a 10 GB cp -R within the pool
-- (1m16s, about 131 MB/s, in every slot): the same in every slot, bound by
-- the drives, far below even the x4 slot's link. Each drive is a target
-- (ZFS is the RAID). The scrub: reads of 1.25 MiB between seeks (the run
-- length its 308 MB/s sets; ZFS of 2014 scrubbed in the order of its block
-- tree, not of the disk), ten in flight a drive (ZFS's scrub limit per
-- drive); its data is 4/5 of what the drives read (RAIDZ1 of five: a
-- column in five is parity). The copy: the same runs, half of them writes,
-- two in flight a drive (cp's read and ZFS's write behind it); the copy's
-- rate is half the data moved. And the drives' own sequential stream, 1 MiB
-- reads, against the slot's link (the sequential bars draw its ceiling).
-- The figures against the model's: docs/calibration.md (tests/simcal_002.t).
-- Simulated: 3 minutes of I/O in under a second a slot. Settings (--set):
-- slot (x8, x4 or pch), seconds (60 a step).
local slot = hb.set("slot", "x8")
local secs = hb.set("seconds", 60)
-- the PCH's x4 slot: PCIe2 x4 behind DMI 2.0, a link of the same rate
local links = { x8 = "pcie2x8", x4 = "pcie2x4", pch = "pcie2x4" }
if not links[slot] then error("slot: x8, x4 or pch, not " .. tostring(slot)) end

hb.plan{
  name = "reference 002, simulated: " .. slot,
  description = "five WD Red on a 9240-8i: a ZFS scrub, a copy and sequential reads",
  defaults = { engine = "sim", workers = 1, targets = { "ada0", "ada1", "ada2", "ada3", "ada4" },
               duration = secs, sim = { preset = "sas2008-5hdd", link = links[slot] } },
}

local scrub = hb.run{ name = "ZFS scrub", rw = "randread", bs = "1280k", oio = 50 }
local copy = hb.run{ name = "cp -R copy", rw = "randrw", write_pct = 50, bs = "1280k", oio = 10 }
hb.run{ name = "1M sequential read", rw = "read", bs = "1m", oio = 20 }
if not hb.dry then
  hb.log(("%s: scrub %.0f MB/s of data (1.37 TB in %.0f min), copy %.0f MB/s"):format(slot,
         scrub.mbps * 0.8, 1.37e6 / (scrub.mbps * 0.8) / 60, copy.mbps * 0.4))
end
