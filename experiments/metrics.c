/* Evaluation metrics: confusion matrices, classification and regression scores (as sklearn). */
#include "treelab/tl_metrics.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int tl_confusion_init(tl_confusion *c, size_t k, tl_err *err)
{
    c->k = k;
    c->m = calloc(k ? k * k : 1, sizeof *c->m);
    if (!c->m) {
        c->k = 0;
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    }
    return TL_OK;
}

void tl_confusion_free(tl_confusion *c)
{
    if (!c)
        return;
    free(c->m);
    c->m = NULL;
    c->k = 0;
}

void tl_confusion_add(tl_confusion *c, const int *truth, const int *pred, const double *weight,
                      size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (truth[i] < 0 || pred[i] < 0 || (size_t)truth[i] >= c->k || (size_t)pred[i] >= c->k)
            continue;
        c->m[(size_t)truth[i] * c->k + (size_t)pred[i]] += weight ? weight[i] : 1.0;
    }
}

static double row_sum(const tl_confusion *c, size_t r)
{
    double s = 0;
    for (size_t j = 0; j < c->k; j++)
        s += c->m[r * c->k + j];
    return s;
}

static double col_sum(const tl_confusion *c, size_t col)
{
    double s = 0;
    for (size_t i = 0; i < c->k; i++)
        s += c->m[i * c->k + col];
    return s;
}

void tl_confusion_per_class(const tl_confusion *c, double *precision, double *recall, double *f1)
{
    for (size_t j = 0; j < c->k; j++) {
        double tp = c->m[j * c->k + j], pred = col_sum(c, j), truth = row_sum(c, j);
        double p = pred > 0 ? tp / pred : 0, r = truth > 0 ? tp / truth : 0;
        if (precision)
            precision[j] = p;
        if (recall)
            recall[j] = r;
        if (f1)
            f1[j] = p + r > 0 ? 2 * p * r / (p + r) : 0; /* sklearn's zero_division = 0 */
    }
}

/* Every score that the confusion matrix alone determines. */
static void scores_from_confusion(const tl_confusion *c, double *precision, double *recall,
                                  double *f1, tl_class_metrics *out)
{
    size_t k = c->k;
    double total = 0, trace = 0, chance = 0, recall_sum = 0, f1_sum = 0, f1_wsum = 0;
    size_t n_true = 0, n_seen = 0;
    tl_confusion_per_class(c, precision, recall, f1);
    for (size_t j = 0; j < k; j++) {
        double truth = row_sum(c, j), pred = col_sum(c, j);
        total += truth;
        trace += c->m[j * k + j];
        chance += truth * pred;
        if (truth > 0) {
            recall_sum += recall[j];
            n_true++;
        }
        /* sklearn averages F1 over the labels present in the truth or the predictions */
        if (truth > 0 || pred > 0) {
            f1_sum += f1[j];
            n_seen++;
        }
        f1_wsum += truth * f1[j];
    }
    out->accuracy = trace / total;
    out->balanced_accuracy = n_true ? recall_sum / (double)n_true : NAN;
    double po = trace / total, pe = chance / (total * total);
    out->kappa = pe < 1 ? (po - pe) / (1 - pe) : NAN;
    out->f1_macro = n_seen ? f1_sum / (double)n_seen : NAN;
    out->f1_weighted = f1_wsum / total;
}

int tl_confusion_scores(const tl_confusion *c, tl_class_metrics *out, tl_err *err)
{
    if (c->k == 0)
        return tl_err_set(err, TL_EINVAL, "metrics need at least one class");
    double *per = malloc(3 * c->k * sizeof *per);
    if (!per)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    scores_from_confusion(c, per, per + c->k, per + 2 * c->k, out);
    out->log_loss = out->roc_auc_macro = out->roc_auc_weighted = out->pr_auc = out->brier = NAN;
    free(per);
    return TL_OK;
}

int tl_class_metrics_compute(const int *truth, const int *pred, const double *proba, size_t n,
                             size_t k, tl_class_metrics *out, tl_err *err)
{
    return tl_class_metrics_compute_w(truth, pred, proba, NULL, n, k, out, err);
}

