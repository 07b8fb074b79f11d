/* The live status line: one line on stderr, rewritten in place. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "measure/progress.h"
#include "base/util.h"

static struct {
	bool enabled, shown;
	unsigned index, count;
	char name[80];
	bool simulated;		/* this step's seconds are a simulator's */
	double later_real, later_sim;	/* s: the steps still to come after this one */
	char note[160];
} pg;

void progress_init(bool enabled)
{
	memset(&pg, 0, sizeof(pg));
	pg.enabled = enabled;
}

bool progress_enabled(void)
{
	return pg.enabled;
}

void progress_clear(void)
{
	if (pg.enabled && pg.shown) {
		log_stderr("\r\033[K");
		pg.shown = false;
	}
}

void progress_step(unsigned index, unsigned count, const char *name, bool simulated,
		   double later_real, double later_sim)
{
	pg.index = index;
	pg.count = count;
	snprintf(pg.name, sizeof(pg.name), "%s", name);
	pg.simulated = simulated;
	pg.later_real = later_real;
	pg.later_sim = later_sim;
}

void progress_note(const char *note)
{
	snprintf(pg.note, sizeof(pg.note), "%s", note);
}

void progress_layout(uint64_t done, uint64_t total)
{
	if (!pg.enabled)
		return;
	log_stderr("\r\033[Kstep %u/%u %.40s | laying out the target: %.0f%% of %.1f GiB",
		   pg.index, pg.count, pg.name, 100.0 * (double)done / (double)total,
		   (double)total / (1 << 30));
	pg.shown = true;
}

static void human_rate(double v, char *buf, size_t len)
{
	if (v >= 1e6)
		snprintf(buf, len, "%.2fM", v / 1e6);
	else if (v >= 1e3)
		snprintf(buf, len, "%.1fk", v / 1e3);
	else
		snprintf(buf, len, "%.0f", v);
}

void progress_update(uint64_t sec, uint64_t total, const struct step_sample *s)
{
	char el[32], rem[32], eta[96], iops[32], p99[32] = "-";
	double mbps = 0, ops = 0, lat = 0, left = (double)(total - sec);

	if (!pg.enabled)
		return;
	if (s) {
		double secs = s->secs > 0 ? s->secs : 1;	/* a last second cut short */

		ops = (double)(s->ops[0] + s->ops[1]) / secs;
		mbps = (double)(s->bytes[0] + s->bytes[1]) / 1e6 / secs;
		lat = s->lat_p99[0] > s->lat_p99[1] ? s->lat_p99[0] : s->lat_p99[1];
		if (lat >= 1000)
			snprintf(p99, sizeof(p99), "%.2f ms", lat / 1000);
		else
			snprintf(p99, sizeof(p99), "%.0f us", lat);
	}
	human_rate(ops, iops, sizeof(iops));
	util_format_duration((double)sec, el, sizeof(el));
	util_format_duration(left, rem, sizeof(rem));
	util_format_estimate(pg.later_real + (pg.simulated ? 0 : left),
			     pg.later_sim + (pg.simulated ? left : 0), eta, sizeof(eta));
	log_stderr("\r\033[Kstep %u/%u %.40s | %s, %s left%s | %s IOPS %.1f MB/s p99 %s "
		   "| plan ETA %s%s%s", pg.index, pg.count, pg.name, el, rem,
		   pg.simulated ? " (simulated)" : "", iops, mbps, p99, eta,
		   pg.note[0] ? " | " : "", pg.note);
	pg.shown = true;
}
