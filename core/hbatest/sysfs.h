/* hbatest probe helpers: reading sysfs under a root (a test's stand-in tree
 * or /). Inline, so a probe plugin imports nothing from the core. */
#ifndef HBATEST_SYSFS_H
#define HBATEST_SYSFS_H

#include "hbatest/plugin.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <unistd.h>

/* Read "<root>/<rel>" (one attribute), trailing white space removed.
 * Returns its length, or -errno (-ENOENT when it does not exist). */
static inline int hb_sysfs_read(const char *root, const char *rel, char *buf, size_t len)
{
	char path[3 * PATH_MAX];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", strcmp(root, "/") ? root : "", rel);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -EIO;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' ' || buf[n - 1] == '\t'))
		n--;
	buf[n] = '\0';
	return (int)n;
}

/* Emit "<key>" from attribute "<dir>/<attr>" when it exists; absent ones are
 * left out, never invented. Returns whether it was found. */
static inline int hb_emit_attr(const char *root, const char *dir, const char *attr,
			       const char *key, hb_emit_fn emit, void *ctx)
{
	char rel[2 * PATH_MAX + 8], val[512];

	snprintf(rel, sizeof(rel), "%s/%s", dir, attr);
	if (hb_sysfs_read(root, rel, val, sizeof(val)) < 0)
		return 0;
	emit(ctx, key, val);
	return 1;
}

/* The block device a per-target probe is given ("/dev/sdb") as its sysfs
 * device folder relative to root ("sys/devices/pci0000:00/.../block/sdb"),
 * a partition resolved to its disk. 0 or -ENOENT. */
static inline int hb_block_sysdir(const char *root, const char *target, char *out, size_t len)
{
	const char *name = strrchr(target, '/') ? strrchr(target, '/') + 1 : target;
	char path[2 * PATH_MAX], real[PATH_MAX], rroot[PATH_MAX] = "", probe[PATH_MAX + 16];
	size_t rl = 0;

	if (strcmp(root, "/")) {	/* the root as realpath() will spell it */
		if (!realpath(root, rroot))
			return -ENOENT;
		rl = strlen(rroot);
	}
	snprintf(path, sizeof(path), "%s/sys/class/block/%s", rroot, name);
	if (!realpath(path, real) || strncmp(real, rroot, rl))
		return -ENOENT;
	snprintf(probe, sizeof(probe), "%s/partition", real);
	if (access(probe, F_OK) == 0)
		*strrchr(real, '/') = '\0';	/* sdb1 -> sdb */
	if (strlen(real) <= rl + 1)
		return -ENOENT;
	snprintf(out, len, "%s", real + rl + 1);
	return 0;
}

/* The folder of a disk (as hb_block_sysdir gives it) where its controller
 * holds it. Under NVMe native multipath (CONFIG_NVME_MULTIPATH, the default
 * of most distributions) the disk is a virtual head, sys/devices/virtual/
 * nvme-subsystem/nvme-subsysN/nvmeXnY, with no PCI function above it; its
 * paths, multipath/nvmeXcZnY, lie under each controller: the first path by
 * name. Any other disk: dir itself. */
static inline void hb_block_pathdir(const char *root, const char *dir, char *out, size_t len)
{
	char mp[3 * PATH_MAX], first[NAME_MAX + 1] = "", real[PATH_MAX], rroot[PATH_MAX] = "";
	struct dirent *e;
	size_t rl = 0;
	DIR *d;

	snprintf(out, len, "%s", dir);
	if (strcmp(root, "/")) {
		if (!realpath(root, rroot))
			return;
		rl = strlen(rroot);
	}
	snprintf(mp, sizeof(mp), "%s/%s/multipath", rroot, dir);
	d = opendir(mp);
	if (!d)
		return;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.' && (!first[0] || strcmp(e->d_name, first) < 0))
			snprintf(first, sizeof(first), "%s", e->d_name);
	closedir(d);
	snprintf(mp + strlen(mp), sizeof(mp) - strlen(mp), "/%s", first);
	if (first[0] && realpath(mp, real) && !strncmp(real, rroot, rl) && real[rl] == '/')
		snprintf(out, len, "%s", real + rl + 1);
}

/* A per-target probe's disk ("sdb", into disk when not NULL) and its world
 * wide name from device/wwid, lower case, its "naa." tag dropped
 * ("5002538d40029464"; "" when the disk has none). 0 or -ENOENT. */
static inline int hb_block_wwid(const char *root, const char *target, char *disk, size_t dlen,
				char *wwid, size_t wlen)
{
	char dir[PATH_MAX], rel[PATH_MAX + 16];

	if (hb_block_sysdir(root, target, dir, sizeof(dir)))
		return -ENOENT;
	if (disk)
		snprintf(disk, dlen, "%s", strrchr(dir, '/') + 1);
	snprintf(rel, sizeof(rel), "%s/device/wwid", dir);
	if (hb_sysfs_read(root, rel, wwid, wlen) < 0)
		wwid[0] = '\0';
	for (char *q = wwid; *q; q++)
		*q = (char)tolower((unsigned char)*q);
	if (!strncmp(wwid, "naa.", 4))
		memmove(wwid, wwid + 4, strlen(wwid + 4) + 1);
	return 0;
}

#endif
