-- examples/quick.lua: a short tour that runs in about 20 seconds on a
-- temporary file, without root and without special hardware.
--
--   hbatest run examples/quick.lua --target /tmp/hbatest-quick.dat
--
-- It lays out a 256 MiB file (when it does not exist), then measures
-- 4k random reads at two queue depths (a sweep: its report charts IOPS and
-- latency over OIO), a 70/30 read/write mix and 128k sequential reads, each
-- with a 1-second ramp. Durations scale with --set seconds=N.

local secs = hb.set("seconds", 4)

hb.plan{
  name = "quick",
  description = "4k random read at QD1 and QD32, a 70/30 mix, 128k sequential read",
  defaults = { size = "256m", ramp = 1, duration = secs, engine = "io_uring" },
}

if #hb.targets == 0 then
  hb.targets = { "/tmp/hbatest-quick.dat" }
end

-- a sweep, so the report draws its points: IOPS and latency over the queue depth
local rr = hb.sweep{ base = { name = "4k random read", rw = "randread", bs = "4k" },
                     group = "4k random read", oio = { 1, 32 } }
local qd1, qd32 = rr[1], rr[2]
if not qd32.dry then
  hb.log(string.format("QD32 gives %.1fx the IOPS of QD1", qd32.iops / math.max(qd1.iops, 1)))
end
hb.run{ name = "4k random 70/30 read/write QD16", rw = "randrw", write_pct = 30,
        bs = "4k", oio = 16 }
hb.run{ name = "128k sequential read QD8", rw = "read", bs = "128k", oio = 8 }
