-- The workload of scripts/dev/bench.sh: 4k random reads at OIO 32 with one
-- worker, run side by side with fio. Engine, seconds and direct come from --set.
local engine = hb.set("engine", "io_uring")
hb.plan{ name = "bench", description = "4k random read, OIO 32, one worker (fio comparison)" }
hb.run{
  name = "bench " .. engine,
  engine = engine,
  rw = "randread",
  bs = "4k",
  oio = 32,
  workers = 1,
  duration = hb.set("secs", 10),
  direct = true,
}
