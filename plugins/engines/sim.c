/* sim engine: a storage controller with drives behind a PCIe link, simulated
 * on a virtual clock, so hours of I/O take seconds and the same seed gives the
 * same samples. Each resource (link direction, controller, drive) is a FIFO
 * server with a service time per request; a request's latency is its queueing
 * and service along the path plus a fixed device latency. Throughput grows
 * with OIO until one resource saturates; beyond, latency grows by Little's law.
 * Every number is an option; scripts/sim_presets.lua holds calibrated sets. */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hbatest/plugin.h"

enum layout { LAYOUT_JBOD, LAYOUT_RAID0, LAYOUT_RAID5, LAYOUT_RAID10 };

/* The model, with every rate already divided among the step's workers. */
struct sim_cfg {
	double link_ns_per_byte[2];	/* by enum hb_op: reads go device->host */
	double ctrl_svc, ctrl_wr_svc, ctrl_lat;	/* ns */
	double ctrl_rmw_svc;		/* ns per RAID5 small write; 0: as any write */
	double qd_knee, qd_penalty;	/* outstanding I/Os; share per doubling */
	double qd_penalty_mixed;	/* the same while reads are outstanding too */
	enum layout layout;
	uint64_t strip, capacity;	/* bytes; capacity is one drive's */
	unsigned ndrives, nworkers;
	double rd_svc, wr_svc_fresh, wr_svc_steady;	/* ns per random I/O */
	double rd_ns_per_byte, wr_ns_per_byte;		/* sequential transfer */
	double rd_lat, wr_lat;				/* ns */
	double decline, gc_period, gc_length, gc_factor, jitter;
	bool gc_sync;		/* dips follow the drives' mean wear: all dip at once */
};

struct pipe {
	double free;		/* ns: when the server is next idle */
};

struct sim_drive {
	struct pipe pipe;
	double written;		/* bytes this worker wrote to it */
	uint64_t last_end;	/* byte after its last request: sequential or not */
};

struct pending {
	double done;		/* ns */
	struct hb_io *io;
};

/* Drives keep their wear from step to step: what was written to them, by
 * configuration (the same options are the same drives), for the process.
 * One entry per distinct option set, as many as a plan uses; freed when the
 * plugin is unloaded. */
struct wear {
	struct wear *next;
	uint64_t key;		/* hash of the options */
	unsigned ndrives;
	double written[];	/* bytes, all workers, per drive */
};
static struct wear *wear_list;
static pthread_mutex_t wear_lock = PTHREAD_MUTEX_INITIALIZER;

struct sim_state {
	struct sim_cfg c;
	uint64_t wear_key;	/* its entry in wear_list, looked up under the lock */
	double *written0;	/* this worker's share of the wear when it opened */
	struct pipe link[2], ctrl;
	struct sim_drive *drives;
	uint64_t *last_end;	/* per target: sequential host streams (RAID5 full stripes) */
	struct pending *heap;	/* by completion time */
	unsigned nheap, cap;
	unsigned nreads;	/* reads among them */
	double now;		/* ns, the virtual clock */
	double written_all;	/* bytes this worker's drives have had written, summed */
	uint64_t rng;
};

