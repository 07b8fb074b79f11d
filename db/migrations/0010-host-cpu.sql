-- Schema version 9 to 10: whether the host's CPU, not the device, set a
-- step's pace (docs/measurement.md, "Host CPU"). Per second and per step:
-- cpu_busy, the busiest worker's share of the time it ran or waited to run
-- (0..1), and host_busy, the host's CPUs busy from /proc/stat (0..1); per
-- step host_bound, 1 when cpu_busy >= 0.90 or host_busy >= 0.95. NULL for
-- rows stored before, imported runs, exec steps and steps on a simulator's
-- clock. step_summary carries the three step columns. Keep both alike in
-- db/schema.sql (tests/migrate.t compares the two).
ALTER TABLE samples ADD COLUMN cpu_busy REAL;
ALTER TABLE samples ADD COLUMN host_busy REAL;
ALTER TABLE steps ADD COLUMN cpu_busy REAL;
ALTER TABLE steps ADD COLUMN host_busy REAL;
ALTER TABLE steps ADD COLUMN host_bound INTEGER;

DROP VIEW IF EXISTS step_summary;
-- One row per step: parameters, throughput in MB/s (10^6) and MiB/s (2^20), latency.
CREATE VIEW step_summary AS
SELECT s.id AS step_id, s.run_id, r.uuid AS run_uuid, r.label, s.seq, s.kind, s.name,
       s.group_name, s.engine, s.rw, s.bs, s.write_pct, s.oio, s.workers,
       s.duration_s, s.ramp_s, s.window_s, s.status,
       s.iops, s.read_iops, s.write_iops,
       s.mbps,
       s.mbps * 1000000.0 / 1048576.0 AS mibps,
       s.lat_mean_us, s.lat_p50_us, s.lat_p99_us, s.lat_p999_us, s.lat_max_us,
       s.errors, s.axis, s.axis_value, s.round, s.params_json,
       s.cpu_busy, s.host_busy, s.host_bound
FROM steps s JOIN runs r ON r.id = s.run_id;
