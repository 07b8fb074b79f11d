/* The device guard: may this run write there? */
#include <blkid/blkid.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "measure/guard.h"
#include "measure/guard_file.h"
#include "base/log.h"
#include "base/paths.h"
#include "measure/probe.h"	/* probe_root(): sysfs, or a test's stand-in */
#include "base/strbuf.h"
#include "measure/target.h"
#include "measure/target_id.h"
#include "base/util.h"

#ifndef HB_DATA_DIR
#define HB_DATA_DIR "/usr/local/share/hbatest"
#endif
#ifndef HB_PLUGIN_DIR
#define HB_PLUGIN_DIR "/usr/local/lib/hbatest/plugins"
#endif

#define FAMILY_MAX 256
#define BACKING_MAX 16	/* files behind one block device */

/* Files no step writes: the database and its journals, the plan. A journal
 * is the database's path and a suffix, resolved when a target is checked:
 * SQLite puts it beside the file the database's links lead to. */
static struct protected {
	char *path;
	const char *suffix;	/* "-wal", or "" */
	const char *what;
} *protect;
static unsigned nprotect;

/* A block device the run writes: held open O_EXCL from the dry pass on. */
static struct claim {
	dev_t dev;
	int fd;
	char *destroys;		/* "/dev/sdb: ext4 (UUID ...)" */
} *claims;
static unsigned nclaims;

/* A device and its kin, by kernel name ("loop0", "loop0p1"). */
struct family {
	unsigned n;		/* the device itself is [0] */
	bool partition;		/* [0] is a partition, [1] its disk */
	struct member { dev_t dev; char name[256]; } m[FAMILY_MAX];
};

static void protect_add(const char *path, const char *suffix, const char *what)
{
	struct protected *p = realloc(protect, (nprotect + 1) * sizeof(*p));

	if (!p)
		return;
	protect = p;
	protect[nprotect].path = strdup(path);
	protect[nprotect].suffix = suffix;
	protect[nprotect++].what = what;
}

void guard_protect(const char *path, const char *what)
{
	for (unsigned i = 0; i < nprotect; i++)
		if (!strcmp(protect[i].path, path) && !*protect[i].suffix)
			return;
	protect_add(path, "", what);
}

void guard_init(const char *db_path, const char *plan_path)
{
	static const char *const journals[] = { "-wal", "-shm", "-journal" };

	if (db_path)
		protect_add(db_path, "", "the results database");
	for (unsigned i = 0; db_path && i < ARRAY_SIZE(journals); i++)
		protect_add(db_path, journals[i], "a journal of the results database");
	if (plan_path)
		protect_add(plan_path, "", "the plan");
}

/* Is the file at canonical path inside folder dir? Then dir's real path is in real. */
static bool inside(const char *path, const char *dir, char *real)
{
	size_t n;

	if (!realpath(dir, real) || !strcmp(real, "/"))
		return false;
	n = strlen(real);
	return !strncmp(path, real, n) && (path[n] == '/' || path[n] == '\0');
}

/* The hbatest tree: the binary's folder (with plugins/ and scripts/ in a
 * checkout), an installed tree beside it, and the installed data and plugins.
 * real: a canonical path (target_id_of's). */
static bool in_hbatest_tree(const char *real, char *tree)
{
	char self[PATH_MAX], dir[PATH_MAX + 32];

	if (inside(real, HB_DATA_DIR, tree) || inside(real, HB_PLUGIN_DIR, tree))
		return true;
	if (!paths_self_dir(self, sizeof(self)))
		return false;
	if (inside(real, self, tree))
		return true;
	snprintf(dir, sizeof(dir), "%s/../share/hbatest", self);
	if (inside(real, dir, tree))
		return true;
	snprintf(dir, sizeof(dir), "%s/../lib/hbatest", self);
	return inside(real, dir, tree);
}

/* A protected file as it resolves now, into ids: the file itself, or a
 * journal beside the database's path as given and, when that is another
 * file, beside where its links lead (SQLite's), named in names. Returns how
 * many. */
static unsigned protected_ids(const struct protected *p, struct target_id ids[2],
			      char names[2][PATH_MAX + 16])
{
	struct target_id db;
	unsigned n;

	snprintf(names[0], sizeof(names[0]), "%s%s", p->path, p->suffix);
	n = target_id_of(names[0], &ids[0]) == 0;
	if (!*p->suffix || target_id_of(p->path, &db) < 0)
		return n;
	snprintf(names[n], sizeof(names[n]), "%.*s%s", PATH_MAX - 1, db.path, p->suffix);
	if (target_id_of(names[n], &ids[n]) < 0 || (n && target_id_same(&ids[0], &ids[1])))
		return n;
	return n + 1;
}

