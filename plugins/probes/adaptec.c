/* adaptec probe: Adaptec/Microchip cards through arcconf (GETVERSION,
 * GETCONFIG N AL): controller, cache backup unit, logical devices with their
 * cache settings and member drives. Facts cN.*, cN.vM.*, cN.vM.dK.*. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hbatest/plugin.h"
#include "hbatest/sysfs.h"
#include "hbatest/tool.h"

#define ARC_DRIVES 256

struct arc_drive {
	char serial[64];
	const char *at;		/* its block in the GETCONFIG text */
	bool in_volume;
};

struct arc {
	hb_emit_fn emit;
	void *ctx;
	const char *wwid;	/* per target: its NAA id, lower case; NULL: host */
	struct arc_drive d[ARC_DRIVES];
	unsigned nd;
};

struct arc_field {
	const char *key, *name;
	int kind;		/* ARC_TEXT, ARC_NUMBER (leading whole number), ARC_LEVEL */
};

enum { ARC_TEXT, ARC_NUMBER, ARC_LEVEL };

static void arc_put(struct arc *m, const char *prefix, const char *name, const char *value,
		    int kind)
{
	char k[128], v[300];
	size_t n = strspn(value, "0123456789");

	if (!value[0] || (kind == ARC_NUMBER && !n))
		return;
	if (kind == ARC_NUMBER)
		snprintf(v, sizeof(v), "%.*s", (int)n, value);
	else	/* "5" -> "RAID5", as the other cards name it; "Simple_volume" kept */
		snprintf(v, sizeof(v), "%s%s", kind == ARC_LEVEL && value[n] == '\0' ? "RAID" : "",
			 value);
	snprintf(k, sizeof(k), "%s%s", prefix, name);
	m->emit(m->ctx, k, v);
}

/* Facts of fields f from the lines at p up to a line starting with stop or
 * with the physical devices' heading. */
static void arc_fields(struct arc *m, const char *prefix, const char *p, const char *stop,
		       const struct arc_field *f, unsigned nf)
{
	char key[128], val[256];

	while (hb_tool_line(&p, key, sizeof(key), val, sizeof(val)) &&
	       strncmp(key, stop, strlen(stop)) && strcmp(key, "Physical Device information"))
		for (unsigned i = 0; i < nf; i++)
			if (!strcmp(key, f[i].key))
				arc_put(m, prefix, f[i].name, val, f[i].kind);
}

static void arc_drive_facts(struct arc *m, const char *prefix, const struct arc_drive *d)
{
	static const struct arc_field f[] = {
		{ "Reported Location", "slot", ARC_TEXT }, { "Vendor", "vendor", ARC_TEXT },
		{ "Model", "model", ARC_TEXT }, { "Firmware", "firmware", ARC_TEXT },
		{ "Transfer Speed", "speed", ARC_TEXT }, { "SSD", "ssd", ARC_TEXT },
		{ "Total Size", "size", ARC_TEXT }, { "State", "state", ARC_TEXT },
		{ "Current Temperature", "temperature_c", ARC_NUMBER },
	};

	arc_fields(m, prefix, d->at, "Device #", f, sizeof(f) / sizeof(f[0]));
}

/* Pass one: every physical device's block, by serial number. */
static void arc_find_drives(struct arc *m, const char *text)
{
	const char *p = text;
	char key[128], val[256];

	m->nd = 0;
	while (hb_tool_line(&p, key, sizeof(key), val, sizeof(val))) {
		if (!strncmp(key, "Device #", 8) && m->nd < ARC_DRIVES) {
			memset(&m->d[m->nd], 0, sizeof(m->d[0]));
			m->d[m->nd++].at = p;
		} else if (m->nd && !strcmp(key, "Serial number")) {
			snprintf(m->d[m->nd - 1].serial, sizeof(m->d[0].serial), "%.63s", val);
		}
	}
}

/* "Segment 0 : Present (...) SERIAL": the member with that serial. */
static struct arc_drive *arc_member(struct arc *m, const char *val)
{
	const char *serial = strrchr(val, ' ') ? strrchr(val, ' ') + 1 : val;

	for (unsigned i = 0; i < m->nd; i++)
		if (m->d[i].serial[0] && !strcmp(m->d[i].serial, serial))
			return &m->d[i];
	return NULL;
}

/* Whether the target is this logical device: its unique identifier ends the
 * disk's NAA id. */
