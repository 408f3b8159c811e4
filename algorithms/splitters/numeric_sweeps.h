/* The sweeps numeric_threshold hands a node to when its rows allow a faster one (rows of
 * weight 1, two-class Gini with bootstrap weights, Friedman's score), and what they share
 * with its general sweep: which cuts are admissible and which rows no cut starts at. Each
 * gives the general sweep's cut, bit for bit (numeric_sweeps.c says how). */
#ifndef TL_SPLITTERS_NUMERIC_SWEEPS_H
#define TL_SPLITTERS_NUMERIC_SWEEPS_H

#include <stddef.h>
#include <stdint.h>

#include "threshold.h"

/* A cut between adjacent values xi < xn leaving weights wl and wr is admissible. */
static inline int cut_allowed(double xi, double xn, double wl, double wr, double min_leaf)
{
    return !(xn <= xi + TL_VALUE_EPS) && tl_cut_weights_ok(wl, wr, min_leaf);
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

/* Where a unit-weight sweep reads its rows in sorted order: the packed values xs and class
 * codes ys, or the compact records rec (row above shift, class code, cut bit). */
typedef struct sweep_src {
    const double *xs;
    const int *ys;
    const uint32_t *rec;
    unsigned shift;
} sweep_src;

/* The unit-weight sweep for the criterion (every row weighs 1, the unknown values take no
 * part, an impurity scores a cut): the least weighted child impurity (INFINITY: no
 * admissible cut), its threshold into *best_t and its left counts into best_left. */
double tl_nt_sweep_fast(const tl_grow_params *p, const double *x, sweep_src src, size_t n,
                        const double *known, double known_w, double min_leaf, size_t k,
                        double *left, double *right, double *best_left, double *best_t);

/* Friedman's closed form on a numeric target (gradient boosting's trees); unit: every row
 * weighs 1. The least negated score, its threshold and left statistics. */
double tl_nt_sweep_friedman(const uint32_t *sorted, const double *xs, const double *x,
                            const double *w, const double *ynum, size_t n_known,
                            const double *known, double known_w, double min_leaf, int unit,
                            double *best_left, double *best_t);

/* Two classes by Gini with weighted rows (a forest's bootstrap counts), class codes cls in
 * sorted order. The least weighted child impurity, its threshold and left counts. */
double tl_nt_sweep_gini2_weighted(const uint32_t *sorted, const double *xs, const int *cls,
                                  const double *w, size_t n_known, const double *known,
                                  double known_w, double min_leaf, double *best_left,
                                  double *best_t);

#endif
