-- hbatest database, schema version 12 (PRAGMA user_version).
-- Names here are a contract: users query them by hand. Latencies are
-- microseconds (REAL), sizes bytes, times UTC ISO 8601 text.

CREATE TABLE runs (
    id           INTEGER PRIMARY KEY,
    uuid         TEXT NOT NULL UNIQUE,
    label        TEXT,
    plan_path    TEXT NOT NULL,
    plan_sha256  TEXT NOT NULL,
    plan_text    TEXT NOT NULL,
    host         TEXT,
    version      TEXT,
    cmdline      TEXT,
    started_at   TEXT NOT NULL,
    finished_at  TEXT,
    status       TEXT NOT NULL DEFAULT 'running'
                 CHECK (status IN ('running', 'done', 'aborted', 'failed')),
    simulated    INTEGER NOT NULL DEFAULT 0,
    pid          INTEGER,            -- of the process running it
    heartbeat_at TEXT,               -- refreshed while it runs
    sets_json    TEXT,               -- the --set values
    targets_json TEXT,               -- the --target values (a JSON list)
    source       TEXT NOT NULL DEFAULT 'hbatest'
                 CHECK (source IN ('hbatest', 'iometer', 'fio')),
    source_file  TEXT,               -- imported runs: the file's name
    source_sha256 TEXT,              -- imported runs: the file's sha256
    steps_planned INTEGER,           -- steps the plan will run (dry pass); NULL: not known
    cwd          TEXT,               -- the folder it started in (relative targets); NULL: not known
    plan_name    TEXT,               -- hb.plan{ name } (since version 7)
    notes        TEXT,               -- --note and hb.note texts, one per line, in order
    build_commit TEXT                -- the git commit hbatest was built from; NULL: not known
);

CREATE TABLE targets (
    id         INTEGER PRIMARY KEY,
    run_id     INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    path       TEXT NOT NULL,
    kind       TEXT NOT NULL CHECK (kind IN ('file', 'block', 'virtual')),
    size_bytes INTEGER,
    UNIQUE (run_id, path)
);

CREATE TABLE steps (
    id          INTEGER PRIMARY KEY,
    run_id      INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL,    -- 1, 2, ... in plan order
    kind        TEXT NOT NULL
                CHECK (kind IN ('measure', 'precondition', 'steady-round', 'exec')),
    name        TEXT NOT NULL,
    group_name  TEXT,
    tags_json   TEXT,
    params_json TEXT NOT NULL,       -- every key as the plan resolved it
    engine      TEXT,
    rw          TEXT,
    bs          TEXT,                -- "4k", or "4k:60,64k:40"
    write_pct   INTEGER,
    oio         INTEGER,
    workers     INTEGER,
    duration_s  INTEGER,
    ramp_s      INTEGER,
    status      TEXT NOT NULL DEFAULT 'running'
                CHECK (status IN ('running', 'done', 'aborted', 'failed')),
    started_at  TEXT,
    finished_at TEXT,
    window_s    INTEGER,             -- s: the window, sum of its samples' secs (REAL when cut short)
    read_ops    INTEGER,
    write_ops   INTEGER,
    read_bytes  INTEGER,
    write_bytes INTEGER,
    errors      INTEGER,
    iops        REAL,
    read_iops   REAL,
    write_iops  REAL,
    mbps        REAL,                -- 10^6 bytes/s
    lat_mean_us REAL,
    lat_p50_us  REAL,
    lat_p99_us  REAL,
    lat_p999_us REAL,
    lat_max_us  REAL,
    error_text  TEXT,
    axis        TEXT,                -- the key a sweep varies ('oio', 'write_pct', 'bs')
    axis_value  TEXT,                -- its value at this step
    round       INTEGER,             -- steady-state round, 1..
    passes      INTEGER,             -- fills: passes over the range
    exit_status INTEGER,             -- exec steps: the command's exit status
    elapsed_s   REAL,                -- exec steps and fills: wall (or engine) time
    on_error    TEXT,                -- 'fail' or 'continue': what an I/O error did
    placement   TEXT,                -- where the workers ran: CPU list and NUMA node
    cpu_busy    REAL,                -- 0..1: the busiest worker's share of the window on (or waiting for) a CPU (since 10)
    host_busy   REAL,                -- 0..1: the host's CPUs busy over the window, /proc/stat (since 10)
    host_bound  INTEGER,             -- 1: cpu_busy >= 0.90 or host_busy >= 0.95, the host set the pace (since 10)
    UNIQUE (run_id, seq)
);

