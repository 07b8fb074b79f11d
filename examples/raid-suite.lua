-- examples/raid-suite.lua: a short RAID0 vs RAID5 review on a simulated 12 Gb/s
-- RAID card with 8 SAS SSDs (sim preset "lsi3108-8sas", drives shrunk to 8 GB
-- so the suite stays short): for each layout a 1x sequential fill, 120 s of 4k
-- random writes at OIO 256 (the descent, second by second), 4k random write
-- rounds of 30 s until SNIA steady state, then 4k random read, OLTP and 128k
-- sequential read points.
--
--   hbatest run examples/raid-suite.lua --label raid-suite
--
-- Simulated on a virtual clock: about 20 minutes of I/O in well under a
-- minute; `hbatest show raid-suite` prints the steady states and every step.
local round = hb.set("round", 30)

hb.plan{
  name = "RAID0 vs RAID5",
  description = "precondition, steady state and a few points per layout, simulated",
  defaults = { engine = "sim", workers = 2, targets = { "volume" }, duration = 30 },
}

for _, layout in ipairs{ "raid0", "raid5" } do
  local sim = { preset = "lsi3108-8sas", layout = layout, drive_capacity = "8g" }
  hb.precondition{ name = layout .. " fill", passes = 1, sim = sim, group = layout }
  hb.precondition{ name = layout .. " 4k random write", duration = 120, rw = "randwrite",
                   bs = "4k", oio = 256, sim = sim, group = layout }
  local ss = hb.steady{
    name = layout .. " 4k random write",
    workload = { rw = "randwrite", bs = "4k", oio = 256, sim = sim },
    round = round,
  }
  local oltp = hb.profile("oltp")
  oltp.oio, oltp.sim, oltp.name, oltp.group = 64, sim, layout .. " oltp", layout
  local results = {
    hb.run{ name = layout .. " 4k random read", rw = "randread", bs = "4k", oio = 64,
            sim = sim, group = layout },
    hb.run(oltp),
    hb.run{ name = layout .. " 128k sequential read", rw = "read", bs = "128k", oio = 64,
            sim = sim, group = layout },
  }
  if not hb.dry then
    hb.log(("%s: steady state %s in %d rounds at %.0f IOPS; 4k read %.0f IOPS, OLTP %.0f IOPS, 128k read %.0f MB/s"):format(
      layout, ss.attained and "attained" or "NOT attained", ss.rounds, ss.mean or 0,
      results[1].iops, results[2].iops, results[3].mbps))
  end
end
