/* Learners: a GSL-style type per learner, a registry, and a fitted-model handle.
 *
 * API: tl_model_new, tl_model_new_type and tl_model_load return a model the caller frees with
 * tl_model_free (NULL accepted). tl_model_tree and tl_model_prune_trace return pointers owned
 * by the model, valid until its next fit or its free. tl_model_at and tl_model_find return the
 * registered types (static; tl_model_register adds one at run time, kept by pointer).
 * tl_check_params fills a tl_problems the caller clears. err may be NULL everywhere.
 */
#ifndef TL_MODEL_H
#define TL_MODEL_H

#include <stddef.h>
#include <stdio.h>

#include "treelab/tl_api.h"
#include "treelab/tl_dataset.h"
#include "treelab/tl_error.h"
#include "treelab/tl_params.h"
#include "treelab/tl_store.h"
#include "treelab/tl_tree.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a fit may use besides the training rows. */
typedef struct tl_fit_ctx {
    unsigned long seed;       /* for any randomness inside fit (GSL mt19937) */
    const size_t *valid_rows; /* validation rows named by the protocol, or NULL */
    size_t n_valid;
    size_t jobs; /* threads a learner may fit on (ensembles' members); 0 or 1: this one. The
                    model never depends on it */
    /* A grower's views kept by a caller that fits many trees on the same rows (tl_grow.h's
     * tl_view_cache), borrowed; NULL: none. Speed only: the model never depends on it. */
    struct tl_view_cache *view_cache;
} tl_fit_ctx;

/* Size of a fitted model, for reports (zeros where it has no meaning). */
typedef struct tl_model_info {
    size_t leaves, depth, nodes;
} tl_model_info;

/* What an ensemble offers besides predictions (tl_model_ensemble), owned by the model. */
typedef struct tl_ensemble {
    size_t n_trees;
    const tl_tree *const *trees;
    const unsigned short *inbag; /* with oob_score: n_trees x n_rows draws of each fit row */
    const size_t *rows;          /* ... those rows (of the data fitted on) */
    size_t n_rows;               /* 0 when no draws were recorded (not saved in a file) */
    double oob_score;            /* out-of-bag accuracy or R^2, NaN when not computed */
    const double *importances;   /* n_attrs impurity importances summing to 1 (scikit-learn's
                                    feature_importances_), or NULL */
    size_t n_attrs;
} tl_ensemble;

/* A plug-in of one of a learner's own slots (the soft tree's gates and shapes), for listings
 * (`treelab plugins`). */
typedef struct tl_model_plugin {
    const char *slot, *name, *summary, *reference;
    const tl_param_spec *params; /* set as SLOT.PARAM; NULL: none */
} tl_model_plugin;

