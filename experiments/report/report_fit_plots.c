/* Figures of models fitted on whole datasets: pruning curves, decision boundaries and step
 * functions, tree pictures; and the entry point that draws every figure of a results folder. */
#include "report_util.h"
#include "../plot/plot_batch.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "treelab/tl_log.h"
#include "treelab/tl_plot.h"
#include "treelab/tl_protocol.h"
#include "treelab/tl_grow.h"
#include "treelab/tl_model.h"

/* Grid resolution of decision boundaries and of step functions. */
#define BOUNDARY_N 200
#define STEPS_N 400

void tl_report_risk_label(const tl_prune_trace *tr, int regression, char *buf, size_t size)
{
    if (regression)
        snprintf(buf, size, "resubstitution MSE");
    else if (!tr->risk_name || !strcmp(tr->risk_name, "error"))
        snprintf(buf, size, "resubstitution error");
    else
        snprintf(buf, size, "resubstitution risk R(T) (%s impurity)", tr->risk_name);
}

int tl_report_pruning_plot(const tl_prune_trace *tr, int regression, const char *risk_label,
                           const char *title, const char *stem, tl_err *err)
{
    int has_error = tr->n && !isnan(tr->error[0]);
    /* one axis, two quantities when the risk is an impurity: the label names both */
    char ylabel[256];
    if (regression)
        snprintf(ylabel, sizeof ylabel, "mean squared error");
    else if (!tr->risk_name || !strcmp(tr->risk_name, "error"))
        snprintf(ylabel, sizeof ylabel, "error rate");
    else
        snprintf(ylabel, sizeof ylabel, "%s rate; training risk R(T) (%s impurity)",
                 has_error && tr->error_name ? tr->error_name : "error", tr->risk_name);
    tl_plot_cp_path p = {tr->n,
                         tr->param,
                         tr->leaves,
                         tr->risk,
                         has_error ? tr->error : NULL,
                         has_error ? tr->se : NULL,
                         title,
                         1,
                         risk_label,
                         ylabel,
                         tr->chosen < tr->n,
                         tr->chosen,
                         !regression};
    return tl_plot_pruning(&p, stem, err);
}

static const char *fig_stem(const char *dir, const char *kind, const char *d, const char *m,
                            char *buf, size_t size)
{
    snprintf(buf, size, "%s/plots/%s_%s__%s", dir, kind, d, m);
    return buf;
}

/* The pruning curve of a model whose pruner recorded a sequence of subtrees (cost
 * complexity: alpha = auto with its cross-validated error, or alpha = path); a pruner that
 * recorded only the grown and the pruned tree has no curve to draw. */
static int plot_pruning(const char *dir, const tl_exp_model *em, const tl_model *model,
                        const tl_dataset *d, const char *dn, size_t *drawn, tl_err *err)
{
    const tl_prune_trace *tr = tl_model_prune_trace(model);
    if (!tr || !tr->risk_name || tr->n < 1)
        return TL_OK; /* no sequence with training risks */
    ++*drawn;
    if (tr->n < 2) {
        tl_warn("figure pruning of %s on %s not drawn: the unpruned tree is a single leaf",
                em->name, dn);
        return TL_OK;
    }
    char title[1024], buf[4096], risk[256];
    /* 4 significant digits: the exact value is in the trace file */
    snprintf(title, sizeof title,
             "Pruning curve: %s on %s (pruner %s on the whole data; %s = %.4g chosen)", em->name,
             dn, tr->pruner, tr->param_name, tr->chosen_param);
    tl_report_risk_label(tr, !tl_dataset_is_classification(d), risk, sizeof risk);
    return tl_report_pruning_plot(tr, !tl_dataset_is_classification(d), risk, title,
                                  fig_stem(dir, "pruning", dn, em->name, buf, sizeof buf), err);
}

