/* mpt probe: LSI/Avago SAS HBAs (IT or IR firmware) through sas3ircu or
 * sas2ircu (LIST, N DISPLAY): controller, IR volumes, drives. Without the
 * tool, the mpt3sas/mpt2sas driver's attributes under sysfs. */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hbatest/plugin.h"
#include "hbatest/sysfs.h"
#include "hbatest/tool.h"

#define MPT_DRIVES 256

static const char *const mpt_tools[] = { "sas3ircu", "sas2ircu" };

struct mpt_drive {
	char slot[24];		/* "enclosure:slot" */
	char guid[40];		/* lower case */
	const char *at;		/* its block in the DISPLAY text */
	bool in_volume;
};

struct mpt {
	hb_emit_fn emit;
	void *ctx;
	const char *wwid;	/* per target: its NAA id, lower case; NULL: host */
	struct mpt_drive d[MPT_DRIVES];
	unsigned nd;
};

static void mpt_put(struct mpt *m, const char *prefix, const char *key, const char *value)
{
	char k[128];

	if (!value[0])
		return;
	snprintf(k, sizeof(k), "%s%s", prefix, key);
	m->emit(m->ctx, k, value);
}

/* The facts of the drive whose block starts at d->at (after "Device is a"). */
static void mpt_drive_facts(struct mpt *m, const char *prefix, const struct mpt_drive *d)
{
	static const struct { const char *key, *name; } f[] = {
		{ "State", "state" }, { "Size (in MB)/(in sectors)", "size_mb" },
		{ "Manufacturer", "vendor" }, { "Model Number", "model" },
		{ "Firmware Revision", "firmware" }, { "Protocol", "interface" },
		{ "Drive Type", "media" }, { "GUID", "guid" },
	};
	const char *p = d->at;
	char key[96], val[256];

	mpt_put(m, prefix, "slot", d->slot);
	while (hb_tool_line(&p, key, sizeof(key), val, sizeof(val)) && key[0] != '-' &&
	       strncmp(key, "Device is a", 11))
		for (unsigned i = 0; i < sizeof(f) / sizeof(f[0]); i++)
			if (!strcmp(key, f[i].key)) {
				if (i == 1)	/* "488386/1000215215": MB, then sectors */
					val[strcspn(val, "/")] = '\0';
				mpt_put(m, prefix, f[i].name, val);
			}
}

/* Pass one: every drive of the DISPLAY text, by its enclosure:slot. */
static void mpt_find_drives(struct mpt *m, const char *text)
{
	const char *p = text;
	char key[96], val[256], encl[16] = "";

	m->nd = 0;
	while (hb_tool_line(&p, key, sizeof(key), val, sizeof(val))) {
		struct mpt_drive *d = m->nd ? &m->d[m->nd - 1] : NULL;

		if (!strncmp(key, "Device is a", 11) && m->nd < MPT_DRIVES) {
			memset(&m->d[m->nd], 0, sizeof(m->d[0]));
			m->d[m->nd++].at = p;
		} else if (d && !strcmp(key, "Enclosure #")) {
			snprintf(encl, sizeof(encl), "%.15s", val);
		} else if (d && !strcmp(key, "Slot #")) {
			snprintf(d->slot, sizeof(d->slot), "%.7s:%.15s", encl, val);
		} else if (d && !strcmp(key, "GUID")) {
			for (unsigned i = 0; val[i] && i + 1 < sizeof(d->guid); i++)
				d->guid[i] = (char)tolower((unsigned char)val[i]);
		}
	}
}

static struct mpt_drive *mpt_drive_at(struct mpt *m, const char *slot)
{
	for (unsigned i = 0; i < m->nd; i++)
		if (!strcmp(m->d[i].slot, slot))
			return &m->d[i];
	return NULL;
}

/* Whether the target is this volume (its wwid ends the disk's NAA id). */
static bool mpt_is_target(const struct mpt *m, const char *vwwid)
{
	char low[64];
	size_t n = strlen(vwwid), w = strlen(m->wwid);

	for (size_t i = 0; i <= n && i < sizeof(low); i++)
		low[i] = (char)tolower((unsigned char)vwwid[i]);
	return n >= 8 && w >= n && !strcmp(m->wwid + w - n, low);
}

/* One volume's block (after "IR volume N"): facts under prefix, members
 * marked; per target nothing unless it is the target. Returns whether given. */
