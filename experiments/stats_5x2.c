/* Dietterich's (1998) 5x2cv paired t-test, Alpaydin's (1999) combined 5x2cv F-test, Holm's
 * step-down over any family of p-values, and every pair of models compared by average ranks
 * (Demsar 2006, section 3.2.2, without a control). */
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>
#include <math.h>
#include <stdlib.h>

#include "treelab/tl_stats.h"

/* The differences p_i^(j) of repeat i, fold j, and their variances s_i^2. */
static int five_by_two(const double *a, const double *b, double d[10], double s2[5], tl_err *err)
{
    for (int i = 0; i < 10; i++) {
        d[i] = a[i] - b[i];
        if (!isfinite(d[i]))
            return tl_err_set(err, TL_EINVAL, "5x2cv: score %d is not a finite number", i + 1);
    }
    for (int i = 0; i < 5; i++) {
        double mean = (d[2 * i] + d[2 * i + 1]) / 2;
        s2[i] =
            (d[2 * i] - mean) * (d[2 * i] - mean) + (d[2 * i + 1] - mean) * (d[2 * i + 1] - mean);
    }
    return TL_OK;
}

int tl_5x2cv_t_test(const double *a, const double *b, tl_ttest *out, tl_err *err)
{
    double d[10], s2[5], sum = 0, mean = 0;
    if (five_by_two(a, b, d, s2, err))
        return TL_EINVAL;
    for (int i = 0; i < 5; i++)
        sum += s2[i];
    for (int i = 0; i < 10; i++)
        mean += d[i] / 10;
    out->mean_diff = mean;
    out->df = 5;
    out->t = sum > 0 ? d[0] / sqrt(sum / 5) : d[0] == 0 ? NAN : copysign(INFINITY, d[0]);
    out->p = isnan(out->t) ? NAN : 2 * gsl_cdf_tdist_Q(fabs(out->t), 5);
    return TL_OK;
}

int tl_5x2cv_f_test(const double *a, const double *b, tl_ftest *out, tl_err *err)
{
    double d[10], s2[5], num = 0, den = 0;
    if (five_by_two(a, b, d, s2, err))
        return TL_EINVAL;
    for (int i = 0; i < 10; i++)
        num += d[i] * d[i];
    for (int i = 0; i < 5; i++)
        den += 2 * s2[i];
    out->df1 = 10;
    out->df2 = 5;
    out->f = den > 0 ? num / den : num == 0 ? NAN : INFINITY;
    out->p = isnan(out->f) ? NAN : gsl_cdf_fdist_Q(out->f, 10, 5);
    return TL_OK;
}

int tl_holm(const double *p, size_t m, double alpha, int *reject, tl_err *err)
{
    size_t *order = malloc((m ? m : 1) * sizeof *order);
    double *key = calloc(m ? m : 1, sizeof *key);
    if (!order || !key) {
        free(order);
        free(key);
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < m; i++) {
        key[i] = isnan(p[i]) ? 2 : p[i]; /* an untested hypothesis sorts last, kept */
        reject[i] = 0;
    }
    gsl_sort_index(order, key, 1, m);
    for (size_t i = 0; i < m && key[order[i]] < alpha / (double)(m - i); i++)
        reject[order[i]] = 1;
    free(order);
    free(key);
    return TL_OK;
}

int tl_rank_pairs(const double *ranks, size_t k, size_t n_datasets, double *z, double *p,
                  tl_err *err)
{
    if (k < 2 || n_datasets < 1)
        return tl_err_set(err, TL_EINVAL, "rank tests need 2 or more models and a dataset");
    double se = sqrt((double)k * (double)(k + 1) / (6.0 * (double)n_datasets));
    size_t at = 0;
    for (size_t i = 0; i < k; i++)
        for (size_t j = i + 1; j < k; j++, at++) {
            z[at] = (ranks[i] - ranks[j]) / se;
            p[at] = 2 * gsl_cdf_ugaussian_Q(fabs(z[at]));
        }
    return TL_OK;
}
