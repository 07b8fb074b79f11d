/* Workload validation and the per-worker request generator. */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "measure/workload.h"
#include "base/human.h"
#include "base/util.h"

static const char *const rw_names[] = {
	[RW_READ] = "read", [RW_WRITE] = "write", [RW_RANDREAD] = "randread",
	[RW_RANDWRITE] = "randwrite", [RW_RW] = "rw", [RW_RANDRW] = "randrw",
};

bool rw_is_random(enum rw_mode rw)
{
	return rw == RW_RANDREAD || rw == RW_RANDWRITE || rw == RW_RANDRW;
}

const char *rw_name(enum rw_mode rw)
{
	return rw_names[rw];
}

int rw_parse(const char *s, enum rw_mode *out)
{
	for (unsigned i = 0; i < ARRAY_SIZE(rw_names); i++) {
		if (strcmp(s, rw_names[i]) == 0) {
			*out = (enum rw_mode)i;
			return 0;
		}
	}
	return -EINVAL;
}

uint32_t workload_max_bs(const struct workload *wl)
{
	uint32_t m = 0;

	for (unsigned i = 0; i < wl->nbs; i++)
		if (wl->bs[i].weight && wl->bs[i].size > m)
			m = wl->bs[i].size;
	return m;
}

uint32_t workload_min_bs(const struct workload *wl)
{
	uint32_t m = UINT32_MAX;

	for (unsigned i = 0; i < wl->nbs; i++)
		if (wl->bs[i].weight && wl->bs[i].size < m)
			m = wl->bs[i].size;
	return m;
}

void workload_bs_text(const struct workload *wl, char *buf, size_t len)
{
	size_t n = 0;
	char sz[32];

	buf[0] = '\0';
	for (unsigned i = 0; i < wl->nbs && n < len; i++) {
		util_format_size(wl->bs[i].size, sz, sizeof(sz));
		if (wl->nbs == 1)
			n += (size_t)snprintf(buf + n, len - n, "%s", sz);
		else
			n += (size_t)snprintf(buf + n, len - n, "%s%s:%u",
					      i ? "," : "", sz, wl->bs[i].weight);
	}
}

uint64_t workload_span(const struct workload *wl, unsigned i)
{
	uint64_t size = wl->targets[i].size;

	if (wl->range_share > 0)
		return (uint64_t)((double)size * wl->range_share);
	if (wl->range && wl->range < size)
		return wl->range;
	return size;
}

/* The bytes of target i each worker addresses: the whole span for random
 * I/O; for sequential streams its 1/workers share, rounded down to align. */
static uint64_t worker_segment(const struct workload *wl, unsigned i)
{
	uint64_t span = workload_span(wl, i);

	if (rw_is_random(wl->rw))
		return span;
	return span / wl->workers / wl->align * wl->align;
}

static int check_split(struct workload *wl, unsigned engine_flags, char *err, size_t len)
{
	unsigned queues = wl->workers * wl->ntargets;

	if (wl->oio % queues) {
		unsigned up = (wl->oio / queues + 1) * queues;

		snprintf(err, len, "oio=%u does not split evenly over %u worker%s x %u "
			 "target%s (%u queues): use a multiple of %u (e.g. oio=%u)%s",
			 wl->oio, wl->workers, wl->workers == 1 ? "" : "s", wl->ntargets,
			 wl->ntargets == 1 ? "" : "s", queues, queues, up,
			 wl->oio >= queues ? "" : ", or fewer workers");
		return -EINVAL;
	}
	wl->qd = wl->oio / queues;
	assert(wl->qd >= 1);	/* oio >= 1 (step_table.c), a multiple of queues */
	if ((engine_flags & HB_ENGINE_SYNC) && wl->qd != 1) {
		snprintf(err, len, "this engine keeps one I/O in flight per worker and "
			 "target, so oio=%u needs workers=%u (oio / targets)",
			 wl->oio, wl->oio / wl->ntargets);
		return -EINVAL;
	}
	return 0;
}

