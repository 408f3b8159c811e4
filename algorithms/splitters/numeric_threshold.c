/* Binary threshold on a numeric attribute: one sweep over the node's rows pre-sorted by the
 * attribute, cut at the midpoint of two adjacent distinct values (CART, ID3). */
#include <math.h>
#include <string.h>

#include "threshold.h"
#include "treelab/tl_grow.h"

/* A cut between adjacent values xi < xn leaving weights wl and wr is admissible. */
static inline int cut_allowed(double xi, double xn, double wl, double wr, double min_leaf)
{
    return !(xn <= xi + TL_VALUE_EPS) && tl_cut_weights_ok(wl, wr, min_leaf);
}

/* Where a unit-weight sweep reads its rows in sorted order: the packed values xs and class
 * codes ys, or the compact records rec (row above shift, class code, cut bit). */
typedef struct sweep_src {
    const double *xs;
    const int *ys;
    const uint32_t *rec;
    unsigned shift;
} sweep_src;

/* The best cut of a node whose rows all weigh 1 and whose unknown values do not take part,
 * from src (sequential reads only): the same sums, in the same order, as the general sweep
 * of best() with w = 1, so the same cut. With gini set the impurity is tl_gini_impurity
 * inlined (the criterion declares TL_IMPURITY_GINI), for K classes when K > 0. Returns the least
 * weighted child impurity (INFINITY: no admissible cut), the row position i of its cut
 * (between i and i + 1) and its left counts. */
static inline double sweep_unit(sweep_src src, size_t n_known, const double *known, double known_w,
                                double min_leaf, double (*impurity)(const double *, size_t),
                                int gini, size_t K, size_t k, double *left, double *right,
                                double *best_left, size_t *best_i)
{
    if (K)
        k = K;
    double best_child = INFINITY, wl = 0;
    uint32_t cmask = src.rec ? (1u << (src.shift - TL_REC_CLASS_SHIFT)) - 1 : 0;
    /* Gini: the sums of squared class counts on each side, kept up to date per row, bound
     * each cut's weighted impurity v = wl - sl / wl + wr - sr / wr without a division:
     * whole numbers below 2^52, so the bound's rounding is below 2^-48 n, as is that of the
     * exact formula; a cut whose bound exceeds the best by TL_GINI_SKIP n cannot be chosen
     * and is skipped, every other cut is scored exactly as before (same bits, same cut). */
    int bound = gini && known_w <= TL_GINI_BOUND_MAX_ROWS;
    double sl = 0, sr = 0, margin = TL_GINI_SKIP * known_w;
    for (size_t j = 0; j < k && bound; j++)
        sr += known[j] * known[j];
    for (size_t i = 0; i + 1 < n_known; i++) {
        int c = src.rec ? (int)((src.rec[i] >> TL_REC_CLASS_SHIFT) & cmask) : src.ys[i];
        if (bound) {
            sl += 2 * left[c] + 1;
            sr -= 2 * (known[c] - left[c]) - 1;
        }
        left[c] += 1.0;
        wl += 1.0;
        double wr = known_w - wl;
        if (src.rec ? !(src.rec[i + 1] & TL_REC_CUT) || !tl_cut_weights_ok(wl, wr, min_leaf)
                    : !cut_allowed(src.xs[i], src.xs[i + 1], wl, wr, min_leaf))
            continue;
        if (bound && best_child < INFINITY) {
            double prod = wl * wr; /* v * prod against (best + margin) * prod */
            if (known_w * prod - (sl * wr + sr * wl) > (best_child + margin) * prod)
                continue;
        }
        for (size_t j = 0; j < k; j++)
            right[j] = known[j] - left[j];
        double child = gini ? wl * tl_gini_impurity(left, k) + wr * tl_gini_impurity(right, k)
                            : wl * impurity(left, k) + wr * impurity(right, k);
        if (child < best_child) { /* strict: among equal cuts the lowest threshold wins */
            best_child = child;
            *best_i = i;
            memcpy(best_left, left, k * sizeof *left);
        }
    }
    return best_child;
}

