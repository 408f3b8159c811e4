/* Experiment files: a model's nested selection (`select`): its grid, objective and inner
 * protocol, and the helpers that turn a candidate's index into parameter values. */
#include "config_util.h"

#include <stdlib.h>
#include <string.h>

void tl_exp_select_candidate(const tl_exp_select *s, size_t index, size_t *value_ix)
{
    /* mixed radix, the last parameter varying fastest */
    for (size_t p = s->n_params; p-- > 0;) {
        value_ix[p] = index % s->n_values[p];
        index /= s->n_values[p];
    }
}

int tl_exp_select_apply(const tl_exp_select *s, size_t index, tl_params *p, tl_err *err)
{
    int rc = TL_OK;
    for (size_t q = s->n_params; q-- > 0 && !rc;) {
        rc = tl_params_set(p, s->params[q], s->values[q][index % s->n_values[q]], err);
        index /= s->n_values[q];
    }
    return rc;
}

void tl_exp_select_clear(tl_exp_select *s)
{
    for (size_t p = 0; p < s->n_params; p++) {
        free(s->params ? s->params[p] : NULL);
        if (s->values && s->n_values)
            tl_cfg_strv_free(s->values[p], s->n_values[p]);
    }
    free(s->params);
    free(s->values);
    free(s->n_values);
    memset(s, 0, sizeof *s);
}

void tl_exp_select_describe(const tl_exp_select *s, int has_valid, char *buf, size_t size)
{
    const char *obj = s->objective ? s->objective->name : "accuracy (mse for regression)";
    if (s->inner == TL_INNER_HOLDOUT)
        snprintf(buf, size, "%s on a %g hold-out of the training rows x %zu", obj, s->fraction,
                 s->repeats);
    else if (s->inner == TL_INNER_AUTO && has_valid == 1)
        snprintf(buf, size, "%s on the protocol's validation rows", obj);
    else if (s->inner == TL_INNER_AUTO && has_valid)
        snprintf(buf, size,
                 "%s on the protocol's validation rows where a dataset has them, "
                 "else by %zu-fold inner CV x %zu",
                 obj, s->folds, s->repeats);
    else
        snprintf(buf, size, "%s by %zu-fold inner CV x %zu", obj, s->folds, s->repeats);
}

/* The setting of group ps that fixes parameter key ("max_depth", "pruner" given as a string
 * or as `pruner = { name = ...; }`, "pruner.confidence"), or NULL. */
static const config_setting_t *fixed_at(const config_setting_t *ps, const char *key)
{
    if (!ps)
        return NULL;
    const char *dot = strchr(key, '.');
    char head[256];
    snprintf(head, sizeof head, "%.*s", (int)(dot ? (size_t)(dot - key) : strlen(key)), key);
    const config_setting_t *e = config_setting_get_member(ps, head);
    int group = e && config_setting_type(e) == CONFIG_TYPE_GROUP;
    if (dot)
        return group ? config_setting_get_member(e, dot + 1) : NULL;
    return group ? config_setting_get_member(e, "name") : e;
}

/* D14: a parameter both fixed in `params` and selected would be overridden silently. */
static int check_not_fixed(const tl_cfg_ctx *c, const config_setting_t *model,
                           const config_setting_t *sel, const tl_exp_model *m)
{
    const config_setting_t *ps = config_setting_get_member(model, "params");
    for (size_t p = 0; p < m->select.n_params; p++) {
        const config_setting_t *f = fixed_at(ps, m->select.params[p]);
        if (f)
            return tl_err_set(c->err, TL_EINVAL,
                              "%s:%d: model '%s': parameter '%s' is both "
                              "fixed in params (%s:%d) and selected (%s:%d); remove one",
                              c->file, config_setting_source_line(sel), m->name,
                              m->select.params[p], c->file, config_setting_source_line(f), c->file,
                              config_setting_source_line(sel));
    }
    return TL_OK;
}