static const struct hb_option sim_options[] = {
	{ "preset", HB_OPT_STRING, NULL, "a named set of the options below (scripts/sim_presets.lua)" },
	{ "link", HB_OPT_STRING, "pcie3x8", "host link: pcieGENxWIDTH, e.g. pcie2x8, pcie3x4, pcie4x16" },
	{ "link_efficiency", HB_OPT_DOUBLE, "0", "share of the raw link rate left after protocol overhead; 0: 0.70 for PCIe 1-2, 0.76 from PCIe 3" },
	{ "ctrl_iops", HB_OPT_INT, "700000", "controller: most I/Os per second" },
	{ "ctrl_latency_us", HB_OPT_DOUBLE, "10", "controller: added latency per I/O" },
	{ "ctrl_write_iops", HB_OPT_INT, "0", "controller: most writes per second; 0: ctrl_iops" },
	{ "ctrl_parity_iops", HB_OPT_INT, "0", "controller: most RAID5 small writes (read-modify-write) per second; 0: ctrl_write_iops" },
	{ "ctrl_qd_knee", HB_OPT_INT, "0", "outstanding I/Os past which a RAID5 small write costs the controller more; 0: never" },
	{ "ctrl_qd_penalty", HB_OPT_DOUBLE, "0", "share added to that cost per doubling of the outstanding I/Os past the knee" },
	{ "ctrl_qd_penalty_mixed", HB_OPT_DOUBLE, "0", "the same while reads are outstanding too (they take the stripe cache); 0: ctrl_qd_penalty" },
	{ "layout", HB_OPT_STRING, "jbod", "jbod (a target per drive), raid0, raid5, raid10" },
	{ "strip", HB_OPT_SIZE, "256k", "RAID strip size" },
	{ "drives", HB_OPT_INT, "8", "number of drives" },
	{ "drive_capacity", HB_OPT_SIZE, "256g", "bytes per drive" },
	{ "drive_read_iops", HB_OPT_INT, "46000", "4k random reads per second per drive" },
	{ "drive_write_iops", HB_OPT_INT, "36000", "4k random writes per second per drive, fresh" },
	{ "drive_write_iops_steady", HB_OPT_INT, "8000", "4k random writes per second per drive in steady state" },
	{ "drive_read_mbps", HB_OPT_DOUBLE, "540", "sequential read MB/s per drive" },
	{ "drive_write_mbps", HB_OPT_DOUBLE, "400", "sequential write MB/s per drive" },
	{ "drive_latency_us", HB_OPT_DOUBLE, "90", "read latency of an idle drive" },
	{ "drive_write_latency_us", HB_OPT_DOUBLE, "40", "write latency of an idle drive" },
	{ "decline", HB_OPT_DOUBLE, "0.5", "capacities written for 63% of the fresh-to-steady write decline" },
	{ "gc_sync", HB_OPT_BOOL, "false", "the drives' dips come together (by their mean wear), as in an array written evenly from new" },
	{ "gc_period", HB_OPT_DOUBLE, "0.05", "garbage collection dips every this many capacities written" },
	{ "gc_length", HB_OPT_DOUBLE, "0.005", "capacities written during a dip" },
	{ "gc_factor", HB_OPT_DOUBLE, "0.5", "write rate during a dip, as a share" },
	{ "jitter", HB_OPT_DOUBLE, "0.05", "+- share of random variation of service times and latencies" },
	{ NULL, 0, NULL, NULL },
};

static double opt_d(const struct hb_kv *o, unsigned n, const char *k)
{
	const char *v = hb_opt_str(o, n, k);

	return v ? strtod(v, NULL) : 0;
}

/* "pcie3x8" -> bytes per second per direction after protocol overhead */
static int link_rate(const char *link, double eff, double *bps)
{
	static const double gts[] = { 0, 2.5, 5, 8, 16, 32, 64 };
	unsigned gen, width;
	double enc;

	if (sscanf(link, "pcie%ux%u", &gen, &width) != 2 || gen < 1 || gen > 6 ||
	    !width || width > 32)
		return -EINVAL;
	enc = gen <= 2 ? 8.0 / 10 : gen <= 5 ? 128.0 / 130 : 242.0 / 256;
	if (eff <= 0)
		eff = gen <= 2 ? 0.70 : 0.76;
	*bps = gts[gen] * 1e9 * width * enc / 8 * eff;
	return 0;
}

static int parse_layout(const char *s, enum layout *out)
{
	static const char *const names[] = { "jbod", "raid0", "raid5", "raid10" };

	for (unsigned i = 0; i < 4; i++) {
		if (s && strcmp(s, names[i]) == 0) {
			*out = (enum layout)i;
			return 0;
		}
	}
	return -EINVAL;
}

