#!/usr/bin/env bash
# make mutate: plausible bugs planted one at a time in a copy of the tree; the
# tests named for each must fail ("killed"). Exits non-zero when a mutant
# survives, does not build, or its pattern no longer matches (so the list
# cannot rot silently).
#   scripts/dev/mutate.sh [--list] [--no-baseline] [N...]   (N: mutant numbers)
set -u

# m FILE PATTERN REPLACEMENT TESTS WHAT: one mutant. PATTERN is an exact string
# found exactly once in FILE; TESTS are tests/*.t files or unit/NAME (the C
# test build/tests/NAME.t), run in order until one fails.
MUT_FILE=() MUT_PAT=() MUT_REP=() MUT_TESTS=() MUT_WHAT=()
m() {
	MUT_FILE+=("$1") MUT_PAT+=("$2") MUT_REP+=("$3") MUT_TESTS+=("$4") MUT_WHAT+=("$5")
}

# --- the 8 survivors of issue 12 --------------------------------------------
m core/measure/workload.c 'unsigned queues = wl->workers * wl->ntargets;' 'unsigned queues = wl->workers;' \
	'tests/plan_errors.t' 'OIO split checked against workers only, not workers x targets'
m scripts/snia.lua 'and r.slope_excursion <= max_slope * r.mean' 'and r.slope_excursion < max_slope * r.mean' \
	'tests/snia.t' 'SNIA slope limit <= made <'
m core/measure/worker.c 'b->tgt[io->target * TGT_COUNTERS + TGT_OPS + io->op] += k;' \
	'b->tgt[io->target * TGT_COUNTERS + TGT_OPS] += k;' \
	'tests/errors.t tests/plan_api.t' 'per-target counters ignore the direction'
m core/store/resume.c 'if (strcmp(now_sha, sha) && !force) {' 'if (strcmp(now_sha, sha)) {' \
	'tests/resume.t' '--force ignored on resume'
m core/measure/worker.c 'bool failed = io->result != (int64_t)io->len;' 'bool failed = io->result < 0;' \
	'tests/errors.t' 'a short I/O counted as a success'
m plugins/engines/io_uring.c 'if (sqpoll) {' 'if (0) {' \
	'tests/io_uring.t' 'the sqpoll option ignored'
m core/measure/workload.h 's->cursor += len;' 's->cursor += 0;' \
	'unit/gen' 'the sequential cursor never advances'
m core/store/resume.c 's->res.iops = sqlite3_column_double(st, 4);' 's->res.iops = 0;' \
	'tests/resume.t' 'a skipped step returns iops 0 on resume'

# --- worker: per-I/O accounting ----------------------------------------------
m core/measure/worker.c 'int64_t sec = (int64_t)((now - w->t0) / NSEC_PER_SEC);' \
	'int64_t sec = (int64_t)((now - w->t0 + NSEC_PER_SEC / 2) / NSEC_PER_SEC);' \
	'tests/errors.t' 'an I/O counted in the nearest second, not the one it completed in'
m core/measure/worker.c 'hist_add_n(&b->lat[io->op], lat, k);' 'hist_add_n(&b->lat[0], lat, k);' \
	'tests/errors.t' 'every latency goes into the read histogram'
m core/measure/worker.c 'b->busy_ns += lat * k;' 'b->busy_ns += lat * k / 2;' \
	'tests/errors.t' 'occupancy counts half of each I/O'
m core/measure/step.c 'r->sh.stop_on_error = s->on_error == ON_ERROR_FAIL;' 'r->sh.stop_on_error = false;' \
	'tests/errors.t' 'on_error="fail" does not stop the step at the first error'
# --- sampler (step.c): merging seconds, the window ----------------------------
m core/measure/step.c 'smp->ramp = sec < r->spec->wl.ramp;' 'smp->ramp = sec <= r->spec->wl.ramp;' \
	'tests/invariant.t' 'one second too many flagged ramp'
m core/measure/step.c 't->res.errors += smp->errors;' 't->res.errors += 0;' \
	'tests/errors.t' 'the step total leaves out the errors'
m core/measure/step.c 'smp->bytes[d] += b->bytes[d];' 'smp->bytes[d] += b->bytes[0];' \
	'tests/errors.t' 'a second takes every worker'"'"'s bytes from the read counter'
m core/measure/step.c 'if (smp->ramp)
		return;' 'if (0)
		return;' \
	'tests/invariant.t' 'ramp seconds added to the step totals'
# --- histogram -----------------------------------------------------------------
m core/base/hist.c 'v = (double)hist_bucket_low(i) + (double)(hist_bucket_width(i) - 1) / 2.0;' \
	'v = (double)hist_bucket_low(i) + (double)hist_bucket_width(i);' \
	'unit/hist' 'a percentile reports the top of its bucket, not its middle'
m core/base/hist.c 'if (src->max > dst->max)' 'if (src->max < dst->max)' \
	'unit/hist tests/invariant.t' 'merging keeps the smaller maximum'
m core/base/hist.c 'rank++;		/* ceil */' ';		/* ceil */' \
	'unit/hist' 'a percentile rank rounded down'
# --- generator -------------------------------------------------------------------
m core/measure/workload.c 'g->op_deck[i] = i < wl->write_pct ? HB_OP_WRITE : HB_OP_READ;' \
	'g->op_deck[i] = i <= wl->write_pct ? HB_OP_WRITE : HB_OP_READ;' \
	'unit/gen' 'one write too many in every 100 I/Os'
m core/measure/workload.c 's->lo = g->random ? 0 : seg * worker;' 's->lo = 0;' \
	'unit/gen' 'sequential workers all start at offset 0 (overlap)'
m core/measure/workload.h 'uint64_t slots = (s->hi - s->lo - len) / g->align + 1;' \
	'uint64_t slots = (s->hi - s->lo - len) / g->align;' \
	'unit/gen' 'random offsets never reach the last block'
# --- resume ----------------------------------------------------------------------
m core/store/resume.c 'if (!s || !s->done)' 'if (!s)' \
	'tests/resume.t' 'a step cut off by the kill counts as done on resume'
# --- guard -----------------------------------------------------------------------
m core/measure/guard.c 'if ((m = mounted(f, what, sizeof(what)))) {' \
	'if (0 && (m = mounted(f, what, sizeof(what)))) {' \
	'tests/guard.t' 'a mounted device is not refused'
m core/run/runner.c 'if (t->kind == TARGET_VIRTUAL || (!spec->wl.write_pct && !t->create))' \
	'if (t->kind == TARGET_VIRTUAL || !t->create)' \
	'tests/guard.t' 'an existing target that a step writes is not guarded'
# --- sim -------------------------------------------------------------------------
m plugins/engines/sim.c 'enc = gen <= 2 ? 8.0 / 10 : gen <= 5 ? 128.0 / 130 : 242.0 / 256;' \
	'enc = gen <= 3 ? 8.0 / 10 : gen <= 5 ? 128.0 / 130 : 242.0 / 256;' \
	'tests/sim.t' 'PCIe 3 links with the 8b/10b encoding of PCIe 1-2'
m plugins/engines/sim_model.h '	r = dmax(r, drive_op(st, parity, HB_OP_READ, doff, len, t));' \
	'' \
	'tests/sim.t' 'a RAID5 small write reads the old data but not the old parity (3 drive I/Os)'
# --- runner ------------------------------------------------------------------------
m core/run/runner.c 'status = rc == 0 ? "done" : rc == -EINTR ? "aborted" : "failed";' \
	'status = rc == 0 ? "done" : "failed";' \
	'tests/interrupt.t' 'an interrupted step recorded as failed, not aborted'

# --- io_uring options ---------------------------------------------------------------
m plugins/engines/io_uring.c 'if (!virt && hb_opt_int(s->opts, s->nopts, "registerfiles", 1)) {' \
	'if (!virt) {' \
	'tests/io_uring.t' 'registerfiles=false ignored: the files are registered anyway'

# --- buffers -------------------------------------------------------------------------
m core/measure/worker.c 'if (w->slot_len > (size_t)sysconf(_SC_PAGESIZE)) {' 'if (0) {' \
	'tests/buffers.t' 'large requests get buffers in 4 KiB pages (one segment per page)'
m core/measure/worker.c '			madvise(a, huge, MADV_HUGEPAGE);	/* advice: 4 KiB pages if refused */' '' \
	'tests/buffers.t' 'the aligned buffer is never advised for huge pages'

