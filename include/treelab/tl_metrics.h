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
    double log_loss;          /* mean -log p(true class), p clipped to [1e-15, 1 - 1e-15] as
                                 sklearn (NaN counts as 1e-15) */
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

/* Scores of one evaluation. proba is n x k (row-major) or NULL (log_loss = NaN). */
TL_API int tl_class_metrics_compute(const int *truth, const int *pred, const double *proba,
                                    size_t n, size_t k, tl_class_metrics *out, tl_err *err);
TL_API void tl_reg_metrics_compute(const double *truth, const double *pred, size_t n,
                                   tl_reg_metrics *out);

#ifdef __cplusplus
}
#endif

#endif
