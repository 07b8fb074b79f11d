/* sim engine: a storage controller with drives behind a PCIe link, simulated
 * on a virtual clock, so hours of I/O take seconds and the same seed gives the
 * same samples. Each resource (link direction, controller, drive) is a FIFO
 * server with a service time per request (sim_model.h); a request's latency is
 * its queueing and service along the path plus a fixed device latency.
 * Throughput grows with OIO until one resource saturates; beyond, latency
 * grows by Little's law. A second of a busy step is simulated only in part
 * (sampling, below). Every number is an option; scripts/sim_presets.lua holds
 * calibrated sets. */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hbatest/plugin.h"
#include "sim_cards.h"
#include "sim_model.h"

#define NS_PER_SEC 1e9

/* Drives keep their wear from step to step: what was written to them, by
 * configuration (the same options are the same drives; a step's second card
 * of the same options another set), for the process.
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

static const struct hb_option sim_options[] = {
	{ "preset", HB_OPT_STRING, NULL, "a named set of the options below (scripts/sim_presets.lua)" },
	{ "link", HB_OPT_STRING, "pcie3x8", "host link: pcieGENxWIDTH, e.g. pcie2x8, pcie3x4, pcie4x16" },
	{ "cards", HB_OPT_STRING, NULL, "the cards after the first, each its options in full as key=value,... separated by ';' (the plan's cards = { ... } writes it); the targets are split among the cards in order" },
	{ "link_efficiency", HB_OPT_DOUBLE, "0", "share of the raw link rate left after protocol overhead; 0: 0.70 for PCIe 1-2, 0.76 from PCIe 3" },
	{ "link_platform", HB_OPT_DOUBLE, "1", "the host platform's factor on the link's efficiency (reference 000: PCIe2 x8 2,580 MB/s on an Opteron 6172, 2,900 on a Xeon E5: 0.92, 1.04)" },
	{ "ctrl_iops", HB_OPT_INT, "700000", "controller: most I/Os per second" },
	{ "ctrl_latency_us", HB_OPT_DOUBLE, "10", "controller: added latency per I/O" },
	{ "ctrl_write_iops", HB_OPT_INT, "0", "controller: most writes per second; 0: ctrl_iops" },
	{ "ctrl_parity_iops", HB_OPT_INT, "0", "controller: most RAID5 small writes (read-modify-write) per second; 0: ctrl_write_iops" },
	{ "ctrl_qd_knee", HB_OPT_INT, "0", "outstanding I/Os past which a RAID5 small write costs the controller more; 0: never" },
	{ "ctrl_qd_penalty", HB_OPT_DOUBLE, "0", "share added to that cost per doubling of the outstanding I/Os past the knee" },
	{ "ctrl_qd_penalty_mixed", HB_OPT_DOUBLE, "0", "the same while reads are outstanding too (they take the stripe cache); 0: ctrl_qd_penalty" },
	{ "ctrl_dma_read_us", HB_OPT_DOUBLE, "0", "controller data path: fixed time of a read beside ctrl_iops (a pipelined stage)" },
	{ "ctrl_dma_read_mibps", HB_OPT_DOUBLE, "0", "controller data path: read rate, the part per KiB; 0: no limit" },
	{ "ctrl_dma_write_us", HB_OPT_DOUBLE, "0", "controller data path: fixed time of a write" },
	{ "ctrl_dma_write_mibps", HB_OPT_DOUBLE, "0", "controller data path: write rate, the part per KiB; 0: no limit" },
	{ "ctrl_parity_us_per_kib", HB_OPT_DOUBLE, "0", "controller: time per KiB of a RAID5 small write, added to 1 / ctrl_parity_iops" },
	{ "ctrl_xor_mibps", HB_OPT_DOUBLE, "0", "controller: parity throughput of RAID5 full-stripe writes; 0: no limit" },
	{ "ctrl_readahead_mibps", HB_OPT_DOUBLE, "0", "controller: rate of sequential reads staged through the cache by read-ahead, a stage after the data path that random reads skip; 0: none, every read takes the data path alone" },
	{ "write_back", HB_OPT_BOOL, "true", "the cache gathers sequential RAID5 writes into full stripes; false: only when the requests in flight cover a stripe" },
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
	{ "drive_link_gbps", HB_OPT_DOUBLE, "0", "a drive's SAS/SATA lane: 1.5, 3, 6 or 12 Gb/s; 0: no limit" },
	{ "sas_lane_gbps", HB_OPT_DOUBLE, "0", "the controller's SAS lanes: 1.5, 3, 6 or 12 Gb/s (a drive's lane runs at the lower rate); 0: no limit" },
	{ "sas_ports", HB_OPT_INT, "0", "wide ports the drives share through an expander, drive i on port i mod sas_ports; 0: a lane per drive" },
	{ "sas_port_lanes", HB_OPT_INT, "4", "lanes per wide port" },
	{ "drive_rpm", HB_OPT_INT, "0", "a hard drive's spindle speed (a random request waits half a turn); 0: an SSD, the IOPS options above" },
	{ "drive_seek_ms", HB_OPT_DOUBLE, "8.5", "a hard drive's average seek" },
	{ "drive_ncq", HB_OPT_INT, "32", "commands a hard drive reorders (NCQ/TCQ); 1: none" },
	{ "decline", HB_OPT_DOUBLE, "0.5", "capacities written for 63% of the fresh-to-steady write decline" },
	{ "gc_sync", HB_OPT_BOOL, "false", "the drives' dips come together (by their mean wear), as in an array written evenly from new" },
	{ "gc_period", HB_OPT_DOUBLE, "0.05", "garbage collection dips every this many capacities written" },
	{ "gc_length", HB_OPT_DOUBLE, "0.005", "capacities written during a dip" },
	{ "gc_factor", HB_OPT_DOUBLE, "0.5", "write rate during a dip, as a share" },
	{ "jitter", HB_OPT_DOUBLE, "0.05", "+- share of random variation of service times and latencies" },
	{ "sample_ios", HB_OPT_INT, "5000", "requests simulated one by one a second (all workers), each standing for its share of it; 0: all" },
	{ NULL, 0, NULL, NULL },
};

static double opt_d(const struct hb_kv *o, unsigned n, const char *k)
{
	const char *v = hb_opt_str(o, n, k);

	return v ? strtod(v, NULL) : 0;
}

/* "pcie3x8" -> bytes per second per direction after protocol overhead: the
 * generation's efficiency (eff 0) or eff, times the platform's factor. The
 * generation's: PCIe 1-2 0.70 (reference 000: PCIe2 x8 2.58-2.9 GB/s), from
 * PCIe 3 0.76 (reference 000: PCIe3 x4 "near 3,000 MB/Second"). */
