/* Bagging's state, shared by its model types (bagging.c) and its fit (bagging_fit.c). */
#ifndef TL_BAGGING_H
#define TL_BAGGING_H

#include "ensemble.h"

typedef struct bag_kind {
    const char *name;
    const tl_param_spec *spec;
    const char *const *base_defaults;
    int any; /* members may be any learner (bagging), not only a tree (the forests) */
} bag_kind;

typedef struct bag {
    const bag_kind *kind;
    tl_ens_base base;
    size_t n_estimators;
    double max_samples;
    int bootstrap, bootstrap_features, majority, oob;
    long jobs;
    char max_features[32];
    /* fitted */
    tl_ens_trees trees;
    tl_model **models; /* a base without a tree (the soft tree): trees.n fitted members */
    int regression;
    size_t k, n_attrs;
    double oob_score;
    double *importances;
    unsigned short *inbag; /* oob_score: n_estimators x n_fit counts, per fit row */
    size_t *fit_rows, n_fit;
    tl_ensemble view;
} bag;

/* Free the model members past the first n. */
void bag_models_truncate(bag *b, size_t n);
/* Fit every member on rows of d (the model type's fit). */
int bag_fit_all(void *state, const tl_dataset *d, const size_t *rows, size_t n,
                const tl_fit_ctx *ctx, tl_err *err);
/* Keep the first n members, their out-of-bag score and importances recomputed. */
int bag_truncate(void *state, size_t n, const tl_dataset *d, tl_err *err);
/* The sum of the members' probabilities (or values, or majority votes) on rows, of the
 * members whose use[t * stride + i] is set (use NULL: all); votes counts them per row. */
int bag_combine(const bag *b, const tl_dataset *d, const size_t *rows, size_t n,
                const unsigned char *use, size_t stride, double *out, size_t *votes, tl_err *err);

#endif
