-- Presets for the libaio engine: libaio = { preset = "fio" }. Options given
-- next to the preset win over its values.
--
-- fio: submit and reap as fio's libaio engine does with its defaults, for a
--   cross-check against a fio run (docs/engines.md, "Cross-checking with
--   fio"): one request per io_submit (iodepth_batch_submit=1) and one event
--   per io_getevents (min 1 as iodepth_batch_complete_min=1, max 1 as
--   iodepth_batch_complete_max, which defaults to complete_min): two system
--   calls per I/O, as fio makes. The step's numa defaults to "none" with it,
--   as fio pins nothing (core/plan/step_table.c).
--   With it the worker also times each request as fio's defaults do: a
--   clock read after the submitting call too, fio's slat and clat told per
--   worker as an event (core/measure/worker.c, worker_fio_timing).
return {
  fio = {
    submit_batch = 1,
    reap_max = 1,
  },
}
