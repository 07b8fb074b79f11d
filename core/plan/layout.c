/* A simulated step's layout against the plan's name: a plan named for RAID5
 * (raid5.lua, "RAID5 review suite") whose sim step simulates a JBOD warns. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "base/log.h"
#include "plan/state.h"

/* The one layout a text names ("RAID5 review", "raid-5", "jbod-hba"), as
 * "RAID5" or "JBOD", into out: 1; none: 0; several: -1. */
static int named_layout(const char *text, char *out, size_t len)
{
	char found[16] = "";

	for (const char *s = text; s && *s; s++) {
		char one[16];
		size_t n = 0;

		if (s > text && isalnum((unsigned char)s[-1]))
			continue;
		if (!strncasecmp(s, "jbod", 4) && !isalnum((unsigned char)s[4])) {
			snprintf(one, sizeof(one), "JBOD");
		} else if (!strncasecmp(s, "raid", 4)) {
			const char *d = s + 4 + (s[4] == '-' || s[4] == '_' || s[4] == ' ');

			while (isdigit((unsigned char)d[n]) && n < 4)
				n++;
			if (!n || isalnum((unsigned char)d[n]))
				continue;
			snprintf(one, sizeof(one), "RAID%.*s", (int)n, d);
		} else {
			continue;
		}
		if (found[0] && strcmp(found, one))
			return -1;	/* "RAID0 vs RAID5": either may be meant */
		snprintf(found, sizeof(found), "%s", one);
	}
	snprintf(out, len, "%s", found);
	return found[0] != 0;
}

/* The layout the plan's name names, else (when it names none) its file's
 * name; "" for none or several. */
static void plan_layout(const struct plan *p, char *out, size_t len)
{
	const char *base = strrchr(p->o->path, '/');
	int n = named_layout(p->info->name, out, len);

	if (n == 0)
		n = named_layout(base ? base + 1 : p->o->path, out, len);
	if (n <= 0)
		out[0] = 0;
}

void plan_layout_check(struct plan *p, const struct step_spec *s)
{
	const char *layout = hb_opt_str(s->opts, s->nopts, "layout");
	char named[16];

	if (!p->o->dry || p->layout_warned || !layout)
		return;
	plan_layout(p, named, sizeof(named));
	if (!named[0] || !strcasecmp(named, layout))
		return;
	p->layout_warned = true;
	log_warn("%s:%d: step '%s' simulates layout %s (%s option layout), but the plan is "
		 "named for %s: check its %s options (warned once a run)%s%s%s", p->o->path,
		 s->line, s->name, layout, s->engine->desc->name, named, s->engine->desc->name,
		 s->module_pos ? " (at " : "", s->module_pos ? s->module_pos : "",
		 s->module_pos ? ")" : "");
}
