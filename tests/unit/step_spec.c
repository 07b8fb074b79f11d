/* A step's rules in plain C (core/measure/step_spec.c), without Lua: keys, fill,
 * axis, default name, estimate, params_json and target resolution. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "measure/loader.h"
#include "measure/step_spec.h"
#include "tap.h"
#include "measure/target.h"

static int is_str(const char *got, const char *want, const char *what)
{
	if (ok(got && !strcmp(got, want), "%s", what))
		return 1;
	diag("  got '%s', want '%s'", got ? got : "(null)", want);
	return 0;
}

static const struct hb_engine_ops virt_ops = { .struct_size = sizeof(virt_ops),
	.flags = HB_ENGINE_VIRTUAL };
static const struct hb_engine_ops file_ops = { .struct_size = sizeof(file_ops) };
static const struct hb_plugin virt_desc = { .name = "virt", .kind = HB_PLUGIN_ENGINE,
	.ops = &virt_ops };
static const struct hb_plugin file_desc = { .name = "psync", .kind = HB_PLUGIN_ENGINE,
	.ops = &file_ops };
static const struct plugin virt_engine = { .desc = &virt_desc };
static const struct plugin file_engine = { .desc = &file_desc };

/* 4k random read, oio 8, one worker, duration 60, ramp 5, on ntargets */
static void spec_init(struct step_spec *s, const struct plugin *engine, unsigned ntargets,
		      const char *const *paths)
{
	memset(s, 0, sizeof(*s));
	s->engine = engine;
	s->wl.rw = RW_RANDREAD;
	s->wl.bs[0] = (struct bs_choice){ 4096, 1 };
	s->wl.nbs = 1;
	s->wl.oio = 8;
	s->wl.workers = 1;
	s->wl.duration = 60;
	s->wl.ramp = 5;
	s->wl.seed = 1;
	s->telemetry = STEP_TELEMETRY_DEFAULT;
	s->wl.direct = true;
	s->wl.targets = calloc(ntargets ? ntargets : 1, sizeof(*s->wl.targets));
	for (unsigned i = 0; i < ntargets; i++)
		s->wl.targets[s->wl.ntargets++].path = strdup(paths[i]);
}

static void check_keys(void)
{
	char err[512];

	ok(step_key_known("oio") && step_key_known("on_error"), "oio and on_error are step keys");
	ok(!step_key_known("oi0"), "oi0 is not");
	is_int(step_unknown_key("oi0", err, sizeof(err)), -EINVAL, "an unknown key is -EINVAL");
	ok(strstr(err, "did you mean 'oio'?") != NULL, "and names the nearest key: %s", err);
	step_unknown_key("zzzzzzzz", err, sizeof(err));
	ok(strstr(err, "keys: name, rw,") != NULL, "a key near none lists them all");
}

static void check_fill(void)
{
	const char *paths[] = { "drive0" };
	struct step_spec s;
	char err[512];

	spec_init(&s, &virt_engine, 1, paths);
	s.wl.passes = 2;
	is_int(step_check_fill(&s, false, false, err, sizeof(err)), -EINVAL,
	       "a fill of random reads is refused");
	ok(strstr(err, "passes=2 fills the targets: it needs rw=\"write\"") != NULL,
	   "and says why: %s", err);
	s.wl.rw = RW_WRITE;
	is_int(step_check_fill(&s, false, false, err, sizeof(err)), 0, "a fill of writes is taken");
	ok(s.wl.duration == 100000000 && s.wl.ramp == 0,
	   "without its own duration and ramp it runs uncapped, no ramp");
	s.wl.duration = 30;
	s.wl.ramp = 2;
	step_check_fill(&s, true, true, err, sizeof(err));
	ok(s.wl.duration == 30 && s.wl.ramp == 2, "its own duration and ramp stay");
	step_spec_free(&s);
}

