/* numeric_threshold's specialised sweeps: the same sums in the same order, the same rows
 * skipped and the same score as its general sweep, with the statistics in registers and no
 * call per cut, so the same cut (and bits) at a fraction of the work. */
#include <math.h>
#include <string.h>

#include "numeric_sweeps.h"

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

double tl_nt_sweep_fast(const tl_grow_params *p, const double *x, sweep_src src, size_t n,
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

double tl_nt_sweep_friedman(const uint32_t *sorted, const double *xs, const double *x,
                            const double *w, const double *ynum, size_t n_known,
                            const double *known, double known_w, double min_leaf, int unit,
                            double *best_left, double *best_t)
{
    /* two calls, so that each inlined copy has a constant unit */
    return unit ? sweep_friedman(sorted, xs, x, w, ynum, n_known, known, known_w, min_leaf, 1,
                                 best_left, best_t)
                : sweep_friedman(sorted, xs, x, w, ynum, n_known, known, known_w, min_leaf, 0,
                                 best_left, best_t);
}

/* The general sweep below for two classes by Gini with weighted rows (a forest's bootstrap
 * counts): the same sums in the same order (adding +0.0 to the other class's sum changes no
 * bit, tl_kept_weight), the same rows skipped and tl_gini_impurity on the same two numbers,
 * with the sums in registers. Returns the least weighted child impurity (INFINITY: no
 * admissible cut), its threshold into *best_t and its left counts into best_left. */
double tl_nt_sweep_gini2_weighted(const uint32_t *sorted, const double *xs, const int *cls,
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
