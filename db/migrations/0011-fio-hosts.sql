-- Schema version 10 to 11: a second of a step that fio ran on several hosts
-- (engine = "fio" with hosts=) keeps each host's part of it: a JSON object by
-- host ("node1:8765"), each {read_ops, write_ops, read_bytes, write_bytes,
-- read_lat_mean_us, write_lat_mean_us, secs}; the row's counts are their
-- sum. NULL for every other step, and for older runs.
ALTER TABLE samples ADD COLUMN hosts_json TEXT;
