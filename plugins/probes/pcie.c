/* pcie probe: the PCI function a target hangs off (its HBA, RAID card or NVMe
 * drive): IDs and names, driver, NUMA node, the trained and the maximum link,
 * and each link's ceiling in bytes per second per direction. */
#include <pci/pci.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hbatest/plugin.h"
#include "hbatest/sysfs.h"

/* The deepest "dddd:bb:dd.f" folder of a sysfs device path: the function nearest the disk. */
static int pci_function(const char *devpath, char *out, size_t len)
{
	char copy[PATH_MAX], *save = NULL, *best = NULL;
	size_t blen = 0;

	snprintf(copy, sizeof(copy), "%s", devpath);
	for (char *c = strtok_r(copy, "/", &save); c; c = strtok_r(NULL, "/", &save)) {
		unsigned d, b, s, f;
		char tail;

		if (sscanf(c, "%4x:%2x:%2x.%1x%c", &d, &b, &s, &f, &tail) == 4) {
			best = c;
			blen = (size_t)(c - copy) + strlen(c);
		}
	}
	if (!best)
		return -ENOENT;
	snprintf(out, len, "%.*s", (int)blen, devpath);
	return 0;
}

/* GT/s per lane and the line encoding of a generation's speed */
static double encoding(double gts)
{
	if (gts < 8)
		return 8.0 / 10;	/* PCIe 1-2: 8b/10b */
	if (gts < 64)
		return 128.0 / 130;	/* PCIe 3-5: 128b/130b */
	return 242.0 / 256;		/* PCIe 6: FLIT mode */
}

static double ceiling(double gts, unsigned width)
{
	return gts * 1e9 * width * encoding(gts) / 8;
}

static void emit_ceiling(hb_emit_fn emit, void *ctx, const char *key, double bps)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.0f", bps);
	emit(ctx, key, buf);
}

/* Read the link: speed (GT/s) and width; false when sysfs has no such attribute. */
static bool link_of(const char *root, const char *fn, const char *which, double *gts,
		    unsigned *width)
{
	char rel[PATH_MAX + 32], buf[64];

	snprintf(rel, sizeof(rel), "%s/%s_link_speed", fn, which);
	if (hb_sysfs_read(root, rel, buf, sizeof(buf)) < 0 || (*gts = strtod(buf, NULL)) <= 0)
		return false;
	snprintf(rel, sizeof(rel), "%s/%s_link_width", fn, which);
	if (hb_sysfs_read(root, rel, buf, sizeof(buf)) < 0 || !(*width = (unsigned)atoi(buf)))
		return false;
	return true;
}

/* libpci reports a fatal error through a function that must not return */
static jmp_buf pci_failed;

static void __attribute__((noreturn, format(printf, 1, 2))) pci_error(char *msg, ...)
{
	(void)msg;
	longjmp(pci_failed, 1);
}

static void __attribute__((format(printf, 1, 2))) pci_quiet(char *msg, ...)
{
	(void)msg;
}

static void names(const char *root, const char *fn, hb_emit_fn emit, void *ctx)
{
	char rel[PATH_MAX + 32], v[16], d[16], sv[16], sd[16], name[256];
	const char *attr[] = { "vendor", "device", "subsystem_vendor", "subsystem_device" };
	char *vals[] = { v, d, sv, sd };
	const char *keys[] = { "vendor_id", "device_id", "subsystem_vendor_id", "subsystem_device_id" };
	struct pci_access *pacc;

	for (int i = 0; i < 4; i++) {
		snprintf(rel, sizeof(rel), "%s/%s", fn, attr[i]);
		if (hb_sysfs_read(root, rel, vals[i], 16) < 0)
			return;
		emit(ctx, keys[i], vals[i]);
	}
	pacc = pci_alloc();
	if (!pacc)
		return;
	pacc->error = pci_error;
	pacc->warning = pci_quiet;
	pacc->debug = pci_quiet;
	if (setjmp(pci_failed)) {	/* no ID database or no access: IDs only */
		pci_cleanup(pacc);
		return;
	}
	pci_init(pacc);
	int iv = (int)strtol(v, NULL, 16), id = (int)strtol(d, NULL, 16);
	int isv = (int)strtol(sv, NULL, 16), isd = (int)strtol(sd, NULL, 16);

	if (pci_lookup_name(pacc, name, sizeof(name), PCI_LOOKUP_VENDOR | PCI_LOOKUP_NO_NUMBERS, iv))
		emit(ctx, "vendor_name", name);
	if (pci_lookup_name(pacc, name, sizeof(name), PCI_LOOKUP_DEVICE | PCI_LOOKUP_NO_NUMBERS, iv, id))
		emit(ctx, "device_name", name);
	if (pci_lookup_name(pacc, name, sizeof(name), PCI_LOOKUP_SUBSYSTEM | PCI_LOOKUP_DEVICE |
			    PCI_LOOKUP_NO_NUMBERS, iv, id, isv, isd))
		emit(ctx, "subsystem_name", name);
	pci_cleanup(pacc);
}

