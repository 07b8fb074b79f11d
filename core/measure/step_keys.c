/* The names of a step's own keys: which they are, and the nearest one to a
 * key that is none (step_spec.c adds the plugins' names, loader.c refuses a
 * plugin named as one). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "measure/step_keys.h"
#include "base/strbuf.h"
#include "base/util.h"

static const char *const step_keys[] = {
	"name", "rw", "write_pct", "bs", "oio", "workers", "duration", "ramp", "range",
	"align", "size", "engine", "targets", "direct", "seed", "group", "tags",
	"kind", "passes", "axis", "round", "on_error", "cpus", "numa", "telemetry",
	"on_telemetry", "temp_limit_c", "fio", NULL,
};

bool step_key_builtin(const char *k)
{
	for (unsigned i = 0; step_keys[i]; i++)
		if (strcmp(step_keys[i], k) == 0)
			return true;
	return false;
}

int step_unknown_key(const char *k, char *err, size_t len)
{
	const char *best = NULL;
	unsigned bd = 3;

	for (unsigned i = 0; step_keys[i]; i++) {
		unsigned d = util_edit_distance(k, step_keys[i]);

		if (d < bd) {
			bd = d;
			best = step_keys[i];
		}
	}
	if (best) {
		snprintf(err, len, "unknown key '%s' (did you mean '%s'?)", k, best);
		return -EINVAL;
	}
	struct strbuf b = { 0 };	/* the list is step_keys: one place to add a key */

	for (unsigned i = 0; step_keys[i]; i++)
		sb_printf(&b, "%s, ", step_keys[i]);
	snprintf(err, len, "unknown key '%s' (keys: %sor a plugin's name)", k,
		 b.s ? b.s : "");
	sb_free(&b);
	return -EINVAL;
}