# --- database ------------------------------------------------------------------------
m core/store/open.c 'if ((rc & 0xff) != SQLITE_BUSY || waited >= db->busy_ms)' 'if (1)' \
	'tests/migrate.t' 'the switch to WAL gives up at once while another process writes'

# --- show and make bench's verdicts ------------------------------------------------
m core/cmd/show.c '	if (sqlite3_column_type(st, col) == SQLITE_NULL)' '	if (0)' \
	'tests/errors.t' 'show prints a latency never measured as 0.0'
m scripts/dev/bench-summary.sh '			f = val[at[b, k], col]' \
	'			f = val[at[b, 1], col]' \
	'tests/bench_summary.t' "a miss's rounds counted against fio's first round, not the same one"
m scripts/dev/bench-summary.sh 'miss("p50", p50, p50 <= 1.05, 3, 0, 1.05)' \
	'miss("p50", p50, p50 < 1.05, 3, 0, 1.05)' \
	'tests/bench_summary.t' 'a p50 of exactly 1.05x counted as a miss'

# --- RUN, the sampler, the scatter chart (session 10) ---------------------------------
m core/store/read.c '	if (id > 0) {' '	if (id > 0 && un == 0) {' \
	'tests/cli.t' 'a uuid prefix wins over a label that is also one'
m core/measure/step.c '			worker_news_wait(&r->sh, seen, until);' \
	'			(void)seen, (void)until; nanosleep(&(struct timespec){ 0, 10000000 }, NULL);' \
	'tests/sampler_off.t' 'the sampler polls every 10 ms again'
m core/measure/worker.c '		worker_news(w->sh);' '' \
	'tests/sampler_off.t' 'a worker that closes a second does not wake the sampler (it waits for its timeout)'
m reports/gnuplot/scatter.gp 'set xrange [0:*]' '' \
	'tests/report_gaps.t' 'a fill shorter than a second on a time axis from -1 to 1 s'

# --- interrupts during a drain (session 11) --------------------------------------
m core/base/stop.c '	if (hb_stop_requested) {' '	if (0) {' \
	'tests/interrupt.t' 'a second SIGINT ignored: the drain runs out its minute'
m core/measure/step.c '			drain_notice(r, &stop_seen);' '			(void)stop_seen;' \
	'tests/interrupt.t' 'a drain that lasts after SIGINT says nothing'

# --- the report's DIR (session 11) -------------------------------------------------
m core/cmd/report_dir.c '	if (!empty && (*foreign || !index)) {' '	if (!empty && !index) {' \
	'tests/report.t' 'a folder with an index.html among other files is replaced (deleted)'
m core/cmd/report.c '	chmod(tmp, 0777 & ~mask);' '' \
	'tests/report.t' 'the report folder keeps mkdtemp 0700'
m core/cmd/report_dir.c '	if (rc == 1 && by_default && o + 10 < len) {' '	if (0) {' \
	'tests/report.t' 'a default DIR of other runs (same label made safe) is replaced'

# --- export --out what is not a regular file (session 11) -------------------------
m core/cmd/export.c '		if (!S_ISREG(sb.st_mode)) {' \
	'		if (0) {' 'tests/export.t' 'a device or a pipe is replaced by a regular file'
m core/cmd/export.c '		if (fstat(STDOUT_FILENO, &so) == 0 && so.st_dev == sb.st_dev && so.st_ino == sb.st_ino)' \
	'		if (0)' 'tests/export.t' '--out /dev/stdout under >> rewrites the file stdout appends to'
m core/cmd/export.c '		if (!realpath(path, real)) {' '		if (0) {' \
	'tests/export.t' 'a symbolic link is replaced by a file, its target left old'
m core/cmd/export.c '		if (S_ISBLK(sb.st_mode) || S_ISDIR(sb.st_mode)) {' '		if (S_ISDIR(sb.st_mode)) {' \
	'tests/export.t' 'a block device is opened for writing'
m reports/review.lua 'line[#line + 1] = vals[i] and fmt.exact(vals[i]) or ""' \
	'line[#line + 1] = vals[i] and ("%.6g"):format(vals[i]) or ""' \
	'tests/report.t' 'summary.csv rounds to 6 digits (1.28297e+07)'
m reports/review.lua '    if st.status == "running" then' '    if false then' \
	'tests/report_gaps.t' 'a step killed mid-way (status running) shows none of its stored seconds'
m reports/review.lua '  local shared = (label_count[r.name] or 0) > 1' '  local shared = false' \
	'tests/report.t' 'two runs with one label read alike in every legend, column and delta'
m reports/gnuplot/bars.gp 'using 1:(NaN):xtic(wrap(strcol(3))) notitle' 'using 1:(NaN):xtic(3) notitle' \
	'tests/report_gaps.t' 'long step names under the bars unwrapped: neighbours run into each other'
m core/store/rows.c '	*len = n;' '	*len = 1;' \
	'tests/cli.t' 'list cuts a label inside a character: invalid UTF-8'
m core/cmd/merge.c '	created = created && failed == npos - 1 && db_count_runs(&out) == 0;	/* nor filled by another merge */' '	created = false;' \
	'tests/merge.t' 'a merge of nothing leaves an empty OUT.db behind'
m core/plan/sandbox.c '	if (access(own, R_OK) != 0)' '	if (1)' \
	'tests/plan_errors.t' 'require no longer finds a module beside the plan'
m reports/review.lua '  if any_imported then cells["Latency"] = latency_kind(i) end' '' \
	'tests/import.t' 'a report comparing fio clat with submit-to-completion latency says nothing'
m core/cmd/report_dir.c '	rc = judge_folder(tmp, dir, uuids);	/* tmp now holds what DIR held */' '	rc = 0;' \
	'tests/report.t' 'a folder made at DIR while the report is written is replaced (deleted)'
m core/cmd/report_dir.c '	if (!empty && !*foreign && index && !f &&' '	if (0 &&' \
	'tests/report.t' 'index.html and data/ of a web folder taken for an old report (deleted)'
m core/import/fio/import_fio_logs.c '		if (rate && imp_sample_insert(f->im, step_id, &s) < 0)' \
	'		if ((rate || any) && imp_sample_insert(f->im, step_id, &s) < 0)' \
	'tests/import.t' 'a fio second with only latency stored as a sample of 0 I/Os'
m core/cmd/export.c '		if (lstat(path, &sl) == 0 && S_ISLNK(sl.st_mode)) {' '		if (0) {' \
	'tests/export.t' 'export --out a link to nothing makes a file where the link pointed'
m reports/review.lua 'local function once(list, v) if v and not list[v] then' 'local function once(list, v) if v then' \
	'tests/import.t' 'a fio run whose steps all time clat reads clat; clat; ... in the Latency row'
m core/store/rows.c '			return 2;' '			return 1;' \
	'tests/cli.t tests/sql.t' 'a CJK character or emoji counted as one cell: the columns after it misalign'
m reports/format.lua '  local enc = gen <= 2 and 0.8 or gen <= 5 and 128 / 130 or 242 / 256' '  local enc = gen <= 2 and 0.8 or 128 / 130' \
	'tests/report_gaps.t' 'the report draws PCIe 6 at 128b/130b, above what the sim and the probe count'
m plugins/engines/sim.c '	if (strcmp(again, link))' '	if (0)' \
	'tests/sim.t' 'a sim link with trailing text or a space runs, and the report finds no ceiling'
m plugins/engines/sim.c '	if (!rc && st->c.layout == LAYOUT_JBOD && s->ntargets > st->c.ndrives) {' '	if (0) {' \
	'tests/sim.t' 'jbod with more targets than drives: a target silently shares a drive'
m core/cmd/probe.c '		} else if (argv[i][0] == ' '		} else if (0 && argv[i][0] == ' \
	'tests/probes.t' 'probe --bogus: probed as a target, exit 0'
m core/cmd/show.c '		size_t w = rows_column_width((const char *)sqlite3_column_text(st, 2));' '		size_t w = (size_t)sqlite3_column_bytes(st, 2);' \
	'tests/cli.t' 'show sizes the name column in bytes: a CJK name makes it too wide'
m core/store/open.c '		return !b || strcasecmp(b, "fts3_tokenizer");' '		return true;' \
	'tests/sql.t' 'sql lets fts3_tokenizer register a tokenizer by raw pointer'
m core/store/query.c '		((struct db_query *)ctx)->pragma_reads = true;' '		(void)ctx;' \
	'tests/sql.t' 'PRAGMA journal_mode (reading) refused as a write'
