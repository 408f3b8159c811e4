/* Binary threshold on a numeric attribute: one sweep over the node's rows pre-sorted by the
 * attribute, cut at the midpoint of two adjacent distinct values (CART, ID3). The general
 * sweep is here; the faster ones a node's rows may allow are in numeric_sweeps.c. */
#include <math.h>
#include <string.h>

#include "numeric_sweeps.h"
#include "treelab/tl_grow.h"

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

/* The node's known rows (sorted: the unknown values last): their count into *n_known, the
 * unknown rows' weight into *missing_w and the known rows' statistics into known (zeroed by
 * the caller); returns their weight. ys: the class codes in sorted order when every row
 * weighs 1. */
static double known_sums(const tl_grow_ctx *g, const tl_node_rows *node, const uint32_t *sorted,
                         const double *x, const double *xs, const int *ys, size_t k,
                         size_t *n_known, double *missing_w, double *known)
{
    const tl_dataset *d = tl_grow_data(g);
    const double *w = node->w;
    const int *y = d->y.code; /* NULL for regression */
    size_t n = node->n;
    while (n > 0 && isnan(xs ? xs[n - 1] : x[sorted[n - 1]]))
        n--;
    *n_known = n;
    *missing_w = 0;
    for (size_t i = n; i < node->n; i++)
        *missing_w += w[sorted[i]];
    if (ys && n == node->n) { /* whole-number sums, exact in any order: the node's */
        memcpy(known, node->stats, k * sizeof *known);
        return (double)n;
    }
    double known_w = 0;
    for (size_t i = 0; i < n; i++) {
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
    return known_w;
}

/* What the general sweep reads: the node's known rows in sorted order, their statistics, and
 * how a cut is scored (the first of best_side, rows_form, gini, impurity and score that is
 * set, else the criterion's partition gain). */
typedef struct nt_sweep {
    const tl_grow_ctx *g;
    const uint32_t *sorted;
    const double *x, *xs, *w, *ynum;
    const int *cls, *y;
    size_t n_known, k;
    double known_w, min_leaf;
    double *children; /* left, right, known, best left, the unknown rows' u, scratch */
    int best_side, rows_form, gini;
    double wu;                                /* best_side: the unknown rows' weight */
    const double *loss_l, *loss_r;            /* rows_form: every cut's two losses */
    double (*impurity)(const double *, size_t); /* NULL: the criterion has a score */
    double (*score)(const void *, const double *, const double *, size_t, size_t);
    const void *criterion_state;
} nt_sweep;

/* Every admissible cut scored in turn (rows of zero weight are not there, as in
 * scikit-learn: no cut starts or ends at one, so they cannot move a threshold; next is the
 * first row after i with a weight). Returns the least weighted child impurity or negated
 * score (INFINITY: none), its threshold into *best_t and its left statistics into best left. */
static double general_sweep(const nt_sweep *s, double *best_t)
{
    const uint32_t *sorted = s->sorted;
    const double *x = s->x, *xs = s->xs, *w = s->w, *ynum = s->ynum;
    const int *cls = s->cls, *y = s->y;
    size_t k = s->k, n_known = s->n_known, next = 0;
    double *left = s->children, *right = left + k, *known = left + 2 * k;
    double *best_left = left + 3 * k, *u = left + 4 * k, *with_u = left + 5 * k;
    double known_w = s->known_w, min_leaf = s->min_leaf, wu = s->wu;
    double best_child = INFINITY, wl = 0;
    for (size_t i = 0; i + 1 < n_known; i++) {
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
            tl_grow_add_row(s->g, left, r, w[r]);
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
        double child =
            s->best_side
                ? tl_side_impurity(s->impurity, left, right, u, with_u, wl, wr, wu, k)
            : s->rows_form ? wl * (s->loss_l[i] / wl) + wr * (s->loss_r[i] / wr)
            : s->gini      ? wl * tl_gini_impurity(left, k) + wr * tl_gini_impurity(right, k)
            : s->impurity  ? wl * s->impurity(left, k) + wr * s->impurity(right, k)
            : s->score ? partition_score(s->score, s->criterion_state, s->children, k, !y)
                       : -tl_grow_partition_gain(s->g, s->children, 2);
        /* strict: among equal cuts the lowest threshold wins */
        if (child < best_child) {
            best_child = child;
            *best_t = tl_midpoint(xi, xn);
            memcpy(best_left, left, k * sizeof *left);
        }
    }
    return best_child;
}

/* The sweep keeps only the best cut's left statistics; gain and rank are then computed once
 * by tl_grow_score, so per-cut work is two impurity calls. A node goes to the first sweep
 * its rows allow: the compact records, the packed values and classes of rows of weight 1,
 * two-class Gini on bootstrap weights, Friedman's score, else the general sweep. */
static int best(const void *state, const tl_grow_ctx *g, const tl_node_rows *node, size_t attr,
                tl_split *out, tl_err *err)
{
    (void)state;
    size_t k = tl_grow_k(g);
    const tl_dataset *d = tl_grow_data(g);
    const tl_grow_params *p = tl_grow_params_of(g);
    const double *x = d->cols[attr].num;
    const double *xs = tl_grow_view(g, node, attr, TL_VIEW_VALUES);
    double *children = tl_grow_scratch(g); /* left, right, known, best left, u, tmp */
    double *left = children, *right = children + k, *known = children + 2 * k;
    double *best_left = children + 3 * k;
    memset(children, 0, 3 * k * sizeof *children);
    double min_leaf = p->min_samples_leaf > 0 ? p->min_samples_leaf : 0;
    double best_child = INFINITY, best_t = 0;
    const uint32_t *rec = tl_grow_view(g, node, attr, TL_VIEW_RECORDS);
    if (rec) { /* rows of weight 1, none unknown, an impurity: the node's counts */
        memcpy(known, node->stats, k * sizeof *known);
        unsigned shift = tlg_record_shift(g);
        best_child = tl_nt_sweep_fast(p, x, (sweep_src){NULL, NULL, rec, shift}, node->n, known,
                                      (double)node->n, min_leaf, k, left, right, best_left,
                                      &best_t);
        return tl_threshold_found(g, node, attr, children, k, best_child, best_t, 0, out);
    }
    const uint32_t *sorted = tl_grow_view(g, node, attr, TL_VIEW_SORTED);
    if (!sorted)
        return -tl_err_set(err, TL_ENOMEM, "out of memory sorting %zu rows", node->n);
    const int *ys = /* the fast path's */
        node->unit_weights ? tl_grow_view(g, node, attr, TL_VIEW_CLASSES) : NULL;
    size_t n_known;
    double missing_w;
    double known_w = known_sums(g, node, sorted, x, xs, ys, k, &n_known, &missing_w, known);
    if (known_w <= 0)
        return 0;
    const tl_criterion_type *cr = p->criterion;
    /* a criterion with a score of its own (friedman_mse) is swept by that score, even when it
     * also has an impurity for the node */
    nt_sweep s = {.g = g, .sorted = sorted, .x = x, .xs = xs, .w = node->w, .y = d->y.code,
                  .n_known = n_known, .k = k, .known_w = known_w, .min_leaf = min_leaf,
                  .children = children, .wu = missing_w,
                  .impurity = cr->score ? NULL : cr->impurity,
                  .criterion_state = p->criterion_state};
    /* a row-form criterion (mae): every cut's left and right losses, from one pass each way */
    s.rows_form = tl_grow_cut_losses(g, sorted, n_known, &s.loss_l, &s.loss_r);
    /* scikit-learn 1.3: the unknown rows join the side that leaves the least impurity, at
     * every cut (u: their statistics) */
    s.best_side = s.impurity && !s.rows_form && missing_w > 0 && tl_grow_unknowns_at_cut(g);
    if (s.best_side) {
        double *u = children + 4 * k;
        memset(u, 0, k * sizeof *u);
        for (size_t i = n_known; i < node->n; i++)
            tl_grow_add_row(g, u, sorted[i], node->w[sorted[i]]);
    }
    /* rows of weight 1 (ys), a cut scored by the impurity of the known rows' class counts
     * alone (no score of the criterion's own, no row form, no unknown rows placed per cut) */
    if (xs && ys && s.impurity && !s.rows_form && !s.best_side) {
        best_child = tl_nt_sweep_fast(p, x, (sweep_src){xs, ys, NULL, 0}, n_known, known,
                                      known_w, min_leaf, k, left, right, best_left, &best_t);
        return tl_threshold_found(g, node, attr, children, k, best_child, best_t, missing_w,
                                  out);
    }
    /* the class codes from the packed view when kept (the same codes, read in sequence), and
     * Gini inlined (the same arithmetic as the criterion's call): bootstrap weights */
    s.cls = s.y ? tl_grow_view(g, node, attr, TL_VIEW_CLASSES) : NULL;
    s.gini = s.impurity && !s.best_side && !s.rows_form && cr->form == TL_IMPURITY_GINI;
    /* a regression target's statistics added in place (tl_grow_add_row's sums, gradient
     * boosting's trees), and a criterion's own score called directly (friedman_mse) */
    s.ynum = !s.y && k == TL_REG_STATS ? d->y.num : NULL;
    s.score = cr->prefix_loss || k > NT_SCORE_K ? NULL
              : cr->score_numeric && !s.y       ? cr->score_numeric
                                                : cr->score;
    if (s.cls && xs && s.gini && k == 2)
        best_child = tl_nt_sweep_gini2_weighted(sorted, xs, s.cls, node->w, n_known, known,
                                                known_w, min_leaf, best_left, &best_t);
    else if (s.ynum && cr->score_form == TL_SCORE_FRIEDMAN && s.score == cr->score &&
             !s.rows_form && !s.best_side)
        best_child = tl_nt_sweep_friedman(sorted, xs, x, node->w, s.ynum, n_known, known,
                                          known_w, min_leaf, node->unit_weights != 0, best_left,
                                          &best_t);
    else
        best_child = general_sweep(&s, &best_t);
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