/* Is id, where target path leads (how: the way there, for the message), a
 * protected file or inside hbatest's tree? */
static int refuse_protected(const char *path, const struct target_id *id, const char *is,
			    const char *how, char *err, size_t len)
{
	char names[2][PATH_MAX + 16], tree[PATH_MAX];
	struct target_id ids[2];

	for (unsigned i = 0; i < nprotect; i++) {
		unsigned n = protected_ids(&protect[i], ids, names);

		for (unsigned j = 0; j < n; j++) {
			if (!target_id_same(id, &ids[j]))
				continue;
			snprintf(err, len, "refusing to write to '%s': %s %s ('%s')%s", path, is,
				 protect[i].what, names[j], how);
			return -EPERM;
		}
	}
	if (in_hbatest_tree(id->path, tree)) {
		snprintf(err, len, "refusing to write to '%s': %s inside hbatest's own files "
			 "('%s')%s", path, is, tree, how);
		return -EPERM;
	}
	return 0;
}

/* The target where its links lead (a dangling one: the file writing through
 * it would create), and a block device's backing files (a loop device's). */
/* path, resolved as id: none of the protected files, itself or through
 * the loop devices behind it. */
static int check_protected(const char *path, const struct target_id *id, int kind, char *err,
			   size_t len)
{
	char how[PATH_MAX + 128] = "";
	struct target_backing *b;
	unsigned n;
	int rc;

	if (id->link)
		snprintf(how, sizeof(how), ": a symbolic link to '%s'%s", id->path, id->exists ?
			 "" : ", not there yet (writing through the link would create it)");
	rc = refuse_protected(path, id, "it is", how, err, len);
	if (rc || kind != TARGET_BLOCK || !S_ISBLK(id->mode))
		return rc;
	if (!(b = calloc(BACKING_MAX, sizeof(*b))))
		return -ENOMEM;
	n = target_backing_of(path, id->rdev, probe_root(), b, BACKING_MAX);
	for (unsigned i = 0; i < n && !rc; i++) {
		snprintf(how, sizeof(how), ": %s is a loop device backed by '%s'", b[i].loop,
			 b[i].id.path);
		rc = refuse_protected(path, &b[i].id, "its data is", how, err, len);
	}
	free(b);
	return rc;
}

static bool read_dev(const char *file, dev_t *dev)
{
	FILE *f = fopen(file, "re");
	unsigned ma, mi;
	bool ok = f && fscanf(f, "%u:%u", &ma, &mi) == 2;

	if (f)
		fclose(f);
	if (ok)
		*dev = makedev(ma, mi);
	return ok;
}

static void family_add(struct family *f, dev_t dev, const char *name)
{
	if (f->n >= FAMILY_MAX)
		return;
	f->m[f->n].dev = dev;
	snprintf(f->m[f->n++].name, sizeof(f->m[0].name), "%s", name);
}

/* What writing a device touches, from sysfs: a disk and all its partitions,
 * or a partition and its disk; without sysfs, the device alone. */
static void family_of(const char *path, dev_t dev, struct family *f)
{
	char sys[PATH_MAX], disk[PATH_MAX], file[PATH_MAX + 300];
	struct dirent *e;
	DIR *d;

	f->n = 0;
	f->partition = false;
	snprintf(sys, sizeof(sys), "%s/sys/dev/block/%u:%u", probe_root(), major(dev),
		 minor(dev));
	if (!realpath(sys, disk)) {
		family_add(f, dev, strrchr(path, '/') ? strrchr(path, '/') + 1 : path);
		return;
	}
	snprintf(file, sizeof(file), "%s/partition", disk);
	if (access(file, F_OK) == 0) {
		f->partition = true;
		family_add(f, dev, strrchr(disk, '/') + 1);
		*strrchr(disk, '/') = '\0';
		snprintf(file, sizeof(file), "%s/dev", disk);
		if (read_dev(file, &dev))
			family_add(f, dev, strrchr(disk, '/') + 1);
		return;
	}
	family_add(f, dev, strrchr(disk, '/') + 1);
	d = opendir(disk);
	while (d && (e = readdir(d))) {
		snprintf(file, sizeof(file), "%s/%s/partition", disk, e->d_name);
		if (e->d_name[0] == '.' || access(file, F_OK))
			continue;
		snprintf(file, sizeof(file), "%s/%s/dev", disk, e->d_name);
		if (read_dev(file, &dev))
			family_add(f, dev, e->d_name);
	}
	if (d)
		closedir(d);
}

