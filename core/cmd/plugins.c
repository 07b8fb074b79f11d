/* `hbatest plugins [-v]`: the plugins found, which probes can be sampled,
 * and their options. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "base/log.h"
#include "measure/loader.h"
#include "measure/probe.h"

int cmd_plugins(int argc, char **argv)
{
	bool verbose = false;
	unsigned sampled = 0;

	if (cli_parse_common("plugins", argc, argv, NULL, 0, &verbose, NULL) < 0)
		return EXIT_USAGE;
	log_set_verbosity(HB_LOG_INFO);	/* -v here means "show options" */
	plugins_load();
	printf("%-10s  %-6s  %-5s  %-40s  %s\n", "name", "kind", "ABI", "file", "summary");
	for (unsigned i = 0; i < plugins_count(); i++) {
		const struct plugin *p = plugins_at(i);
		char abi[16];

		snprintf(abi, sizeof(abi), "%u.%u", p->desc->abi_major, p->desc->abi_minor);
		printf("%-10s  %-6s  %-5s  %-40s  %s%s\n", p->desc->name,
		       plugin_kind_name(p->desc->kind), abi, p->path,
		       p->desc->summary ? p->desc->summary : "",
		       probe_can_sample(p) ? " [sampled]" : "");
		sampled += probe_can_sample(p);
		for (const struct hb_option *o = p->desc->options; verbose && o && o->name; o++)
			printf("            %s=%s (%s%s%s)\n", o->name,
			       plugin_opt_type_name(o->type), o->help ? o->help : "",
			       o->def ? ", default " : "", o->def ? o->def : "");
	}
	if (sampled)
		printf("[sampled]: a probe with a sample op, read during a run for telemetry "
		       "(probe --sample shows it now)\n");
	if (!plugins_count())
		printf("(no plugins found: build them with make, or give --plugin-path)\n");
	return EXIT_DONE;
}
