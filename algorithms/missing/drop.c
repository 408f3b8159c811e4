/* Complete cases: the rows with an unknown attribute value are left out before growing
 * (listwise deletion); a row predicted with an unknown value stops at the node (its own
 * prediction), goes to the heaviest branch, or down every branch by share (`predict`). */
#include <stdlib.h>
#include <string.h>

#include "treelab/tl_plugin.h"

static const tl_param_spec params[] = {
    {"predict", TL_PARAM_CHOICE, "stop", 0, 0, "stop|majority|fractional",
     "a row with an unknown value when predicting: the node's own prediction, the heaviest "
     "branch, or every branch by its share"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

typedef struct options {
    int rule; /* TL_UNKNOWN_STOP, TL_UNKNOWN_HEAVIEST or TL_UNKNOWN_SHARE */
} options;

static void *init(const tl_params *p, tl_err *err)
{
    tl_param_reader rd = tl_params_reader(params, p, err);
    const char *v = tl_params_string(&rd, "predict");
    if (rd.rc)
        return NULL;
    options *o = malloc(sizeof *o);
    if (!o) {
        tl_err_set(err, TL_ENOMEM, "out of memory");
        return NULL;
    }
    o->rule = !strcmp(v, "stop")       ? TL_UNKNOWN_STOP
              : !strcmp(v, "majority") ? TL_UNKNOWN_HEAVIEST
                                       : TL_UNKNOWN_SHARE;
    return o;
}

static void release(void *state)
{
    free(state);
}

static int route(const void *state, const tl_grow_ctx *g, tl_tree *t, size_t node,
                 const tl_node_rows *rows, const tl_split *s, int *branch, tl_err *err)
{
    (void)g;
    (void)rows;
    (void)s;
    (void)branch; /* no row grown on has an unknown value */
    (void)err;
    t->unknown[node] = (signed char)((const options *)state)->rule;
    return TL_OK;
}

static const tl_missing_type drop = {
    .name = "drop",
    .summary = "grow on the rows without unknown values only (complete cases)",
    .reference = "Ding & Simonoff, An investigation of missing data methods for "
                 "classification trees, JMLR 11 (2010)",
    .params = params,
    .init = init,
    .free = release,
    .complete_rows = 1,
    .scoring = TL_MISSING_SCORE_SHARE,
    .route = route,
};

const tl_missing_type *const tl_missing_drop = &drop;
