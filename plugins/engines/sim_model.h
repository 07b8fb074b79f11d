/* The sim engine's model (plugins/engines/sim.c): FIFO servers for the link,
 * the controller and each drive, the layouts that map a host request onto
 * drives, and the heap of requests in flight by completion time. */
#ifndef HB_SIM_MODEL_H
#define HB_SIM_MODEL_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "hbatest/plugin.h"

enum layout { LAYOUT_JBOD, LAYOUT_RAID0, LAYOUT_RAID5, LAYOUT_RAID10 };

/* The model, with every rate already divided among the step's workers. */
struct sim_cfg {
	double link_ns_per_byte[2];	/* by enum hb_op: reads go device->host */
	double ctrl_svc, ctrl_wr_svc, ctrl_lat;	/* ns */
	double ctrl_rmw_svc;		/* ns per RAID5 small write; 0: as any write */
	double rmw_ns_per_byte;		/* and per byte of it */
	double xor_ns_per_byte;		/* RAID5 full-stripe parity; 0: no limit */
	bool write_back;		/* the cache gathers any sequential stream into stripes */
	double dma_svc[2], dma_ns_per_byte[2];	/* data path, by enum hb_op: fixed + per byte */
	bool dma;			/* the data path is a stage (any of its costs set) */
	double ra_ns_per_byte;		/* sequential reads staged through the cache; 0: none */
	double qd_knee, qd_penalty;	/* outstanding I/Os; share per doubling */
	double qd_penalty_mixed;	/* the same while reads are outstanding too */
	enum layout layout;
	double lane_ns_per_byte;	/* a drive's SAS/SATA lane; 0: no limit */
	double port_ns_per_byte;	/* a wide port, each direction; 0: no limit */
	unsigned nports;		/* wide ports the drives share; 0: a lane each */
	uint64_t strip, capacity;	/* bytes; capacity is one drive's */
	unsigned ndrives, nworkers;
	double rd_svc, wr_svc_fresh, wr_svc_steady;	/* ns per random I/O */
	double rd_ns_per_byte, wr_ns_per_byte;		/* sequential transfer */
	double rd_lat, wr_lat;				/* ns */
	double hdd_pos;		/* ns: a hard drive's seek + half a turn; 0: an SSD */
	double ncq;		/* commands a hard drive reorders */
	double decline, gc_period, gc_length, gc_factor, jitter;
	bool gc_sync;		/* dips follow the drives' mean wear: all dip at once */
	unsigned sample;	/* completions per second simulated one by one; 0: all */
};

struct pipe {
	double free;		/* ns: when the server is next idle */
};

struct sim_drive {
	struct pipe pipe;
	double written;		/* bytes this worker wrote to it */
	double fresh;		/* exp(-capacities written / decline), kept with written */
	uint64_t last_end;	/* byte after its last request: sequential or not */
	double last_svc;	/* ns: its last service time (a hard drive's queue) */
	int8_t dip;		/* in a GC dip at its last random write; -1: none yet */
};

struct pending {
	double done;		/* ns */
	struct hb_io *io;
};

/* Sampling (sim.c): the part of the current second simulated one by one. */
struct sim_frame {
	double end;		/* ns, step clock: the end of this second */
	double from, until;	/* ns, step clock: its detailed part */
	double block_t;		/* when its last whole turnover of the queue ended */
	double block_max;	/* ns: the longest latency in this turnover so far */
	double lmax;		/* ns: running mean of it while sampling; 0: none yet */
	unsigned count;		/* completions in the detailed part */
	unsigned block_left;	/* completions left in this turnover */
	uint32_t k;		/* each of them stands for k (hb_io.count) */
	bool on;		/* sampling; off: every request in full (draining) */
	bool warm;		/* settling after a change, every request in full */
	bool change;		/* a drive entered or left a GC dip */
};

/* One simulated card: its model, link, controller and drives. A step's
 * targets may sit on several (the option cards): each its own servers. */
struct sim_card {
	struct sim_cfg c;
	uint64_t wear_key;	/* its entry in the wear list, looked up under the lock */
	double *written0;	/* this worker's share of the wear when it opened */
	struct pipe link[2], ctrl, dma, xor, ra;
	struct sim_drive *drives;
	struct pipe *ports;	/* [nports][2]: by enum hb_op */
	uint64_t *last_end;	/* per target: sequential host streams (full stripes, read-ahead) */
	double written_all;	/* bytes this worker's drives have had written, summed */
	double decay_wear, decay;	/* the last wear added and what it multiplies fresh by */
	unsigned first;		/* its first target (the step's index) */
	unsigned nq, nreads;	/* its requests in flight, and the reads among them */
};

