/* The optimal learner's binary view of the data: cuts of numeric attributes (every midpoint,
 * or one below each K-quantile) and one-vs-rest levels of nominal ones, as row bit sets. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "optimal_impl.h"

int opt_rule_check(const char *rule, tl_err *err)
{
    if (!strcmp(rule, "midpoints"))
        return TL_OK;
    if (!strncmp(rule, "quantiles:", 10)) {
        char *end;
        long k = strtol(rule + 10, &end, 10);
        if (end != rule + 10 && !*end && k >= 2 && k <= 1024)
            return TL_OK;
    }
    return tl_err_set(err, TL_EINVAL,
                      "binarize '%s': expected midpoints or quantiles:K with K in [2, 1024]", rule);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Cuts of the sorted values v[0..n) into t (room for n), ascending and distinct; the count. */
static size_t cuts(const double *v, size_t n, long quantiles, double *t)
{
    size_t m = 0;
    if (!quantiles) {
        for (size_t i = 1; i < n; i++)
            if (v[i] > v[i - 1])
                t[m++] = v[i - 1] + (v[i] - v[i - 1]) / 2;
        return m;
    }
    for (long q = 1; q < quantiles; q++) {
        size_t pos = (size_t)((double)q * (double)n / (double)quantiles);
        size_t lo = pos; /* the cut goes just below the distinct value at the quantile */
        while (lo > 0 && v[lo - 1] == v[pos])
            lo--;
        if (lo == 0)
            continue;
        double c = v[lo - 1] + (v[lo] - v[lo - 1]) / 2;
        if (!m || c > t[m - 1])
            t[m++] = c;
    }
    return m;
}

static int add_feature(opt_data *d, size_t *cap, opt_feature f)
{
    if (d->n_feat == *cap) {
        size_t nc = *cap ? *cap * 2 : 64;
        opt_feature *p = realloc(d->feat, nc * sizeof *p);
        if (!p)
            return TL_ENOMEM;
        d->feat = p;
        *cap = nc;
    }
    d->feat[d->n_feat++] = f;
    return TL_OK;
}

/* The features of attribute a; vals is scratch for n values. */
static int attr_features(opt_data *d, size_t *cap, const tl_dataset *ds, size_t a,
                         const size_t *rows, size_t n, long quantiles, int refuse, double *vals,
                         tl_err *err)
{
    const tl_attr_info *info = &ds->schema.attrs[a];
    size_t known = 0;
    for (size_t i = 0; i < n; i++) {
        if (!tl_dataset_is_missing(ds, a, rows[i]))
            vals[known++] = info->kind == TL_ATTR_NOMINAL ? 0 : ds->cols[a].num[rows[i]];
        else if (refuse)
            return tl_err_set(err, TL_EINVAL,
                              "optimal: attribute '%s' is unknown in row %zu, and missing = "
                              "refuse (missing = zero sends unknown values to branch 0)",
                              info->name, rows[i] + 1);
    }
    if (info->kind == TL_ATTR_NOMINAL) {
        size_t *count = calloc(info->n_levels ? info->n_levels : 1, sizeof *count);
        if (!count)
            return tl_err_set(err, TL_ENOMEM, "out of memory");
        for (size_t i = 0; i < n; i++)
            if (ds->cols[a].code[rows[i]] >= 0)
                count[ds->cols[a].code[rows[i]]]++;
        int rc = TL_OK;
        size_t from = info->n_levels == 2 ? 1 : 0; /* two levels: one feature */
        for (size_t l = from; l < info->n_levels && !rc; l++)
            if (count[l] > 0 && count[l] < n)
                rc = add_feature(d, cap, (opt_feature){a, 1, 0, (int)l});
        free(count);
        return rc ? tl_err_set(err, TL_ENOMEM, "out of memory") : TL_OK;
    }
    qsort(vals, known, sizeof *vals, cmp_double);
    size_t m = cuts(vals, known, quantiles, vals + n);
    for (size_t i = 0; i < m; i++)
        if (add_feature(d, cap, (opt_feature){a, 0, vals[n + i], -1}))
            return tl_err_set(err, TL_ENOMEM, "out of memory");
    return TL_OK;
}

