/* Gaussian naive Bayes's model file (saved, loaded, checked against a schema), its text form. */
#include "gaussian_nb_impl.h"

#include <math.h>
#include <stdlib.h>

int tl_gnb_save(const void *state, FILE *f, int indent, tl_err *err)
{
    (void)err;
    const gnb *g = state;
    tl_store_put_int(f, indent, "classes", (long)g->k);
    tl_store_put_int(f, indent, "attributes", (long)g->p);
    tl_store_put_int_array(f, indent, "kinds", g->kind, g->p);
    tl_store_put_int_array(f, indent, "levels", g->n_levels, g->p);
    tl_store_put_double(f, indent, "epsilon", g->epsilon);
    tl_store_put_doubles(f, indent, "prior", g->prior, g->k);
    tl_store_put_doubles(f, indent, "mean", g->mean, g->k * g->p);
    tl_store_put_doubles(f, indent, "var", g->var, g->k * g->p);
    tl_store_put_doubles(f, indent, "level_prob", g->level_prob, g->k * g->n_lev_total);
    return TL_OK;
}

int tl_gnb_load(void *state, const tl_store *s, tl_err *err)
{
    gnb *g = state;
    tl_gnb_clear_fit(g);
    long k, p;
    if (tl_store_int(s, "state.classes", &k, err) || tl_store_int(s, "state.attributes", &p, err))
        return TL_EPARSE;
    if (k < 1 || p < 0)
        return tl_err_set(err, TL_EPARSE, "gaussian_nb: bad sizes %ld classes, %ld attributes", k,
                          p);
    size_t n_prior, n_kinds; /* before allocating: damaged sizes could ask for any amount */
    if (tl_store_len(s, "state.prior", &n_prior, err) ||
        tl_store_len(s, "state.kinds", &n_kinds, err))
        return TL_EPARSE;
    if (n_prior != (size_t)k || n_kinds != (size_t)p)
        return tl_err_set(err, TL_EPARSE,
                          "model file: gaussian_nb: %ld classes and %ld attributes "
                          "do not fit state.prior (%zu values) and state.kinds (%zu values)",
                          k, p, n_prior, n_kinds);
    g->k = (size_t)k;
    g->p = (size_t)p;
    g->kind = calloc(g->p ? g->p : 1, sizeof *g->kind);
    g->n_levels = calloc(g->p ? g->p : 1, sizeof *g->n_levels);
    if (!g->kind || !g->n_levels)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    if (tl_store_int_array(s, "state.kinds", g->kind, g->p, err) ||
        tl_store_int_array(s, "state.levels", g->n_levels, g->p, err))
        return TL_EPARSE;
    for (size_t j = 0; j < g->p; j++)
        if (g->n_levels[j] < 0 || (g->kind[j] == TL_ATTR_NOMINAL) != (g->n_levels[j] > 0))
            return tl_err_set(err, TL_EPARSE, "gaussian_nb: attribute %zu has a bad layout", j + 1);
    int rc = tl_gnb_alloc_fit(g, err);
    if (rc)
        return rc;
    if (tl_store_double(s, "state.epsilon", &g->epsilon, err) ||
        tl_store_doubles(s, "state.prior", g->prior, g->k, err) ||
        tl_store_doubles(s, "state.mean", g->mean, g->k * g->p, err) ||
        tl_store_doubles(s, "state.var", g->var, g->k * g->p, err) ||
        tl_store_doubles(s, "state.level_prob", g->level_prob, g->k * g->n_lev_total, err))
        return TL_EPARSE;
    tl_gnb_derive(g);
    return TL_OK;
}

