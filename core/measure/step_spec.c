/* A step's validated form in plain C, no Lua: the step keys, the rules that
 * fill in and check a step_spec (fill, axis, default name, estimate, target
 * resolution) and its params_json. core/plan/step_table.c reads a plan's
 * table into a step_spec and calls these; tests/unit/step_spec.c tests them. Also
 * the names of a step's kind and on_error, and step_spec_free. The step's
 * own key names are step_keys.c's. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure/loader.h"
#include "measure/step_keys.h"
#include "measure/step_spec.h"
#include "measure/fio_job.h"
#include "base/strbuf.h"
#include "measure/target.h"

bool step_key_known(const char *k)
{
	return step_key_builtin(k) || plugins_find_any(k) != NULL;
}

char *step_params_json(const struct step_spec *s)
{
	const struct workload *wl = &s->wl;
	struct strbuf b = { 0 };
	char bs[256];

	workload_bs_text(wl, bs, sizeof(bs));
	sb_printf(&b, "{\"rw\":\"%s\",\"write_pct\":%u,\"bs\":", rw_name(wl->rw), wl->write_pct);
	sb_json_str(&b, bs);
	sb_printf(&b, ",\"oio\":%u,\"workers\":%u,\"qd\":%u,\"duration\":%u,\"ramp\":%u,"
		  "\"align\":%u,\"direct\":%s,\"seed\":%llu", wl->oio, wl->workers, wl->qd,
		  wl->duration, wl->ramp, wl->align, wl->direct ? "true" : "false",
		  (unsigned long long)wl->seed);
	if (wl->range_share > 0)
		sb_printf(&b, ",\"range\":%g", wl->range_share);
	else if (wl->range)
		sb_printf(&b, ",\"range\":%llu", (unsigned long long)wl->range);
	if (wl->size)
		sb_printf(&b, ",\"size\":%llu", (unsigned long long)wl->size);
	if (wl->passes)
		sb_printf(&b, ",\"passes\":%u", wl->passes);
	if (s->axis) {
		sb_printf(&b, ",\"axis\":");
		sb_json_str(&b, s->axis);
	}
	if (s->round)
		sb_printf(&b, ",\"round\":%u", s->round);
	if (s->on_error != ON_ERROR_FAIL)	/* the default stays out: older runs resume */
		sb_printf(&b, ",\"on_error\":\"%s\"", step_on_error_name(s->on_error));
	if (s->cpus) {
		sb_printf(&b, ",\"cpus\":");
		sb_json_str(&b, s->cpus);
	}
	if (s->numa != NUMA_AUTO)	/* the default stays out like on_error's */
		sb_printf(&b, ",\"numa\":\"%s\"", s->numa == NUMA_NONE ? "none" : "node");
	if (s->telemetry != STEP_TELEMETRY_DEFAULT)	/* and the telemetry keys' */
		sb_printf(&b, ",\"telemetry\":%u", s->telemetry);
	if (s->telemetry_fail)
		sb_printf(&b, ",\"on_telemetry\":\"fail\"");
	if (s->temp_limit_c > 0)	/* NaN or 0: none */
		sb_printf(&b, ",\"temp_limit_c\":%g", s->temp_limit_c);
	sb_printf(&b, ",\"engine\":\"%s\",\"%s\":{", s->engine->desc->name, s->engine->desc->name);
	for (unsigned i = 0; i < s->nopts; i++) {
		sb_printf(&b, "%s", i ? "," : "");
		sb_json_str(&b, s->opts[i].key);
		sb_printf(&b, ":");
		sb_json_str(&b, s->opts[i].value);
	}
	sb_printf(&b, "}");
	if (fio_step_is(s)) {	/* the job fio ran, as it ran it */
		char *job = fio_job_text(s);

		sb_printf(&b, ",\"fio_job\":");
		sb_json_str(&b, job);
		free(job);
		if (fio_version()) {	/* the local fio's, or on hosts= the client's */
			sb_printf(&b, ",\"fio_version\":");
			sb_json_str(&b, fio_version());
		}
	}
	sb_printf(&b, ",\"targets\":[");
	for (unsigned i = 0; i < wl->ntargets; i++) {
		sb_printf(&b, "%s", i ? "," : "");
		sb_json_str(&b, wl->targets[i].path);
	}
	sb_printf(&b, "]}");
	return sb_take(&b);
}