/* An unknown value is 0: nominal codes are negative, and NaN > t is false. */
static int feature_value(const opt_feature *f, const tl_dataset *ds, size_t row)
{
    if (f->nominal)
        return ds->cols[f->attr].code[row] == f->level;
    return ds->cols[f->attr].num[row] > f->threshold;
}

/* Row bits and the sorted lists of features that are 1. */
static int fill_rows(opt_data *d, const tl_dataset *ds, const size_t *rows, tl_err *err)
{
    size_t n = d->n_rows, ones = 0;
    d->words = d->n_feat / 64 + 1;
    d->bits = calloc(n * d->words, sizeof *d->bits);
    d->off = malloc((n + 1) * sizeof *d->off);
    if (!d->bits || !d->off)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    for (size_t r = 0; r < n; r++)
        for (size_t f = 0; f < d->n_feat; f++)
            if (feature_value(&d->feat[f], ds, rows[r])) {
                d->bits[r * d->words + f / 64] |= (uint64_t)1 << (f % 64);
                ones++;
            }
    if (ones > UINT32_MAX)
        return tl_err_set(err, TL_EINVAL, "optimal: too many binary values (%zu)", ones);
    d->present = malloc((ones ? ones : 1) * sizeof *d->present);
    if (!d->present)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    size_t at = 0;
    for (size_t r = 0; r < n; r++) {
        d->off[r] = (uint32_t)at;
        for (size_t f = 0; f < d->n_feat; f++)
            if (opt_bit(d, r, f))
                d->present[at++] = (uint32_t)f;
    }
    d->off[n] = (uint32_t)at;
    return TL_OK;
}

int opt_data_build(opt_data *d, const tl_dataset *ds, const size_t *rows, size_t n,
                   const char *rule, int refuse, tl_err *err)
{
    memset(d, 0, sizeof *d);
    if (n > UINT32_MAX)
        return tl_err_set(err, TL_EINVAL, "optimal: too many rows (%zu)", n);
    long quantiles = strcmp(rule, "midpoints") ? strtol(rule + 10, NULL, 10) : 0;
    d->n_rows = n;
    d->k = tl_dataset_n_classes(ds);
    d->cls = malloc((n ? n : 1) * sizeof *d->cls);
    d->w = malloc((n ? n : 1) * sizeof *d->w);
    double *vals = malloc((2 * n + 1) * sizeof *vals);
    size_t cap = 0;
    int rc = TL_OK;
    if (!d->cls || !d->w || !vals) {
        rc = tl_err_set(err, TL_ENOMEM, "out of memory");
        goto done;
    }
    d->unit_weights = 1;
    for (size_t i = 0; i < n; i++) {
        d->cls[i] = ds->y.code[rows[i]];
        d->w[i] = tl_dataset_weight(ds, rows[i]);
        if (d->cls[i] < 0 || (size_t)d->cls[i] >= d->k) {
            rc = tl_err_set(err, TL_EINVAL, "optimal: row %zu has no class", rows[i] + 1);
            goto done;
        }
        if (!(d->w[i] >= 0) || !isfinite(d->w[i])) {
            rc = tl_err_set(err, TL_EINVAL, "optimal: row %zu has weight %g", rows[i] + 1, d->w[i]);
            goto done;
        }
        if (d->w[i] != floor(d->w[i]) || d->w[i] > 1e9)
            d->unit_weights = 0;
    }
    for (size_t a = 0; a < ds->schema.n_attrs && !rc; a++)
        rc = attr_features(d, &cap, ds, a, rows, n, quantiles, refuse, vals, err);
    if (!rc)
        rc = fill_rows(d, ds, rows, err);
done:
    free(vals);
    if (rc)
        opt_data_clear(d);
    return rc;
}

void opt_data_clear(opt_data *d)
{
    free(d->feat);
    free(d->bits);
    free(d->off);
    free(d->present);
    free(d->cls);
    free(d->w);
    memset(d, 0, sizeof *d);
}
