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
-- sas3008-1sas, sas2308-1sas: the LSI 9300-4i4e (SAS3008, 12 Gb/s lanes) and
--   the 9207-8i (SAS2308, 6 Gb/s) with one HGST SSD800MM (reference 001).
-- sas2008-5hdd: the LSI 9240-8i (SAS2008, PCIe2 x8, IT firmware) with five
--   WD Red 2 TB hard drives as JBOD (reference 002).
-- asr8885-8sas: the Adaptec ASR-8885 (PMC PM8063 RoC, PCIe3 x8) of the same
--   review, with the same drives.
-- The figures each preset is calibrated to, the review's against the model's,
-- and how each option follows from them: docs/engines.md, "Calibration of the
-- presets", and docs/calibration.md (every figure of reference 003, which
-- sets what, which are predictions; tests/simcal.t checks them). Each option
-- a figure sets names it in a comment beside it; the others are the drives'
-- published specifications or defaults.
-- Each preset's facts(opts) says what it simulates: the card and its volume
-- and drives as the controller probes name them (c0.model, c0.v0.raid_level,
-- c0.v0.d0.model ...; the runner numbers the cards and adds c0.simulated),
-- from the options in force (layout = "raid0" makes a RAID0 volume).
local presets = {}

local function kb(size)
  local n, unit = tostring(size):match("^(%d+)([kmgKMG]?)$")
  local mult = { [""] = 1 / 1024, k = 1, m = 1024, g = 1024 * 1024 }
  return n and math.floor(tonumber(n) * mult[unit:lower()]) or size
end