static bool mpt_volume(struct mpt *m, const char *prefix, const char *p)
{
	static const struct { const char *key, *name; } f[] = {
		{ "Volume ID", "id" }, { "Volume Name", "name" }, { "Status of volume", "state" },
		{ "Volume wwid", "wwid" }, { "RAID level", "raid_level" }, { "Size (in MB)", "size_mb" },
	};
	char key[96], val[256], dp[96];
	const char *q = p;
	unsigned k = 0;

	while (m->wwid && hb_tool_line(&q, key, sizeof(key), val, sizeof(val)) && key[0] != '-')
		if (!strcmp(key, "Volume wwid") && !mpt_is_target(m, val))
			return false;
	while (hb_tool_line(&p, key, sizeof(key), val, sizeof(val)) && key[0] != '-' &&
	       strncmp(key, "IR volume", 9)) {
		struct mpt_drive *d;

		for (unsigned i = 0; i < sizeof(f) / sizeof(f[0]); i++)
			if (!strcmp(key, f[i].key))
				mpt_put(m, prefix, f[i].name, val);
		if (strncmp(key, "PHY[", 4) || !(d = mpt_drive_at(m, val)))
			continue;
		d->in_volume = true;
		snprintf(dp, sizeof(dp), "%sd%u.", prefix, k++);
		mpt_drive_facts(m, dp, d);
	}
	return true;
}

static void mpt_controller(struct mpt *m, const char *prefix, const char *p)
{
	static const struct { const char *key, *name; } f[] = {
		{ "Controller type", "model" }, { "BIOS version", "bios" },
		{ "Firmware version", "firmware" },
	};
	char key[96], val[256];

	if (*p == '-')	/* the dashes under the heading */
		p += strcspn(p, "\n") + (p[strcspn(p, "\n")] == '\n');
	while (hb_tool_line(&p, key, sizeof(key), val, sizeof(val)) && key[0] != '-') {
		for (unsigned i = 0; i < sizeof(f) / sizeof(f[0]); i++)
			if (!strcmp(key, f[i].key))
				mpt_put(m, prefix, f[i].name, val);
		if (!strcmp(key, "RAID Support"))
			mpt_put(m, prefix, "personality", !strcmp(val, "Yes") ? "IR" : "IT");
	}
}

/* One controller's DISPLAY answer as facts cN.*, cN.vM.*, cN.dK.*. */
static void mpt_display(struct mpt *m, int c, const char *text)
{
	const char *p = text, *ctl = NULL;
	char key[96], val[256], prefix[48];
	bool target_given = false;
	unsigned v = 0, k = 0;

	mpt_find_drives(m, text);
	snprintf(prefix, sizeof(prefix), "c%d.", c);
	while (hb_tool_line(&p, key, sizeof(key), val, sizeof(val))) {
		if (!strcmp(key, "Controller information")) {
			ctl = p;
			if (!m->wwid)	/* per target: below, once the target is found behind it */
				mpt_controller(m, prefix, ctl);
		}
		if (strncmp(key, "IR volume", 9))
			continue;
		snprintf(prefix, sizeof(prefix), "c%d.v%u.", c, v++);
		if (!m->wwid || !target_given)
			target_given |= mpt_volume(m, prefix, p);
	}
	for (unsigned i = 0; i < m->nd; i++) {
		unsigned idx;

		if (m->d[i].in_volume)
			continue;
		idx = k++;
		if (m->wwid && (target_given || !m->d[i].guid[0] || !strstr(m->wwid, m->d[i].guid)))
			continue;
		snprintf(prefix, sizeof(prefix), "c%d.d%u.", c, idx);
		mpt_drive_facts(m, prefix, &m->d[i]);
		target_given = true;
	}
	snprintf(prefix, sizeof(prefix), "c%d.", c);
	if (ctl && m->wwid && target_given)
		mpt_controller(m, prefix, ctl);
}

/* The controller numbers of a LIST answer: the table rows under its dashes. */
static unsigned mpt_list(const char *text, int *idx, unsigned max)
{
	const char *p = text;
	char key[256], val[64];
	bool table = false;
	unsigned n = 0;

	while (n < max && hb_tool_line(&p, key, sizeof(key), val, sizeof(val))) {
		if (!strncmp(key, "-----", 5))
			table = true;
		else if (table && isdigit((unsigned char)key[0]) && strchr(key, ' '))
			idx[n++] = atoi(key);
		else if (table)
			table = false;
	}
	return n;
}

static void mpt_run_tool(struct mpt *m, const char *tool, const char *name, unsigned timeout)
{
	char *list_argv[] = { (char *)name, "LIST", NULL }, num[16], msg[128];
	char *disp_argv[] = { (char *)name, num, "DISPLAY", NULL };
	struct hb_tool_out r;
	int idx[16];
	unsigned n;

	if (!hb_tool_ask(m->emit, m->ctx, tool, list_argv, timeout, &r))
		return;
	n = mpt_list(r.out, idx, 16);
	free(r.out);
	if (!n) {
		snprintf(msg, sizeof(msg), "unavailable: %s LIST: no controller in its answer", name);
		m->emit(m->ctx, "status", msg);
		return;
	}
	if (!m->wwid) {
		m->emit(m->ctx, "tool", name);
		m->emit(m->ctx, "status", "read");
	}
	for (unsigned i = 0; i < n; i++) {
		snprintf(num, sizeof(num), "%d", idx[i]);
		if (!hb_tool_ask(m->emit, m->ctx, tool, disp_argv, timeout, &r))
			continue;
		if (!strstr(r.out, "Controller information")) {
			snprintf(msg, sizeof(msg), "unavailable: %s %d DISPLAY: not the answer expected",
				 name, idx[i]);
			m->emit(m->ctx, "status", msg);
		} else {
			mpt_display(m, idx[i], r.out);
		}
		free(r.out);
	}
}

