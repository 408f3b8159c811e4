/* Learned direction (scikit-learn 1.3): each split tries its unknown rows in every branch,
 * keeps the placement with the highest gain (the last branch on ties, as scikit-learn tries
 * right before left), and sends unknowns there when predicting. A split that saw no unknown
 * value sends them to the branch with the most weight. */
#include "treelab/tl_grow.h"

static int route(const void *state, const tl_grow_ctx *g, tl_tree *t, size_t node,
                 const tl_node_rows *rows, const tl_split *s, int *branch, tl_err *err)
{
    (void)state;
    (void)err;
    int to = s->missing_branch >= 0 && (size_t)s->missing_branch < s->n_branches
                 ? s->missing_branch
                 : tl_grow_heaviest_branch(g, rows, branch, s->n_branches);
    tl_grow_send_unknown(rows, branch, to);
    t->unknown[node] = (signed char)to;
    return TL_OK;
}

static const tl_missing_type learned = {
    .name = "learned",
    .summary = "each split learns the branch its unknowns go to (scikit-learn 1.3)",
    .reference = "scikit-learn 1.3, DecisionTreeClassifier: missing value support",
    .scoring = TL_MISSING_SCORE_BEST_BRANCH,
    .route = route,
};

const tl_missing_type *const tl_missing_learned = &learned;
