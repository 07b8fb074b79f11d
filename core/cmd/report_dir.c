/* Where `hbatest report` writes: which DIR it may replace (a report folder,
 * known by its mark), and moving the finished report into place. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/report_dir.h"
#include "base/log.h"
#include "report/report_page.h"

/* What DIR's top holds, against what a report writes there (an older
 * hbatest's report has no mark). "" when only a report's names. */
static int out_contents(const char *dir, char *foreign, size_t len, bool *index, bool *empty)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d) {
		log_error("cannot read '%s': %s", dir, strerror(errno));
		return -errno;
	}
	*foreign = '\0';
	*index = false;
	*empty = true;
	while ((e = readdir(d))) {
		const char *n = e->d_name;

		if (!strcmp(n, ".") || !strcmp(n, ".."))
			continue;
		*empty = false;
		*index |= !strcmp(n, "index.html");
		if (!*foreign && strcmp(n, "index.html") && strcmp(n, "charts") &&
		    strcmp(n, "data") && strcmp(n, REPORT_MARK))
			snprintf(foreign, len, "%s", n);
	}
	closedir(d);
	return 0;
}

/* Whether path/name holds text (in its first 4 KiB). */
static bool file_has(const char *path, const char *name, const char *text)
{
	char file[PATH_MAX + 32], buf[4097];
	size_t n;
	FILE *f;

	snprintf(file, sizeof(file), "%s/%s", path, name);
	if (!(f = fopen(file, "r")))
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return strstr(buf, text) != NULL;
}

/* The folder at path (shown as DIR in messages) is replaced only when it is
 * empty or a report folder: index.html, charts/, data/ and the mark, nothing
 * else (a report from before the mark: the same names, and hbatest's
 * generator line in its index.html). 1: a report of other runs than uuids
 * (by its mark); 0: it may be replaced; < 0: refused, and said why. */
static int judge_folder(const char *path, const char *shown, const char *uuids)
{
	char foreign[256], mark[PATH_MAX + 32], line[UUIDS_LEN] = "";
	bool index = false, empty = true;
	struct stat st;
	FILE *f;
	int rc;

	if (lstat(path, &st) < 0) {
		if (errno == ENOENT)
			return 0;
		log_error("cannot look at '%s': %s", shown, strerror(errno));
		return -errno;
	}
	if (!S_ISDIR(st.st_mode)) {
		log_error(S_ISLNK(st.st_mode) ? "'%s' is a symbolic link: give the folder itself, "
			  "or another --out" : "'%s' exists and is not a folder: give another --out", shown);
		return -EEXIST;
	}
	if ((rc = out_contents(path, foreign, sizeof(foreign), &index, &empty)) < 0)
		return rc;
	snprintf(mark, sizeof(mark), "%s/" REPORT_MARK, path);
	f = fopen(mark, "r");
	if (!empty && !*foreign && index && !f &&
	    !file_has(path, "index.html", "<meta name=\"generator\" content=\"hbatest report"))
		snprintf(foreign, sizeof(foreign), "index.html");
	if (!empty && (*foreign || !index)) {
		log_error("'%s' is not a report folder (it holds %s%s%s): nothing in it is "
			  "replaced; give another --out", shown, *foreign ? "'" : "",
			  *foreign ? foreign : "no index.html",
			  !*foreign ? "" : strcmp(foreign, "index.html") ? "', which no report has"
			  : "' that no hbatest report wrote");
		if (f)
			fclose(f);
		return -EEXIST;
	}
	if (!f)
		return 0;
	if (!fgets(line, sizeof(line), f))
		line[0] = '\0';
	fclose(f);
	line[strcspn(line, "\n")] = '\0';
	return strcmp(line, uuids) ? 1 : 0;
}

/* The old way, where the filesystem has no renameat2 flags (EINVAL): move
 * DIR aside, rename the report in, remove the old one. */
