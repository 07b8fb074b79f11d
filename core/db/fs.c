/* The database's file and its file system: only a regular file is opened
 * as a database (a FIFO would block the open). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "db/db.h"

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
