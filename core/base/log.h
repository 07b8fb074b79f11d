/* One logging function for the whole core: stderr, plus an optional sink
 * (the run's events table) that only the main thread feeds. */
#ifndef HB_LOG_H
#define HB_LOG_H

#include "hbatest/plugin.h"

typedef void (*log_sink_fn)(void *ctx, enum hb_log_level level, const char *msg);

void log_init(void);
void log_set_verbosity(int level);	/* messages above it are not printed */
void log_set_sink(log_sink_fn fn, void *ctx);
/* Called before a message is printed, so a live status line can clear itself. */
void log_set_clear_hook(void (*fn)(void));
/* Print to stderr; once it is a broken pipe (EPIPE), print nothing more
 * there: the run goes on, its events still reach the database. */
void log_stderr(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void hb_log(enum hb_log_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* As hb_log, but stderr only, never the sink: for code that runs inside a
 * database call (SQLite's busy handler), where storing an event would
 * re-enter the connection. */
void log_console(enum hb_log_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#define log_error(...) hb_log(HB_LOG_ERROR, __VA_ARGS__)
#define log_warn(...)  hb_log(HB_LOG_WARN, __VA_ARGS__)
#define log_info(...)  hb_log(HB_LOG_INFO, __VA_ARGS__)
#define log_debug(...) hb_log(HB_LOG_DEBUG, __VA_ARGS__)

#endif
