-- IOPS, MB/s and latency over OIO: the points of a run's OIO sweeps, a group at a time
-- params: run (RUN: an id, a uuid prefix or a label)
-- Groups in plan order, then by OIO (the oio_sweep view: steps with axis
-- 'oio' that are done).
SELECT o.group_name, o.rw, o.bs, o.write_pct, o.oio, o.iops, o.mbps, o.mibps,
       o.lat_mean_us, o.lat_p99_us, s.lat_p999_us, s.seq AS step
FROM oio_sweep o JOIN steps s ON s.id = o.step_id
WHERE o.run_id = :run
ORDER BY min(s.seq) OVER (PARTITION BY o.group_name), o.oio, s.seq;
