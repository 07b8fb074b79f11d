/* The facts of a simulated run's cards: the steps' preset facts numbered by
 * card, behind each target, in the controller probes' keys. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "run/sim_facts.h"
#include "base/util.h"
#include "measure/loader.h"

/* A sim step without a preset: what is known of its card */
static const struct hb_kv generic[] = {
	{ "model", "simulated JBOD" }, { "firmware", "simulated" }, { "personality", "JBOD" },
};

static bool simulating(const struct step_spec *s)
{
	const struct hb_engine_ops *ops = s->engine ? s->engine->desc->ops : NULL;

	return s->kind != STEP_EXEC && ops && (ops->flags & HB_ENGINE_SIMULATED);
}

static bool same_card(const struct step_spec *a, const struct step_spec *b)
{
	if (a->nfacts != b->nfacts)
		return false;
	for (unsigned i = 0; i < a->nfacts; i++)
		if (strcmp(a->facts[i].key, b->facts[i].key) ||
		    strcmp(a->facts[i].value, b->facts[i].value))
			return false;
	return true;
}

static void add(struct facts *f, const char *target, const char *probe, unsigned card,
		const char *key, const char *value)
{
	struct fact *v = realloc(f->v, (f->n + 1) * sizeof(*v));

	if (!v)
		return;
	f->v = v;
	v[f->n++] = (struct fact){ strdup(target), strdup(probe),
				   util_strdup_printf("c%u.%s", card, key), strdup(value) };
}

static bool written(const struct facts *f, const char *target, unsigned card)
{
	char key[32];

	snprintf(key, sizeof(key), "c%u.simulated", card);
	for (unsigned i = 0; i < f->n; i++)
		if (!strcmp(f->v[i].key, key) && !strcmp(f->v[i].target, target))
			return true;
	return false;
}

void sim_facts_collect(const struct step_spec *steps, unsigned n, struct facts *out)
{
	const struct step_spec **cards = calloc(n + 1, sizeof(*cards));
	unsigned ncards = 0;

	for (unsigned i = 0; cards && i < n; i++) {
		const struct step_spec *s = &steps[i];
		const struct hb_kv *kv = s->nfacts ? s->facts : generic;
		unsigned c, nkv = s->nfacts ? s->nfacts : ARRAY_SIZE(generic);

		if (!simulating(s))
			continue;
		for (c = 0; c < ncards && !same_card(cards[c], s); c++)
			;
		if (c == ncards)
			cards[ncards++] = s;
		for (unsigned t = 0; t < s->wl.ntargets; t++) {
			const char *target = s->wl.targets[t].path;

			if (written(out, target, c))
				continue;
			for (unsigned k = 0; k < nkv; k++)
				add(out, target, s->engine->desc->name, c, kv[k].key, kv[k].value);
			add(out, target, s->engine->desc->name, c, "simulated", "yes");
		}
	}
	free(cards);
}
