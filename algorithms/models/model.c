/* The fitted-model handle: construction with checked parameters, fit, predict, show and what a
 * fitted model tells (size, tree, members, stages); its file is model_file.c. */
#include "treelab/tl_model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

tl_model *tl_model_new(const char *algo, const tl_params *params, tl_err *err)
{
    const tl_model_type *type = tl_model_find(algo, err);
    return type ? tl_model_new_type(type, params, err) : NULL;
}

const tl_tree *tl_model_tree(const tl_model *m)
{
    return m && m->fitted && m->type->tree ? m->type->tree(m->state) : NULL;
}

const tl_ensemble *tl_model_ensemble(const tl_model *m)
{
    return m && m->fitted && m->type->ensemble ? m->type->ensemble(m->state) : NULL;
}

const tl_model *tl_model_teacher(const tl_model *m)
{
    return m && m->fitted && m->type->teacher ? m->type->teacher(m->state) : NULL;
}

int tl_model_fidelity(const tl_model *teacher, const tl_model *student, const tl_dataset *d,
                      const size_t *rows, size_t n, double *out, tl_err *err)
{
    double *a = malloc((n ? n : 1) * sizeof *a), *b = malloc((n ? n : 1) * sizeof *b);
    int rc = a && b ? TL_OK : tl_err_set(err, TL_ENOMEM, "out of memory");
    if (!rc && !(rc = tl_model_predict_label(teacher, d, rows, n, a, err)) &&
        !(rc = tl_model_predict_label(student, d, rows, n, b, err))) {
        double same = 0;
        int regression = !tl_dataset_is_classification(d);
        for (size_t i = 0; i < n; i++)
            same += regression ? (a[i] - b[i]) * (a[i] - b[i]) : a[i] == b[i];
        *out = n ? same / (double)n : NAN;
    }
    free(a);
    free(b);
    return rc;
}

const struct tl_prune_trace *tl_model_prune_trace(const tl_model *m)
{
    return m && m->fitted && m->type->prune_trace ? m->type->prune_trace(m->state) : NULL;
}

tl_model *tl_model_new_type(const tl_model_type *type, const tl_params *params, tl_err *err)
{
    if (tl_model_check_params(type, params, err)) {
        tl_err_prefix(err, "%s: ", type->name);
        return NULL;
    }
    tl_model *m = calloc(1, sizeof *m);
    if (!m) {
        tl_err_set(err, TL_ENOMEM, "out of memory");
        return NULL;
    }
    m->type = type;
    tl_params_init(&m->params);
    if ((params && tl_params_copy(&m->params, params, err)) ||
        !(m->state = type->alloc(params, err))) {
        tl_model_free(m);
        return NULL;
    }
    return m;
}

void tl_model_free(tl_model *m)
{
    if (!m)
        return;
    if (m->state)
        m->type->free(m->state);
    tl_params_clear(&m->params);
    tl_schema_clear(&m->schema);
    free(m);
}

int tl_model_fit(tl_model *m, const tl_dataset *d, const size_t *rows, size_t n,
                 const tl_fit_ctx *ctx, tl_err *err)
{
    unsigned task = tl_dataset_is_classification(d) ? TL_TASK_CLASSIFICATION : TL_TASK_REGRESSION;
    if (!(m->type->tasks & task) && task == TL_TASK_REGRESSION)
        return tl_err_set(err, TL_EUNSUPPORTED,
                          "%s does not do regression, and the target '%s' is numeric; if it "
                          "holds classes coded as numbers, --nominal %s (nominal = [\"%s\"]; "
                          "in a dataset entry) reads them as classes",
                          m->type->name, d->schema.target.name, d->schema.target.name,
                          d->schema.target.name);
    if (!(m->type->tasks & task))
        return tl_err_set(err, TL_EUNSUPPORTED, "%s does not do classification", m->type->name);
    int limit = m->type->check_data ? m->type->check_data(&m->params, &d->schema, err) : TL_OK;
    if (limit)
        return limit;
    size_t *all;
    if (!(rows = tl_rows_or_all(d, rows, &n, &all, err)))
        return TL_ENOMEM;
    int rc = TL_OK;
    if (n == 0)
        rc = tl_err_set(err, TL_EINVAL, "cannot fit %s on zero rows", m->type->name);
    double w = 0; /* every learner divides by it: 0 or inf would make NaN of every number */
    for (size_t i = 0; !rc && d->weight && i < n; i++)
        w += d->weight[rows[i]];
    if (!rc && d->weight && !(isfinite(w) && w > 0))
        rc = tl_err_set(err, TL_EINVAL,
                        "cannot fit %s: the weights of its %zu training rows sum to %g; they "
                        "must sum to a finite number > 0",
                        m->type->name, n, w);
    tl_fit_ctx none = {0};
    if (!rc) {
        tl_schema_clear(&m->schema);
        rc = tl_schema_copy(&m->schema, &d->schema, err);
    }
    if (!rc)
        rc = m->type->fit(m->state, d, rows, n, ctx ? ctx : &none, err);
    m->fitted = rc == TL_OK;
    free(all);
    return rc;
}

