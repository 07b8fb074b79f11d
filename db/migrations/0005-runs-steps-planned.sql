-- Schema version 4 to 5: how many steps a run's plan will run, as its dry
-- pass counted them (NULL: not known, as for every run made before).
ALTER TABLE runs ADD COLUMN steps_planned INTEGER;

-- The seconds a sample covers: 1, less for the last second of a step that
-- ended inside it (a fill, an I/O error, an interrupt), which used to be
-- dropped or stored as a whole second. Rows made before hold 1.
ALTER TABLE samples ADD COLUMN secs REAL NOT NULL DEFAULT 1;

-- sample_total gains secs and the rates over it (as in db/schema.sql).
DROP VIEW IF EXISTS sample_total;
CREATE VIEW IF NOT EXISTS sample_total AS
SELECT step_id, t, ramp, read_ops + write_ops AS ops, read_bytes + write_bytes AS bytes,
       CASE WHEN read_ops + write_ops > 0 THEN
         (COALESCE(read_lat_mean_us, 0) * read_ops + COALESCE(write_lat_mean_us, 0) * write_ops)
         / (read_ops + write_ops) END AS lat_mean_us,
       secs, (read_ops + write_ops) / secs AS iops, (read_bytes + write_bytes) / 1e6 / secs AS mbps
FROM samples;