m core/cmd/sql.c '		if (!strcmp(p->name, "runs") && (p->value[0] == ' '		if (0 && (p->value[0] == ' \
	'tests/sql.t' 'runs=A,,B with an empty item compares fewer runs without a word'
m core/cmd/common.c '	if (!argv[i + 1][0]) {	/* --db "$DB" with DB unset */' '	if (0) {' \
	'tests/cli.t' 'run --db with an empty value writes into a temporary database and loses every result'
m core/store/open.c '	if (!strcmp(path, ":memory:")) {	/* from HBATEST_DB; --db refuses it */' '	if (0) {' \
	'tests/cli.t' 'HBATEST_DB=:memory: runs a plan into memory and loses it'
m core/base/stop.c '	signal(SIGXFSZ, SIG_IGN);' '	(void)0;' \
	'tests/faults.t' 'ulimit -f ends a run with SIGXFSZ: no message, the run left interrupted'
m core/measure/target.c '		done += w > 0 ? (size_t)w : 0;' '		return w == (ssize_t)(n - done) ? 0 : -EIO;' \
	'tests/faults.t' 'a short write while laying out a file is reported with a wrong reason'
m core/store/resume.c '	rc = take_run(db, r);' '	rc = take_run(db, r) || resume_adopt_plan(db, r);' \
	'tests/resume_params.t' 'a --force resume stores the new plan before the replay proves it: a failed one leaves the run claiming a plan it never ran'
m core/base/util.c '	return !(beat_age > 60 && age >= 0 && age < beat_age - 5);' '	return 1;' \
	'tests/faults.t' 'a pid reused by another process holds an interrupted run for ever, even against --force'
m core/store/read.c '	return alive == 0 ? "interrupted" : alive == 1 ? "running" : state;' '	return alive == 0 ? "interrupted" : state;' \
	'tests/faults.t' 'a live run with a heartbeat over a minute old reads interrupted'
m core/plan/api.c '		if (p->hooks->tick)	/* a sleep of minutes is not a dead run */' '		if (0)' \
	'tests/faults.t' 'hb.sleep lets the heartbeat go stale: a sleeping run reads interrupted'
m core/store/resume.c '		moved = cwd && !util_same_dir(cwd, here);' '		moved = false;' \
	'tests/resume.t' 'a resume from another folder lays out and measures a new file under the run'

# ---------------------------------------------------------------------------------
# --- fio import: logs, groups, windows (tests/import_fio_logs.t) ---------------
m core/import/fio/import_fio_logs.c '	if (ms == 1000)' \
	'	if (ms >= 0)' \
	'tests/import_fio_logs.t' 'fio logs written without log_avg_msec=1000 (a line per I/O, or 2 s means) taken as seconds'
m core/import/fio/fiolog.c '	} else if (t <= last[v[2]]) {' \
	'	} else if (0) {' \
	'tests/import_fio_logs.t' 'a fio log with two entries in one second summed into it'
m core/cmd/import.c '			if (!strcmp(dir, xdir)) {' \
	'			if (1) {' \
	'tests/import_fio_logs.t' 'a fio log taken by a JSON of another folder (runs of one job name mixed)'
m core/import/fio/import_fio_opts.c '		f->threads[i] = nj > 1 && nj < INT_MAX / 2 && same < nj ? (int)nj : 1;' \
	'		f->threads[i] = 1;' \
	'tests/import_fio_logs.t' 'group_reporting not told: oio iodepth, workers 1, logs .2-.4 of no job'
m core/cmd/import.c '	if (fio && import_fio_claims(&db, files, nfiles, extra, nextra, owner) < 0) {' \
	'	if (fio && import_fio_claims(&db, files, nfiles, extra, nextra, owner) < -1) {' \
	'tests/import_fio_logs.t' 'a refused fio log stops nothing: the JSON is imported without it'
m core/import/fio/import_fio_logs.c '		s->bytes[d] = s->ops[d] * (int64_t)j->bs_bytes;' \
	'		s->bytes[d] = 0;' \
	'tests/import_fio_logs.t' 'an IOPS log alone gives each second 0 bytes'
m core/import/fio/import_fio_logs.c '	j->lat_kind = j->log_of[want] ? (int)want : -1;' \
	'	j->lat_kind = j->log_of[FIOLOG_LAT] ? (int)FIOLOG_LAT : j->log_of[want] ? (int)want : -1;' \
	'tests/import_fio_logs.t' 'a clat step takes its seconds latency from the lat log'
m core/import/fio/import_fio.c '		j->s.window_s = ms / 1000;' \
	'		j->s.window_s = (double)lround(ms / 1000);' \
	'tests/import_fio_logs.t' 'fio window_s rounded to whole seconds: iops != ops / window_s'
m core/import/iometer/import_iometer.c '		s.window_s = secs, s.duration_s = secs < 1 ? 1 : (int)lround(secs);' \
	'		s.window_s = (double)lround(secs), s.duration_s = secs < 1 ? 1 : (int)lround(secs);' \
	'tests/import_fio_logs.t' 'Iometer window_s rounded: 7.5 s stored as 8'
m core/import/fio/import_fio_opts.c '	j->s.ramp_s = ramp > 0 && ramp < INT_MAX ? (int)ramp : 0;' \
	'	j->s.ramp_s = 0;' \
	'tests/import_fio_logs.t' 'fio ramp_time ignored: ramp_s 0'
m core/import/fio/import_fio_opts.c "	for (; **p && **p != ':'; (*p)++) {" \
	'	for (; **p; (*p)++) {' \
	'tests/import_fio_logs.t' 'fio filename a:b stored as one target'
m core/import/fio/import_fio_opts.c '	if (!errno && end != buf && !*end && v >= lo && v <= hi) {' \
	'	if (!errno) {' \
	'tests/import_fio_logs.t' 'fio iodepth=abc stored as oio 0'

m core/cmd/run.c '	if (!c.nsteps) {	/* a run of nothing would read "done"; --dry-run says so too */' '	if (0) {' \
	'tests/run_edges.t' 'a plan of no step runs and reads done'
m core/store/resume.c '			live = live < 0 ? sqlite3_column_int64(st, 0) : live;	/* not this one */' '			id = sqlite3_column_int64(st, 0);' \
	'tests/run_edges.t' 'resume without RUN picks a run that is still running and is refused'
m core/store/resume.c '		    (realpath(there ? there : stored, a) && realpath(plan, b) && !strcmp(a, b));' '		    0;' \
	'tests/run_edges.t' 'run ./plan.lua --resume finds no run of plan.lua'
m core/import/fio/import_fio_logs.c '	if (!iops && !bw)' '	if (0)' \
	'tests/run_edges.t' 'fio latency logs alone: every second dropped with a warning about partial intervals, exit 0'
m core/plan/plan.c '	if (sz && src[0] == LUA_SIGNATURE[0]) {	/* text only: bytecode could break the sandbox */' '	if (0) {' \
	'tests/run_edges.t' 'a compiled plan fails with Lua s message and no file name'
m core/import/fio/fiolog.c '	t = v[0] / 1000 - 1;' '	t = llround((double)v[0] / 1000.0) - 1;' \
	'tests/import_fio_logs.t' 'an entry a stall delayed past the half second collides with the next and the log is refused'

m core/store/write.c '	moved = db_side_files_release(db);' '	moved = false;' \
	'tests/faults.t' 'a moved database leaves its -wal, replayed onto the file put at its path'
m core/store/open.c '	if (sqlite3_wal_checkpoint_v2(db->h, "main", SQLITE_CHECKPOINT_TRUNCATE, &logged,' '	if (0 && sqlite3_wal_checkpoint_v2(db->h, "main", SQLITE_CHECKPOINT_TRUNCATE, &logged,' \
	'tests/faults.t' 'a moved database keeps only the seconds checkpointed before the move'
m core/store/open.c '	       (unsigned long long)sb->st_ino == db->side_ino[i];' '	       1;' \
	'tests/faults.t' 'the -wal and -shm of another database at the path removed'
m core/plan/api.c '		return lua_istable(L, 2) ? set_list(L, key, v) : set_convert(L, 2, key, v);' '		return set_convert(L, 2, key, v);' \
	'tests/plan_errors.t' 'hb.set with a list default returns the string'

m core/measure/target_id.c '			return a->rdev == b->rdev;	/* two nodes of one device */' '			return a->ino == b->ino;' \
	'tests/guard.t' 'two nodes of one block device taken as two targets'
m core/measure/target_id.c '	if (a->exists && b->exists) {' '	if (0) {' \
	'tests/guard.t' 'a hard link to a target taken as another target'
