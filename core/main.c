/* hbatest: the command line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "db.h"
#include "log.h"
#include "plugin.h"

static const char usage[] =
	"usage: hbatest run PLAN.lua [--db FILE] [--label TEXT] [--target PATH]...\n"
	"                            [--set K=V]... [--dry-run] [--destroy-data DEVICE]...\n"
	"                            [--allow-exec] [--lua-memory SIZE]\n"
	"       hbatest run [PLAN.lua] --resume [RUN] [--force] [--destroy-data DEVICE]...\n"
	"                            [--allow-exec] [--lua-memory SIZE]\n"
	"       hbatest list [--db FILE]\n"
	"       hbatest show RUN [--db FILE]\n"
	"       hbatest plugins [-v]\n"
	"       hbatest probe [TARGET...]   (sysfs from $HBATEST_SYSFS_ROOT, default /)\n"
	"       hbatest report RUN... [--out DIR] [--title TEXT] [--baseline RUN]\n"
	"                      [--format svg,png,pdf] [--size WxH] [--template FILE] [--no-charts]\n"
	"       hbatest --version | help\n"
	"\n"
	"Options for every command: --db FILE (default $HBATEST_DB or ./hbatest.db),\n"
	"--plugin-path DIR[:DIR] (also $HBATEST_PLUGIN_PATH), -v (more), -q (less).\n"
	"RUN is a run id, a uuid prefix or a label.\n"
	"run: --allow-exec lets hb.exec run shell commands (a plan cannot grant it);\n"
	"--lua-memory SIZE raises the plan's Lua memory limit (default 1g); the dry\n"
	"pass may spend 10 s in the plan's Lua. SIGINT, SIGTERM and SIGHUP (unless\n"
	"ignored, as under nohup) abort the run, recorded, exit 130.\n"
	"report: writes DIR/index.html (one self-contained page) and DIR/charts/ (gnuplot\n"
	"scripts, data, SVG/PNG); needs gnuplot unless --no-charts.\n"
	"Exit codes: 0 done, 1 failed, 2 usage, 130 interrupted.\n";

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "help";
	int rc;

	log_init();
	if (!strcmp(cmd, "--version") || !strcmp(cmd, "version")) {
		printf("hbatest %s (plugin ABI %d.%d, database schema %d)\n", HB_VERSION,
		       HB_ABI_MAJOR, HB_ABI_MINOR, DB_SCHEMA_VERSION);
		return EXIT_DONE;
	}
	if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
		fputs(usage, stdout);
		return EXIT_DONE;
	}
	if (!strcmp(cmd, "run"))
		rc = cmd_run(argc - 1, argv + 1);
	else if (!strcmp(cmd, "list"))
		rc = cmd_list(argc - 1, argv + 1);
	else if (!strcmp(cmd, "show"))
		rc = cmd_show(argc - 1, argv + 1);
	else if (!strcmp(cmd, "plugins"))
		rc = cmd_plugins(argc - 1, argv + 1);
	else if (!strcmp(cmd, "probe"))
		rc = cmd_probe(argc - 1, argv + 1);
	else if (!strcmp(cmd, "report"))
		rc = cmd_report(argc - 1, argv + 1);
	else {
		fprintf(stderr, "hbatest: unknown command '%s'\n\n%s", cmd, usage);
		return EXIT_USAGE;
	}
	plugins_unload();
	return rc;
}
