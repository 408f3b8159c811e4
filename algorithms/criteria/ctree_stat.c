/* Conditional inference statistics for a nominal response, in closed form: with class
 * indicators as influence function, Strasser & Weber's covariance is a Kronecker product
 * A (x) B with A = diag(p) - p p' (the class shares p), so its Moore-Penrose inverse is
 * A+ (x) B+ and the quadratic form reduces to sums over the table's cells; libcoin (which
 * partykit calls) gets the same numbers from an eigen decomposition of the full matrix. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sf_gamma.h>

#include "ctree_stat.h"
#include "treelab/tl_prune.h"

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

/* log P(max |Z| <= c) for the standardised cells of T = F_B E F_A', E an lq x kp matrix of
 * independent standard normals, F_A = (I - p 1') diag(sqrt p) and F_B likewise from q: T has
 * the covariance (diag(p) - p p') (x) (diag(q) - q q') of a level x class table's linear
 * statistic (up to a factor), singular as it is. lq = 0: one row without F_B (a numeric
 * attribute). Monte Carlo with TLC_MC_DRAWS draws from mt19937 seeded 1, so the result is the
 * same on every run; its standard error is sqrt(p (1 - p) / TLC_MC_DRAWS), at most 0.0016. */
static double mc_max_log1mp(double c, const double *p, size_t kp, const double *q, size_t lq)
{
    size_t rows = lq ? lq : 1, inside = 0;
    double *g = malloc((rows * kp + rows + kp) * sizeof *g), *sq = g + rows * kp, *sp = sq + rows;
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!g || !rng) {
        free(g);
        gsl_rng_free(rng);
        return NAN;
    }
    gsl_rng_set(rng, 1);
    for (size_t j = 0; j < kp; j++)
        sp[j] = sqrt(p[j]);
    for (size_t m = 0; m < lq; m++)
        sq[m] = sqrt(q[m]);
    for (size_t draw = 0; draw < TLC_MC_DRAWS; draw++) {
        for (size_t m = 0; m < rows; m++) {
            double *row = g + m * kp, u = 0;
            for (size_t j = 0; j < kp; j++) {
                row[j] = sp[j] * gsl_ran_gaussian_ziggurat(rng, 1.0);
                u += row[j]; /* sum sqrt(p_d) e_d */
            }
            for (size_t j = 0; j < kp; j++)
                row[j] -= p[j] * u;
        }
        int ok = 1;
        for (size_t j = 0; j < kp && ok; j++) {
            double u = 0;
            for (size_t m = 0; m < lq; m++)
                u += sq[m] * g[m * kp + j];
            for (size_t m = 0; m < rows && ok; m++) {
                double t = lq ? sq[m] * g[m * kp + j] - q[m] * u : g[m * kp + j];
                double sd = sqrt(p[j] * (1 - p[j]) * (lq ? q[m] * (1 - q[m]) : 1));
                ok = fabs(t) <= c * sd;
            }
        }
        inside += (size_t)ok;
    }
    gsl_rng_free(rng);
    free(g);
    return log((double)inside / TLC_MC_DRAWS);
}

/* The p-value of a test from its statistic: chi-square with dim degrees of freedom; for the
 * maximum type the normal when its components are one up to sign (rank 1), else the
 * multivariate normal of the class shares p (kp present) and level shares q (lq present; 0 for
 * a numeric attribute) by Monte Carlo. */
static double log1mp_of(tlc_teststat type, double stat, double dim, const double *p, size_t kp,
                        const double *q, size_t lq)
{
    if (type == TLC_QUADRATIC)
        return chisq_log_lower(stat, dim);
    if (kp == 2 && lq <= 2) /* one component up to sign */
        return norm_log1mp(stat);
    /* two classes (or two levels): the table's two columns (rows) are one up to sign, so the
     * maximum is the other margin's, in the numeric attribute's form */
    if (kp == 2)
        return mc_max_log1mp(stat, q, lq, NULL, 0);
    return mc_max_log1mp(stat, p, kp, lq == 2 ? NULL : q, lq == 2 ? 0 : lq);
}