static const struct member *family_find(const struct family *f, dev_t dev)
{
	for (unsigned i = 0; i < f->n; i++)
		if (f->m[i].dev == dev)
			return &f->m[i];
	return NULL;
}

/* mountinfo escapes blanks as \040 */
static void unescape(char *s)
{
	char *o = s;

	for (; *s; s++, o++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] && s[3]) {
			*o = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*o = *s;
		}
	}
	*o = '\0';
}

/* A member of f mounted (by its number, or as the source of a mount whose
 * number is anonymous, as btrfs's): its name and mount point. */
static const struct member *mounted(const struct family *f, char *where, size_t len)
{
	FILE *mi = fopen("/proc/self/mountinfo", "re");
	char line[8192], mnt[4096], src[4096];
	const struct member *m = NULL;
	unsigned ma, mi_;
	struct stat st;

	while (mi && !m && fgets(line, sizeof(line), mi)) {
		const char *dash = strstr(line, " - ");

		if (sscanf(line, "%*d %*d %u:%u %*s %4095s", &ma, &mi_, mnt) != 3)
			continue;
		m = family_find(f, makedev(ma, mi_));
		if (!m && dash && sscanf(dash + 3, "%*s %4095s", src) == 1 &&
		    src[0] == '/' && stat(src, &st) == 0 && S_ISBLK(st.st_mode))
			m = family_find(f, st.st_rdev);
		if (m) {
			unescape(mnt);
			snprintf(where, len, "%s", mnt);
		}
	}
	if (mi)
		fclose(mi);
	return m;
}

static const struct member *swapped(const struct family *f)
{
	FILE *sw = fopen("/proc/swaps", "re");
	char name[4096];
	const struct member *m = NULL;
	struct stat st;
	int c;

	while (sw && !m && fscanf(sw, "%4095s", name) == 1) {
		if (stat(name, &st) == 0 && S_ISBLK(st.st_mode))
			m = family_find(f, st.st_rdev);
		while ((c = fgetc(sw)) != EOF && c != '\n')
			;
	}
	if (sw)
		fclose(sw);
	return m;
}

/* A member of f with a holder (dm, md, LVM, bcache...): "dm-0 (vg-data)". */
static const struct member *held(const struct family *f, char *holder, size_t len)
{
	char dir[PATH_MAX], file[PATH_MAX + 300], name[256] = "";

	for (unsigned i = 0; i < f->n; i++) {
		struct dirent *e = NULL;
		DIR *d;

		snprintf(dir, sizeof(dir), "%s/sys/class/block/%s/holders", probe_root(),
			 f->m[i].name);
		d = opendir(dir);
		while (d && (e = readdir(d)) && e->d_name[0] == '.')
			;
		if (d && e) {
			FILE *n;

			snprintf(file, sizeof(file), "%s/sys/class/block/%s/dm/name",
				 probe_root(), e->d_name);
			if ((n = fopen(file, "re")) && fscanf(n, "%255s", name) == 1)
				snprintf(holder, len, "%s (%s)", e->d_name, name);
			else
				snprintf(holder, len, "%s", e->d_name);
			if (n)
				fclose(n);
		}
		if (d)
			closedir(d);
		if (d && e)
			return &f->m[i];
	}
	return NULL;
}

/* "it" for the device itself, else "/dev/loop0p1" */
static const char *who(const struct family *f, const struct member *m, char *buf, size_t len)
{
	if (m == &f->m[0])
		return "it";
	snprintf(buf, len, "/dev/%s", m->name);
	return buf;
}

/* Mounted, swapped on or held: refused whatever the command line says. */
static int check_unused(const char *path, const struct family *f, char *err, size_t len)
{
	char what[4096], name[300];
	const struct member *m;
	const char *always = "always refused, even with --destroy-data";

	if ((m = mounted(f, what, sizeof(what)))) {
		snprintf(err, len, "refusing to write to '%s': %s is mounted on %s (%s; "
			 "unmount it first)", path, who(f, m, name, sizeof(name)), what, always);
		return -EBUSY;
	}
	if ((m = swapped(f))) {
		snprintf(err, len, "refusing to write to '%s': %s is in use as swap (%s; "
			 "swapoff it first)", path, who(f, m, name, sizeof(name)), always);
		return -EBUSY;
	}
	if ((m = held(f, what, sizeof(what)))) {
		snprintf(err, len, "refusing to write to '%s': %s is held by %s, a "
			 "device-mapper, LVM or md RAID device built on it (%s; remove that "
			 "first)", path, who(f, m, name, sizeof(name)), what, always);
		return -EBUSY;
	}
	return 0;
}

