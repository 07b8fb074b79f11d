/* Targets: resolve, lay out, open, and refuse writes to devices nobody offered. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "base/human.h"
#include "base/log.h"
#include "measure/target.h"
#include "measure/target_id.h"
#include "base/util.h"
#include "base/stop.h"

static char **destroy_ok;
static bool *destroy_used;	/* a step writes it (target_write_allowed said yes) */
static unsigned ndestroy_ok;

/* Files an earlier step of the dry pass will lay out: later steps may use them. */
static struct planned { char *path; uint64_t size; } *planned;
static unsigned nplanned;

static const struct planned *planned_find(const char *path)
{
	for (unsigned i = 0; i < nplanned; i++)
		if (strcmp(planned[i].path, path) == 0)
			return &planned[i];
	return NULL;
}

static void planned_add(const char *path, uint64_t size)
{
	struct planned *p;

	if (planned_find(path) || !(p = realloc(planned, (nplanned + 1) * sizeof(*p))))
		return;
	planned = p;
	planned[nplanned].path = strdup(path);
	planned[nplanned++].size = size;
}

const char *target_kind_name(int kind)
{
	static const char *const names[] = { "file", "block", "virtual" };

	return kind >= 0 && kind <= TARGET_VIRTUAL ? names[kind] : "?";
}

static int block_size(const char *path, uint64_t *size, char *err, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int rc = 0;

	if (fd < 0) {
		snprintf(err, len, "cannot open '%s': %s", path, strerror(errno));
		return -errno;
	}
	if (ioctl(fd, BLKGETSIZE64, size) < 0) {
		rc = -errno;
		snprintf(err, len, "cannot read the size of '%s': %s", path, strerror(errno));
	}
	close(fd);
	return rc;
}

/* Laying out a file of `need` more bytes must fit in the free space of the
 * file system holding `where` (a size of "1p" would fill the disk, however
 * many hours later, and take the machine's other writers down with it). */
static int room_for(const char *path, const char *where, uint64_t need, char *err, size_t len)
{
	struct statvfs fs;
	char want[32], have[32];
	uint64_t avail;

	if (statvfs(where, &fs) < 0)
		return 0;	/* unknown: the writes themselves will say */
	avail = (uint64_t)fs.f_bavail * fs.f_frsize;
	if (need <= avail)
		return 0;
	human_bytes(need, want, sizeof(want));
	human_bytes(avail, have, sizeof(have));
	snprintf(err, len, "target '%s': %s more to lay out, but its file system has %s "
		 "free", path, want, have);
	return -ENOSPC;
}

/* Where path leads, refused before anything looks further: a loop of
 * symbolic links, or a file on a kernel pseudo file system (sysfs' and
 * procfs' files are the kernel's settings and state: a read or write there
 * reaches a kernel handler, not storage). */
static int check_place(const char *path, struct target_id *id, char *err, size_t len)
{
	const char *fs;
	int rc = target_id_of(path, id);
	char via[PATH_MAX + 40] = "";

	if (rc == -ELOOP) {
		snprintf(err, len, "target '%s' is a loop of symbolic links (or a chain of more "
			 "than 40)", path);
		return rc;
	}
	if (!(fs = target_pseudo_fs(path)))
		return 0;
	if (id->link)
		snprintf(via, sizeof(via), " (a symbolic link to '%s')", id->path);
	snprintf(err, len, "target '%s'%s is on %s, a kernel pseudo file system (kernel "
		 "settings and state, not storage): never a target, to read or to write",
		 path, via, fs);
	return -EPERM;
}

/* A target not there yet (real: where writing it lands, through dangling
 * links): a file to lay out, or one an earlier step lays out. */
