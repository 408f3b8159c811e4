/* Experiment files: the models list and parameter grids (select: config_select.c, values:
 * config_values.c). */
#include "config_util.h"

#include <stdlib.h>
#include <string.h>

#include "treelab/tl_text.h"

static int find_type(const tl_cfg_ctx *c, const config_setting_t *s, const char *algo,
                     const tl_model_type **out)
{
    for (size_t i = 0; c->extra && c->extra[i]; i++)
        if (!strcmp(c->extra[i]->name, algo)) {
            *out = c->extra[i];
            return TL_OK;
        }
    tl_err e;
    tl_err_clear(&e);
    if ((*out = tl_model_find(algo, &e)))
        return TL_OK;
    char extra[200] = "";
    for (size_t i = 0, used = 0; c->extra && c->extra[i] && used < sizeof extra; i++)
        used += (size_t)snprintf(extra + used, sizeof extra - used, ", %s", c->extra[i]->name);
    return tl_cfg_fail(c, s, "%s%s", e.msg, extra);
}

/* Parameters as text from the scalar settings of group g (any scalar type). A group inside
 * names a plug-in slot and its own parameters, `pruner = { name = "error_based";
 * confidence = 0.1; }`, read as pruner = error_based, pruner.confidence = 0.1 (libconfig names
 * cannot hold the dot of SLOT.PARAM). */
static int read_params_at(const tl_cfg_ctx *c, const config_setting_t *g, const char *prefix,
                          tl_params *p)
{
    if (config_setting_type(g) != CONFIG_TYPE_GROUP)
        return tl_cfg_fail(c, g, "expected a group { name = value; ... }");
    for (int i = 0; i < config_setting_length(g); i++) {
        const config_setting_t *e = config_setting_get_elem(g, (unsigned)i);
        const char *name = config_setting_name(e);
        char key[256], text[256];
        int rc;
        if (config_setting_type(e) == CONFIG_TYPE_GROUP) {
            if (*prefix)
                return tl_cfg_fail(c, e,
                                   "expected a value: a plug-in's parameters nest one "
                                   "level only");
            snprintf(key, sizeof key, "%s.", name);
            rc = read_params_at(c, e, key, p);
        } else {
            if (*prefix && !strcmp(name, "name"))
                snprintf(key, sizeof key, "%.*s", (int)strlen(prefix) - 1, prefix);
            else
                snprintf(key, sizeof key, "%s%s", prefix, name);
            rc = tl_cfg_scalar_text(c, e, text, sizeof text);
            if (!rc)
                rc = tl_params_set(p, key, text, c->err);
        }
        if (rc)
            return rc;
    }
    return TL_OK;
}

static int read_params(const tl_cfg_ctx *c, const config_setting_t *g, tl_params *p)
{
    return read_params_at(c, g, "", p);
}

/* class_weight = "balanced"; or "a=2,b=1"; or { a = 2.0; b = 1.0; } into m->class_weight as
 * text (checked against each dataset's classes when a cell fits). */
static int read_class_weight(const tl_cfg_ctx *c, const config_setting_t *s, tl_exp_model *m)
{
    char text[1024] = "";
    size_t used = 0;
    if (config_setting_type(s) == CONFIG_TYPE_STRING) {
        snprintf(text, sizeof text, "%s", config_setting_get_string(s));
    } else if (config_setting_type(s) == CONFIG_TYPE_GROUP) {
        for (int i = 0; i < config_setting_length(s); i++) {
            const config_setting_t *e = config_setting_get_elem(s, (unsigned)i);
            int t = config_setting_type(e);
            if (t != CONFIG_TYPE_FLOAT && t != CONFIG_TYPE_INT && t != CONFIG_TYPE_INT64)
                return tl_cfg_fail(c, e, "class_weight: expected a number for class '%s'",
                                   config_setting_name(e));
            double w = t == CONFIG_TYPE_FLOAT ? config_setting_get_float(e)
                                              : (double)config_setting_get_int64(e);
            used += (size_t)snprintf(text + used, used < sizeof text ? sizeof text - used : 0,
                                     "%s%s=%.17g", i ? "," : "", config_setting_name(e), w);
        }
    }
    if (!text[0] || used >= sizeof text)
        return tl_cfg_fail(
            c, s, "class_weight: expected \"balanced\" or a group { CLASS = WEIGHT; ... }");
    if (!(m->class_weight = tl_cfg_strdup(text)))
        return tl_err_set(c->err, TL_ENOMEM, "out of memory");
    return TL_OK;
}