/* The link as trained now: what sample() reads. */
static void link_current(const char *root, const char *fn, hb_emit_fn emit, void *ctx)
{
	hb_emit_attr(root, fn, "current_link_speed", "current_link_speed", emit, ctx);
	hb_emit_attr(root, fn, "current_link_width", "current_link_width", emit, ctx);
}

static void links(const char *root, const char *fn, hb_emit_fn emit, void *ctx)
{
	double cur_gts, max_gts;
	unsigned cur_w, max_w;
	bool cur = link_of(root, fn, "current", &cur_gts, &cur_w);
	bool max = link_of(root, fn, "max", &max_gts, &max_w);
	char buf[128];

	link_current(root, fn, emit, ctx);
	hb_emit_attr(root, fn, "max_link_speed", "max_link_speed", emit, ctx);
	hb_emit_attr(root, fn, "max_link_width", "max_link_width", emit, ctx);
	if (cur)
		emit_ceiling(emit, ctx, "ceiling_current_bytes_per_s", ceiling(cur_gts, cur_w));
	if (max)
		emit_ceiling(emit, ctx, "ceiling_max_bytes_per_s", ceiling(max_gts, max_w));
	if (cur && max && (cur_w < max_w || cur_gts < max_gts)) {
		if (cur_gts == max_gts)
			snprintf(buf, sizeof(buf), "link trained x%u of x%u: ceiling %.2f GB/s "
				 "(x%u: %.2f GB/s)", cur_w, max_w, ceiling(cur_gts, cur_w) / 1e9,
				 max_w, ceiling(max_gts, max_w) / 1e9);
		else
			snprintf(buf, sizeof(buf), "link trained x%u at %.1f GT/s of x%u at "
				 "%.1f GT/s: ceiling %.2f GB/s (%.2f GB/s)", cur_w, cur_gts, max_w,
				 max_gts, ceiling(cur_gts, cur_w) / 1e9,
				 ceiling(max_gts, max_w) / 1e9);
		emit(ctx, "link_downtrained", buf);
	}
}

/* The sysfs folder of the PCI function target hangs off, into fn. */
static int pcie_target_function(const char *root, const char *target, char *fn, size_t len)
{
	char disk[PATH_MAX], dir[PATH_MAX];

	if (hb_block_sysdir(root, target, disk, sizeof(disk)))
		return -ENOENT;
	hb_block_pathdir(root, disk, dir, sizeof(dir));	/* a multipath head: a path */
	return pci_function(dir, fn, len);
}

static int pcie_collect(const char *root, const char *target, const struct hb_kv *opts,
			unsigned nopts, hb_emit_fn emit, void *ctx)
{
	char fn[PATH_MAX], rel[PATH_MAX + 16], drv[PATH_MAX], real[PATH_MAX];

	(void)opts;
	(void)nopts;
	if (pcie_target_function(root, target, fn, sizeof(fn)))
		return -ENOENT;
	emit(ctx, "address", strrchr(fn, '/') + 1);
	names(root, fn, emit, ctx);
	snprintf(rel, sizeof(rel), "%s/%s/driver", strcmp(root, "/") ? root : "", fn);
	if (realpath(rel, real)) {
		snprintf(drv, sizeof(drv), "%s", strrchr(real, '/') + 1);
		emit(ctx, "driver", drv);
	}
	hb_emit_attr(root, fn, "numa_node", "numa_node", emit, ctx);
	links(root, fn, emit, ctx);
	return 0;
}

/* The link as trained now (two sysfs reads, no ID database lookup): a link
 * that trains down during a run shows here. */
static int pcie_sample(const char *root, const char *target, const struct hb_kv *opts,
		       unsigned nopts, hb_emit_fn emit, void *ctx)
{
	char fn[PATH_MAX];

	(void)opts;
	(void)nopts;
	if (pcie_target_function(root, target, fn, sizeof(fn)))
		return -ENOENT;
	link_current(root, fn, emit, ctx);
	return 0;
}

static const struct hb_probe_ops pcie_ops = {
	.struct_size = sizeof(struct hb_probe_ops),
	.collect = pcie_collect,
	.flags = HB_PROBE_PER_TARGET,
	.sample = pcie_sample,
};

const struct hb_plugin hbatest_plugin = HB_PLUGIN_INIT(HB_PLUGIN_PROBE, "pcie",
	"the target's PCI function: IDs, names, driver, NUMA node, link and its ceiling",
	&pcie_ops, NULL);
