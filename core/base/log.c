/* The core's logging: every message goes through hb_log(). */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>

#include "base/log.h"

static int verbosity = HB_LOG_INFO;
static log_sink_fn sink;
static void *sink_ctx;
static void (*clear_hook)(void);
static pthread_t main_thread;
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static _Atomic bool stderr_gone;	/* a pipe whose reader left (| head) */

void log_init(void)
{
	main_thread = pthread_self();
}

void log_set_verbosity(int level)
{
	verbosity = level;
}

void log_set_sink(log_sink_fn fn, void *ctx)
{
	sink = fn;
	sink_ctx = ctx;
}

void log_set_clear_hook(void (*fn)(void))
{
	clear_hook = fn;
}

void log_stderr(const char *fmt, ...)
{
	va_list ap;
	int rc;

	if (stderr_gone)
		return;
	va_start(ap, fmt);
	rc = vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (rc < 0 && errno == EPIPE)
		stderr_gone = true;
	clearerr(stderr);
}

static void console(enum hb_log_level level, const char *msg, bool on_main)
{
	static const char *const prefix[] = { "error: ", "warning: ", "", "debug: " };

	if ((int)level > verbosity)
		return;
	pthread_mutex_lock(&log_lock);
	if (on_main && clear_hook)
		clear_hook();
	log_stderr("hbatest: %s%s\n", prefix[level], msg);
	pthread_mutex_unlock(&log_lock);
}

void hb_log(enum hb_log_level level, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	bool on_main = pthread_equal(pthread_self(), main_thread);

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);

	if (on_main && sink && level <= HB_LOG_INFO)
		sink(sink_ctx, level, msg);
	console(level, msg, on_main);
}

void log_console(enum hb_log_level level, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	console(level, msg, pthread_equal(pthread_self(), main_thread));
}
