-- Per-second samples of one step: IOPS, MB/s, latency, queue occupancy
-- params: run (RUN: an id, a uuid prefix or a label), step (its seq, or its name)
-- Second t holds the I/Os that completed in [t, t+1) s after the step
-- began; ramp = 1 marks the ramp seconds left out of the step's summary.
-- secs < 1: the step ended inside that second; its rates are over secs.
-- A step named like another's seq: the seq wins.
SELECT m.t, m.ramp, m.secs, (m.read_ops + m.write_ops) / m.secs AS iops,
       m.read_ops / m.secs AS read_iops, m.write_ops / m.secs AS write_iops,
       (m.read_bytes + m.write_bytes) / 1e6 / m.secs AS mbps,
       m.read_lat_mean_us, m.read_lat_p99_us, m.write_lat_mean_us, m.write_lat_p99_us,
       m.lat_max_us, m.occupancy, m.errors
FROM samples m
WHERE m.step_id = (SELECT id FROM steps WHERE run_id = :run AND (seq = :step OR name = :step)
                   ORDER BY seq = :step DESC, seq LIMIT 1)
ORDER BY m.t;
