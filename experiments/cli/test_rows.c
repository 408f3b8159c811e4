/* Scoring a model on test rows for `fit --test`, `predict --test` and `cv --test`. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model_io.h"
#include "treelab/tl_metrics.h"

size_t *tl_cli_role_rows(const tl_dataset *d, int role, size_t *n, tl_err *err)
{
    size_t *rows = malloc((d->n_rows ? d->n_rows : 1) * sizeof *rows);
    *n = 0;
    if (!rows) {
        tl_err_set(err, TL_ENOMEM, "out of memory");
        return NULL;
    }
    for (size_t i = 0; i < d->n_rows; i++)
        if (!d->role || d->role[i] == role)
            rows[(*n)++] = i;
    return rows;
}

/* Classification scores: predictions of width k (the model's classes) padded to the data's
 * kd classes (a test file may hold classes the model never saw). */
static int class_scores(const tl_dataset *d, const size_t *rows, size_t n, const double *out,
                        size_t k, const double *w, tl_class_metrics *cm, tl_err *err)
{
    size_t kd = tl_dataset_n_classes(d);
    int *truth = malloc(n * sizeof *truth), *pred = malloc(n * sizeof *pred);
    double *p = calloc(n * kd, sizeof *p);
    int rc = truth && pred && p ? TL_OK : tl_err_set(err, TL_ENOMEM, "out of memory");
    for (size_t i = 0; !rc && i < n; i++) {
        size_t best = 0;
        for (size_t c = 0; c < k && c < kd; c++) {
            p[i * kd + c] = out[i * k + c];
            if (out[i * k + c] > out[i * k + best])
                best = c;
        }
        truth[i] = d->y.code[rows[i]];
        pred[i] = (int)best;
    }
    if (!rc)
        rc = tl_class_metrics_compute_w(truth, pred, p, w, n, kd, cm, err);
    free(truth);
    free(pred);
    free(p);
    return rc;
}

int tl_cli_print_scores(FILE *f, const char *label, const tl_model *m, const tl_dataset *d,
                        const size_t *rows, size_t n, tl_err *err)
{
    size_t *all = NULL;
    if (!(rows = tl_rows_or_all(d, rows, &n, &all, err)))
        return err->code;
    if (!n) {
        free(all);
        return tl_err_set(err, TL_EINVAL, "%s: no rows to score", label);
    }
    size_t k = tl_model_out_width(m);
    double *out = malloc(n * k * sizeof *out), *w = malloc(n * sizeof *w), total = 0;
    int rc = out && w ? tl_model_predict(m, d, rows, n, out, err)
                      : tl_err_set(err, TL_ENOMEM, "out of memory");
    for (size_t i = 0; !rc && i < n; i++)
        total += w[i] = tl_dataset_weight(d, rows[i]);
    if (!rc) {
        fprintf(f, "%s: %zu rows", label, n);
        if (d->weight)
            fprintf(f, " (weight %.6g)", total);
    }
    if (!rc && tl_dataset_is_classification(d)) {
        tl_class_metrics cm;
        if (!(rc = class_scores(d, rows, n, out, k, d->weight ? w : NULL, &cm, err))) {
            fprintf(f, ": accuracy %.4f, balanced accuracy %.4f, kappa %.4f, macro F1 %.4f",
                    cm.accuracy, cm.balanced_accuracy, cm.kappa, cm.f1_macro);
            /* the probability metrics as cv's folds have them; AUC needs two classes */
            if (isnan(cm.roc_auc_macro))
                fputs(", ROC AUC undefined (the rows hold one class)", f);
            else
                fprintf(f, ", ROC AUC %.4f", cm.roc_auc_macro);
            fprintf(f, ", log loss %.4f, Brier %.4f\n", cm.log_loss, cm.brier);
        }
    } else if (!rc) {
        double *truth = malloc(n * sizeof *truth);
        tl_reg_metrics rm;
        if (!truth)
            rc = tl_err_set(err, TL_ENOMEM, "out of memory");
        for (size_t i = 0; !rc && i < n; i++)
            truth[i] = d->y.num[rows[i]];
        if (!rc) {
            tl_reg_metrics_compute_w(truth, out, d->weight ? w : NULL, n, &rm);
            fprintf(f, ": RMSE %.4f, MAE %.4f, R2 %.4f\n", rm.rmse, rm.mae, rm.r2);
        }
        free(truth);
    }
    free(out);
    free(w);
    free(all);
    return rc;
}