-- Per-target totals of a step's measurement window (they add up to the step's).
CREATE TABLE step_targets (
    step_id     INTEGER NOT NULL REFERENCES steps(id) ON DELETE CASCADE,
    path        TEXT NOT NULL,
    read_ops    INTEGER NOT NULL,
    write_ops   INTEGER NOT NULL,
    read_bytes  INTEGER NOT NULL,
    write_bytes INTEGER NOT NULL,
    errors      INTEGER NOT NULL,
    PRIMARY KEY (step_id, path)
);

-- The outcome of each hb.steady{}: SNIA PTS steady state over its rounds.
CREATE TABLE steady_state (
    id             INTEGER PRIMARY KEY,
    run_id         INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    name           TEXT NOT NULL,
    attained       INTEGER NOT NULL,
    rounds         INTEGER NOT NULL,
    window_first   INTEGER,          -- round numbers of the window
    window_last    INTEGER,
    mean           REAL,             -- of the tracking variable over the window
    slope          REAL,             -- least-squares slope per round
    data_excursion REAL,             -- max - min over the window
    slope_excursion REAL,            -- slope x (window - 1)
    max_data_excursion REAL,         -- the limits, as shares of the mean
    max_slope_excursion REAL,
    track          TEXT,             -- what was tracked ('iops', ...)
    first_step_id  INTEGER,
    last_step_id   INTEGER
);

-- Second t holds the I/Os that completed in [t, t+1) s after the step began;
-- secs is how much of that second the step covered: 1, less for the last
-- second of a step that ended inside it (a fill, an I/O error, an interrupt).
-- Rates of a second are ops / secs.
CREATE TABLE samples (
    step_id           INTEGER NOT NULL REFERENCES steps(id) ON DELETE CASCADE,
    t                 INTEGER NOT NULL,
    ramp              INTEGER NOT NULL,
    read_ops          INTEGER NOT NULL,
    write_ops         INTEGER NOT NULL,
    read_bytes        INTEGER NOT NULL,
    write_bytes       INTEGER NOT NULL,
    errors            INTEGER NOT NULL,
    read_lat_mean_us  REAL,
    read_lat_p99_us   REAL,
    write_lat_mean_us REAL,
    write_lat_p99_us  REAL,
    lat_max_us        REAL,
    occupancy         REAL,          -- mean outstanding I/Os (Little's law)
    secs              REAL NOT NULL DEFAULT 1, -- s of the second covered (since version 5)
    cpu_busy          REAL,          -- 0..1: the busiest worker on (or waiting for) a CPU (since 10)
    host_busy         REAL,          -- 0..1: the host's CPUs busy (/proc/stat) (since 10)
    hosts_json        TEXT,          -- fio on several hosts: each host's part (since version 11)
    PRIMARY KEY (step_id, t)
) WITHOUT ROWID;

-- Latency histograms of a step's measurement window, per direction.
-- layout 'loglin-v1 unit=ns sub_bits=7 max_exp=42'; counts is JSON
-- [[bucket, count], ...]; see README "Histograms" for the bucket bounds.
CREATE TABLE histograms (
    step_id INTEGER NOT NULL REFERENCES steps(id) ON DELETE CASCADE,
    dir     TEXT NOT NULL CHECK (dir IN ('read', 'write')),
    layout  TEXT NOT NULL,
    counts  TEXT NOT NULL,
    PRIMARY KEY (step_id, dir)
);

CREATE TABLE probes (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    phase  TEXT NOT NULL,
    target TEXT,
    probe  TEXT NOT NULL,
    key    TEXT NOT NULL,
    value  TEXT
);

CREATE TABLE events (
    id      INTEGER PRIMARY KEY,
    run_id  INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    at      TEXT NOT NULL,
    level   TEXT NOT NULL CHECK (level IN ('error', 'warning', 'info')),
    message TEXT NOT NULL
);

-- Telemetry (since version 7): the facts a probe's sample() gives while the
-- run goes on, every `telemetry` seconds of a step. t is on the samples'
-- clock: seconds since the step began (step_id NULL: between steps, seconds
-- since the run began); at is the wall time. source is the probe, key its
-- fact as in probes ('c0.temperature_c', 'c0.v0.write_policy_effective'),
-- target the run's target the fact is behind (NULL: a controller, volume or
-- drive behind none of them).
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

