/* The live line (stderr, rewritten in place) and the status lines (stderr,
 * ordinary lines every --status-interval seconds): one text, two paces. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/human.h"
#include "base/log.h"
#include "measure/hostcpu.h"
#include "measure/progress.h"
#include "base/util.h"

static struct {
	bool live, shown;
	unsigned interval;	/* s between status lines; 0: none */
	uint64_t last_status;	/* ns, CLOCK_MONOTONIC: the last status line (or the start) */
	uint64_t started;	/* ns, CLOCK_MONOTONIC: the step's start */
	struct progress_step step;
	char name[80];		/* step.name points here */
	char note[160];
} pg;

void progress_init(bool live, unsigned status_interval)
{
	memset(&pg, 0, sizeof(pg));
	pg.live = live;
	pg.interval = status_interval;
	pg.last_status = util_now_ns();
}

bool progress_enabled(void)
{
	return pg.live;
}

void progress_clear(void)
{
	if (pg.live && pg.shown) {
		log_stderr("\r\033[K");
		pg.shown = false;
	}
}

void progress_step(const struct progress_step *step)
{
	pg.step = *step;
	pg.started = util_now_ns();
	snprintf(pg.name, sizeof(pg.name), "%s", step->name);
	pg.step.name = pg.name;
}

void progress_note(const char *note)
{
	snprintf(pg.note, sizeof(pg.note), "%s", note);
}

/* A status line, when one is due by the wall clock. */
static bool status_due(void)
{
	return pg.interval && util_now_ns() - pg.last_status >= pg.interval * NSEC_PER_SEC;
}

/* Print the text as the live line and/or, when status, as a status line. */
static void show(const char *text, bool live, bool status)
{
	if (status) {
		log_console(HB_LOG_INFO, "%s", text);	/* clears the live line first */
		pg.last_status = util_now_ns();
	}
	if (live && pg.live) {
		log_stderr("\r\033[K%s", text);
		pg.shown = true;
	}
}

void progress_layout(uint64_t done, uint64_t total)
{
	char text[256], size[32];

	if (!pg.live && !pg.interval)
		return;
	human_bytes(total, size, sizeof(size));
	snprintf(text, sizeof(text), "step %u/%u %.40s | laying out the target: %.0f%% of %s",
		 pg.step.index, pg.step.count, pg.name,
		 floor(100.0 * (double)done / (double)total), size);
	show(text, true, status_due());
}

void progress_exec(void)
{
	char text[256], el[32], eta[96];
	double secs = (double)(util_now_ns() - pg.started) / 1e9;
	double left = pg.step.estimate > secs ? pg.step.estimate - secs : 0;

	if (!status_due())
		return;
	util_format_duration(secs, el, sizeof(el));
	util_format_estimate(pg.step.later_real + left, pg.step.later_sim, eta, sizeof(eta));
	snprintf(text, sizeof(text), "step %u/%u %.40s | %s, its command running | plan ETA %s",
		 pg.step.index, pg.step.count, pg.name, el, eta);
	show(text, false, true);
}

/* s left of the step: a fill's from the rate it has measured (its bytes over
 * its seconds so far: it takes fill_bytes / rate in all), capped by its
 * duration; < 0: not known yet */
static double step_left(const struct step_tick *t)
{
	double left = (double)(t->total_secs - t->sec), rate, fill;

	if (!pg.step.fill_bytes)
		return left;
	if (!t->sec || !t->bytes)
		return -1;
	rate = (double)t->bytes / (double)t->sec;
	fill = (double)pg.step.fill_bytes / rate - t->elapsed;
	fill = fill > 0 ? fill : 0;
	return fill < left ? fill : left;
}

/* "42%: 215 MiB of 512 MiB | " for a fill, "" for a step bounded by time */
static void fill_text(const struct step_tick *t, char *buf, size_t len)
{
	char done[32], all[32];
	uint64_t b = t->bytes < pg.step.fill_bytes ? t->bytes : pg.step.fill_bytes;

	buf[0] = 0;
	if (!pg.step.fill_bytes)
		return;
	human_bytes(b, done, sizeof(done));
	human_bytes(pg.step.fill_bytes, all, sizeof(all));
	snprintf(buf, len, "%.0f%%: %s of %s | ",
		 floor(100.0 * (double)b / (double)pg.step.fill_bytes), done, all);
}

/* the last second's "16.5k IOPS 67.7 MB/s p99 1.63 ms" */
static void rates_text(const struct step_sample *s, char *buf, size_t len)
{
	char iops[32] = "0", mbps[32] = "0 MB/s", p99[32] = "-";

	if (s) {
		double secs = s->secs > 0 ? s->secs : 1;	/* a last second cut short */

		human_count((double)(s->ops[0] + s->ops[1]) / secs, iops, sizeof(iops));
		human_mbps((double)(s->bytes[0] + s->bytes[1]) / 1e6 / secs, mbps, sizeof(mbps));
		if (s->ops[0] + s->ops[1])
			human_usecs(s->lat_p99[0] > s->lat_p99[1] ? s->lat_p99[0] : s->lat_p99[1],
				    p99, sizeof(p99));
	}
	snprintf(buf, len, "%s IOPS %s p99 %s", iops, mbps, p99);
}

static void format_line(const struct step_tick *t, char *buf, size_t len)
{
	char fill[96], el[32], rem[32] = "?", rates[96], eta[96];
	double left = step_left(t), plan_left;

	fill_text(t, fill, sizeof(fill));
	util_format_duration((double)t->sec, el, sizeof(el));
	if (left >= 0)
		util_format_duration(left, rem, sizeof(rem));
	else			/* no rate yet: the dry pass's guess, for the plan */
		left = pg.step.estimate > (double)t->sec ? pg.step.estimate - (double)t->sec : 0;
	plan_left = left;
	rates_text(t->last, rates, sizeof(rates));
	util_format_estimate(pg.step.later_real + (pg.step.simulated ? 0 : plan_left),
			     pg.step.later_sim + (pg.step.simulated ? plan_left : 0), eta, sizeof(eta));
	snprintf(buf, len, "step %u/%u %.40s | %s%s, %s left%s | %s | plan ETA %s%s%s",
		 pg.step.index, pg.step.count, pg.name, fill, el, rem,
		 pg.step.simulated ? " (simulated)" : "", rates, eta, pg.note[0] ? " | " : "",
		 pg.note);
}

/* The live line about once a wall-clock second; a status line every interval
 * of the wall clock, or of the engine's clock on a step that runs on one. */
void progress_update(const struct step_tick *t)
{
	char text[512];
	bool status;

	if (!pg.live && !pg.interval)
		return;
	if (t->merged)
		status = pg.interval && t->sec % pg.interval == 0;
	else
		status = !t->engine_clock && status_due();
	if (!status && (t->merged || !pg.live))
		return;
	format_line(t, text, sizeof(text));
	/* the live line (a terminal's) says when the last second was host-bound
	 * (measure/hostcpu.h); a log's status lines keep their form, the step's
	 * end warns there */
	if (!status && t->last && hostcpu_bound(t->last->cpu_busy, t->last->host_busy))
		snprintf(text + strlen(text), sizeof(text) - strlen(text), " | HOST-BOUND");
	show(text, !t->merged, status);
}
