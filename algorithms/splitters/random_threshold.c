/* One uniform cut per attribute (Geurts, Ernst & Wehenkel, "Extremely randomized trees",
 * Machine Learning 63, 2006): the threshold is drawn uniformly between the node's least and
 * greatest known value, as scikit-learn's RandomSplitter; the criterion only compares the
 * drawn cuts of the attributes that compete. The draw is a function of (fit seed, node,
 * attribute), so a tree does not depend on the thread count. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "treelab/tl_grow.h"

/* SplitMix64, salted apart from random_subset's draw of the same (seed, node, attribute). */
static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

static int best(const void *state, const tl_grow_ctx *g, const tl_node_rows *node, size_t attr,
                tl_split *out, tl_err *err)
{
    (void)state;
    (void)err;
    const tl_dataset *d = tl_grow_data(g);
    const double *x = d->cols[attr].num, *w = node->w;
    double lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < node->n; i++) {
        double v = x[node->rows[i]];
        if (w[node->rows[i]] > 0 && v == v) {
            lo = v < lo ? v : lo;
            hi = v > hi ? v : hi;
        }
    }
    if (!(hi > lo + 1e-7)) /* scikit-learn's FEATURE_THRESHOLD: a constant attribute */
        return 0;
    unsigned long seed = tl_grow_params_of(g)->seed;
    uint64_t r = mix(mix(mix((uint64_t)seed ^ 0x5eedc07ull) ^ (uint64_t)node->id) ^ (uint64_t)attr);
    double u = (double)(r >> 11) * 0x1.0p-53, t = lo + u * (hi - lo);
    if (t >= hi) /* as scikit-learn: a draw that rounds to the top cuts at the bottom */
        t = lo;
    size_t k = tl_grow_k(g);
    double *children = tl_grow_scratch(g), missing_w = 0;
    memset(children, 0, 2 * k * sizeof *children);
    for (size_t i = 0; i < node->n; i++) {
        uint32_t row = node->rows[i];
        double v = x[row];
        if (v != v)
            missing_w += w[row];
        else
            tl_grow_add_row(g, children + (v <= t ? 0 : k), row, w[row]);
    }
    memset(out, 0, sizeof *out);
    out->attr = attr;
    out->kind = TL_SPLIT_NUMERIC;
    out->threshold = t;
    out->n_branches = 2;
    out->missing_branch = -1;
    return tl_grow_score(g, node, children, 2, missing_w, out);
}

static const tl_splitter_type random_threshold = {
    .name = "random_threshold",
    .summary = "one cut drawn uniformly between the node's extreme values (extra-trees)",
    .reference = "Geurts, Ernst & Wehenkel, Extremely randomized trees, Machine Learning 63 (2006)",
    .kinds = TL_KIND_BIT(TL_ATTR_NUMERIC),
    .best = best,
};

const tl_splitter_type *const tl_splitter_random_threshold = &random_threshold;
