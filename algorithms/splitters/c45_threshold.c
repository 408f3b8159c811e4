/* C4.5's binary threshold on a numeric attribute (release 8, as Weka's J48 does it): cut by
 * information gain with a least branch weight, the gain charged log2(cuts) / |D| for the
 * choice among cuts, the threshold moved down to a value seen in training. */
#include <math.h>
#include <stdlib.h>
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

/* The node's rows in the attribute's order, gathered once so the scan reads memory in
 * sequence: value, weight and class of each. */
typedef struct {
    const double *x, *w;
    const int *y;
} sorted_rows;

/* Copies k class weights. Few classes are the rule, and a loop here becomes a memcpy call
 * that cost more than the copy (7% of a fit on 10^5 rows). */
static void copy_stats(double *dst, const double *src, size_t k)
{
    switch (k) {
    case 3:
        dst[2] = src[2];
        dst[1] = src[1];
        dst[0] = src[0];
        return;
    case 2:
        dst[1] = src[1];
        dst[0] = src[0];
        return;
    default:
        memcpy(dst, src, k * sizeof *dst);
    }
}

/* c log2 c per class, remembered for the count it was computed at: consecutive cuts move a
 * few rows, so most classes' terms repeat and their log2 is not taken again. */
typedef struct {
    double *count, *term; /* k each */
} xlogx_cache;

static double cached_xlogx(xlogx_cache *m, size_t c, double v)
{
    if (v != m->count[c]) {
        m->count[c] = v;
        m->term[c] = v > 0 ? v * log2(v) : 0;
    }
    return m->term[c];
}

/* w times the entropy (bits) of the class weights c[0..k) that sum to w: w log2 w minus the
 * sum of c log2 c, the form J48 computes, with no division per class. */
static double weighted_entropy(const double *c, size_t k, double w, xlogx_cache *m)
{
    double s = w > 0 ? w * log2(w) : 0;
    for (size_t j = 0; j < k; j++)
        s -= cached_xlogx(m, j, c[j]);
    return s;
}

/* Gain of a cut from its left statistics (lw their weight): tl_grow_score's formula, with the
 * children's entropies in weighted form. right is scratch. */
static double cut_gain(const double *left, double *right, const double *known, size_t k,
                       double lw, double known_w, double total_w, double h_known,
                       xlogx_cache *ml, xlogx_cache *mr)
{
    for (size_t j = 0; j < k; j++)
        right[j] = known[j] - left[j];
    double child = weighted_entropy(left, k, lw, ml) + weighted_entropy(right, k, known_w - lw, mr);
    return (h_known - child / known_w) * (known_w / total_w);
}

/* Finds J48's cut: of the admissible cuts (between distinct values, min_split weight on each
 * side), in order, the first that beats the best so far by more than 1e-6. Computing every
 * cut's entropy is the hot path of a C4.5 fit, so cuts inside a run that only moves rows of
 * one class are skipped when they cannot win: along such a run the child entropy is concave
 * in the weight moved (Fayyad & Irani 1992), so no gain inside exceeds the larger of the
 * run's two ends. The result is the same cut as the plain scan. */
