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

/* A column's value a few rows ahead asked for early: below the top of the tree a node's rows
 * are far apart in the column, each read a cache miss. */
#if defined(__GNUC__) || defined(__clang__)
#define RT_PREFETCH(p) __builtin_prefetch(p)
#else
#define RT_PREFETCH(p) ((void)(p))
#endif
#define RT_AHEAD 32

/* The least and greatest of v[0..n) in one pass, NaN skipped, the first of equal ones kept
 * (0 and -0 compare equal: which one is kept shows in a cut drawn at the bottom). */
static void first_bounds(const double *v, size_t n, double *lo, double *hi)
{
    double a = INFINITY, b = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        a = v[i] < a ? v[i] : a;
        b = v[i] > b ? v[i] : b;
    }
    *lo = a;
    *hi = b;
}

/* The rows' values into v (in node order), their class codes into cv (NULL: not wanted; else
 * every row weighs 1),
 * the count of unknown values into *unknown, and the least and greatest known value of the
 * rows that weigh something: the one gather of the column. */
static void gather(const double *x, const int *code, const tl_node_rows *node, double *v, int *cv,
                   double *lo, double *hi, size_t *unknown)
{
    const double *w = node->w;
    double a = INFINITY, b = -INFINITY;
    size_t nan = 0;
    if (cv) { /* rows of weight 1: no test, as NaN is neither below a nor above b */
        /* two pairs of bounds, even and odd positions, so that each compare waits on the one
         * two rows back, not on the last */
        double a1 = INFINITY, b1 = -INFINITY;
        size_t n = node->n, i = 0;
        for (; i + 1 < n; i += 2) {
            uint32_t r0 = node->rows[i], r1 = node->rows[i + 1];
            if (i + RT_AHEAD + 1 < n) {
                RT_PREFETCH(&x[node->rows[i + RT_AHEAD]]);
                RT_PREFETCH(&x[node->rows[i + RT_AHEAD + 1]]);
            }
            double x0 = x[r0], x1 = x[r1];
            v[i] = x0;
            v[i + 1] = x1;
            cv[i] = code[r0];
            cv[i + 1] = code[r1];
            nan += (x0 != x0) + (x1 != x1);
            a = x0 < a ? x0 : a;
            b = x0 > b ? x0 : b;
            a1 = x1 < a1 ? x1 : a1;
            b1 = x1 > b1 ? x1 : b1;
        }
        if (i < n) {
            double x0 = x[node->rows[i]];
            v[i] = x0;
            cv[i] = code[node->rows[i]];
            nan += x0 != x0;
            a = x0 < a ? x0 : a;
            b = x0 > b ? x0 : b;
        }
        a = a1 < a ? a1 : a;
        b = b1 > b ? b1 : b;
        if (a == 0 || b == 0) /* a signed zero: the first of equal bounds, as one pass keeps */
            first_bounds(v, n, &a, &b);
    } else
        for (size_t i = 0; i < node->n; i++) {
            uint32_t row = node->rows[i];
            double xi = x[row];
            v[i] = xi;
            nan += xi != xi;
            if (xi == xi && (node->unit_weights || w[row] > 0)) {
                a = xi < a ? xi : a;
                b = xi > b ? xi : b;
            }
        }
    *lo = a;
    *hi = b;
    *unknown = nan;
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

/* Classes up to this many are counted in whole numbers by sides_unit. */
#define RT_COUNT_K 64

/* sides() for rows of weight 1, every value known, classes (cv: their codes in node order,
 * k <= RT_COUNT_K): each side's class weight is a sum of ones, so a whole number, which a
 * count gives exactly (the same bits, from one pass over v and cv in sequence). */
static void sides_unit(size_t n, const double *v, const int *cv, double t, size_t k,
                       double *children)
{
    size_t count[2 * RT_COUNT_K];
    memset(count, 0, 2 * k * sizeof *count);
    if (k == 2) { /* the left side's rows and its class-1 rows, without a store per row */
        size_t nl = 0, l1 = 0, n1 = 0;
        for (size_t i = 0; i < n; i++) {
            size_t le = v[i] <= t, c = (size_t)cv[i];
            nl += le;
            l1 += le & c;
            n1 += c;
        }
        count[0] = nl - l1, count[1] = l1, count[2] = (n - nl) - (n1 - l1), count[3] = n1 - l1;
    } else {
        for (size_t i = 0; i < n; i++)
            count[(v[i] <= t ? 0 : k) + (size_t)cv[i]]++;
    }
    for (size_t j = 0; j < 2 * k; j++)
        children[j] += (double)count[j];
}

static int best(const void *state, const tl_grow_ctx *g, const tl_node_rows *node, size_t attr,
                tl_split *out, tl_err *err)
{
    (void)state;
    const tl_dataset *d = tl_grow_data(g);
    size_t k = tl_grow_k(g), unknown;
    int unit = node->unit_weights && tl_dataset_is_classification(d) && k <= RT_COUNT_K;
    double stack[RT_STACK_ROWS], lo, hi;
    int cstack[RT_STACK_ROWS];
    double *v = node->n <= RT_STACK_ROWS ? stack : malloc(node->n * sizeof *v);
    int *cv = !unit ? NULL : node->n <= RT_STACK_ROWS ? cstack : malloc(node->n * sizeof *cv);
    if (!v || (unit && !cv)) {
        if (v != stack)
            free(v);
        return -tl_err_set(err, TL_ENOMEM, "out of memory");
    }
    gather(d->cols[attr].num, unit ? d->y.code : NULL, node, v, cv, &lo, &hi, &unknown);
    int found = 0;
    if (hi > lo + 1e-7) { /* else scikit-learn's FEATURE_THRESHOLD: a constant attribute */
        unsigned long seed = tl_grow_params_of(g)->seed;
        uint64_t r =
            mix(mix(mix((uint64_t)seed ^ 0x5eedc07ull) ^ (uint64_t)node->id) ^ (uint64_t)attr);
        double u = (double)(r >> 11) * 0x1.0p-53, t = lo + u * (hi - lo);
        if (t >= hi) /* as scikit-learn: a draw that rounds to the top cuts at the bottom */
            t = lo;
        double *children = tl_grow_scratch(g), missing_w = 0;
        memset(children, 0, 2 * k * sizeof *children);
        if (unit && !unknown)
            sides_unit(node->n, v, cv, t, k, children);
        else
            missing_w = sides(g, node, v, t, children);
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
    if (cv && cv != cstack)
        free(cv);
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
