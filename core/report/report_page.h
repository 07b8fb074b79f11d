/* The report's folder on disk: chart markers in its pages replaced by the
 * images themselves (data: URIs), and removal of a half-written folder. */
#ifndef HB_REPORT_PAGE_H
#define HB_REPORT_PAGE_H

#include <stdbool.h>
#include <stddef.h>

/* In every .html file of DIR, replace <!--hbatest:chart NN-name.svg ALT--> by an
 * <img> holding charts/NN-name.svg as a data: URI, its alt text ALT (HTML: the
 * chart's title and what it shows; the file name when there is none), and
 * title charts/NN-name.svg with ALT (gnuplot's is "Gnuplot"); with rendered false (no
 * charts), or when gnuplot failed on it (its charts/NN-name.log is kept), by
 * a note naming the chart's script. 0 or -errno with err. */
int report_page_embed(const char *dir, bool rendered, char *err, size_t len);
/* rm -rf dir (never following symlinks); 0 or -errno. */
int report_remove_tree(const char *dir);

#endif
