/* Wilcoxon signed-rank, Holm and Bonferroni-Dunn against a control, McNemar (Demsar 2006). */
#include "treelab/tl_stats.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>
#include <math.h>
#include <stdlib.h>

/* Average ranks (1-based) of v (n values) into rank; returns sum over tie groups of
 * t (t^2 - 1), the variance correction. order is scratch of n. */
static double average_ranks(const double *v, size_t n, size_t *order, double *rank)
{
    gsl_sort_index(order, v, 1, n);
    double ties = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j + 1 < n && v[order[j + 1]] == v[order[i]])
            j++;
        double t = (double)(j - i + 1), r = ((double)i + (double)j) / 2 + 1;
        for (size_t m = i; m <= j; m++)
            rank[order[m]] = r;
        ties += t * (t * t - 1);
        i = j + 1;
    }
    return ties;
}

/* Two-sided exact p of R+ = r_plus among n untied ranks: the number of subsets of 1..n with
 * each sum (counts below 2^50 are exact in a double). */
static int exact_p(size_t n, double r_plus, double *p, tl_err *err)
{
    size_t max = n * (n + 1) / 2;
    double *count = calloc(max + 1, sizeof *count);
    if (!count)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    count[0] = 1;
    for (size_t r = 1; r <= n; r++)
        for (size_t s = r * (r + 1) / 2; s >= r; s--)
            count[s] += count[s - r];
    size_t at = (size_t)r_plus;
    double below = 0, above = 0, total = ldexp(1.0, (int)n);
    for (size_t s = 0; s <= max; s++) {
        below += s <= at ? count[s] : 0;
        above += s >= at ? count[s] : 0;
    }
    free(count);
    /* scipy: R+ at the centre of the distribution is p = 1 */
    *p = at == max / 2 ? 1.0 : fmin(1.0, 2 * fmin(below, above) / total);
    return TL_OK;
}

int tl_wilcoxon_test(const double *a, const double *b, size_t n, tl_wilcoxon_zeros zeros,
                     tl_wilcoxon *out, tl_err *err)
{
    if (n == 0)
        return tl_err_set(err, TL_EINVAL, "the Wilcoxon test needs at least one pair");
    double *d = malloc(2 * n * sizeof *d);
    size_t *order = malloc(n * sizeof *order);
    if (!d || !order) {
        free(d);
        free(order);
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    }
    double *rank = d + n;
    size_t m = 0, n_zero = 0;
    int rc = TL_OK;
    for (size_t i = 0; i < n && !rc; i++) {
        double di = a[i] - b[i];
        if (isnan(di))
            rc = tl_err_set(err, TL_EINVAL, "the Wilcoxon test got a NaN (pair %zu)", i + 1);
        n_zero += di == 0;
        if (di != 0 || zeros == TL_WILCOXON_ZSPLIT)
            d[m++] = di;
    }
    if (!rc && n_zero == n)
        rc = tl_err_set(err, TL_EINVAL, "the Wilcoxon test needs a non-zero difference");
    if (rc) {
        free(d);
        free(order);
        return rc;
    }
    double *absd = malloc(m * sizeof *absd);
    if (!absd) {
        free(d);
        free(order);
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < m; i++)
        absd[i] = fabs(d[i]);
    double ties = average_ranks(absd, m, order, rank);
    free(absd);
    double rp = 0, rm = 0, r0 = 0;
    for (size_t i = 0; i < m; i++)
        *(d[i] > 0 ? &rp : d[i] < 0 ? &rm : &r0) += rank[i];
    out->r_plus = rp + r0 / 2;
    out->r_minus = rm + r0 / 2;
    out->statistic = fmin(out->r_plus, out->r_minus);
    out->n = m;
    out->exact = m <= 50 && n_zero == 0 && ties == 0;
    out->z = NAN;
    double dm = (double)m;
    if (out->exact) {
        rc = exact_p(m, out->r_plus, &out->p, err);
    } else {
        double mean = dm * (dm + 1) / 4;
        double se = sqrt((dm * (dm + 1) * (2 * dm + 1) - 0.5 * ties) / 24);
        out->z = (out->statistic - mean) / se;
        out->p = 2 * gsl_cdf_ugaussian_Q(fabs(out->z));
    }
    free(d);
    free(order);
    return rc;
}

/* The standard error of a difference of average ranks, Demsar's sqrt(k (k+1) / (6 N)). */
static double rank_se(size_t k, size_t n_datasets)
{
    double dk = (double)k;
    return sqrt(dk * (dk + 1) / (6.0 * (double)n_datasets));
}

static int check_ranks_args(size_t k, size_t n_datasets, double alpha, tl_err *err)
{
    if (k < 2 || n_datasets < 1)
        return tl_err_set(err, TL_EINVAL,
                          "comparing with a control needs at least 2 models and "
                          "1 data set, got %zu and %zu",
                          k, n_datasets);
    if (!(alpha > 0 && alpha < 1))
        return tl_err_set(err, TL_EINVAL, "alpha must be in (0, 1), got %g", alpha);
    return TL_OK;
}

int tl_control_tests(const double *ranks, size_t k, size_t n_datasets, size_t control, double alpha,
                     tl_control_test *out, tl_err *err)
{
    if (check_ranks_args(k, n_datasets, alpha, err))
        return TL_EINVAL;
    if (control >= k)
        return tl_err_set(err, TL_EINVAL, "the control model %zu is not one of the %zu", control,
                          k);
    double se = rank_se(k, n_datasets), *p = malloc(k * sizeof *p);
    size_t *order = malloc(k * sizeof *order);
    if (!p || !order) {
        free(p);
        free(order);
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    }
    for (size_t j = 0; j < k; j++) {
        out[j].z = j == control ? 0 : (ranks[j] - ranks[control]) / se;
        /* the control sorts last: it is not one of the k - 1 hypotheses */
        out[j].p = p[j] = j == control ? 2 : 2 * gsl_cdf_ugaussian_Q(fabs(out[j].z));
        out[j].bonferroni_dunn = j != control && p[j] < alpha / (double)(k - 1);
        out[j].holm = 0;
    }
    out[control].p = 1;
    gsl_sort_index(order, p, 1, k);
    for (size_t i = 0; i + 1 < k; i++) { /* Holm: the i-th smallest against alpha / (k-1-i) */
        if (!(p[order[i]] < alpha / (double)(k - 1 - i)))
            break;
        out[order[i]].holm = 1;
    }
    free(p);
    free(order);
    return TL_OK;
}

int tl_bonferroni_dunn_cd(size_t n_models, size_t n_datasets, double alpha, double *cd, tl_err *err)
{
    if (check_ranks_args(n_models, n_datasets, alpha, err))
        return TL_EINVAL;
    double q = gsl_cdf_ugaussian_Qinv(alpha / (2.0 * (double)(n_models - 1)));
    *cd = q * rank_se(n_models, n_datasets);
    return TL_OK;
}

void tl_mcnemar_test(unsigned long n01, unsigned long n10, tl_mcnemar *out)
{
    unsigned long n = n01 + n10, lo = n01 < n10 ? n01 : n10;
    if (n == 0) {
        out->chi2 = 0;
        out->p_chi2 = out->p_exact = 1;
        return;
    }
    double diff = fabs((double)n01 - (double)n10) - 1; /* as printed, also when n01 = n10 */
    out->chi2 = diff * diff / (double)n;
    out->p_chi2 = gsl_cdf_chisq_Q(out->chi2, 1);
    out->p_exact =
        n01 == n10 ? 1 : fmin(1.0, 2 * gsl_cdf_binomial_P((unsigned)lo, 0.5, (unsigned)n));
}