-- Resumes (since version 8): each time `hbatest run --resume` took the run up
-- again after it stopped (Ctrl-C, a crash, kill -9, a reboot): when, how long
-- it had sat idle, and which of its steps the replay kept and which it ran
-- anew. A run never resumed has none.
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

CREATE INDEX steps_run ON steps(run_id);
-- since version 9 (db/migrations/0009-year-indexes.sql): list's step counts
-- and sql's group check read this index, not every step's row
CREATE INDEX steps_run_status ON steps(run_id, status, group_name);
CREATE INDEX telemetry_run ON telemetry(run_id, step_id, t);
CREATE INDEX steady_run ON steady_state(run_id);
CREATE INDEX probes_run ON probes(run_id);
CREATE INDEX events_run ON events(run_id);

-- A 'running' run whose heartbeat stopped over a minute ago reads as 'interrupted'.
CREATE VIEW run_state AS
SELECT r.*,
       CASE WHEN r.status = 'running'
             AND (julianday('now') - julianday(COALESCE(r.heartbeat_at, r.started_at)))
                 * 86400 > 60
            THEN 'interrupted' ELSE r.status END AS state
FROM runs r;

-- One row per step: parameters, throughput in MB/s (10^6) and MiB/s (2^20), latency.
CREATE VIEW step_summary AS
SELECT s.id AS step_id, s.run_id, r.uuid AS run_uuid, r.label, s.seq, s.kind, s.name,
       s.group_name, s.engine, s.rw, s.bs, s.write_pct, s.oio, s.workers,
       s.duration_s, s.ramp_s, s.window_s, s.status,
       s.iops, s.read_iops, s.write_iops,
       s.mbps,
       s.mbps * 1000000.0 / 1048576.0 AS mibps,
       s.lat_mean_us, s.lat_p50_us, s.lat_p99_us, s.lat_p999_us, s.lat_max_us,
       s.errors, s.axis, s.axis_value, s.round, s.params_json,
       s.cpu_busy, s.host_busy, s.host_bound
FROM steps s JOIN runs r ON r.id = s.run_id;

-- OIO sweeps: one row per point, for IOPS/latency-versus-OIO charts.
CREATE VIEW oio_sweep AS
SELECT run_id, label, group_name, rw, bs, write_pct, oio, iops, mbps, mibps,
       lat_mean_us, lat_p99_us, step_id
FROM step_summary WHERE axis = 'oio' AND status = 'done';

-- Write-mix sweeps: one row per write percentage.
CREATE VIEW write_mix_sweep AS
SELECT run_id, label, group_name, rw, bs, oio, write_pct, iops, read_iops, write_iops,
       mbps, lat_mean_us, lat_p99_us, step_id
FROM step_summary WHERE axis = 'write_pct' AND status = 'done';

-- Views added in schema version 3, for reports. An older database gets them
-- from db/migrations/0003-report-views.sql: keep the two alike (a change to
-- the schema is a new migration file; tests/migrate.t compares a migrated
-- database with a new one).

-- Every step with the simulated card and link it ran on (NULL on hardware).
CREATE VIEW IF NOT EXISTS step_detail AS
SELECT s.*, json_extract(s.params_json, '$.sim.link') AS sim_link,
       json_extract(s.params_json, '$.sim.preset') AS sim_preset
FROM steps s;

