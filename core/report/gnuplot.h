/* gnuplot as an external program: found on PATH, run several at once. */
#ifndef HB_GNUPLOT_H
#define HB_GNUPLOT_H

#include <stdbool.h>
#include <stddef.h>

struct gnuplot;

/* Is an executable gnuplot on PATH? */
bool gnuplot_found(void);
/* Run scripts in dir, at most `parallel` at once (0: one per online CPU). */
struct gnuplot *gnuplot_new(const char *dir, unsigned parallel);
/* Each gnuplot may use cpu_s seconds of CPU and mem bytes of address space
 * (0: no limit): a chart template that loops or allocates without end
 * fails its chart instead of holding the report. */
void gnuplot_set_limits(struct gnuplot *g, unsigned cpu_s, unsigned long long mem);
/* Start `gnuplot script` in the folder (waits for a free slot first); its
 * output goes to script's name with .log, kept only when gnuplot fails.
 * 0 or -errno with err (interrupted, or gnuplot cannot be started). */
int gnuplot_start(struct gnuplot *g, const char *script, char *err, size_t len);
/* Wait for every chart; 0, or -EIO with err naming the first that failed,
 * how (exit status or signal) and gnuplot's last lines. */
int gnuplot_wait(struct gnuplot *g, char *err, size_t len);
/* Stops what still runs, frees g. */
void gnuplot_free(struct gnuplot *g);

#endif
