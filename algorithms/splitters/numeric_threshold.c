/* Binary threshold on a numeric attribute: one sweep over the node's rows pre-sorted by the
 * attribute, cut at the midpoint of two adjacent distinct values (CART, ID3). */
#include <math.h>
#include <string.h>

#include "treelab/tl_grow.h"

/* scikit-learn's FEATURE_THRESHOLD: values closer than this are not cut between. */
#define TL_VALUE_EPS 1e-7

/* Least weighted impurity of the cut with the unknown rows u (weight wu) on the right or
 * on the left (the right first: it keeps ties, as scikit-learn tries it first). */
static double side_impurity(double (*impurity)(const double *, size_t), const double *left,
                            const double *right, const double *u, double *tmp, double wl,
                            double wr, double wu, size_t k)
{
    for (size_t j = 0; j < k; j++)
        tmp[j] = right[j] + u[j];
    double to_right = wl * impurity(left, k) + (wr + wu) * impurity(tmp, k);
    for (size_t j = 0; j < k; j++)
        tmp[j] = left[j] + u[j];
    double to_left = (wl + wu) * impurity(tmp, k) + wr * impurity(right, k);
    return to_left < to_right ? to_left : to_right;
}

/* The sweep keeps only the best cut's left statistics; gain and rank are then computed once
 * by tl_grow_score, so per-cut work is two impurity calls. */
static int best(const void *state, const tl_grow_ctx *g, const tl_node_rows *node, size_t attr,
                tl_split *out, tl_err *err)
{
    (void)state;
    (void)err;
    size_t k = tl_grow_k(g);
    const tl_dataset *d = tl_grow_data(g);
    const tl_grow_params *p = tl_grow_params_of(g);
    const double *x = d->cols[attr].num, *w = node->w;
    const int *y = d->y.code; /* NULL for regression */
    double *children = tl_grow_scratch(g); /* left, right, known, best left, u, tmp */
    double *left = children, *right = children + k, *known = children + 2 * k;
    double *best_left = children + 3 * k;
    memset(children, 0, 3 * k * sizeof *children);
    size_t n_known = node->n;
    while (n_known > 0 && isnan(x[node->sorted[n_known - 1]]))
        n_known--;
    double missing_w = 0, known_w = 0;
    for (size_t i = n_known; i < node->n; i++)
        missing_w += w[node->sorted[i]];
    for (size_t i = 0; i < n_known; i++) {
        tl_grow_add_row(g, known, node->sorted[i], w[node->sorted[i]]);
        known_w += w[node->sorted[i]];
    }
    if (known_w <= 0)
        return 0;
    /* a criterion with a score of its own (friedman_mse) is swept by that score, even when it
     * also has an impurity for the node */
    double (*impurity)(const double *, size_t) =
        p->criterion->score ? NULL : p->criterion->impurity;
    /* a row-form criterion (mae): every cut's left and right losses, from one pass each way */
    const double *loss_l = NULL, *loss_r = NULL;
    int rows_form = tl_grow_cut_losses(g, node->sorted, n_known, &loss_l, &loss_r);
    /* scikit-learn 1.3: the unknown rows join the side that leaves the least impurity, at
     * every cut (u: their statistics, wu their weight) */
    int best_side = impurity && !rows_form && missing_w > 0 && p->missing &&
                    p->missing->scoring == TL_MISSING_SCORE_BEST_BRANCH;
    double *u = children + 4 * k, *with_u = children + 5 * k, wu = missing_w;
    if (best_side) {
        memset(u, 0, k * sizeof *u);
        for (size_t i = n_known; i < node->n; i++)
            tl_grow_add_row(g, u, node->sorted[i], w[node->sorted[i]]);
    }
    double min_leaf = p->min_samples_leaf > 0 ? p->min_samples_leaf : 0;
    double best_child = INFINITY, best_t = 0, wl = 0;
    /* Rows of zero weight are not there (as in scikit-learn): no cut starts or ends at one,
     * so they cannot move a threshold. next: the first row after i with a weight. */
    size_t next = 0;
    for (size_t i = 0; i + 1 < n_known; i++) {
        uint32_t r = node->sorted[i];
        if (y)
            left[y[r]] += w[r];
        else
            tl_grow_add_row(g, left, r, w[r]);
        wl += w[r];
        if (!(w[r] > 0))
            continue;
        if (next <= i)
            for (next = i + 1; next < n_known && !(w[node->sorted[next]] > 0); next++)
                ;
        if (next >= n_known)
            break;
        double xi = x[r], xn = x[node->sorted[next]];
        double wr = known_w - wl;
        if (xn <= xi + TL_VALUE_EPS || wl < min_leaf || wr < min_leaf || wl <= 0 || wr <= 0)
            continue;
        for (size_t j = 0; j < k; j++)
            right[j] = known[j] - left[j];
        /* impurity criteria: least weighted child impurity (row form: as scikit-learn writes
         * it, so equal cuts round alike); partition criteria: the greatest score, negated */
        double child = rows_form ? wl * (loss_l[i] / wl) + wr * (loss_r[i] / wr)
                       : impurity ? wl * impurity(left, k) + wr * impurity(right, k)
                                  : -tl_grow_partition_gain(g, children, 2);
        if (best_side)
            child = side_impurity(impurity, left, right, u, with_u, wl, wr, wu, k);
        /* strict: among equal cuts the lowest threshold wins */
        if (child < best_child) {
            best_child = child;
            double t = xi / 2.0 + xn / 2.0;
            best_t = (t == xn || isinf(t)) ? xi : t;
            memcpy(best_left, left, k * sizeof *left);
        }
    }
    if (best_child == INFINITY)
        return 0;
    memcpy(left, best_left, k * sizeof *left);
    for (size_t j = 0; j < k; j++)
        right[j] = known[j] - left[j];
    out->attr = attr; /* the test first: a row-form criterion scores it from the rows */
    out->kind = TL_SPLIT_NUMERIC;
    out->threshold = best_t;
    return tl_grow_score(g, node, children, 2, missing_w, out);
}

static const tl_splitter_type numeric_threshold = {
    .name = "numeric_threshold",
    .summary = "binary cut at the midpoint of two adjacent distinct values (CART, ID3)",
    .reference = "Breiman et al. (1984), sec. 2.4; as scikit-learn's BestSplitter",
    .kinds = TL_KIND_BIT(TL_ATTR_NUMERIC),
    .best = best,
};

const tl_splitter_type *const tl_splitter_numeric_threshold = &numeric_threshold;
