-- Schema version 6 to 7: what a run says about itself (its notes, the plan's
-- name, the build it ran) and the telemetry sampled from the probes while it
-- ran (controller and drive temperatures, the write policy in effect, cache
-- protection, link, volume state). Older runs have NULL for each and no
-- telemetry rows. The views of RAID cards (run_card_fact, run_drive,
-- run_controller, run_volume) read the probes rows every version has; keep
-- them alike in db/schema.sql (tests/migrate.t compares the two).
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

-- One row per run and drive behind a controller: in a volume (volume 'v0')
-- or in none (volume NULL: an HBA's disks, JBOD, spares). description is
-- what the drive summaries count: "HUSMM8040ASS200 A204, SAS 12.0Gb/s SSD".
CREATE VIEW IF NOT EXISTS run_drive AS
WITH p AS (
  SELECT run_id, source, controller, volume, drive, min(target) AS target, min(ord) AS ord,
         max(CASE WHEN field = 'slot' THEN value END) AS slot,
         max(CASE WHEN field = 'vendor' THEN value END) AS vendor,
         max(CASE WHEN field = 'model' THEN value END) AS model,
         max(CASE WHEN field = 'firmware' THEN value END) AS firmware,
         max(CASE WHEN field = 'interface' THEN value END) AS interface,
         max(CASE WHEN field = 'speed' THEN value END) AS speed,
         max(CASE WHEN field = 'media' THEN value END) AS media,
         max(CASE WHEN field = 'ssd' THEN value END) AS ssd,
         max(CASE WHEN field = 'size' THEN value END) AS size,
         max(CASE WHEN field = 'size_mb' THEN value END) AS size_mb,
         max(CASE WHEN field = 'state' THEN value END) AS state,
         max(CASE WHEN field = 'temperature_c' THEN value END) AS temperature_c
  FROM run_card_fact WHERE drive IS NOT NULL
  GROUP BY run_id, source, controller, volume, drive
), q AS (
  -- the link: arcconf's speed names the interface ("SAS 12.0 Gb/s");
  -- the media: sas?ircu's names it too ("SATA_SSD"), arcconf's is a yes/no
  SELECT *, CASE WHEN interface IS NULL OR speed GLOB interface || ' *' THEN speed
                 ELSE trim(interface || ' ' || COALESCE(speed, '')) END AS link,
         CASE WHEN media GLOB '?*[_ ]SSD' OR media GLOB '?*[_ ]HDD' THEN substr(media, -3)
              WHEN media IS NOT NULL THEN media
              WHEN ssd = 'Yes' THEN 'SSD' WHEN ssd = 'No' THEN 'HDD' END AS kind
  FROM p
)
SELECT run_id, source, controller, volume, drive, target, slot, vendor, model, firmware,
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
CREATE VIEW IF NOT EXISTS run_controller AS
WITH c AS (
  SELECT run_id, source, controller, min(target) AS target, min(ord) AS ord,
         max(CASE WHEN volume IS NULL AND drive IS NULL AND field = 'model' THEN value END) AS model,
         max(CASE WHEN volume IS NULL AND drive IS NULL AND field = 'serial' THEN value END) AS serial,
         max(CASE WHEN volume IS NULL AND drive IS NULL AND field = 'firmware' THEN value END) AS firmware,
         max(CASE WHEN volume IS NULL AND drive IS NULL AND field = 'firmware_package' THEN value END)
           AS firmware_package,
         max(CASE WHEN volume IS NULL AND drive IS NULL AND field = 'bios' THEN value END) AS bios,
         max(CASE WHEN volume IS NULL AND drive IS NULL AND field = 'driver' THEN value END) AS driver,
         max(CASE WHEN volume IS NULL AND drive IS NULL AND field = 'driver_version' THEN value END)
           AS driver_version,
         max(CASE WHEN volume IS NULL AND drive IS NULL AND field = 'personality' THEN value END)
           AS personality,
         max(CASE WHEN volume IS NULL AND drive IS NULL AND field = 'cache_mb' THEN value END) AS cache_mb,
         max(CASE WHEN volume IS NULL AND drive IS NULL AND field = 'cache_protection' THEN value END)
           AS cache_protection,
         max(CASE WHEN volume IS NULL AND drive IS NULL AND field = 'cache_protection_state' THEN value END)
           AS cache_protection_state,
         max(CASE WHEN volume IS NULL AND drive IS NULL AND field = 'temperature_c' THEN value END)
           AS temperature_c,
         max(CASE WHEN volume IS NULL AND drive IS NULL AND field = 'status' THEN value END) AS status,
         max(CASE WHEN volume IS NULL AND drive IS NULL AND field = 'simulated' THEN value END) AS sim,
         count(DISTINCT volume) AS volumes
  FROM run_card_fact GROUP BY run_id, source, controller
), n AS (
  SELECT run_id, source, controller, description, count(*) AS n, min(ord) AS ord
  FROM run_drive GROUP BY run_id, source, controller, description
  ORDER BY run_id, source, controller, n DESC, ord
), s AS (
  SELECT run_id, source, controller, sum(n) AS drives,
         group_concat(n || ' x ' || description, '; ') AS drive_summary
  FROM n GROUP BY run_id, source, controller
)
SELECT c.run_id, c.source, c.controller, c.target, c.model, c.serial, c.firmware,
       c.firmware_package, c.bios, c.driver, c.driver_version, c.personality,
       CAST(c.cache_mb AS INTEGER) AS cache_mb, c.cache_protection, c.cache_protection_state,
       CASE WHEN c.temperature_c GLOB '[0-9]*' OR c.temperature_c GLOB '-[0-9]*'
            THEN CAST(c.temperature_c AS NUMERIC) END AS temperature_c,
       c.status, c.volumes, COALESCE(s.drives, 0) AS drives, s.drive_summary,
       CASE WHEN c.source = 'sim' OR c.sim = 'yes' THEN 1 ELSE 0 END AS simulated, c.ord
FROM c LEFT JOIN s ON s.run_id = c.run_id AND s.source = c.source AND s.controller = c.controller;

-- One row per run and volume (a RAID card's virtual or logical drive): RAID
-- level, state, size, strip, the cache policies as set and in effect, the OS
-- device, its member drives counted and summarised. An HBA in IT mode has
-- none (its drives are run_drive rows with volume NULL).
CREATE VIEW IF NOT EXISTS run_volume AS
WITH v AS (
  SELECT run_id, source, controller, volume, min(target) AS target, min(ord) AS ord,
         max(CASE WHEN drive IS NULL AND field = 'id' THEN value END) AS id,
         max(CASE WHEN drive IS NULL AND field = 'name' THEN value END) AS name,
         max(CASE WHEN drive IS NULL AND field = 'raid_level' THEN value END) AS raid_level,
         max(CASE WHEN drive IS NULL AND field = 'state' THEN value END) AS state,
         max(CASE WHEN drive IS NULL AND field = 'size' THEN value END) AS size,
         max(CASE WHEN drive IS NULL AND field = 'size_mb' THEN value END) AS size_mb,
         max(CASE WHEN drive IS NULL AND field = 'strip_kb' THEN value END) AS strip_kb,
         max(CASE WHEN drive IS NULL AND field = 'write_policy' THEN value END) AS write_policy,
         max(CASE WHEN drive IS NULL AND field = 'write_policy_effective' THEN value END)
           AS write_policy_effective,
         max(CASE WHEN drive IS NULL AND field = 'read_policy' THEN value END) AS read_policy,
         max(CASE WHEN drive IS NULL AND field = 'io_policy' THEN value END) AS io_policy,
         max(CASE WHEN drive IS NULL AND field = 'drive_cache' THEN value END) AS drive_cache,
         max(CASE WHEN drive IS NULL AND field = 'os_device' THEN value END) AS os_device,
         max(CASE WHEN drive IS NULL AND field = 'active_operations' THEN value END)
           AS active_operations
  FROM run_card_fact WHERE volume IS NOT NULL GROUP BY run_id, source, controller, volume
), n AS (
  SELECT run_id, source, controller, volume, description, count(*) AS n, min(ord) AS ord
  FROM run_drive WHERE volume IS NOT NULL GROUP BY run_id, source, controller, volume, description
  ORDER BY run_id, source, controller, volume, n DESC, ord
), s AS (
  SELECT run_id, source, controller, volume, sum(n) AS drives,
         group_concat(n || ' x ' || description, '; ') AS drive_summary
  FROM n GROUP BY run_id, source, controller, volume
)
SELECT v.run_id, v.source, v.controller, v.volume, v.target, v.id, v.name, v.raid_level, v.state,
       COALESCE(v.size, v.size_mb || ' MB') AS size, CAST(v.strip_kb AS INTEGER) AS strip_kb,
       v.write_policy, v.write_policy_effective, v.read_policy, v.io_policy, v.drive_cache,
       v.os_device, v.active_operations, COALESCE(s.drives, 0) AS drives, s.drive_summary,
       c.simulated, v.ord
FROM v JOIN run_controller c ON c.run_id = v.run_id AND c.source = v.source AND c.controller = v.controller
LEFT JOIN s ON s.run_id = v.run_id AND s.source = v.source AND s.controller = v.controller
  AND s.volume = v.volume;