struct sim_state {
	struct sim_card *cards;	/* [ncards]: the step's targets split among them in order */
	struct sim_card *cd;	/* the card of the request at hand */
	unsigned ncards;
	unsigned *card_of;	/* per target: its card's index */
	struct pending *heap;	/* by completion time */
	unsigned nheap, cap;
	double now;		/* ns, the model's clock */
	double skew;		/* ns skipped: the step's clock is now + skew */
	uint64_t rng;
	struct sim_frame fr;
};

static inline double dmax(double a, double b)
{
	return a > b ? a : b;
}

static inline double sim_uniform(struct sim_state *st)	/* [0, 1), xorshift64* */
{
	st->rng ^= st->rng >> 12;
	st->rng ^= st->rng << 25;
	st->rng ^= st->rng >> 27;
	return (double)((st->rng * 0x2545f4914f6cdd1dull) >> 11) / 9007199254740992.0;
}

static inline double vary(struct sim_state *st, double x)
{
	return x * (1 + st->cd->c.jitter * (2 * sim_uniform(st) - 1));
}

static inline double serve(struct pipe *p, double t, double svc)
{
	double start = t > p->free ? t : p->free;

	p->free = start + svc;
	return p->free;
}

/* How far along the fresh-to-steady decline a drive is that has had
 * `written` bytes (of this worker's share) written: 1 new, 0 steady. */
static inline double sim_fresh(const struct sim_cfg *c, double written)
{
	return c->decline > 0 ? exp(-written * c->nworkers / (double)c->capacity / c->decline) : 0;
}

/* A drive has had `wear` more bytes written: its sim_fresh, kept by a factor
 * (a request's wear repeats, so the exp() is rarely taken: it cost an eighth
 * of a simulated request). */
static inline void drive_wear(struct sim_state *st, struct sim_drive *dr, double wear)
{
	if (wear != st->cd->decay_wear) {
		st->cd->decay_wear = wear;
		st->cd->decay = sim_fresh(&st->cd->c, wear);
	}
	dr->written += wear;
	dr->fresh *= st->cd->decay;
	st->cd->written_all += wear;
}

/* ns per random write of a drive `fresh` along its decline (sim_fresh):
 * fresh, declining to steady, with GC dips when `gc_written` (its own wear,
 * or the drives' mean) closes a period. */
static double write_svc(const struct sim_cfg *c, double fresh, double gc_written, bool *dip)
{
	double gx = gc_written * c->nworkers / (double)c->capacity;	/* capacities */
	double rate = 1 / c->wr_svc_steady + (1 / c->wr_svc_fresh - 1 / c->wr_svc_steady) * fresh;

	/* the dip closes each period: a fresh drive does not start in one
	 * (gx less its whole periods: fmod's exact loop cost as much again) */
	*dip = c->gc_period > 0 &&
	       gx - c->gc_period * floor(gx / c->gc_period) >= c->gc_period - c->gc_length;
	if (*dip)
		rate *= c->gc_factor;
	return 1 / rate;
}

/* A drive enters or leaves a GC dip: a change sampling simulates in full. */
static inline void note_dip(struct sim_state *st, struct sim_drive *dr, bool dip)
{
	if (dr->dip != (int8_t)dip && st->cd->c.gc_factor != 1) {
		st->fr.change |= dr->dip >= 0;
		dr->dip = (int8_t)dip;
	}
}

/* A hard drive's service of a request that is not sequential: positioning
 * (seek + half a turn) and the transfer. With NCQ the drive takes the
 * nearest of the commands queued at it (up to c->ncq): positioning falls as
 * the fourth root of that queue, about 2.4x the IOPS at 32, as 7,200 rpm
 * SATA drives measure (QD1 ~80, QD32 ~190 4k random reads). The queue is
 * the drive's backlog at t over its last service time. */
static double hdd_svc(const struct sim_cfg *c, struct sim_drive *dr, double xfer, double t)
{
	double q = 1 + dmax(0, dr->pipe.free - t) / dmax(dr->last_svc, 1);

	if (q > c->ncq)
		q = c->ncq;
	dr->last_svc = c->hdd_pos * (q > 1 ? pow(q, -0.25) : 1) + xfer;
	return dr->last_svc;
}

/* One request on one drive from time t; returns when its service ends. A
 * write wears the drive by what the request stands for (sampling: k of it). */
