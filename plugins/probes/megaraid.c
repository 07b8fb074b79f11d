/* megaraid probe: a MegaRAID or PERC card through storcli/perccli (JSON,
 * read-only "show all" verbs): controller, cache protection, volumes with
 * their cache policy, member drives. Facts cN.*, cN.vM.*, cN.vM.dK.*. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hbatest/plugin.h"
#include "hbatest/sysfs.h"
#include "hbatest/tool.h"
#include "megaraid_json.h"

static const char *const mr_tools[] = { "storcli64", "storcli", "perccli64", "perccli" };

struct mr {
	hb_emit_fn emit;
	void *ctx;
	const struct mj *all, *vall, *sall;	/* the three answers' "Controllers" */
	const char *disk;	/* per target: "sdb"; NULL: every controller */
	const char *wwid;	/* per target: its NAA id, lower case hex */
};

static void mr_put(struct mr *m, const char *prefix, const char *key, const char *value)
{
	char k[128];

	if (!value)
		return;
	snprintf(k, sizeof(k), "%s%s", prefix, key);
	m->emit(m->ctx, k, value);
}

/* Member key of object o as trimmed text, or NULL. */
static const char *mr_text(const struct mj *o, const char *key, char *buf, size_t len)
{
	return mj_text(mj_get(o, key), buf, len);
}

/* The leading whole number of "53", " 30C (86.00 F)", "1024MB"; NULL without. */
static const char *mr_number(const char *s, char *buf, size_t len)
{
	if (!s)
		return NULL;
	s += strspn(s, " ");
	if (!isdigit((unsigned char)*s))
		return NULL;
	snprintf(buf, len, "%.*s", (int)strspn(s, "0123456789"), s);
	return buf;
}

/* The answer for controller c in an answer's "Controllers" list. */
static const struct mj *mr_response(const struct mj *ctls, int c)
{
	const struct mj *e;
	char buf[32];

	for (unsigned i = 0; (e = mj_at(ctls, i)); i++) {
		const struct mj *st = mj_get(e, "Command Status");

		if (mr_text(st, "Controller", buf, sizeof(buf)) && atoi(buf) == c)
			return mj_get(e, "Response Data");
	}
	return NULL;
}

/* Cache protection: a CacheVault or a BBU, and its state. */
static void mr_protection(struct mr *m, const char *p, const struct mj *rd)
{
	static const struct { const char *list, *kind; } kinds[] = {
		{ "Cachevault_Info", "CacheVault" }, { "BBU_Info", "BBU" },
	};
	char buf[256];

	for (unsigned i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		const struct mj *e = mj_at(mj_get(rd, kinds[i].list), 0);

		if (!e)
			continue;
		mr_put(m, p, "cache_protection", kinds[i].kind);
		mr_put(m, p, "cache_protection_model", mr_text(e, "Model", buf, sizeof(buf)));
		mr_put(m, p, "cache_protection_state", mr_text(e, "State", buf, sizeof(buf)));
		return;
	}
	mr_put(m, p, "cache_protection", "none");
}

