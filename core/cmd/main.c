/* hbatest: the command line, a table of commands that also prints the usage. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "base/build_info.h"
#include "store/db.h"
#include "base/log.h"
#include "measure/loader.h"

static int cmd_version(int argc, char **argv);
static int cmd_help(int argc, char **argv);

/* list's and show's notes, printed once by help */
#define CHECK_NOTE "list, show: every open runs SQLite's quick_check; --check runs the slower\n" \
		   "integrity_check (indexes too) first. On a file over 256 MiB quick_check\n" \
		   "checks the runs table only.\n"

/* One entry a command, in the style of Lua's luaL_Reg; usage is what
 * `hbatest help` prints for it (NULL: an alias of the entry above), notes
 * what it prints after every usage line; `hbatest CMD --help` prints both
 * and the examples (lines of commands that work as written, each checked
 * by tests/help.t), and points at the man page for the rest. */
static const struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *usage;
	const char *notes;
	const char *examples;
} commands[] = {
	{ "run", cmd_run,
	  "run PLAN.lua [--db FILE] [--label TEXT] [--target PATH]...\n"
	  "                            [--set K=V]... [--dry-run] [--destroy-data DEVICE]...\n"
	  "                            [--allow-exec] [--lua-memory SIZE] [--max-steps N]\n"
	  "                            [--probe-opt P.K=V]... [--note TEXT]...\n"
	  "                            [--status-interval SECONDS]\n"
	  "       hbatest run [PLAN.lua] --resume [RUN] [--force] [--destroy-data DEVICE]...\n"
	  "                            [--allow-exec] [--lua-memory SIZE] [--note TEXT]...",
	  "run: the plan runs twice: a dry pass that checks every step without I/O,\n"
	  "then the real one, each second stored as it ends.\n"
	  "  --label TEXT        a name for the run (list, show, report take it as RUN)\n"
	  "  --target PATH       measure PATH instead of the plan's hb.targets (repeat\n"
	  "                      for several; a file is created when a step gives size=)\n"
	  "  --set K=V           a plan setting, read by hb.set(\"K\", default) (repeat)\n"
	  "  --dry-run           print the steps, the hb.exec commands and the time it\n"
	  "                      would take; nothing is written\n"
	  "  --destroy-data DEV  allow write steps on block device or data file DEV (repeat)\n"
	  "  --resume [RUN]      go on with an unfinished run: done steps are not rerun\n"
	  "  --force             with --resume: replay a plan whose file has changed\n"
	  "  --probe-opt P.K=V   probe P's option K (megaraid.tool=PATH, mpt.timeout=30;\n"
	  "                      repeat; `hbatest plugins -v` lists them)\n"
	  "  --note TEXT         a note stored with the run (repeat; hb.note in a plan)\n"
	  "  --status-interval SECONDS  a status line on stderr every SECONDS (default\n"
	  "                      60 when stderr is no terminal, none on one; 0: none)\n"
	  "--allow-exec lets hb.exec run shell commands (a plan cannot grant it);\n"
	  "--lua-memory SIZE raises the Lua memory limit (1g), --max-steps N the steps.\n",
	  "hbatest run plans/raid5.lua --target /dev/sdb --destroy-data /dev/sdb --label raid5-wb\n"
	  "hbatest run plans/raid5.lua --target /dev/sdb --dry-run\n" },
	{ "list", cmd_list, "list [--db FILE] [--check]", CHECK_NOTE,
	  "hbatest list\n"
	  "hbatest list --db night.db --check\n" },
	{ "show", cmd_show, "show RUN [--db FILE] [--check]", CHECK_NOTE,
	  "hbatest show raid5-wb\n"
	  "hbatest show 1 --db night.db\n" },
	{ "plugins", cmd_plugins, "plugins [-v]",
	  "plugins: the engines and probes found beside the binary and on --plugin-path;\n"
	  "[sampled]: a probe that telemetry reads during a run; -v: each one's options.\n",
	  "hbatest plugins -v\n" },
	{ "probe", cmd_probe,
	  "probe [--sample] [--probe-opt P.K=V]... [TARGET...]   (sysfs from\n"
	  "                      $HBATEST_SYSFS_ROOT, default /)",
	  "probe: the facts a run records of the host and each target; --sample: only\n"
	  "what a telemetry sample reads now (temperatures, write policy in effect, cache\n"
	  "protection, volume and drive states, PCIe link), from each probe's sample op.\n"
	  "--probe-opt P.K=V gives probe P its option K, as run takes it: a RAID card's\n"
	  "tool where PATH has none (megaraid.tool=/opt/MegaRAID/storcli/storcli64).\n",
	  "hbatest probe /dev/sdb\n"
	  "hbatest probe --sample --probe-opt megaraid.tool=/opt/MegaRAID/storcli/storcli64 /dev/sdb\n" },
	{ "report", cmd_report,
	  "report RUN... [--out DIR] [--title TEXT] [--baseline RUN]\n"
	  "                      [--format svg,png,pdf] [--size WxH] [--template FILE] [--no-charts]\n"
	  "                      [--lua-memory SIZE] [--lua-time SECONDS] [--only GLOB]...\n"
	  "                      [--at AXIS=VALUE]... [--units MB|MiB] [--db FILE]",
	  "report: writes DIR/index.html (one self-contained page) and DIR/charts/ (gnuplot\n"
	  "scripts, data, SVG/PNG); needs gnuplot unless --no-charts. --format takes svg\n"
	  "or png with pdf (the page shows one of them). A report program (--template) gets\n"
	  "1g of Lua memory and 120 s of Lua and queries unless --lua-memory/--lua-time\n"
	  "raise them. --only GLOB (repeatable) reports the groups whose name matches;\n"
	  "--at oio=32 ranks the runs at that point; --units MiB for binary throughput.\n",
	  "hbatest report raid5-wb raid5-wt --baseline raid5-wt --out raid5-report\n"
	  "hbatest report raid5-wb --title \"LSI 9361-8i RAID5\" --only '4k*' --no-charts\n" },
	{ "sql", cmd_sql,
	  "sql \"SELECT ...\" | QUERY-NAME | -f|--file FILE [--param NAME=VALUE]... [--format table|csv|tsv|json]\n"
	  "                   [--db FILE]   (no argument, or --list: the saved queries)",
	  "sql: reads only (a statement that would write is refused, exit 2); table on a\n"
	  "terminal, tsv otherwise. -f FILE reads the statement from FILE.\n",
	  "hbatest sql oio-sweep --param run=raid5-wb --format csv\n"
	  "hbatest sql \"SELECT id, label, started_at FROM runs\"\n" },
	{ "export", cmd_export,
	  "export RUN... [--what TABLE|VIEW] [--format csv|json] [--out FILE] [--db FILE]",
	  "export: CSV (default --what steps) or JSON (without --what: the whole runs,\n"
	  "which import hbatest reads back); --what takes any table or view of the\n"
	  "schema; the format: docs/database.md, \"Export format\".\n",
	  "hbatest export raid5-wb > raid5-wb-steps.csv\n"
	  "hbatest export raid5-wb raid5-wt --what step_summary --out both.csv\n" },
	{ "import", cmd_import, "import iometer|fio|hbatest FILE... [--label TEXT] [--db FILE]",
	  "import: each FILE becomes a run (or several). fio: its JSON output, made with\n"
	  "--output-format=json or json+ (json+ adds the latency bins), and the logs of\n"
	  "its --write_iops_log/--write_bw_log/--write_lat_log given beside it; iometer:\n"
	  "the results CSV; hbatest: an `hbatest export` JSON. --label names the runs.\n"
	  "Every FILE is checked before any is kept: one refused, nothing is imported.\n",
	  "hbatest import fio seq.json --label \"fio seq 128k\"\n"
	  "hbatest import iometer results.csv\n" },
	{ "merge", cmd_merge, "merge OUT.db IN.db...   (runs by uuid; inputs read-only)",
	  "merge: its databases are its arguments; --db does not apply.\n",
	  "hbatest merge all.db lab1.db lab2.db\n" },
	{ "--version", cmd_version, "--version | -V | help", NULL, NULL },
	{ "-V", cmd_version, NULL, NULL, NULL },
	{ "version", cmd_version, NULL, NULL, NULL },
	{ "help", cmd_help, NULL, NULL, NULL },
	{ "--help", cmd_help, NULL, NULL, NULL },
	{ "-h", cmd_help, NULL, NULL, NULL },
	{ NULL, NULL, NULL, NULL, NULL }
};

