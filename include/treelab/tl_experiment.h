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
#include "treelab/tl_model.h"
#include "treelab/tl_params.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One dataset entry. A relative path is looked up first in the config file's directory,
 * then in the current directory; `path` holds the one that exists. */
typedef struct tl_exp_dataset {
    char *name;    /* `name`, or the file's base name without extension; unique */
    char *path;    /* resolved path */
    char *target;  /* NULL: the last column */
    char **attrs;  /* attribute subset (NULL: all) */
    size_t n_attrs;
    int line;      /* line in the config file */
} tl_exp_dataset;

/* Nested selection: an inner CV over the outer training rows picks one value of param. */
typedef struct tl_exp_select {
    char *param;   /* NULL: no selection */
    char **values; /* as text */
    size_t n_values;
    size_t folds;  /* inner folds (default 3) */
} tl_exp_select;

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

typedef enum { TL_PROTO_CV = 0, TL_PROTO_HOLDOUT = 1, TL_PROTO_LEARNING_CURVE = 2 } tl_proto_kind;

typedef struct tl_protocol {
    tl_proto_kind kind;
    size_t folds;      /* cv */
    size_t repeats;    /* cv, holdout and learning_curve */
    int stratified;    /* all kinds (default 1) */
    double train, valid, test; /* holdout fractions, summing to 1 */
    double *fractions; /* learning_curve training fractions, increasing, in (0, 1) */
    size_t n_fractions;
} tl_protocol;

/* Reports that can be asked for (bits of tl_experiment.reports). */
enum {
    TL_REPORT_CONFUSION = 1u,
    TL_REPORT_TREES = 2u,
    TL_REPORT_TRACE = 4u,
    TL_REPORT_ALL = 7u
};

typedef struct tl_experiment {
    char *name;        /* results go to results/NAME unless --out */
    char *config_path; /* as given */
    unsigned long seed;
    tl_exp_dataset *datasets;
    size_t n_datasets;
    tl_exp_model *models; /* grids already expanded into models */
    size_t n_models;
    size_t baseline;      /* index into models */
    tl_protocol protocol;
    unsigned reports;     /* TL_REPORT_* bits; metrics.csv, summary and manifest always */
    char **plots;         /* plot names as given (drawn by the plot module) */
    size_t n_plots;
    tl_exp_grid *grids;   /* the config's grids, in order */
    size_t n_grids;
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

/* Load dataset i (its target and attribute subset applied). NULL + err on failure. */
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
