/* The histogram splitter's bin boundaries (tl_histogram_thresholds): one bin per distinct
 * value, or numpy's "midpoint" quantiles as scikit-learn's _find_binning_thresholds. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "threshold.h"
#include "treelab/tl_plugin.h"
#include "treelab/tl_splitters.h"

#define TL_MAX_BINS 65535

/* A double's bits as an unsigned key with the same order, and back (no NaN here). */
static uint64_t to_key(double v)
{
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    return (b >> 63) ? ~b : b | 0x8000000000000000ull;
}

static double from_key(uint64_t k)
{
    uint64_t b = (k >> 63) ? k & 0x7fffffffffffffffull : ~k;
    double v;
    memcpy(&v, &b, sizeof v);
    return v;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Below this many values qsort wins (the radix sort clears 64 K counters per pass). */
#define TL_RADIX_MIN_VALUES 4096

/* Sorts v[0..n) ascending: an LSD radix sort on 16-bit digits of the keys (binning sorts
 * each column of a fit once, as the exact grower's presort does). TL_ENOMEM. */
static int sort_values(double *v, size_t n)
{
    if (n < TL_RADIX_MIN_VALUES) {
        qsort(v, n, sizeof *v, cmp_double);
        return TL_OK;
    }
    uint64_t *a = malloc(2 * (n ? n : 1) * sizeof *a);
    size_t *count = calloc(65536, sizeof *count);
    if (!a || !count) {
        free(a);
        free(count);
        return TL_ENOMEM;
    }
    uint64_t *tmp = a + n;
    for (size_t i = 0; i < n; i++)
        a[i] = to_key(v[i]);
    for (int d = 0; d < 4 && n > 1; d++) {
        memset(count, 0, 65536 * sizeof *count);
        for (size_t i = 0; i < n; i++)
            count[(a[i] >> (16 * d)) & 0xffff]++;
        if (count[(a[0] >> (16 * d)) & 0xffff] == n)
            continue; /* every key has this digit */
        for (size_t c = 0, sum = 0; c < 65536; c++) {
            size_t t = count[c];
            count[c] = sum;
            sum += t;
        }
        for (size_t i = 0; i < n; i++)
            tmp[count[(a[i] >> (16 * d)) & 0xffff]++] = a[i];
        memcpy(a, tmp, n * sizeof *a);
    }
    for (size_t i = 0; i < n; i++)
        v[i] = from_key(a[i]);
    free(a);
    free(count);
    return TL_OK;
}

/* numpy.percentile(v, 100 * i / max_bins, method="midpoint") of the m sorted values, as
 * numpy 1.24 computes it: the virtual index (floor + ceil) / 2 of (m - 1) q, then
 * _lerp(a, b, 1/2) = b - (b - a) / 2 between its neighbours (a itself at a whole index). */
static double midpoint_quantile(const double *v, size_t m, size_t i, size_t max_bins)
{
    double q = ((double)i * (100.0 / (double)max_bins)) / 100.0;
    double at = (double)(m - 1) * q, lo = floor(at), hi = ceil(at);
    size_t f = (size_t)lo, next = f + 1 < m ? f + 1 : m - 1;
    double a = v[f], b = v[next], diff = b - a;
    return lo == hi ? a + diff * 0.0 : b - diff * 0.5;
}

int tl_histogram_thresholds(const double *x, size_t n, size_t max_bins, double *thr, size_t *n_thr,
                            tl_err *err)
{
    *n_thr = 0;
    if (max_bins < 2 || max_bins > TL_MAX_BINS)
        return tl_err_set(err, TL_EINVAL,
                          "histogram: max_bins = %zu is out of range [2, %d] (one bin cannot "
                          "be cut; bins are counted in 16 bits)",
                          max_bins, TL_MAX_BINS);
    double *v = malloc((n ? n : 1) * sizeof *v);
    if (!v)
        return tl_err_set(err, TL_ENOMEM, "out of memory binning %zu values", n);
    size_t m = 0, distinct = 0;
    for (size_t i = 0; i < n; i++)
        if (!isnan(x[i]))
            v[m++] = x[i];
    if (sort_values(v, m)) {
        free(v);
        return tl_err_set(err, TL_ENOMEM, "out of memory binning %zu values", n);
    }
    for (size_t i = 0; i < m; i++)
        distinct += i == 0 || v[i] != v[i - 1];
    if (distinct <= max_bins) {
        /* a cut between adjacent distinct values, where the exact splitter would cut */
        for (size_t i = 1; i < m; i++)
            if (v[i] != v[i - 1] && !(v[i] <= v[i - 1] + TL_VALUE_EPS))
                thr[(*n_thr)++] = tl_midpoint(v[i - 1], v[i]);
    } else {
        for (size_t i = 1; i < max_bins; i++) {
            double t = midpoint_quantile(v, m, i, max_bins);
            if (*n_thr == 0 || t > thr[*n_thr - 1]) /* equal quantiles: one boundary */
                thr[(*n_thr)++] = t;
        }
    }
    free(v);
    return TL_OK;
}
