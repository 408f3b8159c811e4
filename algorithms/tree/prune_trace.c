/* The record of the subtrees a pruner considered: what reports and figures read. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "treelab/tl_grow.h"

void tl_prune_trace_reset(tl_prune_trace *tr)
{
    tr->n = 0;
    tr->pruner = tr->param_name = tr->error_name = tr->risk_name = NULL;
    tr->chosen = tr->min_error = SIZE_MAX;
    tr->chosen_param = NAN;
}

void tl_prune_trace_free(tl_prune_trace *tr)
{
    if (!tr)
        return;
    free(tr->param);
    free(tr->leaves);
    free(tr->risk);
    free(tr->error);
    free(tr->se);
    memset(tr, 0, sizeof *tr);
    tl_prune_trace_reset(tr);
}

static int grow(double **a, size_t cap)
{
    double *n = realloc(*a, cap * sizeof *n);
    if (!n)
        return -1;
    *a = n;
    return 0;
}

int tl_prune_trace_add(tl_prune_trace *tr, double param, double leaves, double risk, double error,
                       double se, tl_err *err)
{
    if (tr->n == tr->cap) {
        size_t cap = tr->cap ? 2 * tr->cap : 16;
        if (grow(&tr->param, cap) || grow(&tr->leaves, cap) || grow(&tr->risk, cap) ||
            grow(&tr->error, cap) || grow(&tr->se, cap))
            return tl_err_set(err, TL_ENOMEM, "out of memory");
        tr->cap = cap;
    }
    tr->param[tr->n] = param;
    tr->leaves[tr->n] = leaves;
    tr->risk[tr->n] = risk;
    tr->error[tr->n] = error;
    tr->se[tr->n] = se;
    tr->n++;
    return TL_OK;
}

int tl_prune_trace_copy(tl_prune_trace *dst, const tl_prune_trace *src, tl_err *err)
{
    memset(dst, 0, sizeof *dst);
    tl_prune_trace_reset(dst);
    for (size_t i = 0; i < src->n; i++)
        if (tl_prune_trace_add(dst, src->param[i], src->leaves[i], src->risk[i], src->error[i],
                               src->se[i], err)) {
            tl_prune_trace_free(dst);
            return TL_ENOMEM;
        }
    dst->pruner = src->pruner;
    dst->param_name = src->param_name;
    dst->error_name = src->error_name;
    dst->risk_name = src->risk_name;
    dst->chosen = src->chosen;
    dst->min_error = src->min_error;
    dst->chosen_param = src->chosen_param;
    return TL_OK;
}

int tl_prune_trace_two(tl_prune_trace *tr, const char *param_name, double param, double before,
                       const tl_tree *t, tl_err *err)
{
    tr->param_name = param_name;
    int rc = tl_prune_trace_add(tr, 0, before, NAN, NAN, NAN, err);
    if (!rc)
        rc = tl_prune_trace_add(tr, param, (double)tl_tree_leaves(t, 0), NAN, NAN, NAN, err);
    tr->chosen = rc ? SIZE_MAX : tr->n - 1;
    tr->chosen_param = param;
    return rc;
}
