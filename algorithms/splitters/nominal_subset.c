/* Binary split of a nominal attribute into a subset of levels and the rest (CART). Two
 * classes or regression: levels ordered by class-1 share or mean, then one sweep (Breiman's
 * theorem makes that optimal). More classes: every subset up to 12 present levels; above
 * that, the same sweep with levels ordered by the share of the node's majority class (a
 * heuristic, not guaranteed optimal). Levels absent from the node go right. */
#include <string.h>

#include "treelab/tl_grow.h"

#define TL_SUBSET_EXHAUSTIVE_MAX 12

typedef struct {
    const double *stats;
    size_t k;
    int regression;
    size_t key_class;
} order_ctx;

static double key(const order_ctx *o, size_t level)
{
    const double *s = o->stats + level * o->k;
    if (o->regression)
        return s[1] / s[0];
    double w = 0;
    for (size_t c = 0; c < o->k; c++)
        w += s[c];
    return s[o->key_class] / w;
}

/* Insertion sort: few levels, and stable so ties keep level order. */
static void sort_levels(size_t *lv, size_t n, const order_ctx *o)
{
    for (size_t i = 1; i < n; i++) {
        size_t v = lv[i], j = i;
        double kv = key(o, v);
        while (j > 0 && key(o, lv[j - 1]) > kv) {
            lv[j] = lv[j - 1];
            j--;
        }
        lv[j] = v;
    }
}

static int try_mask(const tl_grow_ctx *g, const tl_node_rows *node, const double *level_stats,
                    const size_t *present, size_t n_present, uint64_t sel, double missing_w,
                    double *children, tl_split *out, int found)
{
    size_t k = tl_grow_k(g);
    memset(children, 0, 2 * k * sizeof *children);
    uint64_t mask = 0;
    for (size_t i = 0; i < n_present; i++) {
        int left = (int)((sel >> i) & 1u);
        const double *s = level_stats + present[i] * k;
        double *dst = children + (left ? 0 : k);
        for (size_t c = 0; c < k; c++)
            dst[c] += s[c];
        if (left)
            mask |= (uint64_t)1 << present[i];
    }
    tl_split cand = *out;
    cand.kind = TL_SPLIT_SUBSET; /* the test first: a row-form criterion scores it from the rows */
    cand.left_mask = mask;
    if (!tl_grow_score(g, node, children, 2, missing_w, &cand))
        return 0;
    if (found && !(cand.gain > out->gain))
        return 0;
    *out = cand;
    return 1;
}

static int best(const void *state, const tl_grow_ctx *g, const tl_node_rows *node, size_t attr,
                tl_split *out, tl_err *err)
{
    (void)state;
    size_t k = tl_grow_k(g);
    const tl_dataset *d = tl_grow_data(g);
    size_t levels = d->schema.attrs[attr].n_levels;
    if (levels > TL_SUBSET_MAX_LEVELS)
        return -tl_err_set(err, TL_EUNSUPPORTED,
                           "attribute '%s' has %zu levels; subset splits take at most %d: "
                           "--ignore %s leaves it out, or a splitter that takes any number "
                           "of levels (--set nominal=nominal_multiway, one branch a level) "
                           "splits it",
                           d->schema.attrs[attr].name, levels, TL_SUBSET_MAX_LEVELS,
                           d->schema.attrs[attr].name);
    double *scratch = tl_grow_scratch(g);
    double *level_stats = scratch, *children = scratch + levels * k;
    size_t *present = (size_t *)(void *)(children + 2 * k); /* levels entries fit in k+1 doubles */
    double missing_w = tl_grow_level_stats(g, node, attr, level_stats);
    size_t n_present = 0;
    order_ctx o = {level_stats, k, d->schema.target.kind == TL_ATTR_NUMERIC, 1};
    for (size_t l = 0; l < levels; l++) {
        double w = 0;
        if (o.regression)
            w = level_stats[l * k];
        else
            for (size_t c = 0; c < k; c++)
                w += level_stats[l * k + c];
        if (w > 0)
            present[n_present++] = l;
    }
    if (n_present < 2)
        return 0;
    out->attr = attr;
    int found = 0;
    if (!o.regression && k > 2 && n_present <= TL_SUBSET_EXHAUSTIVE_MAX) {
        /* the last present level stays right, so each partition is tried once */
        for (uint64_t sel = 1; sel < ((uint64_t)1 << (n_present - 1)); sel++)
            found |= try_mask(g, node, level_stats, present, n_present, sel, missing_w, children,
                              out, found);
        return found;
    }
    if (!o.regression && k > 2) {
        double best_w = -1;
        for (size_t c = 0; c < k; c++)
            if (node->stats[c] > best_w) {
                best_w = node->stats[c];
                o.key_class = c;
            }
    }
    sort_levels(present, n_present, &o);
    for (size_t cut = 1; cut < n_present; cut++) {
        uint64_t sel = ((uint64_t)1 << cut) - 1; /* the first `cut` levels in key order */
        found |= try_mask(g, node, level_stats, present, n_present, sel, missing_w, children, out,
                          found);
    }
    return found;
}

static const tl_splitter_type nominal_subset = {
    .name = "nominal_subset",
    .summary = "binary split into a subset of levels and the rest (CART)",
    .reference = "Breiman et al. (1984), sec. 4.2.2 (ordering theorem for two classes)",
    .kinds = TL_KIND_BIT(TL_ATTR_NOMINAL),
    .best = best,
};

const tl_splitter_type *const tl_splitter_nominal_subset = &nominal_subset;
