/* The runner's records: measurement structs (step, sample, facts, steady
 * state) turned into the store's rows, and stored. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "run/record.h"
#include "base/util.h"
#include "measure/target.h"
#include "measure/worker.h"

int64_t record_run_begin(struct db *db, const struct db_run_row *r)
{
	char now[40], cwd[4096];
	struct db_run_row row = *r;

	util_utc_now(now, sizeof(now));
	row.started_at = row.heartbeat_at = now;
	row.status = "running";
	row.pid = getpid();
	row.source = "hbatest";
	row.cwd = getcwd(cwd, sizeof(cwd));	/* relative targets are relative to it */
	return db_run_insert(db, &row);
}

int record_note(struct db *db, int64_t run_id, const char *text, bool unless_known)
{
	const char *line;
	size_t n;
	int rc = 0;

	while (!rc && util_note_line(&text, &line, &n)) {
		char *one = strndup(line, n);

		rc = one ? db_run_note(db, run_id, one, unless_known) : -ENOMEM;
		free(one);
	}
	return rc;
}

/* The last step whose end could not be stored (0: none), and its error:
 * stored with the run's end (one run a process). */
static struct {
	int64_t step_id;
	char error[1024];
} lost;

int record_run_end(struct db *db, int64_t run_id, const char *status, bool plan_ended)
{
	char now[40];
	struct db_run_end e = { .status = status, .finished_at = now, .heartbeat_at = now,
				.count_planned = plan_ended, .lost_step_id = lost.step_id,
				.lost_step_error = lost.error };

	util_utc_now(now, sizeof(now));
	return db_run_end(db, run_id, &e);
}

/* The columns of an exec step's row that a workload fills stay NULL. */
static void step_row_workload(const struct step_spec *s, struct db_step_row *row,
			      const char *bs)
{
	if (s->kind == STEP_EXEC) {
		row->write_pct = row->oio = row->workers = row->duration_s = row->ramp_s = -1;
		return;
	}
	row->engine = s->engine ? s->engine->desc->name : NULL;
	row->rw = rw_name(s->wl.rw);
	row->bs = bs;
	row->write_pct = (int)s->wl.write_pct;
	row->oio = (int)s->wl.oio;
	row->workers = (int)s->wl.workers;
	row->duration_s = (int)s->wl.duration;
	row->ramp_s = (int)s->wl.ramp;
	row->on_error = step_on_error_name(s->on_error);
}

static const struct db_step_totals no_totals = {
	NAN, -1, -1, -1, -1, -1, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN
};

int64_t record_step_begin(struct db *db, int64_t run_id, int seq, const struct step_spec *s)
{
	char now[40], bs[256];
	struct db_step_row row = {
		.kind = step_kind_name(s->kind), .name = s->name, .group = s->group,
		.tags_json = s->tags, .params_json = s->params_json, .status = "running",
		.started_at = now, .axis = s->axis, .axis_value = s->axis_value,
		.round = s->round ? (int)s->round : -1,
		.passes = s->wl.passes ? (int)s->wl.passes : -1, .tot = no_totals,
	};
	int rc = 0;

	for (unsigned i = 0; !rc && i < s->wl.ntargets && s->kind != STEP_EXEC; i++) {
		const struct target_spec *t = &s->wl.targets[i];
		struct db_target_row tr = { t->path, target_kind_name(t->kind),
					    (int64_t)t->size };

		rc = db_target_insert(db, run_id, &tr);
	}
	if (rc)
		return rc;
	util_utc_now(now, sizeof(now));
	workload_bs_text(&s->wl, bs, sizeof(bs));
	step_row_workload(s, &row, bs);
	return db_step_insert(db, run_id, seq, &row);
}

/* A latency of a window with no I/O completed: none, NULL. */
static double lat_of(uint64_t ops, double v)
{
	return ops ? v : NAN;
}

static void step_totals_row(const struct step_spec *s, const struct step_totals *t,
			    struct db_step_totals *r)
{
	uint64_t ops = t->ops[0] + t->ops[1];

	*r = no_totals;
	r->window_s = t->window_s;
	r->read_ops = (int64_t)t->ops[0];
	r->write_ops = (int64_t)t->ops[1];
	r->read_bytes = (int64_t)t->bytes[0];
	r->write_bytes = (int64_t)t->bytes[1];
	r->errors = (int64_t)t->res.errors;
	/* no window (it ended in its ramp): no rates, NULL; an exec step's
	 * MB/s is over its elapsed time */
	if (t->window_s > 0 || s->kind == STEP_EXEC) {
		r->iops = t->res.iops;
		r->read_iops = t->res.read_iops;
		r->write_iops = t->res.write_iops;
		r->mbps = t->res.mbps;
	}
	r->lat_mean = lat_of(ops, t->res.lat_mean);
	r->lat_p50 = lat_of(ops, t->res.lat_p50);
	r->lat_p99 = lat_of(ops, t->res.lat_p99);
	r->lat_p999 = lat_of(ops, t->res.lat_p999);
	r->lat_max = lat_of(ops, t->res.lat_max);
}