m core/measure/target.c '	return target_id_same(&ia, &ib);' '	return !strcmp(a, b) || (ia.exists && ib.exists && target_id_same(&ia, &ib));' \
	'tests/guard.t' 'a file to create given as a.dat and ./a.dat: laid out once, measured as two'

m core/plan/sandbox.c '	guard_protect(path, "a module the plan loads");' '' \
	'tests/guard.t' 'a write step overwrites a module the plan loaded from its folder'

m core/store/open.c '	if (waited >= DB_BUSY_SAY_MS && db->busy_said != db->busy_since) {' '	if (0) {' \
	'tests/faults.t' 'a run waits up to a minute on a lock another process holds, in silence'
m core/store/resume.c '		moved = cwd && !util_same_dir(cwd, here);' '		moved = false;' \
	'tests/resume.t' 'a resume from another folder measures its file of the same name under the run'
m core/store/write.c '		sqlite3_bind_text(st, 16, cwd, -1, SQLITE_TRANSIENT);' '		;' \
	'tests/resume.t' 'the folder a run started in is not stored'

m reports/compare.lua '  local w = compare.workload(s)' '  local w = ""' \
	'tests/report_gaps.t' 'steps of one name pair by order whatever their OIO: OIO 4 compared with OIO 256'
m reports/review.lua '        local tied = best and compare.ties(vals[i], vals[best])' '        local tied = best == i' \
	'tests/report_gaps.t' 'a tie for the best value stars only the first run'
m reports/review.lua '  local left = r.steps_planned and r.steps_planned - #steps[i] or 0' '  local left = 0' \
	'tests/report_gaps.t' 'steps no run reached vanish from a report without a word'
m reports/review.lua '  if r.state == "running" then' '  if false then' \
	'tests/report_gaps.t' 'a run still running reads as stopped where it stopped, its step with no error text recorded'
m core/report/report_chart.c 'rows > 1 ? 5.0 + 1.5 * rows : 7.0);' '7.0);' \
	'tests/report_gaps.t' 'a key of many rows is drawn over the x label'
m reports/review.lua '  return cut(base, 60 - #tag - #sim) .. tag .. sim' '  return base .. tag .. sim' \
	'tests/report_gaps.t' 'a label too long for the chart drops its whole key'
m reports/charts.lua 'columns = cols, series = series, key_entries = 2,' 'columns = cols, series = series,' \
	'tests/report_gaps.t' 'the latency key (two lines a run) is given the margin of one'

m reports/review.lua 'charts.sweeps("bs", "Block-size sweeps", "block size (KiB)", true)' '' \
	'tests/report_gaps.t' 'a block-size sweep gets no chart and no word'

m reports/review.lua '  local rel = r.plan_path and r.cwd and r.plan_path:sub(1, 1) ~= "/"' '  local rel = false' \
	'tests/report_gaps.t' 'a plan given relative reads in the test bed without the folder it was in'

m reports/gnuplot/scatter.gp 'plot datafile using 1:(column(4) == 0 ? avg_value : 1/0) with lines' 'plot avg_value with lines' \
	'tests/report_gaps.t' 'the average line of a scatter is drawn across the ramp it leaves out'
m reports/review.lua '  if #arrays > 0 then cells["Simulated array"] = table.concat(arrays, "; ") end' '' \
	'tests/report_gaps.t' 'the test bed of a simulated run names no RAID level, drives or strip'

m core/base/log.c '	console(level, msg, pthread_equal(pthread_self(), main_thread));' '	hb_log(level, "%s", msg);' \
	'tests/faults.t' 'the busy handler stores its warning as an event: re-enters the connection, restarts the wait, says it every 2 s'

m reports/review.lua '  if title_count[r.series_title] > 1 then' '  if false then' \
	'tests/report_gaps.t' 'labels alike in their first 60 characters give keys alike'
m core/store/resume.c '		if (cwd && access(cwd, F_OK) != 0)' '		if (0)' \
	'tests/resume.t' 'a run whose folder was renamed can never be resumed'

m core/store/resume.c '	if (there && access(there, F_OK) == 0)' '	if (0)' \
	'tests/resume.t' 'a resume from another folder cannot find a plan stored as a relative path'

m scripts/dev/bench-summary.sh '(med - 1) * 100, (r[1] - 1) * 100,' \
	'(median(a, n) / median(b, n) - 1) * 100, (r[1] - 1) * 100,' \
	'tests/bench_summary.t' 'the sampler cost as the ratio of the two medians, not paired round by round'

m core/cmd/show.c '		if (status && !strcmp(status, "running") && strcmp(run_state, "running"))' '		if (0)' \
	'tests/faults.t' 'show calls a step running after its run was killed or its disk filled'

m core/import/fio/import_fio_opts.c '		known = (int64_t)(size / count);' '		known = (int64_t)size;' \
	'tests/import_fio_logs.t' 'fio import: size= stored whole on each file of filename=a:b'

m core/cmd/main.c '	for (int k = 1; k < i && i < argc; k++) {' '	for (int k = 1; k < 0; k++) {' \
	'tests/cli.t' 'options before the command (hbatest --db x.db run) taken for an unknown command'

m reports/gnuplot/sweep_lat.gp '{ set yrange [lo125(ylo):hi125(yhi)] }' '{ }' \
	'tests/report_axes.t' 'a log latency axis autoscaled to whole decades around its points'

m reports/charts.lua '        row[7] = l.first + (n - 1) / 2' '        row[7] = l.first' \
	'tests/report_axes.t' 'a ceiling shared by two runs labelled over the first bar, not between them'

m reports/charts.lua '        if #row[5] > width then' '        if false then' \
	'tests/report_axes.t' 'a ceiling label wider than its bars kept long'

m core/report/report_chart.c '	return sqrt(fmin(' '	return (fmax(' \
	'tests/report_axes.t' 'chart fonts not following --size as the square root of its scale'

m core/cmd/export.c '	if (a.out && out_is_db(a.out, cli_db_path()))' '	if (0)' \
	'tests/export.t' 'export --out the database itself replaces every run with CSV'

m core/store/read.c '"lower(substr(uuid, 1, length(?1))) = lower(?1) AND id != ?2 "' '"uuid LIKE ?1 || (char(37)) AND id != ?2 "' \
	'tests/cli.t' 'a RUN with _ or % matched as a LIKE pattern against the uuids'

m reports/charts.lua 'charts.left_out(series, true)	-- before the chart: no empty slot' '""' \
	'tests/report_axes.t' 'per-target bars keep an empty slot for a run without points'

m reports/compare.lua '  return class == "noise"' '  return v == best' \
	'tests/report.t' 'the best mark given to one of two runs 1 % apart, a difference the deltas call noise'

m reports/review.lua ':gsub("^[-+](0%.0 %%)$", "%1")' '' \
	'tests/report.t' 'a delta that rounds to zero printed as -0.0 %'

m reports/review.lua '"#332288", "#999933", "#882255", "#661100" }' '"#000000", "#999933" }' \
	'tests/report_axes.t' 'run 7 drawn black as the average lines, run 9 in run 1s colour'

m core/run/runner.c 'rc = resume_check_end(&c->db, &c->rs, c->seq, err, sizeof(err));' 'rc = 0;' \
	'tests/resume_params.t' 'a resume with --force whose plan drops a done step ends done under the new plan'

m core/store/resume.c '"seq > ?2 ORDER BY seq) SELECT' '"seq > ?2 AND status LIKE (char(100) || char(37)) ORDER BY seq) SELECT' \
	'tests/resume_params.t' 'a resume with --force whose plan drops an aborted step ends done with it'

m reports/charts.lua '        local function pct(x) return (ss.mean or 0) ~= 0 and (x or 0) / ss.mean * 100 or 0 end' '        local function pct(x) return x or 0 end' \
	'tests/report.t' 'the steady-state caption gives excursions in IOPS against limits in % of the mean'

m core/store/open.c 'if (db_wal_bytes(path) <= DB_WAL_HEADER_BYTES)' 'if (1)' \
	'tests/readonly_db.t' 'a -wal with frames on a read-only mount is skipped: rows silently lost'

m reports/review.lua 'cells["Targets"] = target_list(r, #arrays > 1)' 'cells["Targets"] = target_list(r, false)' \
	'tests/report_axes.t' 'a virtual target of a run on two arrays shown with its first steps size for both'

m reports/review.lua 'data and cap and (": a " .. fmt.bytes(data * cap) .. " volume") or ""' '""' \
	'tests/report_axes.t' 'the test bed gives no volume size for each simulated array'