-- Per-second samples, reads and writes together: operations, bytes and the
-- mean latency weighted by operations; the seconds covered and the rates
-- over them (since version 5: a last second cut short is rated by its part).
CREATE VIEW IF NOT EXISTS sample_total AS
SELECT step_id, t, ramp, read_ops + write_ops AS ops, read_bytes + write_bytes AS bytes,
       CASE WHEN read_ops + write_ops > 0 THEN
         (COALESCE(read_lat_mean_us, 0) * read_ops + COALESCE(write_lat_mean_us, 0) * write_ops)
         / (read_ops + write_ops) END AS lat_mean_us,
       secs, (read_ops + write_ops) / secs AS iops, (read_bytes + write_bytes) / 1e6 / secs AS mbps
FROM samples;

-- Per-target totals of multi-target (JBOD) steps, and their rates over the window.
CREATE VIEW IF NOT EXISTS step_target_rate AS
SELECT t.step_id, t.path, t.read_ops + t.write_ops AS ops, t.read_bytes + t.write_bytes AS bytes,
       (t.read_ops + t.write_ops) * 1.0 / s.window_s AS iops,
       (t.read_bytes + t.write_bytes) / 1e6 / s.window_s AS mbps
FROM step_targets t JOIN steps s ON s.id = t.step_id;

-- The test bed as recorded when each run started: one row per fact.
CREATE VIEW IF NOT EXISTS run_testbed AS
SELECT run_id, COALESCE(target, '') AS target, probe, key, value, rowid AS ord
FROM probes WHERE phase = 'start';

-- The PCIe link of each run and target at its start, one row each: speed,
-- width and the payload ceiling of the trained link in bytes/s.
CREATE VIEW IF NOT EXISTS run_pcie AS
SELECT run_id, target, min(ord) AS ord,
       max(CASE WHEN key = 'current_link_speed' THEN value END) AS link_speed,
       max(CASE WHEN key = 'current_link_width' THEN value END) AS link_width,
       max(CASE WHEN key = 'max_link_speed' THEN value END) AS max_link_speed,
       max(CASE WHEN key = 'max_link_width' THEN value END) AS max_link_width,
       CAST(max(CASE WHEN key = 'ceiling_current_bytes_per_s' THEN value END) AS REAL)
         AS ceiling_bytes_per_s
FROM run_testbed WHERE probe = 'pcie' GROUP BY run_id, target;

