/* Figures with gnuplot: each function writes STEM.dat (data), STEM.gp (a readable script that
 * renders STEM.png, pngcairo 1200x800, and STEM.svg) and runs gnuplot on it.
 *
 * Common contract of every tl_plot_* figure function:
 * - stem is an output path without extension ("results/NAME/plots/pruning_iris_cart"); its
 *   directory must exist. The script names its files by basename and gnuplot runs in the
 *   stem's directory, so `cd DIR && gnuplot NAME.gp` re-renders after restyling.
 * - gnuplot runs as a separate process with an argument list (fork + execvp, no shell); a
 *   non-zero exit status is TL_EINTERNAL with gnuplot's stderr in the message.
 * - When the gnuplot program cannot be found, the data and script are still written, a
 *   tl_warn says plotting was skipped, and the function returns TL_OK.
 * - Bad input (sizes 0, NULL arrays that are required) is TL_EINVAL; files that cannot be
 *   written are TL_EIO. Nothing is retained: the caller keeps ownership of all inputs.
 * - Models get colours from a colour-blind-safe palette (Okabe-Ito) by a colour index the
 *   caller passes (e.g. the model's position in the experiment's model list), so one model
 *   keeps its colour across all figures of a report. Text is drawn noenhanced, so names with
 *   '_' or '^' print literally.
 *
 * API: nothing is retained or allocated for the caller (see the contract below); the program
 * names given to tl_plot_set_gnuplot and tl_plot_set_dot are kept by pointer and must outlive
 * their use; tl_plot_color, tl_plot_gnuplot and tl_plot_dot return static strings. err may be
 * NULL everywhere.
 */
#ifndef TL_PLOT_H
#define TL_PLOT_H

#include <stddef.h>

#include "treelab/tl_api.h"
#include "treelab/tl_error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- settings (process-wide; not thread-safe: set once at start-up or in tests) ---- */

/* The gnuplot program (searched on PATH unless it contains '/'); NULL restores "gnuplot". */
TL_API void tl_plot_set_gnuplot(const char *program);
/* The Graphviz program for tree pictures; NULL restores "dot". */
TL_API void tl_plot_set_dot(const char *program);

/* 1 when program (a name searched on PATH, or a path with '/') exists and is executable. */
TL_API int tl_plot_found(const char *program);
/* on = 0: figure functions write data and scripts only and run neither gnuplot nor dot, without
 * a warning (a caller that found gnuplot missing says so once); 1 (the default) runs them. */
TL_API void tl_plot_set_render(int on);
/* The gnuplot program currently set (for tl_plot_found). */
TL_API const char *tl_plot_gnuplot(void);
/* The Graphviz program currently set. */
TL_API const char *tl_plot_dot(void);

/* Number of colours in the palette; colour indices wrap around it. */
#define TL_PLOT_N_COLORS 8
/* "#RRGGBB" of colour index i (i modulo TL_PLOT_N_COLORS). Static string. */
TL_API const char *tl_plot_color(size_t i);

/* ---- generic curve with band and markers (learning curves, C4.5 CF, validation pruners) */

typedef struct tl_plot_series {
    const char *name; /* legend text */
    size_t color;     /* palette index (stable per model) */
    size_t n;         /* points */
    const double *x, *y;
    const double *band; /* half-width of a shaded band around y (sd or se), or NULL */
    int y2;             /* 1: plot against the right-hand axis (e.g. tree size) */
    int dashed;         /* 1: dashed line (e.g. training/resubstitution error) */
} tl_plot_series;

typedef struct tl_plot_marker {
    double x, y;
    const char *label; /* printed next to the marker (e.g. "min", "1-SE") */
    size_t color;
} tl_plot_marker;

typedef struct tl_plot_curve {
    const char *title, *xlabel, *ylabel;
    const char *y2label; /* right-hand axis label, used when a series has y2 = 1 */
    int xlog;            /* logarithmic x axis (x must be > 0) */
    const tl_plot_series *series;
    size_t n_series;
    const tl_plot_marker *markers; /* may be NULL */
    size_t n_markers;
    double hline; /* a dashed horizontal reference line, or NaN for none */
    const char *hline_label;
    int rate;        /* 1: y is a rate (accuracy, error): the axis stays within [0, 1] */
    int xint;        /* 1: x is an integer parameter: tics on integers only */
    int name_points; /* 1: each series' name printed beside its points (a scatter of
                             more models than the palette has colours stays readable) */
} tl_plot_curve;

/* Writes STEM.dat with one block per series (gnuplot `index i`): columns x, y, lower, upper
 * (y -/+ band; y when band is NULL), then a block of markers (x, y, "label") when there are
 * any. Series with NaN in y are written as gaps. */
TL_API int tl_plot_curve_write(const tl_plot_curve *c, const char *stem, tl_err *err);

