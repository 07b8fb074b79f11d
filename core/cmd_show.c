/* `hbatest list`, `show` and `plugins`: read-only views for people. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "db.h"
#include "log.h"
#include "plugin.h"
#include "probe.h"

static int parse_common(const char *cmd, int argc, char **argv, const char **pos, int npos,
			bool *verbose, bool *check)
{
	int got = 0;

	for (int i = 1; i < argc; i++) {
		int used = cli_common_opt(argc, argv, i);

		if (used < 0)
			return -1;
		if (used) {
			if (verbose && !strcmp(argv[i], "-v"))
				*verbose = true;
			i += used - 1;
		} else if (check && !strcmp(argv[i], "--check")) {
			*check = true;
		} else if (argv[i][0] != '-' && got < npos) {
			pos[got++] = argv[i];
		} else {
			cli_usage_error(cmd, "unexpected argument '%s'", argv[i]);
			return -1;
		}
	}
	if (got < npos) {
		cli_usage_error(cmd, "missing argument");
		return -1;
	}
	return 0;
}

/* 'running' with its process gone reads as 'interrupted' */
static const char *run_state(sqlite3_stmt *st, int col_state, int col_host, int col_pid)
{
	const char *state = (const char *)sqlite3_column_text(st, col_state);
	const char *host = (const char *)sqlite3_column_text(st, col_host);

	if (!state || strcmp(state, "running"))
		return state ? state : "?";
	if (util_process_state(host, sqlite3_column_int64(st, col_pid)) == 0)
		return "interrupted";
	return state;
}

/* Read-only: a view never writes a schema into a file, nor anything else. */
static int open_ro(struct db *db, bool full_check)
{
	char err[1024];

	if (db_open_ro(db, cli_db_path(), full_check, err, sizeof(err)) < 0) {
		log_error("%s", err);
		return -1;
	}
	return 0;
}

/* A query that stopped on an error, not at its end, is an error. */
static int query_end(struct db *db, sqlite3_stmt *st, int rc)
{
	sqlite3_finalize(st);
	if (rc == SQLITE_DONE)
		return 0;
	log_error("cannot read database '%s': %s", db->path, sqlite3_errmsg(db->h));
	return -EIO;
}

static sqlite3_stmt *query(struct db *db, const char *sql, int64_t id)
{
	sqlite3_stmt *st = NULL;

	if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK) {
		log_error("cannot read database '%s': %s", db->path, sqlite3_errmsg(db->h));
		sqlite3_finalize(st);
		return NULL;
	}
	if (id)
		sqlite3_bind_int64(st, 1, id);
	return st;
}

int cmd_list(int argc, char **argv)
{
	struct db db;
	sqlite3_stmt *st;
	bool check = false;
	int n = 0, rc;

	if (parse_common("list", argc, argv, NULL, 0, NULL, &check) < 0)
		return EXIT_USAGE;
	if (open_ro(&db, check) < 0)
		return EXIT_FAILED;
	st = query(&db, "SELECT r.id, substr(r.uuid, 1, 8), COALESCE(r.label, ''), r.state, "
		   "r.host, r.pid, r.started_at, r.plan_path, r.simulated, "
		   "(SELECT count(*) FROM steps s WHERE s.run_id = r.id AND s.status = 'done'), "
		   "(SELECT count(*) FROM steps s WHERE s.run_id = r.id) "
		   "FROM run_state r ORDER BY r.id", 0);
	if (!st) {
		db_close(&db);
		return EXIT_FAILED;
	}
	printf("%4s  %-8s  %-24s  %-11s  %-20s  %-9s  %s\n", "id", "uuid", "label", "status",
	       "started (UTC)", "steps", "plan");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		char steps[32];

		snprintf(steps, sizeof(steps), "%d/%d", sqlite3_column_int(st, 9),
			 sqlite3_column_int(st, 10));
		printf("%4lld  %-8s  %-24.24s  %-11s  %-20.19s  %-9s  %s%s\n",
		       (long long)sqlite3_column_int64(st, 0), sqlite3_column_text(st, 1),
		       sqlite3_column_text(st, 2), run_state(st, 3, 4, 5),
		       sqlite3_column_text(st, 6), steps, sqlite3_column_text(st, 7),
		       sqlite3_column_int(st, 8) ? "  [simulated]" : "");
		n++;
	}
	rc = query_end(&db, st, rc);
	if (!n && !rc)
		printf("(no runs in %s)\n", db.path);
	db_close(&db);
	return rc ? EXIT_FAILED : EXIT_DONE;
}