static const char usage_common[] =
	"\n"
	"Options for every command, before or after it: --db FILE (default $HBATEST_DB\n"
	"or ./hbatest.db), --plugin-path DIR[:DIR] (also $HBATEST_PLUGIN_PATH), -v (more),\n"
	"-q (less).\n"
	"RUN is a run id, a label or a uuid prefix of 4+ characters (in that order).\n";
static const char usage_exit[] =
	"Exit codes: 0 done, 1 failed, 2 usage, 130 interrupted.\n"
	"hbatest COMMAND --help: its options and examples; man hbatest: all of it.\n";
/* the end of every `hbatest CMD --help` */
static const char usage_more[] =
	"Every command also takes --db FILE, --plugin-path DIR, -v, -q (hbatest help).\n"
	"The rest (every option, exit codes, environment): man hbatest\n";

static void print_usage(FILE *out)
{
	const char *lead = "usage: ";

	for (const struct command *c = commands; c->name; c++) {
		if (!c->usage)
			continue;
		fprintf(out, "%shbatest %s\n", lead, c->usage);
		lead = "       ";
	}
	fputs(usage_common, out);
	for (const struct command *c = commands; c->name; c++)
		if (c->notes && (c == commands || c->notes != c[-1].notes))
			fputs(c->notes, out);	/* a note shared with the one before: once */
	fputs(usage_exit, out);
}