static int read_model(const tl_cfg_ctx *c, const config_setting_t *e, tl_exp_model *m)
{
    const char *name = NULL, *algo = NULL;
    int rc;
    m->line = config_setting_source_line(e);
    if (config_setting_type(e) != CONFIG_TYPE_GROUP)
        return tl_cfg_fail(c, e, "expected a group { name = ...; algorithm = ...; }");
    if ((rc = tl_cfg_check_keys(c, e, "name|algorithm|params|select|class_weight")) ||
        (rc = tl_cfg_string(c, e, "algorithm", 1, &algo)) ||
        (rc = tl_cfg_string(c, e, "name", 0, &name)))
        return rc;
    if ((rc = find_type(c, config_setting_get_member(e, "algorithm"), algo, &m->type)))
        return rc;
    if (!(m->name = tl_cfg_strdup(name ? name : algo)))
        return tl_err_set(c->err, TL_ENOMEM, "out of memory");
    if (!m->name[0] || strchr(m->name, '/'))
        return tl_cfg_fail(c, e, "model name '%s' must be non-empty without '/'", m->name);
    const config_setting_t *ps = config_setting_get_member(e, "params");
    if (ps && (rc = read_params(c, ps, &m->params)))
        return rc;
    const config_setting_t *cw = config_setting_get_member(e, "class_weight");
    if (cw && (rc = read_class_weight(c, cw, m)))
        return rc;
    if ((rc = tl_cfg_check_model(c, ps ? ps : e, m)))
        return rc;
    const config_setting_t *sel = config_setting_get_member(e, "select");
    return sel ? tl_cfg_read_select(c, e, sel, m) : TL_OK;
}

/* Append a copy of base with params[key[i]] = value[i] for i < n (1 or 2), named
 * "base[key=value]" or "base[key1=value1][key2=value2]". */
static int add_grid_model(const tl_cfg_ctx *c, const config_setting_t *s, tl_experiment *x,
                          size_t base, char *const *key, const char *const *value, size_t n)
{
    tl_exp_model *ms = x->models; /* room was made by read_grid */
    tl_exp_model *b = &ms[base], *m = &ms[x->n_models];
    memset(m, 0, sizeof *m);
    x->n_models++;
    m->type = b->type;
    m->line = config_setting_source_line(s);
    size_t len = strlen(b->name) + 1;
    for (size_t i = 0; i < n; i++)
        len += strlen(key[i]) + strlen(value[i]) + 3;
    if (!(m->name = malloc(len)))
        return tl_err_set(c->err, TL_ENOMEM, "out of memory");
    size_t used = (size_t)snprintf(m->name, len, "%s", b->name);
    for (size_t i = 0; i < n; i++)
        used += (size_t)snprintf(m->name + used, len - used, "[%s=%s]", key[i], value[i]);
    /* a made name names files as a given one does: the same rules, checked before any work */
    if (strchr(m->name, '/') || tl_text_ctrl(m->name) >= 0)
        return tl_cfg_fail(c, s,
                           "the grid's model name '%s' (the model's name and a swept value) "
                           "must be without '/' or control characters; it names the model's "
                           "files",
                           m->name);
    int rc = tl_params_copy(&m->params, &b->params, c->err);
    if (!rc && b->class_weight && !(m->class_weight = tl_cfg_strdup(b->class_weight)))
        rc = tl_err_set(c->err, TL_ENOMEM, "out of memory");
    for (size_t i = 0; !rc && i < n; i++)
        rc = tl_params_set(&m->params, key[i], value[i], c->err);
    return rc ? rc : tl_cfg_check_model(c, s, m);
}

