/* The sim engine's cards (plugins/engines/sim.c): its option cards parsed. */
#ifndef HB_SIM_CARDS_H
#define HB_SIM_CARDS_H

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hbatest/plugin.h"

/* ---- the step's cards ----------------------------------------------------
 * The option cards holds the cards after the first, as the plan writes them
 * from sim = { cards = { ... } } (docs/engines.md): each card's options in
 * full, "key=value,key=value,...", the cards separated by ";". The step's
 * own options are the first card's; its targets are split among the cards in
 * order, card k's from target k * ntargets / ncards. */

#define SIM_MAX_CARDS 16

struct sim_cards {
	char *buf;		/* the option's copy, cut up */
	struct hb_kv *kv;	/* every card's options, card k's from start[k] */
	unsigned start[SIM_MAX_CARDS + 1], n;
};

static bool sim_option(const struct hb_option *opts, const char *key)
{
	for (const struct hb_option *o = opts; o->name; o++)
		if (!strcmp(o->name, key) && strcmp(key, "cards"))
			return true;
	return false;
}

/* One card's "key=value,..." (cut up in place) from cs->kv[*m]. */
static int card_parse(const struct hb_option *opts, char *card, struct sim_cards *cs,
		      unsigned *m, char *err, size_t len)
{
	for (char *kv = card, *next; kv && *kv; kv = next) {
		char *eq;

		next = strchr(kv, ',');
		if (next)
			*next++ = 0;
		eq = strchr(kv, '=');
		if (eq)
			*eq = 0;
		if (!eq || !sim_option(opts, kv)) {
			snprintf(err, len, "cards: '%s' is not key=value of a sim option (the cards "
				 "after the first, each key=value,...; separated by ';')", kv);
			return -EINVAL;
		}
		cs->kv[(*m)++] = (struct hb_kv){ kv, eq + 1 };
	}
	return 0;
}

static int cards_parse(const struct hb_option *opts, const struct hb_kv *o, unsigned n,
		       struct sim_cards *cs, char *err, size_t len)
{
	const char *s = hb_opt_str(o, n, "cards");
	unsigned cap = n + 1, m = 0;

	memset(cs, 0, sizeof(*cs));
	for (const char *p = s; p && *p; p++)
		cap += *p == '=';
	cs->kv = calloc(cap, sizeof(*cs->kv));
	cs->buf = s ? strdup(s) : NULL;
	if (!cs->kv || (s && !cs->buf))
		return -ENOMEM;
	for (unsigned i = 0; i < n; i++)
		if (strcmp(o[i].key, "cards"))
			cs->kv[m++] = o[i];
	cs->start[cs->n = 1] = m;
	for (char *card = cs->buf, *next; card && *card; card = next) {
		next = strchr(card, ';');
		if (next)
			*next++ = 0;
		if (cs->n == SIM_MAX_CARDS) {
			snprintf(err, len, "cards: at most %d cards in a step", SIM_MAX_CARDS);
			return -EINVAL;
		}
		if (card_parse(opts, card, cs, &m, err, len))
			return -EINVAL;
		cs->start[++cs->n] = m;
	}
	return 0;
}

static void cards_free(struct sim_cards *cs)
{
	free(cs->buf);
	free(cs->kv);
}

#endif
