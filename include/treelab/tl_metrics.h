/* Evaluation metrics from predictions: confusion matrices, classification and regression
 * scores.
 *
 * API: tl_confusion_init allocates the matrix that tl_confusion_free frees (the struct is the
 * caller's); the other functions fill the caller's structs and arrays. err may be NULL
 * everywhere.
 */
#ifndef TL_METRICS_H
#define TL_METRICS_H

#include <stddef.h>

#include "treelab/tl_api.h"
#include "treelab/tl_dataset.h"
#include "treelab/tl_error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Classification scores of one evaluation. Undefined values (e.g. kappa when chance
 * agreement is 1) are NaN. */
typedef struct tl_class_metrics {
    double accuracy;
    double balanced_accuracy; /* mean recall over classes present in the truth */
    double kappa;             /* Cohen's kappa */
    double f1_macro;          /* mean F1 over classes (sklearn's zero_division=0) */
    double f1_weighted;       /* F1 weighted by class support */
    double log_loss;          /* mean -log p(true class), p clipped to [1e-15, 1 - 1e-15] and
                                 the row renormalised, as sklearn 1.2 (NaN counts as 1e-15) */
    /* from the probabilities (tl_proba_metrics_compute; NaN without them): */
    double roc_auc_macro;    /* one-vs-rest ROC AUC, mean over classes (binary: class 1's) */
    double roc_auc_weighted; /* the same weighted by class support */
    double pr_auc;           /* average precision (binary: class 1's; else one-vs-rest macro) */
    double brier;            /* binary: mean (p1 - y1)^2 (sklearn's brier_score_loss); more
                                 classes: mean over rows of sum_c (p_c - onehot_c)^2 (Brier) */
} tl_class_metrics;

typedef struct tl_reg_metrics {
    double mse, rmse, mae, r2; /* r2 = 1 - SSE/SST; SST = 0: 1 if SSE = 0, else 0 (sklearn) */
} tl_reg_metrics;

/* k x k confusion matrix, row = true class, column = predicted; counts are weights. */
typedef struct tl_confusion {
    size_t k;
    double *m; /* k*k, row-major */
} tl_confusion;

/* Allocate a zeroed k x k matrix. Returns TL_OK or TL_ENOMEM. */
TL_API int tl_confusion_init(tl_confusion *c, size_t k, tl_err *err);
TL_API void tl_confusion_free(tl_confusion *c);
/* Add n predictions (truth[i], pred[i] are class codes; weight may be NULL for 1s). */
TL_API void tl_confusion_add(tl_confusion *c, const int *truth, const int *pred,
                             const double *weight, size_t n);
/* Per-class precision, recall and F1 (arrays of k; NaN-free: 0 when undefined). */
TL_API void tl_confusion_per_class(const tl_confusion *c, double *precision, double *recall,
                                   double *f1);

/* The scores of tl_class_metrics_compute from a (possibly weighted, e.g. summed over folds)
 * confusion matrix; log_loss is NaN. Returns TL_OK, TL_EINVAL for k = 0, or TL_ENOMEM. */
TL_API int tl_confusion_scores(const tl_confusion *c, tl_class_metrics *out, tl_err *err);

/* Scores of one evaluation, unweighted. proba is n x k (row-major) or NULL (the probability
 * metrics are NaN); with proba it calls tl_proba_metrics_compute. */
TL_API int tl_class_metrics_compute(const int *truth, const int *pred, const double *proba,
                                    size_t n, size_t k, tl_class_metrics *out, tl_err *err);
/* The probability metrics of out (log_loss, roc_auc_*, pr_auc, brier) as scikit-learn 1.2.1
 * computes them with labels 0..k-1: roc_auc_score(multi_class="ovr", average="macro" /
 * "weighted"), average_precision_score (more than 2 classes: on label_binarize(truth), macro,
 * so a class absent from truth scores 0), brier_score_loss, log_loss(eps=1e-15). weight
 * (n, or NULL for 1s) weighs rows; rows of weight 0 are left out of the curves, as sklearn.
 * Where sklearn refuses (ROC AUC when truth holds one class) the value is NaN; with more than
 * 2 classes the ROC averages skip classes absent from truth (sklearn refuses those folds).
 * NaN probabilities make the ranking metrics NaN. Returns TL_OK, TL_EINVAL (n or k = 0, a
 * class code outside 0..k-1) or TL_ENOMEM. */
TL_API int tl_proba_metrics_compute(const int *truth, const double *proba, const double *weight,
                                    size_t n, size_t k, tl_class_metrics *out, tl_err *err);

/* Score bins behind the ROC and reliability figures: the (probability, is-that-class) pairs
 * of one evaluation in TL_PROBA_BINS equal-width bins of the probability, each bin three
 * numbers: total weight, weighted sum of the probabilities, weight of the pairs that were the
 * class. Two classes give class 1's pairs (as the metrics); more give every class's
 * (the micro-averaged one-vs-rest curve). Cells sum them over folds. */
#define TL_PROBA_BINS 20
/* Add the pairs of n rows to bins (3 * TL_PROBA_BINS, not cleared); NaN probabilities are
 * skipped. truth must hold codes in 0..k-1. */
