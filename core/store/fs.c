/* The database's file and its file system: only a regular file is opened
 * as a database (a FIFO would block the open), and SQLite's shared memory
 * (-shm) is mapped only once its blocks are allocated, so that a full file
 * system is an error to report instead of a SIGBUS. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "store/db.h"

/* Has a write of SQLite's, or a -shm mapping, failed in this thread for
 * want of space since the last db_shm_guard()? */
static _Thread_local bool no_space;

const char *db_file_kind(mode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG:
		return "a regular file";
	case S_IFDIR:
		return "a folder";
	case S_IFIFO:
		return "a FIFO";
	case S_IFSOCK:
		return "a socket";
	case S_IFCHR:
		return "a character device";
	case S_IFBLK:
		return "a block device";
	default:
		return "not a regular file";
	}
}

int db_file_check(const char *path, const char *what, char *err, size_t len)
{
	struct stat sb;

	if (stat(path, &sb) != 0)
		return -errno;
	if (S_ISREG(sb.st_mode))
		return 0;
	snprintf(err, len, "'%s' is %s, not %s", path, db_file_kind(sb.st_mode), what);
	return -EINVAL;
}

int db_path_ready(const char *path, bool must_exist, char *err, size_t len)
{
	int rc = db_file_check(path, "a database file", err, len);

	if (rc == 0 || rc == -EINVAL)
		return rc;
	if (!must_exist)
		return 0;	/* SQLite makes it, or says why it cannot */
	if (rc == -ENOENT || rc == -ENOTDIR)
		snprintf(err, len, "no database '%s' (run a plan first, or give --db FILE)", path);
	else
		snprintf(err, len, "cannot open database '%s': %s", path, strerror(-rc));
	return rc;
}

/* SQLite's writes, noting ENOSPC: SQLite says a full file system as
 * SQLITE_FULL only where it expects one (a -wal's frames), and errno is
 * gone by the time it returns (the -shm's growth: SQLITE_IOERR_SHMSIZE). */
static ssize_t guard_write(int fd, const void *buf, size_t n)
{
	ssize_t done = write(fd, buf, n);

	if (done < 0 && (errno == ENOSPC || errno == EDQUOT))
		no_space = true;
	return done;
}

static ssize_t guard_pwrite64(int fd, const void *buf, size_t n, off64_t off)
{
	ssize_t done = pwrite64(fd, buf, n, off);

	if (done < 0 && (errno == ENOSPC || errno == EDQUOT))
		no_space = true;
	return done;
}

/* SQLite grows its -shm by writing one byte in each 4 KiB page and then
 * maps it; on a file system with smaller blocks (ext4 -b 1024) the rest of
 * each page is a hole, and a store into a hole through the mapping, once
 * the file system is full, is a SIGBUS. A shared writable mapping (only
 * the -shm is one: SQLite maps database files read-only) gets its blocks
 * first, so a full file system fails the mapping with ENOSPC, which SQLite
 * returns as SQLITE_IOERR_SHMMAP. Where fallocate is not supported, the
 * mapping is made as before. */
static void *shm_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	if ((prot & PROT_WRITE) && (flags & MAP_SHARED) && fd >= 0 &&
	    fallocate(fd, 0, off, (off_t)len) != 0 && (errno == ENOSPC || errno == EDQUOT)) {
		no_space = true;
		return MAP_FAILED;
	}
	return mmap(addr, len, prot, flags, fd, off);
}

/* SQLite's unix VFS lets a program replace its system calls (a name this
 * build of SQLite does not use is SQLITE_NOTFOUND, and left alone). */
static void shm_guard_install(void)
{
	sqlite3_vfs *vfs = sqlite3_vfs_find(NULL);

	if (!vfs || vfs->iVersion < 3 || !vfs->xSetSystemCall)
		return;
	vfs->xSetSystemCall(vfs, "mmap", (sqlite3_syscall_ptr)shm_mmap);
	vfs->xSetSystemCall(vfs, "write", (sqlite3_syscall_ptr)guard_write);
	vfs->xSetSystemCall(vfs, "pwrite64", (sqlite3_syscall_ptr)guard_pwrite64);
}

void db_shm_guard(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, shm_guard_install);
	no_space = false;
}

bool db_full(sqlite3 *h)
{
	int rc = h ? sqlite3_errcode(h) : SQLITE_OK;

	return rc == SQLITE_FULL || (rc == SQLITE_IOERR && no_space);
}

void db_full_message(const char *path, char *err, size_t len)
{
	struct statvfs vfs;

	if (statvfs(path, &vfs) == 0)
		snprintf(err, len, "the file system holding '%s' is full (%llu KiB free): free "
			 "some space there", path,
			 (unsigned long long)vfs.f_bavail * vfs.f_frsize / 1024);
	else
		snprintf(err, len, "the file system holding '%s' is full: free some space there",
			 path);
}

off_t db_wal_bytes(const char *path)
{
	char name[4096];
	struct stat sb;

	if ((size_t)snprintf(name, sizeof(name), "%s-wal", path) >= sizeof(name))
		return 0;
	return stat(name, &sb) ? 0 : sb.st_size;
}
