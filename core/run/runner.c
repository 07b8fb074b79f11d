/* The runner: `hbatest run`'s dry pass, then the real pass into the database. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/build_info.h"
#include "measure/exec.h"
#include "measure/fio_job.h"
#include "measure/fio_step.h"
#include "measure/guard.h"
#include "measure/hostcpu.h"
#include "base/human.h"
#include "base/log.h"
#include "measure/loader.h"
#include "measure/probe.h"
#include "measure/progress.h"
#include "measure/step_spec.h"
#include "run/record.h"
#include "run/tele_record.h"
#include "run/runner.h"
#include "run/sim_facts.h"
#include "base/sha256.h"
#include "base/stop.h"
#include "base/strbuf.h"
#include "measure/target.h"
#include "measure/worker.h"

static double step_secs(const struct step_spec *s)
{
	return s->estimate;
}

static bool step_simulated(const struct step_spec *s)
{
	const struct hb_engine_ops *ops = s->engine ? s->engine->desc->ops : NULL;

	return ops && (ops->flags & HB_ENGINE_SIMULATED);
}

static void note_probe_target(struct run_ctx *c, const struct target_spec *t)
{
	char **p;

	if (t->kind == TARGET_VIRTUAL && strncmp(t->path, "/dev/", 5))
		return;		/* a simulated drive's name, not a device */
	for (unsigned i = 0; i < c->nprobe_targets; i++)
		if (!strcmp(c->probe_targets[i], t->path))
			return;
	p = realloc(c->probe_targets, (c->nprobe_targets + 1) * sizeof(*p));
	if (!p)
		return;
	c->probe_targets = p;
	c->probe_targets[c->nprobe_targets++] = strdup(t->path);
}

/* A snapshot of the test bed into the probes table; a link trained below its
 * maximum is a warning, once a run, in the events and on the live line, and
 * so is each loop device that goes through the page cache (at the start). */
/* Target i's fact probe.key, when there is one, as a warning (events,
 * stderr) and on the live line; whether it was. */
static bool say_fact(const struct run_ctx *c, const struct facts *f, unsigned i,
		     const char *probe, const char *key)
{
	const char *msg = facts_find(f, c->probe_targets[i], probe, key);

	if (msg) {
		log_warn("%s: %s", c->probe_targets[i], msg);
		progress_note(msg);
	}
	return msg != NULL;
}

static void run_probes(void *vctx, const char *phase)
{
	struct run_ctx *c = vctx;
	struct facts f;

	telemetry_quiet(c->tele);	/* hb.probe between steps: no sample beside it */
	probe_collect(c->probe_targets, c->nprobe_targets, &f);
	if (record_facts(&c->db, c->run_id, phase, &f) < 0)
		log_warn("cannot store the %s probes in '%s'", phase, c->db.path);
	for (unsigned i = 0; i < c->nprobe_targets && !c->link_warned; i++)
		c->link_warned = say_fact(c, &f, i, "pcie", "link_downtrained");
	for (unsigned i = 0; i < c->nprobe_targets && !strcmp(phase, "start"); i++)
		say_fact(c, &f, i, "block", "loop_buffered");
	log_debug("probes (%s): %u facts", phase, f.n);
	facts_free(&f);
}

/* The cards the simulating steps stand for, once a run (a resume has them) */
static void record_sim_facts(struct run_ctx *c)
{
	struct facts f = { 0 };

	sim_facts_collect(c->steps, c->nsteps, &f);
	if (f.n && record_facts(&c->db, c->run_id, "start", &f) < 0)
		log_warn("cannot store the simulated cards' facts in '%s': %s", c->db.path,
			 db_errmsg(&c->db));
	facts_free(&f);
}

/* The guard, for each target the step writes or lays out. */
static int guard_step(const struct step_spec *spec, char *err, size_t len)
{
	if (fio_step_is(spec) && fio_step_opt(spec, "hosts"))
		return 0;	/* the hosts' devices: not this one's (fio_job_check says so) */
	for (unsigned i = 0; spec->kind != STEP_EXEC && i < spec->wl.ntargets; i++) {
		const struct target_spec *t = &spec->wl.targets[i];
		int rc;

		if (t->kind == TARGET_VIRTUAL || (!spec->wl.write_pct && !t->create))
			continue;
		if ((rc = guard_check_write(t->path, t->kind, err, len)))
			return rc;
	}
	return 0;
}

