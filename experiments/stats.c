/* Statistical comparisons: corrected resampled t-test, Friedman / Iman-Davenport, Nemenyi CD. */
#include "treelab/tl_stats.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>

int tl_corrected_ttest(const double *a, const double *b, size_t n, double test_train_ratio,
                       tl_ttest *out, tl_err *err)
{
    if (n < 2)
        return tl_err_set(err, TL_EINVAL, "the t-test needs at least 2 paired results, got %zu", n);
    if (!(test_train_ratio >= 0) || !isfinite(test_train_ratio))
        return tl_err_set(err, TL_EINVAL, "the test/train ratio must be >= 0, got %g",
                          test_train_ratio);
    double *d = malloc(n * sizeof *d);
    if (!d)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    for (size_t i = 0; i < n; i++)
        d[i] = a[i] - b[i];
    double mean = gsl_stats_mean(d, 1, n);
    double var = gsl_stats_variance_m(d, 1, n, mean); /* n - 1 in the denominator */
    free(d);
    if (!isfinite(mean) || !isfinite(var))
        return tl_err_set(err, TL_EINVAL, "the t-test got a non-finite result");
    out->mean_diff = mean;
    out->df = (double)(n - 1);
    /* Nadeau & Bengio: the folds' training sets overlap, so the naive variance / n is too small */
    double se2 = (1.0 / (double)n + test_train_ratio) * var;
    if (se2 > 0) {
        out->t = mean / sqrt(se2);
        out->p = 2 * gsl_cdf_tdist_Q(fabs(out->t), out->df);
    } else if (mean == 0) {
        out->t = NAN; /* identical results: no evidence either way */
        out->p = 1;
    } else {
        out->t = mean > 0 ? INFINITY : -INFINITY;
        out->p = 0;
    }
    return TL_OK;
}

/* Rank of each score in one row, 1 = largest, ties sharing their average rank. */
static void rank_row(const double *s, size_t k, double *rank)
{
    for (size_t j = 0; j < k; j++) {
        size_t above = 0, same = 0;
        for (size_t m = 0; m < k; m++) {
            above += s[m] > s[j];
            same += s[m] == s[j];
        }
        rank[j] = 1.0 + (double)above + ((double)same - 1.0) / 2.0;
    }
}

int tl_friedman_test(const double *scores, size_t n_datasets, size_t n_models, double *ranks_out,
                     tl_friedman *out, tl_err *err)
{
    size_t N = n_datasets, k = n_models;
    if (N < 2 || k < 2)
        return tl_err_set(err, TL_EINVAL,
                          "the Friedman test needs at least 2 data sets and 2 "
                          "models, got %zu and %zu",
                          N, k);
    for (size_t i = 0; i < N * k; i++)
        if (isnan(scores[i]))
            return tl_err_set(err, TL_EINVAL,
                              "the Friedman test got a NaN score (data set %zu, "
                              "model %zu)",
                              i / k + 1, i % k + 1);
    double *rank = malloc(k * sizeof *rank);
    if (!rank)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    for (size_t j = 0; j < k; j++)
        ranks_out[j] = 0;
    for (size_t i = 0; i < N; i++) {
        rank_row(scores + i * k, k, rank);
        for (size_t j = 0; j < k; j++)
            ranks_out[j] += rank[j];
    }
    free(rank);
    double sum_sq = 0, dk = (double)k, dn = (double)N;
    for (size_t j = 0; j < k; j++) {
        ranks_out[j] /= dn;
        sum_sq += ranks_out[j] * ranks_out[j];
    }
    /* Demsar (2006), equations for chi2_F and F_F; no tie correction, as in the paper */
    out->chi2 = 12.0 * dn / (dk * (dk + 1)) * (sum_sq - dk * (dk + 1) * (dk + 1) / 4.0);
    if (out->chi2 < 0) /* rounding when every rank is equal */
        out->chi2 = 0;
    out->p_chi2 = gsl_cdf_chisq_Q(out->chi2, dk - 1);
    double denom = dn * (dk - 1) - out->chi2;
    if (denom > 0) {
        out->ff = (dn - 1) * out->chi2 / denom;
        out->p_ff = gsl_cdf_fdist_Q(out->ff, dk - 1, (dk - 1) * (dn - 1));
    } else { /* every data set ranks the models the same way */
        out->ff = INFINITY;
        out->p_ff = 0;
    }
    return TL_OK;
}

/* q_alpha of the Nemenyi test: the studentized range quantile (infinite df) / sqrt(2).
 * k = 2..10 from Demsar (2006) table 5(a); k = 11..20 computed with scipy's
 * studentized_range and rounded the same way (scripts/peers/scipy_stats.py records the
 * unrounded values; tests/test_stats.c checks the table against them). */
static const double q05[19] = {1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164, 3.219,
                               3.268, 3.313, 3.354, 3.391, 3.426, 3.458, 3.489, 3.517, 3.544};
static const double q10[19] = {1.645, 2.052, 2.291, 2.459, 2.589, 2.693, 2.780, 2.855, 2.920, 2.978,
                               3.030, 3.077, 3.120, 3.159, 3.196, 3.230, 3.261, 3.291, 3.319};

int tl_nemenyi_q(size_t n_models, double alpha, double *q, tl_err *err)
{
    if (n_models < 2 || n_models > 20)
        return tl_err_set(err, TL_EINVAL, "the Nemenyi test supports 2 to 20 models, got %zu",
                          n_models);
    if (fabs(alpha - 0.05) < 1e-12)
        *q = q05[n_models - 2];
    else if (fabs(alpha - 0.10) < 1e-12)
        *q = q10[n_models - 2];
    else
        return tl_err_set(err, TL_EINVAL, "the Nemenyi test supports alpha 0.05 or 0.10, got %g",
                          alpha);
    return TL_OK;
}

int tl_nemenyi_cd(size_t n_models, size_t n_datasets, double alpha, double *cd, tl_err *err)
{
    double q = 0;
    if (tl_nemenyi_q(n_models, alpha, &q, err))
        return TL_EINVAL;
    if (n_datasets < 1)
        return tl_err_set(err, TL_EINVAL, "the Nemenyi test needs at least one data set");
    double k = (double)n_models;
    *cd = q * sqrt(k * (k + 1) / (6.0 * (double)n_datasets));
    return TL_OK;
}
