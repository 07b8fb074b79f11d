/* The file guard: which existing files a run may write (none with data
 * nobody offered), its claims on the files it writes, and hbatest's mark on
 * them. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "measure/guard.h"
#include "measure/guard_file.h"
#include "base/human.h"
#include "base/log.h"
#include "measure/target.h"
#include "base/util.h"

#define GUARD_MARK "user.hbatest"	/* on a file hbatest laid out or wrote: a run's uuid */

/* A file the run writes: an open file description holding flock(LOCK_EX)
 * until guard_release, so another hbatest run writing it at the same time
 * is refused (each would measure the other's I/O). Approved for the whole
 * run: a later step's check finds it here, whatever data an earlier one
 * wrote into it. */
static struct file_claim {
	dev_t dev;
	ino_t ino;
	int fd;			/* -1: a file system without flock (no lock) */
	bool marked;		/* this run set its mark */
	char *destroys;		/* "a.dat: an existing file of 18 B ...", or NULL */
} *fclaims;
static unsigned nfclaims;

/* The run's uuid once it has one (its real pass): the value of the mark. */
static char mark_uuid[64];

static struct file_claim *file_claim_find(dev_t dev, ino_t ino)
{
	for (unsigned i = 0; i < nfclaims; i++)
		if (fclaims[i].dev == dev && fclaims[i].ino == ino)
			return &fclaims[i];
	return NULL;
}

/* Claim the regular file at path (made empty first when create and not
 * there): *out its entry, NULL when it is not there or cannot be opened. */
static int claim_file(const char *path, bool create, struct file_claim **out, char *err,
		      size_t len)
{
	struct file_claim *c;
	struct stat st;
	int fd;

	*out = NULL;
	if (create && (fd = open(path, O_RDONLY | O_CREAT | O_CLOEXEC, 0644)) >= 0)
		close(fd);	/* (the layout's open says why it cannot) */
	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return 0;	/* not there yet: claimed as the step creates it */
	if ((*out = file_claim_find(st.st_dev, st.st_ino)))
		return 0;
	if (!(c = realloc(fclaims, (nfclaims + 1) * sizeof(*c))))
		return -ENOMEM;
	fclaims = c;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return 0;	/* the step's own open says why */
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		int e = errno;

		close(fd);
		fd = -1;	/* a file system without flock: no lock */
		if (e == EWOULDBLOCK) {
			snprintf(err, len, "refusing to write to '%s': another hbatest run is "
				 "writing it (it holds the file's lock; two runs on one target "
				 "measure each other)", path);
			return -EBUSY;
		}
	}
	fclaims[nfclaims] = (struct file_claim){ st.st_dev, st.st_ino, fd, false, NULL };
	*out = &fclaims[nfclaims++];
	return 0;
}

/* hbatest's mark on a file the run writes, once the run has a uuid, so the
 * next run writes it without --destroy-data (a file system that keeps no
 * user extended attributes gets none: the refusal says so). */
static void mark_file(const char *path, struct file_claim *c)
{
	if (!mark_uuid[0] || c->marked)
		return;
	c->marked = true;
	if (setxattr(path, GUARD_MARK, mark_uuid, strlen(mark_uuid), 0) < 0 &&
	    errno != ENOTSUP && errno != EOPNOTSUPP)
		log_warn("cannot mark '%s' as laid out by hbatest (%s): the next run that "
			 "writes it needs --destroy-data %s", path, strerror(errno), path);
}

void guard_mark_file(const char *path)
{
	struct stat st;

	if (!mark_uuid[0] || stat(path, &st) < 0 || !S_ISREG(st.st_mode) ||
	    getxattr(path, GUARD_MARK, NULL, 0) >= 0)
		return;
	mark_file(path, &(struct file_claim){ .fd = -1 });
}

int guard_claim_file(const char *path, bool create, char *err, size_t len)
{
	struct file_claim *c;
	int rc = claim_file(path, create, &c, err, len);

	if (!rc && c && create)
		mark_file(path, c);
	return rc;
}

/* Does the open file fd hold data: bytes past holes and unwritten extents
 * (target_unwritten)? *size: its size. */
static bool holds_data(int fd, uint64_t *size)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return true;
	*size = (uint64_t)st.st_size;
	return *size > 0 && target_unwritten(fd, *size) < *size;
}

/* An existing regular file with data is written only when hbatest laid it
 * out or wrote it before (its mark), an earlier step of this run was let
 * write it, or --destroy-data names it (*destroys then says what is lost).
 * An empty file, or one of holes, holds nothing to lose. */
static int check_offered(const char *path, const struct target_id *id, char **destroys,
			 char *err, size_t len)
{
	char size[32], how[PATH_MAX + 32] = "", hint[600];
	bool offered, data, nomark;
	uint64_t bytes = 0;
	ssize_t mark;
	int fd;

	*destroys = NULL;
	if (!id->exists || !S_ISREG(id->mode) || file_claim_find(id->dev, id->ino))
		return 0;
	offered = target_destroy_offered(path);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return 0;	/* the step's own open says why */
	data = holds_data(fd, &bytes);
	mark = fgetxattr(fd, GUARD_MARK, NULL, 0);
	nomark = mark < 0 && (errno == ENOTSUP || errno == EOPNOTSUPP);
	close(fd);
	if (!data || mark >= 0)
		return 0;
	human_bytes(bytes, size, sizeof(size));
	if (id->link)
		snprintf(how, sizeof(how), " (a symbolic link to '%s')", id->path);
	if (offered) {
		*destroys = util_strdup_printf("%s%s: an existing file of %s that hbatest did "
					       "not lay out", path, how, size);
		return 0;
	}
	target_destroy_hint(hint, sizeof(hint));
	snprintf(err, len, "refusing to write to '%s'%s: it is an existing file of %s with "
		 "data that hbatest did not lay out; %s --destroy-data %s %s%s", path, how, size,
		 nomark ? "its file system keeps no extended attributes, so hbatest cannot "
		 "mark files it lays out: name it with" : "name it with", path,
		 nomark ? "each run" : "to overwrite it, or give a path that does not exist yet",
		 hint);
	return -EPERM;
}

int guard_file_check(const char *path, const struct target_id *id, char *err, size_t len)
{
	struct file_claim *c = NULL;
	char *destroys;
	int rc = check_offered(path, id, &destroys, err, len);

	if (!rc)
		rc = claim_file(path, false, &c, err, len);
	if (!rc && c && destroys && !c->destroys) {
		log_info("will destroy %s", destroys);
		c->destroys = destroys;
		destroys = NULL;
	}
	free(destroys);
	if (!rc && c)
		mark_file(path, c);
	return rc;
}

void guard_set_run(const char *uuid)
{
	snprintf(mark_uuid, sizeof(mark_uuid), "%s", uuid ? uuid : "");
}

const char *guard_file_destroys(unsigned i)
{
	for (unsigned j = 0; j < nfclaims; j++)
		if (fclaims[j].destroys && !i--)
			return fclaims[j].destroys;
	return NULL;
}

void guard_file_release(void)
{
	for (unsigned i = 0; i < nfclaims; i++) {
		if (fclaims[i].fd >= 0)
			close(fclaims[i].fd);
		free(fclaims[i].destroys);
	}
	free(fclaims);
	fclaims = NULL;
	nfclaims = 0;
	mark_uuid[0] = '\0';
}
