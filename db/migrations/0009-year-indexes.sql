-- Indexes for a year of nights (issue 37: 1,000 runs x 100 steps x 60
-- samples): steps by run and status, with the group, so that list's step
-- counts per run (done, started) and sql's check of a saved query's group
-- read this index instead of every step's row (params_json makes a step
-- row a kilobyte). No table changes; IF NOT EXISTS: a database made older by
-- hand (tests/faults.t) may have it. Keep alike in db/schema.sql
-- (tests/migrate.t compares the two).
CREATE INDEX IF NOT EXISTS steps_run_status ON steps(run_id, status, group_name);