static double drive_op(struct sim_state *st, unsigned d, int op, uint64_t off, uint64_t len,
		       double t)
{
	const struct sim_cfg *c = &st->cd->c;
	struct sim_drive *dr = &st->cd->drives[d];
	bool seq = off == dr->last_end;
	double xfer, svc;

	dr->last_end = off + len;
	if (c->nports)	/* its wide port, each direction a server of its own */
		t = serve(&st->cd->ports[(d % c->nports) * 2 + (unsigned)op], t,
			  (double)len * c->port_ns_per_byte);
	if (op == HB_OP_READ) {
		xfer = (double)len * dmax(c->rd_ns_per_byte, c->lane_ns_per_byte);
		svc = seq ? xfer : c->hdd_pos > 0 ? hdd_svc(c, dr, xfer, t) : dmax(c->rd_svc, xfer);
	} else {
		double wear = (double)len * st->fr.k;

		xfer = (double)len * dmax(c->wr_ns_per_byte, c->lane_ns_per_byte);
		if (seq) {
			svc = xfer;
		} else if (c->hdd_pos > 0) {
			svc = hdd_svc(c, dr, xfer, t);
		} else {
			bool dip;

			svc = dmax(write_svc(c, dr->fresh, c->gc_sync ? st->cd->written_all /
					     c->ndrives : dr->written, &dip), xfer);
			note_dip(st, dr, dip);
		}
		drive_wear(st, dr, wear);
	}
	return serve(&dr->pipe, t, vary(st, svc));
}

static double raid5_write(struct sim_state *st, uint64_t off, uint64_t len, bool full, double t)
{
	const struct sim_cfg *c = &st->cd->c;
	unsigned n = c->ndrives, data = n - 1;
	uint64_t s = off / c->strip, stripe = s / data, doff = stripe * c->strip + off % c->strip;
	unsigned parity = (unsigned)(stripe % n), drive = (parity + 1 + (unsigned)(s % data)) % n;
	double r;

	if (full)	/* a full-stripe stream: data plus its share of parity, no reads */
		return dmax(drive_op(st, drive, HB_OP_WRITE, doff, len, t),
			    drive_op(st, parity, HB_OP_WRITE, doff, len / data, t));
	/* read-modify-write: old data and parity are read, then both written. The
	 * four drive I/Os queue at once (a FIFO server must see arrivals in time
	 * order); waiting for the reads shows as their latency, added here. */
	r = drive_op(st, drive, HB_OP_READ, doff, len, t);
	r = dmax(r, drive_op(st, parity, HB_OP_READ, doff, len, t));
	r = dmax(r, drive_op(st, drive, HB_OP_WRITE, doff, len, t));
	r = dmax(r, drive_op(st, parity, HB_OP_WRITE, doff, len, t));
	return r + c->rd_lat;
}

/* A read that continues its target's stream: with read-ahead, the card
 * stages it through its cache (c->ra_ns_per_byte), not the direct path. */
static inline bool read_ahead(const struct sim_state *st, const struct hb_io *io)
{
	return io->op == HB_OP_READ && st->cd->c.ra_ns_per_byte > 0 &&
	       st->cd->last_end[io->target] == io->offset;
}

/* A RAID5 write goes out as full stripes (new parity from the new data, no
 * reads) when it continues a sequential stream that the controller can
 * gather into whole stripes: a write-back cache gathers any; without one,
 * the stream's requests in flight must cover a stripe (strip x data drives). */
static inline bool full_stripe(const struct sim_state *st, const struct hb_io *io)
{
	const struct sim_cfg *c = &st->cd->c;

	if (c->layout != LAYOUT_RAID5 || io->op != HB_OP_WRITE ||
	    st->cd->last_end[io->target] != io->offset)
		return false;
	return c->write_back ||
	       (double)(st->cd->nq + 1) * (double)io->len >= (double)c->strip * (c->ndrives - 1);
}

/* Controller time for one request. A RAID5 small write (not a full-stripe
 * write) costs its parity work, fixed and per byte, and past ctrl_qd_knee outstanding I/Os
 * (all workers) that grows by ctrl_qd_penalty per doubling: the RMW path
 * thrashes its cache of open stripes, so throughput falls past the knee; by
 * ctrl_qd_penalty_mixed while reads are outstanding too and take cache. */
