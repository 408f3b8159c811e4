/* The pruner that keeps the grown tree as it is. */
#include "treelab/tl_prune.h"

static int prune(const void *state, tl_tree *t, const tl_prune_input *in, tl_prune_trace *trace,
                 tl_err *err)
{
    (void)state;
    (void)t;
    (void)in;
    (void)trace;
    (void)err;
    return TL_OK;
}

static const tl_pruner_type none = {
    .name = "none",
    .summary = "keep the grown tree",
    .reference = "",
    .prune = prune,
};
const tl_pruner_type *const tl_pruner_none = &none;
