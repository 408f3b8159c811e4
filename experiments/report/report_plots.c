/* Figures drawn from a results folder's cells: accuracy per fold, critical difference,
 * confusion heatmaps, learning curves and parameter grids (results/NAME/plots/). */
#include "report_util.h"

#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "treelab/tl_log.h"
#include "treelab/tl_plot.h"

/* dir/plots/NAME into buf. */
static const char *stem(const tl_rep *r, char *buf, size_t size, const char *fmt, const char *a,
                        const char *b)
{
    char name[2048];
    snprintf(name, sizeof name, fmt, a, b);
    snprintf(buf, size, "%s/plots/%s", r->dir, name);
    return buf;
}

/* The protocol in a few words for titles ("5-fold CV x 2", "hold-out 0.6/0.2/0.2 x 10"). */
static const char *protocol_words(const tl_rep *r, char *buf, size_t size)
{
    size_t k, rep;
    double a, b, c;
    const char *p = r->meta.protocol;
    if (sscanf(p, "cv folds %zu repeats %zu", &k, &rep) == 2)
        snprintf(buf, size, "%zu-fold CV x %zu", k, rep);
    else if (sscanf(p, "holdout train %lf validation %lf test %lf repeats %zu", &a, &b, &c, &rep) ==
             4)
        snprintf(buf, size, "hold-out %.3g/%.3g/%.3g x %zu", a, b, c, rep);
    else
        snprintf(buf, size, "%.*s", (int)strcspn(p, " "), p);
    return buf;
}

/* Mean and sd of the primary metric (accuracy, or RMSE) and the mean leaves of (d, m). */
static size_t pair_means(const tl_rep *r, size_t d, size_t m, double *buf, double *mean, double *sd,
                         double *leaves)
{
    size_t first, n = tl_rep_range(r, d, m, &first);
    *mean = *sd = *leaves = NAN;
    if (!n)
        return 0;
    for (size_t i = 0; i < n; i++) {
        const tl_cell *c = &r->cells[first + i];
        buf[i] = c->classification ? c->cm.accuracy : c->rm.rmse;
    }
    *mean = gsl_stats_mean(buf, 1, n);
    *sd = n > 1 ? gsl_stats_sd(buf, 1, n) : 0;
    for (size_t i = 0; i < n; i++)
        buf[i] = r->cells[first + i].leaves;
    *leaves = gsl_stats_mean(buf, 1, n);
    return n;
}

/* Box plots of accuracy (classification) or RMSE (regression) per fold, one figure per task. */
static int plot_folds(const tl_rep *r, const tl_experiment *x, int classification, tl_err *err)
{
    size_t nd = 0, nm = 0, nf = 0;
    const char **dn = calloc(r->meta.n_datasets, sizeof *dn);
    size_t *di = calloc(r->meta.n_datasets, sizeof *di);
    size_t *mi = calloc(r->meta.n_models, sizeof *mi);
    const char **mn = calloc(r->meta.n_models, sizeof *mn);
    int rc = dn && di && mi && mn ? TL_OK : tl_err_set(err, TL_ENOMEM, "out of memory");
    /* the models listed in the config; grid cells have the grid figure */
    for (size_t m = 0; !rc && m < r->meta.n_models; m++)
        if (!x->models[m].grid)
            mi[nm] = m, mn[nm++] = r->meta.model[m];
    for (size_t d = 0; !rc && d < r->meta.n_datasets; d++) {
        if ((r->meta.n_classes[d] > 0) != classification)
            continue;
        di[nd] = d, dn[nd++] = r->meta.dataset[d];
        for (size_t m = 0, first; m < nm; m++) {
            size_t n = tl_rep_range(r, d, mi[m], &first);
            nf = n > nf ? n : nf;
        }
    }
    double *v = rc || !nd || !nf ? NULL : malloc(nd * nm * nf * sizeof *v);
    if (!rc && nd && nf && !v)
        rc = tl_err_set(err, TL_ENOMEM, "out of memory");
    if (v) {
        for (size_t i = 0; i < nd * nm * nf; i++)
            v[i] = NAN;
        for (size_t j = 0; j < nd; j++)
            for (size_t m = 0, first; m < nm; m++) {
                size_t n = tl_rep_range(r, di[j], mi[m], &first);
                for (size_t i = 0; i < n; i++) {
                    const tl_cell *c = &r->cells[first + i];
                    v[(j * nm + m) * nf + i] = classification ? c->cm.accuracy : c->rm.rmse;
                }
            }
        /* colour = position in the model list, as in every figure */
        tl_plot_folds f = {nd,
                           nm,
                           nf,
                           dn,
                           mn,
                           mi,
                           v,
                           classification ? "Accuracy per fold" : "RMSE per fold",
                           classification ? "accuracy" : "RMSE",
                           classification};
        char buf[4096];
        rc = tl_plot_folds_write(
            &f, stem(r, buf, sizeof buf, "%s%s", classification ? "accuracy" : "rmse", ""), err);
    }
    free(v);
    free(dn);
    free(di);
    free(mi);
    free(mn);
    return rc;
}