static void check_finish(void)
{
	const char *paths[] = { "drive0", "drive1" };
	struct step_spec s;
	char err[512];

	spec_init(&s, &virt_engine, 2, paths);
	is_int(step_spec_finish(&s, err, sizeof(err)), 0, "a measure step finishes");
	is_str(s.name, "randread 4k oio8", "its default name");
	ok(s.estimate == 65, "its estimate is ramp + duration (%.0f)", s.estimate);
	ok(s.axis_value == NULL, "no axis, no axis value");
	is_str(s.params_json, "{\"rw\":\"randread\",\"write_pct\":0,\"bs\":\"4k\",\"oio\":8,"
	       "\"workers\":1,\"qd\":0,\"duration\":60,\"ramp\":5,\"align\":0,\"direct\":true,"
	       "\"seed\":1,\"engine\":\"virt\",\"virt\":{},\"targets\":[\"drive0\",\"drive1\"]}",
	       "its params_json");
	step_spec_free(&s);

	spec_init(&s, &virt_engine, 1, paths);
	s.wl.rw = RW_RANDRW;
	s.wl.write_pct = 30;
	s.axis = strdup("write_pct");
	step_spec_finish(&s, err, sizeof(err));
	is_str(s.name, "randrw 4k w30% oio8", "a mixed step's default name has its write share");
	is_str(s.axis_value, "30", "axis=write_pct: its value");
	ok(strstr(s.params_json, "\"axis\":\"write_pct\"") != NULL, "params_json has the axis");
	step_spec_free(&s);

	spec_init(&s, &virt_engine, 1, paths);
	s.axis = strdup("depth");
	is_int(step_spec_finish(&s, err, sizeof(err)), -EINVAL, "an unknown axis is refused");
	ok(strstr(err, "axis=\"depth\": expected oio, write_pct, bs, workers or rw") != NULL,
	   "and the message lists the axes: %s", err);
	step_spec_free(&s);

	spec_init(&s, &virt_engine, 1, paths);
	s.wl.rw = RW_WRITE;
	s.wl.passes = 2;
	s.wl.targets[0].size = 500000000;	/* as resolved */
	s.on_error = ON_ERROR_CONTINUE;
	step_spec_finish(&s, err, sizeof(err));
	is_str(s.name, "fill 2x 4k sequential", "a fill's default name");
	ok(s.estimate == 1.0, "a fill is guessed at 1 GB/s (%.2f s)", s.estimate);
	ok(strstr(s.params_json, "\"passes\":2") && strstr(s.params_json,
	   "\"on_error\":\"continue\""), "params_json has passes and on_error");
	step_spec_free(&s);
}

static void check_targets(void)
{
	char dir[] = "/tmp/hbatest-unit.XXXXXX", file[64], err[512];
	const char *paths[2];
	struct step_spec s;

	if (!mkdtemp(dir)) {
		ok(0, "a temp folder: %s", strerror(errno));
		return;
	}
	snprintf(file, sizeof(file), "%s/t.dat", dir);
	paths[0] = file;
	spec_init(&s, &file_engine, 1, paths);
	s.wl.size = 1 << 20;
	is_int(step_resolve_targets(&s, err, sizeof(err)), 0, "a new file target resolves");
	ok(s.wl.targets[0].kind == TARGET_FILE && s.wl.targets[0].create &&
	   s.wl.targets[0].size == 1 << 20, "as a file to lay out at size=");
	step_spec_free(&s);

	paths[1] = file;
	spec_init(&s, &file_engine, 2, paths);
	s.wl.size = 1 << 20;
	is_int(step_resolve_targets(&s, err, sizeof(err)), -EINVAL,
	       "the same target twice in a step is refused");
	ok(strstr(err, "is given twice") != NULL, "and says so: %s", err);
	step_spec_free(&s);

	paths[0] = "drive7";
	spec_init(&s, &virt_engine, 1, paths);
	is_int(step_resolve_targets(&s, err, sizeof(err)), 0,
	       "a virtual engine's target is only a name");
	ok(s.wl.targets[0].kind == TARGET_VIRTUAL, "and resolves as virtual");
	step_spec_free(&s);
	rmdir(dir);
}

int main(void)
{
	check_keys();
	check_fill();
	check_finish();
	check_targets();
	return tap_done();
}