static int sim_config(const struct hb_kv *o, unsigned n, unsigned nworkers,
		      struct sim_cfg *c, void (*log)(enum hb_log_level, const char *, ...))
{
	double link_bps, w = nworkers ? nworkers : 1;

	memset(c, 0, sizeof(*c));
	if (link_rate(hb_opt_str(o, n, "link"), opt_d(o, n, "link_efficiency"), &link_bps)) {
		log(HB_LOG_ERROR, "sim: link '%s' is not pcieGENxWIDTH (e.g. pcie3x8)",
		    hb_opt_str(o, n, "link"));
		return -EINVAL;
	}
	if (parse_layout(hb_opt_str(o, n, "layout"), &c->layout)) {
		log(HB_LOG_ERROR, "sim: layout '%s' is not jbod, raid0, raid5 or raid10",
		    hb_opt_str(o, n, "layout"));
		return -EINVAL;
	}
	c->ndrives = (unsigned)hb_opt_int(o, n, "drives", 8);
	if (!c->ndrives || (c->layout == LAYOUT_RAID5 && c->ndrives < 3) ||
	    (c->layout == LAYOUT_RAID10 && (c->ndrives < 2 || c->ndrives % 2))) {
		log(HB_LOG_ERROR, "sim: %u drives do not make that layout", c->ndrives);
		return -EINVAL;
	}
	c->nworkers = (unsigned)w;
	c->link_ns_per_byte[HB_OP_READ] = c->link_ns_per_byte[HB_OP_WRITE] = 1e9 * w / link_bps;
	c->ctrl_svc = 1e9 * w / (double)hb_opt_int(o, n, "ctrl_iops", 700000);
	c->ctrl_wr_svc = hb_opt_int(o, n, "ctrl_write_iops", 0) > 0
		? 1e9 * w / (double)hb_opt_int(o, n, "ctrl_write_iops", 0) : c->ctrl_svc;
	c->ctrl_rmw_svc = hb_opt_int(o, n, "ctrl_parity_iops", 0) > 0
		? 1e9 * w / (double)hb_opt_int(o, n, "ctrl_parity_iops", 0) : 0;
	c->qd_knee = (double)hb_opt_int(o, n, "ctrl_qd_knee", 0);
	c->qd_penalty = opt_d(o, n, "ctrl_qd_penalty");
	c->qd_penalty_mixed = opt_d(o, n, "ctrl_qd_penalty_mixed");
	if (c->qd_penalty_mixed <= 0)
		c->qd_penalty_mixed = c->qd_penalty;
	c->ctrl_lat = opt_d(o, n, "ctrl_latency_us") * 1e3;
	c->strip = (uint64_t)hb_opt_int(o, n, "strip", 262144);
	c->capacity = (uint64_t)hb_opt_int(o, n, "drive_capacity", 256ll << 30);
	c->rd_svc = 1e9 * w / (double)hb_opt_int(o, n, "drive_read_iops", 46000);
	c->wr_svc_fresh = 1e9 * w / (double)hb_opt_int(o, n, "drive_write_iops", 36000);
	c->wr_svc_steady = 1e9 * w / (double)hb_opt_int(o, n, "drive_write_iops_steady", 8000);
	c->rd_ns_per_byte = 1e3 * w / opt_d(o, n, "drive_read_mbps");
	c->wr_ns_per_byte = 1e3 * w / opt_d(o, n, "drive_write_mbps");
	c->rd_lat = opt_d(o, n, "drive_latency_us") * 1e3;
	c->wr_lat = opt_d(o, n, "drive_write_latency_us") * 1e3;
	c->decline = opt_d(o, n, "decline");
	c->gc_period = opt_d(o, n, "gc_period");
	c->gc_length = opt_d(o, n, "gc_length");
	c->gc_factor = opt_d(o, n, "gc_factor");
	c->jitter = opt_d(o, n, "jitter");
	c->gc_sync = hb_opt_int(o, n, "gc_sync", 0);
	if (!c->strip || !c->capacity || !isfinite(c->rd_ns_per_byte) ||
	    !isfinite(c->wr_ns_per_byte) || !isfinite(c->rd_svc) || !isfinite(c->wr_svc_fresh) ||
	    !isfinite(c->wr_svc_steady) || !isfinite(c->ctrl_svc) || c->qd_knee < 0 ||
	    c->qd_penalty < 0 || c->qd_penalty_mixed < 0) {
		log(HB_LOG_ERROR, "sim: rates, sizes and capacities must be above zero");
		return -EINVAL;
	}
	return 0;
}

