-- examples/reference-001.lua: reference 001 (ServeTheHome, "LSI 9300-4i4e
-- HBA - Next Generation 12gbps SAS 3 Performance") on the simulated card. One
-- HGST Ultrastar SSD800MM, a 12 Gb/s SAS SSD, as JBOD on the LSI 9300-4i4e
-- (SAS3008, 12 Gb/s lanes; preset sas3008-1sas) and on the LSI 9207-8i
-- (SAS2308, 6 Gb/s; sas2308-1sas) it was compared with. Run it once per card,
-- as the review did, and report the two runs side by side:
--
--   hbatest run examples/reference-001.lua --set card=sas3008-1sas --label 9300-4i4e
--   hbatest run examples/reference-001.lua --set card=sas2308-1sas --label 9207-8i
--   hbatest report 9300-4i4e 9207-8i
--
-- What it reproduces: the review's two charts, sequential read and write
-- MB/s per card (sequential bars, each card's PCIe link dashed above them;
-- the review: "almost 2x the sequential read speeds and about 50% higher
-- write speeds" on the 9300-4i4e) and 4k random reads at QD 32 (bars of the
-- single step: 140,000 IOPS on the 9300-4i4e, "an improvement" over the
-- 9207-8i, whose 6 Gb/s lane caps the drive at 558 MB/s, 136,000 4k reads).
-- The review states neither its sequential block size nor its queue depth:
-- 128k at QD 32 here. The figures against the model's: docs/calibration.md
-- (tests/simcal_001.t). Simulated: 3 minutes of I/O in under a second a
-- card. Settings (--set): card, seconds (60 a step).
local card = hb.set("card", "sas3008-1sas")
local secs = hb.set("seconds", 60)

hb.plan{
  name = "reference 001, simulated: " .. card,
  description = "one 12 Gb/s SAS SSD: 128k sequential read and write MB/s, 4k random read IOPS at QD 32",
  defaults = { engine = "sim", workers = 1, targets = { "sdb" }, duration = secs,
               sim = { preset = card } },
}

local seq = {}
for _, rw in ipairs{ "read", "write" } do
  seq[rw] = hb.run{ name = "128k sequential " .. rw, group = "sequential", rw = rw, bs = "128k",
                    oio = 32 }
end
local rnd = hb.run{ name = "4k random read QD32", group = "4k random read", rw = "randread",
                    bs = "4k", oio = 32 }
if not hb.dry then
  hb.log(("%s: %.0f MB/s sequential reads, %.0f MB/s writes, %.0f 4k IOPS"):format(card,
         seq.read.mbps, seq.write.mbps, rnd.iops))
end