static int resolve_missing(const char *path, const char *real, uint64_t want_size,
			   int *kind, uint64_t *size, bool *create, char *err, size_t len)
{
	const struct planned *later = want_size ? NULL : planned_find(path);
	char dir[PATH_MAX], *slash;
	struct stat st;

	if (!strncmp(path, "/dev/", 5) || !strncmp(real, "/dev/", 5)) {
		/* never a file among the devices */
		snprintf(err, len, "target '%s': no such device (lsblk lists the block "
			 "devices); hbatest creates files, not devices", path);
		return -ENOENT;
	}
	if (later) {	/* an earlier step creates it */
		*kind = TARGET_FILE;
		*size = later->size;
		return 0;
	}
	if (!want_size) {
		snprintf(err, len, "target '%s' does not exist; give size= (e.g. size=\"1g\"; "
			 "the shipped plans: --set size=1g) to create it", path);
		return -ENOENT;
	}
	snprintf(dir, sizeof(dir), "%s", real);
	slash = strrchr(dir, '/');
	if (slash && slash != dir)
		*slash = '\0';
	else
		strcpy(dir, slash ? "/" : ".");
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		snprintf(err, len, "cannot create target '%s': folder '%s' does not exist",
			 path, dir);
		return -ENOENT;
	}
	if (room_for(path, dir, want_size, err, len) < 0)
		return -ENOSPC;
	*kind = TARGET_FILE;
	*size = want_size;
	*create = true;
	planned_add(path, want_size);
	return 0;
}

int target_resolve(const char *path, uint64_t want_size, bool virtual_ok,
		   int *kind, uint64_t *size, bool *create, char *err, size_t len)
{
	struct target_id id;
	struct stat st;
	int rc;

	*create = false;
	if (virtual_ok) {
		*kind = TARGET_VIRTUAL;
		*size = want_size ? want_size : 1ull << 30;
		return 0;
	}
	if ((rc = check_place(path, &id, err, len)))
		return rc;
	if (stat(path, &st) < 0) {
		if (errno == ENOENT)
			return resolve_missing(path, id.path, want_size, kind, size, create,
					       err, len);
		snprintf(err, len, "cannot stat target '%s': %s", path, strerror(errno));
		return -errno;
	}
	if (S_ISBLK(st.st_mode)) {
		*kind = TARGET_BLOCK;
		return block_size(path, size, err, len);
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, len, "target '%s' is neither a regular file nor a block device", path);
		return -EINVAL;
	}
	*kind = TARGET_FILE;
	*size = (uint64_t)st.st_size;
	if (want_size > *size) {	/* grow it to the size the plan asks for */
		if (room_for(path, path, want_size - *size, err, len) < 0)
			return -ENOSPC;
		*size = want_size;
		*create = true;
	}
	if (*size == 0) {
		snprintf(err, len, "target '%s' is an empty file; give size= to fill it", path);
		return -EINVAL;
	}
	return 0;
}

/* n bytes at off, or -errno: a short write is followed by another, which
 * says why (ENOSPC, EFBIG past ulimit -f) */
static int pwrite_all(int fd, const char *buf, size_t n, uint64_t off)
{
	for (size_t done = 0; done < n;) {
		ssize_t w = pwrite(fd, buf + done, n - done, (off_t)(off + done));

		if (w < 0 && errno != EINTR)
			return -errno;
		if (w == 0)
			return -EIO;
		done += w > 0 ? (size_t)w : 0;
	}
	return 0;
}

int target_layout(const char *path, uint64_t size, void (*progress)(void *ctx,
		  uint64_t done, uint64_t total), void *ctx, char *err, size_t len)
{
	const size_t chunk = 1 << 20;
	struct stat st;
	uint64_t off = 0, last = util_now_ns();
	char *buf;
	int fd, rc = 0;

	fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		snprintf(err, len, "cannot create '%s': %s", path, strerror(errno));
		return -errno;
	}
	if (fstat(fd, &st) == 0)
		off = (uint64_t)st.st_size / chunk * chunk;
	buf = malloc(chunk);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	log_info("laying out '%s' (%.1f MiB of random data)", path,
		 (double)(size - off) / (1 << 20));
	for (uint64_t seed = off / chunk; off < size; seed++) {
		size_t n = size - off < chunk ? (size_t)(size - off) : chunk;

		util_fill_random(buf, n, seed * 0x9e3779b97f4a7c15ull + 1);
		if ((rc = pwrite_all(fd, buf, n, off)) < 0) {
			snprintf(err, len, "cannot write '%s' at %llu: %s", path,
				 (unsigned long long)off, strerror(-rc));
			break;
		}
		off += n;
		if (hb_stop_requested) {
			snprintf(err, len, "interrupted while laying out '%s'", path);
			rc = -EINTR;
			break;
		}
		if (progress && util_now_ns() - last >= NSEC_PER_SEC) {
			progress(ctx, off, size);
			last = util_now_ns();
		}
	}
	if (!rc && fsync(fd) < 0) {
		rc = -errno;
		snprintf(err, len, "cannot sync '%s': %s", path, strerror(errno));
	}
	free(buf);
	close(fd);
	return rc;
}