/* The same target twice in a step would split its load and halve its totals. */
static int check_twice(const struct step_spec *s, unsigned i, char *err, size_t len)
{
	const char *path = s->wl.targets[i].path;

	for (unsigned j = 0; j < i; j++) {
		if (!target_same_path(s->wl.targets[j].path, path))
			continue;
		snprintf(err, len, "target '%s' is given twice (first as '%s')", path,
			 s->wl.targets[j].path);
		return -EINVAL;
	}
	return 0;
}

/* A range past the target's end was cut to it without a word, the step
 * measuring less than the plan and its params said. (size= lays out files;
 * a block device is measured as it is, whatever size= a plan's defaults
 * give for the file targets it also runs on.) */
static int check_sizes(const struct step_spec *s, const struct target_spec *t, char *err,
		       size_t len)
{
	if (s->wl.range <= t->size)
		return 0;
	snprintf(err, len, "range=%llu is more than target '%s' holds (%llu bytes): give at "
		 "most its size, or a share such as 0.5 (1 for all of it)",
		 (unsigned long long)s->wl.range, t->path, (unsigned long long)t->size);
	return -EINVAL;
}

int step_range_bytes(struct workload *wl, double v, char *err, size_t len)
{
	if (v == floor(v) && v >= workload_max_bs(wl) && v < 0x1p63) {
		wl->range = (uint64_t)v;
		return 0;
	}
	snprintf(err, len, "range=%.14g: a share is at most 1 (0.5 or \"50%%\"); give a size "
		 "with a unit such as \"%.14gg\"", v, v < 1024 ? v : 8);
	return -EINVAL;
}

int step_resolve_targets(struct step_spec *s, char *err, size_t len)
{
	const struct hb_engine_ops *ops = s->engine->desc->ops;
	bool virt = ops->flags & HB_ENGINE_VIRTUAL;

	for (unsigned i = 0; i < s->wl.ntargets; i++) {
		struct target_spec *t = &s->wl.targets[i];
		uint64_t want = s->wl.size;
		int rc;

		if (virt && !want && HB_OPS_HAS(ops, target_size))
			want = ops->target_size(s->opts, s->nopts, i);
		rc = target_resolve(t->path, want, virt, &t->kind, &t->size, &t->create, err, len);

		if (rc)
			return rc;
		if ((rc = check_sizes(s, t, err, len)))
			return rc;
		if ((rc = check_twice(s, i, err, len)))
			return rc;
	}
	return 0;	/* may the run write there: the dry pass asks guard.c */
}

/* A fill writes passes x the range and stops; duration is then only a cap.
 * A fill's own keys only: a plan's default duration or ramp is meant for
 * measured steps, not as a cap on a fill. */
int step_check_fill(struct step_spec *s, bool own_duration, bool own_ramp, char *err,
		    size_t len)
{
	struct workload *wl = &s->wl;

	if (!wl->passes)
		return 0;
	if (wl->rw != RW_WRITE && wl->rw != RW_RANDWRITE) {
		snprintf(err, len, "passes=%u fills the targets: it needs rw=\"write\" "
			 "or \"randwrite\", not \"%s\"", wl->passes, rw_name(wl->rw));
		return -EINVAL;
	}
	if (!own_duration)
		wl->duration = 100000000;	/* about 3 years: no limit in practice */
	if (!own_ramp)
		wl->ramp = 0;
	return 0;
}