/* The first number of a file, 0 when there is none ("max" included) */
static uint64_t file_u64(const char *path)
{
	unsigned long long v = 0;
	FILE *f = fopen(path, "re");

	if (f) {
		if (fscanf(f, "%llu", &v) != 1)
			v = 0;
		fclose(f);
	}
	return v;
}

/* What this process may still take: MemAvailable of /proc/meminfo, or less
 * when its cgroup (v2: memory.max less memory.current) allows less, as in a
 * container or a systemd unit with MemoryMax; 0 when neither is known. */
static uint64_t mem_read(const char **where)
{
	unsigned long long kib = 0;
	char line[4096], path[4200];
	uint64_t have, max, cur;
	FILE *f = fopen("/proc/meminfo", "re");

	*where = "MemAvailable in /proc/meminfo";
	if (f) {
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "MemAvailable: %llu kB", &kib) == 1)
				break;
		fclose(f);
	}
	have = (uint64_t)kib * 1024;
	if (!(f = fopen("/proc/self/cgroup", "re")))
		return have;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "0::", 3))
			continue;
		line[strcspn(line, "\n")] = '\0';
		snprintf(path, sizeof(path), "/sys/fs/cgroup%s/memory.max", line + 3);
		max = file_u64(path);
		snprintf(path, sizeof(path), "/sys/fs/cgroup%s/memory.current", line + 3);
		cur = file_u64(path);
		if (max && max > cur && (!have || max - cur < have)) {
			have = max - cur;
			*where = "its cgroup's memory.max less memory.current";
		}
	}
	fclose(f);
	return have;
}

/* mem_read's figure, read once: the dry pass asks for every step, and the
 * real pass (the plan runs again) must not refuse a step the dry pass took
 * because the figure moved. */
static uint64_t mem_available(const char **where)
{
	static uint64_t have;
	static const char *from;	/* set by the first read */

	if (!from)
		have = mem_read(&from);
	*where = from;
	return have;
}

uint64_t workload_slot_bytes(const struct workload *wl)
{
	return (uint64_t)workload_max_bs(wl) * ((wl->write_pct < 100) + (wl->write_pct > 0));
}

int workload_check_memory(const struct workload *wl, const char *name, char *err, size_t len)
{
	uint64_t per = workload_slot_bytes(wl), worker = per * (wl->oio / wl->workers), have, need;
	const char *where;
	char n[32], h[32], bs[32];

	/* worker.c's buf_map: a slot over a page gets whole huge pages, which
	 * the buffers' fill touches */
	if (per > (uint64_t)sysconf(_SC_PAGESIZE))
		worker = (worker + WORKLOAD_HUGE_PAGE - 1) / WORKLOAD_HUGE_PAGE * WORKLOAD_HUGE_PAGE;
	need = worker * wl->workers;
	have = mem_available(&where);
	if (!have || need <= have)
		return 0;
	human_bytes(need, n, sizeof(n));
	human_bytes(have, h, sizeof(h));
	util_format_size(workload_max_bs(wl), bs, sizeof(bs));
	snprintf(err, len, "%s%s%sits I/O buffers take %s (oio=%u x bs=%s%s, in %u worker%s), "
		 "more than the %s this process has available (%s): lower oio or bs",
		 name ? "step '" : "", name ? name : "", name ? "': " : "", n, wl->oio, bs,
		 wl->write_pct > 0 && wl->write_pct < 100 ? " x 2, a read and a write buffer" : "",
		 wl->workers, wl->workers == 1 ? "" : "s", h, where);
	return -ENOMEM;
}

