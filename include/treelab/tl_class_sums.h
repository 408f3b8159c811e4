/* Sums over k class statistics that a criterion and a splitter must compute alike, to the
 * bit (helpers for plug-in writers, not part of the plug-in contract, tl_plugin.h): the Gini
 * impurity a TL_IMPURITY_GINI sweep evaluates inline, Friedman's score a TL_SCORE_FRIEDMAN
 * sweep does, a branch-free masked weight, and a node's total weight.
 */
#ifndef TL_CLASS_SUMS_H
#define TL_CLASS_SUMS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Gini impurity 1 - sum (s_c / w)^2 of k class weights (0 for an empty node): the gini
 * criterion's impurity, inline here so that a sweep computes exactly the same numbers. */
static inline double tl_gini_impurity(const double *stats, size_t k)
{
    double w = 0, s = 0;
    for (size_t c = 0; c < k; c++)
        w += stats[c];
    if (w <= 0)
        return 0;
    for (size_t c = 0; c < k; c++)
        s += (stats[c] / w) * (stats[c] / w);
    return 1 - s;
}

/* Friedman's binary score (friedman_mse) of a node of weight w cut into sides of weights wl
 * and wr and target sums sl and sr: diff^2 / (wl wr) / w^2, diff = wr sl - wl sr (0 for an
 * empty node or side), inline here so that a sweep computes exactly the same numbers. */
static inline double tl_friedman_score(double w, double wl, double sl, double wr, double sr)
{
    if (w <= 0 || wl <= 0 || wr <= 0)
        return 0;
    double diff = wr * sl - wl * sr;
    return diff * diff / (wl * wr) / (w * w);
}

/* w where keep, else +0.0, by a mask: adding it to every class's (or branch's) sum gives
 * the same bits as adding w to its own sum alone (a sum starts at +0.0, and adding +0.0
 * leaves any other double as it is), without a branch on the class that would mispredict or
 * the chain through memory of sums[class] += w when consecutive rows share a class (the
 * sums then stay in registers). */
static inline double tl_kept_weight(double w, int keep)
{
    uint64_t u; /* memcpy, not a union: the header is also C++'s, where punning is undefined */
    memcpy(&u, &w, sizeof u);
    u &= 0 - (uint64_t)(keep != 0);
    memcpy(&w, &u, sizeof w);
    return w;
}

/* The total weight of k class statistics (a node's, or one branch's), summed in order, for
 * the partition-form criteria. */
static inline double tl_class_total(const double *stats, size_t k)
{
    double w = 0;
    for (size_t j = 0; j < k; j++)
        w += stats[j];
    return w;
}

#ifdef __cplusplus
}
#endif

#endif