static bool arc_is_target(const struct arc *m, const char *p)
{
	char key[128], val[256];
	size_t w = strlen(m->wwid), n;

	while (hb_tool_line(&p, key, sizeof(key), val, sizeof(val)) &&
	       strncmp(key, "Logical Device number", 21) && strncmp(key, "Physical Device", 15)) {
		if (strcmp(key, "Volume Unique Identifier") && strcmp(key, "Unique Identifier"))
			continue;
		for (char *q = val; *q; q++)
			*q = (char)tolower((unsigned char)*q);
		n = strlen(val);
		if (n >= 8 && w >= n && !strcmp(m->wwid + w - n, val))
			return true;
	}
	return false;
}

/* One logical device (after "Logical Device number N"). */
static void arc_volume(struct arc *m, const char *prefix, const char *p)
{
	static const struct arc_field f[] = {
		{ "Logical Device name", "name", ARC_TEXT },
		{ "Logical device name", "name", ARC_TEXT },
		{ "RAID level", "raid_level", ARC_LEVEL },
		{ "Status of Logical Device", "state", ARC_TEXT },
		{ "Status of logical device", "state", ARC_TEXT }, { "Size", "size", ARC_TEXT },
		{ "Stripe-unit size", "strip_kb", ARC_NUMBER },
		{ "Write-cache setting", "write_policy", ARC_TEXT },
		{ "Write-cache mode", "write_policy", ARC_TEXT },
		{ "Write-cache status", "write_policy_effective", ARC_TEXT },
		{ "Read-cache setting", "read_policy", ARC_TEXT },
		{ "Read-cache status", "read_policy_effective", ARC_TEXT },
		{ "Caching", "cache", ARC_TEXT },
		{ "Volume Unique Identifier", "naa_id", ARC_TEXT },
	};
	char key[128], val[256], dp[96];
	const char *q = p;
	unsigned k = 0;

	arc_fields(m, prefix, p, "Logical Device number", f, sizeof(f) / sizeof(f[0]));
	while (hb_tool_line(&q, key, sizeof(key), val, sizeof(val)) &&
	       strncmp(key, "Logical Device number", 21) && strncmp(key, "Physical Device", 15)) {
		struct arc_drive *d;

		/* "Segment 0", "Group 0, Segment 0" (series 8), "Device 0" */
		if ((!strstr(key, "Segment ") && strncmp(key, "Device ", 7)) ||
		    strncmp(val, "Present", 7) || !(d = arc_member(m, val)))
			continue;
		d->in_volume = true;
		snprintf(dp, sizeof(dp), "%sd%u.", prefix, k++);
		arc_drive_facts(m, dp, d);
	}
}

static void arc_controller(struct arc *m, const char *prefix, const char *p)
{
	static const struct arc_field f[] = {
		{ "Controller Model", "model", ARC_TEXT },
		{ "Controller Serial Number", "serial", ARC_TEXT },
		{ "Controller Status", "state", ARC_TEXT },
		{ "Controller Mode", "personality", ARC_TEXT },
		{ "Temperature", "temperature_c", ARC_NUMBER },
		{ "Installed memory", "cache_mb", ARC_NUMBER },
		{ "Host bus type", "pcie_type", ARC_TEXT },
		{ "Host bus speed", "pcie_speed", ARC_TEXT },
		{ "Host bus link width", "pcie_width", ARC_NUMBER },
		{ "BIOS", "bios", ARC_TEXT }, { "Firmware", "firmware", ARC_TEXT },
		{ "Driver", "driver_version", ARC_TEXT },
		{ "Backup Unit Type", "cache_protection", ARC_TEXT },
		{ "Overall Backup Unit Status", "cache_protection_state", ARC_TEXT },
	};

	arc_fields(m, prefix, p, "Logical device information", f, sizeof(f) / sizeof(f[0]));
}

/* One controller's GETCONFIG answer as facts. */
static void arc_config(struct arc *m, int c, const char *text)
{
	const char *p = text, *ctl = strstr(text, "Controller information");
	char key[128], val[256], prefix[48];
	bool given = false;
	unsigned k = 0;

	arc_find_drives(m, text);
	snprintf(prefix, sizeof(prefix), "c%d.", c);
	if (!m->wwid)
		arc_controller(m, prefix, ctl);
	while (hb_tool_line(&p, key, sizeof(key), val, sizeof(val))) {
		if (strncmp(key, "Logical Device number ", 22) && strncmp(key, "Logical drive number ", 21))
			continue;
		if (m->wwid && !arc_is_target(m, p))
			continue;
		if (m->wwid && !given)
			arc_controller(m, prefix, ctl);
		snprintf(prefix, sizeof(prefix), "c%d.v%d.", c, atoi(strrchr(key, ' ') + 1));
		arc_volume(m, prefix, p);
		given = true;
	}
	for (unsigned i = 0; i < m->nd && !m->wwid; i++) {
		if (m->d[i].in_volume)
			continue;
		snprintf(prefix, sizeof(prefix), "c%d.d%u.", c, k++);
		arc_drive_facts(m, prefix, &m->d[i]);
	}
}

