/* What `hbatest run` says while a step runs: the live line on a terminal
 * (one line on stderr, rewritten in place) and a status line, an ordinary
 * line on stderr, every --status-interval seconds (for a log). */
#ifndef HB_PROGRESS_H
#define HB_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

#include "measure/step.h"

/* --status-interval when none is given and stderr is no terminal: s */
#define PROGRESS_STATUS_DEFAULT 60

/* live: draw the live line (stderr is a terminal); status_interval: seconds
 * between status lines, 0 for none. */
void progress_init(bool live, unsigned status_interval);
/* Is the live line drawn? (Without it the runner logs each step's start.) */
bool progress_enabled(void);

/* A step as it begins. */
struct progress_step {
	unsigned index, count;	/* its number, and how many the dry pass counted */
	const char *name;
	bool simulated;		/* a simulating engine runs it: its seconds are virtual */
	double estimate;	/* s: the dry pass's guess at its length */
	double later_real, later_sim;	/* s: the real and simulated steps after it */
	uint64_t fill_bytes;	/* a fill's bytes to write; 0: a step bounded by time */
};

void progress_step(const struct progress_step *step);
void progress_update(const struct step_tick *t);
void progress_layout(uint64_t done, uint64_t total);
/* About once a second while an exec step's command runs: its status lines
 * (no live line: the command may write to the terminal). */
void progress_exec(void);
/* Clear the line (before a log message or at the end). */
void progress_clear(void);
/* Say something once on the line's right (e.g. a warning about the link). */
void progress_note(const char *note);

#endif
