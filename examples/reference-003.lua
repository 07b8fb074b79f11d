-- examples/reference-003.lua: reference 003 (TweakTown's LSI MegaRAID 9361-8i
-- against the Adaptec ASR-8885, 8 HGST SSD800MH each) as the review ran it, on
-- the sim presets of its two cards: lsi3108-8sas and asr8885-8sas. One run a
-- card, as the review tested one card after the other, then one report:
--
--   hbatest run examples/reference-003.lua --set card=lsi3108-8sas --label 9361-8i
--   hbatest run examples/reference-003.lua --set card=asr8885-8sas --label ASR-8885
--   hbatest report 9361-8i ASR-8885
--
-- Per layout, RAID0 then RAID5, every test the review charts: 4k random
-- writes at OIO 256 from fresh drives to steady state (every second stored:
-- the review's preconditioning scatter, its descent); 4k and 8k
-- random read and write OIO sweeps 2..256 (its IOPS and latency curves per
-- card); 128k sequential read and write OIO sweeps (its sequential bars and
-- curves); 4k, 8k and 128k write-mix sweeps 0..100 % by 10 at OIO 256 (its
-- write percentage charts); the OLTP, web server and e-mail profiles over OIO
-- 8..256 (its server profiles). Group names do not name the card, so the
-- report pairs the two runs point by point; its headlines are the review's
-- claims (which card leads where), tests/simcal.t checks them and every
-- figure (docs/calibration.md).
--
-- The review measured 300 s a point after 9,000 s of preconditioning on
-- 400 GB drives; here the drives are shrunk to 4 GB, so 60 s of 4k random
-- writes wear them by about 4 capacities, as the review's did, and a point
-- is 5 s. Simulated on a virtual clock: about 40 minutes of I/O in about ten
-- seconds a card. Settings (--set): card, seconds (5 a point), ramp (0),
-- precondition (60), mix_oio (256), layouts (raid0,raid5).
local card = hb.set("card", "lsi3108-8sas")
local secs, ramp = hb.set("seconds", 5), hb.set("ramp", 0)
local precondition, mix_oio = hb.set("precondition", 60), hb.set("mix_oio", 256)
local layouts = hb.set("layouts", { "raid0", "raid5" })
local oio = { 2, 4, 8, 16, 32, 64, 128, 256 }
local mixes = { 0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100 }

hb.plan{
  name = "reference 003, simulated: " .. card,
  description = "RAID0 and RAID5: preconditioning, 4k/8k random and 128k sequential OIO sweeps, "
             .. "write mixes, OLTP/web server/e-mail profiles",
  defaults = { engine = "sim", workers = 1, targets = { "volume" }, duration = secs, ramp = ramp },
}

for _, layout in ipairs(layouts) do
  local L = layout:upper()
  local sim = { preset = card, layout = layout, drive_capacity = "4g" }

  hb.precondition{ name = L .. " 4k random write preconditioning", group = L,
                   duration = precondition, rw = "randwrite", bs = "4k", oio = 256, sim = sim }
  for _, bs in ipairs{ "4k", "8k" } do
    for _, rw in ipairs{ "read", "write" } do
      local name = ("%s %s random %s"):format(L, bs, rw)
      hb.sweep{ base = { name = name, rw = "rand" .. rw, bs = bs, sim = sim }, group = name,
                oio = oio }
    end
  end
  for _, rw in ipairs{ "read", "write" } do
    local name = L .. " 128k sequential " .. rw
    hb.sweep{ base = { name = name, rw = rw, bs = "128k", sim = sim }, group = name, oio = oio }
  end
  for _, bs in ipairs{ "4k", "8k", "128k" } do
    local name = ("%s %s write mix"):format(L, bs)
    hb.sweep{ base = { name = name, rw = bs == "128k" and "rw" or "randrw", bs = bs,
                       oio = mix_oio, sim = sim }, group = name, write_pct = mixes }
  end
  for _, profile in ipairs{ "oltp", "webserver", "email" } do
    local base = hb.profile(profile)
    base.name, base.sim = L .. " " .. profile, sim
    hb.sweep{ base = base, group = base.name, oio = { 8, 16, 32, 64, 128, 256 } }
  end
end
