-- Schema version 6 to 7: what a run says about itself (its notes, the plan's
-- name, the build it ran) and the telemetry sampled from the probes while it
-- ran (controller and drive temperatures, the write policy in effect, cache
-- protection, link, volume state). Older runs have NULL for each and no
-- telemetry rows.
ALTER TABLE runs ADD COLUMN plan_name TEXT;
ALTER TABLE runs ADD COLUMN notes TEXT;
ALTER TABLE runs ADD COLUMN build_commit TEXT;

CREATE TABLE telemetry (
    run_id  INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    step_id INTEGER REFERENCES steps(id) ON DELETE CASCADE,
    t       REAL NOT NULL,
    at      TEXT NOT NULL,
    source  TEXT NOT NULL,
    key     TEXT NOT NULL,
    value   TEXT,
    target  TEXT
);
CREATE INDEX telemetry_run ON telemetry(run_id, step_id, t);
