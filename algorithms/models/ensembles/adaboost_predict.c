/* AdaBoost's prediction: SAMME.R sums each member's log-probabilities (scikit-learn's
 * _samme_proba), SAMME and AdaBoost.M1 their weighted votes; then scikit-learn's (or Weka's)
 * softmax of the decision. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "adaboost.h"

/* scikit-learn's _samme_proba of one member's probabilities p (k), added into out. */
static void add_samme_proba(const double *p, size_t k, double *out)
{
    double lp[64], s = 0;
    for (size_t c = 0; c < k; c++) {
        lp[c] = log(p[c] > DBL_EPSILON ? p[c] : DBL_EPSILON);
        s += lp[c];
    }
    for (size_t c = 0; c < k; c++)
        out[c] += ((double)k - 1) * (lp[c] - (1.0 / (double)k) * s);
}

/* softmax of x (k) in place. */
static void softmax(double *x, size_t k)
{
    double m = x[0], s = 0;
    for (size_t c = 1; c < k; c++)
        m = x[c] > m ? x[c] : m;
    for (size_t c = 0; c < k; c++)
        s += x[c] = exp(x[c] - m);
    for (size_t c = 0; c < k; c++)
        x[c] /= s;
}

int tl_ada_predict(const void *state, const tl_dataset *d, const size_t *rows, size_t n,
                   double *out, tl_err *err)
{
    const boost *b = state;
    size_t k = b->k;
    double *p = malloc((n ? n : 1) * k * sizeof *p), aw = 0;
    if (!p)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    memset(out, 0, n * k * sizeof *out);
    int rc = TL_OK;
    if (b->algorithm == M1 && b->trees.n == 1) { /* Weka: the one member's distribution */
        rc = tl_tree_predict(b->trees.t[0], d, rows, n, out, err);
        free(p);
        return rc;
    }
    for (size_t t = 0; t < b->trees.n && !rc; t++) {
        rc = tl_tree_predict(b->trees.t[t], d, rows, n, p, err);
        aw += b->alpha[t];
        for (size_t i = 0; !rc && i < n; i++) {
            if (b->algorithm == SAMME_R)
                add_samme_proba(p + i * k, k, out + i * k);
            else
                out[i * k + tl_ada_arg_max(p + i * k, k)] += b->alpha[t];
        }
    }
    for (size_t i = 0; !rc && i < n; i++) {
        double *o = out + i * k;
        if (b->algorithm != M1) { /* decision / total weight, then scikit-learn's proba */
            for (size_t c = 0; c < k; c++)
                o[c] /= aw;
            if (k == 2) {
                double dec = o[1] - o[0];
                o[0] = -dec / 2;
                o[1] = dec / 2;
            } else {
                for (size_t c = 0; c < k; c++)
                    o[c] /= (double)k - 1;
            }
        }
        softmax(o, k);
    }
    free(p);
    return rc;
}
