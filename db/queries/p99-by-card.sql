-- The best p99 latency of each RAID card at one OIO, on volumes of one RAID level, across every run
-- params: level (a RAID level: RAID5), oio (the OIO: 32)
-- The volume a run measured: the one behind its target (run_volume.target),
-- or the simulated one of the step's layout (a simulated run may have a
-- RAID0 and a RAID5 volume, one per step layout). A card is its model and
-- firmware; best is the lowest p99 of the OIO-sweep points (oio_sweep) of
-- one workload (rw, bs, write mix) there, with the run, step and write
-- policy in effect that gave it: a row per card and workload.
SELECT c.model AS card, c.firmware, v.raid_level, min(o.lat_p99_us) AS best_p99_us,
       o.iops, o.rw, o.bs, o.group_name, o.run_id, o.label, s.seq AS step,
       v.strip_kb, v.write_policy_effective, v.drive_summary, c.simulated,
       count(DISTINCT o.run_id) AS runs
FROM oio_sweep o
JOIN steps s ON s.id = o.step_id
JOIN run_volume v ON v.run_id = o.run_id
 AND (v.target IS NOT NULL AND v.simulated = 0
      OR v.simulated = 1
         AND upper(v.raid_level) = upper(json_extract(s.params_json, '$.sim.layout')))
JOIN run_controller c ON c.run_id = v.run_id AND c.source = v.source AND c.controller = v.controller
WHERE upper(v.raid_level) = upper(:level) AND o.oio = CAST(:oio AS INTEGER)
  AND o.lat_p99_us IS NOT NULL
GROUP BY c.model, c.firmware, o.rw, o.bs, o.write_pct
ORDER BY o.rw, o.bs, o.write_pct, best_p99_us;