/* ---- the model --------------------------------------------------------- */

static double sim_uniform(struct sim_state *st)	/* [0, 1), xorshift64* */
{
	st->rng ^= st->rng >> 12;
	st->rng ^= st->rng << 25;
	st->rng ^= st->rng >> 27;
	return (double)((st->rng * 0x2545f4914f6cdd1dull) >> 11) / 9007199254740992.0;
}

static double vary(struct sim_state *st, double x)
{
	return x * (1 + st->c.jitter * (2 * sim_uniform(st) - 1));
}

static double serve(struct pipe *p, double t, double svc)
{
	double start = t > p->free ? t : p->free;

	p->free = start + svc;
	return p->free;
}

/* ns per random write of a drive that has had `written` bytes (of this
 * worker's share) written: fresh, declining to steady, with GC dips when
 * `gc_written` (its own wear, or the drives' mean) closes a period. */
static double write_svc(const struct sim_cfg *c, double written, double gc_written)
{
	double x = written * c->nworkers / (double)c->capacity;	/* capacities */
	double gx = gc_written * c->nworkers / (double)c->capacity;
	double fresh = 1 / c->wr_svc_fresh, steady = 1 / c->wr_svc_steady;
	double rate = steady + (fresh - steady) * (c->decline > 0 ? exp(-x / c->decline) : 0);

	/* the dip closes each period: a fresh drive does not start in one */
	if (c->gc_period > 0 && fmod(gx, c->gc_period) >= c->gc_period - c->gc_length)
		rate *= c->gc_factor;
	return 1 / rate;
}

/* One request on one drive from time t; returns when its service ends. */
static double drive_op(struct sim_state *st, unsigned d, int op, uint64_t off, uint64_t len,
		       double t)
{
	const struct sim_cfg *c = &st->c;
	struct sim_drive *dr = &st->drives[d];
	bool seq = off == dr->last_end;
	double xfer, svc;

	dr->last_end = off + len;
	if (op == HB_OP_READ) {
		xfer = (double)len * c->rd_ns_per_byte;
		svc = seq ? xfer : fmax(c->rd_svc, xfer);
	} else {
		xfer = (double)len * c->wr_ns_per_byte;
		svc = seq ? xfer : fmax(write_svc(c, dr->written, c->gc_sync
						  ? st->written_all / c->ndrives : dr->written), xfer);
		dr->written += (double)len;
		st->written_all += (double)len;
	}
	return serve(&dr->pipe, t, vary(st, svc));
}

static double raid5_write(struct sim_state *st, uint64_t off, uint64_t len, bool full, double t)
{
	const struct sim_cfg *c = &st->c;
	unsigned n = c->ndrives, data = n - 1;
	uint64_t s = off / c->strip, stripe = s / data, doff = stripe * c->strip + off % c->strip;
	unsigned parity = (unsigned)(stripe % n), drive = (parity + 1 + (unsigned)(s % data)) % n;
	double r;

	if (full)	/* a full-stripe stream: data plus its share of parity, no reads */
		return fmax(drive_op(st, drive, HB_OP_WRITE, doff, len, t),
			    drive_op(st, parity, HB_OP_WRITE, doff, len / data, t));
	/* read-modify-write: old data and parity are read, then both written. The
	 * four drive I/Os queue at once (a FIFO server must see arrivals in time
	 * order); waiting for the reads shows as their latency, added here. */
	r = fmax(drive_op(st, drive, HB_OP_READ, doff, len, t),
		 drive_op(st, parity, HB_OP_READ, doff, len, t));
	r = fmax(r, fmax(drive_op(st, drive, HB_OP_WRITE, doff, len, t),
			 drive_op(st, parity, HB_OP_WRITE, doff, len, t)));
	return r + c->rd_lat;
}