/* sweep_unit for two-class Gini on records: the class-1 count kept in an integer, the bound
 * tested at every row so that the one branch taken per row is rarely taken (ties make the cut
 * bit unpredictable). The counts, sums of squares and impurities are the same whole numbers
 * and the same bits as sweep_unit's, so the same cuts are skipped and chosen. */
static double sweep_rec_gini2(const uint32_t *rec, size_t n, const double *known, double known_w,
                              double min_leaf, double *best_left, size_t *best_i)
{
    double best_child = INFINITY, margin = TL_GINI_SKIP * known_w;
    int bound = known_w <= TL_GINI_BOUND_MAX_ROWS;
    uint64_t l1 = 0;
    /* the cuts whose sides hold enough weight: rows lo .. end - 1 on the left's end */
    size_t lo = 0, end = n > 0 ? n - 1 : 0;
    while (lo < end && !tl_cut_weights_ok((double)(lo + 1), known_w - (double)(lo + 1), min_leaf))
        lo++;
    while (end > lo && !tl_cut_weights_ok((double)end, known_w - (double)end, min_leaf))
        end--;
    for (size_t i = 0; i < lo; i++)
        l1 += (rec[i] >> TL_REC_CLASS_SHIFT) & 1u;
    for (size_t i = lo; i < end; i++) {
        l1 += (rec[i] >> TL_REC_CLASS_SHIFT) & 1u;
        double wl = (double)(i + 1), wr = known_w - wl;
        double left[2] = {wl - (double)l1, (double)l1};
        double right[2] = {known[0] - left[0], known[1] - left[1]};
        double sl = left[0] * left[0] + left[1] * left[1];
        double sr = right[0] * right[0] + right[1] * right[1];
        double prod = wl * wr; /* v * prod against (best + margin) * prod; INFINITY: none yet */
        int skip = bound & (known_w * prod - (sl * wr + sr * wl) > (best_child + margin) * prod);
        if (!((rec[i + 1] & TL_REC_CUT) & (uint32_t)!skip))
            continue;
        double child = wl * tl_gini_impurity(left, 2) + wr * tl_gini_impurity(right, 2);
        if (child < best_child) { /* strict: among equal cuts the lowest threshold wins */
            best_child = child;
            *best_i = i;
            memcpy(best_left, left, sizeof left);
        }
    }
    return best_child;
}

/* sweep_unit specialised: Gini on two classes or any number, any impurity; each from the
 * packed values or the records. */
static double sweep_unit_gini2(sweep_src src, size_t n, const double *known, double known_w,
                               double min_leaf, double *left, double *right, double *best_left,
                               size_t *best_i)
{
    (void)left;
    (void)right;
    return src.rec ? sweep_rec_gini2(src.rec, n, known, known_w, min_leaf, best_left, best_i)
                   : sweep_unit((sweep_src){src.xs, src.ys, NULL, 0}, n, known, known_w, min_leaf,
                                NULL, 1, 2, 2, left, right, best_left, best_i);
}

static double sweep_unit_any(sweep_src src, size_t n, const double *known, double known_w,
                             double min_leaf, double (*impurity)(const double *, size_t), int gini,
                             size_t k, double *left, double *right, double *best_left,
                             size_t *best_i)
{
    return src.rec ? sweep_unit((sweep_src){NULL, NULL, src.rec, src.shift}, n, known, known_w,
                                min_leaf, impurity, gini, 0, k, left, right, best_left, best_i)
                   : sweep_unit((sweep_src){src.xs, src.ys, NULL, 0}, n, known, known_w, min_leaf,
                                impurity, gini, 0, k, left, right, best_left, best_i);
}