/* Did the dry pass make this step, on the same targets? (A plan may make
 * other steps in the real pass: one that branches on r.dry or hb.dry, a
 * loop until a figure the dry pass does not have.) */
static bool dry_pass_made(const struct run_ctx *c, const struct step_spec *spec)
{
	const struct step_spec *d = c->seq <= c->nsteps ? &c->steps[c->seq - 1] : NULL;

	if (!d || d->wl.ntargets != spec->wl.ntargets)
		return false;
	for (unsigned i = 0; i < spec->wl.ntargets; i++)
		if (strcmp(d->wl.targets[i].path, spec->wl.targets[i].path))
			return false;
	return true;
}

/* The guard once more as the step runs: the dry pass judged the steps it
 * made, and the real pass may make others (its targets unseen: the
 * database, the plan, a mounted device); a device already approved passes
 * at once (guard_check_write). */
static int guard_real_step(const struct run_ctx *c, const struct step_spec *spec, char *err,
			   size_t len)
{
	int rc = guard_step(spec, err, len);
	size_t n = strlen(err);

	if (rc && !dry_pass_made(c, spec) && n + 1 < len)
		snprintf(err + n, len - n, " (step %u of the real pass, which the dry pass did not "
			 "make on these targets)", c->seq);
	return rc;
}

static int dry_step(void *vctx, struct step_spec *spec, struct step_totals *t,
		    int64_t *step_id, char *err, size_t len)
{
	struct run_ctx *c = vctx;
	struct step_spec *p = realloc(c->steps, (c->nsteps + 1) * sizeof(*p));
	int rc = p ? guard_step(spec, err, len) : -ENOMEM;

	if (!rc && fio_step_is(spec))	/* fio --parse-only on its job, its hosts */
		rc = fio_job_check(spec, err, len);

	memset(t, 0, sizeof(*t));
	*step_id = 0;
	if (p)
		c->steps = p;
	if (rc) {
		step_spec_free(spec);
		free(spec);
		return rc;
	}
	c->steps[c->nsteps++] = *spec;	/* keep it for the listing */
	c->total_secs += step_secs(spec);
	c->fills |= spec->wl.passes > 0;
	for (unsigned i = 0; !fio_step_opt(spec, "hosts") && i < spec->wl.ntargets; i++)
		note_probe_target(c, &spec->wl.targets[i]);	/* not a host's: not here */
	if (step_simulated(spec)) {
		c->simulated = true;
		c->sim_secs += step_secs(spec);
	}
	for (unsigned i = 0; i < spec->wl.ntargets; i++)
		c->layout |= spec->wl.targets[i].create;
	free(spec);
	return 0;
}

#define HEARTBEAT_NS (10 * NSEC_PER_SEC)

static void heartbeat(struct run_ctx *c)
{
	if (util_now_ns() - c->last_beat < HEARTBEAT_NS)
		return;
	if (db_run_heartbeat(&c->db, c->run_id) == 0)	/* busy: the next call retries */
		c->last_beat = util_now_ns();
}

static bool db_gone(struct run_ctx *c, char *err, size_t len)
{
	if (!db_moved(&c->db))
		return false;
	snprintf(err, len, "database '%s' was deleted or replaced while the run was writing "
		 "to it: stopping, as nothing written from now on would be kept", c->db.path);
	return true;
}

static int store_hook(void *vctx, const struct step_sample *s, unsigned n, char *err,
		      size_t len)
{
	struct run_ctx *c = vctx;
	int rc;

	if (db_gone(c, err, len))
		return -ESTALE;
	rc = record_samples(&c->db, c->step_id, s, n);
	if (rc == -EBUSY) {
		snprintf(err, len, "database '%s' is busy (%s)", c->db.path, db_errmsg(&c->db));
	} else if (rc) {
		snprintf(err, len, "cannot store second %llu of step %u in '%s': %s",
			 (unsigned long long)s->t, c->seq, c->db.path, db_errmsg(&c->db));
	} else {
		heartbeat(c);
	}
	return rc;
}

/* The telemetry samples taken so far: their changes logged, their rows stored. */
static void tele_drain(struct run_ctx *c)
{
	if (c->tele || c->tele_held)
		tele_record(&c->db, c->run_id, &c->tele_held, telemetry_take(c->tele));
}

static void exec_tick(void *vctx)
{
	heartbeat(vctx);
	tele_drain(vctx);
	progress_exec();
}

static void tick_hook(void *vctx, const struct step_tick *t)
{
	if (!t->merged)
		tele_drain(vctx);
	progress_update(t);
}