static void describe_value(struct strbuf *b, blkid_probe pr, const char *key,
			   const char *fmt)
{
	const char *v;

	if (blkid_probe_lookup_value(pr, key, &v, NULL) == 0 && *v)
		sb_printf(b, fmt, v);
}

/* What libblkid finds: "ext4 (UUID ..., LABEL ...), dos partition table with
 * 2 partitions", or that it finds nothing. */
static char *describe(const char *path)
{
	blkid_probe pr = blkid_new_probe_from_filename(path);
	struct strbuf b = { 0 };
	blkid_partlist pl;
	int rc;

	if (!pr)
		return util_strdup_printf("%s: cannot probe it for signatures: %s", path,
					  strerror(errno));
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_UUID |
					  BLKID_SUBLKS_LABEL);
	blkid_probe_enable_partitions(pr, 1);
	rc = blkid_do_safeprobe(pr);
	sb_printf(&b, "%s: ", path);
	if (rc == 1)
		sb_printf(&b, "no partition table or signature found");
	else if (rc == -2)
		sb_printf(&b, "several conflicting signatures (wipefs -n %s lists them)", path);
	else if (rc < 0)
		sb_printf(&b, "cannot probe it for signatures");
	if (rc == 0) {
		describe_value(&b, pr, "TYPE", "%s");
		if (blkid_probe_has_value(pr, "TYPE") &&
		    (blkid_probe_has_value(pr, "UUID") || blkid_probe_has_value(pr, "LABEL"))) {
			sb_printf(&b, " (");
			describe_value(&b, pr, "UUID", "UUID %s");
			if (blkid_probe_has_value(pr, "UUID") && blkid_probe_has_value(pr, "LABEL"))
				sb_printf(&b, ", ");
			describe_value(&b, pr, "LABEL", "LABEL %s");
			sb_printf(&b, ")");
		}
		pl = blkid_probe_get_partitions(pr);
		if (pl) {
			blkid_parttable tab = blkid_partlist_get_table(pl);
			int n = blkid_partlist_numof_partitions(pl);

			sb_printf(&b, "%s%s partition table with %d partition%s",
				  blkid_probe_has_value(pr, "TYPE") ? ", " : "",
				  tab ? blkid_parttable_get_type(tab) : "a", n, n == 1 ? "" : "s");
		}
	}
	blkid_free_probe(pr);
	return sb_take(&b);
}

/* Hold the device O_EXCL for the run: the steps then open it without, so an
 * engine's lingering references (io_uring's registered files) never make the
 * next step's open fail, and nobody mounts or assembles it meanwhile. A disk's
 * claim covers its partitions (the kernel refuses to claim them then), so a
 * partition of a claimed disk gets none, and a disk takes over the claims of
 * its partitions. */
static int claim(const char *path, dev_t dev, const struct family *f, char *err, size_t len)
{
	struct claim *c = realloc(claims, (nclaims + 1) * sizeof(*c));
	int fd = -1;

	if (!c)
		return -ENOMEM;
	claims = c;
	for (unsigned i = 0; i < nclaims; i++) {
		if (claims[i].fd < 0 || !family_find(f, claims[i].dev))
			continue;
		if (f->partition)
			goto covered;		/* its disk is claimed */
		close(claims[i].fd);	/* a partition: the disk's claim replaces it */
		claims[i].fd = -1;
	}
	fd = open(path, O_RDONLY | O_EXCL | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;

		snprintf(err, len, "cannot claim '%s' for the run: %s", path, e == EBUSY ?
			 "device is busy (open exclusively by another program: a mount in "
			 "another namespace, a RAID, or another hbatest run)" : strerror(e));
		return -e;
	}
covered:
	c = &claims[nclaims++];
	c->dev = dev;
	c->fd = fd;
	c->destroys = describe(path);
	log_info("will destroy %s", c->destroys);
	return 0;
}