size_t tl_model_out_width(const tl_model *m)
{
    return m->schema.target.kind == TL_ATTR_NOMINAL ? m->schema.target.n_levels : 1;
}

int tl_model_predict(const tl_model *m, const tl_dataset *d, const size_t *rows, size_t n,
                     double *out, tl_err *err)
{
    if (!m->fitted)
        return tl_err_set(err, TL_EINVAL, "the %s model has not been fitted", m->type->name);
    if (d->schema.n_attrs != m->schema.n_attrs)
        return tl_err_set(err, TL_EINVAL, "data has %zu attributes, the model expects %zu",
                          d->schema.n_attrs, m->schema.n_attrs);
    size_t *all;
    if (!(rows = tl_rows_or_all(d, rows, &n, &all, err)))
        return TL_ENOMEM;
    int rc = m->type->predict(m->state, d, rows, n, out, err);
    free(all);
    return rc;
}

int tl_model_predict_label(const tl_model *m, const tl_dataset *d, const size_t *rows, size_t n,
                           double *out, tl_err *err)
{
    size_t k = tl_model_out_width(m);
    if (k == 1)
        return tl_model_predict(m, d, rows, n, out, err);
    size_t nn = rows ? n : d->n_rows;
    double *p = malloc((nn ? nn : 1) * k * sizeof *p);
    if (!p)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    int rc = tl_model_predict(m, d, rows, n, p, err);
    for (size_t i = 0; !rc && i < nn; i++) {
        size_t best = 0;
        for (size_t c = 1; c < k; c++)
            if (p[i * k + c] > p[i * k + best])
                best = c;
        out[i] = (double)best;
    }
    free(p);
    return rc;
}

int tl_model_show(const tl_model *m, tl_show_format fmt, FILE *f, tl_err *err)
{
    if (!m->fitted)
        return tl_err_set(err, TL_EINVAL, "the %s model has not been fitted", m->type->name);
    return m->type->show(m->state, &m->schema, fmt, f, err);
}

int tl_model_has_size(const tl_model *m)
{
    return m->type->info != NULL;
}

void tl_model_get_info(const tl_model *m, tl_model_info *out)
{
    memset(out, 0, sizeof *out);
    if (m->fitted && m->type->info)
        m->type->info(m->state, out);
}

const char *tl_model_stage_param(const tl_model_type *t)
{
    return t && t->truncate ? t->stage_param : NULL;
}

int tl_model_truncate(tl_model *m, size_t n, const tl_dataset *d, tl_err *err)
{
    if (!m->type->truncate || !m->type->stage_param)
        return tl_err_set(err, TL_EUNSUPPORTED, "%s has no stages to keep the first of",
                          m->type->name);
    if (!m->fitted || n == 0)
        return tl_err_set(err, TL_EINVAL, "%s: keep the first %zu members of %s", m->type->name, n,
                          m->fitted ? "it (at least 1)" : "an unfitted model");
    char v[32];
    snprintf(v, sizeof v, "%zu", n);
    int rc = m->type->truncate(m->state, n, d, err);
    return rc ? rc : tl_params_set(&m->params, m->type->stage_param, v, err);
}