static void layout_hook(void *vctx, uint64_t done, uint64_t total)
{
	struct run_ctx *c = vctx;

	heartbeat(c);
	progress_layout(done, total);
}

static void log_step_result(unsigned seq, const struct step_spec *s, const struct step_totals *t,
			    const char *status)
{
	if (s->kind == STEP_EXEC) {
		log_info("step %u %s: %s: %.1f s, exit status %d%s", seq, s->name, status,
			 t->res.elapsed_s, t->res.exit_status, s->exec_bytes ? "" : " (no bytes= given)");
		if (s->exec_bytes)
			log_info("step %u: %.1f MB/s", seq, t->res.mbps);
		return;
	}
	if (!(t->ops[0] + t->ops[1])) {	/* no latency measured: none to print (show: -) */
		log_info("step %u %s: %s: 0 IOPS, 0.0 MB/s, no I/O completed in the window, "
			 "%llu errors", seq, s->name, status, (unsigned long long)t->res.errors);
		return;
	}
	/* scaled for people (16.5k IOPS, 1.88 GB/s, p99 1.63 ms); steps keeps the exact values */
	char iops[24], mbps[24], mean[24], p99[24], max[24];
	human_count(t->res.iops, iops, sizeof(iops));
	human_mbps(t->res.mbps, mbps, sizeof(mbps));
	human_usecs(t->res.lat_mean, mean, sizeof(mean));
	human_usecs(t->res.lat_p99, p99, sizeof(p99));
	human_usecs(t->res.lat_max, max, sizeof(max));
	log_info("step %u %s: %s: %s IOPS, %s, mean %s, p99 %s, max %s, %llu errors", seq,
		 s->name, status, iops, mbps, mean, p99, max, (unsigned long long)t->res.errors);
	if (t->host_bound == 1) {	/* a warning event too (events_sink) */
		char why[200];

		hostcpu_describe(t->cpu_busy, t->host_busy, why, sizeof(why));
		log_warn("step %u %s: host-bound: %s; its figures measure the host's CPU, "
			 "not the device", seq, s->name, why);
	}
}

/* A step of I/O, sampled by the probes' telemetry while it runs. */
static int measure_step(struct run_ctx *c, const struct step_spec *spec, struct step_totals *t,
			char *err, size_t len)
{
	struct step_hooks hooks = { c, store_hook, tick_hook, layout_hook, c->tele };
	char label[300];
	int rc;

	snprintf(label, sizeof(label), "step %u '%s'", c->seq, spec->name);
	telemetry_step_begin(c->tele, spec->telemetry, spec->temp_limit_c, spec->telemetry_fail,
			     c->step_id, label);
	db_set_busy_timeout(&c->db, DB_STEP_BUSY_MS);	/* the sampler retries */
	if (fio_step_is(spec)) {
		rc = fio_step_run(spec, &hooks, t, err, len);
		for (unsigned i = 0; !fio_step_opt(spec, "hosts") && i < spec->wl.ntargets; i++)
			if (spec->wl.write_pct || spec->wl.targets[i].create)	/* made anew? */
				guard_mark_file(spec->wl.targets[i].path);
	} else
		rc = step_execute(spec, &hooks, t, err, len);
	telemetry_step_end(c->tele);	/* a sample in flight lands later */
	return rc;
}