/* Range of numeric column j over its known values, widened by 5% on each side. */
static void span(const tl_dataset *d, size_t j, double *lo, double *hi)
{
    *lo = INFINITY, *hi = -INFINITY;
    for (size_t i = 0; i < d->n_rows; i++) {
        double v = d->cols[j].num[i];
        if (!isnan(v))
            *lo = fmin(*lo, v), *hi = fmax(*hi, v);
    }
    if (!isfinite(*lo))
        *lo = 0, *hi = 1;
    double pad = *hi > *lo ? 0.05 * (*hi - *lo) : 0.5;
    *lo -= pad, *hi += pad;
}

/* A dataset with d's schema whose rows are the points of an nx x ny grid over the given
 * spans (x fastest; ny = 1 and one attribute for a line). Targets are zero. */
static tl_dataset *grid_data(const tl_dataset *d, size_t nx, size_t ny, const double *lo,
                             const double *hi, tl_err *err)
{
    tl_dataset *g = calloc(1, sizeof *g);
    size_t n = nx * ny, na = d->schema.n_attrs;
    int rc = g ? TL_OK : tl_err_set(err, TL_ENOMEM, "out of memory");
    if (!rc && !(rc = tl_schema_copy(&g->schema, &d->schema, err))) {
        g->n_rows = n;
        g->name = strdup("grid");
        g->cols = calloc(na, sizeof *g->cols);
        if (tl_dataset_is_classification(d))
            g->y.code = calloc(n, sizeof *g->y.code);
        else
            g->y.num = calloc(n, sizeof *g->y.num);
        if (!g->name || !g->cols || (!g->y.code && !g->y.num))
            rc = tl_err_set(err, TL_ENOMEM, "out of memory");
        for (size_t j = 0; !rc && j < na; j++)
            if (!(g->cols[j].num = malloc(n * sizeof *g->cols[j].num)))
                rc = tl_err_set(err, TL_ENOMEM, "out of memory");
    }
    for (size_t i = 0; !rc && i < n; i++) {
        size_t at[2] = {i % nx, i / nx}, steps[2] = {nx, ny};
        for (size_t j = 0; j < na; j++)
            g->cols[j].num[i] =
                steps[j] > 1 ? lo[j] + (double)at[j] * (hi[j] - lo[j]) / (double)(steps[j] - 1)
                             : lo[j];
    }
    if (rc) {
        tl_dataset_free(g);
        return NULL;
    }
    return g;
}

/* Rows with every attribute and the target known (the points drawn). */
static size_t known_rows(const tl_dataset *d, size_t *rows)
{
    size_t n = 0;
    for (size_t i = 0; i < d->n_rows; i++) {
        int ok = 1;
        for (size_t j = 0; j < d->schema.n_attrs; j++)
            ok &= !tl_dataset_is_missing(d, j, i);
        if (ok)
            rows[n++] = i;
    }
    return n;
}

static int plot_regions(const char *dir, const tl_exp_model *em, const tl_model *model,
                        const tl_dataset *d, const char *dn, tl_err *err)
{
    double lo[2], hi[2];
    span(d, 0, &lo[0], &hi[0]);
    span(d, 1, &lo[1], &hi[1]);
    size_t n = (size_t)BOUNDARY_N * BOUNDARY_N;
    tl_dataset *g = grid_data(d, BOUNDARY_N, BOUNDARY_N, lo, hi, err);
    double *pred = malloc(n * sizeof *pred), *pxy = malloc(2 * (d->n_rows + 1) * sizeof *pxy);
    int *cls = malloc((n + d->n_rows + 1) * sizeof *cls);
    size_t *rows = malloc((d->n_rows + 1) * sizeof *rows);
    int rc = !g                           ? err->code
             : pred && pxy && cls && rows ? TL_OK
                                          : tl_err_set(err, TL_ENOMEM, "out of memory");
    if (!rc)
        rc = tl_model_predict_label(model, g, NULL, n, pred, err);
    if (!rc) {
        size_t np = known_rows(d, rows);
        int *pcls = cls + n;
        for (size_t i = 0; i < n; i++)
            cls[i] = (int)pred[i];
        for (size_t i = 0; i < np; i++) {
            pxy[i] = d->cols[0].num[rows[i]];
            pxy[d->n_rows + i] = d->cols[1].num[rows[i]];
            pcls[i] = d->y.code[rows[i]];
        }
        const tl_schema *s = &d->schema;
        char title[1024], buf[4096];
        snprintf(title, sizeof title, "Decision regions: %s on %s (whole data)", em->name, dn);
        tl_plot_boundary b = {title,
                              s->attrs[0].name,
                              s->attrs[1].name,
                              BOUNDARY_N,
                              BOUNDARY_N,
                              lo[0],
                              hi[0],
                              lo[1],
                              hi[1],
                              cls,
                              s->target.n_levels,
                              (const char *const *)s->target.levels,
                              np,
                              pxy,
                              pxy + d->n_rows,
                              pcls};
        rc = tl_plot_boundary_write(&b, fig_stem(dir, "boundary", dn, em->name, buf, sizeof buf),
                                    err);
    }
    tl_dataset_free(g);
    free(pred);
    free(pxy);
    free(cls);
    free(rows);
    return rc;
}