-- Views added in schema version 7, for RAID cards: the controllers, volumes
-- and drives the controller probes (megaraid, mpt, adaptec; 'sim' for a
-- simulated card) recorded at a run's start, from their facts' keys
-- ('c0.model', 'c0.v0.raid_level', 'c0.v0.d3.model', 'c0.d3.model' for a
-- drive in no volume). A fact recorded twice (host-wide, and again for the
-- run's target behind it) is one row: the first recorded, its target the
-- first (by path) of the targets it was recorded for.

-- One row per fact of a controller, volume or drive, its key taken apart:
-- controller 'c0', volume 'v0' (NULL: the controller's own, or a drive in
-- no volume), drive 'd3' (NULL: not a drive's), field 'model'.
CREATE VIEW IF NOT EXISTS run_card_fact AS
WITH f AS (
  SELECT run_id, probe, key, value, target, rowid AS ord,
         substr(key, 1, instr(key, '.') - 1) AS controller,
         substr(key, instr(key, '.') + 1) AS r1
  FROM probes
  WHERE phase = 'start' AND key GLOB 'c[0-9]*.?*'
), v AS (
  SELECT *, CASE WHEN r1 GLOB 'v[0-9]*.?*' AND NOT substr(r1, 2, instr(r1, '.') - 2) GLOB '*[^0-9]*'
                 THEN substr(r1, 1, instr(r1, '.') - 1) END AS volume
  FROM f WHERE NOT substr(controller, 2) GLOB '*[^0-9]*'
), d AS (
  SELECT *, CASE WHEN volume IS NULL THEN r1 ELSE substr(r1, length(volume) + 2) END AS r2
  FROM v
), k AS (
  SELECT *, CASE WHEN r2 GLOB 'd[0-9]*.?*' AND NOT substr(r2, 2, instr(r2, '.') - 2) GLOB '*[^0-9]*'
                 THEN substr(r2, 1, instr(r2, '.') - 1) END AS drive,
         row_number() OVER (PARTITION BY run_id, probe, key ORDER BY ord) AS nth,
         min(target) OVER (PARTITION BY run_id, probe, key) AS first_target
  FROM d
)
SELECT run_id, probe AS source, controller, volume, drive,
       CASE WHEN drive IS NULL THEN r2 ELSE substr(r2, length(drive) + 2) END AS field,
       value, first_target AS target, ord
FROM k WHERE nth = 1;

-- run_drive, run_controller and run_volume since version 12
-- (db/migrations/0012-card-views.sql: keep the two alike): windows, not
-- GROUP BY or a LEFT JOIN, so that SQLite pushes `WHERE run_id = ?` down to
-- probes_run (a run's rows in milliseconds, not seconds, in a year's runs);
-- DISTINCT keeps a join from flattening them (and reading all facts per row).

-- One row per run and drive behind a controller: in a volume (volume 'v0')
-- or in none (volume NULL: an HBA's disks, JBOD, spares). description is
-- what the drive summaries count: "HUSMM8040ASS200 A204, SAS 12.0Gb/s SSD".
CREATE VIEW run_drive AS
WITH w AS (
  SELECT run_id, source, controller, volume, drive, min(target) OVER k AS target,
         min(ord) OVER k AS ord,
         max(CASE WHEN field = 'slot' THEN value END) OVER k AS slot,
         max(CASE WHEN field = 'vendor' THEN value END) OVER k AS vendor,
         max(CASE WHEN field = 'model' THEN value END) OVER k AS model,
         max(CASE WHEN field = 'firmware' THEN value END) OVER k AS firmware,
         max(CASE WHEN field = 'interface' THEN value END) OVER k AS interface,
         max(CASE WHEN field = 'speed' THEN value END) OVER k AS speed,
         max(CASE WHEN field = 'media' THEN value END) OVER k AS media,
         max(CASE WHEN field = 'ssd' THEN value END) OVER k AS ssd,
         max(CASE WHEN field = 'size' THEN value END) OVER k AS size,
         max(CASE WHEN field = 'size_mb' THEN value END) OVER k AS size_mb,
         max(CASE WHEN field = 'state' THEN value END) OVER k AS state,
         max(CASE WHEN field = 'temperature_c' THEN value END) OVER k AS temperature_c,
         row_number() OVER k AS nth
  FROM run_card_fact WHERE drive IS NOT NULL
  WINDOW k AS (PARTITION BY run_id, source, controller, volume, drive)
), q AS (
  -- the link: arcconf's speed names the interface ("SAS 12.0 Gb/s");
  -- the media: sas?ircu's names it too ("SATA_SSD"), arcconf's is a yes/no
  SELECT *, CASE WHEN interface IS NULL OR speed GLOB interface || ' *' THEN speed
                 ELSE trim(interface || ' ' || COALESCE(speed, '')) END AS link,
         CASE WHEN media GLOB '?*[_ ]SSD' OR media GLOB '?*[_ ]HDD' THEN substr(media, -3)
              WHEN media IS NOT NULL THEN media
              WHEN ssd = 'Yes' THEN 'SSD' WHEN ssd = 'No' THEN 'HDD' END AS kind
  FROM w WHERE nth = 1
)
SELECT DISTINCT run_id, source, controller, volume, drive, target, slot, vendor, model, firmware,
       interface, speed, kind AS media, COALESCE(size, size_mb || ' MB') AS size, state,
       CASE WHEN temperature_c GLOB '[0-9]*' OR temperature_c GLOB '-[0-9]*'
            THEN CAST(temperature_c AS NUMERIC) END AS temperature_c,
       COALESCE(model, '?') || COALESCE(' ' || firmware, '')
         || CASE WHEN link IS NOT NULL OR kind IS NOT NULL
                 THEN ', ' || trim(COALESCE(link, '') || ' ' || COALESCE(kind, '')) ELSE '' END
         AS description, ord
FROM q;

-- One row per run and controller: card, firmware, cache and its protection,
-- temperature at the start; volumes, and the drives behind it (in its
-- volumes or in none) counted and summarised: "8 x HUSMM8040ASS200 A204,
-- SAS 12.0Gb/s SSD". target: the run's target behind it (NULL: none).
CREATE VIEW run_controller AS
WITH g AS (
  -- the drives of each description: how many, and the first one's fact
  SELECT run_id, source, controller, description, count(*) OVER k AS n, min(ord) OVER k AS ord,
         row_number() OVER k AS nth
  FROM run_drive WINDOW k AS (PARTITION BY run_id, source, controller, description)
), u AS (
  -- the controller's facts, and a row per description of its drives (n)
  SELECT run_id, source, controller, volume, drive, field, value, target, ord,
         NULL AS n, NULL AS description, NULL AS n_ord
  FROM run_card_fact
  UNION ALL
  SELECT run_id, source, controller, NULL, NULL, NULL, NULL, NULL, NULL, n, description, ord
  FROM g WHERE nth = 1
), t AS (
  SELECT *, CASE WHEN volume IS NOT NULL
                 AND row_number() OVER (PARTITION BY run_id, source, controller, volume) = 1
                 THEN 1 ELSE 0 END AS new_volume
  FROM u
), c AS (
  SELECT run_id, source, controller, min(target) OVER k AS target, min(ord) OVER k AS ord,
         max(CASE WHEN volume IS NULL AND drive IS NULL AND field = 'model' THEN value END) OVER k AS model,
         max(CASE WHEN volume IS NULL AND drive IS NULL AND field = 'serial' THEN value END) OVER k AS serial,
         max(CASE WHEN volume IS NULL AND drive IS NULL AND field = 'firmware' THEN value END) OVER k
           AS firmware,
         max(CASE WHEN volume IS NULL AND drive IS NULL AND field = 'firmware_package' THEN value END)
           OVER k AS firmware_package,
         max(CASE WHEN volume IS NULL AND drive IS NULL AND field = 'bios' THEN value END) OVER k AS bios,
         max(CASE WHEN volume IS NULL AND drive IS NULL AND field = 'driver' THEN value END) OVER k AS driver,
         max(CASE WHEN volume IS NULL AND drive IS NULL AND field = 'driver_version' THEN value END)
           OVER k AS driver_version,
         max(CASE WHEN volume IS NULL AND drive IS NULL AND field = 'personality' THEN value END)
           OVER k AS personality,
         max(CASE WHEN volume IS NULL AND drive IS NULL AND field = 'cache_mb' THEN value END) OVER k
           AS cache_mb,
         max(CASE WHEN volume IS NULL AND drive IS NULL AND field = 'cache_protection' THEN value END)
           OVER k AS cache_protection,
         max(CASE WHEN volume IS NULL AND drive IS NULL AND field = 'cache_protection_state' THEN value END)
           OVER k AS cache_protection_state,
         max(CASE WHEN volume IS NULL AND drive IS NULL AND field = 'temperature_c' THEN value END)
           OVER k AS temperature_c,
         max(CASE WHEN volume IS NULL AND drive IS NULL AND field = 'status' THEN value END) OVER k AS status,
         max(CASE WHEN volume IS NULL AND drive IS NULL AND field = 'simulated' THEN value END) OVER k AS sim,
         sum(new_volume) OVER k AS volumes, sum(n) OVER k AS drives,
         group_concat(n || ' x ' || description, '; ') OVER (k ORDER BY n DESC, n_ord
           ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS drive_summary,
         row_number() OVER k AS nth
  FROM t WINDOW k AS (PARTITION BY run_id, source, controller)
)
SELECT DISTINCT run_id, source, controller, target, model, serial, firmware,
       firmware_package, bios, driver, driver_version, personality,
       CAST(cache_mb AS INTEGER) AS cache_mb, cache_protection, cache_protection_state,
       CASE WHEN temperature_c GLOB '[0-9]*' OR temperature_c GLOB '-[0-9]*'
            THEN CAST(temperature_c AS NUMERIC) END AS temperature_c,
       status, volumes, COALESCE(drives, 0) AS drives, drive_summary,
       CASE WHEN source = 'sim' OR sim = 'yes' THEN 1 ELSE 0 END AS simulated, ord
FROM c WHERE nth = 1;

-- One row per run and volume (a RAID card's virtual or logical drive): RAID
-- level, state, size, strip, the cache policies as set and in effect, the OS
-- device, its member drives counted and summarised. An HBA in IT mode has
-- none (its drives are run_drive rows with volume NULL).
CREATE VIEW run_volume AS
WITH g AS (
  -- the member drives of each description: how many, and the first one's fact
  SELECT run_id, source, controller, volume, description, count(*) OVER k AS n,
         min(ord) OVER k AS ord, row_number() OVER k AS nth
  FROM run_drive WHERE volume IS NOT NULL
  WINDOW k AS (PARTITION BY run_id, source, controller, volume, description)
), u AS (
  -- the controller's facts (simulated: its own), a row per description of
  -- each volume's drives (n)
  SELECT run_id, source, controller, volume, drive, field, value, target, ord,
         NULL AS n, NULL AS description, NULL AS n_ord
  FROM run_card_fact
  UNION ALL
  SELECT run_id, source, controller, volume, NULL, NULL, NULL, NULL, NULL, n, description, ord
  FROM g WHERE nth = 1
), t AS (
  -- (a window of its own: SQLite pushes run_id into one whose windows
  -- have the same PARTITION BY)
  SELECT *, max(CASE WHEN source = 'sim' OR (volume IS NULL AND drive IS NULL
                                             AND field = 'simulated' AND value = 'yes')
                     THEN 1 ELSE 0 END) OVER (PARTITION BY run_id, source, controller) AS simulated
  FROM u
), v AS (
  SELECT run_id, source, controller, volume, min(target) OVER k AS target, min(ord) OVER k AS ord,
         max(CASE WHEN drive IS NULL AND field = 'id' THEN value END) OVER k AS id,
         max(CASE WHEN drive IS NULL AND field = 'name' THEN value END) OVER k AS name,
         max(CASE WHEN drive IS NULL AND field = 'raid_level' THEN value END) OVER k AS raid_level,
         max(CASE WHEN drive IS NULL AND field = 'state' THEN value END) OVER k AS state,
         max(CASE WHEN drive IS NULL AND field = 'size' THEN value END) OVER k AS size,
         max(CASE WHEN drive IS NULL AND field = 'size_mb' THEN value END) OVER k AS size_mb,
         max(CASE WHEN drive IS NULL AND field = 'strip_kb' THEN value END) OVER k AS strip_kb,
         max(CASE WHEN drive IS NULL AND field = 'write_policy' THEN value END) OVER k AS write_policy,
         max(CASE WHEN drive IS NULL AND field = 'write_policy_effective' THEN value END) OVER k
           AS write_policy_effective,
         max(CASE WHEN drive IS NULL AND field = 'read_policy' THEN value END) OVER k AS read_policy,
         max(CASE WHEN drive IS NULL AND field = 'io_policy' THEN value END) OVER k AS io_policy,
         max(CASE WHEN drive IS NULL AND field = 'drive_cache' THEN value END) OVER k AS drive_cache,
         max(CASE WHEN drive IS NULL AND field = 'os_device' THEN value END) OVER k AS os_device,
         max(CASE WHEN drive IS NULL AND field = 'active_operations' THEN value END) OVER k
           AS active_operations,
         sum(n) OVER k AS drives,
         group_concat(n || ' x ' || description, '; ') OVER (k ORDER BY n DESC, n_ord
           ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS drive_summary,
         simulated, row_number() OVER k AS nth
  FROM t WINDOW k AS (PARTITION BY run_id, source, controller, volume)
)
SELECT DISTINCT run_id, source, controller, volume, target, id, name, raid_level, state,
       COALESCE(size, size_mb || ' MB') AS size, CAST(strip_kb AS INTEGER) AS strip_kb,
       write_policy, write_policy_effective, read_policy, io_policy, drive_cache,
       os_device, active_operations, COALESCE(drives, 0) AS drives, drive_summary,
       simulated, ord
FROM v WHERE volume IS NOT NULL AND nth = 1;

-- View added in schema version 8 (db/migrations/0008-resumes.sql: keep the two alike).
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

PRAGMA user_version = 12;
