/* smart probe: smartctl's view of a target (temperature, power-on hours, wear,
 * media errors) when smartctl is installed; otherwise one "skipped" fact. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hbatest/plugin.h"
#include "hbatest/sysfs.h"
#include "hbatest/tool.h"

/* The number after "key": found after "within" (NULL: anywhere). */
static bool json_number(const char *json, const char *within, const char *key, char *out,
			size_t len)
{
	char pat[96];
	const char *p = json;
	size_t n;

	if (within) {
		snprintf(pat, sizeof(pat), "\"%s\"", within);
		if (!(p = strstr(json, pat)))
			return false;
	}
	snprintf(pat, sizeof(pat), "\"%s\"", key);
	if (!(p = strstr(p, pat)))
		return false;
	p += strlen(pat);
	p += strspn(p, " \t\n:");
	n = strspn(p, "-0123456789.eEtruefals");
	if (!n || n >= len)
		return false;
	snprintf(out, len, "%.*s", (int)n, p);
	return true;
}

struct smart_field {
	const char *within, *key, *name;
};

static const struct smart_field smart_fields[] = {
	{ "temperature", "current", "temperature_c" },	/* first: all sample() reads */
	{ "power_on_time", "hours", "power_on_hours" },
	{ "smart_status", "passed", "smart_passed" },
	{ NULL, "percentage_used", "percentage_used" },
	{ NULL, "media_errors", "media_errors" },
	{ NULL, "available_spare", "available_spare" },
};

/* Run smartctl -j with the options opt (NULL-terminated) on the target's
 * disk and emit the first nf fields of its answer, or a status fact saying
 * why there is none. */
static int smart_ask(const char *root, const char *target, char *const opt[], unsigned nf,
		     hb_emit_fn emit, void *ctx)
{
	char dir[PATH_MAX], dev[PATH_MAX + 8], tool[PATH_MAX], cmd[PATH_MAX + 64], val[64];
	char *argv[8] = { "smartctl", "-j" };
	unsigned n = 2;
	struct hb_tool_out r;
	char *json;

	if (hb_block_sysdir(root, target, dir, sizeof(dir)))
		return -ENOENT;
	if (strcmp(root, "/")) {
		emit(ctx, "status", "skipped: not a live system (HBATEST_SYSFS_ROOT is set)");
		return 0;
	}
	if (!hb_tool_find("smartctl", tool, sizeof(tool))) {
		emit(ctx, "status", "skipped: smartctl is not installed");
		return 0;
	}
	while (*opt && n < 6)
		argv[n++] = *opt++;
	snprintf(dev, sizeof(dev), "/dev/%s", strrchr(dir, '/') + 1);
	argv[n] = dev;
	if (hb_tool_run(tool, argv, hb_tool_timeout(NULL, 0), 1 << 20, &r) < 0 || r.timed_out) {
		emit(ctx, "status", r.timed_out ? "unavailable: smartctl did not finish in time"
						: "skipped: cannot run smartctl");
		free(r.out);
		return 0;
	}
	json = r.out;
	/* exit status bits 0-1: bad command line, or the device could not be opened or
	 * identified (or, with -n standby, it is asleep) */
	if (!json_number(json, "smartctl", "exit_status", val, sizeof(val)) || (atoi(val) & 3)) {
		char msg[256] = "smartctl could not read the device";
		const char *s = strstr(json, "\"string\"");

		if (s && (s = strchr(s + 8, '"')))
			snprintf(msg, sizeof(msg), "%.*s", (int)strcspn(s + 1, "\""), s + 1);
		snprintf(cmd, sizeof(cmd), "unavailable: %s", msg);
		emit(ctx, "status", cmd);
		free(json);
		return 0;
	}
	emit(ctx, "status", "read");
	for (unsigned i = 0; i < nf; i++)
		if (json_number(json, smart_fields[i].within, smart_fields[i].key, val, sizeof(val)))
			emit(ctx, smart_fields[i].name, val);
	free(json);
	return 0;
}

static int smart_collect(const char *root, const char *target, const struct hb_kv *opts,
			 unsigned nopts, hb_emit_fn emit, void *ctx)
{
	char *const opt[] = { "-a", NULL };

	(void)opts;
	(void)nopts;
	return smart_ask(root, target, opt, sizeof(smart_fields) / sizeof(smart_fields[0]), emit,
			 ctx);
}

/* The temperature alone: smartctl -j -n standby -A (the attributes or the
 * health log, no self-test logs; a drive asleep is left asleep). */
static int smart_sample(const char *root, const char *target, const struct hb_kv *opts,
			unsigned nopts, hb_emit_fn emit, void *ctx)
{
	char *const opt[] = { "-n", "standby", "-A", NULL };

	(void)opts;
	(void)nopts;
	return smart_ask(root, target, opt, 1, emit, ctx);
}

static const struct hb_probe_ops smart_ops = {
	.struct_size = sizeof(struct hb_probe_ops),
	.collect = smart_collect,
	.flags = HB_PROBE_PER_TARGET,
	.sample = smart_sample,
};

const struct hb_plugin hbatest_plugin = HB_PLUGIN_INIT(HB_PLUGIN_PROBE, "smart",
	"smartctl: temperature, power-on hours, wear, media errors (skipped without it)",
	&smart_ops, NULL);
