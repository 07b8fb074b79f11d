-- Schema version 3 to 4: where a run came from (imported from Iometer or
-- fio: the file's name and sha256), and where a step's workers ran.
ALTER TABLE runs ADD COLUMN source TEXT NOT NULL DEFAULT 'hbatest'
    CHECK (source IN ('hbatest', 'iometer', 'fio'));
ALTER TABLE runs ADD COLUMN source_file TEXT;
ALTER TABLE runs ADD COLUMN source_sha256 TEXT;
ALTER TABLE steps ADD COLUMN placement TEXT;
