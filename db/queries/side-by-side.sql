-- Runs side by side on one step group: a row per point, one column per run (run1 to run8, in the order given), for one metric
-- params: group (a step group's name), runs (RUN,RUN,...: up to 8), metric (iops, read_iops, write_iops, mbps, mibps; latency in us: mean, p50, p99, p999, max)
-- A point is the step's axis value (the OIO of an OIO sweep, the write %
-- of a write-mix sweep), or the n-th step of the group in a group without
-- an axis; a run's first done step at that point gives its value (as
-- step_summary has it), a run without one an empty cell, as is every
-- column past the runs given. Points come in plan order. SQLite has no
-- pivot, so the columns are fixed: a metric or more than 8 runs that it
-- does not take stop the query, naming them.
WITH RECURSIVE split(n, id, rest) AS (
  SELECT 0, NULL, :runs || ','
  UNION ALL
  SELECT n + 1, CAST(substr(rest, 1, instr(rest, ',') - 1) AS INTEGER),
         substr(rest, instr(rest, ',') + 1)
  FROM split WHERE rest <> ''
), sel AS (
  SELECT n, id FROM split WHERE n > 0
), col AS (
  SELECT CASE lower(:metric)
           WHEN 'iops' THEN 'iops' WHEN 'read_iops' THEN 'read_iops'
           WHEN 'write_iops' THEN 'write_iops' WHEN 'mbps' THEN 'mbps' WHEN 'mibps' THEN 'mibps'
           WHEN 'mean' THEN 'lat_mean_us' WHEN 'lat_mean_us' THEN 'lat_mean_us'
           WHEN 'p50' THEN 'lat_p50_us' WHEN 'lat_p50_us' THEN 'lat_p50_us'
           WHEN 'p99' THEN 'lat_p99_us' WHEN 'lat_p99_us' THEN 'lat_p99_us'
           WHEN 'p999' THEN 'lat_p999_us' WHEN 'p99.9' THEN 'lat_p999_us'
           WHEN 'lat_p999_us' THEN 'lat_p999_us'
           WHEN 'max' THEN 'lat_max_us' WHEN 'lat_max_us' THEN 'lat_max_us'
         END AS name
), ok AS (
  -- json_extract with a path that is the message: the only way a query stops itself
  SELECT CASE
    WHEN (SELECT name FROM col) IS NULL
      THEN json_extract('{}', 'metric ' || :metric || ' is not one of iops, read_iops, '
                        || 'write_iops, mbps, mibps, mean, p50, p99, p999, max')
    WHEN (SELECT count(*) FROM sel) > 8
      THEN json_extract('{}', 'runs: ' || (SELECT count(*) FROM sel)
                        || ' runs given, side-by-side takes up to 8')
    ELSE 1 END AS yes
), pts AS (
  SELECT sel.n, s.seq, s.axis,
         CASE WHEN s.axis_value GLOB '[0-9]*' AND NOT s.axis_value GLOB '*[^0-9]*'
                THEN CAST(s.axis_value AS INTEGER)
              WHEN s.axis IS NOT NULL THEN s.axis_value
              ELSE row_number() OVER (PARTITION BY s.run_id ORDER BY s.seq)
         END AS point,
         CASE (SELECT name FROM col)
           WHEN 'iops' THEN s.iops WHEN 'read_iops' THEN s.read_iops
           WHEN 'write_iops' THEN s.write_iops WHEN 'mbps' THEN s.mbps WHEN 'mibps' THEN s.mibps
           WHEN 'lat_mean_us' THEN s.lat_mean_us WHEN 'lat_p50_us' THEN s.lat_p50_us
           WHEN 'lat_p99_us' THEN s.lat_p99_us WHEN 'lat_p999_us' THEN s.lat_p999_us
           WHEN 'lat_max_us' THEN s.lat_max_us
         END AS v
  FROM step_summary s JOIN sel ON sel.id = s.run_id
  WHERE s.group_name = :group AND s.status = 'done'
), firsts AS (
  SELECT *, row_number() OVER (PARTITION BY n, point ORDER BY seq) AS k FROM pts
)
SELECT point, axis, (SELECT name FROM col) AS metric,
       max(CASE WHEN n = 1 THEN v END) AS run1, max(CASE WHEN n = 2 THEN v END) AS run2,
       max(CASE WHEN n = 3 THEN v END) AS run3, max(CASE WHEN n = 4 THEN v END) AS run4,
       max(CASE WHEN n = 5 THEN v END) AS run5, max(CASE WHEN n = 6 THEN v END) AS run6,
       max(CASE WHEN n = 7 THEN v END) AS run7, max(CASE WHEN n = 8 THEN v END) AS run8
FROM firsts
WHERE k = 1 AND (SELECT yes FROM ok) = 1
GROUP BY point, axis
ORDER BY min(n * 1000000000 + seq);
