/* The facts of a simulated run's cards: the steps' preset facts numbered by
 * card (c0, c1 ...) and, within a card, by volume (v0, v1 ...: one preset
 * used with a RAID0 and a RAID5 layout is one card with two volumes), behind
 * each target, in the controller probes' keys. A step's cards after the
 * first (sim = { cards = ... }) have their facts as "@k/key" in its facts. */
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

/* One card of a step: its facts (a card after the first: the step's facts
 * "@k/key", here without the "@k/"), or none (a generic simulated JBOD). */
struct part {
	struct hb_kv *kv;
	unsigned n;
};

/* Whether a and b have the same facts of one kind (volume or card). */
static bool same_part(const struct part *a, const struct part *b, bool vol)
{
	unsigned i = 0, j = 0;

	for (;;) {
		while (i < a->n && volume_key(a->kv[i].key) != vol)
			i++;
		while (j < b->n && volume_key(b->kv[j].key) != vol)
			j++;
		if (i == a->n || j == b->n)
			return i == a->n && j == b->n;
		if (strcmp(a->kv[i].key, b->kv[j].key) || strcmp(a->kv[i].value, b->kv[j].value))
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

/* The cards of the steps so far: for each, the facts of the step's card that
 * first used it and those that first used each of its volumes (layouts);
 * step: the last step that used it (two cards of a step are two, even alike). */
struct sim_card {
	const struct part *first;
	const struct part **vols;
	unsigned nvols;
	int step;
};

/* Card c's number and its volume's number for card p of step i, added when new. */
static int card_of(struct sim_card *cards, unsigned *ncards, const struct part *p, int i,
		   unsigned *vol)
{
	unsigned c, v;

	for (c = 0; c < *ncards && (cards[c].step == i || !same_part(cards[c].first, p, false)); c++)
		;
	if (c == *ncards)
		cards[(*ncards)++] = (struct sim_card){ .first = p };
	cards[c].step = i;
	for (v = 0; v < cards[c].nvols && !same_part(cards[c].vols[v], p, true); v++)
		;
	if (v == cards[c].nvols) {
		const struct part **vs = realloc(cards[c].vols, (v + 1) * sizeof(*vs));

		if (!vs)
			return -1;
		cards[c].vols = vs;
		cards[c].vols[cards[c].nvols++] = p;
	}
	*vol = v;
	return (int)c;
}

/* Card p's facts behind target as card c's, its volume as volume v. */
static void add_card(struct facts *out, const struct part *p, const char *probe,
		     const char *target, unsigned c, unsigned v)
{
	const struct hb_kv *kv = p->n ? p->kv : generic;
	unsigned nkv = p->n ? p->n : ARRAY_SIZE(generic);

	for (unsigned k = 0; k < nkv; k++)
		put(out, target, probe, volume_key(kv[k].key)
		    ? util_strdup_printf("c%u.v%u%s", c, v, kv[k].key + strcspn(kv[k].key, "."))
		    : util_strdup_printf("c%u.%s", c, kv[k].key), kv[k].value);
	put(out, target, probe, util_strdup_printf("c%u.simulated", c), "yes");
}

/* How many cards step s simulates: 1, and one per ';' of its option cards. */
static unsigned step_ncards(const struct step_spec *s)
{
	const char *v = hb_opt_str(s->opts, s->nopts, "cards");
	unsigned n = v && *v ? 2 : 1;

	for (; v && *v; v++)
		n += *v == ';';
	return n;
}

/* Card k's option key of step s: the step's own (k 0), or from its option
 * cards (key=value,...;...) into buf; NULL when not given. */
static const char *card_opt(const struct step_spec *s, unsigned k, const char *key, char *buf,
			    size_t len)
{
	const char *v = hb_opt_str(s->opts, s->nopts, "cards");
	size_t kl = strlen(key);

	if (!k)
		return hb_opt_str(s->opts, s->nopts, key);
	for (unsigned i = 1; v && i < k; i++)
		v = (v = strchr(v, ';')) ? v + 1 : NULL;
	for (; v && *v && *v != ';'; v += strcspn(v, ",;"), v += *v == ',') {
		if (!strncmp(v, key, kl) && v[kl] == '=') {
			snprintf(buf, len, "%.*s", (int)strcspn(v + kl + 1, ",;"), v + kl + 1);
			return buf;
		}
	}
	return NULL;
}

/* A card of a step with several: its PCIe link behind target as the pcie
 * probe would record it (address made up, sim:0000:NN:00.0 for card c),
 * so the controllers chart draws the sum of the links' ceilings. */
static void add_link(struct facts *out, const struct step_spec *s, unsigned k,
		     const char *target, unsigned c)
{
	static const double gts[] = { 0, 2.5, 5, 8, 16, 32, 64 };
	char buf[64], *v;
	const char *link = card_opt(s, k, "link", buf, sizeof(buf));
	unsigned gen, width;
	double enc;

	if (!link || sscanf(link, "pcie%ux%u", &gen, &width) != 2 || gen < 1 || gen > 6)
		return;
	enc = gen <= 2 ? 8.0 / 10 : gen <= 5 ? 128.0 / 130 : 242.0 / 256;
	v = util_strdup_printf("sim:0000:%02x:00.0", c + 1);
	put(out, target, "pcie", strdup("address"), v);
	free(v);
	v = util_strdup_printf("%.1f GT/s PCIe", gts[gen]);
	put(out, target, "pcie", strdup("current_link_speed"), v);
	free(v);
	v = util_strdup_printf("%u", width);
	put(out, target, "pcie", strdup("current_link_width"), v);
	free(v);
	v = util_strdup_printf("%.0f", gts[gen] * 1e9 * width * enc / 8);
	put(out, target, "pcie", strdup("ceiling_current_bytes_per_s"), v);
	free(v);
}

/* Step s's cards: parts[k] the facts of card k (kv allocated, strings not). */
static struct part *step_parts(const struct step_spec *s, unsigned nc)
{
	struct part *p = calloc(nc, sizeof(*p));

	for (unsigned k = 0; p && k < nc; k++) {
		char pre[16];
		size_t pl = (size_t)snprintf(pre, sizeof(pre), "@%u/", k);

		p[k].kv = calloc(s->nfacts + 1, sizeof(*p[k].kv));
		for (unsigned i = 0; p[k].kv && i < s->nfacts; i++) {
			const char *key = s->facts[i].key;

			if (k ? !strncmp(key, pre, pl) : key[0] != '@')
				p[k].kv[p[k].n++] = (struct hb_kv){ key + (k ? pl : 0),
								   s->facts[i].value };
		}
	}
	return p;
}

void sim_facts_collect(const struct step_spec *steps, unsigned n, struct facts *out)
{
	struct sim_card *cards = NULL;
	struct part **parts = calloc(n + 1, sizeof(*parts));
	unsigned ncards = 0, all = 0;

	for (unsigned i = 0; i < n; i++)
		all += step_ncards(&steps[i]);
	cards = calloc(all + 1, sizeof(*cards));
	for (unsigned i = 0; cards && parts && i < n; i++) {
		const struct step_spec *s = &steps[i];
		unsigned nc = step_ncards(s), nt = s->wl.ntargets, v;
		int c;

		if (!simulating(s) || !(parts[i] = step_parts(s, nc)))
			continue;
		for (unsigned k = 0; k < nc; k++) {
			if ((c = card_of(cards, &ncards, &parts[i][k], (int)i, &v)) < 0)
				continue;
			for (unsigned t = k * nt / nc; t < (k + 1) * nt / nc; t++) {
				add_card(out, &parts[i][k], s->engine->desc->name,
					 s->wl.targets[t].path, (unsigned)c, v);
				if (nc > 1)
					add_link(out, s, k, s->wl.targets[t].path, (unsigned)c);
			}
		}
	}
	for (unsigned c = 0; cards && c < ncards; c++)
		free(cards[c].vols);
	for (unsigned i = 0; parts && i < n; i++) {
		for (unsigned k = 0; parts[i] && k < step_ncards(&steps[i]); k++)
			free(parts[i][k].kv);
		free(parts[i]);
	}
	free(parts);
	free(cards);
}
