/* The probability figures of a results folder: per classification dataset, a ROC curve and a
 * reliability diagram with one series per listed model, from the score bins its cells keep
 * (pooled over repeats and folds). */
#include "report_util.h"

#include <stdlib.h>
#include <string.h>

#include "treelab/tl_log.h"
#include "treelab/tl_metrics.h"
#include "treelab/tl_plot.h"

/* Points of one model: ROC needs up to TL_ROC_BINS + 1, the reliability diagram
 * TL_PROBA_BINS. */
typedef struct model_points {
    double x[TL_ROC_BINS + 1], y[TL_ROC_BINS + 1], w[TL_ROC_BINS + 1];
    char name[512];
} model_points;

/* The bins of (d, m) summed over its cells: bins (3 x TL_PROBA_BINS) and roc
 * (2 x TL_ROC_BINS). Returns 0 when no cell has bins (cells written before treelab kept
 * them); *fine = 0 when some cell lacks the finer ROC bins (written before them). */
static int pooled_bins(const tl_rep *r, size_t d, size_t m, double *bins, double *roc, int *fine)
{
    size_t first, n = tl_rep_range(r, d, m, &first), with = 0;
    memset(bins, 0, 3 * TL_PROBA_BINS * sizeof *bins);
    memset(roc, 0, 2 * TL_ROC_BINS * sizeof *roc);
    *fine = 1;
    for (size_t i = 0; i < n; i++) {
        const tl_cell *c = &r->cells[first + i];
        for (size_t j = 0; c->proba_bins && j < 3 * TL_PROBA_BINS; j++)
            bins[j] += c->proba_bins[j];
        for (size_t j = 0; c->roc_bins && j < 2 * TL_ROC_BINS; j++)
            roc[j] += c->roc_bins[j];
        with += c->proba_bins != NULL;
        *fine &= c->roc_bins != NULL;
    }
    return with > 0;
}

/* Both figures of dataset d (as asked); *drawn counts the figures written. */
static int dataset_figures(const tl_rep *r, const tl_experiment *x, size_t d, int roc, int rel,
                           size_t *drawn, tl_err *err)
{
    size_t nm = r->meta.n_models, k = r->meta.n_classes[d];
    model_points *pts = calloc(2 * nm, sizeof *pts);
    tl_plot_proba_series *s = calloc(2 * nm, sizeof *s);
    int rc = pts && s ? TL_OK : tl_err_set(err, TL_ENOMEM, "out of memory");
    size_t n_roc = 0, n_rel = 0;
    double bins[3 * TL_PROBA_BINS], rb[2 * TL_ROC_BINS];
    int fine;
    for (size_t m = 0; !rc && m < nm; m++) {
        if (x->models[m].grid || !pooled_bins(r, d, m, bins, rb, &fine))
            continue; /* grid cells have the grid figure */
        model_points *p = &pts[2 * m], *q = &pts[2 * m + 1];
        double area;
        size_t n = fine ? tl_roc_bins_curve(rb, p->x, p->y, &area)
                        : tl_proba_bins_roc(bins, p->x, p->y, &area);
        if (roc && n) {
            snprintf(p->name, sizeof p->name, "%s (area %.3f%s)", r->meta.model[m], area,
                     fine ? "" : ", older cells: 1/20 bins");
            s[n_roc++] = (tl_plot_proba_series){p->name, m, n, p->x, p->y, NULL};
        }
        n = tl_proba_bins_reliability(bins, q->x, q->y, q->w);
        if (rel && n) {
            snprintf(q->name, sizeof q->name, "%s", r->meta.model[m]);
            s[nm + n_rel++] = (tl_plot_proba_series){q->name, m, n, q->x, q->y, q->w};
        }
    }
    /* what the pairs are: the second class's probability for two classes (the class
     * scikit-learn's binary metrics score), every class's one-vs-rest, pooled, for more */
    char what[512], title[1024], stem[4096];
    if (k == 2)
        snprintf(what, sizeof what, "positive class %s", r->meta.classes[d][1]);
    else
        snprintf(what, sizeof what, "%zu classes one-vs-rest, micro-averaged", k);
    if (!rc && roc && n_roc) {
        snprintf(title, sizeof title, "ROC on %s (%s; test rows of every fold pooled)",
                 r->meta.dataset[d], what);
        snprintf(stem, sizeof stem, "%s/plots/roc_%s", r->dir, r->meta.dataset[d]);
        tl_plot_proba p = {0, title, s, n_roc};
        if (!(rc = tl_plot_proba_write(&p, stem, err)))
            ++*drawn;
    }
    if (!rc && rel && n_rel) {
        snprintf(title, sizeof title, "Reliability on %s (%s; test rows pooled, %d bins)",
                 r->meta.dataset[d], what, TL_PROBA_BINS);
        snprintf(stem, sizeof stem, "%s/plots/reliability_%s", r->dir, r->meta.dataset[d]);
        tl_plot_proba p = {1, title, s + nm, n_rel};
        if (!(rc = tl_plot_proba_write(&p, stem, err)))
            ++*drawn;
    }
    free(pts);
    free(s);
    return rc;
}

int tl_rep_proba_plots(const tl_rep *r, const tl_experiment *x, tl_err *err)
{
    int roc = tl_experiment_wants_plot(x, "roc"), rel = tl_experiment_wants_plot(x, "reliability");
    if (!roc && !rel)
        return TL_OK;
    size_t classification = 0, drawn = 0;
    int rc = TL_OK;
    for (size_t d = 0; !rc && d < r->meta.n_datasets; d++)
        if (r->meta.n_classes[d] > 0) {
            classification++;
            rc = dataset_figures(r, x, d, roc, rel, &drawn, err);
        }
    if (!rc && !classification)
        tl_warn("roc and reliability figures skipped: no dataset has a nominal target");
    else if (!rc && !drawn)
        tl_warn("roc and reliability figures skipped: the cells hold no score bins (written "
                "by a treelab before they were kept; run the experiment again) or every test "
                "fold held a single class");
    return rc;
}
