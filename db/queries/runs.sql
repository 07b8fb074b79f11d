-- Every run, oldest first: label, state, source, host, times, steps done/started/planned
-- (steps_planned is NULL when not known: imports of unfinished runs, runs before schema 5)
-- params: none
SELECT r.id, substr(r.uuid, 1, 8) AS uuid, r.label, r.state, r.source, r.simulated, r.host,
       r.started_at, r.finished_at,
       (SELECT count(*) FROM steps s WHERE s.run_id = r.id AND s.status = 'done') AS steps_done,
       (SELECT count(*) FROM steps s WHERE s.run_id = r.id) AS steps,
       r.steps_planned
FROM run_state r
ORDER BY r.id;
