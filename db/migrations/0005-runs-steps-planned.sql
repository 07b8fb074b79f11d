-- Schema version 4 to 5: how many steps a run's plan will run, as its dry
-- pass counted them (NULL: not known, as for every run made before).
ALTER TABLE runs ADD COLUMN steps_planned INTEGER;