static int scan_cuts(const tl_grow_ctx *g, const sorted_rows *sr, size_t n_known,
                     const double *known, double known_w, double total_w, double min_split,
                     double eps, size_t *cuts, size_t *best_i, double *best_gain,
                     double *best_left_w, tl_err *err)
{
    size_t k = tl_grow_k(g);
    double (*impurity)(const double *, size_t) = tl_grow_params_of(g)->criterion->impurity;
    double h_known = impurity(known, k);
    double *left = tl_grow_scratch(g) + 3 * k, *right = left + k;
    size_t m = n_known ? n_known : 1;
    /* per admissible cut: its row, the left statistics and weight, the class it moved */
    size_t *pos = malloc(m * sizeof *pos), *run_end = malloc(m * sizeof *run_end);
    int *moved = malloc(m * sizeof *moved);
    double *lw_at = malloc(m * sizeof *lw_at), *gain = malloc(m * sizeof *gain);
    double *left_at = malloc(m * k * sizeof *left_at);
    double *cache = malloc(4 * k * sizeof *cache);
    int rc = TL_OK;
    if (!pos || !run_end || !moved || !lw_at || !gain || !left_at || !cache) {
        rc = tl_err_set(err, TL_ENOMEM, "out of memory");
        goto done;
    }
    size_t nc = 0;
    double lw = 0;
    int cls = -2; /* -2: no row moved yet, -1: several classes */
    memset(left, 0, k * sizeof *left);
    for (size_t i = 0; i + 1 < n_known; i++) {
        left[sr->y[i]] += sr->w[i];
        lw += sr->w[i];
        cls = cls == -2 ? sr->y[i] : (cls == sr->y[i] ? cls : -1);
        if (!(sr->x[i] + TL_C45_VALUE_EPS < sr->x[i + 1]))
            continue;
        if (min_split - lw >= eps || min_split - (known_w - lw) >= eps) /* J48's grOrEq */
            continue;
        pos[nc] = i;
        moved[nc] = nc ? cls : -1;
        lw_at[nc] = lw;
        copy_stats(left_at + nc * k, left, k);
        nc++;
        cls = -2;
    }
    *cuts = nc;
    /* a cut is inside a run when the rows moved to reach it and to leave it share one class */
#define TL_INSIDE(j) ((j) > 0 && (j) + 1 < nc && moved[j] >= 0 && moved[(j) + 1] == moved[j])
    xlogx_cache ml = {cache, cache + k}, mr = {cache + 2 * k, cache + 3 * k};
    for (size_t c = 0; c < k; c++)
        ml.count[c] = mr.count[c] = -1; /* no weight is negative: nothing cached yet */
#define TL_GAIN(j)                                                                              \
    cut_gain(left_at + (j) * k, right, known, k, lw_at[j], known_w, total_w, h_known, &ml, &mr)
    for (size_t j = nc; j-- > 0;)
        run_end[j] = TL_INSIDE(j) ? run_end[j + 1] : j;
    for (size_t j = 0; j < nc; j++) /* forward, so the cached terms carry from cut to cut */
        if (!TL_INSIDE(j))
            gain[j] = TL_GAIN(j);
    /* J48's rule, computing a cut inside a run only when its run's ends allow a win */
    size_t run_start = 0;
    for (size_t j = 0; j < nc; j++) {
        double gj;
        if (!TL_INSIDE(j)) {
            gj = gain[j];
            run_start = j;
        } else {
            if (fmax(gain[run_start], gain[run_end[j]]) - *best_gain <= 1e-6 - 1e-12)
                continue;
            gj = TL_GAIN(j);
        }
        if (gj - *best_gain > 1e-6) { /* J48's Utils.gr: the first of near-equal cuts */
            *best_gain = gj;
            *best_i = pos[j];
            *best_left_w = lw_at[j];
        }
    }
#undef TL_GAIN
#undef TL_INSIDE
done:
    free(pos);
    free(run_end);
    free(moved);
    free(lw_at);
    free(gain);
    free(left_at);
    free(cache);
    return rc;
}

static int best(const tl_grow_ctx *g, const tl_node_rows *node, size_t attr, tl_split *out,
                tl_err *err)
{

    const tl_grow_params *p = tl_grow_params_of(g);
    const tl_dataset *d = tl_grow_data(g);
    size_t k = tl_grow_k(g);
    const double *x = d->cols[attr].num;
    double eps = p->weight_eps;
    double *known = tl_grow_scratch(g) + 2 * k; /* scan_cuts uses the 3k after it */
    memset(known, 0, k * sizeof *known);

    size_t n_known = node->n;
    while (n_known > 0 && isnan(x[node->sorted[n_known - 1]]))
        n_known--;
    double *buf = malloc((n_known ? n_known : 1) * (2 * sizeof(double) + sizeof(int)));
    if (!buf)
        return -tl_err_set(err, TL_ENOMEM, "out of memory");
    double *xs = buf, *ws = buf + n_known;
    int *ys = (int *)(void *)(ws + n_known);
    double known_w = 0, total_w = 0;
    for (size_t i = n_known; i < node->n; i++) /* the unknown values, sorted last */
        total_w += node->w[node->sorted[i]];
    for (size_t i = 0; i < n_known; i++) {
        uint32_t r = node->sorted[i];
        xs[i] = x[r];
        ws[i] = node->w[r];
        ys[i] = d->y.code[r];
        known[ys[i]] += ws[i];
        known_w += ws[i];
    }
    total_w += known_w;
    sorted_rows sr = {xs, ws, ys};
    /* Each side needs 10% of the known weight per class, at least min_leaf, at most 25. */
    size_t n_classes = tl_dataset_n_classes(d) ? tl_dataset_n_classes(d) : 1;
    double min_split = 0.1 * known_w / (double)n_classes;
    if (min_split <= p->min_samples_leaf + eps)
        min_split = p->min_samples_leaf;
    else if (min_split > TL_C45_MAX_MIN_SPLIT + eps)
        min_split = TL_C45_MAX_MIN_SPLIT;
    /* J48 counts rows here, not weight */
    if ((double)n_known < 2 * min_split - eps) {
        free(buf);
        return 0;
    }

    size_t cuts = 0, best_i = SIZE_MAX;
    double best_gain = 0, best_left_w = 0;
    int rc = scan_cuts(g, &sr, n_known, known, known_w, total_w, min_split, eps, &cuts, &best_i,
                       &best_gain, &best_left_w, err);
    free(buf);
    if (rc)
        return -rc;
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