static int show_run(struct db *db, int64_t id)
{
	static const char *const labels[] = { "uuid", "label", "plan", "plan sha256", "host",
		"version", "command", "started", "finished" };
	sqlite3_stmt *st;
	int rc;

	st = query(db, "SELECT uuid, label, plan_path, plan_sha256, host, version, cmdline, "
		   "started_at, finished_at, state, host, pid, simulated FROM run_state "
		   "WHERE id = ?", id);
	if (!st)
		return -EIO;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		printf("run %lld%s\n", (long long)id,
		       sqlite3_column_int(st, 12) ? " [simulated]" : "");
		for (int i = 0; i < 9; i++)
			printf("  %-12s %s\n", labels[i], sqlite3_column_text(st, i)
			       ? (const char *)sqlite3_column_text(st, i) : "-");
		printf("  %-12s %s\n", "status", run_state(st, 9, 10, 11));
	}
	if (query_end(db, st, rc))
		return -EIO;
	st = query(db, "SELECT path, kind, size_bytes FROM targets WHERE run_id = ? "
		   "ORDER BY id", id);
	if (!st)
		return -EIO;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		printf("  %-12s %s (%s, %lld bytes)\n", "target", sqlite3_column_text(st, 0),
		       sqlite3_column_text(st, 1), (long long)sqlite3_column_int64(st, 2));
	return query_end(db, st, rc);
}

static int show_steps(struct db *db, int64_t id)
{
	sqlite3_stmt *st;
	int rc;

	st = query(db, "SELECT seq, kind, name, status, iops, mbps, mibps, lat_mean_us, "
		   "lat_p99_us, lat_max_us, errors, window_s FROM step_summary "
		   "WHERE run_id = ? ORDER BY seq", id);
	if (!st)
		return -EIO;
	printf("\n%4s  %-12s  %-30s  %-8s  %10s  %9s  %9s  %9s  %9s  %10s  %6s\n", "step",
	       "kind", "name", "status", "IOPS", "MB/s", "MiB/s", "mean us", "p99 us",
	       "max us", "errors");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		printf("%4d  %-12s  %-30.30s  %-8s  %10.0f  %9.1f  %9.1f  %9.1f  %9.1f  %10.1f  %6lld\n",
		       sqlite3_column_int(st, 0), sqlite3_column_text(st, 1),
		       sqlite3_column_text(st, 2), sqlite3_column_text(st, 3),
		       sqlite3_column_double(st, 4), sqlite3_column_double(st, 5),
		       sqlite3_column_double(st, 6), sqlite3_column_double(st, 7),
		       sqlite3_column_double(st, 8), sqlite3_column_double(st, 9),
		       (long long)sqlite3_column_int64(st, 10));
	return query_end(db, st, rc);
}

static int show_steady(struct db *db, int64_t id)
{
	sqlite3_stmt *st;
	int rc;

	st = query(db, "SELECT name, attained, rounds, window_first, window_last, mean, "
		   "data_excursion / mean * 100, slope_excursion / mean * 100, "
		   "max_data_excursion * 100, max_slope_excursion * 100, track "
		   "FROM steady_state WHERE run_id = ? ORDER BY id", id);
	if (!st)
		return -EIO;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		printf("\nsteady state '%s': %s after %d rounds", sqlite3_column_text(st, 0),
		       sqlite3_column_int(st, 1) ? "attained" : "NOT attained",
		       sqlite3_column_int(st, 2));
		if (sqlite3_column_type(st, 3) != SQLITE_NULL)
			printf("; window rounds %d-%d, mean %s %.1f, data excursion %.1f%% (max "
			       "%.0f%%), slope excursion %.1f%% (max %.0f%%)",
			       sqlite3_column_int(st, 3), sqlite3_column_int(st, 4),
			       sqlite3_column_text(st, 10), sqlite3_column_double(st, 5),
			       sqlite3_column_double(st, 6), sqlite3_column_double(st, 8),
			       sqlite3_column_double(st, 7), sqlite3_column_double(st, 9));
		printf("\n");
	}
	return query_end(db, st, rc);
}