m reports/charts.lua '(x.secs or 1) < FRAGMENT_S and' '(x.secs or 1) < 0 and' \
	'tests/report_axes.t' 'a scatter draws the rate of a last 9 ms as a second'

m reports/charts.lua '  return longest + 1 > width and 1 or 0' '  return 0' \
	'tests/report_axes.t' 'bar values of 11 runs printed level, over each other'

m core/store/merge.c 'm->later[0] = merge_later_stmt(m, true);' 'm->later[0] = merge_later_stmt(m, false);' \
	'tests/merge_resume.t' 'merge checks the wrong direction: a resumed run never brought forward, an older input replacing the archive copy'

m core/store/merge_later.c '(SELECT %s, row_number() OVER (PARTITION BY %s) FROM "' '(SELECT %s, 1 + 0 * row_number() OVER (PARTITION BY %s) FROM "' \
	'tests/merge_resume.t' 'merge compares a runs rows as sets: an event twice in the archive, once in the input, brought forward and lost'

m reports/charts.lua '  return (small and 150 or 120) * (w / 1280) / math.sqrt(math.min(w / 1280, h / 720))' '  return small and 150 or 120' \
	'tests/report_axes.t' 'bar label widths judged at 1280x720 whatever --size'

m core/cmd/export.c '	target_canon(db, real, sizeof(real));' '	snprintf(real, sizeof(real), "%s", db);' \
	'tests/export.t' 'export --out the journal beside the file a linked --db names'

m reports/charts.lua '  if lo and lo == hi then return lo * 0.9, hi * 1.1 end' '' \
	'tests/report_axes.t' 'a log axis of one latency on a tic collapses to that tic'

m core/report/report_chart.c '"hi125(v) = (m125 = v * 1.0 / dec125(v),' '"hi125(v) = (m125 = v / dec125(v),' \
	'tests/report_axes.t' 'an integer latency divides as an integer: the axis ends below its highest point'

m core/store/read.c '"lower(substr(uuid, 1, length(?1))) = lower(?1)' '"substr(uuid, 1, length(?1)) = lower(?1)' \
	'tests/cli.t' 'a uuid stored in capitals not found by its prefix'

m core/cmd/import.c '		    (why = k->refuse(buf, n, n == IMPORT_HEAD, &line)))' '		    (why = NULL))' \
	'tests/import.t' 'a file that is not Iometer output is read whole before its first line is checked'

m core/import/iometer/import_iometer.c '	if (m->open && (rc = iom_check_whole(m, m->c.l[m->c.n - 1].line + 1)) < 0)' '	if (0 && (rc = iom_check_whole(m, m->c.l[m->c.n - 1].line + 1)) < 0)' \
	'tests/import.t' 'a truncated 2006 Iometer file imported as done'

m core/import/fio/import_fio.c '		if (k < 2 && (rc = fio_count(f, path, who, 0, v[k], NULL)) < 0)' '		if (0 && (rc = fio_count(f, path, who, 0, v[k], NULL)) < 0)' \
	'tests/import_fio_logs.t' 'fio io_bytes of 2^70 stored as NULL'

m reports/steps.lua 's.kind or "", s.rw or "", s.bs or "",' 's.kind or "", s.bs or "", s.rw or "",' \
	'tests/report_axes.t' 'the steps table shows a steps block size under rw'

m core/store/write.c '	if (!(rc = steady_forget(db, run_id, r)))' '	if (!(rc = 0))' \
	'tests/resume_params.t' 'a resume that replays an hb.steady records its outcome twice'

m core/cmd/common.c '	return i + 1 < argc - hoisted;' '	return i + 1 < argc;' \
	'tests/cli.t' 'an option left last takes a common option moved from before the command as its value'

m core/measure/worker.c '		if ((uint64_t)sec < w->wl->ramp)' '		if (0)' \
	'tests/errors.t' 'an I/O error warning counts the ramp errors as the steps own'

m core/store/write.c '	if (t->window_s > 0 || s->kind == STEP_EXEC) {' '	if (1) {' \
	'tests/iopath.t' 'a step with no window stores 0 IOPS and MB/s'

m core/measure/worker.c '	b->busy_ns += lat * k;	/* a failed I/O was in flight too */' '	b->busy_ns += failed ? 0 : lat * k;' \
	'tests/errors.t' 'occupancy leaves out the failed I/Os in flight'

m core/run/runner.c '	if (!(t->ops[0] + t->ops[1])) {	/* no latency measured: none to print (show: -) */' '	if (0) {' \
	'tests/errors.t' 'a step with no I/O completed logs a latency of 0.0 us'

m core/measure/worker.c 'w->ios + k != io || !w->flying[k], 0)) {' 'w->ios + k != io, 0)) {' \
	'tests/engine_contract.t' 'a request an engine returns twice is counted twice'

m core/measure/loader.c 'if (d->struct_size < offsetof(struct hb_plugin, options) + sizeof(d->options)) {' 'if (d->struct_size < offsetof(struct hb_plugin, options)) {' \
	'unit/plugin_abi' 'a descriptor that ends before its options is loaded and read past'

m core/measure/loader.c '	if (d->kind == HB_PLUGIN_ENGINE && step_key_builtin(name)) {' '	if (0) {' \
	'unit/plugin_abi' 'a plugin named as a step key takes over every plan that uses that key'

m core/measure/probe.c 'if (!key || !*key) {' 'if (0) {' \
	'tests/probes.t' 'a probe fact without a name crashes hbatest probe and every run'

m core/measure/loader.c 'msg[sizeof(msg) - 1] = ' 'msg[sizeof(msg) - 1] |= ' \
	'unit/plugin_abi' 'a check() message without its NUL is read past its buffer'

m core/measure/loader.c 'if (first >= plugins + from)' 'if (0)' \
	'tests/cli.t' 'two plugins of one name in one folder: the file name order decides, silently'

m plugins/probes/pcie.c 'hb_block_pathdir(root, disk, dir, sizeof(dir));' 'snprintf(dir, sizeof(dir), "%s", disk);' \
	'tests/probes.t' 'an NVMe multipath head gets no pcie facts (no link ceiling, no downtrained warning)'

m plugins/probes/block.c '|| errno || sectors > ULLONG_MAX / 512)' '|| errno)' \
	'tests/probes.t' 'a disk size past 2^64 bytes wraps (to 0) in the block probe'

m plugins/probes/block.c '	block_partition(root, target, emit, ctx);' '	(void)block_partition;' \
	'tests/probes.t' 'a partition target stored with its disk size and nothing of the partition'

m scripts/hbatest.lua 'if t.stop ~= nil and type(t.stop) ~= "function" then' 'if false then' \
	'tests/plan_errors.t' 'hb.sweep takes a stop that is not a function until the real pass calls it'

m scripts/hbatest.lua 'if v ~= nil and (type(v) ~= "number" or not (v > 0 and v <= 1)) then' 'if false then' \
	'tests/plan_errors.t' 'hb.steady takes excursion limits of any type and size (20 for 20 %)'

m core/plan/step_targets.c '	if (!cli)' '	if (1)' \
	'tests/plan_api.t' '--target ignored by steps that take their targets from the plan defaults'

m core/plan/api.c '!(lua_tonumber(L, -1) >= 0 && lua_tonumber(L, -1) <= 1e9)' '!(lua_tonumber(L, -1) <= 1e9)' \
	'tests/plan_errors.t' 'hb.exec takes a negative estimate, which wraps the plans time estimate'

m core/plan/step_table.c 'if (!lua_isinteger(L, -2) || lua_tointeger(L, -2) < 1 ||' 'if (0 && (!lua_isinteger(L, -2) || lua_tointeger(L, -2) < 1) ||' \
	'tests/plan_errors.t' 'tags with named keys stored as an empty list, the tags lost'

m core/plan/step_table.c 'const char *type = luaL_typename(L, -1), *text = NULL;' 'const char *type = luaL_typename(L, -2), *text = NULL;' \
	'tests/plan_errors.t' 'a step key that is not a name reported with the type of another value'

m core/plan/step_table.c 'return bad(k, p->desc->name, "a table of that plugin' 'if (0) return bad(k, p->desc->name, "a table of that plugin' \
	'tests/plan_errors.t' 'a key named after another plugin that is not a table is dropped'

m core/measure/step_spec.c '	if (s->wl.range <= t->size)' '	if (1)' \
	'tests/plan_errors.t' 'a range past the targets end cut to it without a word'

