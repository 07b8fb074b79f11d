-- The test bed of a run: each fact its probes recorded, one row per key, at its start and end
-- params: run (RUN: an id, a uuid prefix or a label)
-- target is '' for the host. Facts of other phases (hb.probe(phase) in a
-- plan) are in the probes table.
SELECT COALESCE(target, '') AS target, probe, key,
       max(CASE WHEN phase = 'start' THEN value END) AS at_start,
       max(CASE WHEN phase = 'end' THEN value END) AS at_end
FROM probes
WHERE run_id = :run AND phase IN ('start', 'end')
GROUP BY COALESCE(target, ''), probe, key
ORDER BY min(rowid);
