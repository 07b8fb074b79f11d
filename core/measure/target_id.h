/* What a target path really names: the file at the end of its symbolic links
 * (a dangling one by the file writing through it would create), the files a
 * block device is backed by (loop devices), and the pseudo file system
 * (sysfs, procfs ...) it lies on. The guard compares these, not the names. */
#ifndef HB_TARGET_ID_H
#define HB_TARGET_ID_H

#include <limits.h>
#include <stdbool.h>
#include <sys/types.h>

struct target_id {
	char path[PATH_MAX];	/* absolute, free of symlinks; when !exists, the file
				 * an open(O_CREAT) would create; as written when
				 * its folder does not resolve */
	bool exists;
	bool link;		/* the path itself is a symbolic link */
	mode_t mode;		/* when exists */
	dev_t dev, rdev;	/* when exists; rdev: a device node's number */
	ino_t ino;
	bool dir_known;		/* the folder of path resolves: */
	dev_t dir_dev;		/* its device and inode (a would-be file is that */
	ino_t dir_ino;		/* folder and its name, whatever path reaches it) */
};

/* Resolve path into id: 0, or -ELOOP for a loop of symbolic links (or a
 * chain past the kernel's 40), -ENAMETOOLONG. A folder that cannot be read
 * leaves the path as written. */
int target_id_of(const char *path, struct target_id *id);
/* Do a and b name one file? Both there: one device and inode (a block
 * device: one device number); else one path, or one folder and one name. */
bool target_id_same(const struct target_id *a, const struct target_id *b);

/* A file a block device is backed by, and the loop device between ("loop0"). */
struct target_backing {
	struct target_id id;
	char loop[64];
};

/* The files behind the block device at path (number rdev): what its loop
 * device is backed by (LOOP_GET_STATUS64's device and inode, sysfs's
 * loop/backing_file for the path), through a partition's disk and the
 * devices a dm or md device is built on (slaves/), and loops on loops.
 * sysroot: the folder holding sys/ ("/", or a test's stand-in). Fills up to
 * max, returns how many. */
unsigned target_backing_of(const char *path, dev_t rdev, const char *sysroot,
			   struct target_backing *out, unsigned max);

/* The name of the kernel pseudo file system path lies on ("sysfs", "proc",
 * "debugfs" ...: kernel settings and state, never storage), or NULL. A path
 * not there yet is judged by its folder. */
const char *target_pseudo_fs(const char *path);

#endif