TL_API void tl_proba_bins_add(const int *truth, const double *proba, const double *weight, size_t n,
                              size_t k, double *bins);
/* The ROC curve of summed bins (metrics_bins.c): thresholds at the lower edges of the bins
 * that hold weight, highest first, so the pairs of one bin count as tied (the exact ROC of the
 * probabilities rounded down to a multiple of 1/TL_PROBA_BINS). fpr and tpr (TL_PROBA_BINS + 1
 * each) get (0, 0) first and (1, 1) last; *area the trapezoid area under them. Returns the
 * number of points, 0 when the bins hold no positive or no negative weight (no curve). Too
 * coarse where scores crowd near 0 and 1 (naive Bayes): the ROC figure uses these only for
 * cells written before the finer tl_roc_bins_add. */
TL_API size_t tl_proba_bins_roc(const double *bins, double *fpr, double *tpr, double *area);

/* Finer bins for the ROC curve: the same pairs as tl_proba_bins_add in TL_ROC_BINS bins
 * equal in log-odds over [-TL_ROC_LOGIT, TL_ROC_LOGIT] (p from 2e-9 to 1 - 2e-9; beyond, the
 * end bins), two numbers each: total weight, weight of the pairs that were the class. Equal
 * widths in p put nearly every naive Bayes score in the two end bins, where the ranking (and
 * so the ROC) is lost. bins holds 2 * TL_ROC_BINS values, not cleared. */
#define TL_ROC_BINS 200
#define TL_ROC_LOGIT 20.0
TL_API void tl_roc_bins_add(const int *truth, const double *proba, const double *weight, size_t n,
                            size_t k, double *bins);
/* tl_proba_bins_roc on the finer bins: fpr and tpr hold TL_ROC_BINS + 1 points. */
TL_API size_t tl_roc_bins_curve(const double *bins, double *fpr, double *tpr, double *area);
/* The reliability diagram of summed bins: for each bin with weight, in increasing order, the
 * mean predicted probability, the observed frequency of the class (weight of the pairs that
 * were the class over the bin's weight) and the bin's weight (arrays of TL_PROBA_BINS).
 * Returns the number of points. */
TL_API size_t tl_proba_bins_reliability(const double *bins, double *mean_p, double *observed,
                                        double *weight);

TL_API void tl_reg_metrics_compute(const double *truth, const double *pred, size_t n,
                                   tl_reg_metrics *out);

/* The same with row weights (weight NULL: every row weighs 1, the numbers above to the bit).
 * Every score is scikit-learn's with sample_weight: the confusion matrix sums weights, so
 * accuracy, balanced accuracy, kappa and F1 follow from it; log loss, MSE, MAE and R² are
 * weighted means (R²'s mean of the truth weighted too). A row of weight 2 counts as the row
 * twice. Weights must be >= 0 with a positive sum. */
TL_API int tl_class_metrics_compute_w(const int *truth, const int *pred, const double *proba,
                                      const double *weight, size_t n, size_t k,
                                      tl_class_metrics *out, tl_err *err);
TL_API void tl_reg_metrics_compute_w(const double *truth, const double *pred, const double *weight,
                                     size_t n, tl_reg_metrics *out);

/* A score a nested selection may optimise (`objective = "kappa"`): one table in metrics.c
 * maps each name to a field of tl_class_metrics or tl_reg_metrics and its direction, so a
 * metric computed there becomes an objective by adding one line to the table. */
typedef struct tl_metric_def {
    const char *name;    /* as in metrics.csv */
    const char *alias;   /* another accepted spelling ("macro_f1"), or NULL */
    int classification;  /* 1: a field of tl_class_metrics, 0: of tl_reg_metrics */
    int lower_is_better; /* error-like scores (log_loss, mse, rmse, mae) are minimised */
    size_t offset;       /* offsetof the double in its struct */
} tl_metric_def;

/* Metric i of the table, NULL past the last. */
TL_API const tl_metric_def *tl_metric_at(size_t i);
/* The metric called name (or its alias), or NULL with TL_EINVAL listing the valid names. */
TL_API const tl_metric_def *tl_metric_find(const char *name, tl_err *err);
/* Its value in cm (classification) or rm (regression); NaN when the struct it reads is NULL. */
TL_API double tl_metric_value(const tl_metric_def *m, const tl_class_metrics *cm,
                              const tl_reg_metrics *rm);

/* Permutation importance of every attribute for a fitted model m on rows[0..n) of d (rows it
 * was not fitted on): the drop in accuracy (classes) or R^2 (values) when the attribute's
 * values are shuffled among those rows, repeats times (shuffle r of attribute j seeded from
 * seed, j and r), as scikit-learn's permutation_importance: mean[j] and the population
 * sd[j] (d->n_attrs each). d is not changed. TL_EINVAL for n or repeats 0, TL_ENOMEM, or a
 * prediction's error. */
struct tl_model;
TL_API int tl_permutation_importance(const struct tl_model *m, const tl_dataset *d,
                                     const size_t *rows, size_t n, size_t repeats,
                                     unsigned long seed, double *mean, double *sd, tl_err *err);

#ifdef __cplusplus
}
#endif

#endif
