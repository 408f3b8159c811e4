/* Running an experiment: cells (dataset x model x repeat x fold) on threads, stored durably.
 *
 * API: a tl_cell owns its confusion matrix (tl_cell_clear frees it); tl_cell_fit returns a
 * model the caller frees with tl_model_free. tl_run keeps nothing of its arguments after it
 * returns. err may be NULL everywhere.
 */
#ifndef TL_RUNNER_H
#define TL_RUNNER_H

#include <signal.h>
#include <stddef.h>
#include <time.h>

#include "treelab/tl_api.h"
#include "treelab/tl_experiment.h"
#include "treelab/tl_metrics.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The outcome of one cell. For learning curves `fold` is the index of the training
 * fraction; hold-out has fold 0. */
typedef struct tl_cell {
    size_t dataset, model, repeat, fold;
    size_t n_train, n_test;
    long selected;        /* candidate chosen by nested selection (tl_exp_select_candidate
                               decodes it into values), or -1 */
    double leaves, depth; /* NaN for a learner without a tree (tl_model_has_size) */
    double fit_s, predict_s;
    int classification;
    tl_class_metrics cm; /* classification */
    tl_reg_metrics rm;   /* regression */
    size_t k;            /* classes (0 for regression) */
    double *confusion;   /* k x k weighted counts, row = truth; owned */
    double *proba_bins;  /* 3 x TL_PROBA_BINS (tl_proba_bins_add) or NULL; owned */
    char *correct;       /* per test row '1' right, '0' wrong (n_test chars + NUL), kept
                               by the runner for hold-out splits (McNemar's test); or NULL */
    double *roc_bins;    /* 2 x TL_ROC_BINS (tl_roc_bins_add) or NULL (older cells); owned */
    size_t trees;        /* an ensemble's members (leaves and depth are their means), else 0 */
    double fidelity;     /* a distilled model's agreement with its teacher on the test rows
                            (tl_model_fidelity), NaN for a model without a teacher */
    double test_weight;  /* the test rows' weight sum when the data is weighted (what the
                            confusion matrix adds up to), NaN when unweighted (n_test) */
} tl_cell;

TL_API void tl_cell_clear(tl_cell *c);

/* Evaluate one model: fit on train (validation rows in the fit context), predict test, score.
 * With m->select set, tl_select_run first picks the candidate. seed feeds the fit and the
 * inner protocol. out is filled (indices left to the caller). Returns TL_OK or the learner's
 * error. */
TL_API int tl_cell_eval(const tl_exp_model *m, const tl_dataset *d, const size_t *train,
                        size_t n_train, const size_t *valid, size_t n_valid, const size_t *test,
                        size_t n_test, unsigned long seed, tl_cell *out, tl_err *err);

/* tl_cell_eval of models m[0..n) that differ only in their learner's stage parameter
 * (tl_model_stage_param), whose values stages[0..n) decrease: one fit of m[0], truncated to
 * each in turn (tl_model_truncate), so out[i] holds the numbers tl_cell_eval(m[i]) gives,
 * except that every fit_s is the one fit's time. m[0] must select nothing. */
TL_API int tl_cell_eval_stages(const tl_exp_model *const *m, const size_t *stages, size_t n,
                               const tl_dataset *d, const size_t *train, size_t n_train,
                               const size_t *valid, size_t n_valid, const size_t *test,
                               size_t n_test, unsigned long seed, tl_cell *out, tl_err *err);

/* Fit m on rows (NULL: every row; nested selection included, its choice in *selected, else
 * -1); the caller frees the model. NULL + err. */
TL_API tl_model *tl_cell_fit(const tl_exp_model *m, const tl_dataset *d, const size_t *rows,
                             size_t n, const size_t *valid, size_t n_valid, unsigned long seed,
                             long *selected, tl_err *err);
/* m's class_weight (see tl_exp_model) for training rows rows[0..n) of d: a new array of
 * d->n_rows weights (*weight; free it), each row's own weight times its class's. TL_EINVAL
 * for a numeric target, an unknown class or a bad weight. */
TL_API int tl_class_weights_apply(const char *spec, const tl_dataset *d, const size_t *rows,
                                  size_t n, double **weight, tl_err *err);

/* Nested selection (select.c). The objective's value of each candidate of m->select
 * (scores[0 .. n_candidates)), each candidate fitted with seed and m's other parameters:
 *  - inner auto with validation rows: fitted on rows, scored on valid;
 *  - inner cv (or auto without validation rows): for each repeat r, rows dealt into folds by
 *    tl_protocol_folds_of_rows(rows, folds, tl_select_split_seed(seed, r)); each fold
 *    predicted by a fit on the others, and the objective computed once on the pooled
 *    out-of-fold predictions (as Weka's and cross_val_predict's CV); the mean over repeats;
 *  - inner holdout: for each repeat, the rows whose tl_protocol_order_of_rows rank (same
 *    seed) is below fraction are scored by a fit on the others; the mean over repeats.
 * TL_EINVAL for an objective of the other task or an inner split with an empty side, or the
 * learner's error. */
TL_API int tl_select_scores(const tl_exp_model *m, const tl_dataset *d, const size_t *rows,
                            size_t n, const size_t *valid, size_t n_valid, unsigned long seed,
                            double *scores, tl_err *err);
