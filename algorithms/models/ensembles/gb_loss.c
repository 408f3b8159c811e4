/* Gradient boosting's losses as scikit-learn 1.2's _gb_losses: the prior, the negative
 * gradient, the leaf rules (Newton step for log_loss, weighted medians for absolute_error and
 * huber), the loss itself, and raw predictions turned into probabilities. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gradient_boosting.h"

void tl_gb_run_free(tl_gb_run *run)
{
    tl_ens_base_clear(&run->base);
    for (size_t k = 0; run->residual && run->residual[k]; k++)
        free(run->residual[k]);
    free(run->residual);
    free(run->rows);
    free(run->pick);
    free(run->mask);
    free(run->y);
    free(run->w);
    free(run->raw);
    free(run->prev);
    free(run->tmp);
    free(run->buf);
    free(run->wbuf);
    free(run->idx);
    free(run->leaf);
    free(run->history);
}

static const double *sort_values;
static int by_value(const void *a, const void *b)
{
    double x = sort_values[*(const size_t *)a], y = sort_values[*(const size_t *)b];
    return (x > y) - (x < y);
}

/* scikit-learn's _weighted_percentile of v[0..n) with weights w: the least value whose
 * cumulative weight (in increasing order of value) reaches pct / 100 of the total. idx: n. */
static double weighted_percentile(const double *v, const double *w, size_t n, double pct,
                                  size_t *idx)
{
    for (size_t i = 0; i < n; i++)
        idx[i] = i;
    sort_values = v; /* qsort has no user pointer; a fit runs one sort at a time */
    qsort(idx, n, sizeof *idx, by_value);
    double total = 0;
    for (size_t i = 0; i < n; i++)
        total += w[idx[i]];
    double adj = pct / 100 * total, cum = 0;
    if (adj == 0)
        adj = nextafter(adj, adj + 1);
    for (size_t i = 0; i < n; i++) {
        cum += w[idx[i]];
        if (cum >= adj)
            return v[idx[i]];
    }
    return v[idx[n - 1]];
}

/* numpy's percentile (linear method) of v[0..n), unweighted. */
static double percentile(const double *v, size_t n, double q, size_t *idx)
{
    for (size_t i = 0; i < n; i++)
        idx[i] = i;
    sort_values = v;
    qsort(idx, n, sizeof *idx, by_value);
    double pos = q / 100 * (double)(n - 1), t = pos - floor(pos);
    size_t lo = (size_t)floor(pos), hi = lo + 1 < n ? lo + 1 : lo;
    double a = v[idx[lo]], b = v[idx[hi]], diff = b - a;
    return t >= 0.5 ? b - diff * (1 - t) : a + diff * t;
}

static double expit(double x)
{
    return 1 / (1 + exp(-x));
}

/* scipy's logsumexp of one row of K raw predictions. */
static double logsumexp(const double *r, size_t K)
{
    double m = r[0], s = 0;
    for (size_t k = 1; k < K; k++)
        m = r[k] > m ? r[k] : m;
    if (!isfinite(m))
        m = 0;
    for (size_t k = 0; k < K; k++)
        s += exp(r[k] - m);
    return log(s) + m;
}

/* The prior (scikit-learn's init estimator) on the fitted rows into g->init. */
static void prior(tl_gb *g, const tl_gb_run *run)
{
    size_t n = run->n_fit;
    double W = 0;
    for (size_t i = 0; i < n; i++)
        W += run->w[run->rows[i]];
    if (g->fitted_loss == TL_GB_LOG) {
        const double eps = FLT_EPSILON; /* np.finfo(np.float32).eps */
        for (size_t c = 0; c < g->classes; c++) {
            double wc = 0;
            for (size_t i = 0; i < n; i++)
                wc += run->y[run->rows[i]] == (double)c ? run->w[run->rows[i]] : 0;
            double p = wc / W;
            p = p < eps ? eps : p > 1 - eps ? 1 - eps : p;
            if (g->K == 1 && c == 1)
                g->init[0] = log(p / (1 - p));
            else if (g->K > 1)
                g->init[c] = log(p);
        }
    } else if (g->fitted_loss == TL_GB_SQUARED) {
        double s = 0;
        for (size_t i = 0; i < n; i++)
            s += run->w[run->rows[i]] * run->y[run->rows[i]];
        g->init[0] = s / W;
    } else { /* the median: numpy's unweighted, or the weighted percentile */
        int weighted = 0;
        for (size_t i = 0; i < n; i++) {
            run->buf[i] = run->y[run->rows[i]];
            run->wbuf[i] = run->w[run->rows[i]];
            weighted |= run->wbuf[i] != 1;
        }
        g->init[0] = weighted ? weighted_percentile(run->buf, run->wbuf, n, 50, run->idx)
                              : percentile(run->buf, n, 50, run->idx);
    }
}

