/* Unknown as a value of its own: a split at a node with unknown values gets one more branch
 * for them, scored as a branch like the others; where a split saw none, an unknown stops at
 * the node when predicting (its own prediction). */
#include "treelab/tl_grow.h"

static int route(const void *state, const tl_grow_ctx *g, tl_tree *t, size_t node,
                 const tl_node_rows *rows, const tl_split *s, int *branch, tl_err *err)
{
    (void)state;
    (void)g;
    (void)err;
    /* a splitter that does not score through the grower (c45_threshold) gives no extra
     * branch: its unknown rows stay at the node */
    int to = s->missing_branch >= 0 && (size_t)s->missing_branch < s->n_branches ? s->missing_branch
                                                                                 : TL_UNKNOWN_STOP;
    tl_grow_send_unknown(rows, branch, to);
    t->unknown[node] = (signed char)to;
    return TL_OK;
}

static const tl_missing_type separate = {
    .name = "separate",
    .summary = "unknown as a branch of its own",
    .reference = "Quinlan, Unknown attribute values in induction (1989); Ding & Simonoff (2010)",
    .scoring = TL_MISSING_SCORE_OWN_BRANCH,
    .route = route,
};

const tl_missing_type *const tl_missing_separate = &separate;