/* The unit-weight sweep for the criterion, its threshold into *best_t. */
static double sweep_fast(const tl_grow_params *p, const double *x, sweep_src src, size_t n,
                         const double *known, double known_w, double min_leaf, size_t k,
                         double *left, double *right, double *best_left, double *best_t)
{
    size_t i = 0;
    double child;
    int gini = p->criterion->form == TL_IMPURITY_GINI;
    if (gini && k == 2)
        child = sweep_unit_gini2(src, n, known, known_w, min_leaf, left, right, best_left, &i);
    else
        child = sweep_unit_any(src, n, known, known_w, min_leaf, p->criterion->impurity,
                               gini, k, left, right, best_left, &i);
    if (child < INFINITY)
        *best_t = src.rec ? tl_midpoint(x[src.rec[i] >> src.shift], x[src.rec[i + 1] >> src.shift])
                          : tl_midpoint(src.xs[i], src.xs[i + 1]);
    return child;
}

/* Classes (or statistics) up to this many are scored in place by partition_score. */
#define NT_SCORE_K 64

/* A criterion's own score of the cut whose sides are left and right (children: k each, in a
 * row): tl_grow_partition_gain's arithmetic (the parent as 0 + left + right, the known
 * weight as 0 + the sides' weights), negated, without its call per cut. score: the
 * criterion's score for this task. */
static inline double partition_score(double (*score)(const void *, const double *, const double *,
                                                     size_t, size_t),
                                     const void *state, const double *children, size_t k,
                                     int regression)
{
    double parent[NT_SCORE_K], known = 0;
    for (size_t j = 0; j < k; j++) {
        parent[j] = 0;
        parent[j] += children[j];
        parent[j] += children[k + j];
    }
    for (size_t b = 0; b < 2; b++) {
        double w = 0;
        if (regression)
            w = children[b * k];
        else
            for (size_t j = 0; j < k; j++)
                w += children[b * k + j];
        known += w;
    }
    return -(known > 0 ? score(state, parent, children, 2, k) : 0);
}

/* The first row after i that weighs something, from next (the last one found): rows of zero
 * weight are not there, so no cut starts or ends at one. */
static inline size_t weighted_after(const uint32_t *sorted, const double *w, size_t n, size_t i,
                                    size_t next)
{
    if (next <= i)
        for (next = i + 1; next < n && !(w[sorted[next]] > 0); next++)
            ;
    return next;
}

/* The general sweep below for a numeric target scored by Friedman's closed form (gradient
 * boosting's trees): the same sums in the same order, the same rows skipped and the same
 * score as partition_score's call (the parent and its weight as 0 + left + right), with the
 * statistics in registers and no call per cut; unit: every row weighs 1 (1.0 * y is y, and
 * the next row always weighs something), when the weights are not read at all. Returns the least negated score (INFINITY:
 * no admissible cut), its threshold into *best_t and its left statistics into best_left. */
static inline double sweep_friedman(const uint32_t *sorted, const double *xs, const double *x,
                                    const double *w, const double *ynum, size_t n_known,
                                    const double *known, double known_w, double min_leaf,
                                    int unit, double *best_left, double *best_t)
{
    double l0 = 0, l1 = 0, l2 = 0, best_child = INFINITY; /* l0: the left weight */
    size_t next = 0;
    for (size_t i = 0; i + 1 < n_known; i++) {
        uint32_t r = sorted[i];
        double wi = unit ? 1.0 : w[r], yi = ynum[r];
        l0 += wi;
        l1 += wi * yi;
        l2 += wi * yi * yi;
        if (!(wi > 0))
            continue;
        next = unit ? i + 1 : weighted_after(sorted, w, n_known, i, next);
        if (next >= n_known)
            break;
        double xi = xs ? xs[i] : x[r], xn = xs ? xs[next] : x[sorted[next]];
        if (!cut_allowed(xi, xn, l0, known_w - l0, min_leaf))
            continue;
        double r0 = known[0] - l0, r1 = known[1] - l1;
        double parent_w = (0 + l0) + r0;
        double child = -(parent_w > 0 ? tl_friedman_score(parent_w, l0, l1, r0, r1) : 0);
        if (child < best_child) { /* strict: among equal cuts the lowest threshold wins */
            best_child = child;
            *best_t = tl_midpoint(xi, xn);
            best_left[0] = l0;
            best_left[1] = l1;
            best_left[2] = l2;
        }
    }
    return best_child;
}

