/* C4.5's binary threshold on a numeric attribute (release 8, as Weka's J48 does it): cut by
 * information gain with a least branch weight, the gain charged log2(cuts) / |D| for the
 * choice among cuts, the threshold moved down to a value seen in training. */
#include <math.h>
#include <string.h>

#include "treelab/tl_tree.h"

/* J48 treats values closer than this as equal (no cut between them). */
#define TL_C45_VALUE_EPS 1e-5
/* The least branch weight is capped here (C4.5's MINOBJS bound). */
#define TL_C45_MAX_MIN_SPLIT 25.0

/* The training value C4.5 moves the cut to: Weka 3.6's setSplitPoint scans the training
 * rows in order and takes a value t when t <= cut + 1e-6 and t > the value taken so far
 * + 1e-6 (its Utils.smOrEq / Utils.gr). Only values near the largest eligible one can
 * decide, so the scan runs over those (v sorted, rows[i] the row of v[i]); cut itself when no
 * value is eligible. */
static double training_value_at_or_below(const double *v, const uint32_t *rows, size_t n,
                                         double cut)
{
    size_t lo = 0, hi = n; /* first index past the eligible values */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid] - cut < 1e-6)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return cut;
    size_t end = lo, start = lo;
    while (start > 0 && v[start - 1] >= v[end - 1] - 1e-5)
        start--;
    /* in row order: repeatedly take the first row after the last taken that qualifies */
    double taken = -HUGE_VAL;
    uint32_t after = 0;
    int any = 0;
    for (;;) {
        size_t pick = SIZE_MAX;
        for (size_t i = start; i < end; i++)
            if ((!any || rows[i] > after) && (!any || v[i] - taken > 1e-6) &&
                (pick == SIZE_MAX || rows[i] < rows[pick]))
                pick = i;
        if (pick == SIZE_MAX)
            break;
        taken = v[pick];
        after = rows[pick];
        any = 1;
    }
    return taken;
}

static int best(const tl_grow_ctx *g, const tl_node_rows *node, size_t attr, tl_split *out,
                tl_err *err)
{
    (void)err;
    const tl_grow_params *p = tl_grow_params_of(g);
    const tl_dataset *d = tl_grow_data(g);
    size_t k = tl_grow_k(g);
    const double *x = d->cols[attr].num;
    double eps = p->weight_eps;
    double *left = tl_grow_scratch(g), *right = left + k, *known = left + 2 * k;
    memset(left, 0, 3 * k * sizeof *left);

    size_t n_known = node->n;
    while (n_known > 0 && isnan(x[node->sorted[n_known - 1]]))
        n_known--;
    double known_w = 0, total_w = 0;
    for (size_t i = 0; i < node->n; i++)
        total_w += node->w[node->sorted[i]];
    for (size_t i = 0; i < n_known; i++) {
        tl_grow_add_row(g, known, node->sorted[i], node->w[node->sorted[i]]);
        known_w += node->w[node->sorted[i]];
    }
    /* Each side needs 10% of the known weight per class, at least min_leaf, at most 25. */
    size_t n_classes = tl_dataset_n_classes(d) ? tl_dataset_n_classes(d) : 1;
    double min_split = 0.1 * known_w / (double)n_classes;
    if (min_split <= p->min_samples_leaf + eps)
        min_split = p->min_samples_leaf;
    else if (min_split > TL_C45_MAX_MIN_SPLIT + eps)
        min_split = TL_C45_MAX_MIN_SPLIT;
    /* J48 counts rows here, not weight */
    if ((double)n_known < 2 * min_split - eps)
        return 0;

    size_t cuts = 0, best_i = SIZE_MAX;
    double best_gain = 0, best_left_w = 0;
    double lw = 0;
    double (*impurity)(const double *, size_t) = p->criterion->impurity;
    double h_known = impurity(known, k);
    for (size_t i = 0; i + 1 < n_known; i++) {
        uint32_t r = node->sorted[i];
        tl_grow_add_row(g, left, r, node->w[r]);
        lw += node->w[r];
        if (!(x[r] + TL_C45_VALUE_EPS < x[node->sorted[i + 1]]))
            continue;
        if (min_split - lw >= eps || min_split - (known_w - lw) >= eps) /* J48's grOrEq */
            continue;
        for (size_t j = 0; j < k; j++)
            right[j] = known[j] - left[j];
        cuts++;
        /* the criterion's gain (tl_grow_score's formula) without its per-call overheads: this
         * loop is the hot path of a C4.5 fit */
        double gain = (h_known - (lw * impurity(left, k) + (known_w - lw) * impurity(right, k)) /
                                     known_w) *
                      (known_w / total_w);
        if (gain - best_gain > 1e-6) { /* J48's Utils.gr: the first of near-equal cuts */
            best_gain = gain;
            best_i = i;
            best_left_w = lw;
        }
    }
    if (cuts == 0 || best_i == SIZE_MAX)
        return 0;
    /* release 8: the gain pays for the choice among the cuts */
    double gain = best_gain - log2((double)cuts) / total_w;
    if (gain <= 1e-6)
        return 0;
    double branch_w[2] = {best_left_w, known_w - best_left_w};
    double lo = x[node->sorted[best_i]], hi = x[node->sorted[best_i + 1]];
    double cut = (lo + hi) / 2;
    if (cut == hi)
        cut = lo;
    size_t n_train = 0;
    const uint32_t *train_rows = NULL;
    const double *train = tl_grow_train_values(g, attr, &n_train, &train_rows);
    out->attr = attr;
    out->kind = TL_SPLIT_NUMERIC;
    out->threshold = train ? training_value_at_or_below(train, train_rows, n_train, cut) : lo;
    out->n_branches = 2;
    out->gain = gain;
    out->known_weight = known_w;
    out->missing_weight = total_w - known_w;
    out->rank = p->criterion->rank ? p->criterion->rank(gain, branch_w, 2, total_w - known_w)
                                   : gain;
    return 1;
}

static const tl_splitter_type c45_threshold = {
    .name = "c45_threshold",
    .kind = TL_ATTR_NUMERIC,
    .best = best,
    .needs_train_values = 1,
};

const tl_splitter_type *const tl_splitter_c45_threshold = &c45_threshold;