/* Controller time for one request. A RAID5 small write (not a full-stripe
 * stream) costs its parity work, and past ctrl_qd_knee outstanding I/Os
 * (all workers) that grows by ctrl_qd_penalty per doubling: the RMW path
 * thrashes its cache of open stripes, so throughput falls past the knee; by
 * ctrl_qd_penalty_mixed while reads are outstanding too and take cache. */
static double ctrl_cost(const struct sim_state *st, const struct hb_io *io)
{
	const struct sim_cfg *c = &st->c;
	double qd = (double)(st->nheap + 1) * c->nworkers;

	if (io->op == HB_OP_READ)
		return c->ctrl_svc;
	if (c->layout != LAYOUT_RAID5 || !c->ctrl_rmw_svc ||
	    st->last_end[io->target] == io->offset)
		return c->ctrl_wr_svc;
	if (c->qd_knee > 0 && qd > c->qd_knee)
		return c->ctrl_rmw_svc * (1 + (st->nreads ? c->qd_penalty_mixed : c->qd_penalty) *
					  log2(qd / c->qd_knee));
	return c->ctrl_rmw_svc;
}

/* Map a host request onto drives by the layout; returns when the last drive
 * part finishes its service. */
static double volume_op(struct sim_state *st, const struct hb_io *io, double t)
{
	const struct sim_cfg *c = &st->c;
	uint64_t off = io->offset, end = io->offset + io->len;
	bool stream = st->last_end[io->target] == io->offset;
	double done = t;

	st->last_end[io->target] = end;
	if (c->layout == LAYOUT_JBOD)
		return drive_op(st, io->target % c->ndrives, io->op, off, io->len, t);
	while (off < end) {	/* strip by strip */
		uint64_t s = off / c->strip, chunk = fmin((double)(end - off),
							   (double)((s + 1) * c->strip - off));
		uint64_t doff = s / c->ndrives * c->strip + off % c->strip;
		unsigned d, pairs = c->ndrives / 2;

		switch (c->layout) {
		case LAYOUT_RAID0:
			done = fmax(done, drive_op(st, (unsigned)(s % c->ndrives), io->op, doff,
						   chunk, t));
			break;
		case LAYOUT_RAID10:
			d = (unsigned)(s % pairs) * 2;
			doff = s / pairs * c->strip + off % c->strip;
			if (io->op == HB_OP_READ)	/* either mirror serves a read */
				done = fmax(done, drive_op(st, d + (unsigned)(s / pairs % 2),
							   io->op, doff, chunk, t));
			else
				done = fmax(done, fmax(drive_op(st, d, io->op, doff, chunk, t),
						       drive_op(st, d + 1, io->op, doff, chunk, t)));
			break;
		default:	/* RAID5 */
			if (io->op == HB_OP_READ) {
				uint64_t data = c->ndrives - 1, stripe = s / data;

				d = (unsigned)((stripe % c->ndrives + 1 + s % data) % c->ndrives);
				done = fmax(done, drive_op(st, d, io->op, stripe * c->strip +
							   off % c->strip, chunk, t));
			} else {
				done = fmax(done, raid5_write(st, off, chunk, stream, t));
			}
		}
		off += chunk;
	}
	return done;
}

