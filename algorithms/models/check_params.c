/* Every problem with a learner's parameters before any work (tl_check_params), not only the
 * first one its check meets. */
#include "treelab/tl_model.h"

#include <string.h>

/* The learner's own check of a whole parameter set. */
static int check_once(const tl_model_type *type, const tl_params *params, tl_err *err)
{
    return type->check_params ? type->check_params(params, err)
                              : tl_params_check(type->params, params, err);
}

/* Key i of p goes into the trial set: it is tried in pass 0 when it names a slot or a plain
 * parameter (no '.'), in pass 1 when it is a slot's parameter (SLOT.PARAM needs its slot). */
static int in_pass(const tl_params *p, size_t i, int pass)
{
    return (strchr(p->keys[i], '.') != NULL) == pass;
}

int tl_check_params(const tl_model_type *type, const tl_params *params, tl_problems *out,
                    tl_err *err)
{
    tl_problems_init(out);
    tl_err e;
    tl_err_clear(&e);
    tl_params none, ok;
    tl_params_init(&none);
    if (!params)
        params = &none;
    int rc = check_once(type, params, &e);
    if (rc == TL_OK || !tl_err_is_user(rc)) {
        if (rc && err)
            *err = e;
        return rc;
    }
    tl_params_init(&ok);
    rc = TL_OK;
    for (int pass = 0; pass < 2 && !rc; pass++)
        for (size_t i = 0; i < params->n && !rc; i++) {
            if (!in_pass(params, i, pass))
                continue;
            tl_params trial;
            tl_params_init(&trial);
            tl_err one;
            tl_err_clear(&one);
            int r = tl_params_copy(&trial, &ok, err);
            if (!r)
                r = tl_params_set(&trial, params->keys[i], params->values[i], err);
            if (!r && (r = check_once(type, &trial, &one)) && !tl_err_is_user(r) && err)
                *err = one;
            if (r == TL_OK) { /* accepted: the next keys are checked with it */
                tl_params_clear(&ok);
                ok = trial;
                continue;
            }
            tl_params_clear(&trial);
            rc = tl_err_is_user(r) ? tl_problems_add(out, one.msg, err) : r;
        }
    /* a problem only the whole set shows (keys fine one by one, wrong together) */
    if (!rc && out->n == 0)
        rc = tl_problems_add(out, e.msg, err);
    tl_params_clear(&ok);
    if (rc) {
        tl_problems_clear(out);
        return rc;
    }
    char msg[TL_ERR_MSG_MAX];
    tl_problems_join(out, msg, sizeof msg);
    return tl_err_set(err, TL_EINVAL, "%s", msg);
}

int tl_model_check_params(const tl_model_type *type, const tl_params *params, tl_err *err)
{
    tl_problems all;
    int rc = tl_check_params(type, params, &all, err);
    tl_problems_clear(&all);
    return rc;
}
