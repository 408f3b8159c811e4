/* AdaBoost's fitted state, shared by its fit and store (adaboost.c) and its prediction
 * (adaboost_predict.c). Private to models/ensembles. */
#ifndef TL_ADABOOST_H
#define TL_ADABOOST_H

#include "ensemble.h"

enum { SAMME_R, SAMME, M1 };

typedef struct boost {
    tl_ens_base base;
    int algorithm;
    size_t n_estimators;
    double learning_rate;
    /* fitted */
    size_t k, n_attrs;
    tl_ens_trees trees;
    double *alpha; /* each member's weight (SAMME.R: 1) */
    double *importances;
    tl_ensemble view;
} boost;

/* The class of highest probability in p (k), the first on ties. */
static inline size_t tl_ada_arg_max(const double *p, size_t k)
{
    size_t best = 0;
    for (size_t c = 1; c < k; c++)
        best = p[c] > p[best] ? c : best;
    return best;
}

/* The members' weighted vote as class probabilities (tl_model_type.predict). */
int tl_ada_predict(const void *state, const tl_dataset *d, const size_t *rows, size_t n,
                   double *out, tl_err *err);

#endif
