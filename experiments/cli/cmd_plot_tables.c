/* `treelab plot`'s figures from a CSV table: the columns each kind reads (by name, some
 * under treelab's own files' names too), turned into the plot module's inputs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd_plot.h"
#include "treelab/tl_table.h"
#include "treelab/tl_plot.h"

/* Column of the first name of "a|b|c" the table has (treelab's own files name some columns
 * differently: learning_curve.csv's score_mean is the mean); -1 with err set when none is
 * there and the name is required (no leading '?'). */
static int col_any(const tl_table *t, const char *names, tl_err *err)
{
    int required = names[0] != '?';
    char buf[256];
    snprintf(buf, sizeof buf, "%s", names + !required);
    for (char *save = NULL, *n = strtok_r(buf, "|", &save); n; n = strtok_r(NULL, "|", &save)) {
        int c = tl_table_col(t, n, 0, NULL);
        if (c >= 0)
            return c;
    }
    buf[strcspn(buf, "|")] = '\0';
    return tl_table_col(t, buf, required, err);
}

static int cols(const tl_table *t, const char *const *names, int *idx, size_t n, tl_err *err)
{
    for (size_t i = 0; i < n; i++) /* the callers read every index, even after a failure */
        idx[i] = -1;
    for (size_t i = 0; i < n; i++) {
        idx[i] = col_any(t, names[i], err);
        if (names[i][0] != '?' && idx[i] < 0)
            return err->code;
    }
    return TL_OK;
}

/* Numeric column i of the table into a fresh array (NULL when the column is absent). */
static double *num_col(const tl_table *t, int col, int *rc, tl_err *err)
{
    if (col < 0 || *rc)
        return NULL;
    double *v = malloc((t->n_rows ? t->n_rows : 1) * sizeof *v);
    if (!v)
        *rc = tl_err_set(err, TL_ENOMEM, "out of memory");
    else if ((*rc = tl_table_nums(t, col, v, err))) {
        free(v);
        v = NULL;
    }
    return v;
}

static int do_pruning(const tl_table *t, const plot_opts *o, tl_err *err)
{
    static const char *const names[] = {"alpha", "leaves", "risk", "?cv_error", "?cv_se"};
    int c[5], rc = cols(t, names, c, 5, err);
    double *v[5] = {0};
    for (int i = 0; i < 5; i++)
        v[i] = num_col(t, c[i], &rc, err);
    if (!rc) {
        tl_plot_cp_path p = {
            t->n_rows, v[0], v[1], v[2], v[3], v[4], o->title, o->x && !strcmp(o->x, "leaves"),
            NULL,      NULL, 0,    0,    0};
        rc = tl_plot_pruning(&p, o->out, err);
    }
    for (int i = 0; i < 5; i++)
        free(v[i]);
    return rc;
}

/* "MODEL (DATASET)" per row when the table has a dataset column with several datasets
 * (treelab's learning_curve.csv), else NULL: the label column alone names the series. */
static char **row_labels(const tl_table *t, int label_col, int *rc, tl_err *err)
{
    int dc = tl_table_col(t, "dataset", 0, NULL);
    size_t i = 0;
    while (dc >= 0 && i < t->n_rows && !strcmp(tl_table_cell(t, i, dc), tl_table_cell(t, 0, dc)))
        i++;
    if (*rc || dc < 0 || i == t->n_rows)
        return NULL;
    char **v = calloc(t->n_rows, sizeof *v);
    for (i = 0; v && i < t->n_rows; i++) {
        const char *m = tl_table_cell(t, i, label_col), *d = tl_table_cell(t, i, dc);
        if (!(v[i] = malloc(strlen(m) + strlen(d) + 4)))
            break;
        sprintf(v[i], "%s (%s)", m, d);
    }
    if (!v || i < t->n_rows) {
        for (size_t j = 0; v && j < i; j++)
            free(v[j]);
        free(v);
        *rc = tl_err_set(err, TL_ENOMEM, "out of memory");
        return NULL;
    }
    return v;
}