/* The swept parameters: `param` + `values`, or a group `params = { p1 = [...]; p2 = [...]; }`
 * of one or two parameters. Fills g->param, g->values, g->n_values. */
static int read_grid_params(const tl_cfg_ctx *c, const config_setting_t *g,
                            const tl_exp_model *base, tl_exp_grid *gr)
{
    const config_setting_t *ps = config_setting_get_member(g, "params");
    const config_setting_t *p1 = config_setting_get_member(g, "param");
    gr->n_values[1] = 1;
    if (ps && p1)
        return tl_cfg_fail(c, ps, "give either `param` and `values` or `params`, not both");
    if (!ps) {
        const char *param = NULL;
        int rc = tl_cfg_string(c, g, "param", 1, &param);
        if (rc)
            return rc;
        const config_setting_t *vs = config_setting_get_member(g, "values");
        if (!vs)
            return tl_cfg_fail(c, g, "missing required key 'values'");
        if (!(gr->param[0] = tl_cfg_strdup(param)))
            return tl_err_set(c->err, TL_ENOMEM, "out of memory");
        return tl_cfg_values(c, vs, &gr->values[0], &gr->n_values[0]);
    }
    size_t n = 0;
    int rc = tl_cfg_sweep(c, ps, base, 2, gr->param, gr->values, gr->n_values, &n);
    if (rc == TL_EINVAL && (n < 1 || n > 2))
        return tl_cfg_fail(c, ps,
                           "expected a group of one or two parameters "
                           "{ name = [v1, v2, ...]; name2 = [...]; }");
    return rc;
}

static int read_grid(const tl_cfg_ctx *c, const config_setting_t *g, tl_experiment *x)
{
    const char *model = NULL;
    int rc;
    if (config_setting_type(g) != CONFIG_TYPE_GROUP)
        return tl_cfg_fail(c, g, "expected a group { model = ...; param = ...; values = [...]; }");
    if ((rc = tl_cfg_check_keys(c, g, "model|param|values|params")) ||
        (rc = tl_cfg_string(c, g, "model", 1, &model)))
        return rc;
    size_t base = 0;
    while (base < x->n_models && strcmp(x->models[base].name, model))
        base++;
    if (base == x->n_models || x->models[base].grid)
        return tl_cfg_fail(c, config_setting_get_member(g, "model"),
                           "no model named '%s' (a grid sweeps a parameter of a listed model)",
                           model);
    tl_exp_grid *gs = realloc(x->grids, (x->n_grids + 1) * sizeof *gs);
    if (!gs)
        return tl_err_set(c->err, TL_ENOMEM, "out of memory");
    x->grids = gs;
    tl_exp_grid *gr = &gs[x->n_grids++];
    memset(gr, 0, sizeof *gr);
    gr->base = base;
    gr->first = x->n_models;
    if ((rc = read_grid_params(c, g, &x->models[base], gr)))
        return rc;
    size_t add = gr->n_values[0] * gr->n_values[1];
    if (add > TL_MAX_MODELS - x->n_models)
        return tl_cfg_fail(c, g,
                           "the grid makes %zu models, %zu in all with those before it: more "
                           "than the %d models an experiment may have (each is fitted on every "
                           "fold of every dataset); sweep fewer values",
                           add, x->n_models + add, TL_MAX_MODELS);
    tl_exp_model *ms = realloc(x->models, (x->n_models + add) * sizeof *ms);
    if (!ms)
        return tl_err_set(c->err, TL_ENOMEM, "out of memory");
    x->models = ms;
    const config_setting_t *at = config_setting_get_member(g, "params");
    if (!at)
        at = config_setting_get_member(g, "values");
    size_t np = gr->param[1] ? 2 : 1;
    for (size_t iy = 0; !rc && iy < gr->n_values[1]; iy++)
        for (size_t ix = 0; !rc && ix < gr->n_values[0]; ix++) {
            const char *v[2] = {gr->values[0][ix], np == 2 ? gr->values[1][iy] : NULL};
            if (!(rc = add_grid_model(c, at, x, base, gr->param, v, np))) {
                tl_exp_model *m = &x->models[x->n_models - 1];
                m->grid = x->n_grids, m->grid_ix = ix, m->grid_iy = iy;
            }
        }
    return rc;
}

