/* Reports rendered from a results folder's stored cells.
 *
 * API: tl_cells_read allocates *cells (the caller clears each with tl_cell_clear and frees
 * the array with free) and fills meta (cleared with tl_cells_meta_clear). The other functions
 * write files and keep nothing. err may be NULL everywhere.
 */
#ifndef TL_REPORT_H
#define TL_REPORT_H

#include <stdio.h>
#include <time.h>

#include "treelab/tl_api.h"
#include "treelab/tl_error.h"
#include "treelab/tl_cells.h"
#include "treelab/tl_runner.h"
#include "treelab/tl_prune.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Render metrics.csv, timings.csv, summary.md, summary.csv, confusion/ and (learning curves)
 * learning_curve.csv, (nested selection) selections.csv from dir/cells.txt, then
 * metrics.json, tables.tex and report.html (with dir's manifest and the SVG figures in plots/). Output is
 * byte-identical for the same cells whatever their order in the file. Holds dir's lock
 * (tl_results_lock) meanwhile: TL_EINVAL when a run or another report holds it. */
TL_API int tl_report_render(const char *dir, tl_err *err);

/* Fit every model on every whole dataset and write trees/DATASET__MODEL.txt and .dot
 * (tl_model_show; a learner without a tree, e.g. naive Bayes, gets a one-line note in the
 * .txt and no .dot, since an empty file is not valid DOT) and, for learners
 * with a trace, trace/DATASET__MODEL.csv, as x->reports asks. */
TL_API int tl_report_models(const char *dir, const tl_experiment *x, tl_dataset *const *data,
                            tl_err *err);

/* Draw the figures x->plots names into dir/plots (see tl_experiment_plot_names): those from
 * the stored cells (accuracy, critical_difference, confusion, learning_curve, grid) and those
 * of models fitted on every row of each dataset (pruning, boundary, trees; seeded as
 * trees/ is, so the same models). Figures that do not apply (e.g. a critical difference with
 * one dataset) are skipped with a tl_info. Without gnuplot the data and scripts are still
 * written and one tl_warn says so; without Graphviz there are no tree pictures (tl_info).
 * Returns TL_OK, or TL_EIO / TL_ENOMEM / a learner's or gnuplot's error. */
TL_API int tl_report_plots(const char *dir, const tl_experiment *x, tl_dataset *const *data,
                           tl_err *err);

/* The pruning curve (tl_plot_pruning) of a pruner's trace at stem: parameter (alpha) and
 * leaves against training risk, and the trace's error with its SE band when it has one.
 * risk_label names the risk curve (NULL: "resubstitution error"); title may be NULL. */
/* The label of a trace's risk curve: the MSE, the misclassification rate, or the impurity
 * of the criterion named in tr->risk_name. */
TL_API void tl_report_risk_label(const tl_prune_trace *tr, int regression, char *buf, size_t size);
TL_API int tl_report_pruning_plot(const tl_prune_trace *tr, int regression, const char *risk_label,
                                  const char *title, const char *stem, tl_err *err);

/* The validation pruners' figure (plot "validation") for model em on dataset d, when em
 * prunes with "reduced_error" or "pre_validation" and the protocol is a hold-out: repeat 0's
 * split, the unpruned tree grown on its training rows, cut node by node (weakest link on
 * validation accuracy), validation and test accuracy against leaves, the tree the pruner
 * chose marked. TL_OK without a figure otherwise. */
TL_API int tl_report_validation_plot(const char *dir, const tl_experiment *x,
                                     const tl_exp_model *em, size_t color, const tl_dataset *d,
                                     const char *dn, tl_err *err);

/* Everything a finished run or merge writes beside its cells, from scratch: the whole-data
 * models (tl_report_models), the reports (tl_report_render without its lock: the caller holds
 * it), the figures, the manifest, then the paper. The cancel flag stops it before its next
 * file. The CLI calls it after tl_run or tl_merge, with the folder still locked (their
 * tl_run_done). */
TL_API int tl_report_results(const char *dir, const tl_experiment *x, tl_dataset *const *data,
                             time_t start, int resumed, size_t jobs, volatile sig_atomic_t *cancel,
                             tl_err *err);

/* tl_run, then tl_report_results on its folder before the lock is released (not for a
 * shard, which writes its cells alone): a library caller's whole run. data as tl_run's (NULL:
 * loaded once here, for both); o->done is not used. tl_run's errors, or
 * the reports'. */
TL_API int tl_report_run(const tl_experiment *x, tl_dataset *const *data, const tl_run_opts *o,
                         tl_err *err);

/* Write dir/manifest (config path and SHA-256, seed, datasets' paths and SHA-256, treelab
 * version and commit, GSL, libconfig and OpenBLAS versions, start and end time) followed by
 * the config file as given, and a copy of the config as dir/config.cfg. */
TL_API int tl_report_manifest(const char *dir, const tl_experiment *x, tl_dataset *const *data,
                              time_t start, time_t end, int resumed, tl_err *err);

/* Every pair of k models over n datasets (scores n x k, larger better; ranks: their average
 * ranks, tl_friedman_test's): the Wilcoxon signed-rank test (split_zeros: Demsar's splitting
 * of zero differences, else scipy's dropping) and the z-test of average ranks, each with
 * Holm's step-down over all pairs at alpha, as a Markdown table to f. */
TL_API int tl_report_pairs_md(FILE *f, const char *const *names, const double *scores, size_t n,
                              size_t k, const double *ranks, double alpha, int split_zeros,
                              tl_err *err);

#ifdef __cplusplus
}
#endif

#endif
