/* An experiment described by a libconfig file: datasets, models, protocol, reports.
 *
 * API: tl_experiment_load returns an experiment the caller frees with tl_experiment_free;
 * tl_experiment_load_dataset a dataset freed with tl_dataset_free. The name lists are static.
 * err may be NULL everywhere.
 */
#ifndef TL_EXPERIMENT_H
#define TL_EXPERIMENT_H

#include <stddef.h>

#include "treelab/tl_api.h"
#include "treelab/tl_dataset.h"
#include "treelab/tl_error.h"
#include "treelab/tl_metrics.h"
#include "treelab/tl_model.h"
#include "treelab/tl_params.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One dataset entry. A relative path is looked up first in the config file's directory,
 * then in the current directory; `path` holds the one that exists. */
typedef struct tl_exp_dataset {
    char *name;   /* `name`, or the file's base name without extension; unique */
    char *path;   /* resolved path */
    char *target; /* NULL: the last column */
    char **attrs; /* attribute subset (NULL: all) */
    size_t n_attrs;
    char **ignore; /* columns left out */
    size_t n_ignore;
    char **nominal; /* columns read as nominal (the target too) */
    size_t n_nominal;
    char *fold_file; /* protocol folds: this dataset's fold ids, one a line (resolved path) */
    char *test_file; /* protocol split: this dataset's test rows (resolved path) */
    char *weight;    /* a column of row weights, or NULL */
    char decimal;    /* a CSV's decimal mark: '.' (or 0) or ',' */
    int line;        /* line in the config file */
    /* protocol.missing: this entry is `base` with a share missing_rate of the values of the
     * rows protocol.missing_rows says removed at random in each cell (base NULL: as read) */
    char *base;
    double missing_rate;
} tl_exp_dataset;

/* How a nested selection scores its candidates on the outer training rows. */
typedef enum {
    TL_INNER_AUTO = 0,   /* the protocol's validation rows when it has them, else cv */
    TL_INNER_CV = 1,     /* stratified k-fold, repeated */
    TL_INNER_HOLDOUT = 2 /* a stratified share of the rows held out, repeated */
} tl_inner_kind;

/* Nested selection: an inner protocol over the outer training rows picks one candidate of a
 * grid (the cartesian product of the parameters' values, the first parameter varying
 * slowest) by its objective; ties go to the first candidate in that order. */
typedef struct tl_exp_select {
    size_t n_params; /* 0: no selection */
    char **params;   /* names as set (SLOT.PARAM for a plug-in's own) */
    char ***values;  /* values[p][0 .. n_values[p]) as text */
    size_t *n_values;
    size_t n_candidates;                   /* product of n_values */
    const struct tl_metric_def *objective; /* NULL: accuracy, or mse for regression */
    tl_inner_kind inner;
    size_t folds;    /* cv: inner folds (default 3) */
    size_t repeats;  /* cv and holdout: draws, scores averaged (default 1) */
    double fraction; /* holdout: the share of rows scored (default 0.25) */
    int line;        /* of `select` in the config */
} tl_exp_select;

/* The values of candidate `index` of s: value_ix[p] indexes s->values[p]. */
TL_API void tl_exp_select_candidate(const tl_exp_select *s, size_t index, size_t *value_ix);
/* Set candidate `index`'s values into p. TL_OK or TL_ENOMEM. */
TL_API int tl_exp_select_apply(const tl_exp_select *s, size_t index, tl_params *p, tl_err *err);
TL_API void tl_exp_select_clear(tl_exp_select *s);
/* The objective and inner protocol as one line of text ("kappa by 3-fold inner CV x 1");
 * has_valid: the outer protocol gives validation rows (which inner auto uses) on every
 * dataset (1), on some of them (2: a split protocol whose split marks validation rows only
 * in some datasets), or none (0). */
TL_API void tl_exp_select_describe(const tl_exp_select *s, int has_valid, char *buf, size_t size);

/* One model: a display name, its learner and parameters (checked against the learner's
 * table when the config is read). */
typedef struct tl_exp_model {
    char *name;
    const tl_model_type *type;
    tl_params params;
    tl_exp_select select;
    int line;
    /* Models expanded from a grid: grid number + 1 (0: a model listed in `models`), and the
     * positions of this model's values in that grid's value lists (iy 0 for one parameter). */
    size_t grid;
    size_t grid_ix, grid_iy;
    /* class_weight: "balanced", "a=2,b=0.5" (a class not named keeps 1), or NULL: the
     * training rows' weights are multiplied by their class's (tl_class_weights_apply) */
    char *class_weight;
} tl_exp_model;

/* A parameter grid over one model: one parameter (a curve) or two (their cartesian product,
 * a heatmap). The nx * ny expanded models are models[first ...], x varying fastest. */
