/* The ROC curve and the reliability diagram of summed score bins (tl_proba_bins_add,
 * tl_roc_bins_add), the points behind the `roc` and `reliability` figures. */
#include <math.h>

#include "treelab/tl_metrics.h"

void tl_roc_bins_add(const int *truth, const double *proba, const double *weight, size_t n,
                     size_t k, double *bins)
{
    for (size_t i = 0; i < n; i++)
        for (size_t c = k == 2 ? 1 : 0; c < k; c++) {
            double p = proba[i * k + c], w = weight ? weight[i] : 1;
            if (isnan(p))
                continue;
            /* log-odds, so that scores crowded near 0 and 1 keep their order */
            double z = p <= 0 ? -INFINITY : p >= 1 ? INFINITY : log(p / (1 - p));
            double at = floor((z + TL_ROC_LOGIT) / (2 * TL_ROC_LOGIT) * TL_ROC_BINS);
            size_t b = !(at >= 0) ? 0 : at >= TL_ROC_BINS ? TL_ROC_BINS - 1 : (size_t)at;
            bins[2 * b] += w;
            bins[2 * b + 1] += (size_t)truth[i] == c ? w : 0;
        }
}

/* The ROC points of nb bins whose weight and positive weight are w[b * stride] and
 * pos[b * stride]: thresholds at the lower edges of the bins with weight, highest first. */
static size_t roc(const double *w, const double *pos, size_t stride, size_t nb, double *fpr,
                  double *tpr, double *area)
{
    double P = 0, N = 0;
    for (size_t b = 0; b < nb; b++) {
        P += pos[b * stride];
        N += w[b * stride] - pos[b * stride];
    }
    *area = 0;
    if (!(P > 0) || !(N > 0))
        return 0;
    size_t n = 0;
    double tp = 0, fp = 0;
    fpr[n] = tpr[n] = 0, n++;
    for (size_t b = nb; b-- > 0;) {
        if (!(w[b * stride] > 0))
            continue;
        tp += pos[b * stride];
        fp += w[b * stride] - pos[b * stride];
        fpr[n] = fp / N, tpr[n] = tp / P;
        *area += (fpr[n] - fpr[n - 1]) * (tpr[n] + tpr[n - 1]) / 2;
        n++;
    }
    return n;
}

size_t tl_roc_bins_curve(const double *bins, double *fpr, double *tpr, double *area)
{
    return roc(bins, bins + 1, 2, TL_ROC_BINS, fpr, tpr, area);
}

size_t tl_proba_bins_roc(const double *bins, double *fpr, double *tpr, double *area)
{
    return roc(bins, bins + 2, 3, TL_PROBA_BINS, fpr, tpr, area);
}

size_t tl_proba_bins_reliability(const double *bins, double *mean_p, double *observed,
                                 double *weight)
{
    size_t n = 0;
    for (size_t b = 0; b < TL_PROBA_BINS; b++) {
        double w = bins[3 * b];
        if (!(w > 0))
            continue;
        mean_p[n] = bins[3 * b + 1] / w;
        observed[n] = bins[3 * b + 2] / w;
        weight[n++] = w;
    }
    return n;
}
