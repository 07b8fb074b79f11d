-- Schema version 2 to 3: the views reports read. db/schema.sql holds the
-- same views for a new database; keep the two alike (tests/migrate.t
-- compares a migrated database with a new one). IF NOT EXISTS: a file set
-- back to an older version by hand keeps its views.

-- Every step with the simulated card and link it ran on (NULL on hardware).
CREATE VIEW IF NOT EXISTS step_detail AS
SELECT s.*, json_extract(s.params_json, '$.sim.link') AS sim_link,
       json_extract(s.params_json, '$.sim.preset') AS sim_preset
FROM steps s;

-- Per-second samples, reads and writes together: operations, bytes and the
-- mean latency weighted by operations.
CREATE VIEW IF NOT EXISTS sample_total AS
SELECT step_id, t, ramp, read_ops + write_ops AS ops, read_bytes + write_bytes AS bytes,
       CASE WHEN read_ops + write_ops > 0 THEN
         (COALESCE(read_lat_mean_us, 0) * read_ops + COALESCE(write_lat_mean_us, 0) * write_ops)
         / (read_ops + write_ops) END AS lat_mean_us
FROM samples;

-- Per-target totals of multi-target (JBOD) steps, and their rates over the window.
CREATE VIEW IF NOT EXISTS step_target_rate AS
SELECT t.step_id, t.path, t.read_ops + t.write_ops AS ops, t.read_bytes + t.write_bytes AS bytes,
       (t.read_ops + t.write_ops) * 1.0 / s.window_s AS iops,
       (t.read_bytes + t.write_bytes) / 1e6 / s.window_s AS mbps
FROM step_targets t JOIN steps s ON s.id = t.step_id;

-- The test bed as recorded when each run started: one row per fact.
CREATE VIEW IF NOT EXISTS run_testbed AS
SELECT run_id, COALESCE(target, '') AS target, probe, key, value, rowid AS ord
FROM probes WHERE phase = 'start';

-- The PCIe link of each run and target at its start, one row each: speed,
-- width and the payload ceiling of the trained link in bytes/s.
CREATE VIEW IF NOT EXISTS run_pcie AS
SELECT run_id, target, min(ord) AS ord,
       max(CASE WHEN key = 'current_link_speed' THEN value END) AS link_speed,
       max(CASE WHEN key = 'current_link_width' THEN value END) AS link_width,
       max(CASE WHEN key = 'max_link_speed' THEN value END) AS max_link_speed,
       max(CASE WHEN key = 'max_link_width' THEN value END) AS max_link_width,
       CAST(max(CASE WHEN key = 'ceiling_current_bytes_per_s' THEN value END) AS REAL)
         AS ceiling_bytes_per_s
FROM run_testbed WHERE probe = 'pcie' GROUP BY run_id, target;
