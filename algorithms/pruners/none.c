/* The pruner that keeps the grown tree as it is. */
#include "treelab/tl_tree.h"

static int prune(tl_tree *t, const tl_prune_ctx *c, tl_err *err)
{
    (void)t;
    (void)c;
    (void)err;
    return TL_OK;
}

static const tl_pruner_type none = {.name = "none", .prune = prune};
const tl_pruner_type *const tl_pruner_none = &none;
