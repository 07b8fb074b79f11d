/* The sim engine keeps its drives' wear per option set: any number of sets
 * open (32 used to be the limit), and the table goes with the plugin. Under
 * SANITIZE=1 LeakSanitizer checks that last part: sim.so is dlclose'd here for
 * real (the loader keeps plugins mapped under ASan, see core/measure/loader.c). */
#include <dlfcn.h>
#include <stdarg.h>

#include "measure/loader.h"
#include "tap.h"

#define SETS 40

static void quiet(enum hb_log_level level, const char *fmt, ...)
{
	va_list ap;

	(void)level;
	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

/* One step of one 4 KiB write with the option drive_latency_us=lat; 0 or -errno. */
static int one_step(const struct plugin *p, int lat)
{
	const struct hb_engine_ops *ops = p->desc->ops;
	static char buf[4096];
	char v[16], err[256];
	struct hb_kv in[] = { { "drive_latency_us", v } }, *kv;
	struct hb_io io = { .buf = buf, .len = sizeof(buf), .op = HB_OP_WRITE }, *ios = &io;
	const int fd = -1;
	const uint64_t size = 1 << 30;
	unsigned n;
	void *ctx;
	int rc;

	snprintf(v, sizeof(v), "%d", lat);
	if (plugin_opts_resolve(p, in, 1, &kv, &n, err, sizeof(err)))
		return -EINVAL;
	struct hb_engine_setup s = {
		.struct_size = sizeof(s), .ntargets = 1, .fds = &fd, .sizes = &size,
		.depth = 1, .buf = buf, .buf_len = sizeof(buf), .seed = 1, .opts = kv,
		.nopts = n, .log = quiet, .nworkers = 1,
	};
	rc = ops->open(&s, &ctx);
	if (!rc) {
		if (ops->submit(ctx, &ios, 1) != 1 || ops->reap(ctx, 1, 1, &ios, 0) != 1)
			rc = -EIO;
		ops->close(ctx);
	}
	plugin_opts_free(kv, n);
	return rc;
}

int main(void)
{
	struct plugin p = { 0 };
	void *h = dlopen("plugins/sim.so", RTLD_NOW | RTLD_LOCAL);
	int failed = 0, first = 0;

	if (!ok(h && (p.desc = dlsym(h, HB_PLUGIN_SYMBOL)), "plugins/sim.so loads"))
		return tap_done();
	for (int i = 1; i <= SETS; i++) {
		int rc = one_step(&p, 50 + i);

		if (rc && !failed++)
			first = i;
	}
	is_int(failed, 0, "%d distinct option sets all open (first failure: set %d)", SETS, first);
	ok(one_step(&p, 51) == 0, "and the first set opens again");
	ok(dlclose(h) == 0, "sim.so unloads (its wear table freed: LSan checks under SANITIZE=1)");
	return tap_done();
}