/* Rows grouped by the label in column gcol into series (learning-curve, curve). */
static int do_series(const tl_table *t, const plot_opts *o, const char *const *names, int learning,
                     tl_err *err)
{
    int c[4], rc = cols(t, names, c, 4, err);
    double *x = num_col(t, c[1], &rc, err), *y = num_col(t, c[2], &rc, err),
           *b = num_col(t, c[3], &rc, err);
    size_t n = t->n_rows, ns = 0;
    const char **labels = calloc(n + 1, sizeof *labels);
    tl_plot_series *s = calloc(n + 1, sizeof *s);
    double *buf = malloc((3 * n + 1) * sizeof *buf);
    size_t *count = calloc(n + 1, sizeof *count); /* was unchecked: a crash when out of memory */
    char **named = row_labels(t, c[0], &rc, err);
    if (!rc && (!labels || !s || !buf || !count))
        rc = tl_err_set(err, TL_ENOMEM, "out of memory");
    if (!rc) {
        size_t used = 0;
        for (size_t i = 0; i < n; i++)
            count[tl_table_intern(labels, &ns, named ? named[i] : tl_table_cell(t, i, c[0]))]++;
        for (size_t k = 0; k < ns; k++) { /* each series' points contiguous in buf */
            s[k] = (tl_plot_series){
                labels[k], k, 0, buf + used, buf + n + used, b ? buf + 2 * n + used : NULL, 0, 0};
            used += count[k];
        }
        for (size_t i = 0; i < n; i++) {
            tl_plot_series *p =
                &s[tl_table_intern(labels, &ns, named ? named[i] : tl_table_cell(t, i, c[0]))];
            ((double *)p->x)[p->n] = x[i];
            ((double *)p->y)[p->n] = y[i];
            if (b)
                ((double *)p->band)[p->n] = b[i];
            p->n++;
        }
        if (learning)
            rc = tl_plot_learning_curve(s, ns, o->title, o->out, err);
        else {
            tl_plot_curve cv = {o->title,
                                o->xlabel ? o->xlabel : "x",
                                o->ylabel ? o->ylabel : "y",
                                NULL,
                                o->logx != NULL,
                                s,
                                ns,
                                NULL,
                                0,
                                NAN,
                                NULL,
                                0,
                                0,
                                0};
            rc = tl_plot_curve_write(&cv, o->out, err);
        }
    }
    for (size_t i = 0; named && i < n; i++)
        free(named[i]);
    free(named), free(x), free(y), free(b), free(labels), free(s), free(buf), free(count);
    return rc;
}

/* The matrix treelab writes in confusion/D__M.csv: a "truth\\predicted" header naming the
 * predicted classes, then a row per true class. */
static int do_confusion_matrix(const tl_table *t, const plot_opts *o, tl_err *err)
{
    size_t k = t->n_cols - 1;
    if (t->n_rows != k || !k)
        return tl_err_set(err, TL_EPARSE,
                          "%s: a confusion matrix needs as many rows as classes "
                          "(%zu columns after the first, %zu rows)",
                          t->path, k, t->n_rows);
    double *m = malloc(k * k * sizeof *m);
    const char **cls = malloc(k * sizeof *cls);
    int rc = m && cls ? TL_OK : tl_err_set(err, TL_ENOMEM, "out of memory");
    for (size_t i = 0; !rc && i < k; i++) {
        cls[i] = t->head[i + 1];
        if (strcmp(tl_table_cell(t, i, 0), cls[i]))
            rc = tl_err_set(err, TL_EPARSE,
                            "%s: row %zu is class '%s', the header's column %zu "
                            "is '%s'",
                            t->path, i + 1, tl_table_cell(t, i, 0), i + 2, cls[i]);
        for (size_t j = 0; !rc && j < k; j++)
            rc = tl_table_num(t, i, (int)j + 1, &m[i * k + j], err);
    }
    if (!rc) {
        tl_plot_confusion cm = {k, m, cls, o->title};
        rc = tl_plot_confusion_write(&cm, o->out, err);
    }
    free(m), free(cls);
    return rc;
}