int workload_check(struct workload *wl, unsigned engine_flags, char *err, size_t len)
{
	uint32_t maxbs = workload_max_bs(wl), minbs = workload_min_bs(wl);

	if (wl->ntargets == 0) {
		snprintf(err, len, "no target: set hb.targets in the plan, targets= in "
			 "the step, or give --target PATH");
		return -EINVAL;
	}
	if (maxbs == 0) {
		snprintf(err, len, "bs: every weight is 0");
		return -EINVAL;
	}
	if (!wl->align)
		wl->align = minbs;
	if (wl->direct) {
		for (unsigned i = 0; i < wl->nbs; i++) {
			if (wl->bs[i].size % 512) {
				snprintf(err, len, "bs=%u is not a multiple of 512, which "
					 "direct I/O needs (or set direct=false)", wl->bs[i].size);
				return -EINVAL;
			}
		}
		if (wl->align % 512) {
			snprintf(err, len, "align=%u is not a multiple of 512, which "
				 "direct I/O needs", wl->align);
			return -EINVAL;
		}
	}
	if (wl->ntargets > WL_MAX_TARGETS) {
		snprintf(err, len, "%u targets: at most %d", wl->ntargets, WL_MAX_TARGETS);
		return -EINVAL;
	}
	for (unsigned i = 0; i < wl->ntargets; i++) {
		uint64_t seg = worker_segment(wl, i);

		if (seg < maxbs) {
			snprintf(err, len, "target '%s': %llu bytes in use%s is less than "
				 "the block size %u", wl->targets[i].path,
				 (unsigned long long)seg, rw_is_random(wl->rw) ? "" :
				 wl->workers > 1 || wl->align > maxbs ?
				 " per worker (its share, rounded down to align)" : "", maxbs);
			return -EINVAL;
		}
	}
	return check_split(wl, engine_flags, err, len);
}

void gen_shuffle32(struct rng *r, uint32_t *a, unsigned n)
{
	for (unsigned i = n - 1; i > 0; i--) {
		unsigned j = (unsigned)rng_below(r, i + 1);
		uint32_t t = a[i];

		a[i] = a[j];
		a[j] = t;
	}
}

static uint32_t gcd32(uint32_t a, uint32_t b)
{
	while (b) {
		uint32_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

static int gen_init_bs(struct gen *g, const struct workload *wl)
{
	uint32_t div = 0, n = 0;

	for (unsigned i = 0; i < wl->nbs; i++)
		div = gcd32(div, wl->bs[i].weight);
	for (unsigned i = 0; i < wl->nbs; i++)
		n += wl->bs[i].weight / div;
	g->bs_deck = malloc(n * sizeof(*g->bs_deck));
	if (!g->bs_deck)
		return -ENOMEM;
	g->bs_len = 0;
	for (unsigned i = 0; i < wl->nbs; i++)
		for (uint32_t k = 0; k < wl->bs[i].weight / div; k++)
			g->bs_deck[g->bs_len++] = wl->bs[i].size;
	g->bs_pos = g->bs_len;	/* shuffled before first use */
	return 0;
}

int gen_init(struct gen *g, const struct workload *wl, unsigned worker, uint64_t seed)
{
	memset(g, 0, sizeof(*g));
	rng_seed(&g->rng, seed);
	g->random = rw_is_random(wl->rw);
	g->align = wl->align;
	for (unsigned i = 0; i < WL_OP_DECK; i++)
		g->op_deck[i] = i < wl->write_pct ? HB_OP_WRITE : HB_OP_READ;
	g->op_pos = WL_OP_DECK;
	if (gen_init_bs(g, wl))
		return -ENOMEM;
	g->streams = calloc(wl->ntargets, sizeof(*g->streams));
	if (!g->streams) {
		gen_free(g);
		return -ENOMEM;
	}
	g->nstreams = wl->ntargets;
	for (unsigned t = 0; t < wl->ntargets; t++) {
		struct gen_stream *s = &g->streams[t];
		uint64_t span = workload_span(wl, t), seg = worker_segment(wl, t);

		/* sequential: disjoint segments, one per worker */
		s->lo = g->random ? 0 : seg * worker;
		s->hi = s->lo + seg;
		s->cursor = s->lo;
		s->budget = UINT64_MAX;
		if (wl->passes)	/* each worker fills its share, passes times */
			s->budget = g->random ? span / wl->workers * wl->passes
					      : (s->hi - s->lo) * wl->passes;
	}
	return 0;
}

void gen_free(struct gen *g)
{
	free(g->bs_deck);
	free(g->streams);
	g->bs_deck = NULL;
	g->streams = NULL;
}