static double ctrl_cost(const struct sim_state *st, const struct hb_io *io, bool full)
{
	const struct sim_cfg *c = &st->cd->c;
	double qd = (double)(st->cd->nq + 1) * c->nworkers, rmw;

	if (io->op == HB_OP_READ)
		return c->ctrl_svc;
	if (c->layout != LAYOUT_RAID5 || !c->ctrl_rmw_svc || full)
		return c->ctrl_wr_svc;
	rmw = c->ctrl_rmw_svc + (double)io->len * c->rmw_ns_per_byte;
	if (c->qd_knee > 0 && qd > c->qd_knee)
		return rmw * (1 + (st->cd->nreads ? c->qd_penalty_mixed : c->qd_penalty) *
			      log2(qd / c->qd_knee));
	return rmw;
}

/* The drive of strip s under RAID5 (left-symmetric: parity rotates) */
static inline unsigned raid5_drive(const struct sim_cfg *c, uint64_t s)
{
	uint64_t data = c->ndrives - 1, stripe = s / data;

	return (unsigned)((stripe % c->ndrives + 1 + s % data) % c->ndrives);
}

/* One strip's part of a host request under the layout; returns when it ends. */
static double strip_op(struct sim_state *st, const struct hb_io *io, uint64_t off,
		       uint64_t chunk, bool full, double t)
{
	const struct sim_cfg *c = &st->cd->c;
	uint64_t s = off / c->strip, doff = s / c->ndrives * c->strip + off % c->strip;
	unsigned d, pairs = c->ndrives / 2;

	switch (c->layout) {
	case LAYOUT_RAID0:
		return drive_op(st, (unsigned)(s % c->ndrives), io->op, doff, chunk, t);
	case LAYOUT_RAID10:
		d = (unsigned)(s % pairs) * 2;
		doff = s / pairs * c->strip + off % c->strip;
		if (io->op == HB_OP_READ)	/* either mirror serves a read */
			return drive_op(st, d + (unsigned)(s / pairs % 2), io->op, doff, chunk, t);
		return dmax(drive_op(st, d, io->op, doff, chunk, t),
			    drive_op(st, d + 1, io->op, doff, chunk, t));
	default:	/* RAID5 */
		if (io->op == HB_OP_READ)
			return drive_op(st, raid5_drive(c, s), io->op,
					s / (c->ndrives - 1) * c->strip + off % c->strip, chunk, t);
		return raid5_write(st, off, chunk, full, t);
	}
}

/* Map a host request onto drives by the layout; returns when the last drive
 * part finishes its service. */
static double volume_op(struct sim_state *st, const struct hb_io *io, bool full, double t)
{
	const struct sim_cfg *c = &st->cd->c;
	uint64_t off = io->offset, end = io->offset + io->len;
	double done = t;

	st->cd->last_end[io->target] = end;
	if (c->layout == LAYOUT_JBOD)
		return drive_op(st, (io->target - st->cd->first) % c->ndrives, io->op, off, io->len, t);
	while (off < end) {	/* strip by strip */
		uint64_t next = (off / c->strip + 1) * c->strip;
		uint64_t chunk = (end < next ? end : next) - off;

		done = dmax(done, strip_op(st, io, off, chunk, full, t));
		off += chunk;
	}
	return done;
}

/* ---- the requests in flight, by completion time -------------------------
 * A 4-ary heap; the slots past the last hold +inf, so the smallest of four
 * children is found without a bound check or a branch. */

static inline void heap_push(struct sim_state *st, double done, struct hb_io *io)
{
	unsigned i = st->nheap++;

	while (i && st->heap[(i - 1) / 4].done > done) {
		st->heap[i] = st->heap[(i - 1) / 4];
		i = (i - 1) / 4;
	}
	st->heap[i].done = done;
	st->heap[i].io = io;
}

static inline struct pending heap_pop(struct sim_state *st)
{
	struct pending *h = st->heap, top = h[0], last = h[--st->nheap];
	unsigned i = 0, n = st->nheap;

	h[n].done = INFINITY;
	for (;;) {
		unsigned l = 4 * i + 1, m = l;
		double md;

		if (l >= n)
			break;
		md = h[l].done;
		m = h[l + 1].done < md ? l + 1 : m;
		md = h[l + 1].done < md ? h[l + 1].done : md;
		m = h[l + 2].done < md ? l + 2 : m;
		md = h[l + 2].done < md ? h[l + 2].done : md;
		m = h[l + 3].done < md ? l + 3 : m;
		md = h[l + 3].done < md ? h[l + 3].done : md;
		if (md >= last.done)
			break;
		h[i] = h[m];
		i = m;
	}
	if (n)
		h[i] = last;
	return top;
}

#endif
