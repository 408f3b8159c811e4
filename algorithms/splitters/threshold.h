/* What the threshold splitters (numeric_threshold, histogram) share, so that both admit,
 * place and score a cut with the same arithmetic (and so the same bits). */
#ifndef TL_SPLITTERS_THRESHOLD_H
#define TL_SPLITTERS_THRESHOLD_H

#include <math.h>
#include <stddef.h>
#include <string.h>

#include "../tree/views/views.h"
#include "treelab/tl_grow.h"
#include "treelab/tl_class_sums.h"

/* scikit-learn's FEATURE_THRESHOLD: values closer than this are not cut between (the gap the
 * grower's compact records mark their cut bits by, so that both forms admit the same cuts). */
#define TL_VALUE_EPS TL_REC_GAP

/* Gini's division-free bound (numeric_threshold's sweep_unit, histogram's sweep): nodes of
 * at most this many rows (squared counts stay whole numbers in a double), and the slack, per
 * row, that a skipped cut must exceed the best by: far above the 2^-48 per row that rounding
 * can reach. */
#define TL_GINI_BOUND_MAX_ROWS 67108864.0 /* 2^26 */
#define TL_GINI_SKIP 1e-9

/* Least weighted impurity of the cut with the unknown rows u (weight wu) on the right or
 * on the left (the right first: it keeps ties, as scikit-learn tries it first). */
static inline double tl_side_impurity(double (*impurity)(const double *, size_t),
                                      const double *left, const double *right, const double *u,
                                      double *tmp, double wl, double wr, double wu, size_t k)
{
    for (size_t j = 0; j < k; j++)
        tmp[j] = right[j] + u[j];
    double to_right = wl * impurity(left, k) + (wr + wu) * impurity(tmp, k);
    for (size_t j = 0; j < k; j++)
        tmp[j] = left[j] + u[j];
    double to_left = (wl + wu) * impurity(tmp, k) + wr * impurity(right, k);
    return to_left < to_right ? to_left : to_right;
}

/* Both sides of a cut hold positive weight, at least min_leaf each. */
static inline int tl_cut_weights_ok(double wl, double wr, double min_leaf)
{
    return !(wl < min_leaf || wr < min_leaf || wl <= 0 || wr <= 0);
}

/* The threshold between xi and xn (xi itself where the midpoint rounds to xn or overflows). */
static inline double tl_midpoint(double xi, double xn)
{
    double t = xi / 2.0 + xn / 2.0;
    return (t == xn || isinf(t)) ? xi : t;
}

/* The split of the best cut (children: left, right, known, best left, k values each: the
 * scratch layout of both threshold splitters), scored; 0 when none was admissible. */
static inline int tl_threshold_found(const tl_grow_ctx *g, const tl_node_rows *node, size_t attr,
                                     double *children, size_t k, double best_child, double best_t,
                                     double missing_w, tl_split *out)
{
    double *left = children, *right = children + k, *known = children + 2 * k;
    if (best_child == INFINITY)
        return 0;
    memcpy(left, children + 3 * k, k * sizeof *left);
    for (size_t j = 0; j < k; j++)
        right[j] = known[j] - left[j];
    out->attr = attr; /* the test first: a row-form criterion scores it from the rows */
    out->kind = TL_SPLIT_NUMERIC;
    out->threshold = best_t;
    return tl_grow_score(g, node, children, 2, missing_w, out);
}

#endif
