/* Distillation (Frosst and Hinton 2017): a teacher, any treelab learner, fitted on the soft
 * tree's training rows; its class probabilities at a temperature (or its values) become the
 * tree's targets, and its agreement with the tree on other rows is the tree's fidelity. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "soft_tree_impl.h"

int st_teacher_spec(const tl_params *p, const char **name, tl_params *tp, tl_err *err)
{
    const char *t = tl_params_find(p, "teacher"), *alias = tl_params_find(p, "teacher.algorithm");
    tl_params_init(tp);
    *name = NULL;
    if (t && alias && strcmp(t, alias))
        return tl_err_set(err, TL_EINVAL, "teacher = %s and teacher.algorithm = %s disagree", t,
                          alias);
    t = alias ? alias : t;
    if (!t || !strcmp(t, "none")) {
        for (size_t i = 0; p && i < p->n; i++)
            if (!strncmp(p->keys[i], "teacher.", 8))
                return tl_err_set(err, TL_EINVAL,
                                  "%s without a teacher: set teacher = NAME (or "
                                  "teacher.algorithm) first",
                                  p->keys[i]);
        return TL_OK;
    }
    *name = t;
    for (size_t i = 0; p && i < p->n; i++)
        if (!strncmp(p->keys[i], "teacher.", 8) && strcmp(p->keys[i], "teacher.algorithm") &&
            tl_params_set(tp, p->keys[i] + 8, p->values[i], err)) {
            tl_params_clear(tp);
            return TL_ENOMEM;
        }
    return TL_OK;
}

int st_teacher_check(const tl_params *p, tl_err *err)
{
    const char *name;
    tl_params tp;
    int rc = st_teacher_spec(p, &name, &tp, err);
    if (rc || !name)
        return rc;
    const tl_model_type *type = tl_model_find(name, err);
    const char *prec = tl_params_find(p, "precision");
    if (!type)
        rc = TL_EINVAL, tl_err_prefix(err, "teacher: ");
    else if ((rc = tl_model_check_params(type, &tp, err)))
        tl_err_prefix(err, "teacher %s: ", name);
    else if (prec && !strcmp(prec, "float"))
        rc = tl_err_set(err, TL_EINVAL,
                        "precision = float with a teacher: the teacher's soft targets are read "
                        "by the double-precision row passes only; use precision = double");
    tl_params_clear(&tp);
    return rc;
}

int st_teacher_targets(const tl_params *p, double temperature, const tl_dataset *d,
                       const size_t *rows, size_t n, const tl_fit_ctx *ctx, st_encoded *e,
                       double y_mean, double y_sd, tl_model **teacher, tl_err *err)
{
    const char *name;
    tl_params tp;
    *teacher = NULL;
    int rc = st_teacher_spec(p, &name, &tp, err);
    if (rc || !name)
        return rc;
    int regression = !tl_dataset_is_classification(d);
    size_t K = regression ? 1 : tl_dataset_n_classes(d);
    tl_fit_ctx tc = {.seed = ctx->seed, .jobs = ctx->jobs};
    double *q = malloc((n ? n : 1) * K * sizeof *q);
    tl_model *t = tl_model_new(name, &tp, err);
    tl_params_clear(&tp);
    if (!q || !t)
        rc = t ? tl_err_set(err, TL_ENOMEM, "out of memory") : TL_EINVAL;
    if (!rc && ((rc = tl_model_fit(t, d, rows, n, &tc, err)) ||
                (rc = tl_model_predict(t, d, rows, n, q, err))))
        tl_err_prefix(err, "teacher %s: ", name);
    if (rc) {
        free(q);
        tl_model_free(t);
        return rc;
    }
    if (regression) { /* its values, standardised as the tree's targets */
        for (size_t i = 0; i < n; i++)
            e->y[i] = (q[i] - y_mean) / y_sd;
        free(q);
    } else { /* p^(1 / T), normalised: T > 1 softens, T < 1 sharpens */
        for (size_t i = 0; i < n; i++) {
            double *r = q + i * K, s = 0;
            for (size_t c = 0; c < K; c++)
                s += (r[c] = temperature == 1 ? r[c] : pow(r[c], 1 / temperature));
            for (size_t c = 0; c < K && s > 0; c++)
                r[c] /= s;
        }
        e->q = q;
        e->data.q = q;
    }
    *teacher = t;
    return TL_OK;
}
