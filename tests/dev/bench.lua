-- The hbatest side of tests/dev/bench.sh: one worker, one step, every key
-- from --set so each row of the table is the same plan.
local engine = hb.set("engine", "io_uring")
local rw = hb.set("rw", "randread")
hb.plan{ name = "bench", description = "one row of make bench (fio comparison)" }
hb.run{
  name = "bench " .. engine .. " " .. rw,
  engine = engine,
  rw = rw,
  write_pct = tonumber(hb.set("write_pct", rw == "randrw" and 30 or nil)),
  bs = hb.set("bs", "4k"),
  oio = tonumber(hb.set("oio", 32)),
  workers = 1,
  duration = tonumber(hb.set("secs", 5)),
  direct = engine ~= "null",
  telemetry = tonumber(hb.set("telemetry", 60)),
}
