/* Gradient boosting's state, and the parts of its fit and model file kept apart from the
 * learner type (gradient_boosting.c): losses (gb_loss.c) and the file (gb_store.c). */
#ifndef TL_GRADIENT_BOOSTING_H
#define TL_GRADIENT_BOOSTING_H

#include "ensemble.h"

typedef enum { TL_GB_AUTO, TL_GB_LOG, TL_GB_SQUARED, TL_GB_ABSOLUTE, TL_GB_HUBER } tl_gb_loss_kind;

typedef struct tl_gb {
    tl_ens_base base;
    size_t n_estimators, n_iter_no_change;
    double learning_rate, subsample, alpha, validation_fraction, tol;
    long max_depth, jobs;
    char max_features[32];
    tl_gb_loss_kind loss;
    /* fitted */
    tl_gb_loss_kind fitted_loss;
    size_t classes, K, n_attrs, n_stages; /* K trees a stage: classes > 2, else 1 */
    double *init;                         /* K initial raw predictions */
    tl_ens_trees trees;                   /* stage i's tree k at i * K + k */
    double *importances;
    double *trace; /* n_stages x (stage, train loss, validation loss) */
    tl_ensemble view;
} tl_gb;

/* One fit's working arrays, per row of the data (only the fit's rows are used). */
typedef struct tl_gb_run {
    tl_ens_base base;
    size_t *rows, n_fit, n_valid; /* rows[0..n_fit) fitted, the next n_valid held out */
    size_t *pick;                 /* subsample's draw */
    double *mask;                 /* 1 for rows of this stage's subsample */
    double *y;                    /* the value, or the class code */
    double *w;                    /* the row weight */
    double *raw, *prev;           /* raw predictions (row x K) now, and before this stage */
    double **residual;            /* K arrays */
    double *tmp, *buf, *wbuf;     /* a tree's predictions; a leaf's values and weights */
    size_t *idx, *leaf;           /* sort order; each row's leaf */
    double gamma;                 /* huber's last quantile of the absolute residuals */
    double *history;              /* early stopping: the last n_iter_no_change losses */
} tl_gb_run;

int tl_gb_prepare(tl_gb *g, const tl_dataset *d, tl_gb_run *run, tl_err *err);
void tl_gb_run_free(tl_gb_run *run);
/* The negative gradient at the raw predictions into run->residual. */
void tl_gb_gradients(const tl_gb *g, const tl_dataset *d, tl_gb_run *run);
/* Set tree's leaves by the loss's rule and add learning_rate times it to class k's raw
 * predictions (fitted and held-out rows). */
int tl_gb_update(const tl_gb *g, const tl_dataset *d, tl_gb_run *run, tl_tree *tree, size_t k,
                 tl_err *err);
/* scikit-learn's loss_ of rows at the raw predictions. */
double tl_gb_loss(const tl_gb *g, const tl_dataset *d, const tl_gb_run *run, const size_t *rows,
                  size_t n);
/* Early stopping after stage i with validation loss v: 1 to stop. */
int tl_gb_stop(const tl_gb *g, tl_gb_run *run, size_t i, double v);
/* Raw predictions (n x K) of the first stages. */
int tl_gb_raw(const tl_gb *g, const tl_dataset *d, const size_t *rows, size_t n, size_t stages,
              double *raw, tl_err *err);
/* Probabilities (n x classes) or values from raw predictions. */
void tl_gb_output(const tl_gb *g, const double *raw, size_t n, double *out);
int tl_gb_importances(tl_gb *g, tl_err *err);
int tl_gb_save(const void *state, FILE *f, int indent, tl_err *err);
int tl_gb_load(void *state, const tl_store *s, tl_err *err);
int tl_gb_check_schema(const void *state, const tl_schema *schema, tl_err *err);

#endif