static int by_name(const void *a, const void *b)
{
    const tl_exp_model *x = *(const tl_exp_model *const *)a, *y = *(const tl_exp_model *const *)b;
    int d = strcmp(x->name, y->name);
    return d ? d : (x > y) - (x < y); /* the earlier model first */
}

/* Every model name once, given or made by a grid: sorted, so a grid of 10^5 models loads in
 * linear-logarithmic time. */
static int check_unique_names(const tl_cfg_ctx *c, const tl_experiment *x)
{
    const tl_exp_model **s = malloc((x->n_models ? x->n_models : 1) * sizeof *s);
    if (!s)
        return tl_err_set(c->err, TL_ENOMEM, "out of memory");
    for (size_t i = 0; i < x->n_models; i++)
        s[i] = &x->models[i];
    qsort(s, x->n_models, sizeof *s, by_name);
    int rc = TL_OK;
    for (size_t i = 1; !rc && i < x->n_models; i++)
        if (!strcmp(s[i]->name, s[i - 1]->name))
            rc = tl_err_set(c->err, TL_EINVAL,
                            "%s:%d: model name '%s' is used twice (line %d); give one a `name`",
                            c->file, s[i]->line, s[i]->name, s[i - 1]->line);
    free(s);
    return rc;
}

int tl_cfg_read_models(const tl_cfg_ctx *c, const config_setting_t *models,
                       const config_setting_t *grids, tl_experiment *x)
{
    int t = config_setting_type(models);
    if (t != CONFIG_TYPE_LIST || config_setting_length(models) == 0)
        return tl_cfg_fail(c, models, "expected a non-empty list ( { ... }, ... ) of models");
    size_t n = (size_t)config_setting_length(models);
    if (!(x->models = calloc(n, sizeof *x->models)))
        return tl_err_set(c->err, TL_ENOMEM, "out of memory");
    /* every model is read, so that one error lists the problems of all of them */
    tl_problems bad;
    tl_problems_init(&bad);
    int rc = TL_OK;
    for (size_t i = 0; i < n && !rc; i++) {
        x->n_models = i + 1;
        tl_err e;
        tl_err_clear(&e);
        tl_cfg_ctx one = *c;
        one.err = &e;
        if ((rc = read_model(&one, config_setting_get_elem(models, (unsigned)i), &x->models[i])))
            rc = tl_err_is_user(rc) ? tl_problems_add(&bad, e.msg, c->err)
                                    : tl_err_set(c->err, rc, "%s", e.msg);
    }
    if (!rc && bad.n) { /* one FILE:LINE: message per line */
        char msg[TL_ERR_MSG_MAX] = "";
        for (size_t i = 0, used = 0; i < bad.n && used + 1 < sizeof msg; i++) {
            int w = snprintf(msg + used, sizeof msg - used, "%s%s", i ? "\n" : "", bad.msg[i]);
            used += w > 0 ? (size_t)w : 0;
        }
        rc = tl_err_set(c->err, TL_EINVAL, "%s", msg);
    }
    tl_problems_clear(&bad);
    if (rc)
        return rc;
    if (grids) {
        if (config_setting_type(grids) != CONFIG_TYPE_LIST)
            return tl_cfg_fail(c, grids, "expected a list ( { ... }, ... ) of grids");
        for (int i = 0; i < config_setting_length(grids); i++) {
            if ((rc = read_grid(c, config_setting_get_elem(grids, (unsigned)i), x)))
                return rc;
        }
    }
    return check_unique_names(c, x);
}