m core/plan/step_table.c 'if (wl->bs[i].size == wl->bs[i - 1].size) {' 'if (0) {' \
	'tests/plan_errors.t' 'a bs mix that names one size twice accepted'

m core/plan/api.c 'if (strcmp(k, "defaults") && lua_type(L, -1) != LUA_TSTRING)' 'if (0)' \
	'tests/plan_errors.t' 'hb.plan drops a name or description that is not a string'

m scripts/hbatest.lua 'if step.passes == 0 then' 'if false then' \
	'tests/plan_errors.t' 'hb.precondition with passes = 0 runs a timed sequential write'

m core/plan/step_table.c 't == LUA_TSTRING ? ", not a string' '0 ? ", not a string' \
	'tests/plan_errors.t' 'a number key given a string says only that it wants a whole number'

m core/plan/limits.c '	if (line <= 0)' '	if (1)' \
	'tests/plan_errors.t' 'an error raised in Lua in a module names the modules line only, not the plans'

m scripts/review.lua '  if s.passes ~= 0 then' '  if true then' \
	'tests/plan_errors.t' 'raid5 --set passes=0 refused instead of leaving the fill out'

m core/plan/step_table.c '		if (p == engine || (p->desc->kind == HB_PLUGIN_PROBE &&' '		if (p == engine || (0 &&' \
	'tests/errors.t' 'a probe named as a step key takes that key from every step'

m core/plan/step_table.c 'if (lua_rawgeti(L, -1, 1) == LUA_TSTRING) {' 'if (lua_rawgeti(L, -1, 1) == -1) {' \
	'tests/plan_errors.t' 'bs as a list of sizes says weight of 1 must be a whole number'

m scripts/hbatest.lua 'if t.name ~= nil and type(t.name) ~= "string" then' 'if false then' \
	'tests/plan_errors.t' 'hb.steady with a name that is not a string blames group'

m plugins/engines/io_uring.c '	{ "submit_batch", HB_OPT_INT, "4",' '	{ "submit_batch", HB_OPT_INT, "16",' \
	'tests/submit.t' 'submit_batch defaults to 16 (slower at QD32 and QD128 than 4)'

m plugins/engines/sim_model.h '	dr->fresh *= st->decay;' '	(void)st;' \
	'tests/sim.t' 'the drives never leave their fresh write rate: no decline'

m plugins/engines/sim_model.h '	if (wear != st->decay_wear) {' '	if (!st->decay_wear) {' \
	'tests/sim.t' 'a wear of another size (another k) decays by the first size factor'

m plugins/engines/io_uring.c '	{ "submit_batch", HB_OPT_INT, "4",' '	{ "submit_batch", HB_OPT_INT, NULL,' \
	'tests/submit.t' 'the default submit_batch is not in params_json (the engine applies it unseen)'

m scripts/dev/bench-summary.sh '			while (cum <= 0.025 && j < n) {' '			while (cum <= 0.25 && j < n) {' \
	'tests/bench_summary.t' 'the median'"'"'s interval from rounds too close to the middle (a 50 % interval called 95 %)'

m scripts/dev/bench-summary.sh '			verdict = med > 0.99 && med < 1.01 ? "met" : "missed"' \
	'			verdict = med < 1.01 ? "met" : "missed"' \
	'tests/bench_summary.t' 'a sampler run 2 % faster without it met the 1 % target'

m scripts/dev/bench-summary.sh '			else if (verdict == "missed" && r[j] <= 1 && r[n + 1 - j] >= 1)' \
	'			else if (verdict == "missed")' \
	'tests/bench_summary.t' 'a miss whose interval is all below 0 called not told apart from no cost'

m core/measure/step.c '		if (t->kind == TARGET_FILE && wl->write_pct < 100)' '		if (t->kind == TARGET_FILE)' \
	'tests/unwritten.t' 'a write-only step on a file of holes warned about reads it never makes'

m core/measure/step.c '	if (none && none >= range / 100)' '	if (none)' \
	'tests/unwritten.t' 'a hole of 0.8 % of the range warned about as if the step read the page cache'

m core/measure/step.c '			warn_unwritten(r->spec, t->path, rc, workload_span(wl, i));' \
	'			warn_unwritten(r->spec, t->path, rc, t->size);' \
	'tests/unwritten.t' 'the holes counted over the whole file, not the range the step reads'

m core/measure/target.c '			return errno == ENXIO ? size - data : 0;' '			return 0;' \
	'tests/unwritten.t' 'no data past an offset (ENXIO) taken as the file system not telling: holes unsaid'

m core/measure/worker.c '	unsigned off = 0, end = w->sh->engine_clock || *n < SUBMIT_SLICE ? *n : SUBMIT_SLICE;' \
	'	unsigned off = 0, end = *n;' \
	'tests/submit.t' 'a worker 4,096 deep offers every request before it reaps one'

m scripts/dev/bench-summary.sh '			else if (verdict == "met" && (r[j] <= 0.99 || r[n + 1 - j] >= 1.01))' \
	'			else if (0)' \
	'tests/bench_summary.t' 'a sampler figure met by its median alone, the interval of -2 % to +2 % unsaid'

# --- issue 32: the door (plans, --label) and the review suite ----------------------
m core/plan/plan.c '	if (nul) {' '	if (0) {' \
	'tests/plan_errors.t' 'a NUL byte in a plan name passes, cutting the name short'
m core/plan/plan.c '	if (bad < n) {' '	if (0) {' \
	'tests/plan_errors.t' 'a group or step name that is not UTF-8 passes (every SVG of its report broke)'
m core/cmd/run.c '			if (bad < n) {' '			if (0) {' \
	'tests/plan_errors.t' 'a --label that is not UTF-8 is stored'
m scripts/review.lua '  return math.max(#hb.targets, 1)' '  return #hb.targets' \
	'tests/plans.t' 'the review suite with no target dies dividing by 0, not with "no target"'

m core/measure/guard.c '	if (!rc && kind != TARGET_BLOCK)
		rc = check_backs_loop(path, err, len);' '	if (0)
		rc = check_backs_loop(path, err, len);' \
	'tests/guard_resolve.t' 'a file that backs a mounted loop device (a disk image) written'

# --- issue 32: guard (where a target leads; pseudo file systems) ---------------
m core/measure/target_id.c '	if (lstat(full, &st) < 0 || !S_ISLNK(st.st_mode)) {' '	if (1) {' \
	'tests/guard_resolve.t' 'a dangling link to the database -wal judged by its own name: the run corrupts the database'
m core/measure/guard.c '	if (!*p->suffix || target_id_of(p->path, &db) < 0)' '	if (1)' \
	'tests/guard_resolve.t' 'a linked --db: its journals looked for beside the link, not beside the file SQLite writes them to'
m core/measure/guard.c '	n = target_backing_of(path, id.rdev, probe_root(), b, BACKING_MAX);' '	n = 0;' \
	'tests/guard_resolve.t' 'a loop device backed by the database written with --destroy-data'
m core/measure/target_id.c '			walk_add(&w, out[n].id.rdev);	/* a loop on a block device */' '			(void)0;' \
	'tests/guard_resolve.t' 'a loop device on a loop device backed by the database written'
m core/measure/target_id.c '	if (access(file, F_OK) == 0) {' '	if (0) {' \
	'tests/guard_resolve.t' 'a partition of a loop device judged without its disk (backed by a file in the tree)'
m core/measure/target.c '	if (!(fs = target_pseudo_fs(path)))' '	if ((fs = target_pseudo_fs(path)) || 1)' \
	'tests/guard_resolve.t' 'a sysfs or procfs file accepted as a target, read or write'
m core/measure/target_id.c '			return pseudo[i].name;' '			break;' \
	'tests/guard_resolve.t' 'a pseudo file system known only by where it is usually mounted (/sys, /proc)'

# --- issue 32: fio and hbatest importers ----------------------------------------
m core/import/fio/import_fio.c '		if (isfinite(*out))' '		if (1)' \
	'tests/import_hostile.t' 'fio: a number past a double'"'"'s range (iops 1e400) stored as infinity'
m core/import/hbatest/import_hbatest.c '	if (!strcmp(type, "real") && !isfinite(sqlite3_value_double(v)))' '	if (0)' \
	'tests/import_hostile.t' 'import hbatest: an export'"'"'s 1e999 stored as infinity'
