/* A model's parameter values in an experiment file: each checked against its learner's table
 * at the setting's line, and the swept `params` groups that grids and selections share (both
 * config_models.c and config_select.c build on this file). */
#include "config_util.h"

#include <stdlib.h>
#include <string.h>

int tl_cfg_check_model(const tl_cfg_ctx *c, const config_setting_t *s, const tl_exp_model *m)
{
    tl_err e;
    tl_err_clear(&e);
    int rc = tl_model_check_params(m->type, &m->params, &e);
    if (rc == TL_OK)
        return TL_OK;
    if (!tl_err_is_user(rc)) { /* out of memory says nothing about the config */
        if (c->err)
            *c->err = e;
        return rc;
    }
    return tl_cfg_fail(c, s, "model '%s' (%s): %s", m->name, m->type->name, e.msg);
}

int tl_cfg_values(const tl_cfg_ctx *c, const config_setting_t *s, char ***out, size_t *n)
{
    int t = config_setting_type(s);
    size_t len = (size_t)config_setting_length(s);
    if ((t != CONFIG_TYPE_ARRAY && t != CONFIG_TYPE_LIST) || len == 0)
        return tl_cfg_fail(c, s, "expected a non-empty array of values [v1, v2, ...]");
    char **v = calloc(len, sizeof *v);
    if (!v)
        return tl_err_set(c->err, TL_ENOMEM, "out of memory");
    *out = v;
    *n = len;
    for (size_t i = 0; i < len; i++) {
        char text[256];
        int rc = tl_cfg_scalar_text(c, config_setting_get_elem(s, (unsigned)i), text, sizeof text);
        if (rc)
            return rc;
        if (!(v[i] = tl_cfg_strdup(text)))
            return tl_err_set(c->err, TL_ENOMEM, "out of memory");
    }
    return TL_OK;
}

int tl_cfg_check_values(const tl_cfg_ctx *c, const config_setting_t *at, const tl_exp_model *base,
                        const char *param, char *const *values, size_t n)
{
    tl_exp_model probe = *base;
    tl_params_init(&probe.params);
    int rc = tl_params_copy(&probe.params, &base->params, c->err);
    for (size_t i = 0; !rc && i < n; i++)
        if (!(rc = tl_params_set(&probe.params, param, values[i], c->err)))
            rc = tl_cfg_check_model(c, at, &probe);
    tl_params_clear(&probe.params);
    return rc;
}

/* Swept parameters of group ps, as the grid's and the select's `params` give them. */
static size_t count_swept(const config_setting_t *ps)
{
    size_t n = 0;
    for (int i = 0; i < config_setting_length(ps); i++) {
        const config_setting_t *e = config_setting_get_elem(ps, (unsigned)i);
        n += config_setting_type(e) == CONFIG_TYPE_GROUP ? (size_t)config_setting_length(e) : 1;
    }
    return n;
}

int tl_cfg_sweep(const tl_cfg_ctx *c, const config_setting_t *ps, const tl_exp_model *base,
                 size_t max, char **names, char ***values, size_t *n_values, size_t *n)
{
    *n = config_setting_type(ps) == CONFIG_TYPE_GROUP ? count_swept(ps) : 0;
    if (*n < 1 || *n > max)
        return tl_cfg_fail(c, ps,
                           "expected a group of 1 to %zu parameters "
                           "{ name = [v1, v2, ...]; slot = { param = [...]; }; }",
                           max);
    size_t k = 0;
    for (int i = 0; i < config_setting_length(ps); i++) {
        const config_setting_t *e = config_setting_get_elem(ps, (unsigned)i);
        /* a plug-in's parameters: `pruner = { confidence = [...]; }` sweeps pruner.confidence */
        int group = config_setting_type(e) == CONFIG_TYPE_GROUP;
        for (int j = 0; j < (group ? config_setting_length(e) : 1); j++) {
            const config_setting_t *v = group ? config_setting_get_elem(e, (unsigned)j) : e;
            char name[256];
            if (group && config_setting_type(v) == CONFIG_TYPE_GROUP)
                return tl_cfg_fail(c, v,
                                   "expected [v1, v2, ...]: a plug-in's parameters "
                                   "nest one level only");
            if (group)
                snprintf(name, sizeof name, "%s.%s", config_setting_name(e),
                         config_setting_name(v));
            else
                snprintf(name, sizeof name, "%s", config_setting_name(e));
            if (!(names[k] = tl_cfg_strdup(name)))
                return tl_err_set(c->err, TL_ENOMEM, "out of memory");
            int rc = tl_cfg_values(c, v, &values[k], &n_values[k]);
            if (rc || (rc = tl_cfg_check_values(c, v, base, names[k], values[k], n_values[k])))
                return rc;
            k++;
        }
    }
    return TL_OK;
}
