/* A chart template checked before hbatest writes it into a script: gnuplot
 * commands from an allow-list that draw the chart's data, never ones that
 * run a command, open another file or redefine what hbatest sets. */
#ifndef HB_GNUPLOT_CHECK_H
#define HB_GNUPLOT_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#define GNUPLOT_TEMPLATE_MAX (1u << 20)	/* bytes: a chart template is a page or two */

/* 0, or -EINVAL with err ("LINE:COLUMN: 'system' runs a shell command:
 * ...") for the first thing a template may not do. */
int gnuplot_check_template(const char *text, size_t n, char *err, size_t len);

/* Why neither a template nor a report's args may define name (it is one
 * hbatest sets in every chart script: datafile, titles...; gnuplot's x; a
 * coordinate word), or NULL when they may. */
const char *gnuplot_reserved(const char *name);

#endif