static void arc_run_tool(struct arc *m, const char *tool, const char *name, unsigned timeout)
{
	char *ver_argv[] = { (char *)name, "GETVERSION", NULL }, num[16], msg[128];
	char *cfg_argv[] = { (char *)name, "GETCONFIG", num, "AL", NULL };
	char key[128], val[64];
	struct hb_tool_out r;
	int idx[16];
	unsigned n = 0;
	const char *p;

	if (!hb_tool_ask(m->emit, m->ctx, tool, ver_argv, timeout, &r))
		return;
	for (p = r.out; n < 16 && hb_tool_line(&p, key, sizeof(key), val, sizeof(val));)
		if (!strncmp(key, "Controller #", 12) && isdigit((unsigned char)key[12]))
			idx[n++] = atoi(key + 12);
	free(r.out);
	if (!n) {
		snprintf(msg, sizeof(msg), "unavailable: %s GETVERSION: no controller in its answer",
			 name);
		m->emit(m->ctx, "status", msg);
		return;
	}
	if (!m->wwid) {
		m->emit(m->ctx, "tool", name);
		m->emit(m->ctx, "status", "read");
	}
	for (unsigned i = 0; i < n; i++) {
		snprintf(num, sizeof(num), "%d", idx[i]);
		if (!hb_tool_ask(m->emit, m->ctx, tool, cfg_argv, timeout, &r))
			continue;
		if (!strstr(r.out, "Controller information")) {
			snprintf(msg, sizeof(msg), "unavailable: %s GETCONFIG %d AL: not the answer "
				 "expected", name, idx[i]);
			m->emit(m->ctx, "status", msg);
		} else {
			arc_config(m, idx[i], r.out);
		}
		free(r.out);
	}
}

static int adaptec_collect(const char *root, const char *target, const struct hb_kv *opts,
			   unsigned nopts, hb_emit_fn emit, void *ctx)
{
	const char *given = hb_opt_str(opts, nopts, "tool"), *name = given ? given : "arcconf";
	char tool[PATH_MAX], wwid[256] = "";
	struct arc *m;

	if (target && (hb_block_wwid(root, target, NULL, 0, wwid, sizeof(wwid)) || !wwid[0]))
		return -ENOENT;
	if (!hb_tool_find(name, tool, sizeof(tool))) {
		if (!target && !strcmp(root, "/"))	/* said once, of the live host */
			hb_tool_skipped(emit, ctx, given, "arcconf");
		return target ? -ENOENT : 0;
	}
	if (!(m = calloc(1, sizeof(*m))))
		return -ENOMEM;
	m->emit = emit;
	m->ctx = ctx;
	m->wwid = target ? wwid : NULL;
	arc_run_tool(m, tool, strrchr(name, '/') ? strrchr(name, '/') + 1 : name,
		     hb_tool_timeout(opts, nopts));
	free(m);
	return 0;
}

/* GETVERSION and GETCONFIG N AL as collect: the controller's state and
 * temperature, the backup unit's state, the logical devices' state and
 * write-cache status, the drives' state and temperature passed on. */
static int adaptec_sample(const char *root, const char *target, const struct hb_kv *opts,
			  unsigned nopts, hb_emit_fn emit, void *ctx)
{
	struct hb_tool_sample s = { emit, ctx };

	return adaptec_collect(root, target, opts, nopts, hb_tool_sample_emit, &s);
}

static const struct hb_option adaptec_options[] = {
	HB_TOOL_OPTIONS("path of arcconf (no arguments); default: PATH"),
	{ 0 },
};

static const struct hb_probe_ops adaptec_ops = {
	.struct_size = sizeof(struct hb_probe_ops),
	.collect = adaptec_collect,
	.flags = HB_PROBE_PER_TARGET | HB_PROBE_HOST,
	.sample = adaptec_sample,
};

const struct hb_plugin hbatest_plugin = HB_PLUGIN_INIT(HB_PLUGIN_PROBE, "adaptec",
	"Adaptec/Microchip card through arcconf: cache backup, logical devices, drives",
	&adaptec_ops, adaptec_options);