m core/import/hbatest/import_hbatest.c '	if (want == '"'"'i'"'"' && !strcmp(type, "integer") && sqlite3_value_type(v) != SQLITE_INTEGER)' \
	'	if (0)' 'tests/import_hostile.t' 'import hbatest: an INTEGER column past 64 bits stored as a real'
m core/import/hbatest/import_hbatest.c '		if (strcmp(axis, counted[k].axis))' '		if (1)' \
	'tests/import_hostile.t' 'import hbatest: an OIO sweep'"'"'s axis_value that is not a number'
m core/import/fio/fiolog.c '	if (!fit->io[d])' '	if (0)' \
	'tests/import_hostile.t' 'fio: a write log on a read job stored as writes'
m core/import/fio/fiolog.c '	    v[0] > fit->end_ms + FIOLOG_END_SLACK_MS)' '	    0)' \
	'tests/import_hostile.t' 'fio: log entries after the job'"'"'s end add seconds'
m core/import/fio/import_fio_logs.c '			if (!s->n[k][d] == !s->n[other][d] || ios <= depth)' '			if (1)' \
	'tests/import_hostile.t' 'fio: an IOPS log with a gap beside its bandwidth log (a second of 0 I/Os and its bytes)'
m core/import/fio/import_fio_logs.c '	if (got > want * 1.01 + n * unit)' '	if (0)' \
	'tests/import_hostile.t' 'fio: a log of more I/Os than the JSON'"'"'s total'
m core/import/fio/import_fio_logs.c '	if (reach >= want)' '	if (1)' \
	'tests/import_hostile.t' 'fio: a log of far fewer I/Os than the JSON'"'"'s (another run, a direction taken out)'
m core/import/fio/import_fio_logs.c '		if (nth[k] && nth[k] < (unsigned)f->threads[i])' '		if (0)' \
	'tests/import_fio_logs.t' 'fio: a grouped job'"'"'s seconds from 3 of its 4 threads'"'"' logs'
m core/import/fio/fiolog.c '	if (!isnan(fit->lat_min[d]) && ((double)v[1] < fit->lat_min[d] ||' \
	'	if (0 && ((double)v[1] < fit->lat_min[d] ||' \
	'tests/import_hostile.t' 'fio: a latency log outside the JSON'"'"'s range'
m core/import/import.c '	size_t n = im->len - base, at = utf8_invalid_at(im->text + base, n);' \
	'	size_t n = im->len - base, at = n;' \
	'tests/import_hostile.t' 'import fio, hbatest: JSON text that is not UTF-8 stored'
m core/import/import.c '		return off == e ? 0 : imp_json_fault(im, base, *end, off, what);' '		return 0;' \
	'tests/import_hostile.t' 'import fio, hbatest: a \u0000 cuts a name'
m core/cmd/import.c '	size_t n = strlen(label), at = utf8_invalid_at(label, n);' '	size_t n = strlen(label), at = n;' \
	'tests/import_hostile.t' 'import --label that is not UTF-8 stored'

m core/base/csvlines.h '	if (k >= l->nf)
		return "";' '	if (0)
		return "";' \
	'tests/fuzz_smoke.t' 'a short Iometer PROCESSOR row read past its end (a segfault found by the fuzz target)'

# --- issue 32: report (templates are data, text as UTF-8, values a database holds) ---
m core/report/report_chart.c '		if ((why = gnuplot_reserved(k))) {' '		if (0 && (why = gnuplot_reserved(k))) {' \
	'tests/report_template.t' 'args may redefine datafile: a template'"'"'s "< touch marker" runs'
m core/report/report_chart.c '	if (gnuplot_check_template(body, *n, why, sizeof(why)) < 0) {' '	if (0) {' \
	'tests/report_template.t' 'a gnuplot template beside a report program is not checked: its system() runs'
m core/report/gnuplot_check.c '	if ((functions && e > k && has_dummy(c, k, e)) || numeric_only(c, k, e))' \
	'	if (e >= k || numeric_only(c, k, e))' \
	'unit/gnuplot_check tests/report_template.t' 'any plot source passes: plot "< cmd" runs the command'
m core/report/gnuplot_check.c '		if (is_word(c, k, "system"))' '		if (0)' \
	'unit/gnuplot_check' 'system() inside an expression (v = system(...)) passes'
m core/report/report_chart.c "	add_text(b, s, n, '\\'', \"''\");" '	add_text(b, s, n, 0, NULL);' \
	'tests/report_template.t' 'a quote in a label ends its gnuplot string: the rest runs as commands'
m core/report/report_chart.c '		if (!format_number(L, idx, num, sizeof(num)))' '		if (0)' \
	'tests/report_template.t' 'an args value of Inf written as inf, a name gnuplot does not know'
m core/report/report.c '			report_push_utf8(L, v[c].s, v[c].len);' '			lua_pushlstring(L, v[c].s, v[c].len);' \
	'tests/report_text.t' 'text from the database shown as it is: the page is no UTF-8'
m core/report/report_chart.c '		if (!len || report_nonchar(p + i, len)) {' '		if (report_nonchar(p + i, len)) {' \
	'tests/report_text.t' 'a byte that is not UTF-8 in a chart'"'"'s text written as it is: its SVG is no XML'
m core/report/report.c '			if (!isfinite(v[c].d)) {' '			if (0) {' \
	'tests/report_values.t' 'Inf from the database read as a number, unsaid'
m core/store/report.c '		decl[c] = decl_affinity(sqlite3_column_decltype(st, c));' '		decl[c] = DB_NULL;' \
	'tests/report_values.t' 'text in a column of numbers read as text, unsaid'
m reports/review.lua '  if CHARTED[st.axis] and not compare.axis_x(st.axis, st.axis_value) then' '  if false then' \
	'tests/report_values.t' 'a step whose OIO is no number stays on the sweep: the report dies comparing nil'
m reports/hist.lua "       json_each(CASE WHEN json_valid(h.counts) AND json_type(h.counts) = 'array'" \
	"       json_each(CASE WHEN 1 OR json_valid(h.counts) AND json_type(h.counts) = 'array'" \
	'tests/report_values.t' 'a histogram that is not JSON fails the whole report (malformed JSON)'

# --- issue 32: database (db): FIFOs, a full file system, sql refusals ----------
m core/store/fs.c '	if (S_ISREG(sb.st_mode))
		return 0;' '	if (1)
		return 0;' \
	'tests/db_hostile.t' 'a FIFO given as --db or a merge input is opened (and blocks)'
m core/store/query.c '	if (!S_ISREG(sb.st_mode))
		goto not_regular;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);' \
	'	fd = open(path, O_RDONLY | O_NOCTTY | O_CLOEXEC);' \
	'tests/db_hostile.t' 'a saved query opened as any file: a FIFO blocks sql --list and sql NAME'
m core/store/fs.c '	vfs->xSetSystemCall(vfs, "mmap", (sqlite3_syscall_ptr)shm_mmap);' '' \
	'tests/fullfs.t' 'the -shm mapped with holes: SIGBUS on a full file system with 1 KiB blocks'
m core/store/open.c '	if (v < 0 && db_full(db->h)) {' '	if (0) {' \
	'tests/fullfs.t' 'a read on a full file system fails instead of reading without a -shm'
m core/store/query.c '	if (action == SQLITE_READ && pragma_table_acts(q, a)) {' '	if (0) {' \
	'tests/sql.t' 'pragma_optimize read as a table: refused only once it runs, after the header'
m core/store/open.c '(strcasecmp(b, "fts3_tokenizer") && strcasecmp(b, "load_extension"))' \
	'strcasecmp(b, "fts3_tokenizer")' \
	'tests/sql.t' 'load_extension() refused by SQLite as it runs (exit 1, after the header)'
m core/store/query.c '	if (q->denied[0] && !(named && q->denied_internal))' '	if (q->denied[0])' \
	'tests/sql.t' 'ANALYZE refused as the CREATE of sqlite_stat1'
m core/cmd/sql.c '	db_query_stop_when(&q, query_stopped, NULL);' '' \
	'tests/sql.t' 'a signal or a closed pipe does not stop a query: its -wal and -shm are left'

# (one function, read whole before it runs: editing this file during a run is safe)

# --- issue 32: Iometer import (items 6, 12, 13, 17, 3)
m core/import/iometer/import_iometer_names.c '	return h;' '	return 0;' \
	'unit/import_iometer' 'every Iometer name hashes alike: each lookup walks them all (the quadratic import)'
m core/import/iometer/import_iometer.c '	if (rc)
		return rc < 0 ? rc : 0;' '	if (rc < 0)
		return rc;' \
	'tests/import_iometer.t' 'an Iometer name recorded as a probe once per row, not once per run'