/* A new model of m with candidate cand's values (cand < 0: m's own parameters). NULL + err. */
TL_API tl_model *tl_select_model(const tl_exp_model *m, long cand, tl_err *err);
/* The seed of inner draw `repeat`'s folds or hold-out. */
TL_API unsigned long tl_select_split_seed(unsigned long seed, size_t repeat);
/* The objective of s: its own, or accuracy (mse for a numeric target). */
TL_API const tl_metric_def *tl_select_objective(const tl_exp_select *s, int classification);
/* The best of n scores by the objective's direction; the first on ties; NaN never wins
 * over a number (all NaN: 0). */
TL_API size_t tl_select_best(const tl_metric_def *objective, const double *scores, size_t n);
/* tl_select_scores then tl_select_best: the chosen candidate, or -1 with err set. */
TL_API long tl_select_run(const tl_exp_model *m, const tl_dataset *d, const size_t *rows, size_t n,
                          const size_t *valid, size_t n_valid, unsigned long seed, tl_err *err);

/* Progress: cells finished (including those found on resume), the total, seconds elapsed. */
typedef void (*tl_progress_fn)(size_t done, size_t total, double elapsed, void *user);

/* What a run or merge that ended well hands a caller that writes the reports itself (the
 * CLI: report/ after run/): the results folder stays locked until its
 * tl_results_unlock(lock), so no other treelab writes there between the cells and the
 * reports. */
typedef struct tl_run_done {
    time_t start; /* when the run began (the manifest's) */
    int resumed;  /* cells were found on resume */
    int lock;     /* the folder's lock, still held; -1: none is (a failure, a shard, a rank
                     other than 0) */
} tl_run_done;

typedef struct tl_run_opts {
    const char *out_dir;           /* results folder (created; must not exist unless resume) */
    size_t jobs;                   /* threads, and figures drawn at once (0 or 1: one) */
    int resume;                    /* continue the cells found in out_dir */
    size_t max_cells;              /* stop after computing this many new cells (0: no limit) */
    volatile sig_atomic_t *cancel; /* set (e.g. by SIGINT) to stop after the running cells */
    tl_progress_fn progress;
    void *progress_user;
    int force;         /* write into an existing folder that is not a treelab results folder */
    tl_run_done *done; /* not NULL: on success (not for a shard) the folder is left locked and
                          described here, for the caller's reports after the call */
} tl_run_opts;

/* Run every cell of x into the results folder's cells.txt (see docs/experiments.md; one line
 * per finished cell, flushed and fsync'd as it finishes). The reports beside it (metrics.csv,
 * summary.md, plots/, the manifest, ...) are report/'s: tl_report_results with o->done, or
 * tl_report_run (tl_report.h) for the run and its reports in one call. data: the loaded datasets (x->n_datasets of them), or NULL to load them here. The numbers
 * do not depend on jobs. Returns TL_OK; TL_EINVAL when another process holds out_dir's lock
 * (tl_results_lock), when out_dir exists without resume or
 * holds the cells of another config (compared by the file's content, not its path), seed,
 * data or models; TL_EINTERRUPTED when cancelled or max_cells was reached (the finished
 * cells are kept and `resume` completes them); or the first learner error. Shards and MPI:
 * tl_run_scaled (tl_scale.h). */
TL_API int tl_run(const tl_experiment *x, tl_dataset *const *data, const tl_run_opts *o,
                  tl_err *err);

/* Load every dataset of x into a new array (free with tl_run_free_data): what tl_run and
 * tl_merge take, and the reports after them. */
TL_API int tl_run_load_data(const tl_experiment *x, tl_dataset ***data, tl_err *err);
TL_API void tl_run_free_data(const tl_experiment *x, tl_dataset **data);

/* Name of the cells file inside a results folder. */
#define TL_CELLS_FILE "cells.txt"
/* The lock file inside a results folder (see tl_results_lock). */
#define TL_LOCK_FILE ".treelab.lock"
/* How the cells file's first line starts: what marks a folder as treelab's. */
#define TL_CELLS_MAGIC "# treelab cells "

/* 1 when dir is a treelab results folder: it holds treelab's lock file, or a cells file
 * whose first line is treelab's. */
TL_API int tl_results_is_ours(const char *dir);
/* Whether results may be written into dir: TL_OK when it does not exist, is an empty
 * folder, is a treelab results folder (tl_results_is_ours), or force is set; else TL_EINVAL
 * naming dir and one of its files (a user's folder is never overwritten), TL_EIO when dir
 * is a file or cannot be read. */
TL_API int tl_results_claim(const char *dir, int force, tl_err *err);

/* Take the advisory lock (flock, non-blocking) of the existing results folder dir, which
 * tl_run holds for the whole run and tl_report_render while it writes: two processes writing
 * one folder would interleave cells.txt for good. *fd gets the descriptor to pass to
 * tl_results_unlock. TL_EINVAL naming dir when another process holds it, TL_EIO when dir
 * does not exist or the lock file cannot be made. */
TL_API int tl_results_lock(const char *dir, int *fd, tl_err *err);
TL_API void tl_results_unlock(int fd);

#ifdef __cplusplus
}
#endif

#endif
