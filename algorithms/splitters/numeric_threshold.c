/* Binary threshold on a numeric attribute: one sweep over the node's rows pre-sorted by the
 * attribute, cut at the midpoint of two adjacent distinct values (CART, ID3). */
#include <math.h>
#include <string.h>

#include "treelab/tl_tree.h"

/* scikit-learn's FEATURE_THRESHOLD: values closer than this are not cut between. */
#define TL_VALUE_EPS 1e-7

static int best(const tl_grow_ctx *g, const tl_node_rows *node, size_t attr, tl_split *out,
                tl_err *err)
{
    (void)err;
    size_t k = tl_grow_k(g);
    const double *x = tl_grow_data(g)->cols[attr].num;
    double *children = tl_grow_scratch(g); /* left then right */
    double *left = children, *right = children + k, *known = children + 2 * k;
    memset(children, 0, 3 * k * sizeof *children);
    size_t n_known = node->n;
    while (n_known > 0 && isnan(x[node->sorted[n_known - 1]]))
        n_known--;
    double missing_w = 0;
    for (size_t i = n_known; i < node->n; i++)
        missing_w += node->w[node->sorted[i]];
    for (size_t i = 0; i < n_known; i++)
        tl_grow_add_row(g, known, node->sorted[i], node->w[node->sorted[i]]);
    int found = 0;
    tl_split cand = *out;
    for (size_t i = 0; i + 1 < n_known; i++) {
        uint32_t r = node->sorted[i];
        tl_grow_add_row(g, left, r, node->w[r]);
        double xi = x[r], xn = x[node->sorted[i + 1]];
        if (xn <= xi + TL_VALUE_EPS)
            continue;
        for (size_t j = 0; j < k; j++)
            right[j] = known[j] - left[j];
        if (!tl_grow_score(g, node, children, 2, missing_w, &cand))
            continue;
        /* strict: among equal gains the lowest threshold wins */
        if (!found || cand.gain > out->gain) {
            double t = xi / 2.0 + xn / 2.0;
            if (t == xn || isinf(t))
                t = xi;
            cand.kind = TL_SPLIT_NUMERIC;
            cand.threshold = t;
            cand.attr = attr;
            *out = cand;
            found = 1;
        }
    }
    return found;
}

static const tl_splitter_type numeric_threshold = {
    .name = "numeric_threshold",
    .kind = TL_ATTR_NUMERIC,
    .best = best,
};

const tl_splitter_type *const tl_splitter_numeric_threshold = &numeric_threshold;
