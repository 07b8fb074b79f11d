/* Targets: what a path is (file, block device, virtual), its size, creating a
 * file target, opening targets for a step, and the destroy-data gate. */
#ifndef HB_TARGET_H
#define HB_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum target_kind { TARGET_FILE = 0, TARGET_BLOCK, TARGET_VIRTUAL };

const char *target_kind_name(int kind);
/* Find what path is. want_size (bytes, 0: none) is the plan's `size`.
 * virtual_ok: the engine opens no file, so the path is only a name. Refuses
 * (read or write) a loop of symbolic links and a file on a kernel pseudo
 * file system (sysfs, procfs ...: target_pseudo_fs). */
int target_resolve(const char *path, uint64_t want_size, bool virtual_ok,
		   int *kind, uint64_t *size, bool *create, char *err, size_t errlen);
/* Create (or grow) a file target with random data, so reads hit the media.
 * progress (may be NULL) is called about once a second; a stop request
 * (SIGINT/SIGTERM) ends it with -EINTR. */
int target_layout(const char *path, uint64_t size, void (*progress)(void *ctx,
		  uint64_t done, uint64_t total), void *ctx, char *err, size_t errlen);
/* Bytes of [0, size) of the open file fd that hold no data yet: holes, and
 * on ext4 and XFS space fallocate() reserved that nothing wrote (SEEK_DATA
 * passes over both). Reads there return zeros from the file system and never
 * reach the disk. 0 when the file system cannot tell. */
uint64_t target_unwritten(int fd, uint64_t size);
/* Open for a step; returns an fd or -errno with err set. Never O_EXCL: the
 * run holds one exclusive claim per written device (guard.c), and an engine's
 * fds may outlive its step (io_uring's registered files). */
int target_open(const char *path, int kind, bool write, bool direct, char *err, size_t errlen);

/* Do a and b name one target? One file (device and inode: a hard link is
 * the same file), one block device (two nodes of one device number), or,
 * when one does not exist yet (a file to create, a virtual name), one path
 * once its links are followed (a.dat, ./a.dat and a dangling link to it;
 * target_id.h). */
bool target_same_path(const char *a, const char *b);
/* path absolute and free of symlinks, even before it exists (its folder
 * does; a dangling link: the file writing through it would create); as
 * written when its folder does not resolve either. */
void target_canon(const char *path, char *out, size_t len);

/* Devices and files named with --destroy-data (guard.c asks
 * target_write_allowed for a device, target_destroy_offered for a file). */
void target_allow_destroy(const char *device);
/* A warning for each of them no step has written (after the dry pass). */
void target_warn_unused_destroy(void);
/* Does --destroy-data name path (where its links lead)? Then it counts as used. */
bool target_destroy_offered(const char *path);
/* The end of a refusal that needs --destroy-data: " (--destroy-data names
 * A, B, not this one: a mistyped name?)" when the flag was given (the typo
 * of --destroy-data /dev/loop9 beside --target /dev/loop0 then shows), ""
 * when not. */
void target_destroy_hint(char *buf, size_t len);
/* May a write step touch this block device? Sets err when not. */
bool target_write_allowed(const char *path, char *err, size_t errlen);

#endif