static int real_step(void *vctx, struct step_spec *spec, struct step_totals *t,
		     int64_t *step_id, char *err, size_t len)
{
	struct run_ctx *c = vctx;
	double later = 0, later_sim = 0;
	const char *status;
	int rc, frc;

	c->seq++;
	if (c->resume) {
		const struct resume_step *done = NULL;

		rc = resume_step(&c->db, &c->rs, c->seq, spec->name, spec->params_json, &done,
				 err, len);
		if (rc > 0) {
			record_resumed(done, t);
			*step_id = done->id;
		}
		if (rc) {
			step_spec_free(spec);
			free(spec);
			return rc < 0 ? rc : 0;
		}
	}
	for (unsigned i = c->seq; i < c->nsteps; i++) {
		if (step_simulated(&c->steps[i]))
			later_sim += step_secs(&c->steps[i]);
		else
			later += step_secs(&c->steps[i]);
	}
	rc = db_gone(c, err, len) ? -ESTALE : 0;
	if (!rc && (c->step_id = record_step_begin(&c->db, c->run_id, (int)c->seq, spec)) < 0)
		rc = (int)c->step_id;
	if (rc) {
		if (rc != -ESTALE)
			snprintf(err, len, "cannot record step %u in '%s': %s", c->seq,
				 c->db.path, db_errmsg(&c->db));
		c->step_failed = true;
		goto out;
	}
	*step_id = c->step_id;
	progress_step(&(struct progress_step){ c->seq, c->nsteps > c->seq ? c->nsteps : c->seq,
		      spec->name, step_simulated(spec), step_secs(spec), later, later_sim,
		      step_fill_bytes(spec) });
	if (!progress_enabled())
		log_info("step %u/%u %s: %s", c->seq, c->nsteps > c->seq ? c->nsteps : c->seq,
			 step_kind_name(spec->kind), spec->name);
	if ((rc = guard_real_step(c, spec, err, len)))
		;	/* refused: recorded failed, its target untouched */
	else if (spec->kind == STEP_EXEC)
		rc = exec_run(spec, t, exec_tick, c, err, len);
	else
		rc = measure_step(c, spec, t, err, len);
	progress_clear();
	tele_drain(c);
	db_set_busy_timeout(&c->db, DB_BUSY_MS);
	if (db_gone(c, err, len))	/* checked each store, and once more here */
		rc = -ESTALE;
	status = rc == 0 ? "done" : rc == -EINTR ? "aborted" : "failed";
	if ((frc = record_step_end(&c->db, c->step_id, status, spec, t,
				   rc && rc != -EINTR ? err : NULL)) < 0) {
		if (rc == 0 || rc == -EINTR)
			snprintf(err, len, "cannot record the results of step %u in '%s': %s",
				 c->seq, c->db.path, db_errmsg(&c->db));
		else
			log_warn("cannot record that step %u failed in '%s': %s", c->seq,
				 c->db.path, db_errmsg(&c->db));
		rc = rc == 0 || rc == -EINTR ? frc : rc;
	}
	if (rc == 0 || rc == -EINTR)
		log_step_result(c->seq, spec, t, status);
	if (rc && rc != -EINTR)
		c->step_failed = true;
out:
	step_spec_free(spec);
	free(spec);
	return rc;
}

static void plan_log(void *vctx, const char *msg)
{
	struct run_ctx *c = vctx;

	if (!c->po.dry)
		log_info("plan: %s", msg);
}

/* hb.note: the dry pass keeps it for the listing; the real pass stores it
 * (a resume does not add a line its notes hold already). */
static void note_hook(void *vctx, const char *text)
{
	struct run_ctx *c = vctx;
	char **p;

	if (c->po.dry) {
		p = realloc(c->plan_notes, (c->nplan_notes + 1) * sizeof(*p));
		if (p && (p[c->nplan_notes] = strdup(text)))
			c->nplan_notes++;
		c->plan_notes = p ? p : c->plan_notes;
		return;
	}
	log_info("note: %s", text);
	if (record_note(&c->db, c->run_id, text, c->resume) < 0)
		log_warn("cannot store a note of run %lld in '%s': %s", (long long)c->run_id,
			 c->db.path, db_errmsg(&c->db));
}

static void steady_hook(void *vctx, const struct steady_result *r)
{
	struct run_ctx *c = vctx;

	if (record_steady(&c->db, c->run_id, r) < 0)
		log_warn("cannot store steady state '%s' in '%s': %s", r->name, c->db.path,
			 db_errmsg(&c->db));
	if (r->attained)
		log_info("steady state '%s' attained in %d rounds (window %d-%d, mean %.1f)",
			 r->name, r->rounds, r->window_first, r->window_last, r->mean);
	else
		log_warn("steady state '%s' not attained in %d rounds", r->name, r->rounds);
}

static void events_sink(void *vctx, enum hb_log_level level, const char *msg)
{
	static const char *const names[] = { "error", "warning", "info" };
	struct run_ctx *c = vctx;

	if (level <= HB_LOG_INFO)
		db_event(&c->db, c->run_id, names[level], msg);
}

static char *join_args(int argc, char **argv)
{
	struct strbuf b = { 0 };

	sb_printf(&b, "hbatest");
	for (int i = 0; i < argc; i++) {
		sb_add(&b, " ", 1);
		sb_shell_word(&b, argv[i]);	/* pastes back as it ran (show) */
	}
	return sb_take(&b);
}