int tl_gb_prepare(tl_gb *g, const tl_dataset *d, tl_gb_run *run, tl_err *err)
{
    size_t nd = d->n_rows ? d->n_rows : 1, K = g->K;
    free(g->init);
    g->init = calloc(K, sizeof *g->init);
    run->pick = malloc(nd * sizeof *run->pick);
    run->mask = calloc(nd, sizeof *run->mask);
    run->y = malloc(nd * sizeof *run->y);
    run->w = malloc(nd * sizeof *run->w);
    run->raw = malloc(nd * K * sizeof *run->raw);
    run->prev = malloc(nd * K * sizeof *run->prev);
    run->residual = calloc(K + 1, sizeof *run->residual);
    run->tmp = malloc(nd * sizeof *run->tmp);
    run->buf = malloc(nd * sizeof *run->buf);
    run->wbuf = malloc(nd * sizeof *run->wbuf);
    run->idx = malloc(nd * sizeof *run->idx);
    run->leaf = malloc(nd * sizeof *run->leaf);
    run->history = malloc((g->n_iter_no_change + 1) * sizeof *run->history);
    int ok = g->init && run->pick && run->mask && run->y && run->w && run->raw && run->prev &&
             run->residual && run->tmp && run->buf && run->wbuf && run->idx && run->leaf &&
             run->history;
    for (size_t k = 0; ok && k < K; k++)
        ok = (run->residual[k] = calloc(nd, sizeof **run->residual)) != NULL;
    if (!ok)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    size_t n = run->n_fit + run->n_valid;
    for (size_t i = 0; i < n; i++) {
        size_t r = run->rows[i];
        run->y[r] = g->classes ? (double)d->y.code[r] : d->y.num[r];
        run->w[r] = tl_dataset_weight(d, r);
    }
    prior(g, run);
    for (size_t i = 0; i < n; i++)
        memcpy(run->raw + run->rows[i] * K, g->init, K * sizeof *g->init);
    for (size_t j = 0; j < g->n_iter_no_change; j++)
        run->history[j] = INFINITY;
    run->gamma = NAN;
    return TL_OK;
}

void tl_gb_gradients(const tl_gb *g, const tl_dataset *d, tl_gb_run *run)
{
    (void)d;
    size_t K = g->K, n = run->n_fit;
    memcpy(run->prev, run->raw, (d->n_rows ? d->n_rows : 1) * K * sizeof *run->raw);
    if (g->fitted_loss == TL_GB_HUBER) {
        for (size_t i = 0; i < n; i++) {
            size_t r = run->rows[i];
            run->buf[i] = fabs(run->y[r] - run->prev[r]);
            run->wbuf[i] = run->w[r];
        }
        run->gamma = weighted_percentile(run->buf, run->wbuf, n, g->alpha * 100, run->idx);
    }
    for (size_t i = 0; i < n; i++) {
        size_t r = run->rows[i];
        const double *raw = run->prev + r * K;
        double y = run->y[r], diff = y - raw[0];
        switch (g->fitted_loss) {
        case TL_GB_LOG:
            if (K == 1) {
                run->residual[0][r] = y - expit(raw[0]);
            } else {
                double lse = logsumexp(raw, K);
                for (size_t k = 0; k < K; k++) {
                    double p = exp(raw[k] - lse);
                    run->residual[k][r] = (y == (double)k) - (isfinite(p) ? p : 0);
                }
            }
            break;
        case TL_GB_SQUARED: run->residual[0][r] = diff; break;
        case TL_GB_ABSOLUTE: run->residual[0][r] = diff > 0 ? 1 : -1; break;
        default:
            run->residual[0][r] = fabs(diff) <= run->gamma ? diff
                                  : diff > 0               ? run->gamma
                                  : diff < 0               ? -run->gamma
                                                           : 0;
        }
    }
}