/* axis= (when given) names the parameter a sweep varies: its value here */
static int set_axis(struct step_spec *s, char *err, size_t len)
{
	static const char *const axes[] = { "oio", "write_pct", "bs", "workers", "rw", NULL };
	const struct workload *wl = &s->wl;
	char buf[256];

	if (!s->axis)
		return 0;
	for (unsigned i = 0; axes[i]; i++) {
		if (strcmp(axes[i], s->axis))
			continue;
		if (!strcmp(s->axis, "bs"))
			workload_bs_text(wl, buf, sizeof(buf));
		else if (!strcmp(s->axis, "rw"))
			snprintf(buf, sizeof(buf), "%s", rw_name(wl->rw));
		else
			snprintf(buf, sizeof(buf), "%u", !strcmp(s->axis, "oio") ? wl->oio :
				 !strcmp(s->axis, "workers") ? wl->workers : wl->write_pct);
		s->axis_value = strdup(buf);
		return 0;
	}
	snprintf(err, len, "axis=\"%s\": expected oio, write_pct, bs, workers or rw",
		 s->axis);
	return -EINVAL;
}

uint64_t step_fill_bytes(const struct step_spec *s)
{
	uint64_t bytes = 0;

	for (unsigned i = 0; s->wl.passes && i < s->wl.ntargets; i++)
		bytes += workload_span(&s->wl, i) * s->wl.passes;
	return bytes;
}

double step_estimate_secs(const struct step_spec *s)
{
	if (!s->wl.passes)
		return (double)s->wl.ramp + s->wl.duration;
	return (double)step_fill_bytes(s) / 1e9;	/* a fill: guessed at 1 GB/s */
}

static void default_name(struct step_spec *s)
{
	char bs[256];

	workload_bs_text(&s->wl, bs, sizeof(bs));
	if (s->wl.passes) {
		s->name = util_strdup_printf("fill %ux %s %s", s->wl.passes, bs,
					     s->wl.rw == RW_WRITE ? "sequential" : "random");
		return;
	}
	if (s->wl.write_pct == 0 || s->wl.write_pct == 100 ||
	    (s->wl.rw != RW_RW && s->wl.rw != RW_RANDRW))
		s->name = util_strdup_printf("%s %s oio%u", rw_name(s->wl.rw), bs, s->wl.oio);
	else
		s->name = util_strdup_printf("%s %s w%u%% oio%u", rw_name(s->wl.rw), bs,
					     s->wl.write_pct, s->wl.oio);
}

int step_spec_finish(struct step_spec *s, char *err, size_t len)
{
	int rc = set_axis(s, err, len);

	if (rc)
		return rc;
	if (!s->name)
		default_name(s);
	s->estimate = step_estimate_secs(s);
	s->params_json = step_params_json(s);
	return 0;
}

const char *step_kind_name(enum step_kind kind)
{
	static const char *const names[] = { "measure", "precondition", "steady-round", "exec" };

	return names[kind];
}

void step_where(const struct step_spec *s, char *buf, size_t len)
{
	const char *file = s->module_pos ? strrchr(s->module_pos, '/') : NULL;

	if (!s->module_pos)
		snprintf(buf, len, "line %d", s->line);
	else
		snprintf(buf, len, "line %d (%s)", s->line, file ? file + 1 : s->module_pos);
}

const char *step_on_error_name(enum step_on_error e)
{
	return e == ON_ERROR_CONTINUE ? "continue" : "fail";
}

void step_spec_free(struct step_spec *s)
{
	free(s->name);
	free(s->group);
	free(s->tags);
	free(s->params_json);
	free(s->axis);
	free(s->axis_value);
	free(s->cmd);
	free(s->cpus);
	free(s->module_pos);
	plugin_opts_free(s->opts, s->nopts);
	plugin_opts_free(s->facts, s->nfacts);
	for (unsigned i = 0; i < s->wl.ntargets; i++)
		free(s->wl.targets[i].path);
	free(s->wl.targets);
	memset(s, 0, sizeof(*s));
}

enum numa_mode step_numa(const struct step_spec *s)
{
	const struct hb_engine_ops *ops = s->engine->desc->ops;

	if (s->numa == NUMA_AUTO && (ops->flags & HB_ENGINE_VIRTUAL))
		return NUMA_NODE;
	return s->numa;
}
