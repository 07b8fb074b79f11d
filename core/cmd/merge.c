/* `hbatest merge OUT.db IN.db...`: gather the runs of many benches'
 * databases into one archive, by run uuid (core/store/merge.c). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "base/log.h"

/* OUT made by this command with nothing merged into it: gone again, so a
 * failed merge leaves no empty archive behind. */
static void merge_unmake(const char *out)
{
	static const char *const ext[] = { "", "-wal", "-shm", "-journal" };
	char path[4096];

	for (size_t i = 0; i < sizeof(ext) / sizeof(ext[0]); i++) {
		snprintf(path, sizeof(path), "%s%s", out, ext[i]);
		unlink(path);
	}
	log_error("nothing merged: '%s' is not created", out);
}

/* Every input a readable regular file (a FIFO would block the merge) and
 * none of them OUT, before OUT is created. */
static int merge_check_inputs(const char *out, const char **in, int n)
{
	struct stat so, si;
	bool have_out = stat(out, &so) == 0;
	char err[1024];

	for (int i = 0; i < n; i++) {
		if (stat(in[i], &si) != 0) {
			log_error("cannot read database '%s': %s", in[i], strerror(errno));
			return EXIT_FAILED;
		}
		if (db_file_check(in[i], "a database file", err, sizeof(err)) == -EINVAL) {
			log_error("%s: nothing merged", err);
			return EXIT_FAILED;
		}
		if (have_out && si.st_dev == so.st_dev && si.st_ino == so.st_ino) {
			cli_usage_error("merge", "'%s' is the output OUT.db itself: give the "
					"databases to merge into it", in[i]);
			return EXIT_USAGE;
		}
	}
	return 0;
}

static int merge_parse(int argc, char **argv, const char **pos, int *npos)
{
	static const struct option opts[] = { CLI_COMMON_OPTIONS };
	struct cli_getopt g;
	int c;

	*npos = 0;
	cli_getopt_init(&g, "merge", argc, argv, opts);
	g.db_refused = "--db does not apply: merge OUT.db IN.db...";
	while ((c = cli_getopt_next(&g)) != CLI_END) {
		if (c == CLI_ERROR)
			return -1;
		if (c != CLI_ARG) {	/* "-" is a file name */
			cli_usage_error("merge", "unknown option '%s'", g.opt);
			return -1;
		}
		pos[(*npos)++] = g.arg;
	}
	if (*npos < 2) {
		cli_usage_error("merge", "give the output database and at least one input: "
				"merge OUT.db IN.db...");
		return -1;
	}
	return 0;
}

int cmd_merge(int argc, char **argv)
{
	const char *pos[argc > 0 ? argc : 1];
	struct db out;
	char err[1024];
	int npos, rc, failed = 0;
	struct stat so;
	bool created;

	if (merge_parse(argc, argv, pos, &npos) < 0)
		return EXIT_USAGE;
	rc = merge_check_inputs(pos[0], pos + 1, npos - 1);
	if (rc)
		return rc;
	created = lstat(pos[0], &so) != 0 && errno == ENOENT;	/* a link to nothing is not ours */
	if (db_open(&out, pos[0], true, err, sizeof(err)) < 0) {
		log_error("%s", err);
		return EXIT_FAILED;
	}
	for (int i = 1; i < npos; i++) {
		struct db_merge_counts n;

		if (db_merge(&out, pos[i], &n, err, sizeof(err)) < 0) {
			log_error("%s", err);
			failed++;
			continue;
		}
		printf("'%s': %u new run%s copied, %u already present", pos[i], n.copied,
		       n.copied == 1 ? "" : "s", n.present);
		if (n.forward)
			printf(", %u run%s brought forward", n.forward, n.forward == 1 ? "" : "s");
		if (n.older)
			printf(", %u older than the archive's copy (kept)", n.older);
		if (n.skipped)
			printf(", %u still running (skipped)", n.skipped);
		printf("\n");
	}
	created = created && failed == npos - 1 && db_count_runs(&out) == 0;	/* nor filled by another merge */
	db_close(&out);
	if (created)
		merge_unmake(pos[0]);
	return failed ? EXIT_FAILED : EXIT_DONE;
}
