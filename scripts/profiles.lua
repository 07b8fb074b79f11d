-- Server profiles for hb.profile(name): the workloads reviewers run on RAID
-- cards and HBAs. Each is a table of step keys; a plan adds oio, duration...
--
-- Sources:
--   oltp, email: the database/OLTP (8k, 67% read) and e-mail server (8k, 50%
--     read) profiles of StorageReview's enterprise synthetic tests, as used in
--     their LSI 9361-8i vs Adaptec ASR-8885 review (shared/reference 003).
--   webserver, fileserver: Intel's Iometer access specifications "Web Server"
--     and "File Server", published with Iometer and used in many reviews; all
--     random, 100% and 80% read, with the transfer size mix below (weights in %).
-- Add your own with hb.profile("name", { ... }) in a plan, or in a module.
return {
  oltp = {
    description = "database/OLTP: 8k random, 67% read / 33% write",
    rw = "randrw", bs = "8k", write_pct = 33,
  },
  email = {
    description = "e-mail server: 8k random, 50% read / 50% write",
    rw = "randrw", bs = "8k", write_pct = 50,
  },
  webserver = {
    description = "web server (Iometer): random reads of 512 B .. 512 KiB",
    rw = "randread",
    bs = { ["512"] = 22, ["1k"] = 15, ["2k"] = 8, ["4k"] = 23, ["8k"] = 15,
           ["16k"] = 2, ["32k"] = 6, ["64k"] = 7, ["128k"] = 1, ["512k"] = 1 },
  },
  fileserver = {
    description = "file server (Iometer): random 512 B .. 64 KiB, 80% read / 20% write",
    rw = "randrw", write_pct = 20,
    bs = { ["512"] = 10, ["1k"] = 5, ["2k"] = 5, ["4k"] = 60, ["8k"] = 2,
           ["16k"] = 4, ["32k"] = 4, ["64k"] = 10 },
  },
}