static uint64_t opts_key(const struct hb_kv *o, unsigned n)
{
	uint64_t h = 1469598103934665603ull;	/* FNV-1a */

	for (unsigned i = 0; i < n; i++) {
		for (const char *s = o[i].key; *s; s++)
			h = (h ^ (unsigned char)*s) * 1099511628211ull;
		h = (h ^ '=') * 1099511628211ull;
		for (const char *s = o[i].value; *s; s++)
			h = (h ^ (unsigned char)*s) * 1099511628211ull;
		h = (h ^ ';') * 1099511628211ull;
	}
	return h ? h : 1;
}

static struct wear *wear_find(uint64_t key, unsigned ndrives)
{
	for (struct wear *w = wear_list; w; w = w->next)
		if (w->key == key && w->ndrives == ndrives)
			return w;
	return NULL;
}

/* Take this worker's share of the drives' wear (0 when new). */
static int wear_attach(struct sim_state *st, uint64_t key)
{
	struct wear *w;
	int rc = 0;

	pthread_mutex_lock(&wear_lock);
	w = wear_find(key, st->c.ndrives);
	if (!w) {
		w = calloc(1, sizeof(*w) + st->c.ndrives * sizeof(w->written[0]));
		if (w) {
			w->key = key;
			w->ndrives = st->c.ndrives;
			w->next = wear_list;
			wear_list = w;
		}
	}
	if (w) {
		for (unsigned d = 0; d < st->c.ndrives; d++)
			st->drives[d].written = st->written0[d] = w->written[d] / st->c.nworkers;
		st->wear_key = key;
	} else {
		rc = -ENOMEM;
	}
	pthread_mutex_unlock(&wear_lock);
	return rc;
}

/* dlclose() or exit: the wear of every configuration goes with the plugin. */
__attribute__((destructor)) static void wear_free_all(void)
{
	pthread_mutex_lock(&wear_lock);
	while (wear_list) {
		struct wear *w = wear_list;

		wear_list = w->next;
		free(w);
	}
	pthread_mutex_unlock(&wear_lock);
}

static void wear_detach(struct sim_state *st)
{
	struct wear *w;

	pthread_mutex_lock(&wear_lock);
	w = st->wear_key ? wear_find(st->wear_key, st->c.ndrives) : NULL;
	for (unsigned d = 0; w && d < st->c.ndrives; d++)
		w->written[d] += st->drives[d].written - st->written0[d];
	pthread_mutex_unlock(&wear_lock);
}

/* ---- the completion heap ----------------------------------------------- */