/* The grid: `param` + `values` (one parameter) or `params = { ... }` (several). */
static int read_grid(const tl_cfg_ctx *c, const config_setting_t *s, tl_exp_model *m)
{
    tl_exp_select *sel = &m->select;
    const config_setting_t *ps = config_setting_get_member(s, "params");
    const config_setting_t *p1 = config_setting_get_member(s, "param");
    if (ps && p1)
        return tl_cfg_fail(c, ps, "give either `param` and `values` or `params`, not both");
    size_t max = ps && config_setting_type(ps) == CONFIG_TYPE_GROUP ? 16 : 1;
    sel->params = calloc(max, sizeof *sel->params);
    sel->values = calloc(max, sizeof *sel->values);
    sel->n_values = calloc(max, sizeof *sel->n_values);
    if (!sel->params || !sel->values || !sel->n_values)
        return tl_err_set(c->err, TL_ENOMEM, "out of memory");
    int rc;
    if (ps) {
        rc = tl_cfg_sweep(c, ps, m, max, sel->params, sel->values, sel->n_values, &sel->n_params);
        if (rc && sel->n_params > max) /* nothing was allocated for them */
            sel->n_params = 0;
    } else {
        const char *param = NULL;
        const config_setting_t *vs = config_setting_get_member(s, "values");
        if ((rc = tl_cfg_string(c, s, "param", 1, &param)))
            return rc;
        if (!vs)
            return tl_cfg_fail(c, s, "missing required key 'values' (or give `params`)");
        if (!(sel->params[0] = tl_cfg_strdup(param)))
            return tl_err_set(c->err, TL_ENOMEM, "out of memory");
        sel->n_params = 1;
        if (!(rc = tl_cfg_values(c, vs, &sel->values[0], &sel->n_values[0])))
            /* every candidate must be valid before any work starts */
            rc = tl_cfg_check_values(c, vs, m, param, sel->values[0], sel->n_values[0]);
    }
    sel->n_candidates = 1;
    for (size_t p = 0; !rc && p < sel->n_params; p++) {
        for (size_t q = 0; q < p; q++)
            if (!strcmp(sel->params[p], sel->params[q]))
                return tl_cfg_fail(c, ps, "parameter '%s' is listed twice", sel->params[p]);
        if (sel->n_candidates > 100000 / sel->n_values[p])
            return tl_cfg_fail(c, ps ? ps : s, "more than 100000 candidates");
        sel->n_candidates *= sel->n_values[p];
    }
    return rc;
}

/* objective, inner, folds, repeats, fraction. */
static int read_inner(const tl_cfg_ctx *c, const config_setting_t *s, tl_exp_select *sel)
{
    const char *objective = NULL, *inner = "auto";
    long folds = 3, repeats = 1;
    double fraction = 0.25;
    int rc;
    if ((rc = tl_cfg_string(c, s, "objective", 0, &objective)) ||
        (rc = tl_cfg_string(c, s, "inner", 0, &inner)) ||
        (rc = tl_cfg_long(c, s, "folds", 0, 2, 100, &folds)) ||
        (rc = tl_cfg_long(c, s, "repeats", 0, 1, 100, &repeats)) ||
        (rc = tl_cfg_double(c, s, "fraction", 0, 0.01, 0.99, &fraction)))
        return rc;
    tl_err e;
    if (objective && !(sel->objective = tl_metric_find(objective, &e)))
        return tl_cfg_fail(c, config_setting_get_member(s, "objective"), "%s", e.msg);
    if (!strcmp(inner, "auto"))
        sel->inner = TL_INNER_AUTO;
    else if (!strcmp(inner, "cv"))
        sel->inner = TL_INNER_CV;
    else if (!strcmp(inner, "holdout"))
        sel->inner = TL_INNER_HOLDOUT;
    else
        return tl_cfg_fail(c, config_setting_get_member(s, "inner"),
                           "unknown inner protocol "
                           "'%s'; valid: auto, cv, holdout",
                           inner);
    const config_setting_t *f = config_setting_get_member(s, "folds");
    const config_setting_t *fr = config_setting_get_member(s, "fraction");
    if (f && sel->inner == TL_INNER_HOLDOUT)
        return tl_cfg_fail(c, f, "folds is for inner = \"cv\" (a hold-out takes `fraction`)");
    if (fr && sel->inner != TL_INNER_HOLDOUT)
        return tl_cfg_fail(c, fr, "fraction is for inner = \"holdout\"");
    sel->folds = (size_t)folds;
    sel->repeats = (size_t)repeats;
    sel->fraction = fraction;
    return TL_OK;
}

int tl_cfg_read_select(const tl_cfg_ctx *c, const config_setting_t *model,
                       const config_setting_t *s, tl_exp_model *m)
{
    int rc;
    m->select.line = config_setting_source_line(s);
    if (config_setting_type(s) != CONFIG_TYPE_GROUP)
        return tl_cfg_fail(c, s, "expected a group { params = { name = [...]; }; ... }");
    if ((rc = tl_cfg_check_keys(c, s,
                                "param|values|params|objective|inner|folds|repeats|"
                                "fraction")) ||
        (rc = read_grid(c, s, m)) || (rc = read_inner(c, s, &m->select)))
        return rc;
    return check_not_fixed(c, model, s, m);
}
