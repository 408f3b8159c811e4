/* Drawing a set of figures side by side (internal to libtreelab-experiments). */
#ifndef TL_PLOT_BATCH_H
#define TL_PLOT_BATCH_H

#include <stddef.h>

#include "treelab/tl_error.h"

/* From here on this thread's figures render in up to n gnuplot processes at once, while it
 * writes the next ones (n <= 1: each figure is drawn before its function returns, as
 * without a batch, and nothing is allocated). One batch per thread at a time: a second
 * begin before the end is refused. */
int tlp_batch_begin(size_t n, tl_err *err);
/* Wait for the batch's figures and put them in place; rc is the caller's outcome so far
 * (kept when not TL_OK), else the first figure that failed. */
int tlp_batch_end(int rc, tl_err *err);

#endif