static void heap_push(struct sim_state *st, double done, struct hb_io *io)
{
	unsigned i = st->nheap++;

	while (i && st->heap[(i - 1) / 2].done > done) {
		st->heap[i] = st->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	st->heap[i].done = done;
	st->heap[i].io = io;
}

static struct pending heap_pop(struct sim_state *st)
{
	struct pending top = st->heap[0], last = st->heap[--st->nheap];
	unsigned i = 0;

	for (;;) {
		unsigned l = 2 * i + 1, m = l;

		if (l >= st->nheap)
			break;
		if (l + 1 < st->nheap && st->heap[l + 1].done < st->heap[l].done)
			m = l + 1;
		if (st->heap[m].done >= last.done)
			break;
		st->heap[i] = st->heap[m];
		i = m;
	}
	if (st->nheap)
		st->heap[i] = last;
	return top;
}

/* ---- the engine ops ---------------------------------------------------- */

static int sim_open(const struct hb_engine_setup *s, void **ctx)
{
	struct sim_state *st = calloc(1, sizeof(*st));
	int rc;

	if (!st)
		return -ENOMEM;
	rc = sim_config(s->opts, s->nopts, s->nworkers, &st->c, s->log);
	if (rc) {
		free(st);
		return rc;
	}
	st->cap = s->depth;
	st->heap = calloc(st->cap, sizeof(*st->heap));
	st->drives = calloc(st->c.ndrives, sizeof(*st->drives));
	st->last_end = calloc(s->ntargets, sizeof(*st->last_end));
	st->written0 = calloc(st->c.ndrives, sizeof(double));
	if (!st->heap || !st->drives || !st->last_end || !st->written0 ||
	    wear_attach(st, opts_key(s->opts, s->nopts))) {
		free(st->heap);
		free(st->drives);
		free(st->last_end);
		free(st->written0);
		free(st);
		return -ENOMEM;
	}
	for (unsigned d = 0; d < st->c.ndrives; d++)
		st->written_all += st->drives[d].written;
	st->rng = (s->seed * 0x9e3779b97f4a7c15ull) ^ (s->worker + 1) * 0xbf58476d1ce4e5b9ull;
	if (!st->rng)
		st->rng = 1;
	*ctx = st;
	return 0;
}

static int sim_submit(void *ctx, struct hb_io **ios, unsigned n)
{
	struct sim_state *st = ctx;
	const struct sim_cfg *c = &st->c;
	unsigned i;

	for (i = 0; i < n && st->nheap < st->cap; i++) {
		struct hb_io *io = ios[i];
		double t = serve(&st->ctrl, st->now, vary(st, ctrl_cost(st, io)));

		t = serve(&st->link[io->op], t, (double)io->len * c->link_ns_per_byte[io->op]);
		t = volume_op(st, io, t);
		t += vary(st, c->ctrl_lat + (io->op == HB_OP_READ ? c->rd_lat : c->wr_lat));
		io->result = io->len;
		st->nreads += io->op == HB_OP_READ;
		heap_push(st, t, io);
	}
	return (int)i;
}

/* The clock jumps to the earliest completion; everything due by then is returned. */
static int sim_reap(void *ctx, unsigned min, unsigned max, struct hb_io **done,
		    uint64_t timeout_ns)
{
	struct sim_state *st = ctx;
	unsigned n = 0;

	(void)min;
	(void)timeout_ns;
	while (n < max && st->nheap && (n == 0 || st->heap[0].done <= st->now)) {
		struct pending p = heap_pop(st);

		if (p.done > st->now)
			st->now = p.done;
		st->nreads -= p.io->op == HB_OP_READ;
		done[n++] = p.io;
	}
	return (int)n;
}

static uint64_t sim_now(void *ctx)
{
	return (uint64_t)((struct sim_state *)ctx)->now;
}

static void sim_close(void *ctx)
{
	struct sim_state *st = ctx;

	wear_detach(st);
	free(st->written0);
	free(st->heap);
	free(st->drives);
	free(st->last_end);
	free(st);
}

/* A target's capacity under the layout: a drive (JBOD) or the whole volume. */
static uint64_t sim_target_size(const struct hb_kv *o, unsigned n, unsigned target)
{
	uint64_t cap = (uint64_t)hb_opt_int(o, n, "drive_capacity", 256ll << 30);
	uint64_t drives = (uint64_t)hb_opt_int(o, n, "drives", 8);
	enum layout l = LAYOUT_JBOD;

	(void)target;
	parse_layout(hb_opt_str(o, n, "layout"), &l);
	switch (l) {
	case LAYOUT_RAID0: return cap * drives;
	case LAYOUT_RAID5: return cap * (drives > 1 ? drives - 1 : 1);
	case LAYOUT_RAID10: return cap * (drives / 2 ? drives / 2 : 1);
	default: return cap;
	}
}

static const struct hb_engine_ops sim_ops = {
	.struct_size = sizeof(struct hb_engine_ops),
	.flags = HB_ENGINE_VIRTUAL | HB_ENGINE_SIMULATED,
	.open = sim_open,
	.submit = sim_submit,
	.reap = sim_reap,
	.close = sim_close,
	.now = sim_now,
	.target_size = sim_target_size,
};

const struct hb_plugin hbatest_plugin = HB_PLUGIN_INIT(HB_PLUGIN_ENGINE, "sim",
	"a simulated controller, link and drives on a virtual clock (deterministic)",
	&sim_ops, sim_options);