-- card: model, firmware, personality, cache_mb, cache_protection,
-- write_policy, read_policy, drive_model, drive_interface, drive_media
-- ("SSD" unless given: "HDD" for hard drives)
local function card(c)
  return function(opts)
    local f = {}
    local function add(k, v) if v ~= nil then f[#f + 1] = { k, tostring(v) } end end
    add("model", c.model)
    add("firmware", "simulated")
    add("personality", opts.layout == "jbod" and (c.jbod or "JBOD") or c.personality)
    add("cache_mb", c.cache_mb)
    add("cache_protection", c.cache_protection)
    add("link", opts.link)
    local drive = "d"
    if opts.layout ~= "jbod" then
      add("v0.raid_level", opts.layout:upper())
      add("v0.strip_kb", kb(opts.strip))
      add("v0.write_policy", c.write_policy)
      add("v0.write_policy_effective", c.write_policy)
      add("v0.read_policy", c.read_policy)
      add("v0.state", "Optl")
      drive = "v0.d"
    end
    for i = 0, tonumber(opts.drives) - 1 do
      add(drive .. i .. ".model", c.drive_model)
      add(drive .. i .. ".interface", c.drive_interface)
      add(drive .. i .. ".media", c.drive_media or "SSD")
      add(drive .. i .. ".size_mb", math.floor(kb(opts.drive_capacity) / 1024))
    end
    return f
  end
end

presets["sas2308-8ssd"] = {
  link = "pcie3x8", ctrl_iops = 700000, ctrl_latency_us = 10, layout = "jbod",
  drives = 8, drive_capacity = "256g", drive_read_iops = 46000, drive_write_iops = 36000,
  drive_write_iops_steady = 8000, drive_read_mbps = 540, drive_write_mbps = 400,
  drive_latency_us = 90, drive_write_latency_us = 40,
  -- SATA 6 Gb/s drives on a 6 Gb/s SAS2308: 558 MB/s a lane, above the
  -- drives' 540 (reference 000: 550 MB/s a drive fresh, "very close to the
  -- theoretical maximum for any SATA3 drive")
  drive_link_gbps = 6, sas_lane_gbps = 6,
  facts = card{ model = "LSI SAS 9207-8e (SAS2308)", personality = "IT", jbod = "IT",
                drive_model = "Samsung SSD 830", drive_interface = "SATA" },
}

presets["lsi3108-8sas"] = {
  link = "pcie3x8",
  -- RAID0 4k random reads 557,037 IOPS at OIO 256 (controller-bound: the
  -- drives take 8 x 145,000); reaching it by OIO 64 ("well under .15ms until
  -- 128 OIO") gives the latency; RAID0 4k writes (578,287) are the drives'
  -- (drive_write_iops_steady and the GC dips below), so the controller's
  -- writes only need to be above them
  ctrl_iops = 557000, ctrl_write_iops = 800000, ctrl_latency_us = 20,
  -- RAID5 4k random writes: from the peak at OIO 128 to 45,639 at 256
  ctrl_qd_knee = 128, ctrl_qd_penalty = 0.065,
  -- RAID5 small writes (read-modify-write), fixed + per KiB: 4k random writes
  -- peak at 48,554 IOPS (OIO 128), 8k at 41,802: 1/58,040 s + 0.8366 us a KiB
  ctrl_parity_iops = 58040, ctrl_parity_us_per_kib = 0.8366,
  -- RAID5 full-stripe writes (the write-back cache gathers a sequential
  -- stream): 128k sequential writes 772 MiB/s at OIO 256, the parity engine
  -- (the drives would take 7 x 750 MB/s of data)
  ctrl_xor_mibps = 772,
  -- the data path (fixed + per KiB). Reads: the 9361-8i's web server mix
  -- (RAID0, OIO 256: 354,078 x 16,036 B) moves 1.07x the bytes of its 128k
  -- sequential reads (5,041 MiB/s), so its sequential reads take a slower
  -- path than its random ones: read-ahead stages them through the cache
  -- (ctrl_readahead_mibps: the 128k sequential reads set it), where random
  -- reads go straight to the host (MegaRAID's Direct IO). The direct path's
  -- rate is what the RoC's 8 SAS lanes carry, 8 x 1,116 MB/s at 12 Gb/s
  -- (8,514 MiB/s); 8k random reads (511,493 IOPS) set its fixed part
  -- (1.0375 us + 8 KiB at 8,514 MiB/s = 1/511,493 s). Writes (through the
  -- write-back cache): 128k sequential writes 4,447 MiB/s and 8k random
  -- writes 445,752 IOPS. The 4k figures stay with ctrl_iops (1.80 us a
  -- read, above the direct path's 1.50 us).
  ctrl_dma_read_us = 1.0375, ctrl_dma_read_mibps = 8514, ctrl_readahead_mibps = 5041,
  ctrl_dma_write_us = 0.52, ctrl_dma_write_mibps = 4530,
  layout = "raid5", strip = "256k", drives = 8, drive_capacity = "400g",
  drive_read_iops = 145000, drive_write_iops = 100000, drive_write_iops_steady = 81000,
  drive_read_mbps = 1200, drive_write_mbps = 750, drive_latency_us = 80,
  drive_write_latency_us = 30, decline = 1.0, gc_period = 0.05, gc_length = 0.005,
  gc_factor = 0.5, gc_sync = true,
  facts = card{ model = "LSI MegaRAID SAS 9361-8i (SAS3108)", personality = "RAID-Mode",
                cache_mb = 1024, cache_protection = "CacheVault", write_policy = "WriteBack",
                read_policy = "ReadAhead", drive_model = "HGST Ultrastar SSD800MH",
                drive_interface = "SAS" },
}

local function derive(base, changes)
  local p = {}
  for k, v in pairs(presets[base]) do p[k] = v end -- facts too
  for k, v in pairs(changes) do p[k] = v end
  return p
end

presets["asr8885-8sas"] = derive("lsi3108-8sas", {
  -- RAID0 4k random reads 685,760 IOPS at OIO 256, half the 9361-8i's at 64
  -- ("nearly doubling": the latency); RAID0 4k random writes 535,766
  ctrl_iops = 686000, ctrl_write_iops = 590000, ctrl_latency_us = 130,
  -- RAID5 4k random writes: 31,057 at their peak, OIO 32, falling to 22,929
  -- at 256; steeper with reads in flight (ctrl_qd_penalty_mixed below:
  -- 15.43 ms at 90 % writes, OIO 256)
  ctrl_parity_iops = 31100, ctrl_qd_knee = 32, ctrl_qd_penalty = 0.118,
  -- its 8k random writes (29,490 IOPS at OIO 64) cost no more than its 4k
  -- ones: no part per KiB; RAID5 128k sequential writes 852 MiB/s
  ctrl_parity_us_per_kib = 0, ctrl_xor_mibps = 852,
  ctrl_qd_penalty_mixed = 0.36,
  -- the data path, from the same figures of the ASR-8885: 128k sequential
  -- reads 4,872 MiB/s and 8k random reads 535,358 IOPS (fixed + per KiB);
  -- 128k sequential writes 4,344 MiB/s and 8k random writes 401,359 IOPS.
  -- Its reads take one path, sequential or random: its web server mix
  -- (309,421 x 16,036 B) moves 0.97x its 128k sequential bytes, so no
  -- read-ahead stage
  ctrl_dma_read_us = 0.28, ctrl_dma_read_mibps = 4925, ctrl_readahead_mibps = 0,
  ctrl_dma_write_us = 0.74, ctrl_dma_write_mibps = 4460,
  facts = card{ model = "Adaptec ASR-8885 (PM8063)", personality = "RAID", write_policy = "WriteBack",
                read_policy = "ReadAhead", drive_model = "HGST Ultrastar SSD800MH",
                drive_interface = "SAS" },
})

presets["lsi3108-8sas-pcie2"] = derive("lsi3108-8sas", { link = "pcie2x8" })

-- Reference 001 (STH, the LSI 9300-4i4e against the 9207-8i): one HGST
-- Ultrastar SSD800MM (12 Gb/s SAS) on each card, as JBOD. The drive: HGST's
-- published figures for the SSD800MH (1,200 / 750 MB/s, 145,000 / 100,000
-- IOPS, as reference 003 quotes them), whose "slightly slower version" the MM
-- is; the review states none of its own. No figure of reference 001 sets an
-- option: its 140,000 4k IOPS and its two ratios are predictions
-- (tests/simcal_001.t).
presets["sas2308-1sas"] = derive("sas2308-8ssd", {
  -- the SAS2308's controller as reference 000's 9207-8e (the same chip);
  -- its 6 Gb/s lanes cap the 12 Gb/s drive at 558 MB/s
  drives = 1, drive_capacity = "400g", sas_lane_gbps = 6, drive_link_gbps = 12,
  drive_read_iops = 145000, drive_write_iops = 100000, drive_write_iops_steady = 81000,
  drive_read_mbps = 1200, drive_write_mbps = 750, drive_latency_us = 80,
  drive_write_latency_us = 30,
  facts = card{ model = "LSI SAS 9207-8i (SAS2308)", personality = "IT", jbod = "IT",
                drive_model = "HGST Ultrastar SSD800MM", drive_interface = "SAS" },
})

presets["sas3008-1sas"] = derive("sas2308-1sas", {
  -- the SAS3008's 12 Gb/s lanes (1,116 MB/s): the drive's own rate binds
  -- its reads and writes; LSI rates the chip at over a million IOPS
  sas_lane_gbps = 12, ctrl_iops = 1000000,
  facts = card{ model = "LSI SAS 9300-4i4e (SAS3008)", personality = "IT", jbod = "IT",
                drive_model = "HGST Ultrastar SSD800MM", drive_interface = "SAS" },
})

-- Reference 002 (a forum post: the LSI 9240-8i in IT mode, PCIe2 x8, in the
-- x8 and x4 slots of a Supermicro X9SCM) with its five WD Red 2 TB (WD20EFRX)
-- SATA hard drives as a RAIDZ1 pool, each drive a target (JBOD: ZFS is the
-- RAID). The card is a SAS2008 (LSI's data sheet; the post calls it "2308
-- based"). The drives: WD's published 147 MB/s sustained and a 5,400 rpm
-- class spindle; WD states no seek time, so the default 8.5 ms.
-- Positioning is the drives' latency: no fixed part beside it. No option is
-- set by a figure of reference 002: its scrub's run length between seeks
-- is the step's (examples/reference-002.lua, tests/simcal_002.t).
presets["sas2008-5hdd"] = {
  link = "pcie2x8", ctrl_latency_us = 10, layout = "jbod", drives = 5,
  drive_capacity = "2000g", drive_rpm = 5400, drive_read_mbps = 147, drive_write_mbps = 147,
  drive_latency_us = 0, drive_write_latency_us = 0, drive_link_gbps = 6, sas_lane_gbps = 6,
  facts = card{ model = "LSI MegaRAID SAS 9240-8i (SAS2008)", personality = "IT", jbod = "IT",
                drive_model = "WDC WD20EFRX (WD Red 2 TB)", drive_interface = "SATA",
                drive_media = "HDD" },
}

-- reference 004
-- 16 Intel X25-E on two cards, 8 drives each (Tom's Hardware, "Another Record
-- Broken: 6 Gb SAS, 16 SSDs, 3.4 GB/s!"): a pair of Adaptec 5808 reached
-- 2.2 GB/s, a pair of the new LSI cards 3.4 GB/s. Its figures are
-- sequential reads (16 X25-E write at most 16 x 170 MB/s = 2.7 GB/s); the
-- text gives no block size or queue depth (tests/simcal_004.t: 128k, 16 a
-- drive). Options no figure sets are the makers' specifications.
-- Intel X25-E (SLC, SATA 3 Gb/s): Intel's 250 / 170 MB/s, 35,000 / 3,300
-- IOPS, 75 / 85 us; SLC holds its write rate, so fresh = steady
local x25e = {
  drive_capacity = "64g", drive_read_iops = 35000, drive_write_iops = 3300,
  drive_write_iops_steady = 3300, drive_write_mbps = 170,
  drive_latency_us = 75, drive_write_latency_us = 85, drive_link_gbps = 3,
  -- "each of the 16 Intel X25-E flash SSDs is realistically able to provide
  -- more than 220 MB/s" ("the theoretical maximum for our array should be
  -- somewhere around 3.5 GB/s": 16 x 220 = 3,520 MB/s)
  drive_read_mbps = 220,
}
local function x25e_card(c)
  local p = { drives = 8 }
  for k, v in pairs(x25e) do p[k] = v end
  for k, v in pairs(c) do p[k] = v end
  return p
end

-- LSI SAS 9210-8i (SAS2008; Intel RS2BL080), an HBA on PCIe 2.0 x8 with
-- 6 Gb/s lanes, the X25-E as JBOD: no cache, no XOR engine. ctrl_iops:
-- LSI's "over 290,000 IOPS" for the SAS2008
presets["lsi9210-8x25e"] = x25e_card{
  link = "pcie2x8", sas_lane_gbps = 6, ctrl_iops = 290000, ctrl_latency_us = 10,
  layout = "jbod",
  facts = card{ model = "LSI SAS 9210-8i (SAS2008)", personality = "IT", jbod = "IT",
                drive_model = "Intel X25-E", drive_interface = "SATA" },
}

-- LSI MegaRAID SAS 9260-8i (SAS2108 RoC, 512 MB cache), PCIe 2.0 x8, 6 Gb/s
-- lanes; the 8 drives a RAID0 volume (its default 64k strip). ctrl_iops:
-- the SAS2108's published 150,000+
presets["lsi9260-8x25e"] = x25e_card{
  link = "pcie2x8", sas_lane_gbps = 6, ctrl_iops = 150000, ctrl_latency_us = 20,
  layout = "raid0", strip = "64k",
  facts = card{ model = "LSI MegaRAID SAS 9260-8i (SAS2108)", personality = "RAID-Mode",
                cache_mb = 512, cache_protection = "BBU", write_policy = "WriteBack",
                read_policy = "ReadAhead", drive_model = "Intel X25-E",
                drive_interface = "SATA" },
}

-- Adaptec RAID 5808 (Intel IOP348 RoC, 512 MB cache), PCIe 1.1 x8, 3 Gb/s
-- lanes; RAID0 of its 8 drives (256k strip). ctrl_iops: an estimate for
-- the IOP348, no figure of the review's
presets["adaptec5808-8x25e"] = x25e_card{
  link = "pcie1x8", sas_lane_gbps = 3, ctrl_iops = 100000, ctrl_latency_us = 30,
  layout = "raid0", strip = "256k",
  -- the pair's 2.2 GB/s, 1,100 MB/s a card (1,049 MiB/s): its data path,
  -- not its link ("two cards running eight times 250 MB/s still results in
  -- 2 GB/s each ... we should have had enough available bandwidth. But it
  -- turns out that we didn't"; the model's PCIe 1 x8 carries 1,400 MB/s)
  ctrl_dma_read_mibps = 1049,
  facts = card{ model = "Adaptec RAID 5808 (IOP348)", personality = "RAID",
                cache_mb = 512, cache_protection = "BBU", write_policy = "WriteBack",
                read_policy = "ReadAhead", drive_model = "Intel X25-E",
                drive_interface = "SATA" },
}

return presets
