/* J48's collapse step: a subtree whose leaves misclassify no less training weight than the
 * node would as a leaf is replaced by that leaf (top-down; J48 does it before pruning, and
 * also for its unpruned tree). */
#include "treelab/tl_prune.h"

static double training_errors(const tl_tree *t, size_t node)
{
    if (t->attr[node] < 0)
        return tl_tree_node_error(t, node);
    double e = 0;
    for (size_t c = 0; c < t->n_children[node]; c++)
        e += training_errors(t, t->first_child[node] + c);
    return e;
}

static void collapse(tl_tree *t, size_t node)
{
    if (t->attr[node] < 0)
        return;
    /* J48's 1e-3 absorbs the rounding of fractional weights */
    if (training_errors(t, node) >= tl_tree_node_error(t, node) - 1e-3) {
        tl_tree_make_leaf(t, node);
        return;
    }
    for (size_t c = 0; c < t->n_children[node]; c++)
        collapse(t, t->first_child[node] + c);
}

static int prune(const void *state, tl_tree *t, const tl_prune_input *in, tl_prune_trace *trace,
                 tl_err *err)
{
    (void)state;
    (void)in;
    (void)trace;
    if (t->regression)
        return tl_err_set(err, TL_EINVAL, "the collapse pruner needs a class target");
    collapse(t, 0);
    return tl_tree_compact(t, err);
}

static const tl_pruner_type collapse_type = {
    .name = "collapse",
    .summary = "J48's collapse: subtrees that do not lower the training error become leaves",
    .reference = "Weka J48 (C45PruneableClassifierTree.collapse)",
    .needs = TL_NEEDS_CLASSES,
    .prune = prune,
};
const tl_pruner_type *const tl_pruner_collapse = &collapse_type;
