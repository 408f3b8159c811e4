/* Probability metrics as scikit-learn 1.2.1: one-vs-rest ROC AUC, average precision, Brier, log loss. */
#include "treelab/tl_metrics.h"

#include <gsl/gsl_sort.h>
#include <math.h>
#include <stdlib.h>

/* sklearn's log_loss clipping */
#define TL_LOGLOSS_EPS 1e-15

static double row_weight(const double *weight, size_t i)
{
    return weight ? weight[i] : 1.0;
}

/* log_loss: clip, renormalise each row (sklearn 1.2 does), weighted mean of -log p(truth). */
static double log_loss(const int *truth, const double *proba, const double *weight, size_t n,
                       size_t k)
{
    double s = 0, wsum = 0;
    for (size_t i = 0; i < n; i++) {
        double row = 0, p_true = 0;
        for (size_t c = 0; c < k; c++) {
            double p = proba[i * k + c];
            if (!(p >= TL_LOGLOSS_EPS)) /* NaN counts as 0 too */
                p = TL_LOGLOSS_EPS;
            if (p > 1 - TL_LOGLOSS_EPS)
                p = 1 - TL_LOGLOSS_EPS;
            row += p;
            if ((size_t)truth[i] == c)
                p_true = p;
        }
        s -= row_weight(weight, i) * log(p_true / row);
        wsum += row_weight(weight, i);
    }
    return s / wsum;
}

/* Binary: sklearn's brier_score_loss on class 1. More classes: Brier's (1950) sum over
 * classes, which is twice the binary one on two classes. */
static double brier(const int *truth, const double *proba, const double *weight, size_t n, size_t k)
{
    double s = 0, wsum = 0;
    for (size_t i = 0; i < n; i++) {
        double row = 0;
        for (size_t c = k == 2 ? 1 : 0; c < k; c++) {
            double e = proba[i * k + c] - ((size_t)truth[i] == c);
            row += e * e;
        }
        s += row_weight(weight, i) * row;
        wsum += row_weight(weight, i);
    }
    return s / wsum;
}

/* One class against the rest: the ROC area and the average precision of the scores in
 * column c, from the cumulative weights at each distinct score (sklearn's
 * _binary_clf_curve, so tied scores make one point). order is scratch of n. */
typedef struct ovr_score {
    double support; /* weight of the rows of class c */
    double roc_auc; /* NaN when truth holds one side only */
    double ap;
} ovr_score;

static void one_vs_rest(const int *truth, const double *proba, const double *weight, size_t n,
                        size_t k, size_t c, size_t *order, ovr_score *out)
{
    double pos = 0, neg = 0;
    for (size_t i = 0; i < n; i++) {
        double w = row_weight(weight, i);
        if ((size_t)truth[i] == c)
            pos += w;
        else
            neg += w;
    }
    out->support = pos;
    gsl_sort_index(order, proba + c, k, n); /* ascending; walked from the top */
    double tp = 0, fp = 0, tpr_prev = 0, fpr_prev = 0, recall_prev = 0, auc = 0, ap = 0;
    size_t at = n;
    while (at > 0) {
        double s = proba[order[at - 1] * k + c];
        int any = 0; /* rows of weight 0 do not make a point (sklearn drops them) */
        for (; at > 0 && proba[order[at - 1] * k + c] == s; at--) {
            size_t i = order[at - 1];
            double w = row_weight(weight, i);
            if (w == 0)
                continue;
            any = 1;
            if ((size_t)truth[i] == c)
                tp += w;
            else
                fp += w;
        }
        if (!any)
            continue;
        if (pos > 0 && neg > 0) {
            double tpr = tp / pos, fpr = fp / neg;
            auc += (fpr - fpr_prev) * (tpr + tpr_prev) / 2;
            tpr_prev = tpr, fpr_prev = fpr;
        }
        /* no positive row: sklearn sets the recall to 1 at every threshold */
        double recall = pos > 0 ? tp / pos : 1, precision = tp + fp != 0 ? tp / (tp + fp) : 0;
        ap += (recall - recall_prev) * precision;
        recall_prev = recall;
    }
    out->roc_auc = pos > 0 && neg > 0 ? auc : NAN;
    out->ap = ap;
}

/* The ranking metrics: AUCs and average precision. */
static int ranking(const int *truth, const double *proba, const double *weight, size_t n, size_t k,
                   tl_class_metrics *out, tl_err *err)
{
    size_t *order = malloc(n * sizeof *order);
    if (!order)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    ovr_score s;
    if (k == 2) { /* sklearn scores the positive (second) class only */
        one_vs_rest(truth, proba, weight, n, k, 1, order, &s);
        out->roc_auc_macro = out->roc_auc_weighted = s.roc_auc;
        out->pr_auc = s.ap;
        free(order);
        return TL_OK;
    }
    double auc_sum = 0, auc_wsum = 0, support = 0, ap_sum = 0;
    size_t n_auc = 0;
    for (size_t c = 0; c < k; c++) {
        one_vs_rest(truth, proba, weight, n, k, c, order, &s);
        ap_sum += s.ap;
        if (isnan(s.roc_auc))
            continue;
        auc_sum += s.roc_auc;
        auc_wsum += s.support * s.roc_auc;
        support += s.support;
        n_auc++;
    }
    out->roc_auc_macro = n_auc ? auc_sum / (double)n_auc : NAN;
    out->roc_auc_weighted = n_auc && support > 0 ? auc_wsum / support : NAN;
    out->pr_auc = ap_sum / (double)k;
    free(order);
    return TL_OK;
}

int tl_proba_metrics_compute(const int *truth, const double *proba, const double *weight, size_t n,
                             size_t k, tl_class_metrics *out, tl_err *err)
{
    if (n == 0 || k == 0)
        return tl_err_set(err, TL_EINVAL, "metrics need at least one prediction and one class");
    int finite = 1;
    for (size_t i = 0; i < n; i++) {
        if (truth[i] < 0 || (size_t)truth[i] >= k)
            return tl_err_set(err, TL_EINVAL, "prediction %zu: class code %d outside 0..%zu", i,
                              truth[i], k - 1);
        for (size_t c = 0; c < k; c++)
            finite &= !isnan(proba[i * k + c]);
    }
    out->log_loss = log_loss(truth, proba, weight, n, k);
    out->brier = brier(truth, proba, weight, n, k);
    out->roc_auc_macro = out->roc_auc_weighted = out->pr_auc = NAN;
    if (!finite || k < 2)
        return TL_OK;
    return ranking(truth, proba, weight, n, k, out, err);
}

void tl_proba_bins_add(const int *truth, const double *proba, const double *weight, size_t n,
                       size_t k, double *bins)
{
    for (size_t i = 0; i < n; i++)
        for (size_t c = k == 2 ? 1 : 0; c < k; c++) {
            double p = proba[i * k + c], w = row_weight(weight, i);
            if (isnan(p))
                continue;
            double at = floor(p * TL_PROBA_BINS);
            size_t b = at < 0 ? 0 : at >= TL_PROBA_BINS ? TL_PROBA_BINS - 1 : (size_t)at;
            bins[3 * b] += w;
            bins[3 * b + 1] += w * p;
            bins[3 * b + 2] += (size_t)truth[i] == c ? w : 0;
        }
}
