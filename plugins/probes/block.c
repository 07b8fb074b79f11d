/* block probe: what the kernel says of a target's block device, and its
 * temperature where the kernel's hwmon has one (sampled during a run). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hbatest/plugin.h"
#include "hbatest/sysfs.h"

/* "<dir>/size" in bytes: 512 B sectors; false when it is not a number (or
 * its bytes pass 2^64): left out, not made 0 */
static bool block_size(const char *root, const char *dir, char *out, size_t len)
{
	char rel[PATH_MAX + 16], buf[64], *end;
	unsigned long long sectors;

	snprintf(rel, sizeof(rel), "%s/size", dir);
	if (hb_sysfs_read(root, rel, buf, sizeof(buf)) <= 0 || buf[0] < '0' || buf[0] > '9')
		return false;
	errno = 0;
	sectors = strtoull(buf, &end, 10);
	if (*end || errno || sectors > ULLONG_MAX / 512)
		return false;
	snprintf(out, len, "%llu", sectors * 512);
	return true;
}

/* A partition's facts are its disk's, which says nothing of the partition:
 * its own name and size beside them. */
static void block_partition(const char *root, const char *target, hb_emit_fn emit, void *ctx)
{
	const char *name = strrchr(target, '/') ? strrchr(target, '/') + 1 : target;
	char dir[PATH_MAX], rel[PATH_MAX + 16], buf[64];

	snprintf(dir, sizeof(dir), "sys/class/block/%s", name);
	snprintf(rel, sizeof(rel), "%s/partition", dir);
	if (hb_sysfs_read(root, rel, buf, sizeof(buf)) < 0)
		return;
	emit(ctx, "partition", name);
	if (block_size(root, dir, buf, sizeof(buf)))
		emit(ctx, "partition_size_bytes", buf);
}

/* The drive's temperature from hwmon, in degrees C: the drivetemp driver's
 * under a SCSI/SATA disk's device (device/hwmon/hwmonN), the NVMe
 * controller's beside its namespaces (hwmonN in the controller's folder,
 * the disk's parent). temp1_input holds millidegrees. */
static bool block_hwmon_temp(const char *root, const char *dir, char *out, size_t len)
{
	static const char *const under[] = { "%s/device/hwmon", "%s/device", "%s/.." };
	char rel[PATH_MAX + 32], path[2 * PATH_MAX + 64], buf[32], *end;

	for (unsigned i = 0; i < sizeof(under) / sizeof(under[0]); i++) {
		struct dirent *e;
		DIR *d;

		snprintf(rel, sizeof(rel), under[i], dir);
		snprintf(path, sizeof(path), "%s/%s", root, rel);
		if (!(d = opendir(path)))
			continue;
		while ((e = readdir(d))) {
			char in[PATH_MAX + 64 + 256];
			long milli;

			if (strncmp(e->d_name, "hwmon", 5) || !e->d_name[5])
				continue;
			snprintf(in, sizeof(in), "%s/%s/temp1_input", rel, e->d_name);
			if (hb_sysfs_read(root, in, buf, sizeof(buf)) <= 0)
				continue;
			errno = 0;
			milli = strtol(buf, &end, 10);
			if (*end || errno || end == buf || milli < -100000 || milli > 250000)
				continue;	/* not a temperature a drive has */
			snprintf(out, len, "%ld", milli / 1000);
			closedir(d);
			return true;
		}
		closedir(d);
	}
	return false;
}

/* A loop device: the file it reads and writes (loop_backing_file) and
 * whether it does so with direct I/O (loop_direct_io, sysfs's loop/dio);
 * without, its I/O goes through the host's page cache, which loop_buffered
 * says for the run's warning: 227k IOPS of 4k reads measured memory. */
