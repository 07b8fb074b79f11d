/* Stopping: the flag every loop polls, and the signals that set it. */
#include <signal.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

#include "base/stop.h"

volatile _Atomic bool hb_stop_requested;

/* What a second signal says before the process ends: a command sets its
 * own (stop_set_hard_note); the text must stay in place until exit. */
static const char *volatile hard_note = "hbatest: a second interrupt: stopping at once\n";

void stop_set_hard_note(const char *text)
{
	hard_note = text;
}

/* The first signal stops issuing and waits for the requests in flight
 * (step.c says so when that lasts); a second one ends the process at once:
 * the database keeps every committed second and the run reads as
 * interrupted, to be resumed. */
static void on_signal(int sig)
{
	if (hb_stop_requested) {
		const char *t = hard_note;

		if (write(STDERR_FILENO, t, strlen(t)) < 0) {
			/* nothing to do about it in a handler */
		}
		signal(sig, SIG_DFL);
		raise(sig);
	}
	hb_stop_requested = true;
}

/* A write to a closed pipe returns EPIPE (log.c then stops writing there).
 * A handler rather than SIG_IGN: an hb.exec command gets the default back. */
static void on_sigpipe(int sig)
{
	(void)sig;
}

/* SIGINT, SIGTERM and SIGHUP (a closed terminal or ssh session) abort the
 * run, recorded; SIGHUP is left alone when ignored at start (nohup); SIGPIPE
 * and SIGXFSZ become errors of the write that met them. */
void stop_catch_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal }, old;

	sigemptyset(&sa.sa_mask);	/* no SA_RESTART: waits return EINTR */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (sigaction(SIGHUP, NULL, &old) == 0 && old.sa_handler != SIG_IGN)
		sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = on_sigpipe;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGPIPE, &sa, NULL);
	/* past ulimit -f a write fails with EFBIG, stored as the reason, instead
	 * of a signal that ends the process without a word */
	signal(SIGXFSZ, SIG_IGN);
}