static void mr_controller(struct mr *m, int c, const struct mj *rd)
{
	static const struct { const char *section, *key, *name; } f[] = {
		{ "Basics", "Model", "model" }, { "Basics", "Serial Number", "serial" },
		{ "Version", "Firmware Package Build", "firmware_package" },
		{ "Version", "Firmware Version", "firmware" },
		{ "Version", "Bios Version", "bios" }, { "Version", "Driver Name", "driver" },
		{ "Version", "Driver Version", "driver_version" },
		{ "Capabilities", "Current Personality", "personality" },
		{ "Bus", "Host Interface", "host_interface" },
	};
	const struct mj *hw = mj_get(rd, "HwCfg");
	char p[32], buf[256], num[32];

	snprintf(p, sizeof(p), "c%d.", c);
	for (unsigned i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		mr_put(m, p, f[i].name, mr_text(mj_get(rd, f[i].section), f[i].key, buf, sizeof(buf)));
	mr_put(m, p, "cache_mb", mr_number(mr_text(hw, "On Board Memory Size", buf, sizeof(buf)),
					   num, sizeof(num)));
	mr_put(m, p, "temperature_c",
	       mr_number(mr_text(hw, "ROC temperature(Degree Celsius)", buf, sizeof(buf)), num,
			 sizeof(num)));
	mr_protection(m, p, rd);
}

/* storcli's cache code: read-ahead (R, NR), write (AWB, WB, WT), I/O (D, C),
 * as "RWBD" or "NRWTD". false when it is none of these. */
static bool mr_cache_code(const char *s, const char **rd, const char **wr, const char **io)
{
	*rd = !strncmp(s, "NR", 2) ? "NoReadAhead" : *s == 'R' ? "ReadAhead" : NULL;
	if (!*rd)
		return false;
	s += *s == 'N' ? 2 : 1;
	*wr = !strncmp(s, "AWB", 3) ? "AlwaysWriteBack" : !strncmp(s, "WB", 2) ? "WriteBack"
		: !strncmp(s, "WT", 2) ? "WriteThrough" : NULL;
	if (!*wr)
		return false;
	s += *s == 'A' ? 3 : 2;
	*io = !strcmp(s, "D") ? "Direct" : !strcmp(s, "C") ? "Cached" : NULL;
	return *io != NULL;
}

/* The details of drive "E:S" from the eall/sall answer. */
static void mr_drive(struct mr *m, const char *p, int c, const char *eslot, const struct mj *pd,
		     const struct mj *sall)
{
	char name[96], sec[160], buf[256], num[32];
	const struct mj *det, *attr;
	int e = atoi(eslot), s = strchr(eslot, ':') ? atoi(strchr(eslot, ':') + 1) : 0;

	snprintf(name, sizeof(name), "Drive /c%d/e%d/s%d", c, e, s);
	if (!pd)
		pd = mj_at(mj_get(sall, name), 0);
	snprintf(sec, sizeof(sec), "%s - Detailed Information", name);
	det = mj_get(sall, sec);
	snprintf(sec, sizeof(sec), "%s Device attributes", name);
	attr = mj_get(det, sec);
	mr_put(m, p, "slot", eslot);
	mr_put(m, p, "model", mr_text(pd, "Model", buf, sizeof(buf)));
	mr_put(m, p, "firmware", mr_text(attr, "Firmware Revision", buf, sizeof(buf)));
	mr_put(m, p, "interface", mr_text(pd, "Intf", buf, sizeof(buf)));
	mr_put(m, p, "speed", mr_text(attr, "Link Speed", buf, sizeof(buf)));
	mr_put(m, p, "media", mr_text(pd, "Med", buf, sizeof(buf)));
	mr_put(m, p, "size", mr_text(pd, "Size", buf, sizeof(buf)));
	mr_put(m, p, "state", mr_text(pd, "State", buf, sizeof(buf)));
	snprintf(sec, sizeof(sec), "%s State", name);
	mr_put(m, p, "temperature_c", mr_number(mr_text(mj_get(det, sec), "Drive Temperature", buf,
							sizeof(buf)), num, sizeof(num)));
}

/* Whether volume properties props are the target's disk. */
static bool mr_is_target(const struct mr *m, const struct mj *props)
{
	char buf[256], dev[80];

	snprintf(dev, sizeof(dev), "/dev/%s", m->disk);
	if (mr_text(props, "OS Drive Name", buf, sizeof(buf)) && !strcmp(buf, dev))
		return true;
	if (m->wwid[0] && mr_text(props, "SCSI NAA Id", buf, sizeof(buf))) {
		for (char *q = buf; *q; q++)
			*q = (char)tolower((unsigned char)*q);
		return strstr(m->wwid, buf) != NULL;
	}
	return false;
}

static void mr_volume_facts(struct mr *m, const char *p, const struct mj *vd,
			    const struct mj *props)
{
	const char *rd, *wr, *io;
	char buf[256], num[32];

	mr_put(m, p, "id", mr_text(vd, "DG/VD", buf, sizeof(buf)));
	mr_put(m, p, "name", mr_text(vd, "Name", buf, sizeof(buf)));
	mr_put(m, p, "raid_level", mr_text(vd, "TYPE", buf, sizeof(buf)));
	mr_put(m, p, "state", mr_text(vd, "State", buf, sizeof(buf)));
	mr_put(m, p, "size", mr_text(vd, "Size", buf, sizeof(buf)));
	mr_put(m, p, "strip_kb", mr_number(mr_text(props, "Strip Size", buf, sizeof(buf)), num,
					   sizeof(num)));
	mr_put(m, p, "write_policy", mr_text(props, "Write Cache(initial setting)", buf,
					     sizeof(buf)));
	if (mr_text(vd, "Cache", buf, sizeof(buf))) {
		mr_put(m, p, "cache", buf);
		if (mr_cache_code(buf, &rd, &wr, &io)) {
			mr_put(m, p, "write_policy_effective", wr);
			mr_put(m, p, "read_policy", rd);
			mr_put(m, p, "io_policy", io);
		}
	}
	mr_put(m, p, "drive_cache", mr_text(props, "Disk Cache Policy", buf, sizeof(buf)));
	mr_put(m, p, "os_device", mr_text(props, "OS Drive Name", buf, sizeof(buf)));
	mr_put(m, p, "naa_id", mr_text(props, "SCSI NAA Id", buf, sizeof(buf)));
	mr_put(m, p, "active_operations", mr_text(props, "Active Operations", buf, sizeof(buf)));
}

/* Volumes of controller c (their drives too); per target only its own.
 * Returns how many it gave. */
static int mr_volumes(struct mr *m, int c, const struct mj *vrd, const struct mj *srd)
{
	const struct mj *e;
	int given = 0;

	for (e = vrd && vrd->type == MJ_OBJ ? vrd->child : NULL; e; e = e->next) {
		const struct mj *vd = mj_at(e, 0), *props, *pds, *pd;
		char sec[64], p[64], dp[80], buf[64];
		int v;

		if (sscanf(e->key, "/c%*d/v%d", &v) != 1)
			continue;
		snprintf(sec, sizeof(sec), "VD%d Properties", v);
		props = mj_get(vrd, sec);
		if (m->disk && !mr_is_target(m, props))
			continue;
		snprintf(p, sizeof(p), "c%d.v%d.", c, v);
		mr_volume_facts(m, p, vd, props);
		snprintf(sec, sizeof(sec), "PDs for VD %d", v);
		pds = mj_get(vrd, sec);
		for (unsigned d = 0; (pd = mj_at(pds, d)); d++) {
			snprintf(dp, sizeof(dp), "%sd%u.", p, d);
			if (mr_text(pd, "EID:Slt", buf, sizeof(buf)))
				mr_drive(m, dp, c, buf, pd, srd);
		}
		given++;
	}
	return given;
}

/* Drives in no volume (JBOD, unconfigured, spares): cN.dK, host-level only. */
static void mr_loose_drives(struct mr *m, int c, const struct mj *srd)
{
	unsigned k = 0;

	for (const struct mj *e = srd && srd->type == MJ_OBJ ? srd->child : NULL; e; e = e->next) {
		const struct mj *pd = mj_at(e, 0);
		char buf[64], p[48];

		if (e->type != MJ_ARR || !mr_text(pd, "EID:Slt", buf, sizeof(buf)))
			continue;
		if (mr_text(pd, "DG", p, sizeof(p)) && strcmp(p, "-"))
			continue;	/* in a drive group: listed under its volume */
		snprintf(p, sizeof(p), "c%d.d%u.", c, k++);
		mr_drive(m, p, c, buf, pd, srd);
	}
}

/* Whether one of the volumes in answer vrd is the target's disk. */
static bool mr_has_target(const struct mr *m, const struct mj *vrd)
{
	for (const struct mj *e = vrd && vrd->type == MJ_OBJ ? vrd->child : NULL; e; e = e->next) {
		char sec[64];
		int v;

		if (sscanf(e->key, "/c%*d/v%d", &v) != 1)
			continue;
		snprintf(sec, sizeof(sec), "VD%d Properties", v);
		if (mr_is_target(m, mj_get(vrd, sec)))
			return true;
	}
	return false;
}

static void mr_controllers(struct mr *m)
{
	const struct mj *e;
	char buf[256];

	for (unsigned i = 0; (e = mj_at(m->all, i)); i++) {
		const struct mj *st = mj_get(e, "Command Status"), *rd = mj_get(e, "Response Data");
		int c = mr_text(st, "Controller", buf, sizeof(buf)) ? atoi(buf) : (int)i;
		const struct mj *vrd = mr_response(m->vall, c), *srd = mr_response(m->sall, c);
		char p[32];

		snprintf(p, sizeof(p), "c%d.", c);
		if (m->disk && !mr_has_target(m, vrd))
			continue;
		if (!mr_text(st, "Status", buf, sizeof(buf)) || strcmp(buf, "Success") || !rd) {
			char msg[300];

			snprintf(msg, sizeof(msg), "unavailable: %s",
				 mr_text(st, "Description", buf, sizeof(buf)) ? buf : "no answer");
			mr_put(m, p, "status", msg);
			continue;
		}
		mr_controller(m, c, rd);
		mr_volumes(m, c, vrd, srd);
		if (!m->disk)
			mr_loose_drives(m, c, srd);
	}
}

/* Run tool with one read-only verb; its "Controllers" list parsed into *out,
 * or a status fact saying why not (false). */
static bool mr_ask(hb_emit_fn emit, void *ctx, const char *tool, const char *name,
		   const char *verb, unsigned timeout, struct mj **out)
{
	char *argv[8] = { (char *)name }, copy[64], msg[PATH_MAX + 128], *save = NULL;
	unsigned n = 1;
	struct hb_tool_out r;
	const char *fail;

	snprintf(copy, sizeof(copy), "%s", verb);
	for (char *w = strtok_r(copy, " ", &save); w && n < 7; w = strtok_r(NULL, " ", &save))
		argv[n++] = w;
	*out = NULL;
	if (hb_tool_run(tool, argv, timeout, HB_TOOL_CAP, &r) < 0) {
		snprintf(msg, sizeof(msg), "unavailable: cannot run %s", tool);
		emit(ctx, "status", msg);
		return false;
	}
	if ((fail = hb_tool_failure(name, &r, timeout, msg, sizeof(msg)))) {
		emit(ctx, "status", fail);
	} else if (r.cut) {
		snprintf(msg, sizeof(msg), "unavailable: %s %s: output cut at %u bytes", name, verb,
			 HB_TOOL_CAP);
		emit(ctx, "status", msg);
	} else if (!(*out = mj_parse(r.out)) || !mj_get(*out, "Controllers")) {
		snprintf(msg, sizeof(msg), "unavailable: %s %s: not the JSON expected", name, verb);
		emit(ctx, "status", msg);
		mj_free(*out);
		*out = NULL;
	}
	free(r.out);
	return *out != NULL;
}

static int megaraid_collect(const char *root, const char *target, const struct hb_kv *opts,
			    unsigned nopts, hb_emit_fn emit, void *ctx)
{
	const char *given = hb_opt_str(opts, nopts, "tool"), *name = NULL;
	char tool[PATH_MAX], disk[NAME_MAX + 1] = "", wwid[256] = "";
	unsigned timeout = hb_tool_timeout(opts, nopts);
	struct mj *all = NULL, *vall = NULL, *sall = NULL;
	struct mr m = { emit, ctx, NULL, NULL, NULL, NULL, wwid };

	if (target && hb_block_wwid(root, target, disk, sizeof(disk), wwid, sizeof(wwid)))
		return -ENOENT;
	for (unsigned i = 0; !name && i < sizeof(mr_tools) / sizeof(mr_tools[0]); i++)
		if (hb_tool_find(given ? given : mr_tools[i], tool, sizeof(tool)))
			name = given ? given : mr_tools[i];
	if (!name) {	/* said once, of the live host; a fixture tree's tests say it */
		if (target || strcmp(root, "/"))
			return -ENOENT;
		hb_tool_skipped(emit, ctx, given, "storcli64, storcli, perccli64 or perccli");
		return 0;
	}
	name = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
	if (mr_ask(emit, ctx, tool, name, "/call show all J", timeout, &all) &&
	    mr_ask(emit, ctx, tool, name, "/call/vall show all J", timeout, &vall) &&
	    mr_ask(emit, ctx, tool, name, "/call/eall/sall show all J", timeout, &sall)) {
		m.all = mj_get(all, "Controllers");
		m.vall = mj_get(vall, "Controllers");
		m.sall = mj_get(sall, "Controllers");
		m.disk = target ? disk : NULL;
		if (!target) {
			emit(ctx, "tool", name);
			emit(ctx, "status", "read");
		}
		mr_controllers(&m);
	}
	mj_free(all);
	mj_free(vall);
	mj_free(sall);
	return 0;
}

/* The same three verbs as collect (the controller's temperature and cache
 * protection, the volumes' state, cache code and operations, the drives'
 * state and temperature), only those facts passed on. */
static int megaraid_sample(const char *root, const char *target, const struct hb_kv *opts,
			   unsigned nopts, hb_emit_fn emit, void *ctx)
{
	struct hb_tool_sample s = { emit, ctx };

	return megaraid_collect(root, target, opts, nopts, hb_tool_sample_emit, &s);
}

static const struct hb_option megaraid_options[] = {
	HB_TOOL_OPTIONS("path of storcli or perccli (no arguments); default: PATH"),
	{ 0 },
};

static const struct hb_probe_ops megaraid_ops = {
	.struct_size = sizeof(struct hb_probe_ops),
	.collect = megaraid_collect,
	.flags = HB_PROBE_PER_TARGET | HB_PROBE_HOST,
	.sample = megaraid_sample,
};

const struct hb_plugin hbatest_plugin = HB_PLUGIN_INIT(HB_PLUGIN_PROBE, "megaraid",
	"MegaRAID/PERC card through storcli or perccli: cache policy, CacheVault/BBU, volumes, drives",
	&megaraid_ops, megaraid_options);
