-- Presets for the libaio engine: libaio = { preset = "fio" }. Options given
-- next to the preset win over its values.
--
-- fio: submit as fio's libaio engine does with its defaults, for a
--   cross-check against a fio run (docs/engines.md, "Cross-checking with
--   fio"): one request per io_submit (iodepth_batch_submit=1); every wait
--   reaps at least one completion, as fio's iodepth_batch_complete_min=1 and
--   the engine always does. The step's numa defaults to "none" with it, as
--   fio pins nothing (core/plan/step_table.c).
return {
  fio = {
    submit_batch = 1,
  },
}
