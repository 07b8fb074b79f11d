/* Stopping a run: SIGINT, SIGTERM or SIGHUP sets the flag that every wait
 * and loop polls; a second signal stops the process at once. */
#ifndef HB_STOP_H
#define HB_STOP_H

#include <stdbool.h>

/* Has the process been asked to stop? Set by the signal handler. */
extern volatile _Atomic bool hb_stop_requested;

/* SIGINT, SIGTERM, SIGHUP (unless ignored: nohup) set hb_stop_requested;
 * SIGPIPE is caught so a write to a closed pipe returns EPIPE. */
void stop_catch_signals(void);

/* The line a second signal writes to stderr before the process ends
 * (static storage: it is read in the signal handler). */
void stop_set_hard_note(const char *text);

#endif