/* Over the models listed in the config (grid cells left out, so that the diagram stays
 * readable), as the summary ranks them. */
static int plot_cd(const tl_rep *r, const tl_experiment *x, tl_err *err)
{
    size_t nm = 0, *mi = malloc(r->meta.n_models * sizeof *mi);
    double *ranks = malloc(r->meta.n_models * sizeof *ranks), cd;
    const char **names = malloc(r->meta.n_models * sizeof *names);
    tl_friedman fr;
    int rc = ranks && mi && names ? TL_OK : tl_err_set(err, TL_ENOMEM, "out of memory");
    if (!rc)
        nm = tl_rep_listed(r, mi);
    for (size_t m = 0; !rc && m < nm; m++)
        names[m] = r->meta.model[mi[m]];
    int applies = 0;
    if (!rc)
        rc = tl_rep_ranks(r, mi, nm, ranks, &fr, &cd, &applies, err);
    if (!rc && (!applies || isnan(cd)))
        tl_warn("figure critical_difference not drawn: it needs 2 or more datasets, 2 to 20 "
                "models and a protocol other than a learning curve");
    else if (!rc) {
        char title[512];
        snprintf(title, sizeof title, "Critical difference diagram (Nemenyi, alpha 0.05)%s",
                 nm < r->meta.n_models ? ": models as listed, grid cells left out" : "");
        tl_plot_cd c = {nm, names, ranks, cd, r->meta.n_datasets, title};
        char buf[4096];
        rc = tl_plot_cd_write(&c, stem(r, buf, sizeof buf, "critical_difference%s%s", "", ""), err);
    }
    free(ranks);
    free(mi);
    free(names);
    return rc;
}

static int plot_confusion(const tl_rep *r, size_t d, size_t m, tl_err *err)
{
    size_t k = r->meta.n_classes[d], first;
    if (!k || !tl_rep_range(r, d, m, &first))
        return TL_OK;
    double *counts = malloc(k * k * sizeof *counts);
    if (!counts)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    tl_rep_confusion_sum(r, d, m, counts);
    char title[1024], buf[4096], words[128];
    snprintf(title, sizeof title, "Confusion matrix: %s on %s\n(test rows of %s, summed)",
             r->meta.model[m], r->meta.dataset[d], protocol_words(r, words, sizeof words));
    tl_plot_confusion c = {k, counts, (const char *const *)r->meta.classes[d], title};
    int rc = tl_plot_confusion_write(
        &c, stem(r, buf, sizeof buf, "confusion_%s__%s", r->meta.dataset[d], r->meta.model[m]),
        err);
    free(counts);
    return rc;
}

static int plot_learning_curve(const tl_rep *r, const tl_experiment *xp, size_t d, tl_err *err)
{
    size_t nm = r->meta.n_models, nf = r->meta.n_fractions;
    tl_plot_series *s = calloc(nm, sizeof *s);
    double *v = malloc(3 * nm * nf * sizeof *v);
    int rc = s && v ? TL_OK : tl_err_set(err, TL_ENOMEM, "out of memory");
    size_t ns = 0;
    for (size_t m = 0; !rc && m < nm; m++) {
        if (xp->models[m].grid)
            continue;
        double *x = v + 3 * m * nf, *y = x + nf, *sd = y + nf, nt;
        size_t n = 0;
        for (size_t fr = 0; fr < nf; fr++)
            if (tl_rep_lc_point(r, d, m, fr, &y[n], &sd[n], &nt))
                x[n++] = r->meta.fractions[fr];
        if (n)
            s[ns++] = (tl_plot_series){r->meta.model[m], m, n, x, y, sd, 0, 0};
    }
    if (!rc && ns) {
        char title[1024], buf[4096];
        int cls = r->meta.n_classes[d] > 0;
        snprintf(title, sizeof title, "Learning curve on %s (%s mean ± sd over repeats)",
                 r->meta.dataset[d], cls ? "accuracy" : "RMSE");
        tl_plot_curve c = {
            .title = title,
            .xlabel = "training set size (fraction of the dataset)",
            .ylabel = cls ? "test accuracy (mean ± sd)" : "test RMSE (mean ± sd)",
            .series = s,
            .n_series = ns,
            .hline = NAN,
            .rate = cls,
        };
        rc = tl_plot_curve_write(
            &c, stem(r, buf, sizeof buf, "learning_curve_%s%s", r->meta.dataset[d], ""), err);
    }
    free(s);
    free(v);
    return rc;
}

