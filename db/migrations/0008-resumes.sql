-- Schema version 7 to 8: the resumes of a run (hbatest run --resume), when
-- each took the run up again, how long the run had sat idle, the steps it
-- kept and the one it ran anew from; and the view run_resume that says each
-- in words. Older runs have no rows (their resumes were not recorded). Keep
-- both alike in db/schema.sql (tests/migrate.t compares the two).
CREATE TABLE resumes (
    run_id       INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    at           TEXT NOT NULL,      -- when the resume took the run up again
    last_seen_at TEXT,               -- its last sign of life before: heartbeat, a step's start or end, its end
    idle_s       REAL,               -- seconds from last_seen_at to at
    was_status   TEXT,               -- its status then: running (killed), aborted, failed
    steps_kept   INTEGER NOT NULL DEFAULT 0, -- steps 1 to steps_kept: done earlier, replayed from the database
    rerun_from   INTEGER,            -- the first step run anew, and every one after it; NULL: none
    forced       INTEGER NOT NULL DEFAULT 0, -- 1: --force, the plan had changed (its new text replayed)
    host         TEXT,               -- where it resumed
    pid          INTEGER             -- of the process that resumed it
);
CREATE INDEX resumes_run ON resumes(run_id, at);

-- Each resume in words, as show and the report say it: "resumed at
-- 2026-12-05T01:00:00.000Z, idle 3h12m, steps 1-5 kept, step 6 onwards rerun".
CREATE VIEW IF NOT EXISTS run_resume AS
WITH d AS (
  SELECT r.*, r.rowid AS ord, CAST(round(r.idle_s) AS INTEGER) AS n FROM resumes r
)
SELECT run_id, at, last_seen_at, idle_s, was_status, steps_kept, rerun_from, forced, host, pid,
       CASE WHEN n IS NULL OR n < 0 THEN NULL
            WHEN n >= 86400 THEN (n / 86400) || 'd' || ((n % 86400) / 3600) || 'h'
            WHEN n >= 3600 THEN (n / 3600) || 'h' || printf('%02d', (n % 3600) / 60) || 'm'
            WHEN n >= 60 THEN (n / 60) || 'm' || printf('%02d', n % 60) || 's'
            ELSE n || 's' END AS idle,
       'resumed at ' || at
       || ', idle ' || CASE WHEN n IS NULL OR n < 0 THEN '?'
            WHEN n >= 86400 THEN (n / 86400) || 'd' || ((n % 86400) / 3600) || 'h'
            WHEN n >= 3600 THEN (n / 3600) || 'h' || printf('%02d', (n % 3600) / 60) || 'm'
            WHEN n >= 60 THEN (n / 60) || 'm' || printf('%02d', n % 60) || 's'
            ELSE n || 's' END
       || CASE steps_kept WHEN 0 THEN ', no step kept' WHEN 1 THEN ', step 1 kept'
            ELSE ', steps 1-' || steps_kept || ' kept' END
       || CASE WHEN rerun_from IS NULL THEN ', no step rerun'
            ELSE ', step ' || rerun_from || ' onwards rerun' END
       || CASE WHEN forced THEN ' (--force: the plan had changed)' ELSE '' END AS summary,
       ord
FROM d;
