/* `hbatest probe [TARGET...]`: what the probes see of the test bed. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "base/log.h"
#include "measure/loader.h"
#include "measure/probe.h"

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
		if (used) {
			i += used - 1;
		} else if (argv[i][0] == '-') {	/* a target named so: ./-name */
			cli_usage_error("probe", "unknown option '%s'", argv[i]);
			free(targets);
			return EXIT_USAGE;
		} else {
			targets[n++] = argv[i];
		}
	}
	plugins_load();
	for (unsigned t = 0; t < n; t++)	/* a file a plan would create: its folder's device */
		if (!strcmp(probe_root(), "/") && access(targets[t], F_OK) != 0)
			log_warn("'%s' does not exist: its facts, if any, are those of the device "
				 "that holds its folder", targets[t]);
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
