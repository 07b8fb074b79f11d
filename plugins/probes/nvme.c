/* nvme probe: model, serial, firmware revision and transport of an NVMe target. */
#include <stdio.h>
#include <string.h>

#include "hbatest/plugin.h"
#include "hbatest/sysfs.h"

static int nvme_collect(const char *root, const char *target, const struct hb_kv *opts,
			unsigned nopts, hb_emit_fn emit, void *ctx)
{
	char disk[PATH_MAX], dir[PATH_MAX], *slash;

	(void)opts;
	(void)nopts;
	if (hb_block_sysdir(root, target, disk, sizeof(disk)))
		return -ENOENT;
	hb_block_pathdir(root, disk, dir, sizeof(dir));	/* a multipath head: a path */
	if (!strstr(dir, "/nvme/"))
		return -ENOENT;
	slash = strrchr(dir, '/');	/* .../nvme/nvme0/nvme0n1 (or nvme0c0n1) -> .../nvme/nvme0 */
	*slash = '\0';
	emit(ctx, "controller", strrchr(dir, '/') + 1);
	hb_emit_attr(root, dir, "model", "model", emit, ctx);
	hb_emit_attr(root, dir, "serial", "serial", emit, ctx);
	hb_emit_attr(root, dir, "firmware_rev", "firmware", emit, ctx);
	hb_emit_attr(root, dir, "transport", "transport", emit, ctx);
	hb_emit_attr(root, dir, "queue_count", "queue_count", emit, ctx);
	return 0;
}

static const struct hb_probe_ops nvme_ops = {
	.struct_size = sizeof(struct hb_probe_ops),
	.collect = nvme_collect,
	.flags = HB_PROBE_PER_TARGET,
};

const struct hb_plugin hbatest_plugin = HB_PLUGIN_INIT(HB_PLUGIN_PROBE, "nvme",
	"model, serial, firmware revision and transport of an NVMe drive", &nvme_ops, NULL);