int tl_class_metrics_compute_w(const int *truth, const int *pred, const double *proba,
                               const double *weight, size_t n, size_t k, tl_class_metrics *out,
                               tl_err *err)
{
    if (n == 0 || k == 0)
        return tl_err_set(err, TL_EINVAL, "metrics need at least one prediction and one class");
    for (size_t i = 0; i < n; i++)
        if (truth[i] < 0 || pred[i] < 0 || (size_t)truth[i] >= k || (size_t)pred[i] >= k)
            return tl_err_set(err, TL_EINVAL, "prediction %zu: class codes %d / %d outside 0..%zu",
                              i, truth[i], pred[i], k - 1);
    tl_confusion c;
    if (tl_confusion_init(&c, k, err))
        return TL_ENOMEM;
    tl_confusion_add(&c, truth, pred, weight, n);
    int rc = tl_confusion_scores(&c, out, err);
    if (!rc && proba)
        rc = tl_proba_metrics_compute(truth, proba, weight, n, k, out, err);
    tl_confusion_free(&c);
    return rc;
}

void tl_reg_metrics_compute(const double *truth, const double *pred, size_t n, tl_reg_metrics *out)
{
    tl_reg_metrics_compute_w(truth, pred, NULL, n, out);
}

void tl_reg_metrics_compute_w(const double *truth, const double *pred, const double *weight,
                              size_t n, tl_reg_metrics *out)
{
    if (n == 0) {
        out->mse = out->rmse = out->mae = out->r2 = NAN;
        return;
    }
    /* a weight of 1 multiplies exactly, so unweighted scores keep their bits */
    double mean = 0, sse = 0, sae = 0, sst = 0, total = 0;
    for (size_t i = 0; i < n; i++) {
        double w = weight ? weight[i] : 1.0;
        mean += w * truth[i];
        total += w;
    }
    mean /= total;
    for (size_t i = 0; i < n; i++) {
        double w = weight ? weight[i] : 1.0, e = truth[i] - pred[i], d = truth[i] - mean;
        sse += w * e * e;
        sae += w * fabs(e);
        sst += w * d * d;
    }
    out->mse = sse / total;
    out->rmse = sqrt(out->mse);
    out->mae = sae / total;
    /* a constant truth leaves R² undefined: 1 for a perfect prediction, else 0, as
     * scikit-learn's r2_score (force_finite) reports it */
    out->r2 = sst > 0 ? 1 - sse / sst : (sse == 0 ? 1 : 0);
}

#define CLS(name, alias, lower, field)                                                             \
    {                                                                                              \
        name, alias, 1, lower, offsetof(tl_class_metrics, field)                                   \
    }
#define REG(name, alias, lower, field)                                                             \
    {                                                                                              \
        name, alias, 0, lower, offsetof(tl_reg_metrics, field)                                     \
    }
/* Every score above that a selection may optimise; a new one is one line here. */
static const tl_metric_def metric_table[] = {
    CLS("accuracy", NULL, 0, accuracy),
    CLS("balanced_accuracy", NULL, 0, balanced_accuracy),
    CLS("kappa", NULL, 0, kappa),
    CLS("f1_macro", "macro_f1", 0, f1_macro),
    CLS("f1_weighted", "weighted_f1", 0, f1_weighted),
    CLS("log_loss", NULL, 1, log_loss),
    CLS("roc_auc_macro", NULL, 0, roc_auc_macro),
    CLS("roc_auc_weighted", NULL, 0, roc_auc_weighted),
    CLS("pr_auc", NULL, 0, pr_auc),
    CLS("brier", NULL, 1, brier),
    REG("mse", NULL, 1, mse),
    REG("rmse", NULL, 1, rmse),
    REG("mae", NULL, 1, mae),
    REG("r2", NULL, 0, r2),
};
#undef CLS
#undef REG

const tl_metric_def *tl_metric_at(size_t i)
{
    return i < sizeof metric_table / sizeof *metric_table ? &metric_table[i] : NULL;
}

const tl_metric_def *tl_metric_find(const char *name, tl_err *err)
{
    char list[512] = "";
    size_t used = 0;
    for (size_t i = 0; tl_metric_at(i); i++) {
        const tl_metric_def *m = tl_metric_at(i);
        if (!strcmp(name, m->name) || (m->alias && !strcmp(name, m->alias)))
            return m;
        if (used < sizeof list)
            used +=
                (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", m->name);
    }
    tl_err_set(err, TL_EINVAL, "unknown metric '%s'; valid: %s", name, list);
    return NULL;
}

double tl_metric_value(const tl_metric_def *m, const tl_class_metrics *cm, const tl_reg_metrics *rm)
{
    const void *base = m->classification ? (const void *)cm : (const void *)rm;
    if (!base)
        return NAN;
    double v;
    memcpy(&v, (const char *)base + m->offset, sizeof v);
    return v;
}