static int check_block(const char *path, char *err, size_t len)
{
	struct family *f;
	struct stat st;
	int rc;

	if (stat(path, &st) < 0) {
		snprintf(err, len, "cannot stat target '%s': %s", path, strerror(errno));
		return -errno;
	}
	for (unsigned i = 0; i < nclaims; i++)
		if (claims[i].dev == st.st_rdev)
			return 0;	/* approved by an earlier step */
	f = malloc(sizeof(*f));
	if (!f)
		return -ENOMEM;
	family_of(path, st.st_rdev, f);
	rc = check_unused(path, f, err, len);
	if (!rc && !target_write_allowed(path, err, len))
		rc = -EPERM;
	if (!rc)
		rc = claim(path, st.st_rdev, f, err, len);
	free(f);
	return rc;
}

/* In use as the loop device name (number dev) is, through f: mounted,
 * swapped on or held. The message says what the file target backs. */
static int check_loop_unused(const char *path, const char *name, const struct family *f,
			     char *err, size_t len)
{
	char what[4096], part[300] = "";
	const struct member *m;
	const char *always = "always refused, even with --destroy-data";

	if ((m = mounted(f, what, sizeof(what)))) {
		if (m != &f->m[0])
			snprintf(part, sizeof(part), " (its partition /dev/%s)", m->name);
		snprintf(err, len, "refusing to write to '%s': it backs the loop device "
			 "/dev/%s%s, mounted on %s (%s; unmount it first)", path, name, part,
			 what, always);
		return -EBUSY;
	}
	if ((m = swapped(f)) || (m = held(f, what, sizeof(what)))) {
		snprintf(err, len, "refusing to write to '%s': it backs the loop device /dev/%s, "
			 "in use (/dev/%s is swap or held by a dm, LVM or md device; %s)", path,
			 name, m->name, always);
		return -EBUSY;
	}
	return 0;
}

/* A file target that backs a loop device in use: writing the file writes
 * under that file system (a disk image mounted with mount -o loop). */
static int check_backs_loop(const char *path, const struct target_id *id, char *err, size_t len)
{
	struct target_backing *b = calloc(BACKING_MAX, sizeof(*b));
	struct family *f = malloc(sizeof(*f));
	char dir[PATH_MAX], file[PATH_MAX + 300];
	struct dirent *e;
	DIR *d = NULL;
	int rc = 0;

	if (!b || !f) {
		rc = -ENOMEM;
		goto out;
	}
	if (!id->exists || !S_ISREG(id->mode))
		goto out;
	snprintf(dir, sizeof(dir), "%s/sys/block", probe_root());
	d = opendir(dir);
	while (!rc && d && (e = readdir(d))) {
		dev_t dev;
		unsigned n;

		if (strncmp(e->d_name, "loop", 4))
			continue;
		snprintf(file, sizeof(file), "%s/%s/dev", dir, e->d_name);
		if (!read_dev(file, &dev))
			continue;
		snprintf(file, sizeof(file), "/dev/%s", e->d_name);
		n = target_backing_of(file, dev, probe_root(), b, BACKING_MAX);
		for (unsigned i = 0; i < n && !rc; i++) {
			if (!target_id_same(&b[i].id, id))
				continue;
			family_of(file, dev, f);
			rc = check_loop_unused(path, e->d_name, f, err, len);
		}
	}
out:
	if (d)
		closedir(d);
	free(f);
	free(b);
	return rc;
}

int guard_check_write(const char *path, int kind, char *err, size_t len)
{
	struct target_id id;
	int rc = target_id_of(path, &id);

	if (rc < 0) {
		snprintf(err, len, "refusing to write to '%s': %s", path, rc == -ELOOP ?
			 "it is a loop of symbolic links" : strerror(-rc));
		return rc;
	}
	rc = check_protected(path, &id, kind, err, len);
	if (!rc && kind != TARGET_BLOCK)
		rc = check_backs_loop(path, &id, err, len);
	if (!rc && kind == TARGET_FILE)
		rc = guard_file_check(path, &id, err, len);
	if (rc || kind != TARGET_BLOCK)
		return rc;
	return check_block(path, err, len);
}

const char *guard_destroys(unsigned i)
{
	return i < nclaims ? claims[i].destroys : guard_file_destroys(i - nclaims);
}

void guard_release(void)
{
	for (unsigned i = 0; i < nclaims; i++) {
		if (claims[i].fd >= 0)
			close(claims[i].fd);
		free(claims[i].destroys);
	}
	free(claims);
	claims = NULL;
	nclaims = 0;
	guard_file_release();
	for (unsigned i = 0; i < nprotect; i++)
		free(protect[i].path);
	free(protect);
	protect = NULL;
	nprotect = 0;
}
