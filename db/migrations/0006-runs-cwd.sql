-- Schema version 5 to 6: the folder a run started in. A relative file
-- target is relative to it, and a resume from another folder would measure
-- another file of that name under the same run (NULL: not known, as for
-- every run made before and for imported runs).
ALTER TABLE runs ADD COLUMN cwd TEXT;
