/* Shaffer's static procedure (1986) for all pairs of k models, as García & Herrera (2008,
 * section 2.2.2) apply it to classifiers: Holm's step-down with each divisor lowered to the
 * most hypotheses that can still be true together. */
#include <gsl/gsl_sort.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "treelab/tl_stats.h"

/* s[j * (m + 1) + x] = 1 when exactly x of the pairs of j models can be true at once
 * (Shaffer's S(j)): the j models split into groups equal within, the first of size i
 * contributing i (i - 1) / 2 true equalities, S(j) = U_i { C(i, 2) + x : x in S(j - i) }. */
static void true_counts(size_t k, size_t m, unsigned char *s)
{
    s[0] = 1; /* S(0) = {0} */
    for (size_t j = 1; j <= k; j++)
        for (size_t i = 1; i <= j; i++) {
            size_t c = i * (i - 1) / 2;
            const unsigned char *rest = s + (j - i) * (m + 1);
            for (size_t x = 0; x + c <= m; x++)
                if (rest[x])
                    s[j * (m + 1) + x + c] = 1;
        }
}

int tl_shaffer(const double *p, size_t k, double alpha, double *adjusted, int *reject, tl_err *err)
{
    if (k < 2 || k > TL_SHAFFER_MAX_MODELS)
        return tl_err_set(err, TL_EINVAL, "Shaffer's procedure: %zu models, expected 2 to %d", k,
                          TL_SHAFFER_MAX_MODELS);
    size_t m = k * (k - 1) / 2;
    unsigned char *s = calloc((k + 1) * (m + 1), 1);
    size_t *order = malloc(m * sizeof *order);
    double *key = malloc(m * sizeof *key);
    if (!s || !order || !key) {
        free(s);
        free(order);
        free(key);
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    }
    true_counts(k, m, s);
    const unsigned char *sk = s + k * (m + 1);
    for (size_t i = 0; i < m; i++)
        key[i] = isnan(p[i]) ? 2 : p[i]; /* an untested pair sorts last, kept */
    gsl_sort_index(order, key, 1, m);
    double running = 0;
    for (size_t i = 0; i < m; i++) {
        size_t h = order[i], t = m - i; /* at most m - i true once i are false */
        while (t > 0 && !sk[t])
            t--;
        if (isnan(p[h])) {
            adjusted[h] = NAN;
            reject[h] = 0;
            continue;
        }
        /* t = 0 only when no hypothesis can be true: the p stands as it is */
        running = fmax(running, fmin(1.0, (t ? (double)t : 1.0) * p[h]));
        adjusted[h] = running;
        reject[h] = running < alpha;
    }
    free(s);
    free(order);
    free(key);
    return TL_OK;
}
