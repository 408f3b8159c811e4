/* Stratified, seeded fold assignment over index arrays (rows are never copied). */
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <stdlib.h>

#include "treelab/tl_dataset.h"

int tl_folds_assign(const tl_dataset *d, const size_t *rows, size_t n, size_t k, unsigned long seed,
                    size_t *fold, tl_err *err)
{
    if (k < 2 || k > n)
        return tl_err_set(err, TL_EINVAL, "cannot make %zu folds of %zu rows", k, n);
    size_t n_groups = tl_dataset_is_classification(d) ? tl_dataset_n_classes(d) : 1;
    size_t *pos = malloc(n * sizeof *pos); /* positions into rows, grouped by class */
    size_t *start = calloc(n_groups + 1, sizeof *start);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!pos || !start || !rng) {
        free(pos);
        free(start);
        gsl_rng_free(rng);
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    }
    gsl_rng_set(rng, seed);
    for (size_t i = 0; i < n; i++)
        start[(n_groups > 1 ? (size_t)d->y.code[rows[i]] : 0) + 1]++;
    for (size_t g = 0; g < n_groups; g++)
        start[g + 1] += start[g];
    size_t *fill = malloc(n_groups * sizeof *fill);
    if (!fill) {
        free(pos);
        free(start);
        gsl_rng_free(rng);
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    }
    for (size_t g = 0; g < n_groups; g++)
        fill[g] = start[g];
    for (size_t i = 0; i < n; i++)
        pos[fill[n_groups > 1 ? (size_t)d->y.code[rows[i]] : 0]++] = i;
    size_t deal = 0;
    for (size_t g = 0; g < n_groups; g++) {
        size_t len = start[g + 1] - start[g];
        if (len > 1)
            gsl_ran_shuffle(rng, pos + start[g], len, sizeof *pos);
        for (size_t j = 0; j < len; j++)
            fold[pos[start[g] + j]] = deal++ % k;
    }
    free(fill);
    free(pos);
    free(start);
    gsl_rng_free(rng);
    return TL_OK;
}
