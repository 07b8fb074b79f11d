/* scsi_host probe: the SCSI host (HBA or RAID card) behind a target: driver,
 * board, firmware and BIOS versions where the driver exposes them, can_queue. */
#include <stdio.h>
#include <string.h>

#include "hbatest/plugin.h"
#include "hbatest/sysfs.h"

static int scsi_host_collect(const char *root, const char *target, const struct hb_kv *opts,
			     unsigned nopts, hb_emit_fn emit, void *ctx)
{
	static const struct { const char *attr, *key; } attrs[] = {
		{ "proc_name", "driver" }, { "board_name", "board_name" },
		{ "board_assembly", "board_assembly" }, { "version_product", "product" },
		{ "version_fw", "firmware" }, { "fw_version", "firmware" },
		{ "version_bios", "bios" }, { "version_nvdata_persistent", "nvdata" },
		{ "can_queue", "can_queue" }, { "cmd_per_lun", "cmd_per_lun" },
		{ "sg_tablesize", "sg_tablesize" }, { "host_sas_address", "sas_address" },
	};
	char dir[PATH_MAX], copy[PATH_MAX], host[64] = "", hdir[128], *save = NULL;
	bool fw = false;

	(void)opts;
	(void)nopts;
	if (hb_block_sysdir(root, target, dir, sizeof(dir)))
		return -ENOENT;
	snprintf(copy, sizeof(copy), "%s", dir);
	for (char *c = strtok_r(copy, "/", &save); c; c = strtok_r(NULL, "/", &save))
		if (!strncmp(c, "host", 4) && c[4] >= '0' && c[4] <= '9')
			snprintf(host, sizeof(host), "%s", c);
	if (!host[0])
		return -ENOENT;	/* not behind a SCSI host (NVMe, virtio) */
	emit(ctx, "host", host);
	snprintf(hdir, sizeof(hdir), "sys/class/scsi_host/%s", host);
	for (unsigned i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++) {
		bool is_fw = !strcmp(attrs[i].key, "firmware");

		if (is_fw && fw)
			continue;
		if (hb_emit_attr(root, hdir, attrs[i].attr, attrs[i].key, emit, ctx) && is_fw)
			fw = true;
	}
	return 0;
}

static const struct hb_probe_ops scsi_host_ops = {
	.struct_size = sizeof(struct hb_probe_ops),
	.collect = scsi_host_collect,
	.flags = HB_PROBE_PER_TARGET,
};

const struct hb_plugin hbatest_plugin = HB_PLUGIN_INIT(HB_PLUGIN_PROBE, "scsi_host",
	"the HBA or RAID card behind a SCSI target: driver, board, firmware, can_queue",
	&scsi_host_ops, NULL);
