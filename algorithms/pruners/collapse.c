/* J48's collapse step as a pruner of its own: a subtree whose leaves misclassify no less
 * training weight than the node would as a leaf is replaced by that leaf (top-down; J48 does
 * it before pruning, and also for its unpruned tree). The step is the tree's
 * (tl_tree_collapse), so error_based runs it without knowing this plug-in. */
#include "treelab/tl_prune.h"

static int prune(const void *state, tl_tree *t, const tl_prune_input *in, tl_prune_trace *trace,
                 tl_err *err)
{
    (void)state;
    (void)in;
    (void)trace;
    if (t->regression)
        return tl_err_set(err, TL_EINVAL, "the collapse pruner needs a class target");
    return tl_tree_collapse(t, err);
}

static const tl_pruner_type collapse_type = {
    .name = "collapse",
    .summary = "J48's collapse: subtrees that do not lower the training error become leaves",
    .reference = "Weka J48 (C45PruneableClassifierTree.collapse)",
    .needs = TL_NEEDS_CLASSES,
    .prune = prune,
};
const tl_pruner_type *const tl_pruner_collapse = &collapse_type;
