/* The facts of a simulated run's cards: the steps' preset facts numbered by
 * card (c0, c1 ...) and, within a card, by volume (v0, v1 ...: one preset
 * used with a RAID0 and a RAID5 layout is one card with two volumes), behind
 * each target, in the controller probes' keys. */
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

/* Whether fact key k is a volume's (v0.raid_level, v0.d3.model): the rest,
 * the card's own and a JBOD's drives (d0.model), say which card it is. */
static bool volume_key(const char *k)
{
	return k[0] == 'v' && k[1] >= '0' && k[1] <= '9';
}

/* Whether a and b have the same facts of one kind (volume or card). */
static bool same_part(const struct step_spec *a, const struct step_spec *b, bool vol)
{
	unsigned i = 0, j = 0;

	for (;;) {
		while (i < a->nfacts && volume_key(a->facts[i].key) != vol)
			i++;
		while (j < b->nfacts && volume_key(b->facts[j].key) != vol)
			j++;
		if (i == a->nfacts || j == b->nfacts)
			return i == a->nfacts && j == b->nfacts;
		if (strcmp(a->facts[i].key, b->facts[j].key) ||
		    strcmp(a->facts[i].value, b->facts[j].value))
			return false;
		i++, j++;
	}
}

/* Whether out holds key already behind target. */
static bool written(const struct facts *f, const char *target, const char *key)
{
	for (unsigned i = 0; i < f->n; i++)
		if (!strcmp(f->v[i].key, key) && !strcmp(f->v[i].target, target))
			return true;
	return false;
}

/* key (allocated, taken) = value behind target, unless it is there already */
static void put(struct facts *f, const char *target, const char *probe, char *key,
		const char *value)
{
	struct fact *v = key && !written(f, target, key) ? realloc(f->v, (f->n + 1) * sizeof(*v))
							  : NULL;

	if (!v) {
		free(key);
		return;
	}
	f->v = v;
	v[f->n++] = (struct fact){ strdup(target), strdup(probe), key, strdup(value) };
}

/* The cards of the steps so far: for each, the step that first used it and
 * the steps that first used each of its volumes (layouts). */
struct sim_card {
	const struct step_spec *first;
	const struct step_spec **vols;
	unsigned nvols;
};

/* Card c's number and its volume's number for step s, added when new. */
static int card_of(struct sim_card *cards, unsigned *ncards, const struct step_spec *s,
		   unsigned *vol)
{
	unsigned c, v;

	for (c = 0; c < *ncards && !same_part(cards[c].first, s, false); c++)
		;
	if (c == *ncards)
		cards[(*ncards)++] = (struct sim_card){ .first = s };
	for (v = 0; v < cards[c].nvols && !same_part(cards[c].vols[v], s, true); v++)
		;
	if (v == cards[c].nvols) {
		const struct step_spec **vs = realloc(cards[c].vols, (v + 1) * sizeof(*vs));

		if (!vs)
			return -1;
		cards[c].vols = vs;
		cards[c].vols[cards[c].nvols++] = s;
	}
	*vol = v;
	return (int)c;
}

/* Step s's facts behind target as card c's, its volume as volume v. */
static void add_step(struct facts *out, const struct step_spec *s, const char *target,
		     unsigned c, unsigned v)
{
	const struct hb_kv *kv = s->nfacts ? s->facts : generic;
	unsigned nkv = s->nfacts ? s->nfacts : ARRAY_SIZE(generic);
	const char *probe = s->engine->desc->name;

	for (unsigned k = 0; k < nkv; k++)
		put(out, target, probe, volume_key(kv[k].key)
		    ? util_strdup_printf("c%u.v%u%s", c, v, kv[k].key + strcspn(kv[k].key, "."))
		    : util_strdup_printf("c%u.%s", c, kv[k].key), kv[k].value);
	put(out, target, probe, util_strdup_printf("c%u.simulated", c), "yes");
}

void sim_facts_collect(const struct step_spec *steps, unsigned n, struct facts *out)
{
	struct sim_card *cards = calloc(n + 1, sizeof(*cards));
	unsigned ncards = 0;

	for (unsigned i = 0; cards && i < n; i++) {
		const struct step_spec *s = &steps[i];
		unsigned v;
		int c;

		if (!simulating(s) || (c = card_of(cards, &ncards, s, &v)) < 0)
			continue;
		for (unsigned t = 0; t < s->wl.ntargets; t++)
			add_step(out, s, s->wl.targets[t].path, (unsigned)c, v);
	}
	for (unsigned c = 0; cards && c < ncards; c++)
		free(cards[c].vols);
	free(cards);
}