/* Learning curve: accuracy mean (y) and sd (band) against training fraction (x), one series
 * per model. A thin wrapper of tl_plot_curve_write with titles and [0,1] axes set. */
TL_API int tl_plot_learning_curve(const tl_plot_series *models, size_t n_models, const char *title,
                                  const char *stem, tl_err *err);

/* ---- CART cost-complexity pruning curve (rpart's plotcp) ---- */

typedef struct tl_plot_cp_path {
    size_t n;               /* subtrees in the sequence, full tree first (alpha ascending) */
    const double *alpha;    /* complexity at which each subtree becomes optimal (>= 0) */
    const double *leaves;   /* number of leaves of each subtree */
    const double *risk;     /* resubstitution error of each subtree */
    const double *cv_error; /* cross-validated error, or NULL (then no CV curve, no markers) */
    const double *cv_se;    /* its standard error, or NULL (then no band and no 1-SE mark) */
    const char *title;      /* NULL: "Cost-complexity pruning" */
    int x_leaves;           /* 0: x = alpha on a log axis; 1: x = number of leaves */
    const char *risk_label; /* legend of the risk curve; NULL: "resubstitution error" */
    const char *ylabel;     /* NULL: "error rate" */
    int has_chosen;         /* 1: mark subtree `chosen` as the pruner's choice (a trace's) */
    size_t chosen;
    int rate; /* 1: the errors are rates, the y axis stays within [0, 1] */
} tl_plot_cp_path;

/* The trees the pruning curve marks: *i_min = argmin cv_error (ties go to the smaller tree,
 * as rpart's which.min over its root-first table), *i_1se = the smallest tree (fewest
 * leaves, then largest alpha) with cv_error <= min + cv_se[i_min] (Breiman et al.'s 1-SE
 * rule; = i_min when cv_se is NULL). NaN errors are skipped. TL_EINVAL when cv_error is NULL
 * or all NaN. */
TL_API int tl_plot_cp_choose(const tl_plot_cp_path *p, size_t *i_min, size_t *i_1se, tl_err *err);

/* Pruning curve: resubstitution error (dashed) and CV error with a +/-1 SE band against
 * alpha (log axis; the full tree's alpha = 0 is drawn at a position labelled "0" left of the
 * smallest positive alpha) or the number of leaves; the min and 1-SE trees are marked and
 * the 1-SE threshold drawn as a dashed line. STEM.dat columns: alpha, x (plotted position),
 * leaves, risk, cv_error, cv_lower, cv_upper (NaN where absent); a second block holds the
 * marked trees (x, cv_error, "label"). */
TL_API int tl_plot_pruning(const tl_plot_cp_path *p, const char *stem, tl_err *err);

/* ---- confusion matrix heatmap ---- */

typedef struct tl_plot_confusion {
    size_t k;                   /* classes */
    const double *counts;       /* k x k, row-major, row = true class, column = predicted */
    const char *const *classes; /* k names */
    const char *title;          /* NULL: "Confusion matrix" */
} tl_plot_confusion;

/* Classes up to which the confusion heatmap prints each cell's count and share. */
#define TL_PLOT_CONFUSION_NUMBERS 12

/* Cells coloured by the row-normalised share (recall along the diagonal), each printed with
 * its count and share up to TL_PLOT_CONFUSION_NUMBERS classes (past that the numbers are
 * hidden and the x labels upright). STEM.dat columns: predicted index, true index, count, share (a row of
 * zeros gives share 0). */
TL_API int tl_plot_confusion_write(const tl_plot_confusion *c, const char *stem, tl_err *err);

/* ---- parameter-grid heatmap ---- */

typedef struct tl_plot_grid {
    size_t nx, ny;              /* columns (x parameter values) and rows (y values) */
    const double *values;       /* ny x nx row-major: values[iy * nx + ix]; NaN = not run */
    const char *const *xvalues; /* nx labels of the x parameter's values */
    const char *const *yvalues; /* ny labels */
    const char *xname, *yname;  /* parameter names (axis labels) */
    const char *value_name;     /* colour-bar label; NULL: "validation accuracy" */
    const char *title;
    int has_selected; /* 1: outline cell (sel_x, sel_y) as the selected one */
    size_t sel_x, sel_y;
} tl_plot_grid;

/* STEM.dat columns: ix, iy, value, "cell text", text colour as 0xRRGGBB (NaN cells: NaN,
 * "" and left blank). */
TL_API int tl_plot_grid_write(const tl_plot_grid *g, const char *stem, tl_err *err);

/* ---- accuracy per fold ---- */

typedef struct tl_plot_folds {
    size_t n_datasets, n_models, n_folds;
    const char *const *datasets, *const *models;
    const size_t *colors;       /* n_models palette indices, or NULL for 0..n_models-1 */
    const double *values;       /* [(d * n_models + m) * n_folds + f]; NaN values are skipped */
    const char *title, *ylabel; /* NULL: "Accuracy per fold", "accuracy" */
    int rate;                   /* 1: values are rates, the axis stays within [0, 1] */
} tl_plot_folds;