tlc_test tlc_table_test(const double *table, size_t nb, size_t k, tlc_teststat type, double *col)
{
    tlc_test r = {0, 0, 0, NAN};
    size_t rows, cols;
    double n = tl_table_margins(table, nb, k, col, &rows, &cols);
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
    if (type == TLC_QUADRATIC) {
        r.log1mp = chisq_log_lower(r.stat, r.dim);
        return r;
    }
    double *p = malloc((k + nb) * sizeof *p), *q = p ? p + k : NULL;
    size_t kp = 0, lq = 0;
    for (size_t c = 0; p && c < k; c++)
        if (col[c] > 0)
            p[kp++] = col[c] / n;
    for (size_t b = 0; p && b < nb; b++) {
        double rw = 0;
        for (size_t c = 0; c < k; c++)
            rw += table[b * k + c];
        if (rw > 0)
            q[lq++] = rw / n;
    }
    r.log1mp = p ? log1mp_of(type, r.stat, r.dim, p, kp, q, lq) : NAN;
    free(p);
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
    if (type == TLC_QUADRATIC) {
        r.log1mp = chisq_log_lower(r.stat, r.dim);
        return r;
    }
    double *p = malloc(k * sizeof *p);
    size_t kp = 0;
    for (size_t c = 0; p && c < k; c++)
        if (cls[c] > 0)
            p[kp++] = cls[c] / n;
    r.log1mp = p ? log1mp_of(type, r.stat, r.dim, p, kp, NULL, 0) : NAN;
    free(p);
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

/* ---- a numeric target: h(y) = y, one column; V_h = sum w (y - mean)^2 / n ---- */

static double var_h(double n, double sy, double syy)
{
    double v = (syy - sy * sy / n) / n;
    return v > 0 ? v : 0;
}

tlc_test tlc_reg_numeric_test(double n, double sx, double sxx, double sy, double syy, double sxy,
                              tlc_teststat type)
{
    tlc_test r = {0, 0, 0, NAN};
    if (n <= 1)
        return r;
    double vh = syy / n, v = (vh > 0 ? vh : 0) * (n * sxx - sx * sx) / (n - 1);
    double t = sxy - sx * (sy / n); /* libcoin's expectation: the influence's mean times sum w x */
    if (!(v >= TLC_TOL))
        return r;
    r.ok = 1;
    r.dim = 1;
    r.stat = type == TLC_QUADRATIC ? t * t / v : fabs(t) / sqrt(v);
    r.log1mp = type == TLC_QUADRATIC ? chisq_log_lower(r.stat, 1) : norm_log1mp(r.stat);
    return r;
}

double tlc_reg_levels_ss(const double *levels, size_t nb)
{
    double n = 0, sy = 0, syy = 0;
    for (size_t b = 0; b < nb; b++) {
        n += levels[3 * b];
        sy += levels[3 * b + 1];
        syy += levels[3 * b + 2];
    }
    return n > 0 ? syy - sy * sy / n : 0;
}

tlc_test tlc_reg_table_test(const double *levels, size_t nb, double ss, tlc_teststat type)
{
    tlc_test r = {0, 0, 0, NAN};
    double n = 0, sy = 0;
    size_t rows = 0;
    for (size_t b = 0; b < nb; b++) {
        n += levels[3 * b];
        sy += levels[3 * b + 1];
        rows += levels[3 * b] > 0;
    }
    if (n <= 1)
        return r;
    double vh = ss > 0 ? ss / n : 0, sum = 0, best = 0, maxvar = 0;
    for (size_t b = 0; b < nb; b++) {
        double nl = levels[3 * b];
        if (nl <= 0)
            continue;
        double t = levels[3 * b + 1] - nl * sy / n, var = vh * nl * (n - nl) / (n - 1);
        maxvar = var > maxvar ? var : maxvar;
        sum += t * t / nl;
        if (var > TLC_TOL && fabs(t) / sqrt(var) > best)
            best = fabs(t) / sqrt(var);
    }
    if (!(maxvar >= TLC_TOL) || rows < 2)
        return r;
    r.ok = 1;
    if (type == TLC_QUADRATIC) {
        r.stat = sum * (n - 1) / (n * vh);
        r.dim = (double)(rows - 1);
        r.log1mp = chisq_log_lower(r.stat, r.dim);
        return r;
    }
    r.stat = best;
    r.dim = (double)rows;
    double *q = malloc(nb * sizeof *q);
    size_t lq = 0;
    for (size_t b = 0; q && b < nb; b++)
        if (levels[3 * b] > 0)
            q[lq++] = levels[3 * b] / n;
    r.log1mp = !q ? NAN : lq == 2 ? norm_log1mp(r.stat) : mc_max_log1mp(r.stat, q, lq, NULL, 0);
    free(q);
    return r;
}

double tlc_reg_two_sample(const double *left, const double *parent, tlc_teststat type)
{
    double n = parent[0], nl = left[0];
    if (n <= 1)
        return 0;
    double v = var_h(n, parent[1], parent[2]) * nl * (n - nl) / (n - 1);
    double t = left[1] - nl * parent[1] / n;
    if (!(v > 0))
        return 0;
    return type == TLC_QUADRATIC ? t * t / v : (v > TLC_TOL ? fabs(t) / sqrt(v) : 0);
}
