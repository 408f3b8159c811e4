/* One uniform cut per attribute (Geurts, Ernst & Wehenkel, "Extremely randomized trees",
 * Machine Learning 63, 2006): the threshold is drawn uniformly between the node's least and
 * greatest known value, as scikit-learn's RandomSplitter; the criterion only compares the
 * drawn cuts of the attributes that compete. The draw is a function of (fit seed, node,
 * attribute), so a tree does not depend on the thread count. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
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

/* Up to this many rows a node's values are gathered on the stack, above into the heap. */
#define RT_STACK_ROWS 2048

/* The rows' values into v (in node order), and the least and greatest known value of the rows
 * that weigh something: the one gather of the column. */
static void gather(const double *x, const tl_node_rows *node, double *v, double *lo, double *hi)
{
    const double *w = node->w;
    double a = INFINITY, b = -INFINITY;
    if (node->unit_weights) /* every row counts; an unknown value compares false both ways */
        for (size_t i = 0; i < node->n; i++) {
            double xi = x[node->rows[i]];
            v[i] = xi;
            a = xi < a ? xi : a;
            b = xi > b ? xi : b;
        }
    for (size_t i = 0; i < node->n && !node->unit_weights; i++) {
        uint32_t row = node->rows[i];
        double xi = x[row];
        v[i] = xi;
        if (xi == xi && w[row] > 0) {
            a = xi < a ? xi : a;
            b = xi > b ? xi : b;
        }
    }
    *lo = a;
    *hi = b;
}

/* Classes whose left counts sides_counted keeps in whole numbers on the stack. */
#define RT_COUNTED_CLASSES 64

/* Classification with unit weights: the left side's class counts as integers, the right's the
 * node's counts less those (the same doubles: whole numbers below 2^53). 0 when some value is
 * unknown or there are too many classes: sides then sums the node. */
static int sides_counted(const tl_node_rows *node, const int *code, size_t k, const double *v,
                         double t, double *children)
{
    uint32_t left[RT_COUNTED_CLASSES] = {0};
    size_t unknown = 0;
    if (k > RT_COUNTED_CLASSES)
        return 0;
    for (size_t i = 0; i < node->n; i++) {
        left[code[node->rows[i]]] += v[i] <= t;
        unknown += v[i] != v[i];
    }
    if (unknown)
        return 0;
    for (size_t c = 0; c < k; c++) {
        children[c] = (double)left[c];
        children[k + c] = node->stats[c] - (double)left[c];
    }
    return 1;
}

/* The two sides' statistics (children: 2 x k, zero) of the cut at t over the gathered values;
 * returns the weight whose value is unknown. */
static double sides(const tl_grow_ctx *g, const tl_node_rows *node, const double *v, double t,
                    double *children)
{
    const tl_dataset *d = tl_grow_data(g);
    const double *w = node->w;
    size_t k = tl_grow_k(g);
    /* a class's weight added in place (tl_grow_add_row's sum, without a call per row) */
    const int *code = tl_dataset_is_classification(d) ? d->y.code : NULL;
    double missing_w = 0;
    if (code && node->unit_weights && sides_counted(node, code, k, v, t, children))
        return 0;
    for (size_t i = 0; i < node->n; i++) {
        uint32_t row = node->rows[i];
        if (v[i] != v[i])
            missing_w += w[row];
        else if (code)
            children[(v[i] <= t ? 0 : k) + (size_t)code[row]] += w[row];
        else
            tl_grow_add_row(g, children + (v[i] <= t ? 0 : k), row, w[row]);
    }
    return missing_w;
}

static int best(const void *state, const tl_grow_ctx *g, const tl_node_rows *node, size_t attr,
                tl_split *out, tl_err *err)
{
    (void)state;
    double stack[RT_STACK_ROWS], lo, hi;
    double *v = node->n <= RT_STACK_ROWS ? stack : malloc(node->n * sizeof *v);
    if (!v)
        return -tl_err_set(err, TL_ENOMEM, "out of memory");
    gather(tl_grow_data(g)->cols[attr].num, node, v, &lo, &hi);
    int found = 0;
    if (hi > lo + 1e-7) { /* else scikit-learn's FEATURE_THRESHOLD: a constant attribute */
        unsigned long seed = tl_grow_params_of(g)->seed;
        uint64_t r =
            mix(mix(mix((uint64_t)seed ^ 0x5eedc07ull) ^ (uint64_t)node->id) ^ (uint64_t)attr);
        double u = (double)(r >> 11) * 0x1.0p-53, t = lo + u * (hi - lo);
        if (t >= hi) /* as scikit-learn: a draw that rounds to the top cuts at the bottom */
            t = lo;
        double *children = tl_grow_scratch(g);
        memset(children, 0, 2 * tl_grow_k(g) * sizeof *children);
        double missing_w = sides(g, node, v, t, children);
        memset(out, 0, sizeof *out);
        out->attr = attr;
        out->kind = TL_SPLIT_NUMERIC;
        out->threshold = t;
        out->n_branches = 2;
        out->missing_branch = -1;
        found = tl_grow_score(g, node, children, 2, missing_w, out);
    }
    if (v != stack)
        free(v);
    return found;
}

static const tl_splitter_type random_threshold = {
    .name = "random_threshold",
    .summary = "one cut drawn uniformly between the node's extreme values (extra-trees)",
    .reference = "Geurts, Ernst & Wehenkel, Extremely randomized trees, Machine Learning 63 (2006)",
    .kinds = TL_KIND_BIT(TL_ATTR_NUMERIC),
    .best = best,
};

const tl_splitter_type *const tl_splitter_random_threshold = &random_threshold;