m core/import/iometer/import_iometer.c '	size_t tl = target ? strlen(target) + 1 : 0,' '	size_t tl = 0,' \
	'tests/import_iometer.t' 'Iometer probes of different disks taken for one (the key without its target)'
m core/import/iometer/import_iometer_inst.c '(in->b[in->next].test == test && in->b[in->next].block < block)))' \
	'(in->b[in->next].test == test && in->b[in->next].block <= block)))' \
	'tests/import_iometer.t tests/import.t' 'the inst block cursor steps past the block it looks for'
m core/import/iometer/import_iometer_values.c '	if (!(*secs > 0) || *secs > INT_MAX)' '	if (0)' \
	'tests/import_iometer.t' 'Iometer Processor Speed=1e-300 stores window_s inf'
m core/import/iometer/import_iometer_values.c '	if (!iom_decimal(f))' '	if (0 && !iom_decimal(f))' \
	'tests/import_iometer.t' 'a hexadecimal or inf Iometer number accepted (strtod)'
m core/import/iometer/import_iometer_values.c '	if (*v < r->min || (r->above && *v == r->min)) {' '	if (0) {' \
	'tests/import_iometer.t' 'negative Iometer IOps, response times and run times stored'
m core/import/iometer/import_iometer_values.c '	if (r->whole && *v != floor(*v))' '	if (0)' \
	'tests/import_iometer.t' 'half an I/O accepted in an Iometer count'
m core/import/iometer/import_iometer.c '	if (v[12] > 0 && v[13] > 0 && v[12] * v[13] > INT_MAX)' '	if (0)' \
	'tests/import_iometer.t' 'Iometer Queue Depth x # Disks wraps oio'
m core/base/csvlines.c '	if (len >= 3 && !memcmp(text, CSV_UTF8_BOM, 3))' '	if (0)' \
	'tests/import_iometer.t' 'an Iometer file after a UTF-8 byte-order mark refused'
m core/import/iometer/iometer.c '	if (n >= 2 && p[0] == 0xff && p[1] == 0xfe)' '	if (0)' \
	'unit/import_iometer' 'a UTF-16 LE Iometer file not named as such'
m core/import/iometer/import_iometer.c '	if (l->nf != 8 && !(l->nf == 9 && !csvline_field(l, 8)[0]))' '	if (l->nf != 8)' \
	'tests/import_iometer.t' "Iometer 1.1.0's trailing comma after a specification line refused"
m core/import/iometer/iometer.c '		bins = n > first + n59 && !strcmp(csvline_field(h, first + n59), bins_80[0]);' \
	'		bins = false;' \
	'tests/import_iometer.t' "Iometer 1.1.0's inst header (MBps names, then bins) refused"
m core/base/csvlines.c '	if (len && utf8_invalid_at(s, len) < len) {' '	if (0) {' \
	'tests/import_iometer.t' 'a Windows-1252 Iometer description stored as invalid UTF-8'

main() {
	ROOT=$(cd "$(dirname "$0")/../.." && pwd)
	LIMIT=${HBATEST_MUTATE_TIMEOUT:-600}	# s a test file may take before it counts as failed
	list=0 baseline=1 pick=()
	for a in "$@"; do
		case $a in
		--list) list=1 ;;
		--no-baseline) baseline=0 ;;
		[0-9]*) pick+=("$a") ;;
		*) echo "usage: mutate.sh [--list] [--no-baseline] [N...]" >&2; exit 2 ;;
		esac
	done
	n=${#MUT_FILE[@]}
	[ ${#pick[@]} -gt 0 ] || pick=($(seq "$n"))
	if [ $list = 1 ]; then
		for i in "${pick[@]}"; do
			printf '%2d  %-28s %s  [%s]\n' "$i" "${MUT_FILE[i-1]}" "${MUT_WHAT[i-1]}" "${MUT_TESTS[i-1]}"
		done
		exit 0
	fi

	start=$SECONDS
	WORK=$(mktemp -d "${TMPDIR:-/tmp}/hbatest-mutate.XXXXXX")
	trap 'rm -rf "$WORK"' EXIT
	# the working tree as it is (uncommitted edits and new files included), never touched
	(cd "$ROOT" && git ls-files -z --cached --others --exclude-standard) |
		(cd "$ROOT" && tar --null -T - --ignore-failed-read -cf - 2>/dev/null) | tar -xf - -C "$WORK"

	unit_target() { echo "build/tests/${1#unit/}.t"; }
	# build: the binary, the plugins, the fixtures and the C tests the mutant names
	build() {
		local targets=(all) t
		for t in $1; do [ "${t#unit/}" != "$t" ] && targets+=("$(unit_target "$t")"); done
		for t in "$WORK"/tests/fixtures/plugins/*.c; do
			targets+=("build/tests/plugins/$(basename "${t%.c}").so")
		done
		make -C "$WORK" -j2 "${targets[@]}" >"$WORK/build.log" 2>&1
	}
	# run_tests TESTS: 0 when all pass; else 1 and the failing one in $failed
	run_tests() {
		local t f
		failed=
		for t in $1; do
			f=$t
			[ "${t#unit/}" != "$t" ] && f=$(unit_target "$t")
			(cd "$WORK" && HBATEST_TEST_TIMEOUT=$LIMIT timeout -k 10 $((LIMIT + 30)) \
				prove "$f" >"$WORK/prove.log" 2>&1) || { failed=$t; return 1; }
		done
		return 0
	}
	# count FILE PATTERN: how often PATTERN occurs in FILE, as an exact string
	count() { PAT=$2 perl -0777 -ne 'my $p = $ENV{PAT}; my $n = () = /\Q$p\E/g; print $n' "$1"; }
	apply() { PAT=$2 REP=$3 perl -0777 -i -pe 'my ($p, $r) = ($ENV{PAT}, $ENV{REP}); s/\Q$p\E/$r/' "$1"; }

	bad=0
	for i in "${pick[@]}"; do	# every pattern first: a stale one fails before any build
		c=$(count "$WORK/${MUT_FILE[i-1]}" "${MUT_PAT[i-1]}" 2>/dev/null)
		if [ "$c" != 1 ]; then
			echo "mutant $i: its pattern occurs ${c:-0} times in ${MUT_FILE[i-1]} (wanted once): update the list" >&2
			bad=1
		fi
	done
	[ $bad = 0 ] || exit 1

	if [ $baseline = 1 ]; then
		all_tests=$(for i in "${pick[@]}"; do echo "${MUT_TESTS[i-1]}"; done | tr ' ' '\n' | awk '!seen[$0]++' | tr '\n' ' ')
		echo "baseline: the unmutated tree passes $all_tests"
		if ! build "$all_tests"; then tail -20 "$WORK/build.log"; echo "baseline: does not build" >&2; exit 1; fi
		if ! run_tests "$all_tests"; then
			tail -30 "$WORK/prove.log"
			echo "baseline: $failed fails without any mutant: fix that first" >&2
			exit 1
		fi
		echo "baseline: passes ($((SECONDS - start)) s)"
	fi

	killed=0 survived=0 broken=0
	printf '%-3s %-9s %5s  %-28s %s\n' '#' result secs file mutant
	for i in "${pick[@]}"; do
		f="$WORK/${MUT_FILE[i-1]}" t0=$SECONDS
		cp -p "$f" "$WORK/orig"
		apply "$f" "${MUT_PAT[i-1]}" "${MUT_REP[i-1]}"
		if ! build "${MUT_TESTS[i-1]}"; then
			res="BROKEN" by="does not build: $(grep -m1 -E 'error' "$WORK/build.log")"
			broken=$((broken + 1))
		elif run_tests "${MUT_TESTS[i-1]}"; then
			res="SURVIVED" by="${MUT_TESTS[i-1]} all pass"
			survived=$((survived + 1))
		else
			res="killed" by="by $failed"
			killed=$((killed + 1))
		fi
		cp "$WORK/orig" "$f" && touch "$f"	# restored, and newer than its objects
		printf '%-3s %-9s %5s  %-28s %s (%s)\n' "$i" "$res" $((SECONDS - t0)) "${MUT_FILE[i-1]}" \
			"${MUT_WHAT[i-1]}" "$by"
	done
	echo "mutants: ${#pick[@]}, killed $killed, survived $survived, broken $broken; total $((SECONDS - start)) s"
	[ $survived = 0 ] && [ $broken = 0 ]
}
main "$@"; exit $?
