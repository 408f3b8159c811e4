/* Internal to the report renderer: the loaded cells, sorted, and a few shared helpers. */
#ifndef TL_REPORT_UTIL_H
#define TL_REPORT_UTIL_H

#include "treelab/tl_metrics.h"
#include "treelab/tl_outfile.h"
#include "treelab/tl_report.h"
#include "treelab/tl_stats.h"
#include "treelab/tl_text.h"

typedef struct tl_rep {
    const char *dir;
    tl_cells_meta meta;
    tl_cell *cells; /* sorted by dataset, model, repeat, fold */
    size_t n;
} tl_rep;

/* Open dir/name for writing (tl_out_open: a temporary name until tl_out_close); NULL with
 * err set. */
FILE *tl_rep_open(const tl_rep *r, const char *name, tl_err *err);
/* Cells of (dataset, model): *first index and the count (sorted order makes them adjacent). */
size_t tl_rep_range(const tl_rep *r, size_t d, size_t m, size_t *first);
/* The primary score of a cell, larger is better: accuracy, or minus the RMSE. */
double tl_rep_primary(const tl_rep *r, const tl_cell *c);
/* The metric that compares models (compare.metric; accuracy, or RMSE for regression, by
 * default, and for a task the chosen metric does not score). */
const tl_metric_def *tl_rep_compare_metric(const tl_rep *r, int classification);
/* That metric named for a reader: "accuracy (rmse for regression)", or the chosen one. */
void tl_rep_compare_text(const tl_rep *r, char *buf, size_t size);
/* A name escaped for Markdown (tl_md_str), in a buffer of the enclosing block: every name
 * written to summary.md goes through it, so '|' adds no cell and HTML renders as text. */
#define MD(s) tl_md_str((s), (char[600]){0}, 600)

/* A value in its shortest form that reads back to the same double ("nan" when undefined):
 * the machine-read files keep full precision, the Markdown and HTML round for reading. */
void tl_rep_num(FILE *f, double v);

/* The protocol as the cells header records it, for people: its numbers in their shortest
 * exact form ("holdout train 0.6 ...", not 0.59999999999999998) and a learning curve's
 * fractions listed. Returns buf. */
const char *tl_rep_protocol_text(const tl_cells_meta *m, char *buf, size_t size);

/* The models listed in the config (grid cells left out) into mi; their count. Every
 * ranking (summary, critical-difference figure, paper tables) is over these. */
size_t tl_rep_listed(const tl_rep *r, size_t *mi);

/* Read dir/cells.txt into r, cells sorted. TL_EIO / TL_EPARSE. Free with tl_rep_free. */
int tl_rep_load(const char *dir, tl_rep *r, tl_err *err);
void tl_rep_free(tl_rep *r);
/* The confusion matrix of (dataset d, model m) summed over its cells into out (k x k). */
void tl_rep_confusion_sum(const tl_rep *r, size_t d, size_t m, double *out);
/* Learning curve point of (d, m) at training fraction fr: mean and sd of the accuracy (RMSE
 * for regression) and the mean training size. Returns the number of cells (0: none). */
size_t tl_rep_lc_point(const tl_rep *r, size_t d, size_t m, size_t fr, double *mean, double *sd,
                       double *n_train);

/* Nested selection (report_select.c): the parameters any model selects, in model order, at
 * most max (names point into r->meta); their chosen values in cell c as CSV fields (",v"
 * each, empty where c's model does not select that one); selections.csv (one line per cell
 * and selected parameter); and summary.md's section of how often each value was chosen. */
size_t tl_rep_sel_columns(const tl_rep *r, const char **names, size_t max);
void tl_rep_sel_fields(FILE *f, const tl_rep *r, const tl_cell *c, const char *const *names,
                       size_t n);
int tl_rep_selections(const tl_rep *r, tl_err *err);
void tl_rep_select_md(FILE *f, const tl_rep *r);

/* tl_report_render for a caller that holds dir's lock (the runner). */
int tl_rep_render(const char *dir, tl_err *err);

/* metrics.json, tables.tex and report.html from dir's cells, metrics.csv, manifest and
 * the SVG figures in plots/ (report_paper.c); the runner writes them last, after the manifest. */
int tl_rep_paper(const char *dir, tl_err *err);

/* summary.md and summary.csv (report_summary.c). */
int tl_rep_summary(const tl_rep *r, tl_err *err);

/* Average ranks across datasets of the nm models models[] (NULL: models 0..nm-1) (1 = best;
 * accuracy, or minus the RMSE, averaged over each pair's cells) with the Friedman test and
 * the Nemenyi critical difference at alpha 0.05 into ranks (nm), *fr and *cd (NaN when it
 * cannot be computed). *applies is 1 when the ranks apply (2+ datasets, 2+ models, not a
 * learning curve, no NaN score), else 0. TL_OK or TL_ENOMEM. */
int tl_rep_ranks(const tl_rep *r, const size_t *models, size_t nm, double *ranks, tl_friedman *fr,
                 double *cd, int *applies, tl_err *err);

/* Mean primary score (tl_rep_primary) of each dataset (row) and model models[m] (NULL:
 * models 0..nm-1) into scores (n_datasets x nm; NaN without cells). TL_OK or TL_ENOMEM. */
int tl_rep_mean_scores(const tl_rep *r, const size_t *models, size_t nm, double *scores,
                       tl_err *err);

/* summary.md's comparisons of each model with the baseline beyond the t-test
 * (report_tests.c): across datasets the Wilcoxon signed-rank test on the mean scores and,
 * given the average ranks (NULL: they do not apply), Holm's and Bonferroni-Dunn's procedures
 * with the baseline as control; for a hold-out protocol McNemar's test on each split. TL_OK
 * or TL_ENOMEM. */
int tl_rep_md_baseline_tests(FILE *f, const tl_rep *r, const double *ranks, double alpha,
                             tl_err *err);

/* tl_report_plots drawing up to jobs figures at once (the runner's threads). */
int tl_rep_figures(const char *dir, const tl_experiment *x, tl_dataset *const *data, size_t jobs,
                   tl_err *err);
/* Figures drawn from the cells into dir/plots (report_plots.c), as x->plots asks. */
int tl_rep_plots(const tl_rep *r, const tl_experiment *x, tl_err *err);
/* The missing_rate figures (report_missing.c): per dataset, each listed model's score against
 * the share of values removed at random; a warning when the run removed none. */
int tl_rep_plot_missing(const tl_rep *r, const tl_experiment *x, tl_err *err);
/* The size_accuracy figures (report_size.c): per dataset, each listed model at its mean
 * leaves and mean score. */
int tl_rep_plot_size(const tl_rep *r, const tl_experiment *x, tl_err *err);
/* The roc and reliability figures, as x->plots asks (report_proba_plots.c). */
int tl_rep_proba_plots(const tl_rep *r, const tl_experiment *x, tl_err *err);

#endif
