/* The size_accuracy figure: per dataset, each model as one point at its mean number of leaves
 * and its mean accuracy, the plane in which the pruning comparisons of Mingers (1989) and
 * Esposito, Malerba & Semeraro (1997) set simplicity against accuracy. */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_statistics_double.h>

#include "report_util.h"
#include "treelab/tl_log.h"
#include "treelab/tl_plot.h"

/* Mean leaves and mean / sd primary score of (d, m); 0 when no cell has a tree. */
static int point(const tl_rep *r, size_t d, size_t m, double *buf, double *leaves, double *score,
                 double *sd)
{
    size_t first, n = tl_rep_range(r, d, m, &first), k = 0;
    double sum = 0;
    for (size_t i = 0; i < n; i++) {
        const tl_cell *c = &r->cells[first + i];
        if (isnan(c->leaves) || isnan(buf[k] = tl_rep_primary(r, c)))
            continue;
        sum += c->leaves;
        k++;
    }
    if (!k)
        return 0;
    *leaves = sum / (double)k;
    *score = gsl_stats_mean(buf, 1, k);
    *sd = k > 1 ? gsl_stats_sd(buf, 1, k) : 0;
    return 1;
}

int tl_rep_plot_size(const tl_rep *r, const tl_experiment *x, tl_err *err)
{
    size_t nd = r->meta.n_datasets, nm = r->meta.n_models;
    tl_plot_series *s = calloc(nm, sizeof *s);
    double *v = malloc(3 * (nm + 1) * sizeof *v), *buf = malloc((r->n + 1) * sizeof *buf);
    int rc = s && v && buf ? TL_OK : tl_err_set(err, TL_ENOMEM, "out of memory");
    for (size_t d = 0; !rc && d < nd; d++) {
        size_t ns = 0;
        for (size_t m = 0; m < nm; m++) {
            double *p = v + 3 * m;
            if (!x->models[m].grid && point(r, d, m, buf, &p[0], &p[1], &p[2]))
                s[ns++] = (tl_plot_series){r->meta.model[m], m, 1, &p[0], &p[1], &p[2], 0, 0};
        }
        if (!ns) {
            tl_warn("figure size_accuracy not drawn for %s: no model grew a tree",
                    r->meta.dataset[d]);
            continue;
        }
        int cls = r->meta.n_classes[d] > 0;
        char title[1024], path[4096];
        snprintf(title, sizeof title, "%s: tree size against %s (means over folds)",
                 r->meta.dataset[d], cls ? "accuracy" : "RMSE");
        tl_plot_curve c = {
            .title = title,
            .xlabel = "leaves (mean over folds)",
            .ylabel = cls ? "test accuracy" : "test RMSE",
            .series = s,
            .n_series = ns,
            .hline = NAN,
            .rate = cls,
            .name_points = 1,
        };
        snprintf(path, sizeof path, "%s/plots/size_accuracy_%s", r->dir, r->meta.dataset[d]);
        rc = tl_plot_curve_write(&c, path, err);
    }
    free(s);
    free(v);
    free(buf);
    return rc;
}