int record_step_end(struct db *db, int64_t step_id, const char *status,
		    const struct step_spec *s, const struct step_totals *t,
		    const char *error_text)
{
	char now[40];
	struct db_step_target_row *tr = NULL;
	struct db_step_end e = {
		.status = status, .finished_at = now, .error_text = error_text,
		.placement = t->placement[0] ? t->placement : NULL,
		.lat = { &t->lat[0], &t->lat[1] }, .exec = s->kind == STEP_EXEC,
		.fill = s->wl.passes != 0, .elapsed_s = t->res.elapsed_s,
		.exit_status = t->res.exit_status,
		/* an exec step's command is not measured for CPU: NULL */
		.cpu_busy = s->kind == STEP_EXEC ? NAN : t->cpu_busy,
		.host_busy = s->kind == STEP_EXEC ? NAN : t->host_busy,
		.host_bound = s->kind == STEP_EXEC ? -1 : t->host_bound,
	};
	int rc;

	if (t->tgt && t->ntargets && !(tr = calloc(t->ntargets, sizeof(*tr)))) {
		snprintf(db->err, sizeof(db->err), "out of memory for %u targets' counters",
			 t->ntargets);
		return -ENOMEM;
	}
	for (unsigned i = 0; tr && i < t->ntargets; i++) {
		const uint64_t *c = &t->tgt[i * TGT_COUNTERS];

		tr[i] = (struct db_step_target_row){ s->wl.targets[i].path,
			(int64_t)c[TGT_OPS], (int64_t)c[TGT_OPS + 1], (int64_t)c[TGT_BYTES],
			(int64_t)c[TGT_BYTES + 1], (int64_t)c[TGT_ERRORS] };
	}
	e.targets = tr;
	e.ntargets = tr ? t->ntargets : 0;
	step_totals_row(s, t, &e.tot);
	util_utc_now(now, sizeof(now));
	rc = db_step_finish(db, step_id, &e);
	free(tr);
	if (rc < 0) {	/* the run's end stores it, with the step's failure */
		lost.step_id = step_id;
		if (error_text)
			snprintf(lost.error, sizeof(lost.error), "%s", error_text);
		else
			snprintf(lost.error, sizeof(lost.error), "its end (%s) could not be "
				 "stored: %s", status, db_errmsg(db));
	}
	return rc;
}

int record_samples(struct db *db, int64_t step_id, const struct step_sample *s, unsigned n)
{
	struct db_sample_row *r = calloc(n ? n : 1, sizeof(*r));
	int rc;

	if (!r)
		return -ENOMEM;
	for (unsigned i = 0; i < n; i++) {
		r[i] = (struct db_sample_row){
			.t = (int64_t)s[i].t, .ramp = s[i].ramp, .secs = s[i].secs,
			.ops = { (int64_t)s[i].ops[0], (int64_t)s[i].ops[1] },
			.bytes = { (int64_t)s[i].bytes[0], (int64_t)s[i].bytes[1] },
			.errors = (int64_t)s[i].errors,
			.lat_mean = { lat_of(s[i].ops[0], s[i].lat_mean[0]),
				      lat_of(s[i].ops[1], s[i].lat_mean[1]) },
			.lat_p99 = { lat_of(s[i].ops[0], s[i].lat_p99[0]),
				     lat_of(s[i].ops[1], s[i].lat_p99[1]) },
			.lat_max = lat_of(s[i].ops[0] + s[i].ops[1], s[i].lat_max),
			.occupancy = s[i].occupancy, .cpu_measured = true,
			.cpu_busy = s[i].cpu_busy, .host_busy = s[i].host_busy, .hosts_json = s[i].hosts_json,
		};
	}
	rc = db_samples_insert(db, step_id, r, n);
	free(r);
	return rc;
}

int record_facts(struct db *db, int64_t run_id, const char *phase, const struct facts *f)
{
	struct db_probe_row *p = calloc(f->n ? f->n : 1, sizeof(*p));
	int rc;

	if (!p)
		return -ENOMEM;
	for (unsigned i = 0; i < f->n; i++)
		p[i] = (struct db_probe_row){ phase, f->v[i].target, f->v[i].probe, f->v[i].key,
					      f->v[i].value };
	rc = db_probes_insert(db, run_id, p, f->n);
	free(p);
	return rc;
}

int record_steady(struct db *db, int64_t run_id, const struct steady_result *r)
{
	struct db_steady_row row = {
		.name = r->name, .track = r->track, .attained = r->attained,
		.rounds = r->rounds, .window_first = r->window_first,
		.window_last = r->window_last, .mean = r->mean, .slope = r->slope,
		.data_excursion = r->data_excursion, .slope_excursion = r->slope_excursion,
		.max_data_excursion = r->max_data_excursion,
		.max_slope_excursion = r->max_slope_excursion,
		.first_step_id = r->first_step_id, .last_step_id = r->last_step_id,
	};

	return db_steady_insert(db, run_id, &row);
}

void record_resumed(const struct resume_step *d, struct step_totals *t)
{
	t->res.iops = d->tot.iops;
	t->res.read_iops = d->tot.read_iops;
	t->res.write_iops = d->tot.write_iops;
	t->res.mbps = d->tot.mbps;
	t->res.lat_mean = d->tot.lat_mean;
	t->res.lat_p50 = d->tot.lat_p50;
	t->res.lat_p99 = d->tot.lat_p99;
	t->res.lat_p999 = d->tot.lat_p999;
	t->res.lat_max = d->tot.lat_max;
	t->res.errors = (uint64_t)d->tot.errors;
	t->res.elapsed_s = d->elapsed_s;
	t->res.exit_status = d->exit_status;
}