static char *targets_json(const struct plan_opts *po)
{
	struct strbuf b = { 0 };

	sb_printf(&b, "[");
	for (unsigned i = 0; i < po->ntargets; i++) {
		sb_printf(&b, "%s", i ? "," : "");
		sb_json_str(&b, po->targets[i]);
	}
	sb_printf(&b, "]");
	return sb_take(&b);
}

static char *sets_json(const struct plan_opts *po)
{
	struct strbuf b = { 0 };

	sb_printf(&b, "{");
	for (unsigned i = 0; i < po->nsets; i++) {
		char *k = strdup(po->sets[i]), *eq = strchr(k, '=');

		*eq = '\0';
		sb_printf(&b, "%s", i ? "," : "");
		sb_json_str(&b, k);
		sb_printf(&b, ":");
		sb_json_str(&b, eq + 1);
		free(k);
	}
	sb_printf(&b, "}");
	return sb_take(&b);
}
static int begin_run(struct run_ctx *c, int argc, char **argv, char *err, size_t len)
{
	struct db_run_row r = { 0 };
	char uuid[37], sha[65], host[256] = "";
	size_t sz;
	char *text, *cmd, *sets, *tgts;
	int rc;

	if (c->resume) {	/* the database is open already */
		c->rs.steps_planned = (int)c->nsteps;	/* of the plan as it is now */
		if ((rc = resume_reopen(&c->db, &c->rs, err, len)) < 0)
			return rc;
		c->run_id = c->rs.run_id;
		guard_set_run(c->rs.uuid);
		log_set_sink(events_sink, c);
		log_info("resuming run %lld (%s) of %s", (long long)c->run_id, c->rs.uuid,
			 c->po.path);
		if (c->rs.new_text)
			log_warn("plan '%s' changed since the run started (sha256 %s -> %s): "
				 "replaying it with --force", c->po.path, c->rs.old_sha,
				 c->rs.new_sha);
		return 0;
	}
	text = util_read_file(c->po.path, &sz);
	if (!text) {
		snprintf(err, len, "cannot read plan '%s': %s", c->po.path, strerror(errno));
		return -EIO;
	}
	if ((rc = db_open(&c->db, c->db_path, true, err, len)) < 0) {
		free(text);
		return rc;
	}
	sha256_hex(text, sz, sha);
	gethostname(host, sizeof(host) - 1);
	util_uuid(uuid);
	r.uuid = uuid;
	cmd = join_args(argc, argv);
	sets = sets_json(&c->po);
	tgts = targets_json(&c->po);
	r.targets_json = tgts;
	r.label = c->label;
	r.simulated = c->simulated;
	r.plan_path = c->po.path;
	r.plan_sha256 = sha;
	r.plan_text = text;
	r.host = host;
	r.version = HB_VERSION;
	r.cmdline = cmd;
	r.sets_json = sets;
	r.steps_planned = (int)c->nsteps;
	r.plan_name = c->plan_name;
	r.build_commit = build_commit();	/* "": NULL */
	c->run_id = record_run_begin(&c->db, &r);
	free(text);
	free(cmd);
	free(sets);
	free(tgts);
	if (c->run_id < 0) {
		snprintf(err, len, "cannot record the run in '%s': %s", c->db.path,
			 db_errmsg(&c->db));
		return -EIO;
	}
	guard_set_run(uuid);
	log_set_sink(events_sink, c);
	log_info("run %lld (%s) of %s into %s", (long long)c->run_id, r.uuid, c->po.path,
		 c->db.path);
	return 0;
}

/* --target PATH: not empty, and not one given already (by any name) */
void runner_free(struct run_ctx *c)
{
	for (unsigned i = 0; i < c->nsteps; i++)
		step_spec_free(&c->steps[i]);
	free(c->steps);
	if (c->resume) {	/* po's lists point into rs */
		resume_free(&c->rs);
	} else {
		free(c->po.targets);
		free(c->po.sets);
	}
	db_close(&c->db);
	guard_release();
	free(c->plan_name);
	for (unsigned i = 0; i < c->nplan_notes; i++)
		free(c->plan_notes[i]);
	free(c->plan_notes);
	free(c->notes);
	for (unsigned i = 0; i < c->nprobe_targets; i++)
		free(c->probe_targets[i]);
	free(c->probe_targets);
}

/* A second signal ends the process without the drain: it says which run
 * is left and how to go on with it. */