static int do_confusion(const tl_table *t, const plot_opts *o, tl_err *err)
{
    if (t->n_cols && !strcmp(t->head[0], "truth\\predicted"))
        return do_confusion_matrix(t, o, err);
    static const char *const names[] = {"true", "predicted", "count"};
    int c[3], rc = cols(t, names, c, 3, err);
    double *cnt = num_col(t, c[2], &rc, err);
    size_t n = t->n_rows, k = 0;
    const char **cls = calloc(2 * n + 1, sizeof *cls);
    double *m = calloc(4 * n * n + 1, sizeof *m);
    if (!rc && (!cls || !m))
        rc = tl_err_set(err, TL_ENOMEM, "out of memory");
    if (!rc) {
        for (size_t i = 0; i < n; i++) {
            tl_table_intern(cls, &k, tl_table_cell(t, i, c[0]));
            tl_table_intern(cls, &k, tl_table_cell(t, i, c[1]));
        }
        for (size_t i = 0; i < n; i++)
            m[tl_table_intern(cls, &k, tl_table_cell(t, i, c[0])) * k +
              tl_table_intern(cls, &k, tl_table_cell(t, i, c[1]))] += cnt[i];
        tl_plot_confusion cm = {k, m, cls, o->title};
        rc = tl_plot_confusion_write(&cm, o->out, err);
    }
    free(cnt), free(cls), free(m);
    return rc;
}

static int do_grid(const tl_table *t, const plot_opts *o, tl_err *err)
{
    static const char *const names[] = {"x", "y", "value", "?selected"};
    int c[4], rc = cols(t, names, c, 4, err);
    double *v = num_col(t, c[2], &rc, err), *sel = num_col(t, c[3], &rc, err);
    size_t n = t->n_rows, nx = 0, ny = 0;
    const char **xs = calloc(n + 1, sizeof *xs), **ys = calloc(n + 1, sizeof *ys);
    double *g = malloc((n * n + 1) * sizeof *g);
    if (!rc && (!xs || !ys || !g))
        rc = tl_err_set(err, TL_ENOMEM, "out of memory");
    if (!rc) {
        for (size_t i = 0; i < n; i++) {
            tl_table_intern(xs, &nx, tl_table_cell(t, i, c[0]));
            tl_table_intern(ys, &ny, tl_table_cell(t, i, c[1]));
        }
        for (size_t i = 0; i < nx * ny; i++)
            g[i] = NAN;
        size_t best = 0;
        for (size_t i = 0; i < n; i++) {
            size_t ix = tl_table_intern(xs, &nx, tl_table_cell(t, i, c[0]));
            size_t iy = tl_table_intern(ys, &ny, tl_table_cell(t, i, c[1]));
            g[iy * nx + ix] = v[i];
            if (sel ? sel[i] == 1 : (isnan(v[best]) || v[i] > v[best]))
                best = i;
        }
        tl_plot_grid gr = {nx,
                           ny,
                           g,
                           xs,
                           ys,
                           o->xname ? o->xname : "x",
                           o->yname ? o->yname : "y",
                           NULL,
                           o->title,
                           n > 0,
                           n ? tl_table_intern(xs, &nx, tl_table_cell(t, best, c[0])) : 0,
                           n ? tl_table_intern(ys, &ny, tl_table_cell(t, best, c[1])) : 0};
        rc = tl_plot_grid_write(&gr, o->out, err);
    }
    free(v), free(sel), free(xs), free(ys), free(g);
    return rc;
}