/* hbatest CMD --help: the usage of CMD (of the entry an alias follows), its
 * notes, its examples and where the rest is; help itself prints the whole. */
static int print_command_usage(const struct command *c)
{
	if (c->fn == cmd_help)
		return cmd_help(0, NULL);
	while (!c->usage)
		c--;
	printf("usage: hbatest %s\n", c->usage);
	if (c->notes)
		fputs(c->notes, stdout);
	if (c->examples) {
		fputs("Examples:\n", stdout);
		for (const char *e = c->examples; *e;) {
			size_t n = strcspn(e, "\n");

			printf("  %.*s\n", (int)n, e);
			e += n + (e[n] == '\n');
		}
	}
	fputs(usage_more, stdout);
	return EXIT_DONE;
}

/* --help or -h anywhere after the command asks for its usage */
static bool wants_help(int argc, char **argv)
{
	for (int i = 2; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return true;
	return false;
}

static int cmd_version(int argc, char **argv)
{
	const char *commit = build_commit();

	(void)argc, (void)argv;
	printf("hbatest %s (plugin ABI %d.%d, database schema %d)\n", HB_VERSION,
	       HB_ABI_MAJOR, HB_ABI_MINOR, DB_SCHEMA_VERSION);
	printf("commit %s\n", *commit ? commit : "unknown (not built in a git checkout)");
	return EXIT_DONE;
}

static int cmd_help(int argc, char **argv)
{
	(void)argc, (void)argv;
	print_usage(stdout);
	return EXIT_DONE;
}

/* The options every command takes may come before it too, as in
 * `hbatest --db x.db run plan.lua`: the command and its arguments move to
 * argv[1] on and the options to the end, where every command parses them
 * (import reads its kind from argv[1] of its own). */
static bool hoist_command(int argc, char **argv)
{
	int i = cli_leading_options(argc, argv);

	for (int k = 1; k < i && i < argc; k++) {	/* rotate argv[1..] left by i - 1 */
		char *opt = argv[1];

		memmove(&argv[1], &argv[2], (size_t)(argc - 2) * sizeof(*argv));
		argv[argc - 1] = opt;
	}
	cli_set_hoisted(i < argc ? i - 1 : 0);
	return i == 1 || i < argc;	/* false: options and no command */
}

/* a and b alike but for two neighbouring letters swapped ("lsit", "list") */
static bool swapped(const char *a, const char *b)
{
	size_t i = 0;

	while (a[i] && a[i] == b[i])
		i++;
	return a[i] && a[i + 1] && a[i] == b[i + 1] && a[i + 1] == b[i] &&
	       !strcmp(a + i + 2, b + i + 2);
}

/* The command nearest a mistyped one ("lsit": "list"), by edit distance (two
 * letters swapped count one edit): at most 2 edits and fewer than half its
 * letters; NULL when none is. */
static const char *nearest_command(const char *typed)
{
	const char *best = NULL;
	unsigned d, bestd = 3;

	if (strlen(typed) > 32)
		return NULL;
	for (const struct command *c = commands; c->name; c++) {
		if (c->name[0] == '-')
			continue;
		d = swapped(typed, c->name) ? 1 : util_edit_distance(typed, c->name);
		if (d >= bestd || 2 * d >= strlen(c->name))
			continue;
		best = c->name, bestd = d;
	}
	return best;
}

int main(int argc, char **argv)
{
	const char *name;
	const struct command *c;
	int rc;

	log_init();
	if (!hoist_command(argc, argv)) {
		fprintf(stderr, "hbatest: no command after the options\n\n");
		print_usage(stderr);
		return EXIT_USAGE;
	}
	if (argc < 2) {	/* a usage error; `hbatest help` and --help print it to stdout */
		fprintf(stderr, "hbatest: no command given\n\n");
		print_usage(stderr);
		return EXIT_USAGE;
	}
	name = argv[1];
	for (c = commands; c->name && strcmp(c->name, name); c++)
		;
	if (!c->name) {
		const char *near = nearest_command(name);

		fprintf(stderr, "hbatest: unknown command '%s'%s%s%s\n\n", name,
			near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "");
		print_usage(stderr);
		return EXIT_USAGE;
	}
	if (wants_help(argc, argv))
		return print_command_usage(c);
	rc = c->fn(argc - 1, argv + 1);
	plugins_unload();
	return rc;
}
