/* Majority: a row whose value is unknown goes to the branch holding the most known weight,
 * while growing and while predicting; tests are scored on the known rows, as C4.5 does. */
#include "treelab/tl_grow.h"

static int route(const void *state, const tl_grow_ctx *g, tl_tree *t, size_t node,
                 const tl_node_rows *rows, const tl_split *s, int *branch, tl_err *err)
{
    (void)state;
    (void)err;
    int to = tl_grow_heaviest_branch(g, rows, branch, s->n_branches);
    tl_grow_send_unknown(rows, branch, to);
    t->unknown[node] = (signed char)to;
    return TL_OK;
}

static const tl_missing_type majority = {
    .name = "majority",
    .summary = "to the branch with the most known weight, growing and predicting",
    .reference = "Kononenko, Bratko & Roskar (1984); Ding & Simonoff, JMLR 11 (2010)",
    .scoring = TL_MISSING_SCORE_SHARE,
    .route = route,
};

const tl_missing_type *const tl_missing_majority = &majority;