static void block_loop(const char *root, const char *dir, hb_emit_fn emit, void *ctx)
{
	char rel[PATH_MAX + 32], file[PATH_MAX], dio[16], msg[PATH_MAX + 256];

	snprintf(rel, sizeof(rel), "%s/loop/backing_file", dir);
	if (hb_sysfs_read(root, rel, file, sizeof(file)) <= 0)
		return;
	emit(ctx, "loop_backing_file", file);
	snprintf(rel, sizeof(rel), "%s/loop/dio", dir);
	if (hb_sysfs_read(root, rel, dio, sizeof(dio)) <= 0)
		return;
	emit(ctx, "loop_direct_io", dio);
	if (strcmp(dio, "0"))
		return;
	snprintf(msg, sizeof(msg), "a loop device over '%s' without direct I/O (its loop/dio is 0): "
		 "its reads and writes go through this host's page cache, so its figures "
		 "measure memory, not a disk (losetup --direct-io=on gives the file's own)", file);
	emit(ctx, "loop_buffered", msg);
}

static int block_collect(const char *root, const char *target, const struct hb_kv *opts,
			 unsigned nopts, hb_emit_fn emit, void *ctx)
{
	static const struct { const char *attr, *key; } attrs[] = {
		{ "device/model", "model" }, { "device/vendor", "vendor" },
		{ "device/rev", "revision" }, { "device/firmware_rev", "revision" },
		{ "device/serial", "serial" }, { "device/wwid", "wwid" }, { "wwid", "wwid" },
		{ "queue/logical_block_size", "logical_block_size" },
		{ "queue/physical_block_size", "physical_block_size" },
		{ "queue/rotational", "rotational" }, { "queue/nr_requests", "nr_requests" },
		{ "device/queue_depth", "queue_depth" }, { "queue/write_cache", "write_cache" },
		{ "queue/max_sectors_kb", "max_sectors_kb" },
	};
	char dir[PATH_MAX], rel[PATH_MAX + 16], buf[512];
	bool has_rev = false, has_wwid = false;

	(void)opts;
	(void)nopts;
	if (hb_block_sysdir(root, target, dir, sizeof(dir)))
		return -ENOENT;
	emit(ctx, "device", strrchr(dir, '/') + 1);
	if (block_size(root, dir, buf, sizeof(buf)))
		emit(ctx, "size_bytes", buf);
	block_partition(root, target, emit, ctx);
	for (unsigned i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++) {
		bool rev = !strcmp(attrs[i].key, "revision"), wwid = !strcmp(attrs[i].key, "wwid");

		if ((rev && has_rev) || (wwid && has_wwid))
			continue;	/* first source wins */
		if (hb_emit_attr(root, dir, attrs[i].attr, attrs[i].key, emit, ctx)) {
			has_rev |= rev;
			has_wwid |= wwid;
		}
	}
	snprintf(rel, sizeof(rel), "%s/queue/scheduler", dir);
	if (hb_sysfs_read(root, rel, buf, sizeof(buf)) >= 0) {	/* "none [mq-deadline] kyber" */
		char *open = strchr(buf, '['), *close = open ? strchr(open, ']') : NULL;

		if (open && close) {
			*close = '\0';
			emit(ctx, "scheduler", open + 1);
		} else {
			emit(ctx, "scheduler", buf);
		}
	}
	if (block_hwmon_temp(root, dir, buf, sizeof(buf)))
		emit(ctx, "temperature_c", buf);
	block_loop(root, dir, emit, ctx);
	return 0;
}

/* During a run: the drive's temperature (hwmon), nothing else changes. */
static int block_sample(const char *root, const char *target, const struct hb_kv *opts,
			unsigned nopts, hb_emit_fn emit, void *ctx)
{
	char dir[PATH_MAX], buf[32];

	(void)opts;
	(void)nopts;
	if (hb_block_sysdir(root, target, dir, sizeof(dir)))
		return -ENOENT;
	if (block_hwmon_temp(root, dir, buf, sizeof(buf)))
		emit(ctx, "temperature_c", buf);
	return 0;
}

static const struct hb_probe_ops block_ops = {
	.struct_size = sizeof(struct hb_probe_ops),
	.collect = block_collect,
	.flags = HB_PROBE_PER_TARGET,
	.sample = block_sample,
};

const struct hb_plugin hbatest_plugin = HB_PLUGIN_INIT(HB_PLUGIN_PROBE, "block",
	"model, serial, size, sector sizes, queue settings, hwmon temperature of a target's block device",
	&block_ops, NULL);