/* Without the tool: each mpt3sas/mpt2sas SCSI host's driver attributes, as
 * cH.* for host H. Returns how many. */
static unsigned mpt_sysfs(struct mpt *m, const char *root)
{
	static const struct { const char *attr, *name; } f[] = {
		{ "proc_name", "driver" }, { "board_name", "model" }, { "version_fw", "firmware" },
		{ "version_bios", "bios" }, { "version_nvdata_persistent", "nvdata" },
	};
	char dir[PATH_MAX + 32], hdir[NAME_MAX + 32], val[64], key[64];
	unsigned n = 0;
	struct dirent *e;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/sys/class/scsi_host", strcmp(root, "/") ? root : "");
	if (!(d = opendir(dir)))
		return 0;
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, "host", 4))
			continue;
		snprintf(hdir, sizeof(hdir), "sys/class/scsi_host/%s/proc_name", e->d_name);
		if (hb_sysfs_read(root, hdir, val, sizeof(val)) < 0 ||
		    (strcmp(val, "mpt3sas") && strcmp(val, "mpt2sas")))
			continue;
		snprintf(hdir, sizeof(hdir), "sys/class/scsi_host/%s", e->d_name);
		for (unsigned i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
			snprintf(key, sizeof(key), "c%s.%s", e->d_name + 4, f[i].name);
			hb_emit_attr(root, hdir, f[i].attr, key, m->emit, m->ctx);
		}
		n++;
	}
	closedir(d);
	return n;
}

static int mpt_collect(const char *root, const char *target, const struct hb_kv *opts,
		       unsigned nopts, hb_emit_fn emit, void *ctx)
{
	const char *given = hb_opt_str(opts, nopts, "tool");
	char tool[PATH_MAX], wwid[256] = "";
	struct mpt *m = calloc(1, sizeof(*m));
	unsigned found = 0;

	if (!m)
		return -ENOMEM;
	m->emit = emit;
	m->ctx = ctx;
	if (target) {
		if (hb_block_wwid(root, target, NULL, 0, wwid, sizeof(wwid)) || !wwid[0])
			return free(m), -ENOENT;
		m->wwid = wwid;
	}
	for (unsigned i = 0; i < sizeof(mpt_tools) / sizeof(mpt_tools[0]); i++) {
		const char *name = given ? given : mpt_tools[i];

		if (!hb_tool_find(name, tool, sizeof(tool)))
			continue;
		mpt_run_tool(m, tool, strrchr(name, '/') ? strrchr(name, '/') + 1 : name,
			     hb_tool_timeout(opts, nopts));
		found++;
		if (given)
			break;
	}
	if (!found && !target) {
		unsigned hosts = mpt_sysfs(m, root);

		if (given && (hosts || !strcmp(root, "/")))
			hb_tool_skipped(emit, ctx, given, NULL);
		else if (hosts)
			emit(ctx, "status", "driver attributes only: no sas3ircu or sas2ircu on PATH");
		else if (!strcmp(root, "/"))
			hb_tool_skipped(emit, ctx, NULL, "sas3ircu or sas2ircu");
	}
	free(m);
	return 0;
}

/* LIST and N DISPLAY as collect (sas?ircu has no cheaper verb): the IR
 * volumes' and the drives' state passed on; the driver attributes are
 * fixed, so without the tool there is nothing to sample. */
static int mpt_sample(const char *root, const char *target, const struct hb_kv *opts,
		      unsigned nopts, hb_emit_fn emit, void *ctx)
{
	struct hb_tool_sample s = { emit, ctx };

	return mpt_collect(root, target, opts, nopts, hb_tool_sample_emit, &s);
}

static const struct hb_option mpt_options[] = {
	HB_TOOL_OPTIONS("path of sas3ircu or sas2ircu (no arguments); default: PATH"),
	{ 0 },
};

static const struct hb_probe_ops mpt_ops = {
	.struct_size = sizeof(struct hb_probe_ops),
	.collect = mpt_collect,
	.flags = HB_PROBE_PER_TARGET | HB_PROBE_HOST,
	.sample = mpt_sample,
};

const struct hb_plugin hbatest_plugin = HB_PLUGIN_INIT(HB_PLUGIN_PROBE, "mpt",
	"LSI/Avago SAS HBA (IT or IR) through sas3ircu or sas2ircu, else its driver's attributes",
	&mpt_ops, mpt_options);