/* The general sweep below for two classes by Gini with weighted rows (a forest's bootstrap
 * counts): the same sums in the same order (adding +0.0 to the other class's sum changes no
 * bit, tl_kept_weight), the same rows skipped and tl_gini_impurity on the same two numbers,
 * with the sums in registers. Returns the least weighted child impurity (INFINITY: no
 * admissible cut), its threshold into *best_t and its left counts into best_left. */
static double sweep_gini2_weighted(const uint32_t *sorted, const double *xs, const int *cls,
                                   const double *w, size_t n_known, const double *known,
                                   double known_w, double min_leaf, double *best_left,
                                   double *best_t)
{
    double l0 = 0, l1 = 0, wl = 0, best_child = INFINITY;
    size_t next = 0;
    for (size_t i = 0; i + 1 < n_known; i++) {
        double wi = w[sorted[i]];
        l0 += tl_kept_weight(wi, cls[i] == 0);
        l1 += tl_kept_weight(wi, cls[i] == 1);
        wl += wi;
        if (!(wi > 0))
            continue;
        next = weighted_after(sorted, w, n_known, i, next);
        if (next >= n_known)
            break;
        double wr = known_w - wl;
        if (!cut_allowed(xs[i], xs[next], wl, wr, min_leaf))
            continue;
        double left[2] = {l0, l1}, right[2] = {known[0] - l0, known[1] - l1};
        double child = wl * tl_gini_impurity(left, 2) + wr * tl_gini_impurity(right, 2);
        if (child < best_child) { /* strict: among equal cuts the lowest threshold wins */
            best_child = child;
            *best_t = tl_midpoint(xs[i], xs[next]);
            best_left[0] = l0;
            best_left[1] = l1;
        }
    }
    return best_child;
}

/* The sweep keeps only the best cut's left statistics; gain and rank are then computed once
 * by tl_grow_score, so per-cut work is two impurity calls. */
