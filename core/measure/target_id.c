/* What a target path really names: symlinks to their end, loop devices to
 * their backing files, and the pseudo file systems that are never targets. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "measure/target_id.h"
#include "base/util.h"

#define LINK_HOPS 40		/* the kernel's limit on links in one lookup */
#define WALK_MAX 16		/* block devices looked at behind one target */
#define LOOP_MAJOR_NR 7

static const char *last_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* The folder of path, into dir ("." or "/" when path has no other). */
static void folder_of(const char *path, char *dir, size_t len)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		snprintf(dir, len, ".");
	else if (slash == path)
		snprintf(dir, len, "/");
	else
		snprintf(dir, len, "%.*s", (int)(slash - path), path);
}

/* exists, mode, numbers and the folder's identity, for id->path */
static void id_fill(struct target_id *id)
{
	char dir[PATH_MAX];
	struct stat st;

	if (stat(id->path, &st) == 0) {
		id->exists = true;
		id->mode = st.st_mode;
		id->dev = st.st_dev;
		id->ino = st.st_ino;
		id->rdev = st.st_rdev;
	}
	folder_of(id->path, dir, sizeof(dir));
	if (stat(dir, &st) == 0) {
		id->dir_known = true;
		id->dir_dev = st.st_dev;
		id->dir_ino = st.st_ino;
	}
}

static int join(char *out, const char *dir, const char *name)
{
	if (snprintf(out, PATH_MAX, "%s/%s", strcmp(dir, "/") ? dir : "", name) >= PATH_MAX)
		return -ENAMETOOLONG;
	return 0;
}

/* One step along a chain whose end is missing: cur's folder resolves (else
 * the path stays as written), and its last name is either missing (the end:
 * the file writing would create) or a link to follow (cur becomes its
 * target, relative to the link's folder). 1: follow on, 0: id set, -errno. */
static int chain_step(char *cur, struct target_id *id, unsigned hops)
{
	char dir[PATH_MAX], real[PATH_MAX], full[PATH_MAX], to[PATH_MAX];
	const char *base = last_name(cur);
	struct stat st;
	ssize_t n;

	folder_of(cur, dir, sizeof(dir));
	if (!*base || !realpath(dir, real)) {
		if (*base && errno == ELOOP)
			return -ELOOP;
		snprintf(id->path, sizeof(id->path), "%s", cur);	/* as written */
		id_fill(id);
		return 0;
	}
	if (join(full, real, base))
		return -ENAMETOOLONG;
	if (lstat(full, &st) < 0 || !S_ISLNK(st.st_mode)) {
		memcpy(id->path, full, sizeof(full));	/* the end */
		id_fill(id);
		return 0;
	}
	if (hops >= LINK_HOPS)
		return -ELOOP;
	n = readlink(full, to, sizeof(to) - 1);
	if (n <= 0)
		return n < 0 ? -errno : -ENOENT;
	to[n] = '\0';
	if (to[0] == '/')
		memcpy(cur, to, (size_t)n + 1);
	else if (join(cur, real, to))
		return -ENAMETOOLONG;
	return 1;
}

int target_id_of(const char *path, struct target_id *id)
{
	char cur[PATH_MAX], real[PATH_MAX];
	struct stat st;
	int rc = 1;

	memset(id, 0, sizeof(*id));
	id->link = lstat(path, &st) == 0 && S_ISLNK(st.st_mode);
	if (snprintf(cur, sizeof(cur), "%s", path) >= (int)sizeof(cur))
		return -ENAMETOOLONG;
	for (unsigned hops = 0; rc == 1; hops++) {
		if (realpath(cur, real)) {
			memcpy(id->path, real, sizeof(real));
			id_fill(id);
			return 0;
		}
		if (errno == ELOOP || errno == ENAMETOOLONG)
			return -errno;
		rc = chain_step(cur, id, hops);
	}
	return rc;
}

bool target_id_same(const struct target_id *a, const struct target_id *b)
{
	if (a->exists && b->exists) {
		if (S_ISBLK(a->mode) && S_ISBLK(b->mode))
			return a->rdev == b->rdev;	/* two nodes of one device */
		return a->dev == b->dev && a->ino == b->ino;
	}
	if (!strcmp(a->path, b->path))
		return true;
	/* one folder by another path (a bind mount), one name in it */
	return a->dir_known && b->dir_known && a->dir_dev == b->dir_dev &&
	       a->dir_ino == b->dir_ino && !strcmp(last_name(a->path), last_name(b->path));
}

