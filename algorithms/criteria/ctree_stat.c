/* Conditional inference statistics for a nominal response, in closed form: with class
 * indicators as influence function, Strasser & Weber's covariance is a Kronecker product
 * A (x) B with A = diag(p) - p p' (the class shares p), so its Moore-Penrose inverse is
 * A+ (x) B+ and the quadratic form reduces to sums over the table's cells; libcoin (which
 * partykit calls) gets the same numbers from an eigen decomposition of the full matrix. */
#include <math.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_sf_gamma.h>

#include "ctree_stat.h"

/* log P(X <= x) for X chi-square with df degrees of freedom, accurate at both ends (R's
 * pchisq(x, df, lower = TRUE, log = TRUE)); the _e forms, so an underflow is a value (0 for
 * the far tail), not a call of GSL's error handler. */
static double chisq_log_lower(double x, double df)
{
    gsl_sf_result q, p;
    if (!(x > 0))
        return -INFINITY;
    int sq = gsl_sf_gamma_inc_Q_e(df / 2, x / 2, &q);
    if (sq == GSL_EUNDRFLW || (sq == GSL_SUCCESS && q.val < 0.5))
        return sq == GSL_SUCCESS ? log1p(-q.val) : 0;
    int sp = gsl_sf_gamma_inc_P_e(df / 2, x / 2, &p);
    return sp == GSL_SUCCESS && p.val > 0 ? log(p.val) : -INFINITY;
}

/* log(1 - p) of a standardised statistic |Z| >= z, two-sided (libcoin's C_norm_pvalue). */
static double norm_log1mp(double z)
{
    return log1p(-2 * gsl_cdf_ugaussian_P(-fabs(z)));
}

/* The p-value of a test from its statistic: chi-square with dim degrees of freedom, or for the
 * maximum type the normal when its components are one up to sign (rank 1); NaN otherwise
 * (the multivariate normal is not computed). */
static double log1mp_of(tlc_teststat type, double stat, double dim, int rank_one)
{
    if (type == TLC_QUADRATIC)
        return chisq_log_lower(stat, dim);
    return rank_one ? norm_log1mp(stat) : NAN;
}

tlc_test tlc_table_test(const double *table, size_t nb, size_t k, tlc_teststat type, double *col)
{
    tlc_test r = {0, 0, 0, NAN};
    double n = 0;
    size_t rows = 0, cols = 0;
    memset(col, 0, k * sizeof *col);
    for (size_t b = 0; b < nb; b++) {
        double rw = 0;
        for (size_t c = 0; c < k; c++) {
            rw += table[b * k + c];
            col[c] += table[b * k + c];
        }
        rows += rw > 0;
        n += rw;
    }
    for (size_t c = 0; c < k; c++)
        cols += col[c] > 0;
    if (n <= 1)
        return r;
    double sum = 0, best = 0, maxvar = 0;
    size_t comps = 0;
    for (size_t b = 0; b < nb; b++) {
        double rw = 0;
        for (size_t c = 0; c < k; c++)
            rw += table[b * k + c];
        if (rw <= 0)
            continue;
        double scale = rw * (n - rw) / (n - 1); /* B's diagonal: n/(n-1) (n_l - n_l^2/n) */
        for (size_t c = 0; c < k; c++) {
            if (col[c] <= 0)
                continue;
            double p = col[c] / n, t = table[b * k + c] - rw * p;
            double var = p * (1 - p) * scale;
            maxvar = var > maxvar ? var : maxvar;
            if (type == TLC_QUADRATIC) {
                sum += t * t / (rw * p);
            } else if (var > TLC_TOL) {
                double z = fabs(t) / sqrt(var);
                best = z > best ? z : best;
                comps++;
            }
        }
    }
    if (!(maxvar >= TLC_TOL) || rows < 2 || cols < 2)
        return r;
    r.ok = 1;
    if (type == TLC_QUADRATIC) {
        r.stat = sum * (n - 1) / n;
        r.dim = (double)((rows - 1) * (cols - 1));
    } else {
        r.stat = best;
        r.dim = (double)comps;
    }
    r.log1mp = log1mp_of(type, r.stat, r.dim, rows == 2 && cols == 2);
    return r;
}

tlc_test tlc_numeric_test(double n, double sx, double sxx, const double *cls, const double *csx,
                          size_t k, tlc_teststat type)
{
    tlc_test r = {0, 0, 0, NAN};
    if (n <= 1)
        return r;
    double s = (n * sxx - sx * sx) / (n - 1); /* n/(n-1) sum w x^2 - (sum w x)^2/(n-1) */
    double sum = 0, best = 0, maxvar = 0;
    size_t cols = 0, comps = 0;
    for (size_t c = 0; c < k; c++) {
        if (cls[c] <= 0)
            continue;
        cols++;
        double p = cls[c] / n, t = csx[c] - p * sx, var = p * (1 - p) * s;
        maxvar = var > maxvar ? var : maxvar;
        if (type == TLC_QUADRATIC) {
            sum += t * t / p;
        } else if (var > TLC_TOL) {
            double z = fabs(t) / sqrt(var);
            best = z > best ? z : best;
            comps++;
        }
    }
    if (!(maxvar >= TLC_TOL) || cols < 2 || !(s > 0))
        return r;
    r.ok = 1;
    if (type == TLC_QUADRATIC) {
        r.stat = sum / s;
        r.dim = (double)(cols - 1);
    } else {
        r.stat = best;
        r.dim = (double)comps;
    }
    r.log1mp = log1mp_of(type, r.stat, r.dim, cols == 2);
    return r;
}

double tlc_two_sample(const double *left, const double *parent, size_t k, tlc_teststat type)
{
    double n = 0, nl = 0;
    for (size_t c = 0; c < k; c++) {
        n += parent[c];
        nl += left[c];
    }
    if (n <= 1)
        return 0;
    double s = nl * (n - nl) / (n - 1), sum = 0, best = 0;
    if (!(s > 0))
        return 0;
    for (size_t c = 0; c < k; c++) {
        if (parent[c] <= 0)
            continue;
        double p = parent[c] / n, t = left[c] - nl * p;
        if (type == TLC_QUADRATIC) {
            sum += t * t / p;
        } else {
            double var = p * (1 - p) * s;
            if (var > TLC_TOL) {
                double z = fabs(t) / sqrt(var);
                best = z > best ? z : best;
            }
        }
    }
    return type == TLC_QUADRATIC ? sum / s : best;
}
