-- examples/two-cards.lua: two 8-SSD cards in one host, as reference 004 ran
-- 16 SSDs on two controllers (shared/reference 004: a pair of PCIe 1.1 x8
-- cards topped out at 2.2 GB/s, a pair of PCIe 2.0 x8 cards reached 3.4 GB/s).
-- 128k sequential reads, each card alone over its 8 drives, then both
-- together over all 16 (sim = { cards = { ... } }: the targets split between
-- the cards in order, each card its own link), for a pair in PCIe1 x8 slots
-- and a pair in PCIe2 x8 slots:
--
--   hbatest run examples/two-cards.lua --label two-cards
--   hbatest report two-cards --out two-cards-report
--
-- The report's "Several controllers, summed" chart stacks the two cards of
-- each "together" step under the sum of their links' ceilings. The cards are
-- the sim preset "sas2308-8ssd" (an LSI 9207-8e with 8 SATA SSDs), not the
-- review's 9210-8i/9260-8i, Adaptec 5808 and X25-E (only the drives' read
-- rate is the X25-E's): the shape is the point, not the figures (the PCIe1
-- pair bus-bound at 2.8 GB/s, the PCIe2 pair drive-bound at 4.0). The
-- review's own cards and figures: examples/reference-004.lua.
-- Simulated on a virtual clock: 2 minutes of I/O in about a second.
-- Settings (--set): seconds (10 a step).
local seconds = hb.set("seconds", 10)
hb.plan{
  name = "two cards",
  description = "two 8-SSD cards alone and together: 128k sequential reads, PCIe1 x8 and PCIe2 x8 slots",
  defaults = { engine = "sim", rw = "read", bs = "128k", ramp = 0, duration = seconds },
}
-- A target's facts (its card, its link) are those of the first step that
-- uses it: each slot pair has targets of its own.
for _, slot in ipairs{ "pcie1x8", "pcie2x8" } do
  local first, second, all = {}, {}, {}
  for i = 1, 16 do
    local t = ("%s-sd%s"):format(slot, string.char(string.byte("a") + i))
    all[#all + 1] = t
    table.insert(i <= 8 and first or second, t)
  end
  -- the drives read at an X25-E's rated 250 MB/s (the review: "more than 220")
  local card = { preset = "sas2308-8ssd", link = slot, drive_read_mbps = 250 }
  hb.run{ name = "first card alone, " .. slot, group = "128k read, " .. slot,
          targets = first, oio = 8 * 16, sim = card }
  hb.run{ name = "second card alone, " .. slot, group = "128k read, " .. slot,
          targets = second, oio = 8 * 16, sim = card }
  hb.run{ name = "both cards, " .. slot, group = "128k read, " .. slot,
          targets = all, oio = 16 * 16, sim = { cards = { card, card } } }
end