int tl_gnb_show(const void *state, const tl_schema *schema, tl_show_format fmt, FILE *f,
                tl_err *err)
{
    const gnb *g = state;
    if (fmt != TL_SHOW_TEXT)
        return tl_err_set(err, TL_EUNSUPPORTED, "gaussian_nb can only be shown as text");
    if (schema->n_attrs != g->p || schema->target.n_levels != g->k)
        return tl_err_set(err, TL_EINVAL, "gaussian_nb: the schema does not fit the model");
    fprintf(f, "Gaussian naive Bayes: %zu classes, %zu attributes, variance epsilon %.6g\n", g->k,
            g->p, g->epsilon);
    for (size_t c = 0; c < g->k; c++) {
        fprintf(f, "class %s: prior %.6f\n", schema->target.levels[c], g->prior[c]);
        for (size_t j = 0; j < g->p; j++) {
            const tl_attr_info *a = &schema->attrs[j];
            if (g->kind[j] == TL_ATTR_NUMERIC) {
                fprintf(f, "  %s: mean %.6g sd %.6g\n", a->name, g->mean[c * g->p + j],
                        sqrt(g->var[c * g->p + j]));
                continue;
            }
            fprintf(f, "  %s:", a->name);
            for (size_t l = 0; l < (size_t)g->n_levels[j]; l++)
                fprintf(f, "%s %s %.6f", l ? "," : "", a->levels[l],
                        g->level_prob[c * g->n_lev_total + g->lev_off[j] + l]);
            fputc('\n', f);
        }
    }
    return TL_OK;
}

/* The layout read from a model file against its schema, and the numbers it will take
 * logarithms of: predict and show index the schema's levels with it. */
int tl_gnb_check(const void *state, const tl_schema *schema, tl_err *err)
{
    const gnb *g = state;
    if (schema->n_attrs != g->p || schema->target.n_levels != g->k)
        return tl_err_set(err, TL_EPARSE,
                          "model file: gaussian_nb has %zu classes and %zu "
                          "attributes; the schema has %zu and %zu",
                          g->k, g->p, schema->target.n_levels, schema->n_attrs);
    for (size_t j = 0; j < g->p; j++) {
        const tl_attr_info *a = &schema->attrs[j];
        size_t nl = a->kind == TL_ATTR_NOMINAL ? a->n_levels : 0;
        if (g->kind[j] != (int)a->kind || (size_t)g->n_levels[j] != nl)
            return tl_err_set(err, TL_EPARSE,
                              "model file: gaussian_nb's attribute %zu (kinds, "
                              "levels) does not fit '%s' in the schema",
                              j + 1, a->name);
    }
    const struct {
        const char *name;
        const double *v;
        size_t n;
    } arr[] = {
        {"prior", g->prior, g->k},
        {"var", g->var, g->k * g->p},
        {"level_prob", g->level_prob, g->k * g->n_lev_total},
        {"mean", g->mean, g->k * g->p},
    };
    for (size_t a = 0; a < sizeof arr / sizeof arr[0]; a++)
        for (size_t i = 0; i < arr[a].n; i++)
            if (!isfinite(arr[a].v[i]) || (a < 3 && arr[a].v[i] < 0))
                return tl_err_set(err, TL_EPARSE,
                                  "model file: state.%s[%zu] = %g; expected a "
                                  "finite%s number",
                                  arr[a].name, i, arr[a].v[i], a < 3 ? " non-negative" : "");
    /* fit floors every variance at DBL_MIN (a zero one makes 0/0 of a value at the mean),
     * and its priors are shares: a row every class finds impossible gets them as they are */
    for (size_t i = 0; i < g->k * g->p; i++)
        if (g->kind[i % g->p] == TL_ATTR_NUMERIC && !(g->var[i] > 0))
            return tl_err_set(err, TL_EPARSE,
                              "model file: state.var[%zu] = %g; expected a "
                              "positive number",
                              i, g->var[i]);
    double sum = 0;
    for (size_t c = 0; c < g->k; c++)
        sum += g->prior[c];
    if (!(fabs(sum - 1) <= 1e-6))
        return tl_err_set(err, TL_EPARSE, "model file: state.prior sums to %.17g; expected 1", sum);
    return TL_OK;
}
