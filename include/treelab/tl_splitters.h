/* Functions of the built-in splitters that other code uses (the histogram's bins, for tests
 * and figures). The splitter types themselves are reached through the registry (tl_plugin.h).
 */
#ifndef TL_SPLITTERS_H
#define TL_SPLITTERS_H

#include <stddef.h>

#include "treelab/tl_api.h"
#include "treelab/tl_error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The bin boundaries of the histogram splitter for the known values among x[0..n) (NaN:
 * unknown), as LightGBM and scikit-learn's HistGradientBoosting bin a feature: with at most
 * max_bins distinct values, one bin per value (values closer than 1e-7 share one), cut at
 * the midpoints; otherwise the (i / max_bins)-quantiles, i = 1 .. max_bins - 1, by numpy's
 * "midpoint" method, duplicates dropped. thr gets the increasing upper boundaries of every
 * bin but the last (at most max_bins - 1); *n_thr how many. A value x falls in the bin of
 * the first boundary >= x. max_bins in [2, 65535]; TL_EINVAL, TL_ENOMEM. */
TL_API int tl_histogram_thresholds(const double *x, size_t n, size_t max_bins, double *thr,
                                   size_t *n_thr, tl_err *err);

#ifdef __cplusplus
}
#endif

#endif
