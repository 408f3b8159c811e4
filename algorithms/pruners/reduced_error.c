/* Reduced-error pruning (Quinlan 1987): bottom-up, a subtree becomes a leaf when that does not
 * lower the accuracy on the validation rows reaching it. */
#include <stdlib.h>

#include <math.h>

#include "treelab/tl_prune.h"

/* Validation weight the subtree at node gets right once pruned; prunes on the way up. */
static double prune_node(tl_tree *t, size_t node, const double *reach)
{
    double as_leaf = reach[node * t->k + tl_tree_node_class(t, node)];
    if (t->attr[node] < 0)
        return as_leaf;
    double sub = 0;
    for (size_t c = 0; c < t->n_children[node]; c++)
        sub += prune_node(t, t->first_child[node] + c, reach);
    if (as_leaf >= sub - 1e-9) {
        tl_tree_make_leaf(t, node);
        return as_leaf;
    }
    return sub;
}

static int prune(const void *state, tl_tree *t, const tl_prune_input *in, tl_prune_trace *trace,
                 tl_err *err)
{
    (void)state;
    /* with no validation rows every subtree "keeps" an accuracy of 0 and the tree would be
     * cut to its root without a word */
    if (!in->valid_rows || !in->n_valid)
        return tl_err_set(err, TL_EINVAL,
                          "reduced-error pruning needs validation rows, and "
                          "there are none");
    double *reach = malloc(t->n_nodes * t->k * sizeof *reach);
    if (!reach)
        return tl_err_set(err, TL_ENOMEM, "out of memory");
    double before = (double)tl_tree_leaves(t, 0);
    int rc = tl_tree_route(t, in->d, in->valid_rows, in->n_valid, reach, err);
    if (!rc) {
        prune_node(t, 0, reach);
        rc = tl_tree_compact(t, err);
    }
    free(reach);
    return rc ? rc : tl_prune_trace_two(trace, "step", 1, before, t, err);
}

static const tl_pruner_type reduced_error = {
    .name = "reduced_error",
    .summary = "bottom-up, a subtree becomes a leaf unless that lowers validation accuracy",
    .reference = "Quinlan, Simplifying decision trees, Int. J. Man-Machine Studies 27 (1987)",
    .needs = TL_NEEDS_VALIDATION | TL_NEEDS_CLASSES,
    .prune = prune,
};
const tl_pruner_type *const tl_pruner_reduced_error = &reduced_error;