static int show_events(struct db *db, int64_t id)
{
	sqlite3_stmt *st;
	int rc;

	st = query(db, "SELECT at, level, message FROM events WHERE run_id = ? "
		   "AND level != 'info' ORDER BY id", id);
	if (!st)
		return -EIO;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		printf("%s %s: %s\n", sqlite3_column_text(st, 0), sqlite3_column_text(st, 1),
		       sqlite3_column_text(st, 2));
	return query_end(db, st, rc);
}

int cmd_show(int argc, char **argv)
{
	const char *spec;
	struct db db;
	bool check = false;
	char err[512];
	int64_t id;
	int rc;

	if (parse_common("show", argc, argv, &spec, 1, NULL, &check) < 0)
		return EXIT_USAGE;
	if (open_ro(&db, check) < 0)
		return EXIT_FAILED;
	id = db_find_run(&db, spec, err, sizeof(err));
	if (id < 0) {
		log_error("%s", err);
		db_close(&db);
		return EXIT_FAILED;
	}
	rc = show_run(&db, id);
	if (!rc)
		rc = show_steps(&db, id);
	if (!rc)
		rc = show_steady(&db, id);
	if (!rc) {
		printf("\n");
		rc = show_events(&db, id);
	}
	db_close(&db);
	return rc ? EXIT_FAILED : EXIT_DONE;
}

int cmd_probe(int argc, char **argv)
{
	char **targets = calloc((size_t)argc + 1, sizeof(char *));
	unsigned n = 0;
	struct facts f;

	for (int i = 1; i < argc; i++) {
		int used = cli_common_opt(argc, argv, i);

		if (used < 0) {
			free(targets);
			return EXIT_USAGE;
		}
		if (used)
			i += used - 1;
		else
			targets[n++] = argv[i];
	}
	plugins_load();
	probe_collect(targets, n, &f);
	facts_print(&f, stdout);
	for (unsigned t = 0; t < n; t++)
		if (!facts_find(&f, targets[t], "block", "device"))
			printf("\n%s\n  (not a block device, nor a file on one, under %s)\n",
			       targets[t], probe_root());
	facts_free(&f);
	free(targets);
	return EXIT_DONE;
}

int cmd_plugins(int argc, char **argv)
{
	bool verbose = false;

	if (parse_common("plugins", argc, argv, NULL, 0, &verbose, NULL) < 0)
		return EXIT_USAGE;
	log_set_verbosity(HB_LOG_INFO);	/* -v here means "show options" */
	plugins_load();
	printf("%-10s  %-6s  %-5s  %-40s  %s\n", "name", "kind", "ABI", "file", "summary");
	for (unsigned i = 0; i < plugins_count(); i++) {
		const struct plugin *p = plugins_at(i);
		char abi[16];

		snprintf(abi, sizeof(abi), "%u.%u", p->desc->abi_major, p->desc->abi_minor);
		printf("%-10s  %-6s  %-5s  %-40s  %s\n", p->desc->name,
		       plugin_kind_name(p->desc->kind), abi, p->path,
		       p->desc->summary ? p->desc->summary : "");
		for (const struct hb_option *o = p->desc->options; verbose && o && o->name; o++)
			printf("            %s=%s (%s, default %s)\n", o->name,
			       plugin_opt_type_name(o->type), o->help ? o->help : "",
			       o->def ? o->def : "none");
	}
	if (!plugins_count())
		printf("(no plugins found: build them with make, or give --plugin-path)\n");
	return EXIT_DONE;
}
