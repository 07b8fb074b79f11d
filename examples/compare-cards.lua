-- examples/compare-cards.lua: one card of reference 003 (LSI MegaRAID 9361-8i
-- vs Adaptec ASR-8885, 8 HGST SSD800MH) through a short simulated review in
-- its style. Run it once per card, as a real review runs once per card:
--
--   hbatest run examples/compare-cards.lua --set card=lsi3108-8sas --label 9361-8i
--   hbatest run examples/compare-cards.lua --set card=asr8885-8sas --label ASR-8885
--
-- For RAID0 and then RAID5: 4k random write preconditioning from fresh drives,
-- every second sampled (the descent to steady state); 4k random read and write
-- OIO sweeps 2..256; a 4k write-mix sweep 0..100 % in steps of 10 at OIO 256
-- (the review does not say; its text fits 256: see scripts/sim_presets.lua);
-- OLTP, web server and e-mail profiles over OIO 2..256; 1M sequential reads.
-- Groups and axes do not name the card, so a report pairs the two runs step by
-- step: group "RAID5 4k random write", axis oio, value 256.
--
-- The drives are shrunk to 4 GB: 60 s of 4k random writes then wear them by
-- about 4 capacities, as the review's 9,000 s wore its 400 GB drives (7), so
-- the steps after it see steady-state drives. Simulated on a virtual clock:
-- about 30 minutes of I/O in under 20 s a card. Settings (--set): card,
-- seconds (5 a point), ramp (1), precondition (60), mix_oio (256).
local card = hb.set("card", "lsi3108-8sas")
local secs, ramp = hb.set("seconds", 5), hb.set("ramp", 1)
local precondition, mix_oio = hb.set("precondition", 60), hb.set("mix_oio", 256)
local oio = { 2, 4, 8, 16, 32, 64, 128, 256 }

hb.plan{
  name = "reference 003 in short, simulated: " .. card,
  description = "RAID0 and RAID5: preconditioning, 4k OIO sweeps, 4k write mix, server profiles, 1M sequential read",
  defaults = { engine = "sim", workers = 1, targets = { "volume" }, duration = secs, ramp = ramp },
}

for _, layout in ipairs{ "raid0", "raid5" } do
  local L = layout:upper()
  local sim = { preset = card, layout = layout, drive_capacity = "4g" }

  hb.precondition{ name = L .. " 4k random write preconditioning", group = L,
                   duration = precondition, rw = "randwrite", bs = "4k", oio = 256, sim = sim }
  for _, rw in ipairs{ "read", "write" } do
    local name = L .. " 4k random " .. rw
    hb.sweep{ base = { name = name, rw = "rand" .. rw, bs = "4k", sim = sim }, group = name,
              oio = oio }
  end
  hb.sweep{ base = { name = L .. " 4k write mix", rw = "randrw", bs = "4k", oio = mix_oio,
                     sim = sim }, group = L .. " 4k write mix",
            write_pct = { 0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100 } }
  for _, profile in ipairs{ "oltp", "webserver", "email" } do
    local base = hb.profile(profile)
    base.name, base.sim = L .. " " .. profile, sim
    hb.sweep{ base = base, group = base.name, oio = oio }
  end
  hb.run{ name = L .. " 1M sequential read", group = L .. " 1M sequential read", rw = "read",
          bs = "1m", oio = 32, sim = sim }
end
