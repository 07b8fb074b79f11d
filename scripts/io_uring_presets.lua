-- Presets for the io_uring engine: io_uring = { preset = "fio" }. Options
-- given next to the preset win over its values.
--
-- fio: submit and reap as fio's io_uring engine does with its defaults, for a
--   cross-check against a fio run (docs/engines.md, "Cross-checking with
--   fio"): no registered buffers (fio's fixedbufs=0) or files
--   (registerfiles=0), no SQ polling (sqthread_poll=0), one request per
--   submitting call (iodepth_batch_submit=1), every wait for at least one
--   completion (iodepth_batch_complete_min=1) and one completion taken per
--   reap (iodepth_batch_complete_max, which defaults to complete_min, not to
--   iodepth), so each is resubmitted before the next is reaped and the
--   queue stays full as fio's does; each submission in a call of its own
--   and a wait only when no completion is ready (fio's commit and
--   getevents), not both in one call. The step's numa defaults to "none"
--   with it, as fio pins nothing (core/plan/step_table.c).
--   With it the worker also times each request as fio's defaults do: a
--   clock read after the submitting call too, fio's slat and clat told per
--   worker as an event (core/measure/worker.c, worker_fio_timing).
return {
  fio = {
    fixedbufs = false,
    registerfiles = false,
    sqpoll = false,
    submit_batch = 1,
    wait_nr = 1,
    reap_max = 1,
    separate_wait = true,
  },
}