static int best(const void *state, const tl_grow_ctx *g, const tl_node_rows *node, size_t attr,
                tl_split *out, tl_err *err)
{
    (void)state;
    size_t k = tl_grow_k(g);
    const tl_dataset *d = tl_grow_data(g);
    const tl_grow_params *p = tl_grow_params_of(g);
    const double *x = d->cols[attr].num, *w = node->w;
    const double *xs = tl_grow_view(g, node, attr, TL_VIEW_VALUES);
    const int *y = d->y.code;              /* NULL for regression */
    double *children = tl_grow_scratch(g); /* left, right, known, best left, u, tmp */
    double *left = children, *right = children + k, *known = children + 2 * k;
    double *best_left = children + 3 * k;
    memset(children, 0, 3 * k * sizeof *children);
    double min_leaf = p->min_samples_leaf > 0 ? p->min_samples_leaf : 0;
    double best_child = INFINITY, best_t = 0, wl = 0;
    const uint32_t *rec = tl_grow_view(g, node, attr, TL_VIEW_RECORDS);
    if (rec) { /* rows of weight 1, none unknown, an impurity: the node's counts */
        memcpy(known, node->stats, k * sizeof *known);
        unsigned shift = tlg_record_shift(g);
        best_child = sweep_fast(p, x, (sweep_src){NULL, NULL, rec, shift}, node->n, known,
                                (double)node->n, min_leaf, k, left, right, best_left, &best_t);
        return tl_threshold_found(g, node, attr, children, k, best_child, best_t, 0, out);
    }
    const uint32_t *sorted = tl_grow_view(g, node, attr, TL_VIEW_SORTED);
    if (!sorted)
        return -tl_err_set(err, TL_ENOMEM, "out of memory sorting %zu rows", node->n);
    size_t n_known = node->n;
    while (n_known > 0 && isnan(xs ? xs[n_known - 1] : x[sorted[n_known - 1]]))
        n_known--;
    double missing_w = 0, known_w = 0;
    for (size_t i = n_known; i < node->n; i++)
        missing_w += w[sorted[i]];
    const int *ys = /* the fast path's */
        node->unit_weights ? tl_grow_view(g, node, attr, TL_VIEW_CLASSES) : NULL;
    if (ys && n_known == node->n) { /* whole-number sums, exact in any order: the node's */
        memcpy(known, node->stats, k * sizeof *known);
        known_w = (double)n_known;
    }
    for (size_t i = 0; i < n_known && !(ys && n_known == node->n); i++) {
        if (ys) {
            known[ys[i]] += 1.0;
            known_w += 1.0;
            continue;
        }
        if (!y && k == TL_REG_STATS) { /* tl_grow_add_row's sums, in place */
            double wi = node->unit_weights ? 1.0 : w[sorted[i]], yi = d->y.num[sorted[i]];
            known[0] += wi;
            known[1] += wi * yi;
            known[2] += wi * yi * yi;
            known_w += wi;
            continue;
        }
        if (y) /* tl_grow_add_row's sum for classes, in place (bootstrap weights) */
            known[y[sorted[i]]] += w[sorted[i]];
        else
            tl_grow_add_row(g, known, sorted[i], w[sorted[i]]);
        known_w += w[sorted[i]];
    }
    if (known_w <= 0)
        return 0;
    /* a criterion with a score of its own (friedman_mse) is swept by that score, even when it
     * also has an impurity for the node */
    double (*impurity)(const double *, size_t) =
        p->criterion->score ? NULL : p->criterion->impurity;
    /* a row-form criterion (mae): every cut's left and right losses, from one pass each way */
    const double *loss_l = NULL, *loss_r = NULL;
    int rows_form = tl_grow_cut_losses(g, sorted, n_known, &loss_l, &loss_r);
    /* scikit-learn 1.3: the unknown rows join the side that leaves the least impurity, at
     * every cut (u: their statistics, wu their weight) */
    int best_side = impurity && !rows_form && missing_w > 0 && tl_grow_unknowns_at_cut(g);
    double *u = children + 4 * k, *with_u = children + 5 * k, wu = missing_w;
    if (best_side) {
        memset(u, 0, k * sizeof *u);
        for (size_t i = n_known; i < node->n; i++)
            tl_grow_add_row(g, u, sorted[i], w[sorted[i]]);
    }
    /* the fast sweep: rows of weight 1 (ys), a cut scored by the impurity of the known rows'
     * class counts alone (no score of the criterion's own, no row form, no unknown rows
     * placed per cut) */
    int swept = 0; /* a specialised sweep below took the node: the general one is skipped */
    if (xs && ys && impurity && !rows_form && !best_side) {
        best_child = sweep_fast(p, x, (sweep_src){xs, ys, NULL, 0}, n_known, known, known_w,
                                min_leaf, k, left, right, best_left, &best_t);
        swept = 1;
    }
    /* Rows of zero weight are not there (as in scikit-learn): no cut starts or ends at one,
     * so they cannot move a threshold. next: the first row after i with a weight. The class
     * codes from the packed view when kept (the same codes, read in sequence), and Gini
     * inlined (the same arithmetic as the criterion's call): bootstrap weights take this
     * sweep. */
    const int *cls = y && !swept ? tl_grow_view(g, node, attr, TL_VIEW_CLASSES) : NULL;
    int gini = impurity && !best_side && !rows_form && p->criterion->form == TL_IMPURITY_GINI;
    /* a regression target's statistics added in place (tl_grow_add_row's sums, gradient
     * boosting's trees), and a criterion's own score called directly (friedman_mse) */
    const double *ynum = !y && k == TL_REG_STATS ? d->y.num : NULL;
    const tl_criterion_type *cr = p->criterion;
    double (*score)(const void *, const double *, const double *, size_t, size_t) =
        cr->prefix_loss || k > NT_SCORE_K ? NULL
        : cr->score_numeric && !y         ? cr->score_numeric
                                          : cr->score;
    if (!swept && cls && xs && gini && k == 2) {
        best_child = sweep_gini2_weighted(sorted, xs, cls, w, n_known, known, known_w, min_leaf,
                                          best_left, &best_t);
        swept = 1;
    }
    if (!swept && ynum && cr->score_form == TL_SCORE_FRIEDMAN && score == cr->score &&
        !rows_form && !best_side) {
        /* two calls, so that each inlined copy has a constant unit */
        best_child = node->unit_weights
                         ? sweep_friedman(sorted, xs, x, w, ynum, n_known, known, known_w,
                                          min_leaf, 1, best_left, &best_t)
                         : sweep_friedman(sorted, xs, x, w, ynum, n_known, known, known_w,
                                          min_leaf, 0, best_left, &best_t);
        swept = 1;
    }
    size_t next = 0;
    for (size_t i = 0; !swept && i + 1 < n_known; i++) {
        uint32_t r = sorted[i];
        if (cls)
            left[cls[i]] += w[r];
        else if (y)
            left[y[r]] += w[r];
        else if (ynum) {
            double wi = w[r], yi = ynum[r];
            left[0] += wi;
            left[1] += wi * yi;
            left[2] += wi * yi * yi;
        } else
            tl_grow_add_row(g, left, r, w[r]);
        wl += w[r];
        if (!(w[r] > 0))
            continue;
        next = weighted_after(sorted, w, n_known, i, next);
        if (next >= n_known)
            break;
        double xi = xs ? xs[i] : x[r], xn = xs ? xs[next] : x[sorted[next]];
        double wr = known_w - wl;
        if (!cut_allowed(xi, xn, wl, wr, min_leaf))
            continue;
        for (size_t j = 0; j < k; j++)
            right[j] = known[j] - left[j];
        /* impurity criteria: least weighted child impurity (row form: as scikit-learn writes
         * it, so equal cuts round alike); partition criteria: the greatest score, negated */
        double child = best_side ? tl_side_impurity(impurity, left, right, u, with_u, wl, wr, wu, k)
                       : rows_form ? wl * (loss_l[i] / wl) + wr * (loss_r[i] / wr)
                       : gini     ? wl * tl_gini_impurity(left, k) + wr * tl_gini_impurity(right, k)
                       : impurity ? wl * impurity(left, k) + wr * impurity(right, k)
                       : score    ? partition_score(score, p->criterion_state, children, k, !y)
                                  : -tl_grow_partition_gain(g, children, 2);
        /* strict: among equal cuts the lowest threshold wins */
        if (child < best_child) {
            best_child = child;
            best_t = tl_midpoint(xi, xn);
            memcpy(best_left, left, k * sizeof *left);
        }
    }
    return tl_threshold_found(g, node, attr, children, k, best_child, best_t, missing_w, out);
}

/* The sorted rows, their values and classes packed alongside (a sweep reads memory in
 * sequence), and the compact records where they serve. */
static void views(const void *state, int kind, tl_view_request *want)
{
    (void)state;
    (void)kind;
    want->kinds = TL_VIEW_BIT(TL_VIEW_SORTED) | TL_VIEW_BIT(TL_VIEW_VALUES) |
                  TL_VIEW_BIT(TL_VIEW_CLASSES) | TL_VIEW_BIT(TL_VIEW_RECORDS);
}

static const tl_splitter_type numeric_threshold = {
    .name = "numeric_threshold",
    .summary = "binary cut at the midpoint of two adjacent distinct values (CART, ID3)",
    .reference = "Breiman et al. (1984), sec. 2.4; as scikit-learn's BestSplitter",
    .kinds = TL_KIND_BIT(TL_ATTR_NUMERIC),
    .best = best,
    .views = views,
};

const tl_splitter_type *const tl_splitter_numeric_threshold = &numeric_threshold;