/* The leaf a row reaches, or SIZE_MAX when an unknown value sends it down several branches. */
static size_t leaf_of(const tl_tree *t, const tl_dataset *d, size_t row)
{
    size_t node = 0;
    while (t->attr[node] >= 0) {
        int b = tl_tree_route_row(t, node, d, row);
        if (b < 0 || (size_t)b >= t->n_children[node])
            return SIZE_MAX;
        node = t->first_child[node] + (size_t)b;
    }
    return node;
}

/* The loss's value for one leaf from its rows' buf (residual or y - raw) and wbuf. */
static double leaf_value(const tl_gb *g, tl_gb_run *run, const size_t *in, size_t m, size_t k)
{
    if (g->fitted_loss == TL_GB_LOG) {
        double num = 0, den = 0;
        for (size_t j = 0; j < m; j++) {
            size_t r = in[j];
            double res = run->residual[k][r], w = run->w[r];
            double y = g->K == 1 ? run->y[r] : (double)(run->y[r] == (double)k);
            num += w * res;
            den += w * (y - res) * (1 - y + res);
        }
        if (g->K > 1)
            num *= (double)(g->K - 1) / (double)g->K;
        return fabs(den) < 1e-150 ? 0 : num / den;
    }
    for (size_t j = 0; j < m; j++) {
        run->buf[j] = run->y[in[j]] - run->prev[in[j] * g->K + k];
        run->wbuf[j] = run->w[in[j]];
    }
    double median = weighted_percentile(run->buf, run->wbuf, m, 50, run->idx);
    if (g->fitted_loss == TL_GB_ABSOLUTE)
        return median;
    double s = 0;
    for (size_t j = 0; j < m; j++) {
        double dm = run->buf[j] - median, a = fabs(dm) < run->gamma ? fabs(dm) : run->gamma;
        s += (dm > 0 ? 1 : dm < 0 ? -1 : 0) * a;
    }
    return median + s / (double)m;
}

int tl_gb_update(const tl_gb *g, const tl_dataset *d, tl_gb_run *run, tl_tree *tree, size_t k,
                 tl_err *err)
{
    size_t K = g->K, n_all = run->n_fit + run->n_valid;
    if (g->fitted_loss != TL_GB_SQUARED) {
        if (tl_tree_keep_values(tree, err))
            return TL_ENOMEM;
        for (size_t v = 0; v < tree->n_nodes; v++) {
            double w = tree->stats[v * TL_REG_STATS];
            tree->value[v] = w > 0 ? tree->stats[v * TL_REG_STATS + 1] / w : 0;
        }
        /* each stage row's leaf, then the rows of each leaf in row order */
        size_t m = 0;
        for (size_t i = 0; i < run->n_fit; i++) {
            size_t r = run->rows[i];
            if (g->subsample < 1 && !run->mask[r])
                continue;
            run->leaf[m] = leaf_of(tree, d, r);
            run->pick[m++] = r;
        }
        size_t *in = malloc((m ? m : 1) * sizeof *in);
        if (!in)
            return tl_err_set(err, TL_ENOMEM, "out of memory");
        for (size_t v = 0; v < tree->n_nodes; v++) {
            if (tree->attr[v] >= 0)
                continue;
            size_t c = 0;
            for (size_t j = 0; j < m; j++)
                if (run->leaf[j] == v)
                    in[c++] = run->pick[j];
            if (c)
                tree->value[v] = leaf_value(g, run, in, c, k);
        }
        free(in);
    }
    int rc = tl_tree_predict(tree, d, run->rows, n_all, run->tmp, err);
    for (size_t i = 0; !rc && i < n_all; i++)
        run->raw[run->rows[i] * K + k] += g->learning_rate * run->tmp[i];
    return rc;
}

