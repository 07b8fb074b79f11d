-- IOPS and latency over the write percentage: the points of a run's write-mix sweeps
-- params: run (RUN: an id, a uuid prefix or a label)
-- Groups in plan order, then by write % (the write_mix_sweep view: steps
-- with axis 'write_pct' that are done).
SELECT w.group_name, w.rw, w.bs, w.oio, w.write_pct, w.iops, w.read_iops, w.write_iops,
       w.mbps, w.lat_mean_us, w.lat_p99_us, s.seq AS step
FROM write_mix_sweep w JOIN steps s ON s.id = w.step_id
WHERE w.run_id = :run
ORDER BY min(s.seq) OVER (PARTITION BY w.group_name), w.write_pct, s.seq;