/* ---- block devices: the files behind them --------------------------------- */

struct walk {
	dev_t dev[WALK_MAX];
	unsigned n;
};

static void walk_add(struct walk *w, dev_t dev)
{
	for (unsigned i = 0; i < w->n; i++)
		if (w->dev[i] == dev)
			return;
	if (w->n < WALK_MAX)
		w->dev[w->n++] = dev;
}

static void walk_add_file(struct walk *w, const char *file)
{
	FILE *f = fopen(file, "re");
	unsigned ma, mi;

	if (f && fscanf(f, "%u:%u", &ma, &mi) == 2)
		walk_add(w, makedev(ma, mi));
	if (f)
		fclose(f);
}

/* What the device at sysfs folder sys sits on: a partition's disk, and the
 * devices a dm or md device is built of. */
static void walk_below(struct walk *w, const char *sys)
{
	char file[PATH_MAX + 300], disk[PATH_MAX];
	struct dirent *e;
	DIR *d;

	snprintf(file, sizeof(file), "%s/partition", sys);
	if (access(file, F_OK) == 0) {
		folder_of(sys, disk, sizeof(disk));
		snprintf(file, sizeof(file), "%s/dev", disk);
		walk_add_file(w, file);
	}
	snprintf(file, sizeof(file), "%s/slaves", sys);
	d = opendir(file);
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(file, sizeof(file), "%s/slaves/%s/dev", sys, e->d_name);
		walk_add_file(w, file);
	}
	if (d)
		closedir(d);
}

/* The kernel's encoding of a device number in loop_info64 */
static dev_t loop_dev(__u64 v)
{
	return makedev((unsigned)((v & 0xfff00) >> 8),
		       (unsigned)((v & 0xff) | ((v >> 12) & 0xfff00)));
}

/* LOOP_GET_STATUS64 on the loop device dev through node (the target itself)
 * or /dev/NAME when that is dev's node. */
static bool loop_status(const char *node, dev_t dev, const char *name,
			struct loop_info64 *info)
{
	char alt[PATH_MAX];
	struct stat st;
	bool ok;
	int fd;

	if (!node) {
		snprintf(alt, sizeof(alt), "/dev/%s", name);
		if (stat(alt, &st) < 0 || !S_ISBLK(st.st_mode) || st.st_rdev != dev)
			return false;
		node = alt;
	}
	fd = open(node, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return false;
	ok = ioctl(fd, LOOP_GET_STATUS64, info) == 0;
	close(fd);
	return ok;
}

/* sysfs's loop/backing_file, without " (deleted)" */
static bool loop_backing_path(const char *sys, char *out, size_t len)
{
	char file[PATH_MAX + 32];
	FILE *f;
	size_t n;

	snprintf(file, sizeof(file), "%s/loop/backing_file", sys);
	if (!(f = fopen(file, "re")))
		return false;
	n = fread(out, 1, len - 1, f);
	fclose(f);
	out[n] = '\0';
	out[strcspn(out, "\n")] = '\0';
	n = strlen(out);
	if (n > 10 && !strcmp(out + n - 10, " (deleted)"))
		out[n - 10] = '\0';
	return *out != '\0';
}

/* Is dev a loop device (sysfs folder sys, NULL without sysfs)? Then what it
 * is backed by, into b: the path from sysfs, the file's identity from the
 * ioctl (exact even when the file was renamed, deleted or replaced). */
static bool loop_backing(const char *node, dev_t dev, const char *sys,
			 struct target_backing *b)
{
	struct loop_info64 info;
	char path[PATH_MAX], loop[64];
	bool named, status;

	if (sys)
		snprintf(loop, sizeof(loop), "%.63s", last_name(sys));
	else
		snprintf(loop, sizeof(loop), "loop%u", minor(dev));
	named = sys && loop_backing_path(sys, path, sizeof(path));
	if (!named && major(dev) != LOOP_MAJOR_NR)
		return false;	/* no ioctl to a driver that is not loop's */
	status = loop_status(node, dev, loop, &info);
	if (!named && !status)
		return false;	/* a loop device with no file behind it */
	if (!named)
		snprintf(path, sizeof(path), "%.*s", LO_NAME_SIZE, (const char *)info.lo_file_name);
	target_id_of(path, &b->id);
	snprintf(b->loop, sizeof(b->loop), "%s", loop);
	if (status) {
		b->id.exists = true;
		b->id.dev = loop_dev(info.lo_device);
		b->id.ino = (ino_t)info.lo_inode;
		b->id.rdev = loop_dev(info.lo_rdevice);
		b->id.mode = info.lo_rdevice ? S_IFBLK : S_IFREG;
	}
	return true;
}

unsigned target_backing_of(const char *path, dev_t rdev, const char *sysroot,
			   struct target_backing *out, unsigned max)
{
	struct walk w = { .n = 0 };
	unsigned n = 0;

