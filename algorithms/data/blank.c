/* Values removed completely at random (MCAR), as missing-data studies inject them (Ding &
 * Simonoff, JMLR 11, 2010): a view of a dataset whose attribute columns are copies with a
 * share of the chosen rows' values made unknown. */
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "treelab/tl_dataset.h"

void tl_dataset_blanked_free(tl_dataset *v)
{
    for (size_t a = 0; v->cols && a < v->schema.n_attrs; a++) {
        free(v->cols[a].num);
        free(v->cols[a].code);
    }
    free(v->cols);
    v->cols = NULL;
}

int tl_dataset_blanked(const tl_dataset *d, const size_t *rows, size_t n, double rate,
                       unsigned long seed, tl_dataset *out, tl_err *err)
{
    size_t na = d->schema.n_attrs, nr = d->n_rows;
    *out = *d; /* everything but the columns is shared with d */
    out->cols = calloc(na ? na : 1, sizeof *out->cols);
    int rc = out->cols ? TL_OK : TL_ENOMEM;
    for (size_t a = 0; a < na && !rc; a++) {
        int numeric = d->schema.attrs[a].kind == TL_ATTR_NUMERIC;
        if (numeric && (out->cols[a].num = malloc(nr * sizeof(double))))
            memcpy(out->cols[a].num, d->cols[a].num, nr * sizeof(double));
        else if (!numeric && (out->cols[a].code = malloc(nr * sizeof(int))))
            memcpy(out->cols[a].code, d->cols[a].code, nr * sizeof(int));
        else
            rc = TL_ENOMEM;
    }
    gsl_rng *rng = rc ? NULL : gsl_rng_alloc(gsl_rng_mt19937);
    if (!rc && !rng)
        rc = TL_ENOMEM;
    if (rc) {
        tl_dataset_blanked_free(out);
        return tl_err_set(err, TL_ENOMEM, "out of memory removing values at random");
    }
    gsl_rng_set(rng, seed);
    /* One draw per row and attribute, rows in the order given: a value removed at one rate
     * is removed at every higher rate with the same seed. */
    for (size_t i = 0; i < n; i++) {
        size_t r = rows[i];
        for (size_t a = 0; a < na && r < nr; a++) {
            if (!(gsl_rng_uniform(rng) < rate))
                continue;
            if (out->cols[a].num)
                out->cols[a].num[r] = NAN;
            else
                out->cols[a].code[r] = TL_MISSING_CODE;
        }
    }
    gsl_rng_free(rng);
    return TL_OK;
}
