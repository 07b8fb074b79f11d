/* The names an Iometer import has seen (a probe recorded once per run, a
 * test's start once per file), as a hash set: a result of a million rows
 * looks each up in constant time, not by a walk through all before it. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "import/iometer/import_iometer.h"

struct iom_name {
	char *key;		/* NULL: a free slot */
	size_t len;
	uint64_t hash;
	unsigned val[2];
};

/* FNV-1a, 64 bits. */
static uint64_t names_hash(const char *key, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)key[i]) * 0x100000001b3ull;
	return h;
}

/* The slot of key, or the free slot where it belongs; s->probes counts
 * the slots looked at (what the unit test bounds). */
static struct iom_name *names_slot(struct iom_names *s, const char *key, size_t len,
				   uint64_t h)
{
	size_t mask = s->cap - 1, i = (size_t)h & mask;

	for (;; i = (i + 1) & mask) {
		struct iom_name *e = &s->slot[i];

		s->probes++;
		if (!e->key || (e->hash == h && e->len == len && !memcmp(e->key, key, len)))
			return e;
	}
}

/* Twice the slots, the names moved over; the set stays at most half full,
 * so a lookup ends at a free slot. */
static int names_grow(struct iom_names *s)
{
	struct iom_names n = { .cap = s->cap ? s->cap * 2 : 64 };

	n.slot = calloc(n.cap, sizeof(*n.slot));
	if (!n.slot)
		return -ENOMEM;
	for (size_t i = 0; i < s->cap; i++)
		if (s->slot[i].key)
			*names_slot(&n, s->slot[i].key, s->slot[i].len, s->slot[i].hash) = s->slot[i];
	free(s->slot);
	s->slot = n.slot;
	s->cap = n.cap;
	return 0;
}

int iom_names_add(struct iom_names *s, const char *key, size_t len, unsigned **val)
{
	uint64_t h = names_hash(key, len);
	struct iom_name *e;

	if (2 * (s->n + 1) > s->cap && names_grow(s) < 0)
		return -ENOMEM;
	e = names_slot(s, key, len, h);
	*val = e->val;
	if (e->key)
		return 1;
	e->key = malloc(len ? len : 1);
	if (!e->key)
		return -ENOMEM;
	memcpy(e->key, key, len);
	e->len = len;
	e->hash = h;
	e->val[0] = e->val[1] = 0;
	s->n++;
	return 0;
}

void iom_names_clear(struct iom_names *s)
{
	for (size_t i = 0; i < s->cap; i++)
		free(s->slot[i].key);
	free(s->slot);
	memset(s, 0, sizeof(*s));
}