/* A learner. One exported `const tl_model_type *const tl_model_NAME` per file. */
typedef struct tl_model_type {
    const char *name;    /* the word used in configs and on the command line */
    const char *summary; /* one line for --help */
    unsigned tasks;      /* TL_TASK_* bits */
    const tl_param_spec *params;
    /* An unfitted model from parameters already checked against params. NULL + err. */
    void *(*alloc)(const tl_params *p, tl_err *err);
    void (*free)(void *state);
    /* Fit on rows[0..n) of d (the model may be refitted). */
    int (*fit)(void *state, const tl_dataset *d, const size_t *rows, size_t n,
               const tl_fit_ctx *ctx, tl_err *err);
    /* Classification: out is n x n_classes probabilities, row-major. Regression: n values. */
    int (*predict)(const void *state, const tl_dataset *d, const size_t *rows, size_t n,
                   double *out, tl_err *err);
    /* Write the fitted state as libconfig settings (the caller opens the `state` group). */
    int (*save)(const void *state, FILE *f, int indent, tl_err *err);
    /* Read the fitted state from the `state.` settings of s into an allocated model. */
    int (*load)(void *state, const tl_store *s, tl_err *err);
    /* Describe the fitted model in the given format (TL_EUNSUPPORTED if it has none). */
    int (*show)(const void *state, const tl_schema *schema, tl_show_format fmt, FILE *f,
                tl_err *err);
    /* Its size; NULL for a learner without a tree (naive Bayes), whose leaves and depth the
     * reports leave empty rather than 0. */
    void (*info)(const void *state, tl_model_info *out);
    /* Optional (may be NULL): a per-epoch training trace, as a table of n_rows x n_cols
     * doubles with column names; owned by the model. */
    int (*trace)(const void *state, const char *const **col_names, size_t *n_cols,
                 const double **values, size_t *n_rows);
    /* Optional (may be NULL): after load, confirm the state fits the schema read with it
     * (sizes, attribute and level indices), since show and predict index the schema with
     * it. TL_EPARSE naming the offending setting. */
    int (*check)(const void *state, const tl_schema *schema, tl_err *err);
    /* Optional: every problem with the parameters, before any work (libsvm's
     * svm_check_parameter), for learners whose parameters a table alone cannot check
     * (e.g. SLOT.PARAM names of the composable tree). NULL: tl_params_check on params. */
    int (*check_params)(const tl_params *p, tl_err *err);
    /* Optional: what the learner cannot take in a dataset (a nominal attribute of more levels
     * than it encodes), from the header alone, before any work: tl_model_fit and `run` call
     * it. TL_EINVAL naming the attribute, the count, the limit and the way out. NULL: any
     * dataset the loader accepts (TL_MAX_CLASSES, TL_MAX_LEVELS). */
    int (*check_data)(const tl_params *p, const tl_schema *schema, tl_err *err);
    /* What the learner offers besides predictions (NULL: it has none). */
    const tl_tree *(*tree)(const void *state);                      /* its fitted hard tree */
    const struct tl_prune_trace *(*prune_trace)(const void *state); /* how it was pruned */
    void (*help)(FILE *f); /* more for --help than the parameter table */
    /* Optional: an ensemble's members and scores (NULL: not an ensemble). */
    const tl_ensemble *(*ensemble)(const void *state);

    /* Optional: plug-in i of the learner's own slots into out, grouped by slot; 0 past the
     * last. */
    int (*plugin_at)(size_t i, tl_model_plugin *out);

    /* Optional (both or neither): an ensemble whose first members are, bit for bit, those a
     * fit with a smaller stage_param ("n_estimators") makes from the same data and seed, so a
     * curve over that parameter costs one fit. truncate keeps the first n members (n at
     * least 1; more than it has: no change) and recomputes what depends on them (weights,
     * importances, the out-of-bag score from d, the data it was fitted on). */
    const char *stage_param;
    int (*truncate)(void *state, size_t n, const tl_dataset *d, tl_err *err);

    /* Optional: the fitted model this one was distilled from (NULL: none, or not kept). */
    const struct tl_model *(*teacher)(const void *state);
} tl_model_type;

/* Learner i of the registry (algorithms/models/registry.c), NULL past the last. */
TL_API const tl_model_type *tl_model_at(size_t i);

/* The learner called name, or NULL with TL_EINVAL listing the valid names. */
TL_API const tl_model_type *tl_model_find(const char *name, tl_err *err);

/* Add a learner defined outside treelab, so that tl_model_find, configs, `--algo` and listings
 * know it. Kept by pointer (a static const struct that outlives every use); register before
 * use, as tl_criterion_register. TL_EINVAL when the name is taken or not a word, when it lacks
 * one of params, alloc, free, fit, predict, save, load, show (info is optional), or names no
 * task. */
TL_API int tl_model_register(const tl_model_type *t, tl_err *err);

/* A model: its type, parameters, the schema it was fitted on and its state. */
typedef struct tl_model {
    const tl_model_type *type;
    tl_params params;
    tl_schema schema;
    int fitted;
    void *state;
} tl_model;

/* Every problem with params for the learner type (its check_params, or its table), before any
 * work (libsvm's svm_check_parameter, but not only the first): out (initialised here; the
 * caller clears it) gets one message per problem. The keys are tried one by one, slots (keys
 * without a '.') first, each with those accepted so far, so a bad key is reported by name and
 * the others are still checked. TL_OK and an empty out when params are fine (NULL: none set),
 * TL_EINVAL with err set to every message joined (tl_problems_join), or TL_ENOMEM. */
TL_API int tl_check_params(const tl_model_type *type, const tl_params *params, tl_problems *out,
                           tl_err *err);

/* tl_check_params without the list: TL_OK, or the first error code with err listing every
 * problem. */
