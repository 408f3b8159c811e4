/* Gaussian naive Bayes's estimation (scikit-learn's GaussianNB for numeric attributes, Weka's
 * Laplace-smoothed counts for nominal ones), and the fitted arrays it and a load fill. */
#include "gaussian_nb_impl.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* 2 pi, spelt out: M_PI is not ISO C. */
#define TL_TWO_PI 6.283185307179586476925286766559

void tl_gnb_clear_fit(gnb *g)
{
    free(g->kind);
    free(g->n_levels);
    free(g->prior);
    free(g->mean);
    free(g->var);
    free(g->level_prob);
    free(g->lev_off);
    free(g->log_prior);
    free(g->log_norm);
    free(g->log_level);
    g->kind = NULL;
    g->n_levels = NULL;
    g->prior = g->mean = g->var = g->level_prob = NULL;
    g->lev_off = NULL;
    g->log_prior = g->log_norm = g->log_level = NULL;
    g->k = g->p = g->n_lev_total = 0;
}

int tl_gnb_alloc_fit(gnb *g, tl_err *err)
{
    size_t k = g->k, p = g->p;
    g->lev_off = calloc(p ? p : 1, sizeof *g->lev_off);
    g->n_lev_total = 0;
    for (size_t j = 0; g->lev_off && j < p; j++) {
        g->lev_off[j] = g->n_lev_total;
        g->n_lev_total += (size_t)g->n_levels[j];
    }
    size_t kp = k * (p ? p : 1), kl = k * (g->n_lev_total ? g->n_lev_total : 1);
    g->prior = calloc(k, sizeof *g->prior);
    g->log_prior = calloc(k, sizeof *g->log_prior);
    g->mean = calloc(kp, sizeof *g->mean);
    g->var = calloc(kp, sizeof *g->var);
    g->log_norm = calloc(kp, sizeof *g->log_norm);
    g->level_prob = calloc(kl, sizeof *g->level_prob);
    g->log_level = calloc(kl, sizeof *g->log_level);
    if (!g->lev_off || !g->prior || !g->log_prior || !g->mean || !g->var || !g->log_norm ||
        !g->level_prob || !g->log_level)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    return TL_OK;
}

/* The logarithms predict uses, computed the same way after fit and after load. */
void tl_gnb_derive(gnb *g)
{
    for (size_t c = 0; c < g->k; c++) {
        g->log_prior[c] = log(g->prior[c]); /* -inf for a zero prior: that class gets 0 */
        for (size_t j = 0; j < g->p; j++)
            if (g->kind[j] == TL_ATTR_NUMERIC)
                g->log_norm[c * g->p + j] = -0.5 * log(TL_TWO_PI * g->var[c * g->p + j]);
        for (size_t l = 0; l < g->n_lev_total; l++)
            g->log_level[c * g->n_lev_total + l] = log(g->level_prob[c * g->n_lev_total + l]);
    }
}

/* scikit-learn takes epsilon from the unweighted (ddof = 0) variance of all training rows;
 * missing cells are left out. */
static double largest_variance(const tl_dataset *d, const size_t *rows, size_t n)
{
    double best = 0;
    for (size_t j = 0; j < d->schema.n_attrs; j++) {
        if (d->schema.attrs[j].kind != TL_ATTR_NUMERIC)
            continue;
        const double *x = d->cols[j].num;
        double sum = 0, ss = 0;
        size_t m = 0;
        for (size_t i = 0; i < n; i++)
            if (!isnan(x[rows[i]])) {
                sum += x[rows[i]];
                m++;
            }
        if (!m)
            continue;
        double mu = sum / (double)m;
        for (size_t i = 0; i < n; i++)
            if (!isnan(x[rows[i]]))
                ss += (x[rows[i]] - mu) * (x[rows[i]] - mu);
        if (ss / (double)m > best)
            best = ss / (double)m;
    }
    return best;
}

/* Weighted mean and biased variance of numeric attribute j over rows of class c (c < 0: all
 * classes). Returns the weight of the known values. */
static double weighted_moments(const tl_dataset *d, const size_t *rows, size_t n, size_t j, int c,
                               double *mean, double *var)
{
    const double *x = d->cols[j].num;
    double sw = 0, swx = 0, ss = 0;
    for (size_t i = 0; i < n; i++) {
        size_t r = rows[i];
        if ((c < 0 || d->y.code[r] == c) && !isnan(x[r])) {
            double w = tl_dataset_weight(d, r);
            sw += w;
            swx += w * x[r];
        }
    }
    if (sw <= 0)
        return 0;
    *mean = swx / sw;
    for (size_t i = 0; i < n; i++) {
        size_t r = rows[i];
        if ((c < 0 || d->y.code[r] == c) && !isnan(x[r]))
            ss += tl_dataset_weight(d, r) * (x[r] - *mean) * (x[r] - *mean);
    }
    *var = ss / sw;
    return sw;
}