/* Box plots (with the individual folds as dots) per model, grouped by dataset. STEM.dat: one
 * block per (dataset, model) in that order, each with columns x position, value. */
TL_API int tl_plot_folds_write(const tl_plot_folds *f, const char *stem, tl_err *err);

/* ---- critical difference diagram (Demsar 2006) ---- */

typedef struct tl_plot_cd {
    size_t k; /* models, >= 2 */
    const char *const *models;
    const double *ranks; /* average ranks, 1 = best */
    double cd;           /* critical difference (e.g. from tl_nemenyi_cd) */
    size_t n_datasets;   /* shown in the title */
    const char *title;   /* NULL: "Critical difference diagram (Nemenyi)" */
} tl_plot_cd;

/* Groups of models whose ranks differ by less than cd, in rank order: each clique is a run
 * [first, last] of the models sorted by rank (order[] gets that sort, k entries), maximal and
 * with at least two members. Returns the number of cliques written to first/last (each array
 * must hold k entries). */
TL_API size_t tl_plot_cd_cliques(const tl_plot_cd *c, size_t *order, size_t *first, size_t *last);

/* A rank axis from 1 to k; the better half of the models labelled on the left, the rest on
 * the right; thick bars join models not significantly different; the CD drawn above the
 * axis. STEM.dat block 0 columns: "model", rank, label x, label y; block 1: cliques as
 * rank from, rank to, y. */
TL_API int tl_plot_cd_write(const tl_plot_cd *c, const char *stem, tl_err *err);

/* ---- decision boundaries ---- */

typedef struct tl_plot_boundary {
    const char *title, *xname, *yname;
    size_t nx, ny;         /* grid resolution (>= 2 each) */
    double x0, x1, y0, y1; /* grid spans: column ix is at x0 + ix*(x1-x0)/(nx-1) */
    const int *grid;       /* ny x nx predicted class codes, grid[iy * nx + ix] */
    size_t n_classes;
    const char *const *classes; /* class names (legend) */
    size_t n_points;            /* training points */
    const double *px, *py;
    const int *pclass; /* their true class codes (0..n_classes-1) */
} tl_plot_boundary;

/* Regions in light tints of the class colours, training points in full colour with a marker
 * shape per class. STEM.dat block 0: the grid (x, y, class); STEM_points.dat: x, y, class. */
TL_API int tl_plot_boundary_write(const tl_plot_boundary *b, const char *stem, tl_err *err);

typedef struct tl_plot_steps {
    const char *title, *xname, *yname;
    size_t n_grid;      /* >= 2 */
    double x0, x1;      /* prediction i is at x0 + i*(x1-x0)/(n_grid-1) */
    const double *pred; /* n_grid predictions of the model */
    size_t n_points;
    const double *px, *py; /* training points */
} tl_plot_steps;

/* One-attribute regression: the model's step function over the training points. STEM.dat
 * block 0: the steps (x where a new constant value starts, value; the last row closes the
 * range at x1); block 1: the points. A jump between grid points i and i+1 is drawn at their
 * midpoint. */
TL_API int tl_plot_steps_write(const tl_plot_steps *s, const char *stem, tl_err *err);

/* ---- probability figures: ROC curves and reliability diagrams ---- */

typedef struct tl_plot_proba_series {
    const char *name; /* legend text */
    size_t color;     /* palette index (stable per model) */
    size_t n;         /* points, each in [0, 1] x [0, 1] */
    const double *x, *y;
    const double *weight; /* weight of each point (a reliability bin's), or NULL */
} tl_plot_proba_series;

typedef struct tl_plot_proba {
    int reliability; /* 0: ROC (false against true positive rate); 1: reliability diagram
                         (mean predicted probability against observed frequency) */
    const char *title;
    const tl_plot_proba_series *series;
    size_t n_series;
} tl_plot_proba;

/* Curves on the unit square with the dashed diagonal (chance, or perfect calibration);
 * reliability points get an area proportional to their share of the series' weight.
 * STEM.dat: one block per series, columns x, y, weight (NaN without), point size. A point
 * outside [0, 1]^2 is TL_EINVAL. */
int tl_plot_proba_write(const tl_plot_proba *p, const char *stem, tl_err *err);

/* ---- tree picture ---- */

/* Writes dot_text to STEM.dot and, when Graphviz's dot is installed, renders STEM.png and
 * STEM.svg with it (argument list, no shell). Without dot only the DOT file is written
 * (tl_info says so) and the result is TL_OK. */
TL_API int tl_plot_tree_dot(const char *dot_text, const char *stem, tl_err *err);

#ifdef __cplusplus
}
#endif

#endif