/* Values as numbers when every one parses, else NULL (then the x axis is the value index). */
static int numeric_values(char *const *vals, size_t n, double *out)
{
    for (size_t i = 0; i < n; i++) {
        char *end;
        out[i] = strtod(vals[i], &end);
        if (end == vals[i] || *end)
            return 0;
    }
    return 1;
}

/* One parameter: accuracy (mean ± sd) and mean leaves (right axis) against its value. */
static int grid_curve(const tl_rep *r, const tl_experiment *x, const tl_exp_grid *g, size_t d,
                      double *scratch, const char *path, tl_err *err)
{
    size_t n = g->n_values[0];
    double *xs = malloc(4 * n * sizeof *xs), *y = xs + n, *sd = y + n, *leaves = sd + n;
    if (!xs)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    int numeric = numeric_values(g->values[0], n, xs), cls = r->meta.n_classes[d] > 0;
    int whole = numeric; /* max_depth, min_samples_split: no 2.5 on the axis */
    double lo = INFINITY, hi = 0;
    for (size_t i = 0; i < n; i++) {
        whole &= numeric && xs[i] == floor(xs[i]);
        if (!numeric)
            xs[i] = (double)(i + 1);
        lo = fmin(lo, xs[i]), hi = fmax(hi, xs[i]);
        pair_means(r, d, g->first + i, scratch, &y[i], &sd[i], &leaves[i]);
    }
    const tl_exp_model *b = &x->models[g->base];
    char title[1024], xlabel[1024], yname[256], lname[256];
    char words[128];
    snprintf(title, sizeof title, "%s on %s: %s swept (%s)", b->name, r->meta.dataset[d],
             g->param[0], protocol_words(r, words, sizeof words));
    int used = snprintf(xlabel, sizeof xlabel, "%s", g->param[0]);
    for (size_t i = 0; !numeric && i < n && used > 0 && (size_t)used < sizeof xlabel; i++)
        used += snprintf(xlabel + used, sizeof xlabel - (size_t)used, "%s%zu = %s%s",
                         i ? ", " : " (", i + 1, g->values[0][i], i + 1 == n ? ")" : "");
    snprintf(yname, sizeof yname, "%s (mean ± sd)", cls ? "accuracy" : "RMSE");
    snprintf(lname, sizeof lname, "leaves (mean, right axis)");
    tl_plot_series s[2] = {{yname, g->base, n, xs, y, sd, 0, 0},
                           {lname, g->base, n, xs, leaves, NULL, 1, 1}};
    tl_plot_curve c = {
        .title = title,
        .xlabel = xlabel,
        .ylabel = cls ? "test accuracy" : "test RMSE",
        .y2label = "number of leaves",
        /* a sweep over orders of magnitude (confidence factors, alphas) reads on a log axis */
        .xlog = numeric && lo > 0 && hi / lo >= 100,
        .series = s,
        .n_series = 2,
        .hline = NAN,
        .rate = cls,
        .xint = whole || !numeric, /* value indices are whole numbers too */
    };
    int rc = tl_plot_curve_write(&c, path, err);
    free(xs);
    return rc;
}