	walk_add(&w, rdev);
	for (unsigned i = 0; i < w.n && n < max; i++) {
		char link[PATH_MAX], sys[PATH_MAX];
		bool have = false;

		snprintf(link, sizeof(link), "%s/sys/dev/block/%u:%u", sysroot,
			 major(w.dev[i]), minor(w.dev[i]));
		if (realpath(link, sys)) {
			have = true;
			walk_below(&w, sys);
		}
		if (!loop_backing(i ? NULL : path, w.dev[i], have ? sys : NULL, &out[n]))
			continue;
		if (S_ISBLK(out[n].id.mode))
			walk_add(&w, out[n].id.rdev);	/* a loop on a block device */
		n++;
	}
	return n;
}

/* ---- pseudo file systems ------------------------------------------------- */

static const struct pseudo_fs {
	unsigned long magic;
	const char *name;
} pseudo[] = {
	{ SYSFS_MAGIC, "sysfs" },
	{ PROC_SUPER_MAGIC, "procfs" },
	{ DEBUGFS_MAGIC, "debugfs" },
	{ 0x62656570, "configfs" },	/* CONFIGFS_MAGIC, not in linux/magic.h */
	{ TRACEFS_MAGIC, "tracefs" },
	{ SECURITYFS_MAGIC, "securityfs" },
	{ CGROUP_SUPER_MAGIC, "cgroup" },
	{ CGROUP2_SUPER_MAGIC, "cgroup2" },
	{ BPF_FS_MAGIC, "bpf" },
	{ PSTOREFS_MAGIC, "pstore" },
	{ EFIVARFS_MAGIC, "efivarfs" },
	{ BINFMTFS_MAGIC, "binfmt_misc" },
	{ SELINUX_MAGIC, "selinuxfs" },
	{ SMACK_MAGIC, "smackfs" },
	{ AAFS_MAGIC, "apparmorfs" },
	{ RDTGROUP_SUPER_MAGIC, "resctrl" },
	{ NSFS_MAGIC, "nsfs" },
	{ DEVPTS_SUPER_MAGIC, "devpts" },
	{ 0x65735543, "fusectl" },	/* FUSE_CTL_SUPER_MAGIC */
	{ 0x19800202, "mqueue" },	/* MQUEUE_MAGIC */
	{ 0x6e667364, "nfsd" },		/* NFSD_MAGIC */
	{ 0x67596969, "rpc_pipefs" },	/* RPCAUTH_GSSMAGIC */
	{ XENFS_SUPER_MAGIC, "xenfs" },
	{ USBDEVICE_SUPER_MAGIC, "usbfs" },
	{ OPENPROM_SUPER_MAGIC, "openpromfs" },
	{ BINDERFS_SUPER_MAGIC, "binderfs" },
};

/* By where it is too: in a container /proc and /sys may hold files of a
 * FUSE stand-in (lxcfs), kernel state all the same. */
static const char *pseudo_by_place(const char *real)
{
	static const struct { const char *dir, *name; } places[] = {
		{ "/proc", "procfs" }, { "/sys", "sysfs" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(places); i++) {
		size_t n = strlen(places[i].dir);

		if (!strncmp(real, places[i].dir, n) && (real[n] == '/' || !real[n]))
			return places[i].name;
	}
	return NULL;
}

const char *target_pseudo_fs(const char *path)
{
	struct target_id id;
	struct statfs fs;
	char dir[PATH_MAX];
	int rc = statfs(path, &fs);

	if (target_id_of(path, &id) < 0)
		return NULL;	/* a loop of links: refused as that */
	if (rc < 0) {		/* not there yet: its folder */
		folder_of(id.path, dir, sizeof(dir));
		rc = statfs(dir, &fs);
	}
	for (size_t i = 0; rc == 0 && i < ARRAY_SIZE(pseudo); i++)
		if ((unsigned long)fs.f_type == pseudo[i].magic)
			return pseudo[i].name;
	return pseudo_by_place(id.path);
}
