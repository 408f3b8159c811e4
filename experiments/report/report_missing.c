/* The missing-values figure: each model's score against the share of values removed at
 * random (protocol.missing), one figure per dataset, as Ding & Simonoff (JMLR 11, 2010)
 * plot accuracy against the missing rate. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_statistics_double.h>

#include "report_util.h"
#include "treelab/tl_log.h"
#include "treelab/tl_plot.h"

/* Mean and sd of the primary score of (d, m) over its cells into *mean, *sd; the count. */
static size_t score(const tl_rep *r, size_t d, size_t m, double *buf, double *mean, double *sd)
{
    size_t first, n = tl_rep_range(r, d, m, &first), k = 0;
    for (size_t i = 0; i < n; i++)
        if (!isnan(buf[k] = tl_rep_primary(r, &r->cells[first + i])))
            k++;
    *mean = k ? gsl_stats_mean(buf, 1, k) : NAN;
    *sd = k > 1 ? gsl_stats_sd(buf, 1, k) : 0;
    return k;
}

/* One figure for the copies of dataset base: x = rate, per listed model. */
static int plot_base(const tl_rep *r, const tl_experiment *x, const char *base, tl_err *err)
{
    size_t nd = r->meta.n_datasets, nm = r->meta.n_models;
    tl_plot_series *s = calloc(nm, sizeof *s);
    double *v = malloc(3 * nm * nd * sizeof *v), *buf = malloc((r->n + 1) * sizeof *buf);
    int rc = s && v && buf ? TL_OK : tl_err_set(err, TL_ENOMEM, "out of memory");
    size_t ns = 0, first_d = SIZE_MAX;
    for (size_t m = 0; !rc && m < nm; m++) {
        if (x->models[m].grid)
            continue;
        double *px = v + 3 * m * nd, *py = px + nd, *psd = py + nd;
        size_t n = 0;
        for (size_t d = 0; d < nd; d++) {
            if (!r->meta.missing_base[d] || strcmp(r->meta.missing_base[d], base))
                continue;
            first_d = first_d == SIZE_MAX ? d : first_d;
            if (score(r, d, m, buf, &py[n], &psd[n]))
                px[n++] = r->meta.missing_rate[d];
        }
        if (n)
            s[ns++] = (tl_plot_series){r->meta.model[m], m, n, px, py, psd, 0, 0};
    }
    if (!rc && ns) {
        int cls = r->meta.n_classes[first_d] > 0;
        char title[1024], path[4096];
        snprintf(title, sizeof title,
                 "%s with values missing at random (%s rows): %s mean ± "
                 "sd over folds",
                 base, r->meta.missing_rows, cls ? "accuracy" : "RMSE");
        tl_plot_curve c = {
            .title = title,
            .xlabel = "share of values removed at random",
            .ylabel = cls ? "test accuracy (mean ± sd)" : "test RMSE (mean ± sd)",
            .series = s,
            .n_series = ns,
            .hline = NAN,
            .rate = cls,
        };
        snprintf(path, sizeof path, "%s/plots/missing_%s", r->dir, base);
        rc = tl_plot_curve_write(&c, path, err);
    }
    free(s);
    free(v);
    free(buf);
    return rc;
}

int tl_rep_plot_missing(const tl_rep *r, const tl_experiment *x, tl_err *err)
{
    if (!r->meta.missing_base || r->meta.n_missing != r->meta.n_datasets) {
        tl_warn("figure missing_rate not drawn: the protocol removes no values "
                "(protocol.missing)");
        return TL_OK;
    }
    int rc = TL_OK;
    for (size_t d = 0; !rc && d < r->meta.n_datasets; d++) {
        const char *base = r->meta.missing_base[d];
        int seen = 0; /* one figure per dataset, at its first copy */
        for (size_t e = 0; e < d && !seen; e++)
            seen = !strcmp(r->meta.missing_base[e], base);
        if (!seen)
            rc = plot_base(r, x, base, err);
    }
    return rc;
}
