/* A parsed cell's values within their ranges: merge and report distrust cells.txt (an edited
 * 'inf' accuracy, n_train 0 or a negative count passed into metrics.csv). */
#include "cells_line.h"

#include <math.h>
#include <stdio.h>

#include "treelab/tl_metrics.h"

/* v is NaN (no value) or finite within [lo, hi]. */
static int in_range(double v, double lo, double hi)
{
    return isnan(v) || (isfinite(v) && v >= lo && v <= hi);
}

/* The first of n values out of [lo, hi] (NaN allowed when nan_ok), or -1. */
static long first_out(const double *v, size_t n, double lo, int nan_ok)
{
    for (size_t i = 0; v && i < n; i++)
        if ((isnan(v[i]) && !nan_ok) || !in_range(v[i], lo, INFINITY))
            return (long)i;
    return -1;
}

/* The confusion matrix adds up to the test rows: n_test counts exactly (integers, well below
 * 2^53), or the recorded test weight to rounding (the two sums add in other orders). */
static int check_total(const tl_cell *c, char *why, size_t size)
{
    double total = 0, want = isnan(c->test_weight) ? (double)c->n_test : c->test_weight;
    for (size_t i = 0; i < c->k * c->k; i++)
        total += c->confusion[i];
    int ok = isnan(c->test_weight) ? total == want : fabs(total - want) <= 1e-9 * want;
    if (!ok)
        snprintf(why, size, "the confusion counts add up to %.17g, not to the %s %.17g", total,
                 isnan(c->test_weight) ? "test rows (n_test)" : "test weight", want);
    return ok ? 0 : -1;
}

int tl_cells_check_values(const tl_cell *c, int sums, char *why, size_t size)
{
    const struct {
        const char *name;
        double v, lo, hi;
    } f[] = {
        {"leaves", c->leaves, 0, INFINITY},
        {"depth", c->depth, 0, INFINITY},
        {"fit_s", c->fit_s, 0, INFINITY},
        {"predict_s", c->predict_s, 0, INFINITY},
        {"accuracy", c->cm.accuracy, 0, 1},
        {"balanced_accuracy", c->cm.balanced_accuracy, 0, 1},
        {"kappa", c->cm.kappa, -1, 1},
        {"f1_macro", c->cm.f1_macro, 0, 1},
        {"f1_weighted", c->cm.f1_weighted, 0, 1},
        {"log_loss", c->cm.log_loss, 0, INFINITY},
        {"roc_auc_macro", c->cm.roc_auc_macro, 0, 1},
        {"roc_auc_weighted", c->cm.roc_auc_weighted, 0, 1},
        {"pr_auc", c->cm.pr_auc, 0, 1},
        {"brier", c->cm.brier, 0, 2},
        {"mse", c->rm.mse, 0, INFINITY},
        {"rmse", c->rm.rmse, 0, INFINITY},
        {"mae", c->rm.mae, 0, INFINITY},
        {"r2", c->rm.r2, -INFINITY, 1},
        {"fidelity", c->fidelity, 0, c->classification ? 1 : INFINITY},
        {"weight", c->test_weight, 0, INFINITY},
    };
    if (c->n_train == 0 || c->n_test == 0) {
        snprintf(why, size, "%s 0 (a cell trains and tests on rows)",
                 c->n_train == 0 ? "n_train" : "n_test");
        return -1;
    }
    for (size_t i = 0; i < sizeof f / sizeof *f; i++)
        if (!in_range(f[i].v, f[i].lo, f[i].hi)) {
            snprintf(why, size, "%s %g is not a number in [%g, %g]", f[i].name, f[i].v, f[i].lo,
                     f[i].hi);
            return -1;
        }
    long at;
    if ((at = first_out(c->confusion, c->k * c->k, 0, 0)) >= 0) {
        snprintf(why, size, "confusion count %ld is %g: counts are finite and >= 0", at + 1,
                 c->confusion[at]);
        return -1;
    }
    if (first_out(c->proba_bins, 3 * TL_PROBA_BINS, 0, 1) >= 0 ||
        first_out(c->roc_bins, 2 * TL_ROC_BINS, 0, 1) >= 0) {
        snprintf(why, size, "a calibration or ROC bin is negative or infinite");
        return -1;
    }
    return sums && c->confusion ? check_total(c, why, size) : 0;
}