static int plot_steps(const char *dir, const tl_exp_model *em, const tl_model *model,
                      const tl_dataset *d, const char *dn, tl_err *err)
{
    double lo, hi;
    span(d, 0, &lo, &hi);
    tl_dataset *g = grid_data(d, STEPS_N, 1, &lo, &hi, err);
    double *pred = malloc(STEPS_N * sizeof *pred), *pxy = malloc(2 * (d->n_rows + 1) * sizeof *pxy);
    size_t *rows = malloc((d->n_rows + 1) * sizeof *rows);
    int rc = !g                    ? err->code
             : pred && pxy && rows ? TL_OK
                                   : tl_err_set(err, TL_ENOMEM, "out of memory");
    if (!rc)
        rc = tl_model_predict(model, g, NULL, STEPS_N, pred, err);
    if (!rc) {
        size_t np = known_rows(d, rows);
        for (size_t i = 0; i < np; i++)
            pxy[i] = d->cols[0].num[rows[i]], pxy[d->n_rows + i] = d->y.num[rows[i]];
        char title[1024], buf[4096];
        snprintf(title, sizeof title, "Regression: %s on %s (whole data)", em->name, dn);
        tl_plot_steps s = {
            title, d->schema.attrs[0].name, d->schema.target.name, STEPS_N, lo, hi, pred, np,
            pxy,   pxy + d->n_rows};
        rc = tl_plot_steps_write(&s, fig_stem(dir, "steps", dn, em->name, buf, sizeof buf), err);
    }
    tl_dataset_free(g);
    free(pred);
    free(pxy);
    free(rows);
    return rc;
}

/* 1: two numeric attributes and classes (regions); 2: one numeric attribute and a numeric
 * target (steps); 0: neither. */
static int boundary_kind(const tl_dataset *d)
{
    const tl_schema *s = &d->schema;
    int cls = tl_dataset_is_classification(d);
    for (size_t j = 0; j < s->n_attrs; j++)
        if (s->attrs[j].kind != TL_ATTR_NUMERIC)
            return 0;
    return cls && s->n_attrs == 2 ? 1 : !cls && s->n_attrs == 1 ? 2 : 0;
}

static int plot_tree(const char *dir, const tl_model *model, const char *dn, const char *mn,
                     tl_err *err)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    tl_err e;
    tl_err_clear(&e);
    int rc = tl_model_show(model, TL_SHOW_DOT, f, &e);
    fclose(f);
    char buf[4096];
    if (!rc)
        rc = tl_plot_tree_dot(text, fig_stem(dir, "tree", dn, mn, buf, sizeof buf), err);
    else if (rc == TL_EUNSUPPORTED)
        rc = TL_OK; /* a learner without a tree has no picture */
    else
        *err = e;
    free(text);
    return rc;
}