TL_API int tl_model_check_params(const tl_model_type *type, const tl_params *params, tl_err *err);

/* Look up algo, check params (tl_model_check_params), allocate. NULL + err on failure. */
TL_API tl_model *tl_model_new(const char *algo, const tl_params *params, tl_err *err);
/* The same for a learner given by its type (one outside the registry, e.g. a test's). */
TL_API tl_model *tl_model_new_type(const tl_model_type *type, const tl_params *params, tl_err *err);
TL_API void tl_model_free(tl_model *m);

/* Fit on rows (NULL: every row) of d. Checks the task is supported. */
TL_API int tl_model_fit(tl_model *m, const tl_dataset *d, const size_t *rows, size_t n,
                        const tl_fit_ctx *ctx, tl_err *err);
/* See tl_model_type.predict; rows NULL means every row. */
TL_API int tl_model_predict(const tl_model *m, const tl_dataset *d, const size_t *rows, size_t n,
                            double *out, tl_err *err);
/* Hard predictions: the class code (arg max, lowest code on ties) or the value. */
TL_API int tl_model_predict_label(const tl_model *m, const tl_dataset *d, const size_t *rows,
                                  size_t n, double *out, tl_err *err);
/* Output width of predict: number of classes, or 1 for regression. */
TL_API size_t tl_model_out_width(const tl_model *m);

/* Write a fitted model to path (via path.tmp and a rename, so a failed save leaves no half
 * file). TL_OK, TL_EINVAL when not fitted, TL_EIO, or the learner's save error. */
TL_API int tl_model_save(const tl_model *m, const char *path, tl_err *err);
/* Read a model file: a fitted model the caller frees with tl_model_free, or NULL + err
 * (TL_EPARSE naming the file and setting for a damaged or foreign file). */
TL_API tl_model *tl_model_load(const char *path, tl_err *err);
/* Describe a fitted model on f; TL_EINVAL when not fitted, TL_EUNSUPPORTED for a format the
 * learner does not have. */
TL_API int tl_model_show(const tl_model *m, tl_show_format fmt, FILE *f, tl_err *err);
/* Leaves, depth and nodes of a fitted model (zeros for learners without them, or unfitted). */
TL_API void tl_model_get_info(const tl_model *m, tl_model_info *out);
/* 1 when m's learner has a size (a tree's leaves and depth), 0 for one without (its info is
 * NULL, e.g. naive Bayes). */
TL_API int tl_model_has_size(const tl_model *m);

/* The fitted hard tree of a model, or NULL for learners without one (or before fit). */
TL_API const tl_tree *tl_model_tree(const tl_model *m);
/* The parameter whose curve a fitted model of type t predicts from one fit by truncation
 * ("n_estimators" for the ensembles), or NULL. */
TL_API const char *tl_model_stage_param(const tl_model_type *t);
/* Keep the first n members of fitted ensemble m, fitted on d: afterwards m predicts, saves
 * (its stage parameter set to n in its parameters) and reports sizes exactly as a fit with
 * that parameter = n on the same rows and seed (staged predictions: truncate from the most
 * stages down). TL_EUNSUPPORTED for a learner without stages, TL_EINVAL when unfitted or
 * n = 0. */
TL_API int tl_model_truncate(tl_model *m, size_t n, const tl_dataset *d, tl_err *err);
/* A fitted ensemble's members, draws and scores, or NULL (not an ensemble, or not fitted). */
TL_API const tl_ensemble *tl_model_ensemble(const tl_model *m);

/* The fitted teacher of a distilled model (NULL: none). */
TL_API const tl_model *tl_model_teacher(const tl_model *m);

/* Fidelity of student to teacher on n rows of d: the share of rows where their predicted
 * labels agree (classification), or the mean squared difference of their predictions
 * (regression); NaN for no rows. */
TL_API int tl_model_fidelity(const tl_model *teacher, const tl_model *student,
                             const tl_dataset *d, const size_t *rows, size_t n, double *out,
                             tl_err *err);
/* How the last fit pruned its tree, or NULL (no tree, or no pruner recorded anything). */
TL_API const struct tl_prune_trace *tl_model_prune_trace(const tl_model *m);

#ifdef __cplusplus
}
#endif

#endif
