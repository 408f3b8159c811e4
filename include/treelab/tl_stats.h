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
    double p; /* two-sided p-value */
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

/* Wilcoxon signed-rank test of paired results a[i], b[i] (e.g. one score per dataset), two-
 * sided, as scipy.stats.wilcoxon 1.10 with its defaults (correction=False, mode "auto"),
 * except that ties also select the normal approximation (scipy keeps the exact distribution
 * there and truncates R+ to an integer). zero_method TL_WILCOXON_WILCOX (scipy's default)
 * drops zero differences; TL_WILCOXON_ZSPLIT (Demsar 2006) ranks them and splits their ranks
 * between R+ and R-. The p-value is exact (the distribution of R+) for at most 50
 * differences without zeros or ties, else from the normal approximation with scipy's tie
 * correction of the variance. TL_EINVAL for n = 0, NaN, or every difference 0 (scipy
 * refuses); TL_ENOMEM. */
typedef enum { TL_WILCOXON_WILCOX, TL_WILCOXON_ZSPLIT } tl_wilcoxon_zeros;
typedef struct tl_wilcoxon {
    double r_plus, r_minus; /* rank sums of the positive and negative differences */
    double statistic;       /* min(R+, R-) */
    double z;               /* the normal approximation's z (NaN when exact) */
    double p;               /* two-sided */
    size_t n;               /* differences ranked */
    int exact;
} tl_wilcoxon;
TL_API int tl_wilcoxon_test(const double *a, const double *b, size_t n, tl_wilcoxon_zeros zeros,
                            tl_wilcoxon *out, tl_err *err);

/* Comparisons of k models with a control over N datasets by average ranks (Demsar 2006,
 * section 3.2.2): z_j = (R_j - R_control) / sqrt(k (k+1) / (6 N)) and its two-sided normal p.
 * Bonferroni-Dunn rejects p_j < alpha / (k - 1); Holm's step-down compares the i-th smallest
 * p (i = 1..k-1) with alpha / (k - i) and stops at the first it keeps. Arrays of k; the
 * control's own entries are z = 0, p = 1, not rejected. TL_EINVAL for k < 2, N < 1, a bad
 * control or alpha outside (0, 1); TL_ENOMEM. */
typedef struct tl_control_test {
    double z, p;
    int holm;            /* rejected by Holm's procedure */
    int bonferroni_dunn; /* rejected by Bonferroni-Dunn */
} tl_control_test;
TL_API int tl_control_tests(const double *ranks, size_t k, size_t n_datasets, size_t control,
                            double alpha, tl_control_test *out, tl_err *err);

/* Bonferroni-Dunn critical difference of average ranks: q * sqrt(k (k+1) / (6 N)), q the
 * normal quantile at alpha / (2 (k - 1)) (Demsar's table 5(b): 2.394 for k = 4, 0.05). */
TL_API int tl_bonferroni_dunn_cd(size_t n_models, size_t n_datasets, double alpha, double *cd,
                                 tl_err *err);

/* McNemar's test of two classifiers on one test set: n01 rows only the first got wrong, n10
 * rows only the second got wrong. chi2 = (|n01 - n10| - 1)^2 / (n01 + n10) with its 1-df p
 * (the continuity correction of Dietterich 1998, Demsar 2006), and the exact two-sided
 * binomial p = min(1, 2 P(X <= min(n01, n10))), X ~ Bin(n01 + n10, 1/2) (1 when n01 = n10).
 * With no disagreement chi2 = 0 and both p are 1. */
typedef struct tl_mcnemar {
    double chi2, p_chi2, p_exact;
} tl_mcnemar;
TL_API void tl_mcnemar_test(unsigned long n01, unsigned long n10, tl_mcnemar *out);

/* Dietterich's (1998) 5x2cv paired t-test on the scores of two learners on 5 repeats of
 * 2-fold CV, a[2 i + j] the score of repeat i, fold j: t = p_1^(1) / sqrt(sum s_i^2 / 5),
 * 5 df, s_i^2 the variance of repeat i's two differences; p two-sided. */
TL_API int tl_5x2cv_t_test(const double *a, const double *b, tl_ttest *out, tl_err *err);

/* Alpaydin's (1999) combined 5x2cv F-test on the same scores: f = sum of the 10 squared
 * differences / (2 sum s_i^2), F(10, 5), p its upper tail. */
typedef struct tl_ftest {
    double f, df1, df2, p;
} tl_ftest;
TL_API int tl_5x2cv_f_test(const double *a, const double *b, tl_ftest *out, tl_err *err);

/* Holm's step-down over m p-values: the i-th smallest (i = 1..m) rejected while it is below
 * alpha / (m - i + 1); reject[] gets 1 for each rejected, 0 else (a NaN p is never). */
TL_API int tl_holm(const double *p, size_t m, double alpha, int *reject, tl_err *err);

/* Shaffer's static procedure (Shaffer 1986; García & Herrera 2008, 2.2.2) over the k (k-1)/2
 * pairs of k models (p in the order of tl_rank_pairs; a NaN p is untested: kept, adjusted
 * NaN): the i-th smallest p times t_i, the most pair hypotheses that can be true when i - 1
 * are false, made monotone, into adjusted[] (capped at 1); reject[] = adjusted < alpha.
 * TL_EINVAL for k outside 2..TL_SHAFFER_MAX_MODELS. */
#define TL_SHAFFER_MAX_MODELS 100
TL_API int tl_shaffer(const double *p, size_t k, double alpha, double *adjusted, int *reject,
                      tl_err *err);

/* Every pair i < j of k models by average ranks over n_datasets (Demsar 2006, 3.2.2):
 * z = (R_i - R_j) / sqrt(k (k+1) / (6 N)) and its two-sided normal p, into z[] and p[] of
 * k (k-1) / 2 entries in the order (0,1), (0,2), ..., (1,2), ... */
TL_API int tl_rank_pairs(const double *ranks, size_t k, size_t n_datasets, double *z, double *p,
                         tl_err *err);

#ifdef __cplusplus
}
#endif

#endif