/* What the figures need of (dataset, model) fitted on the whole data. */
static int fit_figures(const char *dir, const tl_experiment *x, tl_dataset *const *data,
                       int want_pruning, int want_boundary, int want_trees, int want_validation,
                       tl_err *err)
{
    size_t n_pruning = 0, n_boundary = 0;
    for (size_t d = 0; d < x->n_datasets; d++) {
        const char *dn = x->datasets[d].name;
        int bk = want_boundary ? boundary_kind(data[d]) : 0;
        n_boundary += bk != 0;
        for (size_t m = 0; m < x->n_models; m++) {
            const tl_exp_model *em = &x->models[m];
            if (em->grid)
                continue; /* grid cells are summed up by the grid figure */
            /* any learner may have chosen alpha by CV: plot_pruning asks the fitted model */
            int pr = want_pruning;
            if (want_validation) {
                int rc = tl_report_validation_plot(dir, x, em, m, data[d], dn, err);
                if (rc)
                    return tl_err_prefix(err, "validation figure of %s on %s: ", em->name, dn);
            }
            if (!pr && !bk && !want_trees)
                continue;
            long sel;
            tl_model *model = tl_cell_fit(em, data[d], NULL, 0, NULL, 0,
                                          tl_protocol_seed(x->seed, dn, 0, 0), &sel, err);
            int rc = model ? TL_OK : err->code;
            if (!rc && pr)
                rc = plot_pruning(dir, em, model, data[d], dn, &n_pruning, err);
            if (!rc && bk == 1)
                rc = plot_regions(dir, em, model, data[d], dn, err);
            if (!rc && bk == 2)
                rc = plot_steps(dir, em, model, data[d], dn, err);
            if (!rc && want_trees)
                rc = plot_tree(dir, model, dn, em->name, err);
            tl_model_free(model);
            if (rc)
                return tl_err_prefix(err, "figures of %s on %s: ", em->name, dn);
        }
    }
    if (want_pruning && !n_pruning)
        tl_warn("figure pruning not drawn: no model's pruner recorded a sequence of subtrees "
                "with their training risks (cost_complexity does, e.g. cart with prune = cv)");
    if (want_boundary && !n_boundary)
        tl_warn("figure boundary not drawn: it needs a dataset with two numeric attributes "
                "and a class, or one numeric attribute and a numeric target");
    return TL_OK;
}

int tl_report_plots(const char *dir, const tl_experiment *x, tl_dataset *const *data, tl_err *err)
{
    return tl_rep_figures(dir, x, data, 1, err);
}

int tl_rep_figures(const char *dir, const tl_experiment *x, tl_dataset *const *data, size_t jobs,
                   tl_err *err)
{
    tl_err local;
    if (!err)
        err = &local; /* failed fits and grids leave their code only in err */
    if (!x->n_plots)
        return TL_OK;
    char path[4096];
    snprintf(path, sizeof path, "%s/plots", dir);
    mkdir(path, 0777);
    int render = tl_plot_found(tl_plot_gnuplot());
    if (!render)
        tl_warn("%s not found: the figures in %s are left as data (.dat) and gnuplot scripts "
                "(.gp); install gnuplot and run `gnuplot NAME.gp` there to draw them",
                tl_plot_gnuplot(), path);
    int trees = tl_experiment_wants_plot(x, "trees");
    if (trees && !tl_plot_found(tl_plot_dot())) {
        tl_warn("%s (Graphviz) not found: no tree pictures; the DOT files are in %s/trees when "
                "the trees report is on",
                tl_plot_dot(), dir);
        trees = 0;
    }
    /* gnuplot runs beside the thread writing the next figure: up to jobs at once */
    int rc = tlp_batch_begin(jobs, err);
    if (rc)
        return rc;
    tl_plot_set_render(render);
    tl_rep r;
    if (!(rc = tl_rep_load(dir, &r, err)))
        rc = tl_rep_plots(&r, x, err);
    tl_rep_free(&r);
    if (!rc)
        rc = fit_figures(dir, x, data, tl_experiment_wants_plot(x, "pruning"),
                         tl_experiment_wants_plot(x, "boundary"), trees,
                         tl_experiment_wants_plot(x, "validation"), err);
    rc = tlp_batch_end(rc, err);
    tl_plot_set_render(1);
    return rc;
}