uint64_t target_unwritten(int fd, uint64_t size)
{
	uint64_t data = 0, off = 0;

	/* the data extents in turn; past this many pieces the rest counts as
	 * data (a warning's figure, not a scan that takes minutes) */
	for (unsigned n = 0; off < size; n++) {
		if (n == 65536) {
			data += size - off;
			break;
		}
		off_t d = lseek(fd, (off_t)off, SEEK_DATA), h;

		if (d < 0)	/* ENXIO: no data from off on */
			return errno == ENXIO ? size - data : 0;
		if ((uint64_t)d >= size)
			break;
		if ((h = lseek(fd, d, SEEK_HOLE)) < 0)
			return 0;
		off = (uint64_t)h < size ? (uint64_t)h : size;
		data += off - (uint64_t)d;
	}
	return size - data;
}

int target_open(const char *path, int kind, bool write, bool direct, char *err, size_t len)
{
	int flags = (write ? O_RDWR : O_RDONLY) | O_CLOEXEC;
	int fd;

	if (direct)
		flags |= O_DIRECT;
	(void)kind;	/* no O_EXCL: the run holds the claim (guard.c) */
	fd = open(path, flags);
	if (fd < 0) {
		int e = errno;

		snprintf(err, len, "cannot open '%s'%s: %s", path,
			 e == EINVAL && direct ? " with O_DIRECT (try direct=false)" : "",
			 e == EBUSY ? "device is busy (mounted or held by another driver)"
				    : strerror(e));
		return -e;
	}
	return fd;
}

void target_canon(const char *path, char *out, size_t len)
{
	struct target_id id;

	if (target_id_of(path, &id) < 0 || snprintf(out, len, "%s", id.path) >= (int)len)
		snprintf(out, len, "%s", path);
}

bool target_same_path(const char *a, const char *b)
{
	struct target_id ia, ib;

	if (target_id_of(a, &ia) < 0 || target_id_of(b, &ib) < 0)
		return !strcmp(a, b);
	return target_id_same(&ia, &ib);
}

void target_allow_destroy(const char *device)
{
	char real[PATH_MAX];
	char **p = realloc(destroy_ok, (ndestroy_ok + 1) * sizeof(*p));
	bool *u = p ? realloc(destroy_used, (ndestroy_ok + 1) * sizeof(*u)) : NULL;

	if (p)
		destroy_ok = p;
	if (!u)
		return;
	destroy_used = u;
	destroy_used[ndestroy_ok] = false;
	destroy_ok[ndestroy_ok++] = strdup(realpath(device, real) ? real : device);
}

void target_warn_unused_destroy(void)
{
	for (unsigned i = 0; i < ndestroy_ok; i++)
		if (!destroy_used[i] && destroy_ok[i])
			log_warn("--destroy-data %s: no step the plan made in its dry pass writes that "
				 "block device or file (nothing there is destroyed; a mistyped name?)",
				 destroy_ok[i]);
}

bool target_destroy_offered(const char *path)
{
	char real[PATH_MAX];

	if (!realpath(path, real))
		snprintf(real, sizeof(real), "%s", path);
	for (unsigned i = 0; i < ndestroy_ok; i++)
		if (destroy_ok[i] && strcmp(destroy_ok[i], real) == 0)
			return destroy_used[i] = true;
	return false;
}

/* The names --destroy-data was given, ", " between them, into buf ("" for
 * none; "..." at the end when they do not fit). */
static void destroy_names(char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < ndestroy_ok && off < len; i++)
		if (destroy_ok[i])
			off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? ", " : "",
						destroy_ok[i]);
	if (off >= len && len > 4)
		memcpy(buf + len - 4, "...", 4);
}

void target_destroy_hint(char *buf, size_t len)
{
	char given[512];

	destroy_names(given, sizeof(given));
	snprintf(buf, len, "%s%s%s", given[0] ? " (--destroy-data names " : "", given,
		 given[0] ? ", not this one: a mistyped name?)" : "");
}

bool target_write_allowed(const char *path, char *err, size_t len)
{
	char hint[600];

	if (target_destroy_offered(path))
		return true;
	target_destroy_hint(hint, sizeof(hint));
	snprintf(err, len, "refusing to write to block device '%s': its data would be "
		 "destroyed; name it with --destroy-data %s if that is what you want%s",
		 path, path, hint);
	return false;
}
