-- Cards compared on one step group: a row per point and run, the runs in the order given
-- params: group (a step group's name), runs (RUN,RUN,...: ids, uuid prefixes or labels)
-- The n-th step of the group in each run is point n (runs of one plan
-- line up); axis and axis_value say what the point is.
WITH pick AS (
  SELECT s.*, row_number() OVER (PARTITION BY s.run_id ORDER BY s.seq) AS point,
         instr(',' || :runs || ',', ',' || s.run_id || ',') AS run_order
  FROM steps s
  WHERE s.group_name = :group AND instr(',' || :runs || ',', ',' || s.run_id || ',') > 0
)
SELECT p.point, p.axis, p.axis_value, p.run_id, r.label, p.seq AS step, p.name, p.status,
       p.iops, p.mbps, p.lat_mean_us, p.lat_p99_us, p.lat_p999_us
FROM pick p JOIN runs r ON r.id = p.run_id
ORDER BY p.point, p.run_order;
