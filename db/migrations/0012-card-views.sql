-- Schema version 11 to 12: the views run_drive, run_controller and
-- run_volume, the same columns and rows, made so that a run's rows are
-- quick to read (`WHERE run_id = ?`, as the report reads them). SQLite
-- pushes a run_id term down into a subquery with window functions
-- partitioned by run_id, not into one with GROUP BY, nor into the right of a
-- LEFT JOIN: each view is windows over run_card_fact (and run_drive), one
-- row kept per partition, its drive counts in the same rows (UNION ALL), so
-- the term reaches probes' index (probes_run). DISTINCT (the rows are
-- distinct anyway) keeps SQLite from flattening a view into a join that
-- reads it: it makes the view's rows once, not its facts once a row of the
-- other table (p99-by-card). Keep both alike in
-- db/schema.sql (tests/migrate.t compares the two).
DROP VIEW IF EXISTS run_volume;
DROP VIEW IF EXISTS run_controller;
DROP VIEW IF EXISTS run_drive;

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
