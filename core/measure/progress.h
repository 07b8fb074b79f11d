/* The live status line of `hbatest run` on a terminal. */
#ifndef HB_PROGRESS_H
#define HB_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

#include "measure/step.h"

void progress_init(bool enabled);
bool progress_enabled(void);
/* A step begins: its number, how many the dry pass counted, its name,
 * whether a simulating engine runs it (its seconds are virtual, far faster
 * than real ones), and the real and simulated seconds of the steps after it. */
void progress_step(unsigned index, unsigned count, const char *name, bool simulated,
		   double later_real, double later_sim);
void progress_update(uint64_t sec, uint64_t total, const struct step_sample *last);
void progress_layout(uint64_t done, uint64_t total);
/* Clear the line (before a log message or at the end). */
void progress_clear(void);
/* Say something once on the line's right (e.g. a warning about the link). */
void progress_note(const char *note);

#endif