/* Two parameters: a heatmap of the mean score with the best cell outlined. */
static int grid_heatmap(const tl_rep *r, const tl_experiment *x, const tl_exp_grid *g, size_t d,
                        double *scratch, const char *path, tl_err *err)
{
    size_t nx = g->n_values[0], ny = g->n_values[1], best = SIZE_MAX;
    double *v = malloc(nx * ny * sizeof *v), sd, leaves;
    if (!v)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    int cls = r->meta.n_classes[d] > 0;
    for (size_t i = 0; i < nx * ny; i++) {
        pair_means(r, d, g->first + i, scratch, &v[i], &sd, &leaves);
        /* ties go to the first cell in config order (smaller values first) */
        if (!isnan(v[i]) && (best == SIZE_MAX || (cls ? v[i] > v[best] : v[i] < v[best])))
            best = i;
    }
    char title[1024], words[128];
    snprintf(title, sizeof title, "%s on %s: mean test %s (%s)", x->models[g->base].name,
             r->meta.dataset[d], cls ? "accuracy" : "RMSE", protocol_words(r, words, sizeof words));
    tl_plot_grid p = {nx,
                      ny,
                      v,
                      (const char *const *)g->values[0],
                      (const char *const *)g->values[1],
                      g->param[0],
                      g->param[1],
                      cls ? "mean test accuracy" : "mean test RMSE",
                      title,
                      best != SIZE_MAX,
                      best == SIZE_MAX ? 0 : best % nx,
                      best == SIZE_MAX ? 0 : best / nx};
    int rc = tl_plot_grid_write(&p, path, err);
    free(v);
    return rc;
}

static int plot_grids(const tl_rep *r, const tl_experiment *x, tl_err *err)
{
    double *scratch = malloc((r->n ? r->n : 1) * sizeof *scratch);
    int rc = scratch ? TL_OK : tl_err_set(err, TL_ENOMEM, "out of memory");
    for (size_t gi = 0; !rc && gi < x->n_grids; gi++) {
        const tl_exp_grid *g = &x->grids[gi];
        char params[600], buf[4096];
        snprintf(params, sizeof params, "%s%s%s", g->param[0], g->param[1] ? "__" : "",
                 g->param[1] ? g->param[1] : "");
        for (size_t d = 0; !rc && d < r->meta.n_datasets; d++) {
            char name[1024];
            snprintf(name, sizeof name, "%s__%s", r->meta.dataset[d], x->models[g->base].name);
            stem(r, buf, sizeof buf, "grid_%s__%s", name, params);
            rc = g->param[1] ? grid_heatmap(r, x, g, d, scratch, buf, err)
                             : grid_curve(r, x, g, d, scratch, buf, err);
        }
    }
    if (!rc && !x->n_grids)
        tl_warn("figure grid not drawn: the config has no grids");
    free(scratch);
    return rc;
}

int tl_rep_plots(const tl_rep *r, const tl_experiment *x, tl_err *err)
{
    int rc = TL_OK, lc = r->meta.n_fractions > 0;
    if (tl_experiment_wants_plot(x, "accuracy")) {
        if (lc)
            tl_warn("figure accuracy not drawn: a learning curve's folds are training "
                    "fractions (see the learning_curve figure)");
        for (int cls = 1; !lc && !rc && cls >= 0; cls--)
            rc = plot_folds(r, x, cls, err);
    }
    if (!rc && tl_experiment_wants_plot(x, "critical_difference"))
        rc = plot_cd(r, x, err);
    if (!rc && tl_experiment_wants_plot(x, "confusion"))
        for (size_t d = 0; !rc && d < r->meta.n_datasets; d++)
            for (size_t m = 0; !rc && m < r->meta.n_models; m++)
                if (!x->models[m].grid)
                    rc = plot_confusion(r, d, m, err);
    if (!rc && tl_experiment_wants_plot(x, "learning_curve")) {
        if (!lc)
            tl_warn("figure learning_curve not drawn: the protocol is not learning_curve");
        for (size_t d = 0; lc && !rc && d < r->meta.n_datasets; d++)
            rc = plot_learning_curve(r, x, d, err);
    }
    if (!rc && tl_experiment_wants_plot(x, "grid"))
        rc = plot_grids(r, x, err);
    if (!rc && tl_experiment_wants_plot(x, "missing_rate"))
        rc = tl_rep_plot_missing(r, x, err);
    if (!rc && tl_experiment_wants_plot(x, "size_accuracy"))
        rc = tl_rep_plot_size(r, x, err);
    if (!rc)
        rc = tl_rep_proba_plots(r, x, err);
    return rc;
}