double tl_gb_loss(const tl_gb *g, const tl_dataset *d, const tl_gb_run *run, const size_t *rows,
                  size_t n)
{
    (void)d;
    double s = 0, W = 0, sq = 0, lin = 0;
    size_t K = g->K;
    for (size_t i = 0; i < n; i++) {
        size_t r = rows[i];
        const double *raw = run->raw + r * K;
        double w = run->w[r], y = run->y[r], diff = y - raw[0];
        W += w;
        switch (g->fitted_loss) {
        case TL_GB_LOG:
            if (K == 1) {
                double lae = (raw[0] > 0 ? raw[0] : 0) + log1p(exp(-fabs(raw[0])));
                s += w * (y * raw[0] - lae);
            } else {
                s += w * (logsumexp(raw, K) - raw[(size_t)y]);
            }
            break;
        case TL_GB_SQUARED: s += w * diff * diff; break;
        case TL_GB_ABSOLUTE: s += w * fabs(diff); break;
        default:
            if (fabs(diff) <= run->gamma)
                sq += w * 0.5 * diff * diff;
            else
                lin += w * run->gamma * (fabs(diff) - run->gamma / 2);
        }
    }
    if (g->fitted_loss == TL_GB_HUBER)
        return (sq + lin) / W;
    if (g->fitted_loss == TL_GB_LOG && K == 1)
        return -2 * s / W;
    return s / W;
}

int tl_gb_stop(const tl_gb *g, tl_gb_run *run, size_t i, double v)
{
    size_t m = g->n_iter_no_change;
    for (size_t j = 0; j < m; j++)
        if (v + g->tol < run->history[j]) {
            run->history[i % m] = v;
            return 0;
        }
    return 1;
}

int tl_gb_raw(const tl_gb *g, const tl_dataset *d, const size_t *rows, size_t n, size_t stages,
              double *raw, tl_err *err)
{
    size_t K = g->K;
    double *tmp = malloc((n ? n : 1) * sizeof *tmp);
    if (!tmp)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    for (size_t i = 0; i < n; i++)
        memcpy(raw + i * K, g->init, K * sizeof *raw);
    int rc = TL_OK;
    for (size_t s = 0; s < stages && !rc; s++)
        for (size_t k = 0; k < K && !rc; k++) {
            rc = tl_tree_predict(g->trees.t[s * K + k], d, rows, n, tmp, err);
            for (size_t i = 0; !rc && i < n; i++)
                raw[i * K + k] += g->learning_rate * tmp[i];
        }
    free(tmp);
    return rc;
}

void tl_gb_output(const tl_gb *g, const double *raw, size_t n, double *out)
{
    for (size_t i = 0; i < n; i++) {
        if (!g->classes) {
            out[i] = raw[i];
        } else if (g->K == 1) {
            double p = expit(raw[i]);
            out[2 * i] = 1 - p;
            out[2 * i + 1] = p;
        } else {
            double lse = logsumexp(raw + i * g->K, g->K);
            for (size_t k = 0; k < g->K; k++)
                out[i * g->K + k] = exp(raw[i * g->K + k] - lse);
        }
    }
}

int tl_gb_importances(tl_gb *g, tl_err *err)
{
    size_t na = g->n_attrs, used = 0;
    free(g->importances);
    if (!(g->importances = calloc(na ? na : 1, sizeof *g->importances)))
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    double *sum = calloc(na ? na : 1, sizeof *sum);
    if (!sum)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    for (size_t t = 0; t < g->trees.n; t++)
        if (g->trees.t[t]->n_nodes > 1) {
            tl_ens_tree_importances(g->trees.t[t], na, sum);
            used++;
        }
    double total = 0;
    for (size_t a = 0; a < na && used; a++)
        total += g->importances[a] = sum[a] / (double)used;
    for (size_t a = 0; a < na && total > 0; a++)
        g->importances[a] /= total;
    free(sum);
    return TL_OK;
}