static int put_in_place_plain(const char *tmp, const char *dir)
{
	char old[PATH_MAX + 64];

	snprintf(old, sizeof(old), "%s.old-XXXXXX", tmp);
	if (access(dir, F_OK) == 0) {
		if (!mkdtemp(old) || rename(dir, old) < 0) {
			int e = errno;

			log_error("cannot move the old report '%s' aside: %s", dir, strerror(e));
			rmdir(old);
			return -e;
		}
	} else {
		old[0] = '\0';
	}
	if (rename(tmp, dir) < 0) {
		int e = errno;

		log_error("cannot rename '%s' to '%s': %s", tmp, dir, strerror(e));
		if (old[0])
			rename(old, dir);
		return -e;
	}
	if (old[0])
		report_remove_tree(old);
	return 0;
}

/* The finished folder takes DIR's place. report_dir_choose looked at DIR before the
 * report was written, and DIR may have changed since: an absent DIR is taken
 * by a rename that never replaces; a present one is exchanged with the
 * report in one step and what came out is judged again: a report folder is
 * removed, anything else is put back and refused. by_default: a report of
 * other runs is not replaced either (report_dir_choose chose this name for that). */
int report_dir_put(const char *tmp, const char *dir, const char *uuids, bool by_default)
{
	int rc;

	if (renameat2(AT_FDCWD, tmp, AT_FDCWD, dir, RENAME_NOREPLACE) == 0)
		return 0;
	if (errno == EINVAL)
		return put_in_place_plain(tmp, dir);
	if (errno != EEXIST || renameat2(AT_FDCWD, tmp, AT_FDCWD, dir, RENAME_EXCHANGE) < 0) {
		int e = errno;

		log_error("cannot rename '%s' to '%s': %s", tmp, dir, strerror(e));
		return -e;
	}
	rc = judge_folder(tmp, dir, uuids);	/* tmp now holds what DIR held */
	if (rc < 0 || (rc == 1 && by_default)) {
		renameat2(AT_FDCWD, tmp, AT_FDCWD, dir, RENAME_EXCHANGE);
		if (rc == 1)
			log_error("'%s' became the report of other runs while this one was "
				  "written: it is kept; give --out", dir);
		return rc < 0 ? rc : -EEXIST;
	}
	report_remove_tree(tmp);
	return 0;
}

/* The mark that tells this folder for a report of these runs (judge_folder). */
int report_dir_mark(const char *tmp, const char *uuids)
{
	char path[PATH_MAX + 64];
	FILE *f;
	int wrc;

	snprintf(path, sizeof(path), "%s/" REPORT_MARK, tmp);
	f = fopen(path, "w");
	if (!f) {
		log_error("cannot write '%s': %s", path, strerror(errno));
		return -EIO;
	}
	wrc = fprintf(f, "%s\n", uuids);
	if (fclose(f) != 0 || wrc < 0) {
		log_error("cannot write '%s': %s", path, strerror(errno));
		return -EIO;
	}
	return 0;
}

/* Where the report goes. The default name is made of labels, which other
 * runs can share: a default DIR holding the report of other runs is kept,
 * and this one goes to DIR-UUID8 (its first run's). An --out DIR holding an
 * older report of other runs is replaced, as asked. */
int report_dir_choose(char *dir, size_t len, bool by_default, const char *uuids)
{
	int rc = judge_folder(dir, dir, uuids);
	size_t o = strlen(dir);

	if (rc == 1 && by_default && o + 10 < len) {
		log_info("'%s' holds the report of other runs: kept; this one goes to '%s-%.8s'",
			 dir, dir, uuids + 6);
		snprintf(dir + o, len - o, "-%.8s", uuids + 6);
		rc = judge_folder(dir, dir, uuids);
		if (rc == 1) {
			log_error("'%s' too holds the report of other runs: kept; give --out", dir);
			return -EEXIST;
		}
	}
	if (rc == 1)
		log_info("'%s' held the report of other runs: replaced", dir);
	return rc < 0 ? rc : 0;
}