static void fit_numeric(gnb *g, const tl_dataset *d, const size_t *rows, size_t n, size_t j)
{
    double pooled_mean = 0, pooled_var = 0;
    weighted_moments(d, rows, n, j, -1, &pooled_mean, &pooled_var);
    for (size_t c = 0; c < g->k; c++) {
        double mu = pooled_mean, v = pooled_var;
        /* A class with no known value falls back to all classes' estimate. */
        weighted_moments(d, rows, n, j, (int)c, &mu, &v);
        v += g->epsilon;
        /* only when every attribute is constant and var_smoothing is 0 */
        if (!(v > 0))
            v = DBL_MIN;
        g->mean[c * g->p + j] = mu;
        g->var[c * g->p + j] = v;
    }
}

/* Weka's NaiveBayes: P(level | class) = (count + 1) / (known weight of the class + levels). */
static void fit_nominal(gnb *g, const tl_dataset *d, const size_t *rows, size_t n, size_t j)
{
    size_t L = (size_t)g->n_levels[j], off = g->lev_off[j];
    for (size_t c = 0; c < g->k; c++)
        for (size_t l = 0; l < L; l++)
            g->level_prob[c * g->n_lev_total + off + l] = 1.0;
    for (size_t i = 0; i < n; i++) {
        size_t r = rows[i];
        int code = d->cols[j].code[r];
        if (code != TL_MISSING_CODE)
            g->level_prob[(size_t)d->y.code[r] * g->n_lev_total + off + (size_t)code] +=
                tl_dataset_weight(d, r);
    }
    for (size_t c = 0; c < g->k; c++) {
        double *pr = &g->level_prob[c * g->n_lev_total + off], total = 0;
        for (size_t l = 0; l < L; l++)
            total += pr[l];
        for (size_t l = 0; l < L; l++)
            pr[l] /= total;
    }
}

static int fit_priors(gnb *g, const tl_dataset *d, const size_t *rows, size_t n, tl_err *err)
{
    if (g->n_user_priors) {
        if (g->n_user_priors != g->k)
            return tl_err_set(err, TL_EINVAL, "gaussian_nb: %zu priors given for %zu classes",
                              g->n_user_priors, g->k);
        memcpy(g->prior, g->user_priors, g->k * sizeof *g->prior);
        return TL_OK;
    }
    double total = 0;
    for (size_t i = 0; i < n; i++) {
        double w = tl_dataset_weight(d, rows[i]);
        g->prior[d->y.code[rows[i]]] += w;
        total += w;
    }
    if (!(total > 0))
        return tl_err_set(err, TL_EINVAL, "gaussian_nb: the training rows weigh nothing");
    for (size_t c = 0; c < g->k; c++)
        g->prior[c] /= total;
    return TL_OK;
}

int tl_gnb_fit(void *state, const tl_dataset *d, const size_t *rows, size_t n,
               const tl_fit_ctx *ctx, tl_err *err)
{
    (void)ctx;
    gnb *g = state;
    tl_gnb_clear_fit(g);
    g->k = tl_dataset_n_classes(d);
    g->p = d->schema.n_attrs;
    if (g->k == 0)
        return tl_err_set(err, TL_EUNSUPPORTED, "gaussian_nb needs a nominal target");
    g->kind = calloc(g->p ? g->p : 1, sizeof *g->kind);
    g->n_levels = calloc(g->p ? g->p : 1, sizeof *g->n_levels);
    if (!g->kind || !g->n_levels)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    for (size_t j = 0; j < g->p; j++) {
        g->kind[j] = (int)d->schema.attrs[j].kind;
        g->n_levels[j] = g->kind[j] == TL_ATTR_NOMINAL ? (int)d->schema.attrs[j].n_levels : 0;
    }
    int rc = tl_gnb_alloc_fit(g, err);
    if (!rc)
        rc = fit_priors(g, d, rows, n, err);
    if (rc)
        return rc;
    g->epsilon = g->var_smoothing * largest_variance(d, rows, n);
    for (size_t j = 0; j < g->p; j++) {
        if (g->kind[j] == TL_ATTR_NUMERIC) {
            fit_numeric(g, d, rows, n, j);
        } else {
            for (size_t c = 0; c < g->k; c++)
                g->var[c * g->p + j] = 1.0;
            fit_nominal(g, d, rows, n, j);
        }
    }
    tl_gnb_derive(g);
    return TL_OK;
}