static int link_rate(const char *link, double eff, double platform, double *bps)
{
	static const double gts[] = { 0, 2.5, 5, 8, 16, 32, 64 };
	static const double gen_eff[] = { 0, 0.70, 0.70, 0.76, 0.76, 0.76, 0.76 };
	unsigned gen, width;
	char again[32];
	double enc;

	/* exactly pcieGENxWIDTH: written back the same, so no space, sign,
	 * leading zero or trailing text (the report reads the link so too) */
	if (sscanf(link, "pcie%ux%u", &gen, &width) != 2 || gen < 1 || gen > 6 ||
	    !width || width > 32)
		return -EINVAL;
	snprintf(again, sizeof(again), "pcie%ux%u", gen, width);
	if (strcmp(again, link))
		return -EINVAL;
	enc = gen <= 2 ? 8.0 / 10 : gen <= 5 ? 128.0 / 130 : 242.0 / 256;
	if (eff <= 0)
		eff = gen_eff[gen];
	eff *= platform > 0 ? platform : 1;
	*bps = gts[gen] * 1e9 * width * enc / 8 * (eff < 1 ? eff : 1);
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

/* The numbers a card can have: a rate of 0 or below would be an endless
 * service time, a latency of 1e300 a step that never drains. lo < 0: above 0. */
static const struct sim_range {
	const char *key;
	double lo, hi;
} sim_ranges[] = {
	{ "ctrl_iops", 1, 1e9 }, { "ctrl_latency_us", 0, 1e6 },
	{ "ctrl_write_iops", 0, 1e9 }, { "ctrl_parity_iops", 0, 1e9 },
	{ "ctrl_qd_knee", 0, 1e6 }, { "ctrl_qd_penalty", 0, 100 },
	{ "ctrl_qd_penalty_mixed", 0, 100 }, { "strip", 512, 1ull << 30 },
	{ "ctrl_dma_read_us", 0, 1e6 }, { "ctrl_dma_read_mibps", 0, 1e7 },
	{ "ctrl_dma_write_us", 0, 1e6 }, { "ctrl_dma_write_mibps", 0, 1e7 },
	{ "ctrl_parity_us_per_kib", 0, 1e6 }, { "ctrl_xor_mibps", 0, 1e7 },
	{ "ctrl_readahead_mibps", 0, 1e7 },
	{ "link_platform", -1, 2 }, { "drive_rpm", 0, 30000 }, { "drive_seek_ms", 0, 100 },
	{ "drive_ncq", 1, 256 }, { "sas_ports", 0, 64 }, { "sas_port_lanes", 1, 16 },
	{ "drive_capacity", 1 << 20, 1ull << 50 }, { "drive_read_iops", 1, 1e8 },
	{ "drive_write_iops", 1, 1e8 }, { "drive_write_iops_steady", 1, 1e8 },
	{ "drive_read_mbps", -1, 1e6 }, { "drive_write_mbps", -1, 1e6 },
	{ "drive_latency_us", 0, 1e6 }, { "drive_write_latency_us", 0, 1e6 },
	{ "decline", 0, 1e6 }, { "gc_period", 0, 1e6 }, { "gc_length", 0, 1e6 },
	{ "gc_factor", -1, 1 },
};

static int check_ranges(const struct hb_kv *o, unsigned n, char *err, size_t len)
{
	for (size_t i = 0; i < sizeof(sim_ranges) / sizeof(sim_ranges[0]); i++) {
		const struct sim_range *r = &sim_ranges[i];
		double v = opt_d(o, n, r->key);

		if (r->lo < 0 ? v > 0 && v <= r->hi : v >= r->lo && v <= r->hi)
			continue;
		if (r->lo < 0)
			snprintf(err, len, "%s %s is out of range: above 0, at most %.15g", r->key,
				 hb_opt_str(o, n, r->key), r->hi);
		else
			snprintf(err, len, "%s %s is out of range: %.15g to %.15g", r->key,
				 hb_opt_str(o, n, r->key), r->lo, r->hi);
		return -EINVAL;
	}
	return 0;
}

/* SAS/SATA lane rates: 0 (no limit) or a generation's, 1.5 to 12 Gb/s. */
static int check_lanes(const struct hb_kv *o, unsigned n, char *err, size_t len)
{
	static const char *const keys[] = { "drive_link_gbps", "sas_lane_gbps" };

	for (unsigned i = 0; i < 2; i++) {
		double g = opt_d(o, n, keys[i]);

		if (g == 0 || g == 1.5 || g == 3 || g == 6 || g == 12)
			continue;
		snprintf(err, len, "%s %s is not a SAS/SATA lane rate: 1.5, 3, 6 or 12 (Gb/s), "
			 "or 0 for no limit", keys[i], hb_opt_str(o, n, keys[i]));
		return -EINVAL;
	}
	return 0;
}

/* A SAS/SATA lane's payload, ns per byte: 8b/10b line encoding and SAS/SATA
 * framing (0.93 of the encoded rate: 558 MB/s at 6 Gb/s, near the 550 MB/s a
 * SATA3 SSD reached in reference 000, "very close to the theoretical maximum
 * for any SATA3 drive"). 0 Gb/s: no limit. */
static double lane_ns_per_byte(double gbps, double lanes, double w)
{
	return gbps > 0 ? 1e9 * w / (gbps * 1e9 * 0.8 / 8 * 0.93 * lanes) : 0;
}

/* The drives' lanes, at the lower of the drive's and the controller's rate,
 * and the wide ports they share. */
static void sim_config_lanes(const struct hb_kv *o, unsigned n, struct sim_cfg *c)
{
	double drive = opt_d(o, n, "drive_link_gbps"), ctrl = opt_d(o, n, "sas_lane_gbps");
	double lane = drive > 0 && ctrl > 0 ? (drive < ctrl ? drive : ctrl) : drive + ctrl;

	c->lane_ns_per_byte = lane_ns_per_byte(lane, 1, c->nworkers);
	c->nports = ctrl > 0 ? (unsigned)hb_opt_int(o, n, "sas_ports", 0) : 0;
	c->port_ns_per_byte = lane_ns_per_byte(ctrl, (double)hb_opt_int(o, n, "sas_port_lanes", 4),
					       c->nworkers);
}

/* The options' values that a type cannot refuse: choices and ranges. */
static int check_choices(const struct hb_kv *o, unsigned n, enum layout *l, char *err,
			 size_t len)
{
	double bps, eff = opt_d(o, n, "link_efficiency"), jitter = opt_d(o, n, "jitter");
	long long drives = hb_opt_int(o, n, "drives", 8);
	const char *ls = hb_opt_str(o, n, "layout");

	if (link_rate(hb_opt_str(o, n, "link"), 1, 1, &bps)) {
		snprintf(err, len, "link '%s' is not pcieGENxWIDTH with GEN 1 to 6 and WIDTH 1 to "
			 "32 (e.g. pcie2x8, pcie3x4, pcie4x16)", hb_opt_str(o, n, "link"));
		return -EINVAL;
	}
	if (!(eff >= 0 && eff <= 1)) {
		snprintf(err, len, "link_efficiency %s is not a share of the link above 0 and "
			 "at most 1 (or 0: the PCIe generation's own)",
			 hb_opt_str(o, n, "link_efficiency"));
		return -EINVAL;
	}
	if (parse_layout(ls, l)) {
		snprintf(err, len, "layout '%s' is not jbod, raid0, raid5 or raid10", ls);
		return -EINVAL;
	}
	if (drives < 1 || drives > 4096 || (*l == LAYOUT_RAID5 && drives < 3) ||
	    (*l == LAYOUT_RAID10 && drives % 2)) {
		snprintf(err, len, "drives %lld do not make a %s: drives is 1 to 4096, at least "
			 "3 for raid5 and even for raid10", drives, ls);
		return -EINVAL;
	}
	if (!(jitter >= 0 && jitter <= 1)) {
		snprintf(err, len, "jitter %s is not a share from 0 (none) to 1",
			 hb_opt_str(o, n, "jitter"));
		return -EINVAL;
	}
	if (hb_opt_int(o, n, "sample_ios", 5000) < 0 || hb_opt_int(o, n, "sample_ios", 0) > 1e9) {
		snprintf(err, len, "sample_ios %lld is not 0 (every request) to 1000000000",
			 hb_opt_int(o, n, "sample_ios", 0));
		return -EINVAL;
	}
	return check_lanes(o, n, err, len) ? -EINVAL : check_ranges(o, n, err, len);
}

/* MiB/s -> ns per byte (0: none) */
static double ns_per_byte(double mibps, double w)
{
	return mibps > 0 ? 1e9 * w / (mibps * 1048576) : 0;
}

/* The controller's data path: a stage of its own (the RoC's DMA engines,
 * pipelined with its processor's per-request work, ctrl_iops): per request a
 * fixed part and a part per KiB, per direction. */
static void sim_config_dma(const struct hb_kv *o, unsigned n, struct sim_cfg *c)
{
	double w = c->nworkers;

	c->dma_svc[HB_OP_READ] = opt_d(o, n, "ctrl_dma_read_us") * 1e3 * w;
	c->dma_svc[HB_OP_WRITE] = opt_d(o, n, "ctrl_dma_write_us") * 1e3 * w;
	c->dma_ns_per_byte[HB_OP_READ] = ns_per_byte(opt_d(o, n, "ctrl_dma_read_mibps"), w);
	c->dma_ns_per_byte[HB_OP_WRITE] = ns_per_byte(opt_d(o, n, "ctrl_dma_write_mibps"), w);
	c->rmw_ns_per_byte = opt_d(o, n, "ctrl_parity_us_per_kib") * 1e3 / 1024 * w;
	c->xor_ns_per_byte = ns_per_byte(opt_d(o, n, "ctrl_xor_mibps"), w);
	c->ra_ns_per_byte = ns_per_byte(opt_d(o, n, "ctrl_readahead_mibps"), w);
	c->write_back = hb_opt_int(o, n, "write_back", 1);
	c->dma = c->dma_svc[0] > 0 || c->dma_svc[1] > 0 || c->dma_ns_per_byte[0] > 0 ||
		 c->dma_ns_per_byte[1] > 0;
}

static int sim_config(const struct hb_kv *o, unsigned n, unsigned nworkers,
		      struct sim_cfg *c, char *err, size_t len)
{
	double link_bps, w = nworkers ? nworkers : 1;

	memset(c, 0, sizeof(*c));
	if (check_choices(o, n, &c->layout, err, len))
		return -EINVAL;
	link_rate(hb_opt_str(o, n, "link"), opt_d(o, n, "link_efficiency"),
		  opt_d(o, n, "link_platform"), &link_bps);
	c->ndrives = (unsigned)hb_opt_int(o, n, "drives", 8);
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
	sim_config_dma(o, n, c);
	sim_config_lanes(o, n, c);
	c->strip = (uint64_t)hb_opt_int(o, n, "strip", 262144);
	c->capacity = (uint64_t)hb_opt_int(o, n, "drive_capacity", 256ll << 30);
	c->rd_svc = 1e9 * w / (double)hb_opt_int(o, n, "drive_read_iops", 46000);
	c->wr_svc_fresh = 1e9 * w / (double)hb_opt_int(o, n, "drive_write_iops", 36000);
	c->wr_svc_steady = 1e9 * w / (double)hb_opt_int(o, n, "drive_write_iops_steady", 8000);
	c->rd_ns_per_byte = 1e3 * w / opt_d(o, n, "drive_read_mbps");
	c->wr_ns_per_byte = 1e3 * w / opt_d(o, n, "drive_write_mbps");
	c->rd_lat = opt_d(o, n, "drive_latency_us") * 1e3;
	if (opt_d(o, n, "drive_rpm") > 0)
		c->hdd_pos = (opt_d(o, n, "drive_seek_ms") + 30e3 / opt_d(o, n, "drive_rpm")) * 1e6 * w;
	c->ncq = (double)hb_opt_int(o, n, "drive_ncq", 32);
	c->wr_lat = opt_d(o, n, "drive_write_latency_us") * 1e3;
	c->decline = opt_d(o, n, "decline");
	c->gc_period = opt_d(o, n, "gc_period");
	c->gc_length = opt_d(o, n, "gc_length");
	c->gc_factor = opt_d(o, n, "gc_factor");
	c->jitter = opt_d(o, n, "jitter");
	c->gc_sync = hb_opt_int(o, n, "gc_sync", 0);
	c->sample = (unsigned)((hb_opt_int(o, n, "sample_ios", 5000) + w - 1) / w);
	return 0;	/* check_choices's ranges keep every rate and size above zero */
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
static int wear_attach(struct sim_card *cd, uint64_t key)
{
	struct wear *w;
	int rc = 0;

	pthread_mutex_lock(&wear_lock);
	w = wear_find(key, cd->c.ndrives);
	if (!w) {
		w = calloc(1, sizeof(*w) + cd->c.ndrives * sizeof(w->written[0]));
		if (w) {
			w->key = key;
			w->ndrives = cd->c.ndrives;
			w->next = wear_list;
			wear_list = w;
		}
	}
	if (w) {
		for (unsigned d = 0; d < cd->c.ndrives; d++)
			cd->drives[d].written = cd->written0[d] = w->written[d] / cd->c.nworkers;
		cd->wear_key = key;
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

static void wear_detach(struct sim_card *cd)
{
	struct wear *w;

	pthread_mutex_lock(&wear_lock);
	w = cd->wear_key ? wear_find(cd->wear_key, cd->c.ndrives) : NULL;
	for (unsigned d = 0; w && d < cd->c.ndrives; d++)
		w->written[d] += cd->drives[d].written - cd->written0[d];
	pthread_mutex_unlock(&wear_lock);
}

/* ---- the engine ops ---------------------------------------------------- */

/* Card k of the step: its model, its share of the targets, its servers and
 * its drives' wear. */
static int card_open(struct sim_state *st, const struct hb_engine_setup *s, unsigned k,
		     const struct hb_kv *o, unsigned n, char *err, size_t len)
{
	struct sim_card *cd = &st->cards[k];
	unsigned end = (k + 1) * s->ntargets / st->ncards;

	cd->first = k * s->ntargets / st->ncards;
	for (unsigned t = cd->first; t < end; t++)
		st->card_of[t] = k;
	if (sim_config(o, n, s->nworkers, &cd->c, err, len))
		return -EINVAL;
	if (cd->c.layout == LAYOUT_JBOD && end - cd->first > cd->c.ndrives) {
		snprintf(err, len, "layout jbod makes target i drive i, and the step has "
			 "%u targets for %u drives: give drives = %u or more, or fewer targets%s",
			 end - cd->first, cd->c.ndrives, end - cd->first,
			 st->ncards > 1 ? " (a card's share of them)" : "");
		return -EINVAL;
	}
	cd->drives = calloc(cd->c.ndrives, sizeof(*cd->drives));
	cd->ports = calloc(cd->c.nports * 2 + 1, sizeof(*cd->ports));
	cd->last_end = calloc(s->ntargets, sizeof(*cd->last_end));
	cd->written0 = calloc(cd->c.ndrives, sizeof(double));
	/* two alike cards of a step are two sets of drives: the key has the place */
	if (!cd->drives || !cd->ports || !cd->last_end || !cd->written0 ||
	    wear_attach(cd, opts_key(o, n) + k * 0x9e3779b97f4a7c15ull))
		return -ENOMEM;
	for (unsigned d = 0; d < cd->c.ndrives; d++) {
		cd->written_all += cd->drives[d].written;
		cd->drives[d].fresh = sim_fresh(&cd->c, cd->drives[d].written);
		cd->drives[d].dip = -1;
	}
	cd->decay = sim_fresh(&cd->c, 0);	/* the factor of the cached wear, 0 */
	return 0;
}

static void sim_free(struct sim_state *st)
{
	for (unsigned k = 0; st->cards && k < st->ncards; k++) {
		struct sim_card *cd = &st->cards[k];

		if (cd->wear_key)
			wear_detach(cd);
		free(cd->written0);
		free(cd->drives);
		free(cd->ports);
		free(cd->last_end);
	}
	free(st->cards);
	free(st->card_of);
	free(st->heap);
	free(st);
}

/* The cards and the step's state; err says what is wrong (empty: memory). */
static int sim_setup(struct sim_state *st, const struct hb_engine_setup *s, char *err,
		     size_t len)
{
	struct sim_cards cs;
	int rc = cards_parse(sim_options, s->opts, s->nopts, &cs, err, len);

	if (!rc && s->ntargets < cs.n) {
		snprintf(err, len, "the step has %u targets for %u cards: give each card one at "
			 "least", s->ntargets, cs.n);
		rc = -EINVAL;
	}
	if (!rc) {
		st->ncards = cs.n;
		st->cards = calloc(cs.n, sizeof(*st->cards));
		st->card_of = calloc(s->ntargets + 1, sizeof(*st->card_of));
		rc = st->cards && st->card_of ? 0 : -ENOMEM;
	}
	for (unsigned k = 0; !rc && k < st->ncards; k++)
		rc = card_open(st, s, k, cs.kv + cs.start[k], cs.start[k + 1] - cs.start[k],
			       err, len);
	cards_free(&cs);
	st->cap = s->depth;
	st->heap = rc ? NULL : calloc(st->cap + 4, sizeof(*st->heap));	/* heap_pop reads 3 past */
	return rc ? rc : st->heap ? 0 : -ENOMEM;
}

static int sim_open(const struct hb_engine_setup *s, void **ctx)
{
	struct sim_state *st = calloc(1, sizeof(*st));
	char err[256] = "";
	int rc;

	if (!st)
		return -ENOMEM;
	rc = sim_setup(st, s, err, sizeof(err));
	if (rc) {
		if (*err)
			s->log(HB_LOG_ERROR, "sim: %s", err);
		sim_free(st);
		return rc;
	}
	st->cd = &st->cards[0];
	for (unsigned i = 0; i < st->cap + 4; i++)
		st->heap[i].done = INFINITY;
	st->rng = (s->seed * 0x9e3779b97f4a7c15ull) ^ (s->worker + 1) * 0xbf58476d1ce4e5b9ull;
	if (!st->rng)
		st->rng = 1;
	st->fr = (struct sim_frame){ .end = NS_PER_SEC, .until = NS_PER_SEC, .k = 1,
				     .block_left = st->cap, .on = st->cards[0].c.sample > 0,
				     .warm = true };
	*ctx = st;
	return 0;
}

static int sim_submit(void *ctx, struct hb_io **ios, unsigned n)
{
	struct sim_state *st = ctx;
	unsigned i;

	for (i = 0; i < n && st->nheap < st->cap; i++) {
		struct hb_io *io = ios[i];
		const struct sim_cfg *c = &(st->cd = &st->cards[st->card_of[io->target]])->c;
		bool full = full_stripe(st, io), ahead = read_ahead(st, io);
		double t = serve(&st->cd->ctrl, st->now, vary(st, ctrl_cost(st, io, full)));

		if (c->dma)	/* not varied: the draws of the model without it stay */
			t = serve(&st->cd->dma, t, c->dma_svc[io->op] +
				  (double)io->len * c->dma_ns_per_byte[io->op]);
		if (ahead)	/* read-ahead: the cache, then the host */
			t = serve(&st->cd->ra, t, (double)io->len * c->ra_ns_per_byte);
		t = serve(&st->cd->link[io->op], t, (double)io->len * c->link_ns_per_byte[io->op]);
		if (full && c->xor_ns_per_byte > 0)	/* the parity engine: full stripes */
			t = serve(&st->cd->xor, t, (double)io->len * c->xor_ns_per_byte);
		t = volume_op(st, io, full, t);
		t += vary(st, c->ctrl_lat + (io->op == HB_OP_READ ? c->rd_lat : c->wr_lat));
		io->result = io->len;
		st->cd->nq++;
		st->cd->nreads += io->op == HB_OP_READ;
		heap_push(st, t, io);
	}
	return (int)i;
}

/* ---- sampling: part of each second in detail -----------------------------
 * Each second of a step is simulated request by request only until about
 * c.sample completions (the worker's share of sample_ios); then the clock
 * skips to the next second, the requests in flight moving with it (their
 * submit time too), and each completion of the detailed part stands for k
 * requests (hb_io.count), k the second's length over the detailed part's.
 * Writes wear the drives k times, so the decline keeps its pace in seconds.
 * Changes are simulated in full: the step's start until the queue has turned
 * over twice; a drive entering or leaving a GC dip until the longest latency
 * of a turnover is back within 10 % of what it was while sampling (the queues
 * the change left behind have drained: a transient sampled k times would
 * weigh k times too much), or to the end of the second; and a drain, fewer
 * requests in flight than slots (the step ends, or a fill has written all).
 * At a change the clock first jumps to the time the detailed part stood for. */

static void frame_skip(struct sim_state *st, double ns)
{
	st->skew += ns;
	for (unsigned i = 0; i < st->nheap; i++)
		st->heap[i].io->submit_ns += (uint64_t)ns;
}

/* A new detailed part from `from` (step clock, ns) at `rate` completions per
 * ns: sampled (k > 1) when the rate makes it worth it. */
static void frame_plan(struct sim_state *st, double from, double rate)
{
	struct sim_frame *f = &st->fr;
	double left = f->end - from, k = rate > 0 ? floor(left * rate / st->cards[0].c.sample) : 0;

	f->from = f->block_t = from;
	f->count = 0;
	f->block_left = st->cap;
	f->block_max = 0;
	f->k = k >= 2 ? (uint32_t)(k < 1e6 ? k : 1e6) : 1;
	f->until = f->k > 1 ? from + left / f->k : f->end;
}

/* The next completion is past the detailed part: on to the next second. */
static void frame_next(struct sim_state *st)
{
	struct sim_frame *f = &st->fr;
	double span = f->until - f->from, rate = span > 0 ? f->count / span : 0;

	frame_skip(st, ceil(f->end - f->until));
	f->warm = false;
	f->end += NS_PER_SEC;
	frame_plan(st, f->end - NS_PER_SEC, rate);
}

/* A change: the clock jumps to the time the detailed part stood for, and the
 * requests from here are simulated in full until it has settled (or, for a
 * drain, to the end). */
static void frame_cut(struct sim_state *st)
{
	struct sim_frame *f = &st->fr;

	if (f->k > 1)
		frame_skip(st, ceil((f->k - 1) * dmax(0, st->now + st->skew - f->from)));
	frame_plan(st, st->now + st->skew, 0);
	f->on = st->nheap == st->cap;
	f->warm = true;
	f->change = false;
}

/* One more completion at the step clock's `now`, `lat` ns after its submit.
 * Each turnover of the queue notes its longest latency: a running mean of
 * them while sampling, and after a change, the sign that it has settled. */
static uint32_t frame_count(struct sim_state *st, double now, double lat)
{
	struct sim_frame *f = &st->fr;
	double t = f->block_t, mx;

	f->block_max = dmax(f->block_max, lat);
	f->count++;
	if (--f->block_left)
		return f->k;
	f->block_left = st->cap;
	mx = f->block_max;
	f->block_t = now;
	f->block_max = 0;
	if (f->k > 1) {
		f->lmax = f->lmax ? 0.9 * f->lmax + 0.1 * mx : mx;
	} else if (f->warm && f->count >= 2 * st->cap && now > t &&
		   (!f->lmax || mx <= 1.1 * f->lmax)) {
		f->warm = false;
		frame_plan(st, now, st->cap / (now - t));
	}
	return f->k;
}

/* The clock jumps to the earliest completion; everything due by then is returned. */
static int sim_reap(void *ctx, unsigned min, unsigned max, struct hb_io **done,
		    uint64_t timeout_ns)
{
	struct sim_state *st = ctx;
	unsigned n = 0;

	(void)min;
	(void)timeout_ns;
	if (st->fr.on && (st->nheap < st->cap || st->fr.change))
		frame_cut(st);
	while (n < max && st->nheap && (n == 0 || st->heap[0].done <= st->now)) {
		struct pending p;
		double now;

		if (st->fr.on && st->heap[0].done + st->skew >= st->fr.until) {
			frame_next(st);
			continue;
		}
		p = heap_pop(st);
		if (p.done > st->now)
			st->now = p.done;
		st->cards[st->card_of[p.io->target]].nq--;
		st->cards[st->card_of[p.io->target]].nreads -= p.io->op == HB_OP_READ;
		now = st->now + st->skew;
		p.io->count = st->fr.on ? frame_count(st, now, now - (double)p.io->submit_ns) : 1;
		done[n++] = p.io;
	}
	return (int)n;
}

static uint64_t sim_now(void *ctx)
{
	struct sim_state *st = ctx;

	return (uint64_t)(st->now + st->skew);
}

static void sim_close(void *ctx)
{
	sim_free(ctx);
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

/* The dry pass's check: everything sim_open would refuse in the options. */
static int sim_check(const struct hb_kv *o, unsigned n, char *err, size_t len)
{
	struct sim_cfg c;
	struct sim_cards cs;
	int rc = cards_parse(sim_options, o, n, &cs, err, len);

	for (unsigned k = 0; !rc && k < cs.n; k++) {
		rc = sim_config(cs.kv + cs.start[k], cs.start[k + 1] - cs.start[k], 1, &c, err, len);
		if (rc && k) {	/* which card */
			char why[200];

			snprintf(why, sizeof(why), "%s", err);
			snprintf(err, len, "card %u of the step: %s", k + 1, why);
		}
	}
	cards_free(&cs);
	return rc;
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
	.check = sim_check,
};

const struct hb_plugin hbatest_plugin = HB_PLUGIN_INIT(HB_PLUGIN_ENGINE, "sim",
	"a simulated controller, link and drives on a virtual clock (deterministic)",
	&sim_ops, sim_options);