typedef struct tl_exp_grid {
    size_t base;        /* index of the swept model in models */
    char *param[2];     /* parameter names; param[1] is NULL for a one-parameter grid */
    char **values[2];   /* their values as text */
    size_t n_values[2]; /* n_values[1] is 1 for a one-parameter grid */
    size_t first;
} tl_exp_grid;

/* folds and split are the data's own: fold ids (a column or each dataset's fold file) and
 * train / test rows (a column or each dataset's test file); one repeat, no randomness. */
typedef enum {
    TL_PROTO_CV = 0,
    TL_PROTO_HOLDOUT = 1,
    TL_PROTO_LEARNING_CURVE = 2,
    TL_PROTO_FOLDS = 3,
    TL_PROTO_SPLIT = 4
} tl_proto_kind;

typedef struct tl_protocol {
    tl_proto_kind kind;
    size_t folds;              /* cv */
    size_t repeats;            /* cv, holdout and learning_curve */
    int stratified;            /* all kinds (default 1) */
    double train, valid, test; /* holdout fractions, summing to 1 */
    double *fractions;         /* learning_curve training fractions, increasing, in (0, 1) */
    size_t n_fractions;
    char *column;          /* folds: the fold-id column; split: the train/test column (or NULL) */
    double *missing_rates; /* missing: shares of values removed completely at random, each
                              rate a copy of every dataset (increasing, in [0, 1)) */
    size_t n_missing_rates;
    unsigned missing_rows; /* TL_MISSING_IN_TRAIN and/or TL_MISSING_IN_TEST */
} tl_protocol;

/* Which rows of a cell protocol.missing removes values from (bits). */
enum { TL_MISSING_IN_TRAIN = 1u, TL_MISSING_IN_TEST = 2u };

/* Reports that can be asked for (bits of tl_experiment.reports). */
enum { TL_REPORT_CONFUSION = 1u, TL_REPORT_TREES = 2u, TL_REPORT_TRACE = 4u, TL_REPORT_ALL = 7u };

/* The most models an experiment may have, grids expanded; and the default of `max_cells`, the
 * most cells (dataset x model x repeat x fold) a config may ask for. Both are refused at
 * config load, before any work: a grid of two million cells ran out of memory in the end. */
#define TL_MAX_MODELS 100000
#define TL_MAX_CELLS_DEFAULT 1000000

typedef struct tl_experiment {
    char *name;        /* results go to results/NAME unless --out */
    char *config_path; /* as given */
    unsigned long seed;
    tl_exp_dataset *datasets;
    size_t n_datasets;
    tl_exp_model *models; /* grids already expanded into models */
    size_t n_models;
    size_t baseline; /* index into models */
    tl_protocol protocol;
    unsigned reports; /* TL_REPORT_* bits; metrics.csv, summary and manifest always */
    char **plots;     /* plot names as given (drawn by the plot module) */
    size_t n_plots;
    tl_exp_grid *grids; /* the config's grids, in order */
    size_t n_grids;
    /* compare = { metric; test; pairs; }: what wins, ties, losses, ranks and every test of
     * the summary use; "" for the defaults (accuracy, or RMSE for regression; corrected_t;
     * baseline). test: corrected_t, 5x2cv_t, 5x2cv_f or wilcoxon; pairs: baseline or all. */
    char compare_metric[32], compare_test[16], compare_pairs[16];
    /* compare.summary: the metrics of summary.md's dataset tables after the compared one,
     * comma-separated ("" for the default: accuracy, balanced accuracy, ROC AUC, leaves) */
    char compare_summary[256];
} tl_experiment;

/* Read an experiment file. Every parameter is checked against its learner's table and every
 * dataset file must exist before this returns, so no work starts on a bad config. extra: a
 * NULL-terminated list of learners looked up before the registry (tests pass private
 * learners here), or NULL. Returns a new experiment (free with tl_experiment_free) or NULL
 * with err set to TL_EINVAL / TL_EPARSE / TL_EIO; messages name the file, the line and the
 * key, and list the allowed keys or values. */
TL_API tl_experiment *tl_experiment_load(const char *path, const tl_model_type *const *extra,
                                         tl_err *err);
TL_API void tl_experiment_free(tl_experiment *x);

/* Load dataset i (its target, column options, and the protocol's fold ids or split
 * applied: d->fold / d->role). NULL + err on failure. */
TL_API tl_dataset *tl_experiment_load_dataset(const tl_experiment *x, size_t i, tl_err *err);

/* 1 when x's `plots` list names plot (see tl_experiment_plot_names). */
TL_API int tl_experiment_wants_plot(const tl_experiment *x, const char *plot);

/* The figures a `plots` list may name, '|'-separated. */
extern TL_API const char *const tl_experiment_plot_names;

/* The valid keys of each section, for messages and docs. */
extern TL_API const char *const tl_experiment_top_keys;

#ifdef __cplusplus
}
#endif

#endif