static void hard_stop_note(const struct run_ctx *c)
{
	static char note[PATH_MAX + 400];

	snprintf(note, sizeof(note), "hbatest: a second interrupt: stopping at once, without "
		 "waiting for the requests in flight; the seconds stored so far are kept and "
		 "run %lld is left interrupted (continue it with: hbatest run --resume %lld "
		 "--db %s)\n", (long long)c->run_id, (long long)c->run_id, c->db.path);
	stop_set_hard_note(note);
}

int runner_real_pass(struct run_ctx *c, int argc, char **argv)
{
	struct plan_hooks hooks = { c, real_step, plan_log, steady_hook, run_probes, exec_tick,
				    note_hook };
	struct plan_info info = { 0 };
	char err[2048];
	const char *status;
	int rc;

	stop_catch_signals();	/* before the run row: a signal from here on is recorded */
	if (begin_run(c, argc, argv, err, sizeof(err)) < 0) {
		log_error("%s", err);
		return EXIT_FAILED;
	}
	hard_stop_note(c);
	for (unsigned i = 0; i < c->nnotes; i++)	/* --note: before the plan's */
		if (record_note(&c->db, c->run_id, c->notes[i], c->resume) < 0)
			log_warn("cannot store --note '%s' in '%s': %s", c->notes[i], c->db.path,
				 db_errmsg(&c->db));
	c->po.dry = false;
	for (unsigned i = 0; guard_destroys(i); i++) {	/* the dry pass printed them */
		char *msg = util_strdup_printf("will destroy %s", guard_destroys(i));

		events_sink(c, HB_LOG_INFO, msg);
		free(msg);
	}
	run_probes(c, "start");
	if (c->simulated && !c->resume)
		record_sim_facts(c);
	c->tele = telemetry_new(c->probe_targets, c->nprobe_targets);
	rc = plan_execute(&c->po, &hooks, &info, err, sizeof(err));
	telemetry_stop(c->tele);	/* a sample in flight ends within its tools' limits */
	tele_drain(c);
	if (c->tele_held)
		log_warn("telemetry: %u samples not stored: the database '%s' stayed busy",
			 tele_record_drop(c->tele_held), c->db.path);
	c->tele_held = NULL;
	telemetry_free(c->tele);
	c->tele = NULL;
	if (c->resume && rc == 0)	/* as when a replayed step differs: the run keeps its plan */
		rc = resume_check_end(&c->db, &c->rs, c->seq, err, sizeof(err));
	plan_info_free(&info);
	progress_clear();
	if (rc == -EINTR) {
		log_warn("interrupted: every second so far is stored (the one it stopped in as the part it covered)");
		status = "aborted";
	} else if (rc) {
		log_error("%s", err);
		status = "failed";
	} else {
		status = c->step_failed ? "failed" : "done";
	}
	if (c->resume && rc == 0 && resume_adopt_plan(&c->db, &c->rs) < 0) {
		/* a replay of steps all done earlier: the plan replayed is the run's */
		log_error("cannot record the plan of run %lld in '%s': %s", (long long)c->run_id,
			  c->db.path, db_errmsg(&c->db));
		status = "failed";
	}
	if (!strcmp(status, "done") && db_gone(c, err, sizeof(err))) {
		log_error("%s", err);
		status = "failed";
	}
	run_probes(c, "end");
	log_info("run %lld %s (%s)", (long long)c->run_id, status, c->db.path);
	log_set_sink(NULL, NULL);
	if (record_run_end(&c->db, c->run_id, status, rc == 0) < 0) {	/* best effort when lost */
		log_error("cannot record the end of run %lld (%s) in '%s': %s",
			  (long long)c->run_id, status, c->db.path, db_errmsg(&c->db));
		status = rc == -EINTR ? "aborted" : "failed";
	}
	return rc == -EINTR ? EXIT_INTERRUPTED : strcmp(status, "done") ? EXIT_FAILED : EXIT_DONE;
}

/* --resume: the run, its plan, targets and --set values from the database */
int runner_dry_pass(struct run_ctx *c, struct plan_info *info, char *err, size_t len)
{
	struct plan_hooks hooks = { c, dry_step, plan_log, NULL, NULL, NULL, note_hook };
	int rc;

	c->po.dry = true;
	c->po.listing = c->dry_only;
	rc = plan_execute(&c->po, &hooks, info, err, len);
	if (!rc)
		target_warn_unused_destroy();
	if (!rc && info->name)	/* stored with the run (NULL when out of memory) */
		c->plan_name = strdup(info->name);
	return rc;
}
