-- Schema version 1 to 2: what an I/O error did to a step ('fail' or 'continue').
ALTER TABLE steps ADD COLUMN on_error TEXT;
