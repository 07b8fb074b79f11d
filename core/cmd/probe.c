/* `hbatest probe [--sample] [TARGET...]`: what the probes see of the test
 * bed, or (--sample) what a telemetry sample of it reads now. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "base/log.h"
#include "measure/loader.h"
#include "measure/probe.h"

enum probe_opt { OPT_SAMPLE = CLI_OWN, OPT_PROBE_OPT };

int cli_probe_opt(const char *cmd, const char *spec)
{
	int rc = probe_option_add(spec);

	if (rc == -EINVAL)
		cli_usage_error(cmd, "--probe-opt wants PROBE.KEY=VALUE (such as "
				"megaraid.tool=/opt/MegaRAID/storcli/storcli64), not '%s'", spec);
	return rc;
}

/* The targets, into targets; their number, or -1 after a usage error. */
static int probe_parse(int argc, char **argv, char **targets, bool *sample)
{
	static const struct option opts[] = {
		{ "sample", no_argument, NULL, OPT_SAMPLE },
		{ "probe-opt", required_argument, NULL, OPT_PROBE_OPT },
		CLI_COMMON_OPTIONS
	};
	struct cli_getopt g;
	int c, n = 0;

	cli_getopt_init(&g, "probe", argc, argv, opts);
	while ((c = cli_getopt_next(&g)) != CLI_END) {
		if (c == CLI_ERROR)
			return -1;
		if (c == OPT_SAMPLE) {
			*sample = true;
			continue;
		}
		if (c == OPT_PROBE_OPT) {
			if (cli_probe_opt("probe", g.arg) < 0)
				return -1;
			continue;
		}
		if (c != CLI_ARG || g.arg[0] == '-') {	/* a target named so: ./-name */
			cli_usage_error("probe", "unknown option '%s'", g.opt);
			return -1;
		}
		targets[n++] = (char *)g.arg;
	}
	return n;
}

int cmd_probe(int argc, char **argv)
{
	char **targets = calloc((size_t)argc + 1, sizeof(char *));
	char err[2048];
	bool sample = false;
	int got = probe_parse(argc, argv, targets, &sample);
	struct facts f;
	unsigned n;

	if (got < 0) {
		free(targets);
		return EXIT_USAGE;
	}
	n = (unsigned)got;
	plugins_load();
	if (probe_options_check(err, sizeof(err)) < 0) {
		cli_usage_error("probe", "%s", err);
		free(targets);
		return EXIT_USAGE;
	}
	for (unsigned t = 0; t < n; t++)	/* a file a plan would create: its folder's device */
		if (!strcmp(probe_root(), "/") && access(targets[t], F_OK) != 0)
			log_warn("'%s' does not exist: its facts, if any, are those of the device "
				 "that holds its folder", targets[t]);
	if (sample)
		probe_sample(targets, n, &f);
	else
		probe_collect(targets, n, &f);
	facts_print(&f, stdout);
	for (unsigned t = 0; t < n && !sample; t++)
		if (!facts_find(&f, targets[t], "block", "device"))
			printf("\n%s\n  (not a block device, nor a file on one, under %s)\n",
			       targets[t], probe_root());
	facts_free(&f);
	free(targets);
	return EXIT_DONE;
}
