/* Permutation importance (Breiman 2001; scikit-learn's permutation_importance): how much a
 * fitted model's score on held-out rows drops when one attribute's values are shuffled among
 * those rows, the model and the other attributes left as they are. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "treelab/tl_metrics.h"
#include "treelab/tl_model.h"

/* Accuracy (classes) or R^2 (values) of m on rows of d; out: n x width scratch. */
static int score(const tl_model *m, const tl_dataset *d, const size_t *rows, size_t n, double *out,
                 double *s, tl_err *err)
{
    int cls = tl_dataset_is_classification(d);
    int rc = cls ? tl_model_predict_label(m, d, rows, n, out, err)
                 : tl_model_predict(m, d, rows, n, out, err);
    if (rc)
        return rc;
    double right = 0, sum = 0, ss = 0, sse = 0;
    for (size_t i = 0; i < n; i++) {
        if (cls) {
            right += (int)out[i] == d->y.code[rows[i]];
        } else {
            double y = d->y.num[rows[i]], e = y - out[i];
            sum += y;
            ss += y * y;
            sse += e * e;
        }
    }
    *s = cls ? right / (double)n : 1 - sse / (ss - sum * sum / (double)n);
    return TL_OK;
}

int tl_permutation_importance(const tl_model *m, const tl_dataset *d, const size_t *rows, size_t n,
                              size_t repeats, unsigned long seed, double *mean, double *sd,
                              tl_err *err)
{
    if (!n || !repeats)
        return tl_err_set(err, TL_EINVAL, "permutation importance needs rows and repeats >= 1");
    size_t na = d->schema.n_attrs, nd = d->n_rows;
    tl_column *cols = malloc((na ? na : 1) * sizeof *cols);
    double *out = malloc(n * sizeof *out), *num = malloc((nd ? nd : 1) * sizeof *num);
    int *code = malloc((nd ? nd : 1) * sizeof *code);
    size_t *perm = malloc(n * sizeof *perm);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    double base = 0;
    int rc = (!cols || !out || !num || !code || !perm || !rng)
                 ? tl_err_set(err, TL_ENOMEM, "out of memory")
                 : score(m, d, rows, n, out, &base, err);
    tl_dataset v = *d;
    if (!rc) {
        memcpy(cols, d->cols, na * sizeof *cols);
        v.cols = cols;
    }
    for (size_t j = 0; !rc && j < na; j++) {
        double s1 = 0, s2 = 0;
        int nominal = d->schema.attrs[j].kind == TL_ATTR_NOMINAL;
        if (nominal)
            memcpy(code, d->cols[j].code, nd * sizeof *code);
        else
            memcpy(num, d->cols[j].num, nd * sizeof *num);
        cols[j] = nominal ? (tl_column){NULL, code} : (tl_column){num, NULL};
        for (size_t r = 0; !rc && r < repeats; r++) {
            /* the shuffle of attribute j in repeat r: a seed of its own */
            gsl_rng_set(rng, seed * 1000003ul + j * 7919ul + r + 1);
            for (size_t i = 0; i < n; i++)
                perm[i] = rows[i];
            gsl_ran_shuffle(rng, perm, n, sizeof *perm);
            for (size_t i = 0; i < n; i++) {
                if (nominal)
                    code[rows[i]] = d->cols[j].code[perm[i]];
                else
                    num[rows[i]] = d->cols[j].num[perm[i]];
            }
            double s;
            if (!(rc = score(m, &v, rows, n, out, &s, err))) {
                s1 += base - s;
                s2 += (base - s) * (base - s);
            }
        }
        cols[j] = d->cols[j];
        mean[j] = s1 / (double)repeats;
        double var = s2 / (double)repeats - mean[j] * mean[j];
        sd[j] = var > 0 ? sqrt(var) : 0;
    }
    free(cols);
    free(out);
    free(num);
    free(code);
    free(perm);
    gsl_rng_free(rng);
    return rc;
}