static int do_folds(const tl_table *t, const plot_opts *o, tl_err *err)
{
    /* metrics.csv: --metric names the column, else accuracy (RMSE for regression) */
    const char *names[] = {"dataset", "model", o->metric ? o->metric : "value|accuracy|rmse"};
    int c[3], rc = cols(t, names, c, 3, err);
    double *v = num_col(t, c[2], &rc, err);
    size_t n = t->n_rows, nd = 0, nm = 0;
    const char **ds = calloc(n + 1, sizeof *ds), **ms = calloc(n + 1, sizeof *ms);
    size_t *cnt = calloc(n * n + 1, sizeof *cnt);
    if (!rc && (!ds || !ms || !cnt))
        rc = tl_err_set(err, TL_ENOMEM, "out of memory");
    double *vals = NULL;
    if (!rc) {
        size_t nf = 0;
        for (size_t i = 0; i < n; i++) {
            size_t g = tl_table_intern(ds, &nd, tl_table_cell(t, i, c[0])) * n +
                       tl_table_intern(ms, &nm, tl_table_cell(t, i, c[1]));
            if (++cnt[g] > nf)
                nf = cnt[g];
        }
        vals = malloc((nd * nm * nf + 1) * sizeof *vals);
        if (!vals)
            rc = tl_err_set(err, TL_ENOMEM, "out of memory");
        for (size_t i = 0; !rc && i < nd * nm * nf; i++)
            vals[i] = NAN;
        memset(cnt, 0, (n * n + 1) * sizeof *cnt);
        for (size_t i = 0; !rc && i < n; i++) {
            size_t d = tl_table_intern(ds, &nd, tl_table_cell(t, i, c[0]));
            size_t m = tl_table_intern(ms, &nm, tl_table_cell(t, i, c[1]));
            vals[(d * nm + m) * nf + cnt[d * n + m]++] = v[i];
        }
        tl_plot_folds f = {nd, nm, nf, ds, ms, NULL, vals, o->title, NULL, 0};
        if (!rc)
            rc = tl_plot_folds_write(&f, o->out, err);
    }
    free(v), free(ds), free(ms), free(cnt), free(vals);
    return rc;
}

static int do_cd(const tl_table *t, const plot_opts *o, tl_err *err)
{
    static const char *const names[] = {"model", "rank"};
    int c[2] = {0, 0}, rc = cols(t, names, c, 2, err);
    if (!rc && !o->cd)
        rc = tl_err_set(err, TL_EINVAL, "cd: --cd VALUE (the critical difference) is required");
    double *r = num_col(t, c[1], &rc, err);
    const char **ms = calloc(t->n_rows + 1, sizeof *ms);
    if (!rc && !ms)
        rc = tl_err_set(err, TL_ENOMEM, "out of memory");
    long nd = 0;
    if (!rc && o->datasets)
        rc = tl_cli_long("--datasets", o->datasets, 1, 1000000, &nd, err);
    if (!rc) {
        for (size_t i = 0; i < t->n_rows; i++)
            ms[i] = tl_table_cell(t, i, c[0]);
        tl_plot_cd cd = {t->n_rows, ms, r, strtod(o->cd, NULL), (size_t)nd, o->title};
        rc = tl_plot_cd_write(&cd, o->out, err);
    }
    free(r), free(ms);
    return rc;
}

int tl_cli_plot_table(const char *kind, const char *path, const plot_opts *o, tl_err *err)
{
    int rc;
    tl_table t;
    static const char *const lc_names[] = {"model", "fraction", "mean|score_mean", "?sd|score_sd"};
    static const char *const curve_names[] = {"series", "x", "y", "?band"};
    int known = 1;
    if ((rc = tl_table_read(path, &t, err)))
        return rc;
    if (!strcmp(kind, "pruning"))
        rc = do_pruning(&t, o, err);
    else if (!strcmp(kind, "learning-curve"))
        rc = do_series(&t, o, lc_names, 1, err);
    else if (!strcmp(kind, "curve"))
        rc = do_series(&t, o, curve_names, 0, err);
    else if (!strcmp(kind, "confusion"))
        rc = do_confusion(&t, o, err);
    else if (!strcmp(kind, "grid"))
        rc = do_grid(&t, o, err);
    else if (!strcmp(kind, "folds"))
        rc = do_folds(&t, o, err);
    else if (!strcmp(kind, "cd"))
        rc = do_cd(&t, o, err);
    else
        known = 0;
    tl_table_free(&t);
    if (!known)
        return tl_err_set(err, TL_EINVAL,
                          "unknown plot kind '%s'; valid kinds: pruning, "
                          "learning-curve, curve, confusion, grid, folds, cd, "
                          "tree",
                          kind);
    return rc;
}
