/* Statistical comparisons of learners (Nadeau & Bengio; Demsar 2006). p-values from GSL.
 *
 * API: nothing is allocated: results go to the caller's structs and arrays. err may be NULL
 * everywhere.
 */
#ifndef TL_STATS_H
#define TL_STATS_H

#include <stddef.h>

#include "treelab/tl_api.h"
#include "treelab/tl_error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tl_ttest {
    double mean_diff; /* mean of a[i] - b[i] */
    double t;         /* statistic (NaN when the variance is 0 and the mean difference is 0) */
    double df;
    double p;         /* two-sided p-value */
} tl_ttest;

/* Corrected resampled t-test over n paired results (e.g. k-fold x repeats accuracies) of two
 * learners on the same folds: variance inflated by (1/n + n_test/n_train) (Nadeau & Bengio
 * 2003, Weka's Experimenter). */
TL_API int tl_corrected_ttest(const double *a, const double *b, size_t n, double test_train_ratio,
                              tl_ttest *out, tl_err *err);

/* Friedman test over an n_datasets x n_models matrix of scores (larger is better), ties given
 * average ranks. ranks_out (n_models) gets the average ranks (1 = best). */
typedef struct tl_friedman {
    double chi2, p_chi2; /* Friedman's chi-squared and its p-value (k - 1 df) */
    double ff, p_ff;     /* Iman & Davenport's F and its p-value ((k-1), (k-1)(N-1) df) */
} tl_friedman;
TL_API int tl_friedman_test(const double *scores, size_t n_datasets, size_t n_models,
                            double *ranks_out, tl_friedman *out, tl_err *err);

/* Nemenyi critical difference q_alpha * sqrt(k (k+1) / (6 N)) for alpha 0.05 or 0.10,
 * k = 2..20 models (Demsar's table). TL_EINVAL outside that range. */
TL_API int tl_nemenyi_cd(size_t n_models, size_t n_datasets, double alpha, double *cd, tl_err *err);

/* The q_alpha behind tl_nemenyi_cd (studentized range / sqrt(2)); same range checks. */
TL_API int tl_nemenyi_q(size_t n_models, double alpha, double *q, tl_err *err);

#ifdef __cplusplus
}
#endif

#endif
